// Whole cty object values for a schema block: every attribute present, absent blocks as Terraform represents them.
import { isRecord, isUnknown, rawEquals, type CtyValue } from "./cty/index.js";
import type { Attribute, Block, NestedAttributeObject, NestedBlock } from "./types.js";

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

/** A nested block's schema or a nested attribute's object: what the elements of a nested collection follow. */
type ElementSchema = { block: Block } | { object: NestedAttributeObject };

/**
 * Terraform's proposed new state (objchange.ProposedNew): the configuration, with computed attributes the
 * configuration leaves null taking their prior values, so that a provider sees "unchanged" rather than "cleared".
 * Nested elements meet their prior counterparts by index (lists), key (maps) or, in sets, the first unused prior
 * element that the configured one could have come from (only computed values differ).
 */
export function proposedNewState(block: Block, prior: CtyValue, config: CtyValue): CtyValue {
  if (config === null && prior === null) return prior;
  return proposedNew(block, prior === null ? completeObject(block, {}) : prior, config);
}

function proposedNew(block: Block, prior: CtyValue, config: CtyValue): CtyValue {
  if (config === null || isUnknown(config)) return prior;
  const out = proposedAttributes(block.attributes, prior, config);
  for (const nb of block.blockTypes) out[nb.typeName] = proposedNestedBlock(nb, field(prior, nb.typeName), field(config, nb.typeName));
  return out;
}

function field(v: CtyValue, name: string): CtyValue {
  if (isUnknown(v)) return v;
  return isRecord(v) ? ((v as ObjectValue)[name] ?? null) : null;
}

function proposedAttributes(attrs: readonly Attribute[], prior: CtyValue, config: CtyValue): ObjectValue {
  const out: ObjectValue = Object.create(null) as ObjectValue;
  for (const a of attrs) {
    const p = field(prior, a.name);
    const c = field(config, a.name);
    if (a.computed && c === null) out[a.name] = optionalValueNotComputable(a, p) ? c : p;
    else if (a.nestedType !== undefined) out[a.name] = proposedNestedType(a.nestedType, p, c);
    else out[a.name] = c;
  }
  return out;
}

/**
 * An optional + computed nested attribute whose prior value holds something the user set (a non-computed attribute):
 * removing it from the configuration means removing it, not keeping the prior value.
 */
function optionalValueNotComputable(a: Attribute, v: CtyValue): boolean {
  return a.optional && a.nestedType !== undefined && holdsNonComputed(a.nestedType, v);
}

function holdsNonComputed(o: NestedAttributeObject, v: CtyValue): boolean {
  if (v === null || isUnknown(v)) return false;
  const elements = o.nesting === "single" ? [v] : Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [];
  return elements.some((el) =>
    o.attributes.some((a) => {
      const x = field(el, a.name);
      if (x === null) return false;
      return !a.computed || (a.nestedType !== undefined && holdsNonComputed(a.nestedType, x));
    }),
  );
}

function proposedNestedBlock(nb: NestedBlock, prior: CtyValue, config: CtyValue): CtyValue {
  if (isUnknown(config)) return config;
  switch (nb.nesting) {
    case "single":
      return config === null ? config : proposedNewState(nb.block, prior, config);
    case "group":
      return proposedNewState(nb.block, prior, config);
    default:
      return proposedCollection(nb.nesting, { block: nb.block }, prior, config);
  }
}

function proposedNestedType(o: NestedAttributeObject, prior: CtyValue, config: CtyValue): CtyValue {
  if (isUnknown(config)) return config;
  if (o.nesting === "single") return config === null ? config : proposedAttributes(o.attributes, prior, config);
  return proposedCollection(o.nesting, { object: o }, prior, config);
}

function proposedElement(schema: ElementSchema, prior: CtyValue, config: CtyValue): CtyValue {
  if ("block" in schema) return proposedNewState(schema.block, prior, config);
  return config === null ? config : proposedAttributes(schema.object.attributes, prior, config);
}

function proposedCollection(nesting: "list" | "set" | "map", schema: ElementSchema, prior: CtyValue, config: CtyValue): CtyValue {
  if (config === null || isUnknown(config)) return config;
  switch (nesting) {
    case "list": {
      if (!Array.isArray(config)) return config;
      // An element with no prior counterpart is taken as configured.
      return config.map((c, i) => (!isUnknown(prior) && (!Array.isArray(prior) || i >= prior.length) ? c : proposedElement(schema, isUnknown(prior) ? prior : prior[i]!, c)));
    }
    case "map": {
      if (!isRecord(config)) return config;
      const p = isRecord(prior) ? (prior as ObjectValue) : {};
      const out: ObjectValue = Object.create(null) as ObjectValue;
      for (const [k, c] of Object.entries(config as ObjectValue)) out[k] = k in p ? proposedElement(schema, p[k]!, c) : c;
      return out;
    }
    case "set": {
      if (!Array.isArray(config) || config.length === 0) return config;
      const priors = Array.isArray(prior) ? prior : [];
      const used = priors.map(() => false);
      return config.map((c) => {
        const i = priors.findIndex((p, j) => !used[j] && validPriorFromConfig(schema, p, c));
        if (i >= 0) used[i] = true;
        return proposedElement(schema, i >= 0 ? priors[i]! : null, c);
      });
    }
  }
}

