// The orchestration of acquiring a provider by address and version constraint, as `terraform init` does it: the
// cache first when that settles it, else the installation methods' newest match, a verified, atomic, locked
// install, and the cache as a fallback when a source cannot be reached.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname } from "node:path";
import semver from "semver";
import { DEFAULT_REGISTRY_HOST, formatAddress, type ProviderAddress } from "./address.js";
import { authenticateInstalled, signatureRecord, unsignedRefused } from "./authentication.js";
import { cacheRoot, installPackage, packageDir } from "./cache.js";
import { CacheSource } from "./cache-source.js";
import { describeMethod, loadCliConfig } from "./cliconfig.js";
import { exactVersion, type VersionConstraint } from "./constraint.js";
import { tokenForHost } from "./credentials.js";
import { HostUnreachableError, invalidArgument, ParameterizeError } from "./errors.js";
import { eventSink, type AcquireEvents, type AcquireEventSink } from "./events.js";
import { Http } from "./http.js";
import { describeWanted, MultiSource, type Resolution, type Selector } from "./multi-source.js";
import { currentPlatform, formatPlatform } from "./platform.js";
import { acquireSettings, enforceSignature } from "./settings.js";
import { protocolsSupported, type InstallContext } from "./source.js";
import { proxySettings, type ProxySettings } from "./proxy.js";

export interface RemoteBinary {
  /** Absolute path of the downloaded, verified, cached binary. */
  path: string;
  /** The exact version the constraint resolved to; value bytes pin it. */
  version: string;
  /** The package's lock hashes as installed (its `h1:`, and the registry archive's `zh:` when known), for the value to pin. */
  hashes: string[];
}

export interface AcquireOptions {
  /** Progress, lasting notes and debug lines, as one object of optional callbacks. */
  events?: AcquireEvents;
  /** The environment to read configuration, credentials and the cache location from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The lock hashes an SDK's value pinned; the package used must match one of them (checked on every install path:
   * cache, mirrors, registry). Absent when there is no value yet (`package add`); empty for a value that pins none,
   * when the check is skipped and a debug event says so.
   */
  lockHashes?: readonly string[];
}

type Found = Omit<RemoteBinary, "hashes">;

/**
 * Resolves the constraint and returns a cached, verified binary. An exact version already in the cache (or in
 * Terraform's plugin_cache_dir) needs no network; anything else asks the sources, so "newest" means the newest
 * published, not the newest cached — unless a source cannot be reached, when a cached match may stand in.
 */
export async function acquireRemote(address: ProviderAddress, constraint: VersionConstraint, options: AcquireOptions = {}): Promise<RemoteBinary> {
  const events = eventSink(options.events);
  const env = options.env ?? process.env;
  const home = env["HOME"] || homedir();
  const platform = formatPlatform(currentPlatform());
  const root = cacheRoot(env);
  const exact = exactVersion(constraint);
  const enforce = enforceSignature(env);
  const settle = async (): Promise<Found> => {
    // The common case on every `pulumi up`: the value pins a version that is cached. No configuration, no network.
    const pinned = exact === undefined ? undefined : new CacheSource([root], platform).locate(address, exact);
    if (pinned !== undefined) return { path: pinned, version: exact! };
    const config = await loadCliConfig(env, home, DEFAULT_REGISTRY_HOST);
    for (const w of config.warnings) events.warn(w);
    const cache = new CacheSource(config.pluginCacheDir !== undefined ? [root, config.pluginCacheDir] : [root], platform);
    const shared = exact === undefined ? undefined : cache.locate(address, exact);
    if (shared !== undefined) return { path: shared, version: exact! };
    const { http, ctx } = installContext(env, config, events, platform, enforce);
    const sources = MultiSource.forProvider(config, address, env, home, http);
    const resolution = await sources.resolve(address, constraint, ctx);
    const chosen = offlineFallback(address, constraint, resolution, cache, events) ?? resolution.chosen;
    if (chosen === undefined) throw sources.notFound(address, constraint, resolution);
    if ("path" in chosen) return chosen;
    return install(address, chosen.version, chosen.from, cache, root, ctx);
  };
  const found = await settle();
  if (enforce && signatureRecord(dirname(found.path)) === undefined) {
    // Whatever path found it (the cache, another tool's cache, an offline fallback), only a recorded signature counts.
    throw unsignedRefused(
      `${formatAddress(address)} ${found.version} in the cache at ${dirname(found.path)}`,
      "no verified signature is recorded for it (it came from a mirror, a registry without signing keys or another tool's cache, or was installed before signatures were recorded)",
      `Remove ${dirname(found.path)} so that it is installed again from its registry`,
    );
  }
  const hashes = await authenticateInstalled(address, found.version, dirname(found.path), options.lockHashes, events);
  return { ...found, hashes };
}

/**
 * When a source could not be reached: the newest cached match if it is at least as new as what the others offer
 * (with a warning that a newer one may exist), else the others' choice (with a warning), else a HostUnreachableError.
 * Undefined when every source answered.
 */
