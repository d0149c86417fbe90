// The provider cache, laid out as the reference implementation (OpenTofu's providercache) lays it out:
// <root>/<host>/<namespace>/<type>/<version>/<os>_<arch>/terraform-provider-<type>_v<version>, so both share one cache.
// Installs are atomic (staged in a sibling directory, then renamed into place) and locked per version and platform.
import { randomBytes } from "node:crypto";
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
        await makeDirectory(join(lockPath, ".."));
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

/**
 * The cache cannot take the package: its file system is read-only or full, this user may not write there, or a part
 * of its path is a file.
 */
export class CacheNotWritableError extends Error {
  override name = "CacheNotWritableError";
  constructor(
    /** The errno code that said so (EROFS, EACCES, ENOTDIR, ENOSPC, …). */
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const ELSEWHERE = `set ${CACHE_DIR_ENV} to a writable directory`;
const CANNOT_WRITE: Record<string, (at: string) => { why: string; advice: string }> = {
  ENOSPC: () => ({ why: "no space left: the disk is full", advice: `Free some space there, or set ${CACHE_DIR_ENV} to a directory on a disk with room` }),
  EDQUOT: () => ({ why: "no space left: the disk quota is used up", advice: `Free some space there or raise the quota, or set ${CACHE_DIR_ENV} to a directory elsewhere` }),
  EFBIG: () => ({ why: "no space left: a file would grow past this process's file size limit (ulimit -f)", advice: "Raise the file size limit (ulimit -f) of the pulumi command" }),
  // A container's root file system or a mounted volume is often read-only; only another directory helps.
  EROFS: (at) => ({ why: `read-only file system at ${at}`, advice: `Mount it writable, or ${ELSEWHERE} (in a container, a volume or a tmpfs)` }),
  EACCES: (at) => ({ why: `permission denied at ${at}`, advice: `Give this user (uid ${uid()}) write access there, or ${ELSEWHERE}` }),
  EPERM: (at) => ({ why: `operation not permitted at ${at}`, advice: `Give this user (uid ${uid()}) write access there, or ${ELSEWHERE}` }),
  ENOTDIR: (at) => ({ why: `${at} is a file, not a directory`, advice: `Move that file away, or ${ELSEWHERE}` }),
};

const uid = (): string => String(process.getuid?.() ?? "?");

/** A file system failure to write the cache, said in words that name the cache, the cause and what to do; any other error as it is. */
function notWritable(e: unknown, root: string, target: string): unknown {
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  const say = typeof code === "string" ? CANNOT_WRITE[code] : undefined;
  if (say === undefined) return e;
  const { why, advice } = say(err?.path ?? root);
  return new CacheNotWritableError(code!, `the plugin cache at ${root} cannot be written (${code}: ${why}) while installing ${target}; nothing was installed. ${advice}`, { cause: e });
}

/**
 * `mkdir -p` that fails with the real cause. Node's recursive mkdir reports a read-only file system as ENOENT (Node
 * 20: "no such file or directory, mkdir '<the first missing level>'"), and a file in the way as ENOTDIR naming the
 * whole path; made one level at a time, each failure is the kernel's own for the level that failed, and a file in the
 * way is named.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let found;
    try {
      found = await stat(at);
    } catch (e) {
      // ENOTDIR: a file further up, found as the walk reaches it.
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
    }
    if (found?.isDirectory()) break;
    if (found !== undefined) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}' (${at} is a file)`), { code: "ENOTDIR", syscall: "mkdir", path: at });
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (e) {
      // Another process made it meanwhile.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
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
    .catch((e: unknown) => Promise.reject(notWritable(e, root, target)))
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
  await makeDirectory(versionDir);
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
