// Whole cty object values for a schema block: every attribute present, absent blocks as Terraform represents them.
import { isRecord, isUnknown, type CtyValue } from "./cty/index.js";
import type { Block, NestedAttributeObject, NestedBlock, NestingMode } from "./types.js";

type ObjectValue = { [key: string]: CtyValue };

/** What Terraform puts in a configuration for a block the user did not write. */
export function absentBlockValue(nb: NestedBlock): CtyValue {
  switch (nb.nesting) {
    case "list":
    case "set":
      return [];
    case "map":
      return {};
    case "group":
      return completeObject(nb.block, {});
    case "single":
      return null;
  }
}

/**
 * Completes a partial object for a block: missing attributes become null and missing blocks their absent value,
 * recursing into the blocks that are given, because providers expect every attribute of the implied type.
 */
export function completeObject(block: Block, partial: ObjectValue): ObjectValue {
  const known = new Set([...block.attributes.map((a) => a.name), ...block.blockTypes.map((b) => b.typeName)]);
  for (const key of Object.keys(partial)) {
    if (!known.has(key)) throw new Error(`unknown attribute or block "${key}"`);
  }
  const out: ObjectValue = Object.create(null) as ObjectValue;
  for (const a of block.attributes) out[a.name] = partial[a.name] ?? null;
  for (const nb of block.blockTypes) {
    const v = partial[nb.typeName];
    if (v === undefined || v === null) {
      out[nb.typeName] = v === null && nb.nesting === "single" ? null : absentBlockValue(nb);
    } else {
      out[nb.typeName] = completeBlockValue(nb, v);
    }
  }
  return out;
}

function completeBlockValue(nb: NestedBlock, v: CtyValue): CtyValue {
  // Unknown values and nulls pass through; only plain objects are completed.
  const one = (x: CtyValue): CtyValue => (isRecord(x) ? completeObject(nb.block, x as ObjectValue) : x);
  switch (nb.nesting) {
    case "single":
    case "group":
      return one(v);
    case "list":
    case "set":
      return Array.isArray(v) ? v.map(one) : v;
    case "map":
      return isRecord(v) ? Object.fromEntries(Object.entries(v as ObjectValue).map(([k, x]) => [k, one(x)])) : v;
  }
}

/**
 * Terraform's proposed new state: the configuration, with computed attributes the configuration leaves null taking
 * their prior values, so that a provider sees "unchanged" rather than "cleared". Nested blocks and nested attributes are
 * matched with their prior counterparts by position (lists), key (maps) or not at all (sets).
 */
export function proposedNewState(block: Block, prior: CtyValue, config: CtyValue): CtyValue {
  if (config === null || isUnknown(config)) return config;
  const priorObj = isRecord(prior) ? prior : undefined;
  const cfg = config as ObjectValue;
  const out: ObjectValue = Object.create(null) as ObjectValue;
  for (const a of block.attributes) {
    const c = cfg[a.name] ?? null;
    const p = priorObj?.[a.name] ?? null;
    if (a.computed && c === null) {
      out[a.name] = p;
    } else if (a.nestedType !== undefined && c !== null && !isUnknown(c)) {
      out[a.name] = proposedNested(a.nestedType, p, c);
    } else {
      out[a.name] = c;
    }
  }
  for (const nb of block.blockTypes) {
    const c = cfg[nb.typeName] ?? null;
    const p = priorObj?.[nb.typeName] ?? null;
    out[nb.typeName] = proposedCollection(nb.nesting, (pi, ci) => proposedNewState(nb.block, pi, ci), p, c);
  }
  return out;
}

function proposedNested(o: NestedAttributeObject, prior: CtyValue, config: CtyValue): CtyValue {
  const asBlock: Block = { attributes: o.attributes, blockTypes: [], description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "" };
  return proposedCollection(o.nesting, (p, c) => proposedNewState(asBlock, p, c), prior, config);
}

function proposedCollection(
  nesting: NestingMode,
  one: (prior: CtyValue, config: CtyValue) => CtyValue,
  prior: CtyValue,
  config: CtyValue,
): CtyValue {
  if (config === null || isUnknown(config)) return config;
  switch (nesting) {
    case "single":
    case "group":
      return one(prior, config);
    case "list":
      return Array.isArray(config) ? config.map((c, i) => one(Array.isArray(prior) ? (prior[i] ?? null) : null, c)) : config;
    case "set":
      // Set elements have no identity across plans; Terraform proposes them as configured.
      return Array.isArray(config) ? config.map((c) => one(null, c)) : config;
    case "map": {
      if (!isRecord(config)) return config;
      const out: ObjectValue = Object.create(null) as ObjectValue;
      const p = isRecord(prior) ? prior : undefined;
      for (const [k, c] of Object.entries(config)) out[k] = one(p?.[k] ?? null, c);
      return out;
    }
  }
}
