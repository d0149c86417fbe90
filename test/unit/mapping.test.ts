// The converter mapping's rules, each on a hand-built Terraform schema: how the reference's shim marshals attributes,
// blocks and functions, and which tokens and fields its provider info lists. Expectations follow pulumi-terraform-bridge
// v3.136.0 (pkg/pf/proto, pkg/tfbridge/info MarshalProvider, the dynamic provider's fixups and autonaming).
import { describe, expect, it } from "vitest";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute, FunctionParameter, FunctionSignature, NestedBlock, ProviderSchema } from "../../src/terraform/types.js";
import { B, block, comp, D, list, map, N, nested, nestedAttr, obj, opt, provider as schemaProvider, req, S, set } from "../support/tf-schema.js";
import { buildProviderModel, mappedProviderName, providerMapping, type ProviderMapping } from "../../src/schema-translate/index.js";

// Every provider here also has one ephemeral resource, which the mapping must leave out (the reference has none).
const provider = (parts: Parameters<typeof schemaProvider>[0]): ProviderSchema => schemaProvider({ ephemeralResources: { acme_secret: block([comp("value", S)]) }, ...parts });

function mapping(p: ProviderSchema, opts: { includes?: string[]; name?: string } = {}): ProviderMapping {
  const m = buildProviderModel(p, { packageName: opts.name ?? "acme", packageVersion: "1.2.3", includes: opts.includes });
  // What the plugin sends is JSON: compare what a converter parses.
  return JSON.parse(JSON.stringify(providerMapping(m, p))) as ProviderMapping;
}

/** The shim of one attribute or block, as the only property of a resource's schema. */
function shimOf(x: Attribute | NestedBlock): unknown {
  const b = "typeName" in x ? block([], [x]) : block([x]);
  const key = "typeName" in x ? x.typeName : x.name;
  return mapping(provider({ resources: { acme_thing: b } })).provider.resources!["acme_thing"]![key];
}

const inner = [req("key", S), opt("tag", S, { computed: true })];
const innerShim = { key: { type: 4, required: true }, tag: { type: 4, optional: true, computed: true } };

describe("shim of an attribute", () => {
  it.each<[string, Attribute, unknown]>([
    ["a required string", req("x", S), { type: 4, required: true }],
    ["an optional number (every number is a float)", opt("x", N), { type: 3, optional: true }],
    ["a computed bool", comp("x", B), { type: 1, computed: true }],
    ["an optional+computed string", opt("x", S, { computed: true }), { type: 4, optional: true, computed: true }],
    ["a dynamic value", opt("x", D), { type: 8, optional: true }],
    ["a tuple, a type the shim does not know", opt("x", { kind: "tuple", elements: [S, N] }), { type: 0, optional: true }],
    ["a sensitive string", opt("x", S, { sensitive: true }), { type: 4, optional: true, sensitive: true }],
    ["a write-only string (the shim has no such flag)", opt("x", S, { writeOnly: true, sensitive: true }), { type: 4, optional: true, sensitive: true }],
    ["a deprecated string: the generic message, not the provider's", opt("x", S, { deprecated: true, deprecationMessage: "use y" }), { type: 4, optional: true, deprecated: "Deprecated" }],
    ["a list of strings", opt("x", list(S)), { type: 5, optional: true, element: { schema: { type: 4 } } }],
    ["a set of numbers: a list", opt("x", set(N)), { type: 5, optional: true, element: { schema: { type: 3 } } }],
    ["a map of bools", req("x", map(B)), { type: 6, required: true, element: { schema: { type: 1 } } }],
    ["a list of lists", opt("x", list(list(S))), { type: 5, optional: true, element: { schema: { type: 5, element: { schema: { type: 4 } } } } }],
    [
      "an object: a map whose element is a resource, every attribute optional when the type marks none",
      opt("x", obj({ a: S, b: N })),
      { type: 6, optional: true, element: { resource: { a: { type: 4, optional: true }, b: { type: 3, optional: true } } } },
    ],
    ["an object with optional attributes: only those optional", comp("x", obj({ a: S, b: N }, ["a"])), { type: 6, computed: true, element: { resource: { a: { type: 4, optional: true }, b: { type: 3 } } } }],
    [
      "a list of objects: the object is a schema of type map",
      opt("x", list(obj({ a: S }))),
      { type: 5, optional: true, element: { schema: { type: 6, element: { resource: { a: { type: 4, optional: true } } } } } },
    ],
    ["an object without attributes: an empty element", opt("x", obj({})), { type: 6, optional: true, element: {} }],
    ["a single nested attribute: a map of a resource", nestedAttr("x", "single", inner), { type: 6, optional: true, element: { resource: innerShim } }],
    ["a list nested attribute", nestedAttr("x", "list", inner), { type: 5, optional: true, element: { resource: innerShim } }],
    ["a set nested attribute: a list", nestedAttr("x", "set", inner, { required: true, optional: false }), { type: 5, required: true, element: { resource: innerShim } }],
    [
      "a map nested attribute: a map of the same attribute as a single object, flags and all",
      nestedAttr("x", "map", inner, { computed: true, sensitive: true }),
      { type: 6, optional: true, computed: true, sensitive: true, element: { schema: { type: 6, optional: true, computed: true, sensitive: true, element: { resource: innerShim } } } },
    ],
    ["a nested attribute without attributes", nestedAttr("x", "list", []), { type: 5, optional: true, element: {} }],
  ])("%s", (_, a, want) => {
    expect(shimOf(a)).toEqual(want);
  });
});

