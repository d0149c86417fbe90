// Generates the oracle corpus (test/crosstest/corpus/): schema shapes × value changes for the shapesdk and shapefw peers.
// Usage: npx tsx scripts/crosstest/generate.ts   (deterministic: the same matrix always writes the same files)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR, type Case, type Flavour, type PeerCase, type ShapeDesc, type AttrDesc, type BlockDesc, type Unknown, type Value } from "../../test/crosstest/corpus.js";

type Shapes = Record<string, ShapeDesc>;
type Cases = Case[];

/** A value only known after apply: `<provider>_source.<case>.<output>`, with the value it will have (input "u"). */
const unknown = (output: string, value: Value): Unknown => ({ $unknown: output, value });
const U = {
  string: unknown("result_string", "src-u"),
  int: unknown("result_int", 1),
  float: unknown("result_float", 1.5),
  bool: unknown("result_bool", false),
  list: unknown("result_list", ["src-u"]),
  map: unknown("result_map", { k: "src-u" }),
};

type Prim = "bool" | "int" | "float" | "number" | "string" | "dynamic";

/** Two distinct values of each primitive type, and the awkward ones (decimals a double cannot hold exactly, empty). */
const VALUES: Record<Prim, { a: Value; b: Value; extra: [string, Value][]; unknown: Unknown }> = {
  bool: { a: true, b: false, extra: [], unknown: U.bool },
  int: { a: 1, b: 2, extra: [["zero", 0], ["large", 9007199254740991]], unknown: U.int },
  float: { a: 0.5, b: 2.25, extra: [["decimal-0.1", 0.1], ["decimal-0.3", 0.3], ["zero", 0]], unknown: U.float },
  number: { a: 3, b: 0.5, extra: [["decimal-0.1", 0.1], ["decimal-0.3", 0.3], ["large", 12345678901234567890]], unknown: U.float },
  string: { a: "a", b: "b", extra: [["empty", ""], ["unicode", "ünï ✓"]], unknown: U.string },
  dynamic: { a: "a", b: 2, extra: [["object", { x: "a", y: 1 }], ["list", ["a", "b"]]], unknown: U.string },
};

const PRIMS: Record<Flavour, Prim[]> = {
  sdkv2: ["bool", "int", "float", "string"],
  framework: ["bool", "int", "float", "number", "string", "dynamic"],
};

/** Flag sets an attribute is tried with; `config` says whether a program may set it. */
interface FlagSet {
  name: string;
  flags: Partial<AttrDesc>;
  config: boolean;
  required?: boolean;
}
function flagSets(flavour: Flavour, prim: Prim | "collection"): FlagSet[] {
  const sets: FlagSet[] = [
    { name: "optional", flags: { optional: true }, config: true },
    { name: "required", flags: { required: true }, config: true, required: true },
    { name: "computed", flags: { computed: true }, config: false },
    { name: "optional-computed", flags: { optional: true, computed: true }, config: true },
    { name: "optional-forcenew", flags: { optional: true, forceNew: true }, config: true },
    { name: "required-forcenew", flags: { required: true, forceNew: true }, config: true, required: true },
    { name: "optional-sensitive", flags: { optional: true, sensitive: true }, config: true },
    { name: "optional-computed-forcenew", flags: { optional: true, computed: true, forceNew: true }, config: true },
  ];
  if (prim !== "collection" && prim !== "dynamic") {
    sets.push({ name: "optional-default", flags: { optional: true, default: VALUES[prim].a }, config: true });
    sets.push({ name: "optional-writeonly", flags: { optional: true, writeOnly: true }, config: true });
  }
  if (flavour === "framework") {
    sets.push({ name: "computed-usestate", flags: { computed: true, useStateForUnknown: true }, config: false });
    sets.push({ name: "optional-computed-usestate", flags: { optional: true, computed: true, useStateForUnknown: true }, config: true });
  }
  return sets;
}

