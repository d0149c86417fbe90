// Table tests for the bridge's pure core on one hand-built schema: values both ways, diffs, secrets, proposed state.
import { describe, expect, it } from "vitest";
import { BigNum, Unknown, type CtyType, type CtyValue } from "../../src/terraform/cty/index.js";
import type { Attribute, AttributePath, Block, NestedBlock } from "../../src/terraform/types.js";
import { proposedNewState } from "../../src/terraform/values.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { ConversionError, fromTfObject, toTfObject } from "../../src/bridge/property-cty.js";
import { computeDiff, type DiffResult } from "../../src/bridge/diff.js";
import { carrySecrets } from "../../src/bridge/secrets.js";
import { COMPUTED, OutputValue, Secret, type PropertyMap } from "../../src/bridge/property-value.js";

const S: CtyType = { kind: "string" };
const N: CtyType = { kind: "number" };

function attr(name: string, type: CtyType, flags: Partial<Attribute>): Attribute {
  return {
    name, type, description: "", descriptionKind: "plain", required: false, optional: false, computed: false,
    sensitive: false, deprecated: false, deprecationMessage: "", writeOnly: false, ...flags,
  };
}
function block(attributes: Attribute[], blockTypes: NestedBlock[] = []): Block {
  return { attributes, blockTypes, description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "" };
}

// acme_thing: an id, an identifying name, primitives, a map, a set, a secret, a list block and a one-element block.
const thing = block(
  [
    attr("id", S, { computed: true }),
    attr("name", S, { required: true }),
    attr("count", N, { optional: true }),
    attr("arn", S, { computed: true }),
    attr("tags", { kind: "map", element: S }, { optional: true }),
    attr("labels", { kind: "set", element: S }, { optional: true }),
    attr("password", S, { optional: true, sensitive: true }),
    attr("size", N, { optional: true, computed: true }),
  ],
  [
    { typeName: "rule", nesting: "list", minItems: 0, maxItems: 0, block: block([attr("port", N, { required: true }), attr("token", S, { optional: true })]) },
    { typeName: "settings", nesting: "list", minItems: 0, maxItems: 1, block: block([attr("mode", S, { optional: true })]) },
  ],
);
const model = buildProviderModel(
  {
    provider: { version: 0, block: block([]) },
    resources: new Map([["acme_thing", { version: 0, block: thing }]]),
    dataSources: new Map(),
    ephemeralResources: new Map(),
    actions: new Map(),
    functions: new Map(),
    serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false },
    diagnostics: [],
  },
  { packageName: "acme", packageVersion: "1.0.0" },
);
const props = model.resources.get("acme_thing")!.properties;

/** A full Terraform object for acme_thing: every attribute present, as a provider returns it. */
function tf(over: Record<string, CtyValue> = {}): Record<string, CtyValue> {
  return { id: "t-1", name: "a", count: 1, arn: "arn:1", tags: null, labels: null, password: null, size: 3, rule: [], settings: [], ...over };
}

describe("the model the tables run on", () => {
  it("pluralises the list block, flattens the one-element block and marks the sensitive attribute secret", () => {
    const byTf = Object.fromEntries(props.map((p) => [p.tfName, p]));
    expect(byTf["rule"]!.name).toBe("rules");
    expect(byTf["settings"]!.maxItemsOne).toBe(true);
    expect(byTf["password"]!.secret).toBe(true);
    expect(byTf["arn"]!.input).toBe(false);
  });
});

