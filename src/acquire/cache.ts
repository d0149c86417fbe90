// The provider cache, laid out as the reference implementation (OpenTofu's providercache) lays it out:
// <root>/<host>/<namespace>/<type>/<version>/<os>_<arch>/terraform-provider-<type>_v<version>, so both share one cache.
// Installs are atomic (staged in a sibling directory, then renamed into place) and locked per version and platform.
import { randomBytes } from "node:crypto";
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { domainToUnicode } from "node:url";
import semver from "semver";
import type { ProviderAddress } from "./address.js";
import { ParameterizeError } from "./errors.js";
import { exactVersionProblem, isExactVersion } from "./version.js";

let lockfileModule: Promise<typeof import("proper-lockfile")> | undefined;

/**
 * proper-lockfile, loaded at the first install: its signal-exit installs process signal listeners as it loads, which
 * would otherwise run at every start and which a V8 startup snapshot cannot hold (scripts/package.sh builds one).
 */
function properLockfile(): Promise<typeof import("proper-lockfile")> {
  return (lockfileModule ??= import("proper-lockfile").then((m) => {
    // Node ignores SIGXFSZ, so a write past a file size limit (ulimit -f) fails with EFBIG and is reported below. But
    // signal-exit listens for it and, when it is the only listener, re-raises it to kill the process; a listener of our
    // own keeps it a failed write.
    process.on("SIGXFSZ", () => undefined);
    return m.default;
  }));
}

/** The environment variable the reference reads, with the same default: `$PULUMI_HOME/dynamic_tf_plugins`. */
export const CACHE_DIR_ENV = "PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR";

/** Pulumi's own directory, as the CLI finds it: `$PULUMI_HOME`, default `~/.pulumi`. */
export function pulumiHome(env: NodeJS.ProcessEnv = process.env): string {
  return env["PULUMI_HOME"] || join(env["HOME"] || homedir(), ".pulumi");
}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CACHE_DIR_ENV];
  if (given !== undefined && given !== "") return given;
  return join(pulumiHome(env), "dynamic_tf_plugins");
}

/** Host directory name: Terraform writes hosts in their display (Unicode) form, ports included. */
export function hostDirName(host: string): string {
  const [name, port] = host.split(":") as [string, string | undefined];
  const display = domainToUnicode(name) || name;
  return port === undefined ? display : `${display}:${port}`;
}

export function providerDir(root: string, a: ProviderAddress): string {
  return join(root, hostDirName(a.host), a.namespace, a.type);
}

export function packageDir(root: string, a: ProviderAddress, version: string, platform: string): string {
  return join(providerDir(root, a), version, platform);
}

/**
 * The provider executable in an unpacked package, found as Terraform finds it: the first file (by name) that is
 * `terraform-provider-<type>` optionally followed by `_…` or `.…` (e.g. `terraform-provider-random_v3.6.3`).
 */
export function findExecutable(dir: string, type: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return undefined;
  }
  const prefix = `terraform-provider-${type}`;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    if (rest !== "" && rest[0] !== "_" && rest[0] !== ".") continue;
    try {
      if (statSync(join(dir, name)).isFile()) return join(dir, name);
    } catch {
      // raced with a removal
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable of a complete cached package, or undefined. */
export function cachedExecutable(root: string, a: ProviderAddress, version: string, platform: string): string | undefined {
  const exe = findExecutable(packageDir(root, a, version, platform), a.type);
  return exe !== undefined && isExecutable(exe) ? exe : undefined;
}

/** Versions with a complete package for `platform` under `root`, newest first. */
export function cachedVersions(root: string, a: ProviderAddress, platform: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(providerDir(root, a));
  } catch {
    return [];
  }
  return entries.filter((v) => isExactVersion(v) && cachedExecutable(root, a, v, platform) !== undefined).sort(semver.rcompare);
}

// ---- Installing ----

export interface InstallOptions {
  /** Told once when another process holds the lock, so the user knows why nothing moves. */
  onWait?: (message: string) => void;
  /** How long to wait for another install of the same package; default 15 minutes. */
  waitTimeoutMs?: number;
}

/** A lock whose owner stopped updating it for this long is taken over (the owner refreshes it every STALE/2). */
const STALE_MS = 30_000;
/** Installs of the same package within this process share one promise; the file lock covers other processes. */
const inFlight = new Map<string, Promise<string>>();

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function acquireLock(lockPath: string, target: string, options: InstallOptions): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.waitTimeoutMs ?? 15 * 60_000);
  let told = false;
  let compromised: Error | undefined;
  const lockfile = await properLockfile();
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    try {
      const release = await lockfile.lock(target, {
        lockfilePath: lockPath,
        realpath: false,
        stale: STALE_MS,
        retries: 0,
        // The default throws from a timer, which would take the whole plugin down; failing this install is enough.
        onCompromised: (e) => {
          compromised = e;
        },
      });
      return async () => {
        await release().catch(() => undefined);
        if (compromised) throw new ParameterizeError("failed-precondition", `the install lock ${lockPath} was taken over while installing: ${compromised.message}`);
      };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        // Another process removed the empty version directory between our mkdir and our lock.
        await mkdir(join(lockPath, ".."), { recursive: true });
        continue;
      }
      if (code !== "ELOCKED") throw e;
      if (!told) {
        told = true;
        options.onWait?.(`Waiting for another process that is installing into ${target}…`);
      }
      if (Date.now() > deadline) {
        throw new ParameterizeError("failed-precondition", `timed out waiting for the install lock ${lockPath}; if no other install is running, remove it`);
      }
      await sleep(delay);
    }
  }
}