/** [scenario, before, after] for one configurable value of a type: every change a program can make to it. */
type Change = [string, Value | undefined, Value | undefined];
function primitiveChanges(prim: Prim, required: boolean): Change[] {
  const { a, b, extra, unknown } = VALUES[prim];
  const out: Change[] = [
    ["unchanged", a, a],
    ["changed", a, b],
    ["changed-back", b, a],
    ["unknown", a, unknown],
  ];
  if (!required) out.push(["added", undefined, a], ["removed", a, undefined], ["added-unknown", undefined, unknown]);
  for (const [name, v] of extra) {
    out.push([`${name}-unchanged`, v, v], [`to-${name}`, a, v], [`from-${name}`, v, a]);
    if (!required) out.push([`${name}-added`, undefined, v], [`${name}-removed`, v, undefined]);
  }
  if (prim === "string" && !required) out.push(["null-to-empty", null, ""], ["empty-to-null", "", null]);
  return out;
}

const L3 = ["a", "b", "c"];
function listChanges(kind: "list" | "set", required: boolean): Change[] {
  const out: Change[] = [
    ["unchanged", L3, L3],
    ["element-changed", L3, ["a", "x", "c"]],
    ["added-end", ["a", "b"], L3],
    ["added-start", ["b", "c"], L3],
    ["added-middle", ["a", "c"], L3],
    ["removed-end", L3, ["a", "b"]],
    ["removed-start", L3, ["b", "c"]],
    ["removed-middle", L3, ["a", "c"]],
    ["reordered", L3, ["c", "a", "b"]],
    ["swapped", ["a", "b"], ["b", "a"]],
    ["empty-to-one", [], ["a"]],
    ["one-to-empty", ["a"], []],
    ["unknown-whole", ["a"], U.list],
    ["unknown-element", ["a"], ["a", U.string]],
  ];
  if (kind === "set") out.push(["duplicated", ["a"], ["a", "a"]], ["duplicate-removed", ["a", "a", "b"], ["a", "b"]]);
  if (!required) out.push(["null-to-empty", null, []], ["empty-to-null", [], null], ["added", undefined, L3], ["removed", L3, undefined]);
  return out;
}

function mapChanges(required: boolean): Change[] {
  const m = { k1: "a", k2: "b" };
  const out: Change[] = [
    ["unchanged", m, m],
    ["value-changed", m, { k1: "a", k2: "x" }],
    ["key-added", { k1: "a" }, m],
    ["key-removed", m, { k1: "a" }],
    ["key-renamed", m, { k1: "a", k3: "b" }],
    ["empty-to-one", {}, { k1: "a" }],
    ["one-to-empty", { k1: "a" }, {}],
    ["unknown-whole", { k1: "a" }, U.map],
    ["unknown-value", { k1: "a" }, { k1: "a", k2: U.string }],
  ];
  if (!required) out.push(["null-to-empty", null, {}], ["empty-to-null", {}, null], ["added", undefined, m], ["removed", m, undefined]);
  return out;
}

/** Every case of one shape: the attribute `v` (or block `items`) changes while `other` stays, and the reverse. */
function casesFor(flavour: Flavour, family: string, shape: string, field: string, changes: Change[], config: boolean, out: Cases): void {
  const base = { other: "o" };
  if (config) {
    for (const [scenario, before, after] of changes) {
      const c1: Record<string, Value> = { ...base };
      const c2: Record<string, Value> = { ...base };
      if (before !== undefined) c1[field] = before;
      if (after !== undefined) c2[field] = after;
      out.push({ id: `${shape}.${scenario}`, flavour, family, shape, scenario, config1: c1, config2: c2 });
    }
  }
  const first = changes.find(([s]) => s === "unchanged")?.[1];
  const held = config && first !== undefined ? { [field]: first } : {};
  out.push({ id: `${shape}.other-changed`, flavour, family, shape, scenario: "other-changed", config1: { ...base, ...held }, config2: { other: "p", ...held } });
  out.push({ id: `${shape}.nothing-set`, flavour, family, shape, scenario: "nothing-set", config1: { other: "o" }, config2: { other: "o" } });
}

function addShape(shapes: Shapes, name: string, desc: ShapeDesc): string {
  shapes[name] = { ...desc, attributes: { other: { type: "string", optional: true }, ...desc.attributes } };
  return name;
}

function slug(s: string): string {
  return s.replace(/-/g, "_");
}