describe("shim of a block", () => {
  const b = block(inner);
  it.each<[string, NestedBlock, unknown]>([
    ["a list block: optional, a list of a resource", nested("x", "list", b), { type: 5, optional: true, element: { resource: innerShim } }],
    ["a list block with MinItems and MaxItems: required, both kept", nested("x", "list", b, 1, 1), { type: 5, required: true, maxItems: 1, minItems: 1, element: { resource: innerShim } }],
    ["a set block: a list", nested("x", "set", b, 0, 3), { type: 5, optional: true, maxItems: 3, element: { resource: innerShim } }],
    ["a single block: a map of a resource", nested("x", "single", b), { type: 6, optional: true, element: { resource: innerShim } }],
    ["a group block: as a single one", nested("x", "group", b), { type: 6, optional: true, element: { resource: innerShim } }],
    [
      "a map block: a map of the same block as a single one",
      nested("x", "map", b, 2),
      { type: 6, required: true, minItems: 2, element: { schema: { type: 6, required: true, minItems: 2, element: { resource: innerShim } } } },
    ],
    [
      "blocks within blocks",
      nested("x", "list", block([], [nested("y", "single", block([opt("z", S)]))])),
      { type: 5, optional: true, element: { resource: { y: { type: 6, optional: true, element: { resource: { z: { type: 4, optional: true } } } } } } },
    ],
    ["a block without attributes: an empty element", nested("x", "list", block([])), { type: 5, optional: true, element: {} }],
    ["a deprecated block", nested("x", "single", block([], [], { deprecated: true, deprecationMessage: "gone" })), { type: 6, optional: true, deprecated: "Deprecated", element: {} }],
  ])("%s", (_, nb, want) => {
    expect(shimOf(nb)).toEqual(want);
  });
});

