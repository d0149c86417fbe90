// Acquisition of a provider by address and version constraint, as `terraform init` does it: installation methods
// from the CLI configuration, the newest matching version across them, the cache first when that settles it, then a
// verified, atomic, locked install; an unreachable registry falls back to the cache with a warning.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import semver from "semver";
import { DEFAULT_REGISTRY_HOST, formatAddress, type ProviderAddress } from "./address.js";
import { cachedExecutable, cachedVersions, cacheRoot, hostDirName, installPackage } from "./cache.js";
import { describeMethod, impliedMirrorDirs, loadCliConfig, methodApplies, type CliConfig, type InstallationMethod } from "./cliconfig.js";
import { exactVersion, satisfies, type VersionConstraint } from "./constraint.js";
import { tokenForHost } from "./credentials.js";
import { ParameterizeError } from "./errors.js";
import { Http, HttpFailure } from "./http.js";
import { FilesystemMirrorSource, NetworkMirrorSource } from "./mirror.js";
import { currentPlatform, formatPlatform } from "./platform.js";
import { RegistrySource } from "./registry.js";
import { acquireSettings } from "./settings.js";
import { hashV1 } from "./verify.js";
import { protocolsSupported, type AvailableVersion, type InstallContext, type PackageSource } from "./source.js";

export interface RemoteBinary {
  /** Absolute path of the downloaded, verified, cached binary. */
  path: string;
  /** The exact version the constraint resolved to; value bytes pin it. */
  version: string;
  /** The package's lock hashes as installed (its `h1:`), for the value to pin. */
  hashes: string[];
}

export interface AcquireOptions {
  /** Progress for the user (ephemeral status lines): resolving, download progress, unpacking. */
  status?: (message: string) => void;
  /** Lasting notes for the user: offline fallback, unsigned packages, ignored configuration. */
  warn?: (message: string) => void;
  /** The environment to read configuration, credentials and the cache location from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The lock hashes an SDK's value pinned; the package used must match one of them (checked on every install path:
   * cache, mirrors, registry). Absent when there is no value yet (`package add`); empty for a value that pins none,
   * when the check is skipped and `debug` says so.
   */
  lockHashes?: readonly string[];
  /** Notes only worth a debug log line. */
  debug?: (message: string) => void;
}

interface Method {
  method: InstallationMethod;
  source: PackageSource;
}

/** The installation methods that apply to this provider, in order: explicit ones, or Terraform's implied set. */
function applicableMethods(config: CliConfig, a: ProviderAddress, env: NodeJS.ProcessEnv, home: string, http: Http): Method[] {
  let methods: InstallationMethod[];
  if (config.installation !== undefined) {
    methods = config.installation.filter((m) => methodApplies(m, a));
  } else {
    // Implied: every implied mirror directory that has this provider, and only if none has it, the origin registry.
    const mirrors = impliedMirrorDirs(env, home).filter((d) => [hostDirName(a.host), a.host].some((h) => existsSync(join(d, h, a.namespace, a.type))));
    methods = mirrors.length > 0
      ? mirrors.map((path): InstallationMethod => ({ kind: "filesystem_mirror", path, include: [], exclude: [] }))
      : [{ kind: "direct", include: [], exclude: [] }];
  }
  return methods.map((method) => ({
    method,
    source:
      method.kind === "direct"
        ? new RegistrySource(a.host, http)
        : method.kind === "network_mirror"
          ? new NetworkMirrorSource(method.url, http)
          : new FilesystemMirrorSource(method.path),
  }));
}

function failure(kind: ParameterizeError["kind"], message: string, cause?: unknown): ParameterizeError {
  return new ParameterizeError(kind, message, cause === undefined ? undefined : { cause });
}

const isUnreachable = (e: unknown): boolean => e instanceof HttpFailure && e.kind === "unreachable";

/**
 * Resolves the constraint and returns a cached, verified binary. An exact version already in the cache (or in
 * Terraform's plugin_cache_dir) needs no network; anything else asks the sources, so "newest" means the newest
 * published, not the newest cached — unless no source can be reached, when the newest cached match is used with a
 * warning.
 */
export async function acquireRemote(address: ProviderAddress, constraint: VersionConstraint, options: AcquireOptions = {}): Promise<RemoteBinary> {
  const found = await acquireUnchecked(address, constraint, options);
  // h1: is the one hash every install path can compute from what it has (mirrors and caches hold no archive).
  const h1 = await hashV1(dirname(found.path));
  checkLockHashes(address, found.version, found.path, [h1], options);
  const zh = registryArchiveHash(dirname(found.path));
  return { ...found, hashes: zh === undefined ? [h1] : [h1, zh] };
}