function primitives(flavour: Flavour, shapes: Shapes, cases: Cases): void {
  for (const prim of PRIMS[flavour]) {
    for (const fs of flagSets(flavour, prim)) {
      const shape = addShape(shapes, slug(`prim_${prim}_${fs.name}`), { attributes: { v: { type: prim, ...fs.flags } } });
      casesFor(flavour, "primitive", shape, "v", primitiveChanges(prim, fs.required === true), fs.config, cases);
      if (fs.required) requireIn(cases, shape, "v", VALUES[prim].a);
    }
  }
}

function collections(flavour: Flavour, shapes: Shapes, cases: Cases): void {
  const elems: Prim[] = flavour === "framework" ? ["string", "int", "number"] : ["string", "int"];
  for (const kind of ["list", "set", "map"] as const) {
    for (const elem of elems) {
      for (const fs of flagSets(flavour, "collection")) {
        if (elem !== "string" && !["optional", "optional-computed", "optional-forcenew"].includes(fs.name)) continue;
        const shape = addShape(shapes, slug(`${kind}_${elem}_${fs.name}`), { attributes: { v: { type: [kind, elem], ...fs.flags } } });
        let changes = kind === "map" ? mapChanges(fs.required === true) : listChanges(kind, fs.required === true);
        if (elem !== "string") changes = changes.filter(([s]) => !s.startsWith("unknown")).map(([s, x, y]) => [s, toElem(x, elem), toElem(y, elem)]);
        casesFor(flavour, "collection", shape, "v", changes, fs.config, cases);
        if (fs.required) requireIn(cases, shape, "v", kind === "map" ? { k1: "a" } : ["a"]);
      }
    }
  }
}

/** The same change over integers (a → 1, b → 2, …) for collections of numbers. */
function toElem(v: Value | undefined, elem: Prim): Value | undefined {
  if (v === undefined || v === null) return v;
  const n = (s: Value): Value => (typeof s === "string" ? (elem === "number" && s === "c" ? 0.1 : s.charCodeAt(0) - 96) : s);
  if (Array.isArray(v)) return v.map(n);
  if (typeof v === "object" && !("$unknown" in v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, n(x)]));
  return v;
}

function requireIn(cases: Cases, shape: string, field: string, value: Value): void {
  for (const c of cases.filter((x) => x.shape === shape && (x.scenario === "nothing-set" || x.scenario === "other-changed"))) {
    c.config1[field] ??= value;
    c.config2[field] ??= value;
  }
}

/** Nested element schemas tried inside every block and nested-attribute mode. */
function elementVariants(flavour: Flavour): { name: string; attributes: Record<string, AttrDesc>; blocks?: Record<string, BlockDesc>; forceNewBlock?: boolean }[] {
  const s: AttrDesc = { type: "string", optional: true };
  const variants: ReturnType<typeof elementVariants> = [
    { name: "plain", attributes: { s, n: { type: "int", optional: true } } },
    { name: "computed", attributes: { s, c: { type: "string", computed: true } } },
    { name: "optional_computed", attributes: { s, oc: { type: "string", optional: true, computed: true } } },
    { name: "default", attributes: { s, d: { type: "string", optional: true, default: "dflt" } } },
    { name: "forcenew_field", attributes: { s, fn: { type: "string", optional: true, forceNew: true } } },
    { name: "forcenew_block", attributes: { s }, forceNewBlock: true },
    { name: "required_key", attributes: { k: { type: "string", required: true }, s } },
    { name: "sensitive", attributes: { s, sec: { type: "string", optional: true, sensitive: true } } },
    { name: "list_field", attributes: { s, l: { type: ["list", "string"], optional: true } } },
  ];
  if (flavour === "sdkv2") variants.push({ name: "nested_block", attributes: { s }, blocks: { subs: { mode: "list", attributes: { t: { type: "string", optional: true } } } } });
  if (flavour === "framework") variants.push({ name: "usestate", attributes: { s, cu: { type: "string", computed: true, useStateForUnknown: true } } });
  return variants;
}

/** A value for one element of a variant; `tag` makes elements differ. */
function element(variant: ReturnType<typeof elementVariants>[number], tag: string, fnValue = "f"): Record<string, Value> {
  const e: Record<string, Value> = { s: tag };
  if ("k" in variant.attributes) e["k"] = `k${tag}`;
  if ("fn" in variant.attributes) e["fn"] = fnValue;
  if ("l" in variant.attributes) e["l"] = [tag, "z"];
  if ("sec" in variant.attributes) e["sec"] = `secret-${tag}`;
  if (variant.blocks !== undefined) e["subs"] = [{ t: tag }];
  return e;
}

