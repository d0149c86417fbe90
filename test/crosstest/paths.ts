// Reads a case's shape as a type tree, finds the paths a Terraform plan changes, and moves values and paths between
// Terraform's names and Pulumi's (the corpus's names are lower-case single words, so only block flattening differs).
import { objectTypeOf, type PropertyModel } from "../../src/schema-translate/model.js";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Block, NestedAttributeObject } from "../../src/terraform/types.js";
import type { AttrDesc, BlockDesc, ChangedPath, ShapeDesc, TypeDesc, Value } from "./corpus.js";

export type Node =
  | { kind: "prim" | "dynamic" }
  | { kind: "list" | "set" | "map"; elem: Node }
  | { kind: "object"; fields: Record<string, Field> };

export interface Field {
  node: Node;
  /** The Pulumi property name, when it is not the Terraform one (lists are pluralised: `v` → `vs`). */
  pulumi?: string;
  /** A MaxItems=1 block: Terraform holds a one-element list, Pulumi the element itself. */
  flatten?: boolean;
  writeOnly?: boolean;
  computedOnly?: boolean;
  /** A nested block: Terraform holds an absent one as an empty collection, never null. */
  block?: boolean;
}

/** A Terraform path step: an attribute name, a list index, or a map key. */
export type Step = string | number | { key: string };

function typeNode(t: TypeDesc): Node {
  if (typeof t === "string") return { kind: t === "dynamic" ? "dynamic" : "prim" };
  if (t[0] === "object") return { kind: "object", fields: Object.fromEntries(Object.entries(t[1] as Record<string, TypeDesc>).map(([k, v]) => [k, { node: typeNode(v) }])) };
  return { kind: t[0] as "list" | "set" | "map", elem: typeNode(t[1] as TypeDesc) };
}

function attrField(a: AttrDesc): Field {
  let node: Node;
  if (a.nested !== undefined) {
    const obj = objectNode(a.nested.attributes, {});
    node = a.nested.mode === "single" ? obj : { kind: a.nested.mode, elem: obj };
  } else {
    node = typeNode(a.type!);
  }
  return { node, ...(a.writeOnly ? { writeOnly: true } : {}), ...(a.computed && !a.optional && !a.required ? { computedOnly: true } : {}) };
}

function blockField(b: BlockDesc, flavour: "sdkv2" | "framework"): Field {
  const obj = objectNode(b.attributes, b.blocks ?? {}, flavour);
  if (b.mode === "single") return { node: obj };
  return { node: { kind: b.mode, elem: obj }, block: true, ...(flavour === "sdkv2" && b.maxItems === 1 ? { flatten: true } : {}) };
}

function objectNode(attrs: Record<string, AttrDesc>, blocks: Record<string, BlockDesc>, flavour: "sdkv2" | "framework" = "framework"): Node {
  const fields: Record<string, Field> = {};
  for (const [k, a] of Object.entries(attrs)) fields[k] = attrField(a);
  for (const [k, b] of Object.entries(blocks)) fields[k] = blockField(b, flavour);
  return { kind: "object", fields };
}

/** The resource's type tree, with its `id`. */
export function shapeNode(shape: ShapeDesc, flavour: "sdkv2" | "framework"): Node {
  const node = objectNode(shape.attributes, shape.blocks ?? {}, flavour);
  if (node.kind === "object" && !("id" in node.fields)) node.fields["id"] = { node: { kind: "prim" }, computedOnly: true };
  return node;
}

const isNull = (v: unknown): boolean => v === null || v === undefined;

/** Values as Terraform compares them: numbers by value, sets without order, objects by their non-null fields. */
export function valueEqual(node: Node, a: unknown, b: unknown): boolean {
  if (isNull(a) || isNull(b)) return isNull(a) && isNull(b);
  switch (node.kind) {
    case "prim":
      return typeof a === "number" || typeof b === "number" ? Number(a) === Number(b) : a === b;
    case "dynamic":
      return JSON.stringify(a) === JSON.stringify(b);
    case "list":
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => valueEqual(node.elem, x, b[i]));
    case "set":
      return Array.isArray(a) && Array.isArray(b) && multisetEqual(node.elem, a, b);
    case "map": {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      return [...keys].every((k) => k in x && k in y && valueEqual(node.elem, x[k], y[k]));
    }
    case "object": {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      return Object.entries(node.fields).every(([k, f]) => valueEqual(f.node, x[k], y[k]));
    }
  }
}

