// The configuration Terraform 1.14's `plan -generate-config-out` writes for an imported state, as a cty value, and the Pulumi inputs it makes.
import { Dynamic, isRecord, type CtyValue } from "../terraform/cty/index.js";
import type { Attribute, Block, Diagnostic, NestedAttributeObject, TerraformProvider } from "../terraform/types.js";
import type { ObjectTypeModel, PropertyModel, TypeModel } from "../schema-translate/model.js";
import { fromTfObject } from "./property-cty.js";
import { isPropertyMap, Secret, type PropertyMap, type PropertyValue } from "./property-value.js";

/**
 * Terraform core's fallback for providers that do not generate configuration themselves (its genconfig
 * ExtractLegacyConfigFromState; SDKv2's GenerateResourceConfig applies the same rules): deprecated attributes and
 * blocks, computed-only attributes, the top-level optional+computed `id` SDKv2 adds, and optional strings holding ""
 * (SDKv2's stand-in for null) become null. Elements of collections pass through untouched.
 */
export function legacyConfigFromState(block: Block, state: CtyValue): CtyValue {
  return legacyBlock(block, state, true);
}

function legacyBlock(block: Block, v: CtyValue, top: boolean): CtyValue {
  if (!isRecord(v)) return v;
  const out: Record<string, CtyValue> = { ...v };
  for (const a of block.attributes) out[a.name] = legacyAttribute(a, v[a.name] ?? null, top);
  for (const b of block.blockTypes) {
    const value = v[b.typeName] ?? null;
    out[b.typeName] = b.block.deprecated ? null : eachElement(value, b.nesting === "single" || b.nesting === "group", (e) => legacyBlock(b.block, e, false));
  }
  return out;
}

function legacyAttribute(a: Attribute, v: CtyValue, top: boolean): CtyValue {
  if (v === null) return null;
  if (a.deprecated) return null;
  if (a.computed && !a.optional) return null;
  if (top && a.name === "id" && a.computed && a.optional) return null;
  if (a.nestedType !== undefined) return eachElement(v, a.nestedType.nesting === "single", (e) => legacyObject(a.nestedType!, e));
  // Terraform looks at the value's own type, so a dynamic attribute holding "" is null too.
  if (a.optional && (v === "" || (v instanceof Dynamic && v.type.kind === "string" && v.value === ""))) return null;
  return v;
}

function legacyObject(o: NestedAttributeObject, v: CtyValue): CtyValue {
  if (!isRecord(v)) return v;
  const out: Record<string, CtyValue> = { ...v };
  for (const a of o.attributes) out[a.name] = legacyAttribute(a, v[a.name] ?? null, false);
  return out;
}

/** Applies `f` to an object value (`single`), or to each element of a list, set or map of objects. */
function eachElement(v: CtyValue, single: boolean, f: (e: CtyValue) => CtyValue): CtyValue {
  if (v === null) return null;
  if (single) return f(v);
  if (Array.isArray(v)) return v.map(f);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, f(e)]));
  return v;
}

/**
 * What Terraform actually writes from a configuration value (its genconfig writeConfig*FromExisting), read back as a
 * value: computed attributes left null and deprecated ones are left out; a sensitive attribute is written
 * `null # sensitive` (a sensitive nested attribute `{}` or `[]`), so its value never reaches the file; a string
 * holding a JSON object or array is written `jsonencode(…)`, which Terraform re-encodes compactly with sorted keys;
 * a null block, or a block list with no element, is left out.
 */
export function writtenConfig(block: Block, config: CtyValue): CtyValue {
  if (!isRecord(config)) return config;
  const out: Record<string, CtyValue> = {};
  for (const a of block.attributes) out[a.name] = writtenAttribute(a, config[a.name] ?? null);
  for (const b of block.blockTypes) {
    const v = config[b.typeName] ?? null;
    // No element, no block written: as left out of the configuration.
    const none = Array.isArray(v) ? v.length === 0 : isRecord(v) && b.nesting === "map" && Object.keys(v).length === 0;
    out[b.typeName] = none ? null : eachElement(v, b.nesting === "single" || b.nesting === "group", (e) => writtenConfig(b.block, e));
  }
  return out;
}

