// Schemas a provider should never send but may: Terraform names that collide as Pulumi names, names no SDK can spell,
// nesting deep enough to exhaust the stack, and entity names no token can hold.
import { describe, expect, it } from "vitest";
import type { ProviderSchema } from "../../src/terraform/types.js";
import type { CtyType } from "../../src/terraform/cty/index.js";
import { block, comp, list, map, N, nested, nestedAttr, obj, opt, provider, req, S } from "../support/tf-schema.js";
import { buildProviderModel, providerMapping, renderPackageSchema, type ProviderModel } from "../../src/schema-translate/index.js";
import { DEFAULT_MAX_SCHEMA_DEPTH, MAX_SCHEMA_DEPTH_ENV, SchemaTranslationError, maxSchemaDepth } from "../../src/schema-translate/build.js";
import { distinctPropertyNames } from "../../src/schema-translate/names.js";
import { fromTfObject, toTfObject } from "../../src/bridge/property-cty.js";

function build(p: ProviderSchema, maxSchemaDepth?: number): { model: ProviderModel; warnings: string[] } {
  const warnings: string[] = [];
  const model = buildProviderModel(p, { packageName: "acme", packageVersion: "1.0.0", warn: (m) => warnings.push(m), maxSchemaDepth });
  return { model, warnings };
}

function rendered(m: ProviderModel): Record<string, any> {
  return renderPackageSchema(m, { bridgeVersion: "0.1.0", parameter: Buffer.from("{}"), source: { kind: "local", path: "/x", type: "acme" } }) as Record<string, any>;
}

const names = (props: readonly { tfName: string; name: string }[]): Record<string, string> => Object.fromEntries(props.map((p) => [p.tfName, p.name]));