function multisetEqual(elem: Node, a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...b];
  for (const x of a) {
    const i = left.findIndex((y) => valueEqual(elem, x, y));
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

function containsTrue(u: unknown): boolean {
  if (u === true) return true;
  if (Array.isArray(u)) return u.some(containsTrue);
  if (typeof u === "object" && u !== null) return Object.values(u).some(containsTrue);
  return false;
}

/**
 * The places where a plan's `after` (with `after_unknown`) differs from its `before`: objects by field, lists by
 * index, maps by key; a set that differs is one change at the set (its elements have no address a Pulumi diff could
 * name the same way).
 */
export function changedPaths(node: Node, before: unknown, after: unknown, afterUnknown: unknown, replacePaths: Step[][]): ChangedPath[] {
  const out: ChangedPath[] = [];
  const push = (path: Step[], kind: ChangedPath["kind"]): void => void out.push({ path: formatTfPath(path), kind, replace: replacePaths.some((r) => overlaps(truncateAtSet(node, r), path)) });
  const walk = (n: Node, a: unknown, b: unknown, u: unknown, path: Step[]): void => {
    if (u === true) return push(path, isNull(a) ? "add" : "update");
    if (isNull(a) && isNull(b)) return;
    if (isNull(a)) return push(path, "add");
    if (isNull(b)) return push(path, "delete");
    switch (n.kind) {
      case "object":
        for (const [k, f] of Object.entries(n.fields)) walk(f.node, (a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], (u as Record<string, unknown> | undefined)?.[k], [...path, k]);
        return;
      case "list": {
        const x = a as unknown[];
        const y = b as unknown[];
        const ul = Array.isArray(u) ? u.length : 0;
        for (let i = 0; i < Math.max(x.length, y.length, ul); i++) {
          const ui = (u as unknown[] | undefined)?.[i];
          if (ui === true) push([...path, i], i < x.length ? "update" : "add");
          else if (i >= x.length) push([...path, i], "add");
          else if (i >= y.length) push([...path, i], "delete");
          else walk(n.elem, x[i], y[i], (u as unknown[] | undefined)?.[i], [...path, i]);
        }
        return;
      }
      case "map": {
        const x = a as Record<string, unknown>;
        const y = b as Record<string, unknown>;
        // A map element planned unknown is in after_unknown only.
        const uk = typeof u === "object" && u !== null && !Array.isArray(u) ? Object.keys(u) : [];
        for (const k of [...new Set([...Object.keys(x), ...Object.keys(y), ...uk])].sort()) {
          const uv = (u as Record<string, unknown> | undefined)?.[k];
          if (uv === true) push([...path, { key: k }], k in x ? "update" : "add");
          else if (!(k in x)) push([...path, { key: k }], "add");
          else if (!(k in y)) push([...path, { key: k }], "delete");
          else walk(n.elem, x[k], y[k], (u as Record<string, unknown> | undefined)?.[k], [...path, { key: k }]);
        }
        return;
      }
      case "set":
        if (containsTrue(u) || !valueEqual(n, a, b)) push(path, "update");
        return;
      default:
        if (!valueEqual(n, a, b)) push(path, "update");
    }
  };
  walk(node, before, after, afterUnknown, []);
  return out;
}

/** The path up to and including the first set on its way: what lies inside a set element has no stable address. */
export function truncateAtSet(node: Node, path: Step[]): Step[] {
  let n: Node | undefined = node;
  for (let i = 0; i < path.length; i++) {
    if (n === undefined) return path;
    if (n.kind === "set") return path.slice(0, i);
    const s = path[i]!;
    if (n.kind === "object" && typeof s === "string") n = n.fields[s]?.node;
    else if (n.kind === "list" || n.kind === "map") n = n.elem;
    else n = undefined;
  }
  return path;
}

function overlaps(a: Step[], b: Step[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return false;
  return true;
}

export function formatTfPath(path: Step[]): string {
  let out = "";
  for (const s of path) {
    if (typeof s === "string") out += out === "" ? s : `.${s}`;
    else if (typeof s === "number") out += `[${s}]`;
    else out += `[${JSON.stringify(s.key)}]`;
  }
  return out;
}

/** OpenTofu's replace_paths (`[["items", 0, "fn"]]`) as steps; a string after a map is a key. */
export function replaceSteps(node: Node, raw: (string | number)[]): Step[] {
  const out: Step[] = [];
  let n: Node | undefined = node;
  for (const s of raw) {
    if (n?.kind === "map" && typeof s === "string") {
      out.push({ key: s });
      n = n.elem;
    } else {
      out.push(s);
      n = n === undefined ? undefined : n.kind === "object" && typeof s === "string" ? n.fields[s]?.node : n.kind === "list" || n.kind === "set" ? n.elem : undefined;
    }
  }
  return out;
}

/**
 * A Pulumi property path (`items[0].s`, `tags.env`, `tags["a b"]`) as the Terraform path of the same place: a
 * flattened block gets its index 0 back, and the path stops at a set.
 */
export function pulumiToTfPath(node: Node, pulumiPath: string): string {
  const steps: (string | number)[] = [];
  const re = /\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(pulumiPath)) !== null) {
    steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(`"${m[3]}"`) as string)));
    last = re.lastIndex;
  }
  if (last !== pulumiPath.length) throw new Error(`cannot read the Pulumi path ${pulumiPath}`);
  const out: Step[] = [];
  let n: Node | undefined = node;
  for (const s of steps) {
    if (n === undefined) {
      out.push(s);
      continue;
    }
    if (n.kind === "set") break;
    if (n.kind === "object") {
      const entry: [string, Field] | undefined = Object.entries(n.fields).find(([k, x]) => (x.pulumi ?? k) === String(s));
      const f: Field | undefined = entry?.[1];
      out.push(entry?.[0] ?? String(s));
      if (f?.flatten === true && f.node.kind === "set") break;
      if (f?.flatten === true) {
        out.push(0);
        n = f.node.kind === "list" || f.node.kind === "set" ? f.node.elem : undefined;
      } else {
        n = f?.node;
      }
    } else if (n.kind === "map") {
      out.push({ key: String(s) });
      n = n.elem;
    } else if (n.kind === "list") {
      out.push(s);
      n = n.elem;
    } else {
      out.push(s);
      n = undefined;
    }
  }
  return formatTfPath(out);
}

