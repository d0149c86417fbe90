// A Terraform or OpenTofu state read for adoption: state format 4 (the local `terraform.tfstate`) or `terraform show -json`.
import { readFileSync } from "node:fs";
import type { StoredIdentity } from "../bridge/identity.js";

/** One step of a Terraform address: a module call or the resource, with its count or for_each key. */
export interface AddressStep {
  name: string;
  key?: number | string;
}

/** One object of a Terraform state, with everything the state keeps of it. */
export interface StateInstance {
  /** The Terraform address, as `terraform state list` prints it. */
  address: string;
  modules: AddressStep[];
  mode: "managed" | "data";
  type: string;
  name: string;
  key?: number | string;
  /** The provider's source address, `registry.terraform.io/hashicorp/local`. */
  provider: string;
  schemaVersion: number;
  /** The `attributes` object as cty JSON. */
  attributesJson: string;
  privateState: Uint8Array;
  identity?: StoredIdentity;
  /** Top-level attributes with a sensitive value somewhere in them. */
  sensitive: Set<string>;
  /** Why Terraform would not keep this object as it is: it is deposed, or tainted (its next apply replaces it). */
  condition?: "deposed" | "tainted";
}

export interface TerraformState {
  format: "state v4" | "show -json";
  terraformVersion: string;
  instances: StateInstance[];
  /** True for `show -json`, which has no private data (a provider's own bookkeeping, such as SDKv2 timeouts). */
  lacksPrivate: boolean;
}

/** A state file that cannot be read; the message says what was expected. */
export class StateFileError extends Error {}

export function readTerraformState(file: string): TerraformState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new StateFileError(`cannot read the Terraform state ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new StateFileError(`${file} is not JSON: give a local state file (terraform.tfstate, format 4) or the output of \`terraform show -json\``);
  }
  return parseTerraformState(doc, file);
}

export function parseTerraformState(doc: unknown, file = "the state"): TerraformState {
  if (!isObject(doc)) throw new StateFileError(`${file} is not a Terraform state: expected a JSON object`);
  if (doc["version"] === 4) return stateV4(doc);
  if (typeof doc["format_version"] === "string" && (isObject(doc["values"]) || doc["values"] === undefined)) return showJson(doc);
  const version = doc["version"];
  if (typeof version === "number") throw new StateFileError(`${file} is a Terraform state of format ${version}; only format 4 (Terraform 0.12 and later, OpenTofu) is read: run \`terraform apply -refresh-only\` with a current Terraform to rewrite it`);
  throw new StateFileError(`${file} is not a Terraform state: expected "version": 4 (terraform.tfstate) or "format_version" (terraform show -json)`);
}

function stateV4(doc: Record<string, unknown>): TerraformState {
  const instances: StateInstance[] = [];
  for (const r of asArray(doc["resources"])) {
    if (!isObject(r)) continue;
    const modules = parseModules(typeof r["module"] === "string" ? r["module"] : "");
    const mode = r["mode"] === "data" ? "data" : "managed";
    const type = String(r["type"]);
    const name = String(r["name"]);
    const provider = providerFromConfigAddress(String(r["provider"] ?? ""));
    for (const i of asArray(r["instances"])) {
      if (!isObject(i)) continue;
      const key = typeof i["index_key"] === "number" || typeof i["index_key"] === "string" ? i["index_key"] : undefined;
      const identity = isObject(i["identity"]) ? { version: Number(i["identity_schema_version"] ?? 0) || 0, json: JSON.stringify(i["identity"]) } : undefined;
      const condition = typeof i["deposed"] === "string" ? "deposed" : i["status"] === "tainted" ? "tainted" : undefined;
      instances.push({
        address: formatAddress(modules, mode, type, name, key) + (condition === "deposed" ? ` (deposed ${String(i["deposed"])})` : ""),
        modules,
        mode,
        type,
        name,
        ...(key !== undefined ? { key } : {}),
        provider,
        schemaVersion: Number(i["schema_version"] ?? 0) || 0,
        attributesJson: JSON.stringify(i["attributes"] ?? attributesFromFlat(i["attributes_flat"])),
        privateState: typeof i["private"] === "string" && i["private"] !== "" ? Buffer.from(i["private"], "base64") : new Uint8Array(),
        ...(identity !== undefined ? { identity } : {}),
        sensitive: sensitiveFromPaths(i["sensitive_attributes"]),
        ...(condition !== undefined ? { condition } : {}),
      });
    }
  }
  return { format: "state v4", terraformVersion: String(doc["terraform_version"] ?? ""), instances, lacksPrivate: false };
}