describe("toTfObject", () => {
  const cases: { name: string; in: PropertyMap; want: Record<string, CtyValue> }[] = [
    {
      name: "empty inputs: attributes null, the list block and the flattened block empty",
      in: {},
      want: { name: null, count: null, arn: null, tags: null, labels: null, password: null, size: null, rule: [], settings: [] },
    },
    { name: "a flattened block becomes a one-element list", in: { settings: { mode: "fast" } }, want: { settings: [{ mode: "fast" }] } },
    { name: "a secret is unwrapped", in: { password: new Secret("hunter2") }, want: { password: "hunter2" } },
    { name: "a known output value is unwrapped", in: { name: new OutputValue("n", false, []) }, want: { name: "n" } },
    { name: "a computed value becomes unknown", in: { count: COMPUTED }, want: { count: new Unknown() } },
    { name: "an unknown output value becomes unknown", in: { name: new OutputValue(undefined, false, []) }, want: { name: new Unknown() } },
    { name: "numbers and booleans given for a string become strings", in: { name: 42 }, want: { name: "42" } },
    { name: "a numeric string for a number keeps its digits", in: { count: "12345678901234567890" }, want: { count: new BigNum("12345678901234567890") } },
    { name: "list block elements are objects with every attribute", in: { rules: [{ port: 80 }] }, want: { rule: [{ port: 80, token: null }] } },
    { name: "map entries and set elements keep their values", in: { tags: { env: "dev" }, labels: ["x", "y"] }, want: { tags: { env: "dev" }, labels: ["x", "y"] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = toTfObject(props, c.in);
      expect(Object.keys(got).sort()).toEqual(props.map((p) => p.tfName).sort());
      for (const [k, v] of Object.entries(c.want)) expect(got[k], k).toEqual(v);
    });
  }

  const failures: { name: string; in: PropertyMap; message: string; path: string }[] = [
    { name: "an object for a string", in: { name: { a: 1 } }, message: "name: expected a string, got an object", path: "name" },
    { name: "a word for a number", in: { count: "many" }, message: 'count: expected a number, got a string ("many")', path: "count" },
    { name: "a list element of the wrong type", in: { rules: [{ port: 1 }, { port: [1] }] }, message: "rules[1].port: expected a number, got a list", path: "rules[1].port" },
    { name: "a map entry of the wrong type", in: { tags: { env: { deep: true } } }, message: 'tags["env"]: expected a string, got an object', path: 'tags["env"]' },
  ];
  for (const c of failures) {
    it(`fails on ${c.name}, naming the property path`, () => {
      let err: unknown;
      try {
        toTfObject(props, c.in);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConversionError);
      expect((err as ConversionError).message).toBe(c.message);
      expect((err as ConversionError).property).toBe(c.path);
    });
  }
});

describe("fromTfObject", () => {
  const cases: { name: string; in: CtyValue; want: PropertyMap }[] = [
    { name: "null gives no properties", in: null, want: {} },
    { name: "a flattened block's one element is the property", in: tf({ settings: [{ mode: "fast" }] }), want: { settings: { mode: "fast" } } },
    { name: "an empty flattened block is null", in: tf(), want: { settings: null } },
    { name: "a sensitive attribute comes back secret", in: tf({ password: "hunter2" }), want: { password: new Secret("hunter2") } },
    { name: "a null sensitive attribute stays null", in: tf(), want: { password: null } },
    { name: "unknowns become computed", in: tf({ arn: new Unknown() }), want: { arn: COMPUTED } },
    { name: "exact numbers become doubles", in: tf({ count: new BigNum("2.5") }), want: { count: 2.5 } },
    { name: "list block elements use Pulumi names", in: tf({ rule: [{ port: 80, token: null }] }), want: { rules: [{ port: 80, token: null }] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = fromTfObject(props, c.in);
      for (const [k, v] of Object.entries(c.want)) expect(got[k], k).toEqual(v);
      if (c.in === null) expect(got).toEqual({});
    });
  }

  it("round-trips what toTfObject produced", () => {
    const inputs: PropertyMap = { name: "a", count: 2, tags: { env: "dev" }, labels: ["x"], rules: [{ port: 1, token: "t" }], settings: { mode: "m" } };
    const back = fromTfObject(props, toTfObject(props, inputs));
    for (const [k, v] of Object.entries(inputs)) expect(back[k], k).toEqual(v);
  });
});

