// Pulumi customTimeouts as Terraform providers take them: the resource's `timeouts` value and SDKv2's private state.
import { isRecord, type CtyValue } from "../terraform/cty/index.js";
import type { Schema } from "../terraform/types.js";

/**
 * terraform-plugin-sdk/v2 keeps a resource's parsed timeouts in its private state, as JSON under this key (its
 * `schema.TimeoutKey`): `{"create": <ns>, "delete": <ns>, …}`. At delete it reads them from there, not from the state.
 */
const SDKV2_TIMEOUTS_KEY = "e2bfb730-ecaa-11e6-8f88-34363bc7c4c0";

/** The private state with SDKv2's delete timeout set to `seconds`; any other private state is returned unchanged. */
export function withDeleteTimeout(privateState: Uint8Array, seconds: number): Uint8Array {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(privateState).toString("utf8"));
  } catch {
    return privateState;
  }
  if (!isRecord(parsed) || !isRecord(parsed[SDKV2_TIMEOUTS_KEY])) return privateState;
  const timeouts = { ...parsed[SDKV2_TIMEOUTS_KEY], delete: Math.ceil(seconds) * 1e9 };
  return Buffer.from(JSON.stringify({ ...parsed, [SDKV2_TIMEOUTS_KEY]: timeouts }));
}

/** Terraform duration strings for the `timeouts` block many providers accept. */
function timeoutValue(seconds: number): string {
  return `${Math.ceil(seconds)}s`;
}


/**
 * The names in the resource's `timeouts` object, when it has one that includes `op`: a single block (SDKv2), a
 * single nested attribute, or an attribute of object type (the plugin framework's timeouts package).
 */
function timeoutNames(schema: Schema, op: "create" | "update" | "delete"): string[] | undefined {
  const block = schema.block.blockTypes.find((b) => b.typeName === "timeouts");
  const attr = schema.block.attributes.find((a) => a.name === "timeouts");
  let names: string[] = [];
  if (block !== undefined && (block.nesting === "single" || block.nesting === "group")) names = block.block.attributes.map((a) => a.name);
  else if (attr?.nestedType?.nesting === "single") names = attr.nestedType.attributes.map((a) => a.name);
  else if (attr?.type?.kind === "object") names = Object.keys(attr.type.attributes);
  return names.includes(op) ? names : undefined;
}

/**
 * Pulumi customTimeouts into the object's `timeouts` (the configuration for create and update, the prior state for
 * delete, where Terraform's plugin framework reads it). The program's own timeouts block wins; customTimeouts fill
 * in what it leaves unset. Undefined when nothing changes.
 */
export function withTimeoutsValue(schema: Schema, value: CtyValue, op: "create" | "update" | "delete", seconds: number | undefined): CtyValue | undefined {
  if (seconds === undefined || seconds <= 0 || !isRecord(value)) return undefined;
  const names = timeoutNames(schema, op);
  if (names === undefined) return undefined;
  const current = value["timeouts"];
  const existing = isRecord(current) ? current : {};
  if (existing[op] !== undefined && existing[op] !== null) return undefined;
  const filled: { [k: string]: CtyValue } = Object.create(null) as { [k: string]: CtyValue };
  for (const n of names) filled[n] = existing[n] ?? null;
  filled[op] = timeoutValue(seconds);
  return { ...value, timeouts: filled };
}

export function withTimeouts(schema: Schema, config: CtyValue, op: "create" | "update", seconds: number | undefined): CtyValue {
  return withTimeoutsValue(schema, config, op, seconds) ?? config;
}