/** The file system ran out of room (a full disk, a used-up quota, or a process file size limit, ulimit -f). */
export class DiskFullError extends Error {
  override name = "DiskFullError";
}

const FREE_SPACE = `Free some space there, or set ${CACHE_DIR_ENV} to a directory on a disk with room`;
const DISK_FULL: Record<string, { why: string; advice: string }> = {
  ENOSPC: { why: "the disk is full", advice: FREE_SPACE },
  EDQUOT: { why: "the disk quota is used up", advice: `Free some space there or raise the quota, or set ${CACHE_DIR_ENV} to a directory elsewhere` },
  EFBIG: { why: "a file would grow past this process's file size limit (ulimit -f)", advice: "Raise the file size limit (ulimit -f) of the pulumi command" },
};

/** A full disk, said in words that name the cache and what to do; any other error as it is. */
function diskFull(e: unknown, root: string, target: string): unknown {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const full = typeof code === "string" ? DISK_FULL[code] : undefined;
  if (full === undefined) return e;
  return new DiskFullError(`no space left in ${root} (${code}: ${full.why}) while writing ${target}; nothing was installed. ${full.advice}`, { cause: e });
}

/** Removes now-empty directories from `dir` up to (not including) `stopAt`. */
async function pruneEmpty(dir: string, stopAt: string): Promise<void> {
  for (let d = dir; d.startsWith(stopAt) && d !== stopAt; d = join(d, "..")) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
  }
}

/**
 * Installs a package into the cache unless it is already there, and returns its executable. `fill` writes the
 * unpacked package into a fresh staging directory beside the target (with a scratch directory for downloads); the staging directory is renamed into place
 * only when `fill` succeeds and an executable is found, so the cache never holds a partial package. The whole
 * check-fill-rename runs under a lock shared by every process using this cache root.
 */
export async function installPackage(
  root: string,
  a: ProviderAddress,
  version: string,
  platform: string,
  fill: (staging: string, scratch: string) => Promise<void>,
  options: InstallOptions = {},
): Promise<string> {
  // The version names the directory and the lock file: only one that reads back as the same version may.
  const problem = exactVersionProblem(version);
  if (problem !== undefined) throw new ParameterizeError("invalid-argument", `cannot install version ${JSON.stringify(version)} of ${a.type}: ${problem}`);
  const target = packageDir(root, a, version, platform);
  const pending = inFlight.get(target);
  if (pending) return pending;
  const run = installLocked(root, target, a, version, platform, fill, options)
    .catch((e: unknown) => Promise.reject(diskFull(e, root, target)))
    .finally(() => inFlight.delete(target));
  inFlight.set(target, run);
  return run;
}

async function installLocked(
  root: string,
  target: string,
  a: ProviderAddress,
  version: string,
  platform: string,
  fill: (staging: string, scratch: string) => Promise<void>,
  options: InstallOptions,
): Promise<string> {
  const versionDir = join(target, "..");
  await mkdir(versionDir, { recursive: true });
  // Hidden names that are not valid platforms, so the reference's cache scan ignores them.
  const lockPath = join(versionDir, `.${platform}.install-lock`);
  const release = await acquireLock(lockPath, target, options);
  let ok = false;
  try {
    const existing = cachedExecutable(root, a, version, platform);
    if (existing !== undefined) {
      ok = true;
      return existing;
    }
    // Leftovers of a killed install (we hold the lock, so nobody is using them) and an incomplete target.
    for (const name of await readdir(versionDir)) {
      if (name.startsWith(`.${platform}.staging-`)) await rm(join(versionDir, name), { recursive: true, force: true });
    }
    await rm(target, { recursive: true, force: true });
    const staging = await mkdtemp(join(versionDir, `.${platform}.staging-${randomBytes(3).toString("hex")}-`));
    // Downloads land beside the staging directory, never inside it: the package is exactly what the archive held.
    const scratch = await mkdtemp(join(versionDir, `.${platform}.staging-${randomBytes(3).toString("hex")}-download-`));
    try {
      await fill(staging, scratch);
      const exe = findExecutable(staging, a.type);
      if (exe === undefined) {
        throw new ParameterizeError(
          "failed-precondition",
          `the package of ${a.type} ${version} has no executable named terraform-provider-${a.type}[_…]: it is not a Terraform provider package`,
        );
      }
      if (((await stat(exe)).mode & 0o111) === 0) await chmod(exe, 0o755);
      try {
        await rename(staging, target);
      } catch (e) {
        // Another installer that does not take our lock (the reference implementation locks differently) filled
        // the target meanwhile: use its package if it is complete.
        const code = (e as NodeJS.ErrnoException).code;
        const theirs = code === "ENOTEMPTY" || code === "EEXIST" ? cachedExecutable(root, a, version, platform) : undefined;
        if (theirs === undefined) throw e;
        await rm(staging, { recursive: true, force: true });
      }
    } catch (e) {
      await rm(staging, { recursive: true, force: true });
      throw e;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    const installed = cachedExecutable(root, a, version, platform);
    if (installed === undefined) throw new ParameterizeError("failed-precondition", `installed ${target}, but its executable cannot be run`);
    ok = true;
    return installed;
  } finally {
    await release();
    if (!ok) await pruneEmpty(versionDir, root);
  }
}