function nestedChanges(variant: ReturnType<typeof elementVariants>[number], mode: "list" | "set" | "single" | "map"): Change[] {
  const el = (t: string, fn?: string) => element(variant, t, fn);
  if (mode === "single") {
    const out: Change[] = [
      ["unchanged", el("a"), el("a")],
      ["field-changed", el("a"), el("b")],
      ["added", undefined, el("a")],
      ["removed", el("a"), undefined],
      ["unknown-field", el("a"), { ...el("a"), s: U.string }],
      ["empty-object", undefined, variant.attributes["k"] !== undefined ? { k: "ka" } : {}],
    ];
    if ("fn" in variant.attributes) out.push(["forcenew-field-changed", el("a", "f"), el("a", "g")]);
    if ("l" in variant.attributes) out.push(["list-field-element-added", el("a"), { ...el("a"), l: ["a", "z", "y"] }]);
    return out;
  }
  if (mode === "map") {
    const out: Change[] = [
      ["unchanged", { x: el("a") }, { x: el("a") }],
      ["field-changed", { x: el("a") }, { x: el("b") }],
      ["key-added", { x: el("a") }, { x: el("a"), y: el("b") }],
      ["key-removed", { x: el("a"), y: el("b") }, { x: el("a") }],
      ["added", undefined, { x: el("a") }],
      ["removed", { x: el("a") }, undefined],
      ["unknown-field", { x: el("a") }, { x: { ...el("a"), s: U.string } }],
    ];
    if ("fn" in variant.attributes) out.push(["forcenew-field-changed", { x: el("a", "f") }, { x: el("a", "g") }]);
    return out;
  }
  const [a, b, c, x] = [el("a"), el("b"), el("c"), el("x")];
  const out: Change[] = [
    ["unchanged", [a, b], [a, b]],
    ["field-changed", [a, b], [a, x]],
    ["added-end", [a, b], [a, b, c]],
    ["added-start", [b, c], [a, b, c]],
    ["added-middle", [a, c], [a, b, c]],
    ["removed-end", [a, b, c], [a, b]],
    ["removed-start", [a, b, c], [b, c]],
    ["removed-middle", [a, b, c], [a, c]],
    ["reordered", [a, b, c], [c, a, b]],
    ["added", undefined, [a]],
    ["removed", [a], undefined],
    ["unknown-field", [a], [{ ...a, s: U.string }]],
    ["empty-element-added", [a], [a, variant.attributes["k"] !== undefined ? { k: "kz" } : {}]],
  ];
  if (mode === "set") out.push(["duplicated", [a], [a, a]]);
  if ("fn" in variant.attributes) out.push(["forcenew-field-changed", [el("a", "f")], [el("a", "g")]], ["forcenew-element-added", [el("a", "f")], [el("a", "f"), el("b", "g")]]);
  if ("l" in variant.attributes) out.push(["list-field-element-added", [a], [{ ...a, l: ["a", "z", "y"] }]]);
  if (variant.blocks !== undefined) out.push(["sub-block-changed", [a], [{ ...a, subs: [{ t: "changed" }] }]], ["sub-block-added", [a], [{ ...a, subs: [{ t: "a" }, { t: "b" }] }]]);
  return out;
}

function blocks(flavour: Flavour, shapes: Shapes, cases: Cases): void {
  const modes: ("list" | "set" | "single" | "maxone")[] = flavour === "sdkv2" ? ["list", "set", "maxone"] : ["list", "set", "single"];
  for (const mode of modes) {
    for (const variant of elementVariants(flavour)) {
      const block: BlockDesc = {
        mode: mode === "maxone" ? "list" : mode,
        ...(mode === "maxone" ? { maxItems: 1 } : {}),
        ...(variant.forceNewBlock ? { forceNew: true } : {}),
        attributes: variant.attributes,
        ...(variant.blocks !== undefined ? { blocks: variant.blocks } : {}),
      };
      const field = mode === "single" || mode === "maxone" ? "item" : "items";
      const shape = addShape(shapes, slug(`block_${mode}_${variant.name}`), { attributes: {}, blocks: { [field]: block } });
      let changes = nestedChanges(variant, mode === "maxone" || mode === "single" ? "single" : mode);
      // A block is a list of objects in configuration whatever its mode, except the framework's single block.
      if (mode === "maxone") changes = changes.map(([s, x, y]) => [s, x === undefined ? x : [x], y === undefined ? y : [y]]);
      casesFor(flavour, "block", shape, field, changes, true, cases);
    }
  }
}