function offlineFallback(address: ProviderAddress, constraint: VersionConstraint, r: Resolution, cache: CacheSource, events: AcquireEventSink): Found | Resolution["chosen"] {
  if (r.unreachable.length === 0) return undefined;
  const label = formatAddress(address);
  const why = r.unreachable.map((u) => `${u.selector.source.description}: ${u.error.message}`).join("; ");
  const cached = cache.newestMatching(address, constraint);
  if (cached !== undefined && (r.chosen === undefined || semver.gte(cached, r.chosen.version))) {
    events.warn(`could not reach ${why}. Using ${label} ${cached} from the cache, the newest cached version matching ${describeWanted(constraint)}; a newer one may have been published.`);
    return { path: cache.locate(address, cached)!, version: cached };
  }
  if (r.chosen === undefined) {
    throw new HostUnreachableError(
      r.unreachable.map((u) => u.selector.source.description),
      `cannot resolve ${label} (${describeWanted(constraint)}): could not reach ${why}, and no cached version matches`,
      { cause: r.unreachable[0]!.error },
    );
  }
  events.warn(`could not reach ${why}; choosing ${label} ${r.chosen.version} among the versions the other sources offer`);
  return r.chosen;
}

/** The chosen version from the cache if it is there, else installed from the source that offered it. */
async function install(address: ProviderAddress, version: string, from: Selector, cache: CacheSource, root: string, ctx: InstallContext): Promise<Found> {
  const label = formatAddress(address);
  const hit = cache.locate(address, version);
  if (hit !== undefined) {
    ctx.events.status(`Using ${label} ${version} from the cache (${hit})`);
    return { path: hit, version };
  }
  let note = "";
  let zh: string | undefined;
  let signedBy: string | undefined;
  try {
    const path = await installPackage(
      root,
      address,
      version,
      ctx.platform,
      async (staging, scratch) => {
        // Notes of a package that was here before (and is being replaced) must not vouch for this one.
        const dir = packageDir(root, address, version, ctx.platform);
        rmSync(`${dir}.zh`, { force: true });
        note = await from.source.install(address, version, staging, scratch, { ...ctx, registryArchive: (h) => (zh = h), signed: (k) => (signedBy = k) });
      },
      { onWait: ctx.events.status },
    );
    // The registry's zh: and, on a line of its own, the key whose signature vouched for it (authentication.ts reads both).
    if (zh !== undefined) writeBeside(dirname(path), "zh", signedBy !== undefined ? `${zh}\nsigned-by ${signedBy}` : zh);
    ctx.events.status(`Installed ${label} ${version} from ${from.source.description}${note !== "" ? ` (${note})` : ""}`);
    return { path, version };
  } catch (e) {
    if (e instanceof ParameterizeError) throw e;
    throw new ParameterizeError("failed-precondition", `installing ${label} ${version} from ${describeMethod(from.method)} failed: ${(e as Error).message}`, { cause: e });
  }
}

/** A note kept beside a package directory (read back by authentication.ts), written then renamed: a reader sees all of it or none. */
function writeBeside(packageDir: string, suffix: string, value: string): void {
  const tmp = `${packageDir}.${suffix}.${process.pid}`;
  writeFileSync(tmp, `${value}\n`);
  renameSync(tmp, `${packageDir}.${suffix}`);
}

/** The HTTP client (settings, proxy, tokens) and install context every source uses, from the environment and CLI config. */
function installContext(
  env: NodeJS.ProcessEnv,
  config: Awaited<ReturnType<typeof loadCliConfig>>,
  events: InstallContext["events"],
  platform: string,
  enforceSignature?: boolean,
): { http: Http; ctx: InstallContext } {
  const settings = acquireSettings(env);
  let proxy: ProxySettings | undefined;
  try {
    proxy = proxySettings(env);
  } catch (e) {
    throw invalidArgument((e as Error).message);
  }
  const http = new Http({ ...settings, proxy, tokenFor: (host) => tokenForHost(host, { env, configured: config.credentials }), onRetry: events.status });
  const ctx: InstallContext = { http, platform, events, maxUnpackedBytes: settings.maxUnpackedBytes, maxArchiveEntries: settings.maxArchiveEntries, ...(enforceSignature !== undefined ? { enforceSignature } : {}) };
  return { http, ctx };
}

/**
 * Every version of `address` that acquireRemote could use here, newest first: what the installation methods of the
 * Terraform CLI configuration offer (mirrors, `TF_CLI_CONFIG_FILE`, the registry when no configuration names other
 * methods) for this platform and a protocol we speak, and what the caches hold. A source that cannot be reached is
 * passed over as acquireRemote passes over it (the caches may still answer); one that answers wrongly throws.
 */
export async function installableVersions(address: ProviderAddress, options: Pick<AcquireOptions, "env" | "events"> = {}): Promise<string[]> {
  const events = eventSink(options.events);
  const env = options.env ?? process.env;
  const home = env["HOME"] || homedir();
  const platform = formatPlatform(currentPlatform());
  const config = await loadCliConfig(env, home, DEFAULT_REGISTRY_HOST);
  for (const w of config.warnings) events.warn(w);
  const cache = new CacheSource(config.pluginCacheDir !== undefined ? [cacheRoot(env), config.pluginCacheDir] : [cacheRoot(env)], platform);
  const { http, ctx } = installContext(env, config, events, platform);
  const sources = MultiSource.forProvider(config, address, env, home, http);
  const resolution = await sources.resolve(address, { raw: "", clauses: [] }, ctx);
  const usable = [...resolution.offered].filter(([, offers]) => offers.some((o) => (o.info.platforms === undefined || o.info.platforms.includes(platform)) && protocolsSupported(o.info.protocols))).map(([v]) => v);
  const cached = (await cache.versions(address))?.map((v) => v.version) ?? [];
  return [...new Set([...usable, ...cached])].sort(semver.rcompare);
}