/**
 * The registry's `zh:` of the archive a cached package was unpacked from, kept beside the package (not in it: the
 * package directory is what `h1:` hashes) so a later `package add` records it as `.terraform.lock.hcl` would.
 */
function registryArchiveHash(packageDir: string): string | undefined {
  try {
    const zh = readFileSync(`${packageDir}.zh`, "utf8").trim();
    return /^zh:[0-9a-f]{64}$/.test(zh) ? zh : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The installed package against the value's lock hashes. The package directory is hashed on every use rather than
 * trusting a stamp written at install: a stamp would not catch a cache altered after it was written, and hashing a
 * provider of some tens of megabytes costs tens of milliseconds next to starting it.
 */
function checkLockHashes(address: ProviderAddress, version: string, path: string, got: string[], options: AcquireOptions): void {
  const label = `${formatAddress(address)} ${version}`;
  // Nothing to check against: `package add`, which is about to record the hash.
  if (options.lockHashes === undefined) return;
  const h1 = options.lockHashes.filter((h) => h.startsWith("h1:"));
  if (h1.length === 0) {
    options.debug?.(`${label}: the parameter value pins no h1: lock hash (an SDK generated before lock hashes, or by the reference), so the package is not checked against one`);
    return;
  }
  if (got.some((h) => h1.includes(h))) return;
  const a = address.host === DEFAULT_REGISTRY_HOST ? `${address.namespace}/${address.type}` : formatAddress(address);
  throw failure(
    "failed-precondition",
    `the package of ${label} at ${dirname(path)} has lock hash ${got.join(", ")}, but the SDK was generated from one with ${h1.join(", ")}: ` +
      `the registry, a mirror or the cache now holds a different package under that version. If the new package is trusted, regenerate the SDK ` +
      `with \`pulumi package add terraform-provider ${a} ${version}\` (or replace "hashes" in its parameter value); otherwise remove ${dirname(path)} and find out who changed it`,
  );
}

async function acquireUnchecked(address: ProviderAddress, constraint: VersionConstraint, options: AcquireOptions): Promise<Omit<RemoteBinary, "hashes">> {
  const env = options.env ?? process.env;
  const home = env["HOME"] || homedir();
  const status = options.status ?? (() => undefined);
  const warn = options.warn ?? (() => undefined);
  const platform = formatPlatform(currentPlatform());
  const root = cacheRoot(env);
  const label = formatAddress(address);
  const wanted = constraint.raw === "" ? "the newest version" : `"${constraint.raw}"`;

  // The common case on every `pulumi up`: the value pins a version that is cached. No configuration, no network.
  const exact = exactVersion(constraint);
  if (exact !== undefined) {
    const hit = cachedExecutable(root, address, exact, platform);
    if (hit !== undefined) return { path: hit, version: exact };
  }

  const config = await loadCliConfig(env, home, DEFAULT_REGISTRY_HOST);
  for (const w of config.warnings) warn(w);
  // Terraform's own shared cache is read, never written: Terraform manages it (and its lock file rules).
  const caches = [root, ...(config.pluginCacheDir !== undefined ? [config.pluginCacheDir] : [])];
  const fromCache = (version: string): string | undefined => {
    for (const c of caches) {
      const exe = cachedExecutable(c, address, version, platform);
      if (exe !== undefined) return exe;
    }
    return undefined;
  };
  if (exact !== undefined) {
    const hit = fromCache(exact);
    if (hit !== undefined) return { path: hit, version: exact };
  }

  const settings = acquireSettings(env);
  const http = new Http({ ...settings, tokenFor: (host) => tokenForHost(host, { env, configured: config.credentials }), onRetry: status });
  const methods = applicableMethods(config, address, env, home, http);
  if (methods.length === 0) {
    throw failure(
      "failed-precondition",
      `no provider installation method applies to ${label}: the provider_installation block in ${config.files.join(", ")} excludes it (or includes only other providers)`,
    );
  }
  const ctx: InstallContext = { http, platform, status, warn, maxUnpackedBytes: settings.maxUnpackedBytes };

  status(`Resolving ${label} (${wanted})…`);
  const listings = await Promise.all(
    methods.map(async (m) => {
      try {
        return { m, versions: await m.source.versions(address, ctx) };
      } catch (e) {
        return { m, error: e as unknown };
      }
    }),
  );
  const unreachable = listings.filter((l) => l.error !== undefined && isUnreachable(l.error));
  const broken = listings.find((l) => l.error !== undefined && !isUnreachable(l.error));
  if (broken !== undefined) {
    const e = broken.error;
    throw failure(
      "failed-precondition",
      `cannot resolve ${label} from ${broken.m.source.description}: ${(e as Error).message}`,
      e,
    );
  }

  // version → the methods offering it (in method order) with what they say about it
  const offered = new Map<string, { m: Method; info: AvailableVersion }[]>();
  for (const l of listings) {
    for (const info of l.versions ?? []) {
      if (semver.valid(info.version) === null) continue;
      const list = offered.get(info.version) ?? [];
      list.push({ m: l.m, info });
      offered.set(info.version, list);
    }
  }
  const usable = (i: AvailableVersion): boolean => (i.platforms === undefined || i.platforms.includes(platform)) && protocolsSupported(i.protocols);
  const matching = [...offered.keys()].filter((v) => satisfies(constraint, v)).sort(semver.rcompare);
  const skipped: string[] = [];
  let chosen: string | undefined;
  for (const v of matching) {
    if (offered.get(v)!.some((o) => usable(o.info))) {
      chosen = v;
      break;
    }
    const info = offered.get(v)!.map((o) => o.info);
    skipped.push(
      info.some((i) => !protocolsSupported(i.protocols))
        ? `${v} (plugin protocol ${info.flatMap((i) => i.protocols ?? []).join(", ")}; we speak 5 and 6)`
        : `${v} (no ${platform} package)`,
    );
  }
  if (skipped.length > 0 && chosen !== undefined) warn(`${label}: skipped newer matching versions ${skipped.join(", ")}; using ${chosen}`);

  if (unreachable.length > 0) {
    const why = unreachable.map((l) => `${l.m.source.description}: ${(l.error as Error).message}`).join("; ");
    const cached = caches.flatMap((c) => cachedVersions(c, address, platform)).filter((v) => satisfies(constraint, v)).sort(semver.rcompare)[0];
    if (cached !== undefined && (chosen === undefined || semver.gte(cached, chosen))) {
      warn(`could not reach ${why}. Using ${label} ${cached} from the cache, the newest cached version matching ${wanted}; a newer one may have been published.`);
      return { path: fromCache(cached)!, version: cached };
    }
    if (chosen === undefined) {
      throw failure("failed-precondition", `cannot resolve ${label} (${wanted}): could not reach ${why}, and no cached version matches`, unreachable[0]!.error);
    }
    warn(`could not reach ${why}; choosing ${label} ${chosen} among the versions the other sources offer`);
  }

  if (chosen === undefined) {
    if (offered.size === 0) {
      const where = methods.map((m) => m.source.description).join(", ");
      throw failure("not-found", `provider ${label} not found: ${where} ${methods.length > 1 ? "have" : "has"} no provider ${address.namespace}/${address.type}`);
    }
    const available = [...offered.keys()].filter((v) => semver.valid(v)).sort(semver.rcompare);
    const shown = available.slice(0, 12).join(", ") + (available.length > 12 ? `, … (${available.length} in all)` : "");
    const extra = skipped.length > 0 ? `; matching but unusable here: ${skipped.join(", ")}` : "";
    throw failure("not-found", `no version of ${label} matches ${wanted}; available: ${shown}${extra}`);
  }

  const hit = fromCache(chosen);
  if (hit !== undefined) {
    status(`Using ${label} ${chosen} from the cache (${hit})`);
    return { path: hit, version: chosen };
  }

  const from = offered.get(chosen)!.find((o) => usable(o.info))!.m;
  let note = "";
  let zh: string | undefined;
  try {
    const path = await installPackage(
      root,
      address,
      chosen,
      platform,
      async (staging, scratch) => {
        note = await from.source.install(address, chosen, staging, scratch, { ...ctx, registryArchive: (h) => (zh = h) });
      },
      { onWait: status },
    );
    if (zh !== undefined) {
      // Written beside, then renamed: a reader sees the whole hash or none.
      const tmp = `${dirname(path)}.zh.${process.pid}`;
      writeFileSync(tmp, `${zh}\n`);
      renameSync(tmp, `${dirname(path)}.zh`);
    }
    status(`Installed ${label} ${chosen} from ${from.source.description}${note !== "" ? ` (${note})` : ""}`);
    return { path, version: chosen };
  } catch (e) {
    if (e instanceof ParameterizeError) throw e;
    throw failure("failed-precondition", `installing ${label} ${chosen} from ${describeMethod(from.method)} failed: ${(e as Error).message}`, e);
  }
}
