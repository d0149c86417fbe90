// Parameterize end to end: args or value → provider binary (local or registry) → launched provider and its schema.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { formatAddress, type ProviderAddress } from "../acquire/address.js";
import { parseArgs, type Selection } from "./args.js";
import { checkPackageName } from "./project-packages.js";
import { exactVersion, parseVersionConstraint, type VersionConstraint } from "../acquire/constraint.js";
import { ParameterizeError, invalidArgument } from "../acquire/errors.js";
import { LOCAL_VERSION, localBinary, recordedBinary, typeFromBinaryName } from "./local.js";
import { openVersionWarning, packageAddCommand, providerArgument } from "./hints.js";
import { describeReattach, findReattach, type ReattachEntry } from "./reattach.js";
import { acquireRemote, type RemoteBinary } from "../acquire/remote.js";
import { encodeValue, parseValue, type ValueDocs, type ValueSource } from "./value.js";
import type { DocsSource } from "../docs/index.js";
import { GrpcTerraformProvider } from "../terraform/client.js";
import { LazyProvider } from "../terraform/lazy-provider.js";
import { dropCachedSchema, readCachedSchema, schemaCacheKey, writeCachedSchema, type SchemaCacheOptions } from "../terraform/schema-cache.js";
import { cacheRoot } from "../acquire/cache.js";
import type { ProviderLogEntry } from "../terraform/launch.js";
import { RecordingProvider, recorderFromEnv, type CallRecorder } from "../terraform/recording.js";
import type { ProviderSchema, TerraformProvider } from "../terraform/types.js";

export { ParameterizeError } from "../acquire/errors.js";
export { HelpRequested, USAGE } from "./args.js";
export { newerReleaseHint } from "./hints.js";

export type ParameterizeInput =
  | { kind: "args"; args: readonly string[] }
  | { kind: "value"; name: string; version: string; value: Uint8Array };

export interface ParameterizeOptions {
  /** Directory that relative local paths are resolved against (the engine starts us in the project directory). */
  cwd?: string;
  /** Progress lines for the user. */
  status?: (message: string) => void;
  /** Log lines of the launched Terraform provider. */
  onProviderLog?: (providerName: string) => (entry: ProviderLogEntry) => void;
  /** Notes for the user that don't stop parameterization. */
  warn?: (message: string) => void;
  /** Facts worth a line in the log, such as attaching to a provider that runs in debug mode. */
  info?: (message: string) => void;
  /** Notes only for `-v` logs, such as a value that pins no lock hash. */
  debug?: (message: string) => void;
  /**
   * The provider is needed as soon as Parameterize returns (a program's run configures it next): one known from the
   * schema cache starts at once, so that its process boots while the model is made, not after.
   */
  startProvider?: boolean;
}

/** Where the provider came from, as schema metadata wants it. */
export type ProviderOrigin = { kind: "registry"; host: string; namespace: string; type: string } | { kind: "local"; path: string; type: string };

export interface Parameterized {
  /** Pulumi package name (ParameterizeResponse.name). */
  name: string;
  /** Package version, semver without "v" (ParameterizeResponse.version). */
  version: string;
  /** The canonical value bytes, embedded in schemas and SDKs. */
  value: Uint8Array;
  selection: Selection;
  origin: ProviderOrigin;
  provider: TerraformProvider;
  schema: ProviderSchema;
  /** Where the schema's full docs come from (`--fullDocs`, `--upstreamRepoPath`, or the value's record of them). */
  docs?: DocsSource;
  /** `--indexDocOutDir`: where `_index.md` goes, and the repository its overview comes from. */
  indexDoc?: { dir: string; source?: DocsSource; addArgs: string };
  /** Where the provider's schema is cached (schema-cache.ts), when the cache is on; what is rendered from it goes beside. */
  schemaCache?: { options: SchemaCacheOptions; key: string };
}

interface Resolved {
  source: ValueSource;
  selection: Selection;
  binary: string;
  type: string;
  version: string;
  /** A provider already running in debug mode to use instead of the binary. */
  attach?: ReattachEntry;
  docs?: ValueDocs;
  indexDocOutDir?: string;
}

/** `--upstreamRepoPath` as an absolute path, checked now: a typo would otherwise only show up as missing docs. */
function upstreamRepoPath(dir: string, cwd: string | undefined): string {
  const abs = resolve(cwd ?? process.cwd(), dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    // Reported below with the path as resolved.
  }
  if (!isDir) throw invalidArgument(`--upstreamRepoPath ${dir}: ${abs} is not a directory; give a checkout of the Terraform provider's repository`);
  return abs;
}

function valueDocs(fullDocs: boolean, repoPath: string | undefined, cwd: string | undefined): ValueDocs | undefined {
  if (repoPath !== undefined) return { upstreamRepoPath: upstreamRepoPath(repoPath, cwd) };
  return fullDocs ? { fullDocs: true } : undefined;
}

