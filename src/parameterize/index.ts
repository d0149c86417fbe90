// Parameterize end to end: args or value → provider binary (local or registry) → launched provider and its schema.
import { formatAddress } from "./address.js";
import { parseArgs, type Selection } from "./args.js";
import { parseVersionConstraint } from "./constraint.js";
import { ParameterizeError, invalidArgument } from "./errors.js";
import { LOCAL_VERSION, resolveLocalBinary } from "./local.js";
import { acquireRemote } from "./remote.js";
import { encodeValue, parseValue, type ValueSource } from "./value.js";
import { GrpcTerraformProvider } from "../terraform/client.js";
import type { ProviderLogEntry } from "../terraform/launch.js";
import type { ProviderSchema } from "../terraform/types.js";

export { ParameterizeError } from "./errors.js";
export { HelpRequested, USAGE } from "./args.js";

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
  /** Notes for the user that don't stop parameterization (e.g. accepted-but-ignored docs flags). */
  warn?: (message: string) => void;
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
  provider: GrpcTerraformProvider;
  schema: ProviderSchema;
}

interface Resolved {
  source: ValueSource;
  selection: Selection;
  binary: string;
  type: string;
  version: string;
}

async function resolveSource(input: ParameterizeInput, options: ParameterizeOptions): Promise<Resolved> {
  if (input.kind === "args") {
    const parsed = parseArgs(input.args);
    const ignored = [
      parsed.docs.fullDocs ? "--fullDocs" : undefined,
      parsed.docs.upstreamRepoPath !== undefined ? "--upstreamRepoPath" : undefined,
      parsed.docs.indexDocOutDir !== undefined ? "--indexDocOutDir" : undefined,
    ].filter((f) => f !== undefined);
    if (ignored.length > 0) options.warn?.(`${ignored.join(", ")}: accepted for compatibility; documentation comes from the provider schema only`);
    if (parsed.source.kind === "local") {
      const local = resolveLocalBinary(parsed.source.path, options.cwd);
      return { source: { kind: "local", path: local.path }, selection: parsed.selection, binary: local.path, type: local.type, version: LOCAL_VERSION };
    }
    const { address, constraint } = parsed.source;
    const remote = await acquireRemote(address, constraint, { status: options.status, warn: options.warn });
    return { source: { kind: "remote", address, version: remote.version }, selection: parsed.selection, binary: remote.path, type: address.type, version: remote.version };
  }
  const value = parseValue(input.value);
  if (value.source.kind === "local") {
    const local = resolveLocalBinary(value.source.path, options.cwd);
    return { source: { kind: "local", path: local.path }, selection: value.selection, binary: local.path, type: local.type, version: LOCAL_VERSION };
  }
  const { address, version } = value.source;
  const remote = await acquireRemote(address, parseVersionConstraint(`= ${version}`), { status: options.status, warn: options.warn });
  return { source: value.source, selection: value.selection, binary: remote.path, type: address.type, version };
}

/**
 * Parses the request, acquires and launches the provider, and fetches its schema. The caller owns the returned
 * provider process and must close it.
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
  options.status?.(`Launching terraform-provider-${resolved.type}…`);
  let provider: GrpcTerraformProvider;
  try {
    provider = await GrpcTerraformProvider.launch({ path: resolved.binary, onLog: options.onProviderLog?.(name) });
  } catch (e) {
    throw new ParameterizeError("failed-precondition", `could not start ${resolved.binary}: ${(e as Error).message}`, { cause: e });
  }
  try {
    const schema = await provider.getProviderSchema();
    const errors = schema.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      throw new ParameterizeError(
        "failed-precondition",
        `terraform-provider-${resolved.type} returned errors with its schema: ${errors.map((d) => d.summary + (d.detail ? `: ${d.detail}` : "")).join("; ")}`,
      );
    }
    const origin: ProviderOrigin =
      resolved.source.kind === "local"
        ? { kind: "local", path: resolved.source.path, type: resolved.type }
        : { kind: "registry", ...resolved.source.address };
    return {
      name,
      version: resolved.version,
      value: encodeValue({ source: resolved.source, selection: resolved.selection }),
      selection: resolved.selection,
      origin,
      provider,
      schema,
    };
  } catch (e) {
    await provider.close().catch(() => undefined);
    if (e instanceof ParameterizeError) throw e;
    throw new ParameterizeError("failed-precondition", `could not read the schema of ${resolved.binary}: ${(e as Error).message}`, { cause: e });
  }
}

/** "random 0.0.0 (local /path/terraform-provider-random)", for messages about the current parameterization. */
export function describe(p: Pick<Parameterized, "name" | "version" | "origin">): string {
  const from = p.origin.kind === "local" ? `local ${p.origin.path}` : formatAddress(p.origin);
  return `${p.name} ${p.version} (${from})`;
}