describe("shim of a function", () => {
  const param = (name: string, type: CtyType, f: Partial<FunctionParameter> = {}): FunctionParameter => ({ name, type, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain", ...f });
  const fn = (f: Partial<FunctionSignature>): FunctionSignature => ({ parameters: [], returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "", ...f });

  it("writes parameters, the variadic one, the return type in Terraform's type notation, summary, description and deprecation", () => {
    const p = provider({
      functions: {
        join: fn({ parameters: [param("sep", S, { description: "between parts" })], variadicParameter: param("parts", S, { allowNullValue: true }), summary: "Joins" }),
        parse: fn({
          parameters: [param("", list(N))],
          returnType: obj({ a: S, b: set(map(B)) }, ["b"]),
          description: "Parses.",
          deprecationMessage: "use parse2",
        }),
        now: fn({ returnType: { kind: "tuple", elements: [S, D] } }),
      },
    });
    expect(mapping(p).provider.functions).toEqual({
      join: { parameters: [{ name: "sep", type: "string", description: "between parts" }], variadicParameter: { name: "parts", type: "string", allowNullValue: true }, return: "string", summary: "Joins" },
      parse: { parameters: [{ type: ["list", "number"] }], return: ["object", { a: "string", b: ["set", ["map", "bool"]] }, ["b"]], description: "Parses.", deprecationMessage: "use parse2" },
      now: { return: ["tuple", ["string", "dynamic"]] },
    });
    expect(mapping(p).functions).toEqual({ join: { tok: "acme:index/join:join" }, parse: { tok: "acme:index/parse:parse" }, now: { tok: "acme:index/now:now" } });
  });
});

describe("provider info", () => {
  const p = provider({
    config: block([opt("token", S, { sensitive: true })], [nested("proxy", "list", block([opt("url", S)]), 0, 1)]),
    resources: {
      acme_item: block([opt("id", S, { computed: true }), req("name", S), opt("urn", S), opt("pulumi", S)]),
      acme_plain: block([comp("id", S), opt("name", S, { computed: true })]),
      acme_counter: block([comp("id", N), opt("name", N)]),
      acme_object: block([comp("id", S)]),
    },
    dataSources: { acme_lookup: block([comp("id", S), req("name", S)]) },
  });
  const m = mapping(p);

  it("has the package's name and version, and the configuration as the provider's schema", () => {
    expect(m.name).toBe("acme");
    expect(m.version).toBe("1.2.3");
    expect(m.provider.schema).toEqual({ token: { type: 4, optional: true, sensitive: true }, proxy: { type: 5, optional: true, maxItems: 1, element: { resource: { url: { type: 4, optional: true } } } } });
    expect(m).not.toHaveProperty("config");
  });

  it("lists each resource's token, its renamed id/urn/pulumi and its autonamed name, with idFields null", () => {
    expect(m.resources).toEqual({
      acme_item: {
        tok: "acme:index/item:Item",
        fields: {
          id: { name: "itemId", typeomitempty: "" },
          urn: { name: "acmeUrn", typeomitempty: "" },
          pulumi: { name: "pulumiInfo", typeomitempty: "" },
          name: { name: "name", typeomitempty: "", default: { autonamed: true, isFunc: true } },
        },
        idFields: null,
      },
      // A computed string id is the resource id: nothing to rename; an optional name is autonamed too.
      acme_plain: { tok: "acme:index/plain:Plain", fields: { name: { name: "name", typeomitempty: "", default: { autonamed: true, isFunc: true } } }, idFields: null },
      // A number id is renamed even when computed only; a number name is not autonamed.
      acme_counter: { tok: "acme:index/counter:Counter", fields: { id: { name: "counterId", typeomitempty: "" } }, idFields: null },
      // Our token: the reference's (acme:index/object:Object) is the schema's alias, and programs must name ours.
      acme_object: { tok: "acme:index/objectResource:ObjectResource", fields: {}, idFields: null },
    });
  });

  it("lists data sources by token with no fields (no renames, no autonaming), and no ephemeral resources anywhere", () => {
    expect(m.dataSources).toEqual({ acme_lookup: { tok: "acme:index/getLookup:getLookup", fields: {} } });
    expect(JSON.stringify(m)).not.toContain("acme_secret");
  });

  it("keeps the Terraform half whole under filters, and maps only what the package keeps", () => {
    const f = mapping(p, { includes: ["acme_item", "acme_lookup"] });
    expect(Object.keys(f.provider.resources!).sort()).toEqual(["acme_counter", "acme_item", "acme_object", "acme_plain"]);
    expect(Object.keys(f.resources!)).toEqual(["acme_item"]);
    expect(Object.keys(f.dataSources!)).toEqual(["acme_lookup"]);
  });

  it("leaves out empty maps, as Go's omitempty does", () => {
    expect(mapping(provider({}))).toEqual({ provider: {}, name: "acme", version: "1.2.3" });
    const onlyData = mapping(provider({ dataSources: { acme_x: block([]) } }));
    expect(onlyData).toEqual({ provider: { dataSources: { acme_x: {} } }, name: "acme", version: "1.2.3", dataSources: { acme_x: { tok: "acme:index/getX:getX", fields: {} } } });
  });

  it("takes the package name and its tokens from --provider-name", () => {
    const named = mapping(p, { name: "myacme" });
    expect(named.name).toBe("myacme");
    expect(named.resources!["acme_item"]!.tok).toBe("myacme:index/item:Item");
    expect(named.resources!["acme_item"]!.fields["urn"]).toEqual({ name: "myacmeUrn", typeomitempty: "" });
  });
});

describe("mapped provider name", () => {
  const nameOf = (resources: string[], dataSources: string[] = [], pkg = "acme"): string => {
    const p = provider({ resources: Object.fromEntries(resources.map((r) => [r, block([])])), dataSources: Object.fromEntries(dataSources.map((d) => [d, block([])])) });
    return mappedProviderName(buildProviderModel(p, { packageName: pkg, packageVersion: "0.0.0" }), p);
  };
  it.each<[string, string[], string[], string, string]>([
    ["the resources' common prefix, whatever the package is named", ["random_id", "random_string"], [], "rnd", "random"],
    ["data sources do not count", ["foo_a"], ["bar_b"], "acme", "foo"],
    ["resource names without an underscore do not count", ["foo", "bar_a"], [], "acme", "bar"],
    ["the package name when the prefixes disagree", ["foo_a", "bar_b"], [], "acme", "acme"],
    ["the package name without resources", [], ["http"], "http", "http"],
  ])("%s", (_, resources, dataSources, pkg, want) => {
    expect(nameOf(resources, dataSources, pkg)).toBe(want);
  });
});
