// Which already-running Terraform provider, if any, the user asked us to attach to instead of acquiring and launching one.
import { formatAddress, parseProviderAddress, sameProvider, type ProviderAddress } from "../acquire/address.js";
import { ParameterizeError } from "../acquire/errors.js";
import type { ReattachTarget } from "../terraform/reattach.js";

/**
 * Read in this order; the first that names the provider wins. The first is the reference bridge's own variable, the
 * second Terraform's, which a provider started with `-debug` prints ready to paste.
 */
export const REATTACH_VARIABLES = ["PULUMI_BRIDGE_REATTACH_PROVIDERS", "TF_REATTACH_PROVIDERS"] as const;

/** A provider's entry in one of the variables, checked. */
export interface ReattachEntry extends ReattachTarget {
  /** The key as the user wrote it. */
  key: string;
  provider: ProviderAddress;
  /** The variable the entry came from. */
  variable: string;
}

const EXAMPLE =
  '{"registry.terraform.io/hashicorp/random":{"Protocol":"grpc","ProtocolVersion":6,"Pid":1234,"Test":true,' +
  '"Addr":{"Network":"unix","String":"/tmp/plugin1234"}}}';

function bad(variable: string, problem: string): ParameterizeError {
  return new ParameterizeError(
    "failed-precondition",
    `${variable} ${problem}. Expected JSON such as ${EXAMPLE}, as a provider started with -debug prints; unset ${variable} to launch providers normally`,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseEntry(variable: string, key: string, raw: unknown): ReattachEntry {
  let provider: ProviderAddress;
  try {
    provider = parseProviderAddress(key);
  } catch (e) {
    throw bad(variable, `has a key that is not a provider address: ${(e as Error).message}`);
  }
  const where = `entry "${key}"`;
  if (!isObject(raw)) throw bad(variable, `${where} is not an object`);
  if (raw["Protocol"] !== "grpc") throw bad(variable, `${where} has Protocol ${JSON.stringify(raw["Protocol"])}; only "grpc" providers can be attached`);
  const version = raw["ProtocolVersion"];
  if (version !== 5 && version !== 6) throw bad(variable, `${where} has ProtocolVersion ${JSON.stringify(version)}; Terraform plugin protocol 5 or 6 is supported`);
  const addr = raw["Addr"];
  if (!isObject(addr) || (addr["Network"] !== "unix" && addr["Network"] !== "tcp") || typeof addr["String"] !== "string" || addr["String"] === "") {
    throw bad(variable, `${where} needs "Addr": {"Network": "unix" or "tcp", "String": <socket path or host:port>}`);
  }
  const pid = raw["Pid"] ?? 0;
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid < 0) throw bad(variable, `${where} has Pid ${JSON.stringify(raw["Pid"])}; expected a process id`);
  return { key, provider, variable, protocolVersion: version, network: addr["Network"], addr: addr["String"], pid };
}

/**
 * Every entry of one variable, or undefined when it is unset. Every key and entry is checked, not only the one asked
 * for, so a mistake shows up the same whichever provider is being resolved.
 */
export function reattachEntries(variable: string, env: NodeJS.ProcessEnv = process.env): ReattachEntry[] | undefined {
  const text = env[variable];
  if (text === undefined || text.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw bad(variable, `is not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(json)) throw bad(variable, "must be a JSON object keyed by provider address");
  return Object.entries(json).map(([key, raw]) => parseEntry(variable, key, raw));
}

/** What Parameterize wants to run: a registry address, or a local binary's provider type (it has no address). */
export type Wanted = { kind: "remote"; address: ProviderAddress } | { kind: "local"; type: string };

function matches(entry: ReattachEntry, wanted: Wanted): boolean {
  if (wanted.kind === "remote") return sameProvider(entry.provider, wanted.address);
  // A binary on disk has no address of its own; the running provider announces one, so its type is what ties them.
  return entry.provider.type === wanted.type;
}

/** The entry for the provider Parameterize wants, from the first variable that has one; undefined: launch as usual. */
export function findReattach(wanted: Wanted, env: NodeJS.ProcessEnv = process.env): ReattachEntry | undefined {
  let found: ReattachEntry | undefined;
  for (const variable of REATTACH_VARIABLES) {
    const entries = reattachEntries(variable, env);
    if (entries === undefined || found !== undefined) continue;
    const hits = entries.filter((e) => matches(e, wanted));
    if (hits.length > 1) {
      const what = wanted.kind === "local" ? `the local provider type "${wanted.type}"` : formatAddress(wanted.address);
      throw bad(variable, `has ${hits.length} entries for ${what} (${hits.map((h) => h.key).join(", ")}); keep one`);
    }
    found = hits[0];
  }
  return found;
}

/** One line for the log and the status: what we attach to and that its lifetime is not ours. */
export function describeReattach(entry: ReattachEntry, what: string): string {
  const pid = entry.pid > 0 ? `pid ${entry.pid}, ` : "";
  return (
    `${what}: attaching to the running provider ${entry.key} (${pid}${entry.network} ${entry.addr}, protocol ${entry.protocolVersion}) ` +
    `from ${entry.variable}; it is not downloaded, started or stopped here`
  );
}