function writtenAttribute(a: Attribute, v: CtyValue): CtyValue {
  if (a.deprecated || v === null) return null;
  const nested = a.nestedType;
  if (nested !== undefined) {
    if (a.sensitive) return nested.nesting === "single" ? Object.fromEntries(nested.attributes.map((n) => [n.name, null])) : nested.nesting === "map" ? {} : [];
    return eachElement(v, nested.nesting === "single", (e) => writtenObject(nested, e));
  }
  if (a.sensitive) return null;
  if (typeof v === "string") return jsonEncoded(v);
  if (v instanceof Dynamic && typeof v.value === "string") return new Dynamic(v.type, jsonEncoded(v.value));
  return v;
}

function writtenObject(o: NestedAttributeObject, v: CtyValue): CtyValue {
  if (!isRecord(v)) return v;
  return Object.fromEntries(o.attributes.map((a) => [a.name, writtenAttribute(a, v[a.name] ?? null)]));
}

/** `jsonencode(<the string's JSON>)` as Terraform evaluates it; other strings (and lone JSON primitives) as they are. */
function jsonEncoded(s: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    return s;
  }
  if (parsed === null || typeof parsed !== "object") return s;
  return goJson(parsed);
}

/** go-cty's JSON encoding of a decoded JSON value: object keys sorted, numbers without exponents, Go's HTML escaping. */
function goJson(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (typeof v === "number") return plainNumber(v);
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${goJson(k)}:${goJson(o[k])}`)
    .join(",")}}`;
}

function plainNumber(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  if (Number.isInteger(n)) return BigInt(n).toString();
  return n.toFixed(20).replace(/0+$/, "").replace(/\.$/, "");
}

/**
 * The configuration Terraform 1.14 would generate for `state`: the provider's own (GenerateResourceConfig) where it
 * advertises the capability, core's legacy rules otherwise; then what the writer keeps of it.
 */
export async function terraformGeneratedConfig(
  tf: TerraformProvider,
  providerGenerates: boolean,
  typeName: string,
  block: Block,
  state: CtyValue,
): Promise<{ config: CtyValue; diagnostics: Diagnostic[] }> {
  if (!providerGenerates) return { config: writtenConfig(block, legacyConfigFromState(block, state)), diagnostics: [] };
  const generated = await tf.generateResourceConfig(typeName, state);
  return { config: writtenConfig(block, generated.config), diagnostics: generated.diagnostics };
}

/**
 * Where Pulumi's inputs part from Terraform's file: a sensitive or deprecated value that no default fills in again
 * (the attribute is not computed) is kept from the state, a sensitive one as a Pulumi secret, since leaving it out
 * would make the program plan its removal (Terraform writes `null # sensitive` and leaves deprecated ones out, and its
 * next plan removes them, or fails for a required one). An optional string holding "" stays out.
 */
export function keptForPulumi(block: Block, written: CtyValue, state: CtyValue): CtyValue {
  if (!isRecord(written) || !isRecord(state)) return written;
  const out = keptAttributes(block.attributes, written, state);
  for (const b of block.blockTypes) {
    const w = written[b.typeName] ?? null;
    const v = state[b.typeName] ?? null;
    if (b.nesting === "single" || b.nesting === "group") out[b.typeName] = keptForPulumi(b.block, w, v);
    else if (Array.isArray(w) && Array.isArray(v)) out[b.typeName] = w.map((e, i) => keptForPulumi(b.block, e, v[i] ?? null));
    else if (isRecord(w) && isRecord(v)) out[b.typeName] = Object.fromEntries(Object.entries(w).map(([k, e]) => [k, keptForPulumi(b.block, e, v[k] ?? null)]));
  }
  return out;
}

/** keptForPulumi's rule for the attributes of a block or of a nested attribute's object, at any depth. */
function keptAttributes(attributes: readonly Attribute[], written: Record<string, CtyValue>, state: Record<string, CtyValue>): Record<string, CtyValue> {
  const out: Record<string, CtyValue> = { ...written };
  for (const a of attributes) {
    const v = state[a.name] ?? null;
    const nested = a.nestedType;
    if (a.computed || v === null || (a.optional && v === "")) continue;
    if (a.sensitive || a.deprecated) {
      out[a.name] = nested === undefined ? v : eachElement(v, nested.nesting === "single", (e) => legacyObject(nested, e));
      continue;
    }
    const w = written[a.name] ?? null;
    if (nested === undefined || w === null) continue;
    // A sensitive attribute inside a nested attribute's objects (`v.sec`): the same rule, element by element.
    const inner = (we: CtyValue, se: CtyValue): CtyValue => (isRecord(we) && isRecord(se) ? keptAttributes(nested.attributes, we, se) : we);
    if (nested.nesting === "single") out[a.name] = inner(w, v);
    else if (Array.isArray(w) && Array.isArray(v)) out[a.name] = w.map((e, i) => inner(e, v[i] ?? null));
    else if (isRecord(w) && isRecord(v)) out[a.name] = Object.fromEntries(Object.entries(w).map(([k, e]) => [k, inner(e, v[k] ?? null)]));
  }
  return out;
}