describe("Terraform names that are one Pulumi name", () => {
  const colliding = [opt("foo__bar", S), opt("foo_bar", S), opt("fooBar", S), opt("toString", S), opt("to_string", S), opt("other", N)];
  const expected = { foo_bar: "fooBar", fooBar: "fooBarV2", foo__bar: "fooBarV3", to_string: "toString", toString: "toStringV2", other: "other" };

  it("gives each a distinct name: the snake_case spelling keeps it, the others get V2, V3 in Terraform-name order", () => {
    const { model } = build(provider({ resources: { acme_thing: block(colliding) } }));
    expect(names(model.resources.get("acme_thing")!.properties)).toEqual(expected);
  });

  it("names the same whatever the order of the attributes in the provider's schema", () => {
    const forward = build(provider({ resources: { acme_thing: block(colliding) } })).model;
    const backward = build(provider({ resources: { acme_thing: block([...colliding].reverse()) } })).model;
    expect(names(backward.resources.get("acme_thing")!.properties)).toEqual(names(forward.resources.get("acme_thing")!.properties));
    expect(JSON.stringify(rendered(backward))).toBe(JSON.stringify(rendered(forward)));
  });

  it("holds in nested blocks, nested attributes, object types, the provider configuration, data sources and function parameters", () => {
    const pair = [opt("foo_bar", S), opt("foo__bar", S)];
    const { model } = build(
      provider({
        config: block(pair),
        resources: {
          acme_thing: block(
            [nestedAttr("inner", "single", pair), opt("plain", obj({ foo_bar: S, fooBar: S }))],
            [nested("blk", "list", block(pair), 0, 1)],
          ),
        },
        dataSources: { acme_thing: block(pair) },
        functions: {
          twice: {
            parameters: [
              { name: "foo_bar", type: S, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" },
              { name: "fooBar", type: S, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" },
            ],
            returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "",
          },
        },
      }),
    );
    const want = { foo_bar: "fooBar", foo__bar: "fooBarV2" };
    const props = model.resources.get("acme_thing")!.properties;
    const typeOf = (tf: string) => {
      const t = props.find((p) => p.tfName === tf)!.type;
      return (t.kind === "object" ? t.ref : undefined)!.properties;
    };
    expect(names(typeOf("inner"))).toEqual(want);
    expect(names(typeOf("blk"))).toEqual(want);
    expect(names(typeOf("plain"))).toEqual({ foo_bar: "fooBar", fooBar: "fooBarV2" });
    expect(names(model.config)).toEqual(want);
    expect(names(model.configVariables)).toEqual(want);
    expect(names(model.dataSources.get("acme_thing")!.properties)).toEqual(want);
    expect(model.functions.get("twice")!.parameters.map((p) => p.name)).toEqual(["fooBar", "fooBarV2"]);
    const schema = rendered(model);
    expect(Object.keys(schema["config"]["variables"]).sort()).toEqual(["fooBar", "fooBarV2"]);
    expect(Object.keys(schema["resources"]["acme:index/thing:Thing"]["inputProperties"]).sort()).toEqual(["blk", "inner", "plain"]);
  });

  it("writes each input to its own attribute and reads both values back", () => {
    const { model } = build(provider({ resources: { acme_thing: block([comp("id", S), ...colliding]) } }));
    const props = model.resources.get("acme_thing")!.properties;
    const inputs = { fooBar: "one", fooBarV2: "two", fooBarV3: "three", toString: "four", toStringV2: "five" };
    const tf = toTfObject(props, inputs);
    expect(tf).toMatchObject({ foo_bar: "one", fooBar: "two", foo__bar: "three", to_string: "four", toString: "five", other: null });
    expect(fromTfObject(props, { id: "x", ...tf })).toMatchObject(inputs);
  });

  it("lists the told-apart names among the resource's fields in the converter's mapping, the kept name not", () => {
    const schema = provider({ resources: { acme_thing: block(colliding) } });
    const fields = providerMapping(build(schema).model, schema).resources!["acme_thing"]!.fields;
    expect(fields).toEqual({
      fooBar: { name: "fooBarV2", typeomitempty: "" },
      foo__bar: { name: "fooBarV3", typeomitempty: "" },
      toString: { name: "toStringV2", typeomitempty: "" },
    });
  });

  it("tells apart names that differ only in case or that Python spells alike (`foo` keeps its name: `Foo` is not its snake_case)", () => {
    expect(distinctPropertyNames([
      { tfName: "Foo", spelling: "Foo", name: "Foo" },
      { tfName: "foo", spelling: "foo", name: "foo" },
      { tfName: "foo_b_a_r", spelling: "foo_b_a_r", name: "fooBAR" },
      { tfName: "foo_bar", spelling: "foo_bar", name: "fooBar" },
      { tfName: "foo_bar_v2", spelling: "foo_bar_v2", name: "fooBarV2" },
      { tfName: "rule", spelling: "rules", name: "rules" },
    ])).toEqual(["FooV2", "foo", "fooBAR", "fooBarV3", "fooBarV2", "rules"]);
  });
});

describe("names no SDK can spell", () => {
  it("an empty attribute name, dots, dashes, spaces and a leading digit become plain names, every one distinct", () => {
    const { model, warnings } = build(provider({ resources: { acme_thing: block([opt("", S), opt("a.b", S), opt("a-b", S), opt("a b", S), opt("1x", S), opt("é", S)]) } }));
    expect(warnings).toEqual([]);
    const props = model.resources.get("acme_thing")!.properties;
    expect(names(props)).toEqual({ "": "unnamed", "a b": "aB", "a-b": "aBV2", "a.b": "aBV3", "1x": "_1x", "é": "unnamedV2" });
    const tf = toTfObject(props, { aB: "space", aBV2: "dash", aBV3: "dot" });
    expect(tf).toMatchObject({ "a.b": "dot", "a-b": "dash", "a b": "space" });
  });

  it("a name with no ASCII letter (Pulumi's schema refuses one) is the fallback, with its digits", () => {
    const { model, warnings } = build(provider({ resources: { acme_thing: block([opt("_", S), opt("__", S), opt("1", S), opt("_2_", S), opt("3-4", S)]) } }));
    expect(warnings).toEqual([]);
    expect(names(model.resources.get("acme_thing")!.properties)).toEqual({ _: "unnamed", __: "unnamedV2", "1": "unnamed1", _2_: "unnamed2", "3-4": "unnamed34" });
  });

  it("an empty block or object attribute name gives a nested type named after its owner, not a TypeError", () => {
    const { model } = build(provider({ resources: { acme_thing: block([opt("", obj({ "": S }))], [nested("", "list", block([opt("x", S)]))]) } }));
    const schema = rendered(model);
    for (const token of Object.keys(schema["types"])) expect(token).toMatch(/^acme:index\/[A-Za-z][A-Za-z0-9_]*:[A-Za-z][A-Za-z0-9_]*$/);
  });

  it("leaves out, with a warning naming the provider, the entity and what to do, a resource or data source whose name no token can hold", () => {
    const { model, warnings } = build(provider({ resources: { "acme_a.b": block([]), acme__: block([]), acme_ok: block([]) }, dataSources: { "acme_x y": block([]) } }));
    expect([...model.resources.keys()]).toEqual(["acme_ok"]);
    expect(model.dataSources.size).toBe(0);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^acme: resource acme_a\.b is left out of the Pulumi package: its name "acme_a\.b" is not one a Terraform configuration can write .*--exclude acme_a\.b/);
    expect(warnings[1]).toMatch(/^acme: resource acme__ is left out .* no letter or digit after the provider's prefix "acme_"/);
    expect(warnings[2]).toMatch(/^acme: data source acme_x y is left out/);
    for (const token of Object.keys(rendered(model)["resources"])) expect(token).toMatch(/^acme:index\/[a-z][A-Za-z0-9]*:[A-Z][A-Za-z0-9]*$/);
  });

  it("leaves out a resource with two attributes of one name, or an attribute without a type, naming the attribute's path", () => {
    const untyped = { ...opt("x", S), type: undefined };
    const { model, warnings } = build(provider({ resources: { acme_twice: block([opt("x", S)], [nested("x", "list", block([]))]), acme_untyped: block([], [nested("b", "single", block([untyped]))]), acme_ok: block([]) } }));
    expect([...model.resources.keys()]).toEqual(["acme_ok"]);
    expect(warnings[0]).toContain("acme: resource acme_twice is left out of the Pulumi package: x is declared twice");
    expect(warnings[1]).toContain("acme: resource acme_untyped is left out of the Pulumi package: attribute b.x has neither a type nor nested attributes");
  });
});

describe("names Pulumi's schema reserves", () => {
  it("`pulumi` is pulumiInfo in every object, not only at a resource's top (Pulumi's schema refuses it anywhere)", () => {
    const { model } = build(provider({ config: block([opt("pulumi", S)]), resources: { acme_thing: block([], [nested("settings", "single", block([opt("pulumi", S), opt("pulumi_info", S)]))]) } }));
    expect(names(model.config)).toEqual({ pulumi: "pulumiInfo" });
    const settings = model.resources.get("acme_thing")!.properties[0]!.type;
    expect(names((settings.kind === "object" ? settings.ref : undefined)!.properties)).toEqual({ pulumi: "pulumiInfoV2", pulumi_info: "pulumiInfo" });
  });

  it("a block named `id` or `urn` at a resource's top is renamed as an attribute would be, never a property `id` or `urn`", () => {
    const { model } = build(provider({ resources: { acme_thing: block([comp("id", S)], [nested("urn", "single", block([opt("x", S)]))]), acme_other: block([], [nested("id", "list", block([opt("x", S)]))]) } }));
    expect(names(model.resources.get("acme_thing")!.properties)).toEqual({ urn: "acmeUrn" });
    expect(names(model.resources.get("acme_other")!.properties)).toEqual({ id: "otherId" });
    expect(model.resources.get("acme_other")!.id).toEqual({ kind: "synthesized" });
    const resources = rendered(model)["resources"];
    for (const r of Object.values<Record<string, any>>(resources)) {
      expect(Object.keys(r["properties"])).not.toContain("urn");
      expect(Object.keys(r["inputProperties"])).not.toContain("id");
    }
  });

  it("an `id` with every candidate name taken, or `urn` beside `<pkg>_urn`, is told apart instead of failing the whole provider; the attribute spelled so keeps the name", () => {
    const taken = ["thing_id", "acme_thing_id", "resource_id", "acme_id"].map((n) => opt(n, S));
    const { model } = build(provider({ resources: { acme_thing: block([opt("id", S), ...taken, opt("urn", S), opt("acme_urn", S)]) } }));
    expect(names(model.resources.get("acme_thing")!.properties)).toMatchObject({ id: "thingIdV2", thing_id: "thingId", urn: "acmeUrnV2", acme_urn: "acmeUrn" });
  });
});

describe("nesting depth", () => {
  const deepBlock = (levels: number) => {
    let b = block([opt("leaf", S)]);
    for (let i = 0; i < levels; i++) b = block([], [nested("b", "list", b)]);
    return b;
  };
  const deepType = (levels: number) => {
    let t: CtyType = S;
    for (let i = 0; i < levels; i++) t = i % 2 === 0 ? list(t) : map(obj({ v: t }));
    return t;
  };

  it("leaves out a resource nested 2,000 blocks deep with a warning naming the limit's setting, and keeps the others", () => {
    const { model, warnings } = build(provider({ resources: { acme_deep: deepBlock(2000), acme_ok: block([req("x", S)]) } }));
    expect([...model.resources.keys()]).toEqual(["acme_ok"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^acme: resource acme_deep is left out of the Pulumi package: b\.b\.b\.b\.b\.b\.….b\.b\.b\.b\.b is nested more than 100 levels deep \(TF_BRIDGE_MAX_SCHEMA_DEPTH, default 100\); raise TF_BRIDGE_MAX_SCHEMA_DEPTH/);
    expect(() => rendered(model)).not.toThrow();
  });

  it("counts nested attributes and types too: a function whose parameter type nests 5,000 deep is left out", () => {
    const { model, warnings } = build(
      provider({
        functions: { deep: { parameters: [{ name: "p", type: deepType(5000), allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" }], returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "" } },
        resources: { acme_attrs: block([deepNested(300)]) },
      }),
    );
    expect(model.functions.size).toBe(0);
    expect(model.resources.size).toBe(0);
    expect(warnings.map((w) => w.split(":")[1]!.trim())).toEqual(["resource acme_attrs is left out of the Pulumi package", "function deep is left out of the Pulumi package"]);
  });

  it("takes exactly the limit, and refuses one more", () => {
    expect(build(provider({ resources: { acme_deep: deepBlock(DEFAULT_MAX_SCHEMA_DEPTH) } })).model.resources.size).toBe(1);
    expect(build(provider({ resources: { acme_deep: deepBlock(DEFAULT_MAX_SCHEMA_DEPTH + 1) } })).model.resources.size).toBe(0);
    expect(build(provider({ resources: { acme_deep: deepBlock(DEFAULT_MAX_SCHEMA_DEPTH + 1) } }), DEFAULT_MAX_SCHEMA_DEPTH + 1).model.resources.size).toBe(1);
  });

  it("fails on a provider configuration nested too deep, with a SchemaTranslationError naming the setting", () => {
    expect(() => build(provider({ config: deepBlock(2000) }))).toThrow(SchemaTranslationError);
    expect(() => build(provider({ config: deepBlock(2000) }))).toThrow(/^acme: the provider's configuration schema cannot be translated: .* nested more than 100 levels deep \(TF_BRIDGE_MAX_SCHEMA_DEPTH/);
  });

  it("reads the limit from TF_BRIDGE_MAX_SCHEMA_DEPTH, refusing a value that is not a whole number from 1 to 1000", () => {
    expect(maxSchemaDepth({})).toBe(DEFAULT_MAX_SCHEMA_DEPTH);
    expect(maxSchemaDepth({ [MAX_SCHEMA_DEPTH_ENV]: " 250 " })).toBe(250);
    for (const bad of ["0", "-3", "1.5", "lots", "1001"]) {
      expect(() => maxSchemaDepth({ [MAX_SCHEMA_DEPTH_ENV]: bad })).toThrow(`${MAX_SCHEMA_DEPTH_ENV}=${JSON.stringify(bad)} is not a whole number from 1 to 1000; set it to one or unset it (default 100)`);
    }
  });
});

function deepNested(levels: number) {
  let a = opt("leaf", S);
  for (let i = 0; i < levels; i++) a = nestedAttr("n", i % 2 === 0 ? "list" : "single", [a]);
  return a;
}
