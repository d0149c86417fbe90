// The giants' part of the oracle corpus: cases generated deterministically from the five giant schema dumps' resource
// types (all required attributes, then an optional attribute set, changed and removed, a block added, changed and
// removed), and the bundle (`test/crosstest/giants/<giant>.json.gz`) holding them with OpenTofu's recorded answers.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { giantsDir, type Giant } from "../support/giants.js";
import { CORPUS_DIR, type Golden, type PeerCase, type Value } from "./corpus.js";

export const GIANTS_DIR = join(CORPUS_DIR, "..", "giants");

/** A dump's attribute, nested attribute object and block, as `terraform providers schema -json` prints them. */
interface DumpAttr {
  type?: unknown;
  nested_type?: { attributes?: Record<string, DumpAttr>; nesting_mode: "single" | "list" | "set" | "map" };
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  write_only?: boolean;
}
interface DumpBlock {
  attributes?: Record<string, DumpAttr>;
  block_types?: Record<string, { nesting_mode: "single" | "list" | "set" | "map" | "group"; block: DumpBlock; min_items?: number; max_items?: number }>;
}
type NestedBlockDump = NonNullable<DumpBlock["block_types"]>[string];

/** The provider address and resource schemas of a giant's dump. */
export function readDump(g: Giant): { address: string; resources: Record<string, { block: DumpBlock }> } {
  const raw = readFileSync(join(giantsDir, g.file));
  const dump = JSON.parse(gunzipSync(raw).toString("utf8")) as { provider_schemas: Record<string, { resource_schemas?: Record<string, { block: DumpBlock }> }> };
  const [address, schema] = Object.entries(dump.provider_schemas)[0]!;
  return { address, resources: schema.resource_schemas ?? {} };
}

/** A value of a Terraform JSON type; `variant` 1 and 2 differ at every primitive, `seed` keeps values apart. */
function typedValue(t: unknown, seed: string, variant: 1 | 2): Value {
  if (t === "string" || t === "dynamic") return `${seed}-${variant}`;
  if (t === "number") return 10 + variant;
  if (t === "bool") return variant === 1;
  if (Array.isArray(t)) {
    const [kind, inner] = t as [string, unknown];
    if (kind === "list" || kind === "set") return [typedValue(inner, seed, variant)];
    if (kind === "map") return { k: typedValue(inner, seed, variant) };
    if (kind === "object") return Object.fromEntries(Object.entries(inner as Record<string, unknown>).map(([k, x]) => [k, typedValue(x, `${seed}-${k}`, variant)]));
    if (kind === "tuple") return (inner as unknown[]).map((x, i) => typedValue(x, `${seed}-${i}`, variant));
  }
  throw new Error(`unknown type ${JSON.stringify(t)} in a dump`);
}

/** An attribute a configuration may set (computed-only ones it cannot; `id` would pick the replay peer's storage key). */
const settable = (name: string, a: DumpAttr): boolean => (a.required === true || a.optional === true) && name !== "id";

/** A value for an attribute: a nested attribute object gets its required attributes (or, lacking any, its first settable one). */
function attrValue(a: DumpAttr, seed: string, variant: 1 | 2): Value {
  if (a.nested_type === undefined) return typedValue(a.type, seed, variant);
  const attrs = a.nested_type.attributes ?? {};
  const names = Object.keys(attrs).sort();
  let chosen = names.filter((k) => attrs[k]!.required === true);
  if (chosen.length === 0) chosen = names.filter((k) => settable(k, attrs[k]!)).slice(0, 1);
  const obj = Object.fromEntries(chosen.map((k) => [k, attrValue(attrs[k]!, `${seed}-${k}`, variant)]));
  switch (a.nested_type.nesting_mode) {
    case "single":
      return obj;
    case "map":
      return { k: obj };
    default:
      return [obj];
  }
}

/** The required part of a block: required attributes, and each block with a minimum, that many elements. */
function requiredBody(b: DumpBlock, seed: string, scenario: string): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, a] of Object.entries(b.attributes ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
    if (a.required !== true) continue;
    // A required id is the replay peer's storage key: it differs per case so cases of one type stay apart.
    out[k] = k === "id" ? `id-${scenario}` : attrValue(a, `${seed}${k}`, 1);
  }
  for (const [k, nb] of Object.entries(b.block_types ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
    const min = nb.min_items ?? 0;
    if (min === 0) continue;
    const elems = Array.from({ length: min }, (_, i) => requiredBody(nb.block, `${seed}${k}${i}-`, scenario));
    out[k] = blockValue(nb, elems);
  }
  return out;
}

function blockValue(nb: NestedBlockDump, elems: Record<string, Value>[]): Value {
  if (nb.nesting_mode === "single" || nb.nesting_mode === "group") return elems[0] ?? {};
  if (nb.nesting_mode === "map") return Object.fromEntries(elems.map((e, i) => [`k${i}`, e]));
  return elems;
}