/** The docs source a value or the args name; a registry provider's repository is `namespace/terraform-provider-type`. */
function docsSource(docs: ValueDocs | undefined, source: ValueSource, version: string): DocsSource | undefined {
  if (docs === undefined) return undefined;
  if ("upstreamRepoPath" in docs) return { kind: "path", dir: docs.upstreamRepoPath };
  if (source.kind !== "remote") return undefined;
  return { kind: "upstream", repo: { ...source.address, version } };
}

/** The registry provider, acquired; or, when a reattach variable names it, nothing to download. */
async function remoteBinary(
  source: ProviderAddress,
  constraint: VersionConstraint,
  options: ParameterizeOptions,
  lockHashes?: readonly string[],
): Promise<RemoteBinary & { attach?: ReattachEntry }> {
  const attach = findReattach({ kind: "remote", address: source });
  if (attach === undefined) {
    const events = { status: options.status, warn: options.warn, debug: options.debug };
    return acquireRemote(source, constraint, { events, ...(lockHashes !== undefined ? { lockHashes } : {}) });
  }
  // No registry says which version runs: an exactly pinned one is kept, so an SDK made for it runs unchanged; otherwise
  // 0.0.0, the version the reference reports for a reattached provider.
  return { path: formatAddress(source), version: exactVersion(constraint) ?? LOCAL_VERSION, hashes: [], attach };
}

async function resolveSource(input: ParameterizeInput, options: ParameterizeOptions): Promise<Resolved> {
  if (input.kind === "args") {
    const parsed = parseArgs(input.args);
    const cwd = options.cwd ?? process.cwd();
    const name = parsed.selection.providerName ?? (parsed.source.kind === "local" ? typeFromBinaryName(parsed.source.path) : parsed.source.address.type);
    await checkPackageName({ name, explicit: parsed.selection.providerName !== undefined, source: parsed.source, cwd, warn: options.warn });
    const docs = valueDocs(parsed.docs.fullDocs, parsed.docs.upstreamRepoPath, options.cwd);
    const indexDocOutDir = parsed.docs.indexDocOutDir === undefined ? undefined : resolve(options.cwd ?? process.cwd(), parsed.docs.indexDocOutDir);
    const extra = { ...(docs !== undefined ? { docs } : {}), ...(indexDocOutDir !== undefined ? { indexDocOutDir } : {}) };
    if (parsed.source.kind === "local") {
      const local = localBinary(parsed.source.path, options.cwd);
      return { source: { kind: "local", path: local.path }, selection: parsed.selection, binary: local.path, type: local.type, version: LOCAL_VERSION, attach: local.attach, ...extra };
    }
    const { address, constraint } = parsed.source;
    const remote = await remoteBinary(address, constraint, options);
    if (exactVersion(constraint) === undefined) options.warn?.(openVersionWarning(address, constraint.raw, remote.version, parsed.selection));
    const hashes = remote.hashes.length > 0 ? { hashes: remote.hashes } : {};
    return { source: { kind: "remote", address, version: remote.version, ...hashes }, selection: parsed.selection, binary: remote.path, type: address.type, version: remote.version, attach: remote.attach, ...extra };
  }
  const value = parseValue(input.value);
  const docs = value.docs !== undefined ? { docs: value.docs } : {};
  if (value.source.kind === "local") {
    const local = recordedBinary(value.source.path, options.cwd, (binary) => packageAddCommand([binary], value.selection));
    return { source: { kind: "local", path: local.path }, selection: value.selection, binary: local.path, type: local.type, version: LOCAL_VERSION, attach: local.attach, ...docs };
  }
  const { address, version } = value.source;
  const remote = await remoteBinary(address, parseVersionConstraint(`= ${version}`), options, value.source.hashes ?? []);
  return { source: value.source, selection: value.selection, binary: remote.path, type: address.type, version, attach: remote.attach, ...docs };
}

/** Where the resolved binary's schema is cached, or undefined when the cache is off (see schema-cache.ts). */
function schemaCache(resolved: Resolved): { options: SchemaCacheOptions; key: string } | undefined {
  const key = schemaCacheKey(resolved.binary);
  return key === undefined ? undefined : { options: { dir: join(cacheRoot(), ".schemas") }, key };
}

/**
 * Parses the request, acquires and launches the provider, and fetches its schema; a binary whose schema is cached
 * (schema-cache.ts) is not launched here but when first needed. The caller owns the returned provider and must close it.
 */