function nestedAttributes(shapes: Shapes, cases: Cases): void {
  for (const mode of ["single", "list", "set", "map"] as const) {
    for (const variant of elementVariants("framework")) {
      if (variant.forceNewBlock) {
        const shape = addShape(shapes, slug(`nested_${mode}_forcenew`), { attributes: { v: { nested: { mode, attributes: variant.attributes }, optional: true, forceNew: true } } });
        casesFor("framework", "nested-attribute", shape, "v", nestedChanges(variant, mode), true, cases);
        continue;
      }
      for (const flags of [{ optional: true }, { optional: true, computed: true }] as const) {
        if ("computed" in flags && !["plain", "computed"].includes(variant.name)) continue;
        const suffix = "computed" in flags ? "_optional_computed" : "";
        const shape = addShape(shapes, slug(`nested_${mode}_${variant.name}${suffix}`), { attributes: { v: { nested: { mode, attributes: variant.attributes }, ...flags } } });
        casesFor("framework", "nested-attribute", shape, "v", nestedChanges(variant, mode), true, cases);
      }
    }
  }
}

function objects(shapes: Shapes, cases: Cases): void {
  const type: AttrDesc["type"] = ["object", { s: "string", n: "number", l: ["list", "string"] }];
  const o = (s: Value, n: Value, l: Value): Value => ({ s, n, l });
  for (const [name, flags] of [["optional", { optional: true }], ["optional_computed", { optional: true, computed: true }], ["optional_forcenew", { optional: true, forceNew: true }], ["computed", { computed: true }]] as const) {
    const shape = addShape(shapes, `object_${name}`, { attributes: { v: { type, ...flags } } });
    const changes: Change[] = [
      ["unchanged", o("a", 1, ["x"]), o("a", 1, ["x"])],
      ["field-changed", o("a", 1, ["x"]), o("b", 1, ["x"])],
      ["field-nulled", o("a", 1, ["x"]), o("a", null, ["x"])],
      ["list-element-added", o("a", 1, ["x"]), o("a", 1, ["x", "y"])],
      ["decimal", o("a", 1, []), o("a", 0.1, [])],
      ["added", undefined, o("a", 1, ["x"])],
      ["removed", o("a", 1, ["x"]), undefined],
      ["unknown-field", o("a", 1, ["x"]), o(U.string, 1, ["x"])],
    ];
    casesFor("framework", "object", shape, "v", changes, !("computed" in flags && !("optional" in flags)), cases);
  }
}

/** CustomizeDiff / ModifyPlan that sets a computed value from an input. */
function planned(flavour: Flavour, shapes: Shapes, cases: Cases): void {
  for (const fn of [false, true]) {
    const shape = addShape(shapes, `plan_derived${fn ? "_forcenew" : ""}`, {
      attributes: { v: { type: "string", optional: true, ...(fn ? { forceNew: true } : {}) }, derived: { type: "string", computed: true } },
      plan: [{ set: "derived", from: "v" }],
    });
    casesFor(flavour, "plan", shape, "v", primitiveChanges("string", false), true, cases);
  }
}

