// Whole cty object values for a schema block: every attribute present, absent blocks as Terraform represents them.
import type { CtyValue } from "./cty/index.js";
import type { Block, NestedBlock } from "./types.js";

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
  const one = (x: CtyValue): CtyValue => (isPlainObject(x) ? completeObject(nb.block, x as ObjectValue) : x);
  switch (nb.nesting) {
    case "single":
    case "group":
      return one(v);
    case "list":
    case "set":
      return Array.isArray(v) ? v.map(one) : v;
    case "map":
      return isPlainObject(v) ? Object.fromEntries(Object.entries(v as ObjectValue).map(([k, x]) => [k, one(x)])) : v;
  }
}

function isPlainObject(x: unknown): boolean {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}
