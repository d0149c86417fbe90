// The `__meta` output: Terraform's private state, schema version, resource type and identity, carried through Pulumi state.
import { isRecord } from "../terraform/cty/index.js";
import { unwrap } from "./property-cty.js";
import type { StoredIdentity } from "./identity.js";
import type { PropertyMap, PropertyValue } from "./property-value.js";
import { BridgeError } from "./types.js";

/** The output key that carries Terraform's private state and schema version through Pulumi state. */
export const META_KEY = "__meta";

export interface Meta {
  schemaVersion: number;
  privateState: Uint8Array;
  /** Only for resources whose provider gives them an identity schema: a resource without one stores what it always did. */
  identity?: StoredIdentity;
  /**
   * The Terraform resource type the state belongs to. The engine hands a resource whose type changed under an alias
   * the old type's state without saying so; this is how the bridge knows to move it (src/bridge/move.ts). Absent in
   * states written before it was kept, and by the reference: those are the resource's own type.
   */
  type?: string;
}


export function withoutMeta(m: PropertyMap): PropertyMap {
  const out: PropertyMap = {};
  for (const [k, v] of Object.entries(m)) if (k !== META_KEY) out[k] = v;
  return out;
}

export function readMeta(v: PropertyValue | undefined): Meta {
  const raw = v === undefined ? null : unwrap(v);
  if (typeof raw !== "string" || raw === "") return { schemaVersion: 0, privateState: new Uint8Array() };
  try {
    const parsed = JSON.parse(raw) as { schema_version?: string; private_state?: string; identity?: unknown; identity_schema_version?: string; type?: unknown };
    const identity = isRecord(parsed.identity) ? { identity: { version: Number(parsed.identity_schema_version ?? "0") || 0, json: JSON.stringify(parsed.identity) } } : {};
    return {
      schemaVersion: Number(parsed.schema_version ?? "0") || 0,
      privateState: parsed.private_state ? Buffer.from(parsed.private_state, "base64") : new Uint8Array(),
      ...identity,
      ...(typeof parsed.type === "string" && parsed.type !== "" ? { type: parsed.type } : {}),
    };
  } catch {
    throw new BridgeError(`the stored ${META_KEY} value is not valid JSON; the state was edited by hand?`);
  }
}

/**
 * `{"schema_version":"N","private_state":"<b64>"}`, as the reference writes it, plus for a resource with an identity
 * `"identity":{…},"identity_schema_version":"M"` (Terraform keeps the same two beside its state; the reference ignores
 * keys it does not know and keeps them when it rewrites the value), and the Terraform type as `"type"`, as Terraform's
 * state names it.
 */
export function writeMeta(meta: Meta): string {
  const out: Record<string, unknown> = { schema_version: String(meta.schemaVersion) };
  if (meta.privateState.length > 0) out["private_state"] = Buffer.from(meta.privateState).toString("base64");
  if (meta.identity !== undefined) {
    out["identity"] = JSON.parse(meta.identity.json) as unknown;
    out["identity_schema_version"] = String(meta.identity.version);
  }
  if (meta.type !== undefined) out["type"] = meta.type;
  return JSON.stringify(out);
}