export async function parameterize(input: ParameterizeInput, options: ParameterizeOptions = {}): Promise<Parameterized> {
  const resolved = await resolveSource(input, options);
  const name = resolved.selection.providerName ?? resolved.type;
  if (input.kind === "value") {
    // A mismatch means the SDK and this value disagree about the package; tokens would not line up.
    if (input.name !== "" && input.name !== name) {
      throw invalidArgument(`the parameter value describes package "${name}" but the request names "${input.name}"`);
    }
    if (input.version !== "" && input.version !== resolved.version) {
      throw invalidArgument(`the parameter value describes ${name} version ${resolved.version} but the request names version ${input.version}`);
    }
  }
  let recorder: CallRecorder | undefined;
  try {
    recorder = recorderFromEnv();
  } catch (e) {
    throw new ParameterizeError("failed-precondition", (e as Error).message, { cause: e });
  }
  const cache = resolved.attach === undefined && recorder === undefined ? schemaCache(resolved) : undefined;
  const cached = cache === undefined ? undefined : readCachedSchema(cache.options, cache.key);
  let provider: TerraformProvider;
  try {
    if (resolved.attach !== undefined) {
      const line = describeReattach(resolved.attach, name);
      options.status?.(line);
      options.info?.(line);
      provider = await GrpcTerraformProvider.attach(resolved.attach.key, resolved.attach);
    } else if (cached !== undefined && cache !== undefined) {
      options.debug?.(`the schema of ${resolved.binary} is cached (${cache.options.dir}): the provider starts ${options.startProvider === true ? "now, beside the rest of Parameterize" : "when first needed"}`);
      const onLog = options.onProviderLog?.(name);
      const lazy = new LazyProvider({
        binary: resolved.binary,
        cached,
        launch: (secrets) => GrpcTerraformProvider.launch({ path: resolved.binary, secrets, ...(onLog !== undefined ? { onLog } : {}) }),
        stale: () => dropCachedSchema(cache.options, cache.key),
      });
      if (options.startProvider === true) lazy.start();
      provider = lazy;
    } else {
      options.status?.(`Launching terraform-provider-${resolved.type}…`);
      provider = await GrpcTerraformProvider.launch({ path: resolved.binary, onLog: options.onProviderLog?.(name) });
    }
  } catch (e) {
    recorder?.close();
    const what = resolved.attach !== undefined ? "attach to" : "start";
    throw new ParameterizeError("failed-precondition", `could not ${what} ${resolved.binary}: ${(e as Error).message}`, { cause: e });
  }
  if (recorder !== undefined) provider = new RecordingProvider(provider, recorder, name);
  try {
    const schema = await provider.getProviderSchema();
    const errors = schema.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      throw new ParameterizeError(
        "failed-precondition",
        `terraform-provider-${resolved.type} returned errors with its schema: ${errors.map((d) => d.summary + (d.detail ? `: ${d.detail}` : "")).join("; ")}`,
      );
    }
    if (cache !== undefined && cached === undefined) writeCachedSchema(cache.options, cache.key, provider.protocolVersion, schema);
    const origin: ProviderOrigin =
      resolved.source.kind === "local"
        ? { kind: "local", path: resolved.source.path, type: resolved.type }
        : { kind: "registry", ...resolved.source.address };
    const docs = docsSource(resolved.docs, resolved.source, resolved.version);
    const parameterized: Parameterized = {
      name,
      version: resolved.version,
      value: encodeValue({ source: resolved.source, selection: resolved.selection, ...(resolved.docs !== undefined ? { docs: resolved.docs } : {}) }),
      selection: resolved.selection,
      origin,
      provider,
      schema,
    };
    if (docs !== undefined) parameterized.docs = docs;
    if (cache !== undefined) parameterized.schemaCache = cache;
    if (resolved.indexDocOutDir !== undefined) {
      // The overview of _index.md comes from the repository even without --fullDocs, as the reference does it.
      const source = docs ?? docsSource({ fullDocs: true }, resolved.source, resolved.version);
      parameterized.indexDoc = { dir: resolved.indexDocOutDir, addArgs: providerArgument(resolved.source), ...(source !== undefined ? { source } : {}) };
    }
    return parameterized;
  } catch (e) {
    await provider.close().catch(() => undefined);
    if (e instanceof ParameterizeError) throw e;
    throw new ParameterizeError("failed-precondition", `could not read the schema of ${resolved.binary}: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * The provider's address as Terraform writes it (`registry.terraform.io/hashicorp/random`); a local binary has none of its
 * own, so it gets the one Terraform implies for a bare provider type (the `hashicorp` namespace of the public registry).
 */
export function terraformAddress(origin: ProviderOrigin): string {
  return origin.kind === "local" ? `registry.terraform.io/hashicorp/${origin.type}` : formatAddress(origin);
}

/** "random 0.0.0 (local /path/terraform-provider-random)", for messages about the current parameterization. */
export function describe(p: Pick<Parameterized, "name" | "version" | "origin">): string {
  const from = p.origin.kind === "local" ? `local ${p.origin.path}` : formatAddress(p.origin);
  return `${p.name} ${p.version} (${from})`;
}