/** Several attributes at once, as real resources have them: changes to two fields, one forcing replacement. */
function combined(flavour: Flavour, shapes: Shapes, cases: Cases): void {
  const shape = addShape(shapes, "combined", {
    attributes: {
      name: { type: "string", required: true, forceNew: true },
      tags: { type: ["map", "string"], optional: true },
      size: { type: "int", optional: true, default: 1 },
      status: { type: "string", computed: true },
      ports: { type: ["list", "int"], optional: true },
    },
    blocks: { rules: { mode: "set", attributes: { port: { type: "int", required: true }, proto: { type: "string", optional: true, default: "tcp" }, rid: { type: "string", computed: true } } } },
  });
  const base: Record<string, Value> = { other: "o", name: "n1", tags: { env: "dev" }, ports: [80], rules: [{ port: 80 }, { port: 443, proto: "udp" }] };
  const variants: [string, Record<string, Value>][] = [
    ["unchanged", base],
    ["tags-and-size", { ...base, tags: { env: "prod", team: "x" }, size: 3 }],
    ["name-and-tags", { ...base, name: "n2", tags: { env: "prod" } }],
    ["rule-added", { ...base, rules: [...(base.rules as Value[]), { port: 22 }] }],
    ["rule-changed", { ...base, rules: [{ port: 80, proto: "udp" }, { port: 443, proto: "udp" }] }],
    ["rule-removed", { ...base, rules: [{ port: 443, proto: "udp" }] }],
    ["rules-reordered", { ...base, rules: [{ port: 443, proto: "udp" }, { port: 80 }] }],
    ["ports-unknown", { ...base, ports: [80, U.int] }],
    ["name-unknown", { ...base, name: U.string }],
    ["everything-removed", { other: "o", name: "n1" }],
  ];
  for (const [scenario, c2] of variants) cases.push({ id: `${shape}.${scenario}`, flavour, family: "combined", shape, scenario, config1: base, config2: c2 });
}

function corpus(flavour: Flavour): { shapes: Shapes; cases: Cases } {
  const shapes: Shapes = {};
  const cases: Cases = [];
  primitives(flavour, shapes, cases);
  collections(flavour, shapes, cases);
  blocks(flavour, shapes, cases);
  if (flavour === "framework") {
    nestedAttributes(shapes, cases);
    objects(shapes, cases);
  }
  planned(flavour, shapes, cases);
  combined(flavour, shapes, cases);
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  return { shapes, cases };
}

/**
 * Realistic configurations and changes of the real peers' resources. `{dir}` is a scratch folder and `{httpapi}` the
 * loopback httpapi service, both replaced at run time; `volatile` attributes (random results, keys, timestamps) are
 * compared by presence only.
 */