describe("computeDiff", () => {
  const attrPath = (...steps: string[]): AttributePath => steps.map((attribute) => ({ attribute }));
  const cases: { name: string; prior: Record<string, CtyValue>; planned: Record<string, CtyValue>; replace?: AttributePath[]; want: Partial<DiffResult> }[] = [
    { name: "no change", prior: tf(), planned: tf(), want: { changes: "none", replaces: [], detailedDiff: {}, changedKeys: [], deleteBeforeReplace: false } },
    { name: "an input updated in place", prior: tf(), planned: tf({ count: 2 }), want: { changes: "some", detailedDiff: { count: "update" }, changedKeys: ["count"], replaces: [] } },
    {
      name: "a replacing change of the identifying name: create before delete",
      prior: tf(), planned: tf({ name: "b", id: new Unknown() }), replace: [attrPath("name")],
      want: { changes: "some", replaces: ["name"], detailedDiff: { name: "update-replace" }, deleteBeforeReplace: false },
    },
    {
      name: "a replacement that keeps the identifying name deletes first",
      prior: tf(), planned: tf({ count: 5 }), replace: [attrPath("count")],
      want: { replaces: ["count"], detailedDiff: { count: "update-replace" }, deleteBeforeReplace: true },
    },
    { name: "a map entry added", prior: tf({ tags: { a: "1" } }), planned: tf({ tags: { a: "1", env: "dev" } }), want: { detailedDiff: { 'tags["env"]': "add" }, changedKeys: ["tags"] } },
    { name: "a map entry removed", prior: tf({ tags: { a: "1" } }), planned: tf({ tags: {} }), want: { detailedDiff: { 'tags["a"]': "delete" } } },
    { name: "an attribute cleared", prior: tf({ count: 1 }), planned: tf({ count: null }), want: { detailedDiff: { count: "delete" } } },
    {
      name: "a list block element's attribute, by position and Pulumi name",
      prior: tf({ rule: [{ port: 80, token: null }] }), planned: tf({ rule: [{ port: 81, token: null }] }),
      want: { detailedDiff: { "rules[0].port": "update" }, changedKeys: ["rules"] },
    },
    { name: "a list block element added", prior: tf(), planned: tf({ rule: [{ port: 1, token: null }] }), want: { detailedDiff: { "rules[0]": "add" } } },
    {
      name: "a flattened block's attribute, without the index",
      prior: tf({ settings: [{ mode: "a" }] }), planned: tf({ settings: [{ mode: "b" }] }),
      want: { detailedDiff: { "settings.mode": "update" } },
    },
    { name: "a set changes as a whole", prior: tf({ labels: ["x"] }), planned: tf({ labels: ["x", "y"] }), want: { detailedDiff: { labels: "update" } } },
    { name: "a set in another order is not a detailed change", prior: tf({ labels: ["x", "y"] }), planned: tf({ labels: ["y", "x"] }), want: { detailedDiff: {} } },
    { name: "an input becoming unknown is an update", prior: tf(), planned: tf({ name: new Unknown() }), want: { changes: "some", detailedDiff: { name: "update" } } },
    { name: "an optional+computed input planned unknown", prior: tf(), planned: tf({ size: new Unknown() }), want: { detailedDiff: { size: "update" } } },
    { name: "an output-only attribute changing is a change but no detailed entry", prior: tf(), planned: tf({ arn: new Unknown() }), want: { changes: "some", detailedDiff: {}, changedKeys: [] } },
    { name: "1 and exact 1.0 are the same number", prior: tf({ count: 1 }), planned: tf({ count: new BigNum("1.0") }), want: { changes: "none", detailedDiff: {} } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = computeDiff(props, c.prior, c.planned, c.replace ?? [], thing);
      expect(got).toMatchObject(c.want);
    });
  }
});

describe("carrySecrets", () => {
  const cases: { name: string; outputs: PropertyMap; from: PropertyMap | undefined; want: PropertyMap }[] = [
    { name: "nothing to carry from", outputs: { name: "a" }, from: undefined, want: { name: "a" } },
    { name: "a secret input makes its output secret", outputs: { name: "a" }, from: { name: new Secret("a") }, want: { name: new Secret("a") } },
    { name: "a secret output value input too", outputs: { name: "a" }, from: { name: new OutputValue("a", true, []) }, want: { name: new Secret("a") } },
    { name: "a map entry by key", outputs: { tags: { env: "dev", a: "b" } }, from: { tags: { env: new Secret("dev") } }, want: { tags: { env: new Secret("dev"), a: "b" } } },
    {
      name: "a list block element's attribute by position",
      outputs: { rules: [{ port: 1, token: "x" }, { port: 2, token: "y" }] },
      from: { rules: [{ port: 1 }, { port: 2, token: new Secret("y") }] },
      want: { rules: [{ port: 1, token: "x" }, { port: 2, token: new Secret("y") }] },
    },
    { name: "a set with a secret element is secret as a whole", outputs: { labels: ["y", "x"] }, from: { labels: ["x", new Secret("y")] }, want: { labels: new Secret(["y", "x"]) } },
    { name: "a list whose length changed, with a secret, is secret as a whole", outputs: { rules: [] }, from: { rules: [{ port: 1, token: new Secret("t") }] }, want: { rules: new Secret([]) } },
    { name: "null stays null", outputs: { name: null }, from: { name: new Secret("a") }, want: { name: null } },
    { name: "a property the outputs lack is not added", outputs: {}, from: { name: new Secret("a") }, want: {} },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(carrySecrets(props, c.outputs, c.from)).toEqual(c.want);
    });
  }
});