/** FNV-1a of a type name: which attribute or block a type's cases use, spread over the dump without randomness. */
export function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const SCENARIOS = ["opt-set", "opt-changed", "opt-removed", "block-added", "block-changed", "block-removed"] as const;

/**
 * Every case of one giant. Per resource type: the optional attribute and the optional block (one each, picked by the
 * type's hash) give the scenarios the type allows; `perType` of them are kept, again picked by the hash, so the corpus
 * covers every type and every scenario without growing with the product. A type without a string `id` is stored by the
 * replay peer under one key, so it gets one case.
 */
export function giantCases(g: Giant, perType: number): PeerCase[] {
  const { resources } = readDump(g);
  const out: PeerCase[] = [];
  for (const type of Object.keys(resources).sort()) {
    const block = resources[type]!.block;
    const h = hash(type);
    const attrs = block.attributes ?? {};
    const base = (scenario: string) => requiredBody(block, "", scenario);
    const scenarios: PeerCase[] = [];
    const add = (scenario: string, config1: Record<string, Value>, config2: Record<string, Value>) =>
      scenarios.push({ id: `${type}.${scenario}`, flavour: "peers", peer: g.name, family: "giants", shape: type, scenario, volatile: [], config1, config2 });

    const optional = Object.keys(attrs).sort().filter((k) => attrs[k]!.optional === true && settable(k, attrs[k]!));
    if (optional.length > 0) {
      const name = optional[h % optional.length]!;
      const a = attrs[name]!;
      const v1 = attrValue(a, name, 1);
      const v2 = attrValue(a, name, 2);
      add("opt-set", base("opt-set"), { ...base("opt-set"), [name]: v1 });
      if (JSON.stringify(v1) !== JSON.stringify(v2)) add("opt-changed", { ...base("opt-changed"), [name]: v1 }, { ...base("opt-changed"), [name]: v2 });
      add("opt-removed", { ...base("opt-removed"), [name]: v1 }, base("opt-removed"));
    }
    const blocks = Object.entries(block.block_types ?? {}).sort(([x], [y]) => x.localeCompare(y)).filter(([, nb]) => (nb.min_items ?? 0) === 0);
    if (blocks.length > 0) {
      const [name, nb] = blocks[(h >>> 8) % blocks.length]!;
      const inner = nb.block.attributes ?? {};
      const field = Object.keys(inner).sort().find((k) => inner[k]!.required !== true && settable(k, inner[k]!) && inner[k]!.write_only !== true);
      const elem = (scenario: string, variant: 1 | 2) => {
        const e = requiredBody(nb.block, `${name}-`, scenario);
        if (field !== undefined) e[field] = attrValue(inner[field]!, `${name}-${field}`, variant);
        return blockValue(nb, [e]);
      };
      add("block-added", base("block-added"), { ...base("block-added"), [name]: elem("block-added", 1) });
      if (field !== undefined) add("block-changed", { ...base("block-changed"), [name]: elem("block-changed", 1) }, { ...base("block-changed"), [name]: elem("block-changed", 2) });
      add("block-removed", { ...base("block-removed"), [name]: elem("block-removed", 1) }, base("block-removed"));
    }
    if (scenarios.length === 0) add("required", base("required"), base("required"));
    const keep = (attrs["id"] as DumpAttr | undefined)?.type === "string" ? perType : 1;
    // Rotate through the type's scenarios from a hashed start, so each scenario is kept about as often as any other.
    const start = (h >>> 16) % scenarios.length;
    for (let i = 0; i < Math.min(keep, scenarios.length); i++) out.push(scenarios[(start + i) % scenarios.length]!);
  }
  return out;
}

/** A giant's recorded corpus: the dump it came from, its cases and OpenTofu's answer to each. */
export interface GiantBundle {
  giant: string;
  dump: string;
  perType: number;
  cases: PeerCase[];
  goldens: Record<string, Golden>;
}

export const bundlePath = (g: Giant): string => join(GIANTS_DIR, `${g.name}.json.gz`);

export function loadBundle(g: Giant): GiantBundle | undefined {
  const p = bundlePath(g);
  return existsSync(p) ? (JSON.parse(gunzipSync(readFileSync(p)).toString("utf8")) as GiantBundle) : undefined;
}

/** The plan's before/after values are left out: the replay compares the changed paths derived from them. */
export function saveBundle(g: Giant, bundle: GiantBundle): void {
  for (const golden of Object.values(bundle.goldens)) Object.assign(golden.plan, { before: null, after: null, afterUnknown: null });
  writeFileSync(bundlePath(g), gzipSync(JSON.stringify(bundle), { level: 9 }));
}

/** Cases kept per resource type: two give over 8,000 cases across the five giants, every type and scenario covered. */
export const GIANT_CASES_PER_TYPE = 2;