/**
 * Whether a prior set element could be the one a configured element planned into: equal, or different only in
 * computed attributes the configuration leaves null (objchange's validPriorFromConfig).
 */
function validPriorFromConfig(schema: ElementSchema, prior: CtyValue, config: CtyValue): boolean {
  if (rawEquals(prior, config)) return true;
  return "block" in schema ? priorFitsBlock(schema.block, prior, config) : priorFitsAttributes(schema.object.attributes, prior, config);
}

/** Walks a prior object against the configured one as cty.Walk does: a missing configured value ends the match. */
function priorFitsAttributes(attrs: readonly Attribute[], prior: CtyValue, config: CtyValue): boolean {
  if (prior === null || isUnknown(prior)) return true;
  if (config === null) return false;
  for (const a of attrs) {
    const p = field(prior, a.name);
    const c = field(config, a.name);
    if (rawEquals(p, c)) continue;
    if (a.type?.kind === "set" || a.nestedType?.nesting === "set") return false;
    if (a.nestedType !== undefined) {
      if (!priorFitsNested(a.nestedType, p, c)) return false;
      continue;
    }
    if (!a.computed || c !== null) return false;
  }
  return true;
}

function priorFitsNested(o: NestedAttributeObject, prior: CtyValue, config: CtyValue): boolean {
  if (prior === null || isUnknown(prior)) return true;
  if (o.nesting === "single") return priorFitsAttributes(o.attributes, prior, config);
  return priorElementsFit(prior, config, (p, c) => priorFitsAttributes(o.attributes, p, c));
}

function priorFitsBlock(block: Block, prior: CtyValue, config: CtyValue): boolean {
  if (prior === null || isUnknown(prior)) return true;
  if (config === null) return false;
  if (!priorFitsAttributes(block.attributes, prior, config)) return false;
  for (const nb of block.blockTypes) {
    const p = field(prior, nb.typeName);
    const c = field(config, nb.typeName);
    if (rawEquals(p, c)) continue;
    if (nb.nesting === "set") return false;
    if (p === null || isUnknown(p)) continue;
    if (nb.nesting === "single" || nb.nesting === "group") {
      if (!priorFitsBlock(nb.block, p, c)) return false;
    } else if (!priorElementsFit(p, c, (pe, ce) => rawEquals(pe, ce) || priorFitsBlock(nb.block, pe, ce))) {
      return false;
    }
  }
  return true;
}

/** Each prior element of a list or map against the configured element at its index or key; a missing one fails. */
function priorElementsFit(prior: CtyValue, config: CtyValue, fits: (p: CtyValue, c: CtyValue) => boolean): boolean {
  const entries: [string | number, CtyValue][] = Array.isArray(prior) ? prior.map((p, i) => [i, p]) : isRecord(prior) ? Object.entries(prior as ObjectValue) : [];
  return entries.every(([k, p]) => {
    if (config === null) return false;
    if (isUnknown(config)) return fits(p, config);
    const c = typeof k === "number" ? (Array.isArray(config) ? config[k] : undefined) : isRecord(config) ? (config as ObjectValue)[k] : undefined;
    return c !== undefined && fits(p, c);
  });
}

/** containsComputedBlocks' answers by block: every plan asks it of the whole schema, which does not change. */
const computedBlocksMemo = new WeakMap<Block, boolean>();

/** Whether the block or any block nested in it is computed (configschema's ContainsComputedBlocks). */
export function containsComputedBlocks(block: Block): boolean {
  let known = computedBlocksMemo.get(block);
  if (known === undefined) {
    known = block.computed === true || block.blockTypes.some((nb) => containsComputedBlocks(nb.block));
    computedBlocksMemo.set(block, known);
  }
  return known;
}

/**
 * The configuration as Terraform 1.16 plans it (objchange.PrepareComputedBlocks): a computed list, set or map block
 * with no elements becomes null, telling the provider it may fill the block in. Terraform sends this form as the plan's
 * config and builds the proposed new state from it; validation and apply see the configuration as written.
 */
export function emptiedComputedBlocks(block: Block, config: CtyValue): CtyValue {
  if (!containsComputedBlocks(block)) return config;
  return emptied(block, config);
}

function emptied(block: Block, v: CtyValue): CtyValue {
  if (!isRecord(v)) return v;
  const out = Object.assign(Object.create(null) as ObjectValue, v as ObjectValue);
  for (const nb of block.blockTypes) {
    if (!containsComputedBlocks(nb.block)) continue;
    const x = out[nb.typeName];
    if (x === undefined || x === null || isUnknown(x)) continue;
    const one = (el: CtyValue): CtyValue => emptied(nb.block, el);
    switch (nb.nesting) {
      case "single":
      case "group":
        out[nb.typeName] = one(x);
        break;
      case "list":
      case "set":
        out[nb.typeName] = Array.isArray(x) ? (x.length === 0 && nb.block.computed === true ? null : x.map(one)) : x;
        break;
      case "map": {
        if (!isRecord(x)) break;
        const entries = Object.entries(x as ObjectValue);
        out[nb.typeName] = entries.length === 0 && nb.block.computed === true ? null : Object.fromEntries(entries.map(([k, el]) => [k, one(el)]));
        break;
      }
    }
  }
  return out;
}