describe("proposedNewState", () => {
  const config = (over: Record<string, CtyValue>): Record<string, CtyValue> => tf({ id: null, arn: null, size: null, ...over });
  const cases: { name: string; prior: CtyValue; config: CtyValue; want: Record<string, CtyValue> }[] = [
    { name: "create: computed attributes stay null", prior: null, config: config({}), want: { id: null, arn: null, size: null, name: "a" } },
    { name: "update: computed attributes the configuration leaves null keep their prior values", prior: tf({ size: 7 }), config: config({}), want: { id: "t-1", arn: "arn:1", size: 7 } },
    { name: "an optional+computed attribute the configuration sets takes the configured value", prior: tf({ size: 7 }), config: config({ size: 9 }), want: { size: 9 } },
    { name: "an optional attribute the configuration clears is cleared", prior: tf({ count: 4 }), config: config({ count: null }), want: { count: null } },
    { name: "list block elements follow the configuration", prior: tf({ rule: [{ port: 1, token: "t" }] }), config: config({ rule: [{ port: 2, token: null }] }), want: { rule: [{ port: 2, token: null }] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = proposedNewState(thing, c.prior, c.config) as Record<string, CtyValue>;
      for (const [k, v] of Object.entries(c.want)) expect(got[k], k).toEqual(v);
    });
  }

  it("a null or unknown configuration proposes the prior state, as objchange.ProposedNew does", () => {
    expect(proposedNewState(thing, null, null)).toBeNull();
    expect(proposedNewState(thing, tf(), null)).toEqual(tf());
    expect(proposedNewState(thing, tf(), new Unknown())).toEqual(tf());
  });

  // A set block and a set nested attribute whose elements carry a computed `tag` the provider fills in.
  const element = (computedTag: boolean) => [attr("key", S, { optional: true }), attr("tag", S, computedTag ? { computed: true } : { optional: true, computed: true })];
  const setThing = block(
    [attr("id", S, { computed: true }), { ...attr("nested", S, { optional: true, nestedType: { nesting: "set", attributes: element(true) } }), type: undefined }],
    [{ typeName: "item", nesting: "set", minItems: 0, maxItems: 0, block: block(element(true)) }],
  );
  const el = (key: string, tag: CtyValue) => ({ key, tag });
  const setCases: { name: string; prior: CtyValue[]; config: CtyValue[]; want: CtyValue[] }[] = [
    { name: "an unchanged element keeps its computed value", prior: [el("a", "auto")], config: [el("a", null)], want: [el("a", "auto")] },
    { name: "each configured element takes the computed value of the prior element it came from", prior: [el("a", "t-a"), el("b", "t-b")], config: [el("b", null), el("a", null)], want: [el("b", "t-b"), el("a", "t-a")] },
    { name: "a changed element has no prior counterpart", prior: [el("a", "auto")], config: [el("x", null)], want: [el("x", null)] },
    { name: "an added element has none either", prior: [el("a", "auto")], config: [el("a", null), el("b", null)], want: [el("a", "auto"), el("b", null)] },
    { name: "a prior element is used once", prior: [el("a", "t1")], config: [el("a", null), el("a", null)], want: [el("a", "t1"), el("a", null)] },
  ];
  for (const c of setCases) {
    it(`sets: ${c.name}`, () => {
      for (const name of ["item", "nested"]) {
        const got = proposedNewState(setThing, { id: "i", nested: null, item: [], [name]: c.prior }, { id: null, nested: null, item: [], [name]: c.config }) as Record<string, CtyValue>;
        expect(got[name], name).toEqual(c.want);
      }
    });
  }
});