function showJson(doc: Record<string, unknown>): TerraformState {
  const instances: StateInstance[] = [];
  // A module's own `address` names its path: a resource's address cannot be split on its type, which a key may hold.
  const walk = (m: unknown): void => {
    if (!isObject(m)) return;
    const modules = parseModules(typeof m["address"] === "string" ? m["address"] : "");
    for (const r of asArray(m["resources"])) {
      if (!isObject(r)) continue;
      const address = String(r["address"]);
      const mode = r["mode"] === "data" ? "data" : "managed";
      const key = typeof r["index"] === "number" || typeof r["index"] === "string" ? r["index"] : undefined;
      const identity = isObject(r["identity"]) ? { version: Number(r["identity_schema_version"] ?? 0) || 0, json: JSON.stringify(r["identity"]) } : undefined;
      instances.push({
        address,
        modules,
        mode,
        type: String(r["type"]),
        name: String(r["name"]),
        ...(key !== undefined ? { key } : {}),
        provider: String(r["provider_name"] ?? ""),
        schemaVersion: Number(r["schema_version"] ?? 0) || 0,
        attributesJson: JSON.stringify(r["values"] ?? {}),
        privateState: new Uint8Array(),
        ...(identity !== undefined ? { identity } : {}),
        sensitive: new Set(isObject(r["sensitive_values"]) ? Object.entries(r["sensitive_values"]).filter(([, v]) => containsTrue(v)).map(([k]) => k) : []),
        ...(r["tainted"] === true ? { condition: "tainted" as const } : {}),
      });
    }
    for (const c of asArray(m["child_modules"])) walk(c);
  };
  walk(isObject(doc["values"]) ? doc["values"]["root_module"] : undefined);
  return { format: "show -json", terraformVersion: String(doc["terraform_version"] ?? ""), instances, lacksPrivate: true };
}

/** `module.a["x"].module.b[0]` → its steps. */
export function parseModules(path: string): AddressStep[] {
  const steps: AddressStep[] = [];
  const re = /module\.([A-Za-z0-9_-]+)(?:\[(\d+|"(?:[^"\\]|\\.)*")\])?\.?/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(path)) !== null) {
    consumed = re.lastIndex;
    const raw = m[2];
    steps.push({ name: m[1]!, ...(raw === undefined ? {} : { key: raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw) }) });
  }
  if (consumed !== path.length) throw new StateFileError(`cannot read the module path ${JSON.stringify(path)} of the state`);
  return steps;
}

function formatKey(key: number | string | undefined): string {
  return key === undefined ? "" : typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

export function formatAddress(modules: AddressStep[], mode: "managed" | "data", type: string, name: string, key?: number | string): string {
  const prefix = modules.map((s) => `module.${s.name}${formatKey(s.key)}.`).join("");
  return `${prefix}${mode === "data" ? "data." : ""}${type}.${name}${formatKey(key)}`;
}

/** `provider["registry.terraform.io/hashicorp/local"].alias` → `registry.terraform.io/hashicorp/local`. */
function providerFromConfigAddress(s: string): string {
  return /provider\["([^"]+)"\]/.exec(s)?.[1] ?? s;
}

/** The top-level attribute of each sensitive path (state format 4 keeps paths as steps, `[{"type":"get_attr","value":"x"}, …]`). */
function sensitiveFromPaths(v: unknown): Set<string> {
  const out = new Set<string>();
  for (const path of asArray(v)) {
    const first = Array.isArray(path) ? (path[0] as unknown) : isObject(path) ? path : undefined;
    if (isObject(first) && first["type"] === "get_attr" && typeof first["value"] === "string") out.add(first["value"]);
  }
  return out;
}

/** States of Terraform 0.11 kept flat attributes; such a state must be rewritten by a current Terraform first. */
function attributesFromFlat(flat: unknown): never {
  throw new StateFileError(`a resource instance of the state has only flat attributes (${flat === undefined ? "none" : "attributes_flat"}): rewrite the state with a current Terraform (\`terraform apply -refresh-only\`)`);
}

function containsTrue(v: unknown): boolean {
  if (v === true) return true;
  if (Array.isArray(v)) return v.some(containsTrue);
  if (isObject(v)) return Object.values(v).some(containsTrue);
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? (v as unknown[]) : [];
}