/** A Terraform value as Pulumi holds it: flattened blocks become their element (or nothing), and markers are resolved. */
export function tfToPulumi(node: Node, v: unknown, resolve: (marker: { $unknown: string; value: Value }) => unknown): unknown {
  if (typeof v === "object" && v !== null && !Array.isArray(v) && "$unknown" in v) return resolve(v as { $unknown: string; value: Value });
  if (isNull(v)) return null;
  switch (node.kind) {
    case "object": {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(node.fields)) {
        if (!(k in o)) continue;
        let x = o[k];
        if (f.flatten === true && Array.isArray(x)) x = x[0] ?? null;
        const name = f.pulumi ?? k;
        if (f.flatten === true && (f.node.kind === "list" || f.node.kind === "set")) out[name] = tfToPulumi(f.node.elem, x, resolve);
        else out[name] = tfToPulumi(f.node, x, resolve);
      }
      return out;
    }
    case "list":
    case "set":
      return (v as unknown[]).map((x) => tfToPulumi(node.elem, x, resolve));
    case "map":
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, tfToPulumi(node.elem, x, resolve)]));
    default:
      return v;
  }
}

/** A Pulumi value as Terraform holds it in state: a flattened block back in its list ([] when absent). */
export function pulumiToTf(node: Node, v: unknown): unknown {
  switch (node.kind) {
    case "object": {
      if (isNull(v)) return null;
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, f] of Object.entries(node.fields)) {
        const x = o[f.pulumi ?? k];
        if (f.flatten === true && (f.node.kind === "list" || f.node.kind === "set")) out[k] = isNull(x) ? [] : [pulumiToTf(f.node.elem, x)];
        else if (f.block === true && isNull(x)) out[k] = [];
        else out[k] = pulumiToTf(f.node, x);
      }
      return out;
    }
    case "list":
    case "set":
      return isNull(v) ? null : (v as unknown[]).map((x) => pulumiToTf(node.elem, x));
    case "map":
      return isNull(v) ? null : Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, pulumiToTf(node.elem, x)]));
    default:
      return isNull(v) ? null : v;
  }
}