function peerCorpus(): { providers: Record<string, Record<string, Value>>; cases: PeerCase[] } {
  const cases: PeerCase[] = [];
  const add = (peer: string, type: string, scenario: string, config1: Record<string, Value>, config2: Record<string, Value>, volatile: string[] = []) =>
    cases.push({ id: `${type}.${scenario}`, flavour: "peers", family: peer, peer, shape: type, scenario, config1, config2, volatile });
  // random
  const rs = { length: 12, special: false };
  add("random", "random_string", "unchanged", rs, rs, ["result", "id"]);
  add("random", "random_string", "length-changed", rs, { ...rs, length: 16 }, ["result", "id"]);
  add("random", "random_string", "special-added", rs, { ...rs, special: true, override_special: "_%@" }, ["result", "id"]);
  add("random", "random_string", "keepers-added", rs, { ...rs, keepers: { build: "1" } }, ["result", "id"]);
  add("random", "random_string", "keepers-changed", { ...rs, keepers: { build: "1" } }, { ...rs, keepers: { build: "2" } }, ["result", "id"]);
  add("random", "random_password", "unchanged", { length: 20 }, { length: 20 }, ["result", "bcrypt_hash", "id"]);
  add("random", "random_password", "min-upper-added", { length: 20 }, { length: 20, min_upper: 2 }, ["result", "bcrypt_hash", "id"]);
  add("random", "random_id", "keepers-changed", { byte_length: 8, keepers: { a: "x" } }, { byte_length: 8, keepers: { a: "y" } }, ["b64_url", "b64_std", "hex", "dec", "id"]);
  add("random", "random_id", "prefix-added", { byte_length: 4 }, { byte_length: 4, prefix: "p-" }, ["b64_url", "b64_std", "hex", "dec", "id"]);
  add("random", "random_integer", "range-changed", { min: 1, max: 10 }, { min: 1, max: 20 }, ["result", "id"]);
  add("random", "random_integer", "seed-unchanged", { min: 1, max: 100, seed: "s" }, { min: 1, max: 100, seed: "s" });
  add("random", "random_pet", "prefix-changed", { length: 2, prefix: "a" }, { length: 2, prefix: "b" }, ["id"]);
  add("random", "random_pet", "separator-unchanged", { length: 3, separator: "_" }, { length: 3, separator: "_" }, ["id"]);
  add("random", "random_shuffle", "input-reordered", { input: ["a", "b", "c"], seed: "x" }, { input: ["c", "b", "a"], seed: "x" }, ["result", "id"]);
  add("random", "random_shuffle", "result-count-changed", { input: ["a", "b", "c"], result_count: 2, seed: "x" }, { input: ["a", "b", "c"], result_count: 1, seed: "x" }, ["result", "id"]);
  add("random", "random_uuid", "keepers-unchanged", { keepers: { k: "v" } }, { keepers: { k: "v" } }, ["result", "id"]);
  add("random", "random_uuid", "keepers-removed", { keepers: { k: "v" } }, {}, ["result", "id"]);
  // tls
  const keyVolatile = ["private_key_pem", "private_key_openssh", "private_key_pem_pkcs8", "public_key_pem", "public_key_openssh", "public_key_fingerprint_md5", "public_key_fingerprint_sha256", "id"];
  add("tls", "tls_private_key", "unchanged", { algorithm: "ECDSA", ecdsa_curve: "P256" }, { algorithm: "ECDSA", ecdsa_curve: "P256" }, keyVolatile);
  add("tls", "tls_private_key", "curve-changed", { algorithm: "ECDSA", ecdsa_curve: "P256" }, { algorithm: "ECDSA", ecdsa_curve: "P384" }, keyVolatile);
  add("tls", "tls_private_key", "algorithm-changed", { algorithm: "ED25519" }, { algorithm: "ECDSA" }, keyVolatile);
  add("tls", "tls_private_key", "default-made-explicit", { algorithm: "RSA", rsa_bits: 2048 }, { algorithm: "RSA" }, keyVolatile);
  // time
  add("time", "time_static", "triggers-changed", { triggers: { v: "1" } }, { triggers: { v: "2" } }, ["rfc3339", "unix", "year", "month", "day", "hour", "minute", "second", "id"]);
  add("time", "time_static", "fixed-rfc3339-unchanged", { rfc3339: "2024-01-02T03:04:05Z" }, { rfc3339: "2024-01-02T03:04:05Z" });
  add("time", "time_static", "fixed-rfc3339-changed", { rfc3339: "2024-01-02T03:04:05Z" }, { rfc3339: "2025-06-07T08:09:10Z" });
  add("time", "time_offset", "days-changed", { base_rfc3339: "2024-01-01T00:00:00Z", offset_days: 1 }, { base_rfc3339: "2024-01-01T00:00:00Z", offset_days: 7 });
  add("time", "time_offset", "hours-added", { base_rfc3339: "2024-01-01T00:00:00Z", offset_days: 1 }, { base_rfc3339: "2024-01-01T00:00:00Z", offset_days: 1, offset_hours: 3 });
  add("time", "time_rotating", "rotation-changed", { rfc3339: "2024-01-01T00:00:00Z", rotation_days: 30 }, { rfc3339: "2024-01-01T00:00:00Z", rotation_days: 90 });
  add("time", "time_sleep", "duration-changed", { create_duration: "1ms" }, { create_duration: "2ms" }, ["id"]);
  add("time", "time_sleep", "triggers-added", { create_duration: "1ms" }, { create_duration: "1ms", triggers: { a: "b" } }, ["id"]);
  // local
  add("local", "local_file", "content-changed", { filename: "{dir}/a.txt", content: "one" }, { filename: "{dir}/a.txt", content: "two" });
  add("local", "local_file", "permission-changed", { filename: "{dir}/b.txt", content: "x", file_permission: "0644" }, { filename: "{dir}/b.txt", content: "x", file_permission: "0600" });
  add("local", "local_file", "unchanged", { filename: "{dir}/c.txt", content: "same" }, { filename: "{dir}/c.txt", content: "same" });
  add("local", "local_file", "renamed", { filename: "{dir}/d.txt", content: "r" }, { filename: "{dir}/e.txt", content: "r" });
  add("local", "local_sensitive_file", "content-changed", { filename: "{dir}/s.txt", content: "secret-1" }, { filename: "{dir}/s.txt", content: "secret-2" });
  // httpapi (SDKv2)
  const item = (name: string, over: Record<string, Value> = {}): Record<string, Value> => ({ name, size: 1, description: "d", tags: { env: "dev" }, settings: [{ mode: "fast", retries: 2 }], rule: [{ port: 80 }, { port: 443, protocol: "udp" }], ...over });
  add("httpapi", "httpapi_item", "unchanged", item("i1"), item("i1"), ["id", "etag"]);
  add("httpapi", "httpapi_item", "size-and-tags", item("i2"), item("i2", { size: 5, tags: { env: "prod", team: "x" } }), ["id", "etag"]);
  add("httpapi", "httpapi_item", "renamed", item("i3"), item("i3b"), ["id", "etag"]);
  add("httpapi", "httpapi_item", "settings-removed", item("i4"), item("i4", { settings: [] }), ["id", "etag"]);
  add("httpapi", "httpapi_item", "settings-mode-default", item("i5"), item("i5", { settings: [{ retries: 2 }] }), ["id", "etag"]);
  add("httpapi", "httpapi_item", "rule-added", item("i6"), item("i6", { rule: [{ port: 80 }, { port: 443, protocol: "udp" }, { port: 22 }] }), ["id", "etag"]);
  add("httpapi", "httpapi_item", "rule-removed-first", item("i7"), item("i7", { rule: [{ port: 443, protocol: "udp" }] }), ["id", "etag"]);
  add("httpapi", "httpapi_item", "description-removed", item("i8"), item("i8", { description: null }), ["id", "etag"]);
  // bridgetest (plugin framework, protocol 6)
  const obj = (name: string, over: Record<string, Value> = {}): Record<string, Value> => ({ name, number_value: 1.5, int_value: 3, bool_value: true, list_value: ["a", "b"], set_value: ["x", "y"], map_value: { k: "v" }, set_nested: [{ key: "a" }, { key: "b", value: "vb" }], ...over });
  const objVolatile = ["id"];
  add("bridgetest", "bridgetest_object", "unchanged", obj("o1"), obj("o1"), objVolatile);
  add("bridgetest", "bridgetest_object", "decimal", obj("o2", { number_value: 0.1 }), obj("o2", { number_value: 0.1 }), objVolatile);
  add("bridgetest", "bridgetest_object", "set-nested-element-added", obj("o3"), obj("o3", { set_nested: [{ key: "a" }, { key: "b", value: "vb" }, { key: "c" }] }), objVolatile);
  add("bridgetest", "bridgetest_object", "set-nested-value-changed", obj("o4"), obj("o4", { set_nested: [{ key: "a", value: "new" }, { key: "b", value: "vb" }] }), objVolatile);
  add("bridgetest", "bridgetest_object", "list-and-map-changed", obj("o5"), obj("o5", { list_value: ["b", "a", "c"], map_value: { k: "w", k2: "x" } }), objVolatile);
  add("bridgetest", "bridgetest_object", "name-changed", obj("o6"), obj("o6b"), objVolatile);
  add("bridgetest", "bridgetest_object", "blocks-added", obj("o7"), obj("o7", { list_block: [{ key: "k", value: "v" }], set_block: [{ key: "s" }] }), objVolatile);
  return { providers: { bridgetest: { state_dir: "{dir}/bridgetest" }, httpapi: { endpoint: "{httpapi}", token: "{httpapi_token}" } }, cases };
}

mkdirSync(CORPUS_DIR, { recursive: true });
{
  const { providers, cases } = peerCorpus();
  writeFileSync(join(CORPUS_DIR, "peers.cases.json"), JSON.stringify({ providers, cases }, null, 1) + "\n");
  console.log(`peers: ${new Set(cases.map((c) => c.shape)).size} resource types, ${cases.length} cases`);
}
for (const flavour of ["sdkv2", "framework"] as const) {
  const { shapes, cases } = corpus(flavour);
  writeFileSync(join(CORPUS_DIR, `${flavour}.shapes.json`), JSON.stringify({ resources: shapes }, null, 1) + "\n");
  writeFileSync(join(CORPUS_DIR, `${flavour}.cases.json`), "[\n" + cases.map((c) => JSON.stringify(c)).join(",\n") + "\n]\n");
  console.log(`${flavour}: ${Object.keys(shapes).length} shapes, ${cases.length} cases`);
}