/**
 * Terraform's generated configuration with the values keptForPulumi, made valid where it is invalid only because the
 * provider read back both halves of a ConflictsWith/ExactlyOneOf pair (which no schema flag shows, so Terraform writes
 * both and its plan then fails): while the provider's validation names top-level optional+computed attributes the
 * configuration sets, the one that sorts last is left out (the provider computes it again). Any other error is left
 * for the plan to report.
 */
export async function generatedConfig(
  tf: TerraformProvider,
  providerGenerates: boolean,
  typeName: string,
  block: Block,
  state: CtyValue,
): Promise<{ config: CtyValue; diagnostics: Diagnostic[]; dropped: string[] }> {
  const generated = await terraformGeneratedConfig(tf, providerGenerates, typeName, block, state);
  const dropped: string[] = [];
  let config = keptForPulumi(block, generated.config, state);
  if (!isRecord(config) || generated.diagnostics.some((d) => d.severity === "error")) return { ...generated, dropped };
  const droppable = new Set(block.attributes.filter((a) => a.optional && a.computed).map((a) => a.name));
  for (let round = 0; round < droppable.size; round++) {
    const current: Record<string, CtyValue> = config as Record<string, CtyValue>;
    const named = (await tf.validateResourceConfig(typeName, current))
      .filter((d) => d.severity === "error")
      .map((d) => d.attribute?.[0])
      .flatMap((step) => (step !== undefined && "attribute" in step && droppable.has(step.attribute) && current[step.attribute] !== null ? [step.attribute] : []));
    if (named.length === 0) break;
    const drop = [...new Set(named)].sort().at(-1)!;
    dropped.push(drop);
    config = { ...current, [drop]: null };
  }
  return { config, diagnostics: generated.diagnostics, dropped };
}

/**
 * `config` with each top-level optional, non-computed attribute that the state holds as "" and the configuration
 * leaves null set to "" again; `config` itself when there is none.
 */
export function emptyStringsKept(block: Block, config: CtyValue, state: CtyValue): CtyValue {
  if (!isRecord(config) || !isRecord(state)) return config;
  const restored = block.attributes.filter((a) => a.optional && !a.computed && !a.deprecated && state[a.name] === "" && (config[a.name] ?? null) === null);
  return restored.length === 0 ? config : { ...config, ...Object.fromEntries(restored.map((a) => [a.name, ""])) };
}

/**
 * A generated configuration as Pulumi inputs: the input properties it sets, without the nulls it leaves inside objects,
 * so `pulumi import` prints only what the configuration says.
 */
export function inputsFromConfig(props: readonly PropertyModel[], config: CtyValue): PropertyMap {
  const values = fromTfObject(props, config);
  const out: PropertyMap = {};
  for (const p of props) {
    const v = values[p.name];
    if (!p.input || v === null || v === undefined) continue;
    out[p.name] = withoutNulls(p.type, v);
  }
  return out;
}

function withoutNulls(t: TypeModel, v: PropertyValue): PropertyValue {
  if (v instanceof Secret) return new Secret(withoutNulls(t, v.value));
  switch (t.kind) {
    case "array":
      return Array.isArray(v) ? v.map((e) => withoutNulls(t.items, e)) : v;
    case "map":
      return isPropertyMap(v) ? Object.fromEntries(Object.entries(v).map(([k, e]) => [k, withoutNulls(t.values, e)])) : v;
    case "object":
      return isPropertyMap(v) ? objectWithoutNulls(t.ref, v) : v;
    default:
      return v;
  }
}

function objectWithoutNulls(ref: ObjectTypeModel, v: PropertyMap): PropertyMap {
  const out: PropertyMap = {};
  for (const p of ref.properties) {
    const e = v[p.name];
    if (e !== null && e !== undefined) out[p.name] = withoutNulls(p.type, e);
  }
  return out;
}