/**
 * A Terraform value with every null list or set block made empty: a block is never null in a configuration, but an
 * SDKv2 provider may return null for an optional+computed one it did not set (kreuzwerker/docker's healthcheck after
 * create), and OpenTofu stores that as it is; the same block after a read is `[]`. States compare blocks absent as empty.
 */
export function nullBlocksEmpty(node: Node, v: unknown): unknown {
  if (isNull(v)) return v;
  switch (node.kind) {
    case "object": {
      const o = { ...(v as Record<string, unknown>) };
      for (const [k, f] of Object.entries(node.fields)) {
        if (f.block === true && isNull(o[k])) o[k] = [];
        else if (k in o) o[k] = nullBlocksEmpty(f.node, o[k]);
      }
      return o;
    }
    case "list":
    case "set":
      return (v as unknown[]).map((x) => nullBlocksEmpty(node.elem, x));
    case "map":
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, nullBlocksEmpty(node.elem, x)]));
    default:
      return v;
  }
}

/** Where two Terraform values differ (for a state comparison's message); empty when equal. */
export function valueDifferences(node: Node, a: unknown, b: unknown): string[] {
  return changedPaths(node, a, b, undefined, []).map((c) => `${c.path || "(whole)"}: ${c.kind}`);
}

/** Pulumi names from the plugin's own model of the same schema, on every field of the tree. */
export function withPulumiNames(node: Node, props: readonly PropertyModel[]): void {
  if (node.kind !== "object") return;
  for (const p of props) {
    const f = node.fields[p.tfName];
    if (f === undefined) continue;
    if (p.name !== p.tfName) f.pulumi = p.name;
    if (p.maxItemsOne && (f.node.kind === "list" || f.node.kind === "set")) f.flatten = true;
    const inner = objectTypeOf(p.type);
    if (inner === undefined) continue;
    const fn = f.node;
    const target = fn.kind === "object" ? fn : fn.kind === "list" || fn.kind === "set" || fn.kind === "map" ? fn.elem : undefined;
    if (target !== undefined) withPulumiNames(target, inner.properties);
  }
}

/** The type tree of a provider's own schema block (the real peers' resources). */
export function blockNode(block: Block): Node {
  const fields: Record<string, Field> = {};
  for (const a of block.attributes) {
    const node = a.nestedType !== undefined ? nestedTypeNode(a.nestedType) : ctyNode(a.type!);
    fields[a.name] = { node, ...(a.writeOnly ? { writeOnly: true } : {}), ...(a.computed && !a.optional && !a.required ? { computedOnly: true } : {}) };
  }
  for (const nb of block.blockTypes) {
    const inner = blockNode(nb.block);
    if (nb.nesting === "single" || nb.nesting === "group") fields[nb.typeName] = { node: inner };
    else fields[nb.typeName] = { node: { kind: nb.nesting, elem: inner }, block: true };
  }
  return { kind: "object", fields };
}

function nestedTypeNode(o: NestedAttributeObject): Node {
  const inner = blockNode({ attributes: o.attributes, blockTypes: [], description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "" });
  return o.nesting === "single" ? inner : { kind: o.nesting, elem: inner };
}

function ctyNode(t: CtyType): Node {
  switch (t.kind) {
    case "dynamic":
      return { kind: "dynamic" };
    case "list":
    case "set":
    case "map":
      return { kind: t.kind, elem: ctyNode(t.element) };
    case "object":
      return { kind: "object", fields: Object.fromEntries(Object.entries(t.attributes).map(([k, v]) => [k, { node: ctyNode(v) }])) };
    case "tuple":
      return { kind: "list", elem: { kind: "dynamic" } };
    default:
      return { kind: "prim" };
  }
}
