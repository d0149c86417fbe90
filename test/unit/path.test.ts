// The one path type (src/terraform/path.ts) and its users: the formatter, overlap, the Terraform → Pulumi mapping, and
// the paths that cty codec errors, conversion errors and detailed diffs carry.
import { describe, expect, it } from "vitest";
import { ConversionError, toPropertyPath, toTfObject } from "../../src/bridge/property-cty.js";
import { computeDiff } from "../../src/bridge/diff.js";
import type { PropertyModel, TypeModel } from "../../src/schema-translate/model.js";
import { CtyError, CtyNumber, CtyString, encodeMsgpack, list, map, object, parseType } from "../../src/terraform/cty/index.js";
import { attribute, formatPath, index, key, parsePath, pathsOverlap, type Path } from "../../src/terraform/path.js";

describe("parsePath", () => {
  it("reads back what formatPath writes, and nothing else", () => {
    const paths: Path[] = [[], [attribute("a")], [attribute("proxies"), index(0), attribute("url")], [attribute("tags"), key("a b")], [attribute("a.b"), attribute("c")], [attribute("rules"), index(10), key("x\"y")]];
    for (const p of paths) expect(parsePath(formatPath(p))).toEqual(p);
    for (const bad of [".a", "a..b", "a[x]", "a[", "a.1"]) expect(parsePath(bad), bad).toBeUndefined();
  });
});

describe("formatPath", () => {
  const cases: [string, Path, string][] = [
    ["empty", [], ""],
    ["one attribute", [attribute("name")], "name"],
    ["nested with an index", [attribute("rule"), index(0), attribute("from_port")], "rule[0].from_port"],
    ["map key with a space", [attribute("tags"), key("a b")], 'tags["a b"]'],
    ["map key with a quote is escaped", [attribute("tags"), key('a"b')], 'tags["a\\"b"]'],
    ["a key first", [key("k")], '["k"]'],
    ["an index first", [index(3)], "[3]"],
    ["an attribute that is no identifier", [attribute("x"), attribute("a.b")], 'x["a.b"]'],
    ["dashes are identifier characters", [attribute("my-attr")], "my-attr"],
  ];
  for (const [name, path, want] of cases) it(name, () => expect(formatPath(path)).toBe(want));
});

describe("pathsOverlap", () => {
  const cases: [string, Path, Path, boolean][] = [
    ["equal", [attribute("a"), index(1)], [attribute("a"), index(1)], true],
    ["one inside the other", [attribute("a")], [attribute("a"), key("k")], true],
    ["the other inside the one", [attribute("a"), key("k")], [attribute("a")], true],
    ["siblings", [attribute("a"), index(0)], [attribute("a"), index(1)], false],
    ["different roots", [attribute("a")], [attribute("b")], false],
    ["a map element named by attribute or by key", [attribute("m"), attribute("k")], [attribute("m"), key("k")], true],
    ["the empty path overlaps everything", [], [attribute("a")], true],
  ];
  for (const [name, a, b, want] of cases) it(name, () => expect(pathsOverlap(a, b)).toBe(want));
});

const str: TypeModel = { kind: "string" };
const prop = (name: string, tfName: string, type: TypeModel, extra: Partial<PropertyModel> = {}): PropertyModel =>
  ({ name, tfName, type, tfType: { kind: "string" }, input: true, output: true, required: false, ...extra }) as PropertyModel;
const ruleObject: TypeModel = { kind: "object", ref: { token: "t:index/Rule:Rule", properties: [prop("fromPort", "from_port", { kind: "number" })] } } as TypeModel;
const props: PropertyModel[] = [
  prop("rules", "rule", { kind: "array", items: ruleObject } as TypeModel),
  prop("setting", "setting", ruleObject, { maxItemsOne: true }),
  prop("tags", "tags", { kind: "map", values: str } as TypeModel, { tfType: { kind: "map", element: { kind: "string" } } } as Partial<PropertyModel>),
];

describe("toPropertyPath (Terraform names → Pulumi names)", () => {
  const cases: [string, Path, string][] = [
    ["a list block element's attribute", [attribute("rule"), index(0), attribute("from_port")], "rules[0].fromPort"],
    ["a flattened block drops its index", [attribute("setting"), index(0), attribute("from_port")], "setting.fromPort"],
    ["a map key", [attribute("tags"), key("env")], 'tags["env"]'],
    ["an unknown attribute keeps its Terraform name", [attribute("nope"), attribute("x")], "nope.x"],
    ["the root", [], ""],
  ];
  for (const [name, path, want] of cases) it(name, () => expect(formatPath(toPropertyPath(path, props))).toBe(want));
});

describe("errors carry a Path", () => {
  it("a cty codec error", () => {
    let err: unknown;
    try {
      encodeMsgpack({ tags: { a: "x" }, items: [1, "b"] }, object({ tags: map(CtyString), items: list(CtyNumber) }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CtyError);
    expect((err as CtyError).path).toEqual([attribute("items"), index(1)]);
    expect((err as CtyError).message).toBe("expected number at items[1], got string");
  });

  it("a cty type description error points into the JSON", () => {
    let err: unknown;
    try {
      parseType(["object", { a: ["list", "strnig"] }]);
    } catch (e) {
      err = e;
    }
    expect((err as CtyError).path).toEqual([index(1), key("a"), index(1)]);
  });

  it("a conversion error names the Pulumi property path", () => {
    let err: unknown;
    try {
      toTfObject(props, { tags: { env: { nested: 1 } } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConversionError);
    expect((err as ConversionError).path).toEqual([attribute("tags"), key("env")]);
    expect((err as ConversionError).property).toBe('tags["env"]');
    expect((err as ConversionError).message).toBe('tags["env"]: expected a string, got an object');
  });

  it("a detailed diff keys changes by Pulumi property path, and requires-replace matches by Terraform path", () => {
    const prior = { rule: [{ from_port: 1 }], setting: [{ from_port: 1 }], tags: { env: "a" } };
    const planned = { rule: [{ from_port: 2 }], setting: [{ from_port: 2 }], tags: { env: "b" } };
    const d = computeDiff(props, prior, planned, [[attribute("rule"), index(0), attribute("from_port")]]);
    expect(d.detailedDiff).toEqual({ "rules[0].fromPort": "update-replace", "setting.fromPort": "update", 'tags["env"]': "update" });
    expect(d.replaces).toEqual(["rules"]);
  });
});

describe("a deep path in a cty error", () => {
  it("keeps the outermost 64 steps and says the path goes on", () => {
    let t = CtyString as Parameters<typeof list>[0];
    let v: unknown = 7;
    for (let i = 0; i < 100; i++) {
      t = list(t);
      v = [v];
    }
    let err: unknown;
    try {
      encodeMsgpack(v as never, t);
    } catch (e) {
      err = e;
    }
    expect((err as CtyError).path).toHaveLength(64);
    expect((err as CtyError).message).toBe(`expected string at ${"[0]".repeat(64)}…, got number`);
  });
});
