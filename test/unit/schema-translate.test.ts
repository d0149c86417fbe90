// One test per translation rule, each with a hand-built Terraform schema that isolates it.
import { describe, expect, it } from "vitest";
import type { Attribute, Block, ProviderSchema } from "../../src/terraform/types.js";
import { attr, B, block, comp, list, map, N, nested, opt, provider, req, S, set } from "../support/tf-schema.js";
import { buildProviderModel, renderPackageSchema, type ProviderModel } from "../../src/schema-translate/index.js";
import { ephemeralFunctionName, ephemeralFunctionToken, pascalName, propertyName, requiredIn } from "../../src/schema-translate/names.js";

const idAttr = comp("id", S);

function model(p: ProviderSchema, opts: { includes?: string[]; excludes?: string[]; name?: string } = {}): ProviderModel {
  return buildProviderModel(p, { packageName: opts.name ?? "acme", packageVersion: "1.2.3", includes: opts.includes, excludes: opts.excludes });
}

function render(m: ProviderModel, source: "local" | "registry" = "registry"): Record<string, any> {
  return renderPackageSchema(m, {
    bridgeVersion: "0.1.0",
    parameter: Buffer.from('{"remote":{"url":"registry.opentofu.org/acme/acme","version":"1.2.3"}}'),
    source: source === "registry" ? { kind: "registry", host: "registry.opentofu.org", namespace: "acmecorp", type: "acme" } : { kind: "local", path: "/x/terraform-provider-acme", type: "acme" },
  }) as Record<string, any>;
}

const resource = (m: ProviderModel, tf: string) => m.resources.get(tf)!;
const prop = (props: { tfName: string }[], tf: string) => props.find((p) => p.tfName === tf)! as ProviderModel["config"][number];

describe("package description", () => {
  it("names the Terraform provider's address and version for a registry provider, the type alone for a local binary", () => {
    const p = provider({});
    expect(render(model(p), "registry")["description"]).toBe("A Pulumi provider dynamically bridged from acme (Terraform provider registry.opentofu.org/acmecorp/acme 1.2.3).");
    expect(render(model(p), "registry")["language"]["nodejs"]["packageDescription"]).toBe(render(model(p), "registry")["description"]);
    expect(render(model(p), "local")["description"]).toBe("A Pulumi provider dynamically bridged from acme.");
  });
});

describe("names", () => {
  it("property names: snake_case to camelCase, keeping leading and one trailing underscore", () => {
    expect(propertyName("min_upper")).toBe("minUpper");
    expect(propertyName("__a_b")).toBe("__aB");
    expect(propertyName("foo_1x")).toBe("foo1x");
    expect(propertyName("a__b")).toBe("aB");
    expect(propertyName("foo__")).toBe("foo_");
    expect(propertyName("already_camelCase")).toBe("alreadyCamelCase");
  });

  it("token names: Pascal case over _ and -, a leading digit spelled out", () => {
    expect(pascalName("string")).toBe("String");
    expect(pascalName("rfc3339_parse")).toBe("Rfc3339Parse");
    expect(pascalName("web-acl_rule")).toBe("WebAclRule");
    expect(pascalName("2fa_device")).toBe("TwoFaDevice");
  });
});

describe("tokens", () => {
  const p = provider({
    resources: { acme_thing: block([idAttr]), acme_big_thing: block([idAttr]), acme_provider: block([idAttr]) },
    dataSources: { acme_thing: block([idAttr]), acme: block([idAttr]) },
    functions: { parse_rfc: { parameters: [], returnType: S, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "" } },
  });
  const m = model(p);

  it("resources drop the provider prefix: <pkg>:index/<lowerCamel>:<UpperCamel>", () => {
    expect(resource(m, "acme_thing").token).toBe("acme:index/thing:Thing");
    expect(resource(m, "acme_big_thing").token).toBe("acme:index/bigThing:BigThing");
  });

  it("a resource named <prefix>_provider does not collide with the package's Provider", () => {
    expect(resource(m, "acme_provider").token).toBe("acme:index/acmeProvider:AcmeProvider");
  });

  it("data sources are get<X> functions; one named like the provider keeps its name", () => {
    expect(m.dataSources.get("acme_thing")!.token).toBe("acme:index/getThing:getThing");
    expect(m.dataSources.get("acme")!.token).toBe("acme:index/getAcme:getAcme");
  });

  it("provider functions are lower camel case in both halves", () => {
    expect(m.functions.get("parse_rfc")!.token).toBe("acme:index/parseRfc:parseRfc");
  });

  it("tokens that differ only in case get V2", () => {
    const c = model(provider({ resources: { acme_foo_bar: block([idAttr]), acme_foobar: block([idAttr]) } }));
    const tokens = [...c.resources.values()].map((r) => r.token).sort();
    expect(tokens).toEqual(["acme:index/fooBar:FooBar", "acme:index/foobarV2:FoobarV2"]);
  });

  it("a type name declared with two shapes is the last declaration's, as the reference's type is; the other gets V2 and the rejected candidate leaves no nested type behind", () => {
    // `bar` { baz { a } } makes FooBar and FooBarBaz; `bar_baz` { q, qux { z } }, declared after it, wants FooBarBaz too.
    const c = model(provider({
      resources: {
        acme_foo: block([idAttr], [
          nested("bar", "single", block([], [nested("baz", "single", block([opt("a", N)]))])),
          nested("bar_baz", "single", block([opt("q", S)], [nested("qux", "single", block([opt("z", B)]))])),
        ]),
      },
    }));
    const names = [...c.types.keys()].map((t) => t.split(":")[2]).sort();
    expect(names).toEqual(["FooBar", "FooBarBaz", "FooBarBazQux", "FooBarBazV2"]);
    const ref = (tfName: string, props = resource(c, "acme_foo").properties) => {
      const t = props.find((p) => p.tfName === tfName)!.type;
      return t.kind === "object" ? t.ref : undefined;
    };
    expect(ref("bar_baz")!.token).toBe("acme:index/FooBarBaz:FooBarBaz");
    expect(ref("baz", ref("bar")!.properties)!.token).toBe("acme:index/FooBarBazV2:FooBarBazV2");
    expect(ref("baz", ref("bar")!.properties)!.properties.map((p) => p.name)).toEqual(["a"]);
  });

  it("declarations of one type name alike but for input and computed flags share it, with the last one's definition", () => {
    // acme_list's items.redirect and acme_list_item's redirect are both ListItemRedirect, as in cloudflare's list and list_item.
    const redirect = (computed: boolean) => nested("redirect", "single", block([req("url", S), attr("code", N, { optional: true, computed })]));
    const c = model(provider({
      resources: {
        acme_list: block([idAttr], [nested("items", "set", block([opt("ip", S)], [redirect(false)]))]),
        acme_list_item: block([idAttr], [redirect(true)]),
      },
    }));
    const tokens = [...c.types.keys()].map((t) => t.split(":")[2]).sort();
    expect(tokens).toEqual(["ListItem", "ListItemRedirect"]);
    const shared = c.types.get("acme:index/ListItemRedirect:ListItemRedirect")!;
    expect(shared.properties.find((p) => p.name === "code")!.computed).toBe(true);
    expect(resource(c, "acme_list_item").properties.find((p) => p.tfName === "redirect")!.type).toEqual({ kind: "object", ref: shared });
  });

  it("declarations alike in the Pulumi schema but not in Terraform (a set and a list, a secret) are one schema type, each converting by its own", () => {
    // As google's compute_security_policy.rule.preconfigured_waf_config (target_rule_ids a set) and
    // compute_security_policy_rule's (a list): the reference shares ComputeSecurityPolicyRulePreconfiguredWafConfig.
    const c = model(provider({
      resources: {
        acme_a: block([idAttr], [nested("b_c", "single", block([opt("ids", set(S)), opt("x", S)]))]),
        acme_a_b: block([idAttr], [nested("c", "single", block([opt("ids", list(S)), attr("x", S, { optional: true, sensitive: true })]))]),
      },
    }));
    expect([...c.types.keys()].map((t) => t.split(":")[2])).toEqual(["ABC"]);
    const own = (tf: string, prop: string) => {
      const t = resource(c, tf).properties.find((p) => p.tfName === prop)!.type;
      return t.kind === "object" ? t.ref : undefined;
    };
    const [early, late] = [own("acme_a", "b_c")!, own("acme_a_b", "c")!];
    expect([early.token, late.token]).toEqual(["acme:index/ABC:ABC", "acme:index/ABC:ABC"]);
    // The schema shows the last declaration's definition, as the reference's; each keeps its own Terraform types and secrets.
    expect(c.types.get("acme:index/ABC:ABC")).toBe(late);
    expect(early.properties.map((p) => [p.tfType.kind, p.secret])).toEqual([["set", false], ["string", false]]);
    expect(late.properties.map((p) => [p.tfType.kind, p.secret])).toEqual([["list", false], ["string", true]]);
  });

  it("a resource whose class name is reserved in the SDK languages gets a Resource suffix", () => {
    const c = model(provider({ resources: { acme_object: block([idAttr]) } }));
    expect(resource(c, "acme_object").token).toBe("acme:index/objectResource:ObjectResource");
  });

  it("--provider-name renames the package in every token", () => {
    const c = model(provider({ resources: { acme_thing: block([idAttr]) } }), { name: "myacme" });
    expect(resource(c, "acme_thing").token).toBe("myacme:index/thing:Thing");
  });
});

describe("pluralization", () => {
  it("names from pulumi/inflector, except where it answers an empty word (hive), which keeps the word", () => {
    const m = model(provider({ resources: { acme_r: block([idAttr, opt("uris", list(S)), opt("health", list(S)), opt("hive", list(S))]) } }));
    expect(resource(m, "acme_r").properties.map((p) => p.name)).toEqual(["healths", "hive", "uris"]);
  });

  it("list and set attributes and blocks are pluralized; maps and max-items-1 blocks are not", () => {
    const m = model(provider({
      resources: {
        acme_r: block(
          [idAttr, opt("tag", list(S)), opt("label", set(S)), opt("header", map(S))],
          [nested("rule", "list", block([opt("x", S)])), nested("setting", "list", block([opt("x", S)]), 0, 1)],
        ),
      },
    }));
    const r = resource(m, "acme_r");
    expect(r.properties.map((p) => p.name).sort()).toEqual(["header", "labels", "rules", "setting", "tags"]);
  });

  it("the plural is not used when the schema already has an attribute of that name", () => {
    const m = model(provider({ resources: { acme_r: block([idAttr, opt("rule", list(S)), opt("rules", S)]) } }));
    const r = resource(m, "acme_r");
    expect(prop(r.properties, "rule").name).toBe("rule");
    expect(prop(r.properties, "rules").name).toBe("rules");
  });
});

describe("reserved names and resource ids", () => {
  it("a computed string id is the resource id and no property", () => {
    const r = resource(model(provider({ resources: { acme_r: block([idAttr, opt("x", S)]) } })), "acme_r");
    expect(r.id).toEqual({ kind: "attribute", tfName: "id" });
    expect(r.properties.map((p) => p.name)).toEqual(["x"]);
  });

  it("a user-settable id becomes <res>Id, or the next free candidate", () => {
    const r1 = resource(model(provider({ resources: { acme_disk: block([opt("id", S, { computed: true })]) } })), "acme_disk");
    expect(prop(r1.properties, "id").name).toBe("diskId");
    expect(r1.id).toEqual({ kind: "attribute", tfName: "id" });
    const r2 = resource(model(provider({ resources: { acme_disk: block([req("id", S), opt("disk_id", S)]) } })), "acme_disk");
    expect(prop(r2.properties, "id").name).toBe("acmeDiskId");
  });

  it("urn and pulumi are renamed", () => {
    const r = resource(model(provider({ resources: { acme_r: block([idAttr, opt("urn", S), opt("pulumi", S)]) } })), "acme_r");
    expect(prop(r.properties, "urn").name).toBe("acmeUrn");
    expect(prop(r.properties, "pulumi").name).toBe("pulumiInfo");
  });

  it("the id of a resource renamed for colliding with Provider is named from its Terraform name, as the reference does", () => {
    const r = resource(model(provider({ resources: { acme_provider: block([opt("id", S, { computed: true })]) } })), "acme_provider");
    expect(r.token).toBe("acme:index/acmeProvider:AcmeProvider");
    expect(prop(r.properties, "id").name).toBe("providerId");
  });

  it("a resource class name that SDKs cannot declare gets Resource appended, the reference's token as alias, and the reference's nested type names", () => {
    const m = model(provider({ resources: { acme_object: block([idAttr, opt("x", S)], [nested("rule", "list", block([opt("k", S)]))]) } }));
    const r = resource(m, "acme_object");
    expect(r.token).toBe("acme:index/objectResource:ObjectResource");
    expect(r.aliases).toEqual(["acme:index/object:Object"]);
    expect(render(m).resources["acme:index/objectResource:ObjectResource"].aliases).toEqual([{ type: "acme:index/object:Object" }]);
    expect(prop(r.properties, "rule").type).toMatchObject({ kind: "array", items: { kind: "object", ref: { token: "acme:index/ObjectRule:ObjectRule" } } });
  });

  it("a resource's string name input, required or optional, is autonamed and so never a required input", () => {
    const m = model(provider({ resources: { acme_a: block([idAttr, req("name", S)]), acme_b: block([idAttr, opt("name", S)]), acme_c: block([idAttr, req("name", N)]) } }));
    expect(prop(resource(m, "acme_a").properties, "name").autonamed).toBe(true);
    expect(prop(resource(m, "acme_b").properties, "name").autonamed).toBe(true);
    expect(prop(resource(m, "acme_c").properties, "name").autonamed).toBeUndefined();
    const s = render(m);
    expect(s.resources["acme:index/a:A"].requiredInputs).toBeUndefined();
    expect(s.resources["acme:index/a:A"].required).toEqual(["name"]);
    expect(s.resources["acme:index/c:C"].requiredInputs).toEqual(["name"]);
  });

  it("a resource without an id attribute gets a synthesized id (documented in docs/architecture.md)", () => {
    const r = resource(model(provider({ resources: { acme_r: block([req("name", S)]) } })), "acme_r");
    expect(r.id).toEqual({ kind: "synthesized" });
  });
});

describe("types", () => {
  const m = model(provider({
    resources: {
      acme_r: block(
        [
          idAttr,
          opt("s", S), opt("n", N), opt("b", B), opt("d", { kind: "dynamic" }), opt("ls", list(N)), opt("m", map(B)),
          opt("obj", { kind: "object", attributes: { a: S, b: N }, optional: ["b"] }),
          opt("tup", { kind: "tuple", elements: [S, N] }),
          attr("single_na", undefined, { optional: true, nestedType: { nesting: "single", attributes: [req("k", S)] } }),
          attr("list_na", undefined, { optional: true, nestedType: { nesting: "list", attributes: [req("k", S)] } }),
          attr("set_na", undefined, { optional: true, nestedType: { nesting: "set", attributes: [req("k", S)] } }),
          attr("map_na", undefined, { optional: true, nestedType: { nesting: "map", attributes: [req("k", S)] } }),
        ],
        [
          nested("single_b", "single", block([opt("v", S)])),
          nested("group_b", "group", block([opt("v", S)])),
          nested("list_b", "list", block([opt("v", S)])),
          nested("set_b", "set", block([opt("v", S)])),
          nested("map_b", "map", block([opt("v", S)])),
          nested("one_b", "list", block([opt("v", S)]), 1, 1),
        ],
      ),
    },
  }));
  const props = render(m).resources["acme:index/r:R"].properties;

  it("primitive, collection and dynamic attribute types", () => {
    expect(props.s).toEqual({ type: "string" });
    expect(props.n).toEqual({ type: "number" });
    expect(props.b).toEqual({ type: "boolean" });
    expect(props.d).toEqual({ $ref: "pulumi.json#/Any" });
    expect(props.ls).toEqual({ type: "array", items: { type: "number" } });
    expect(props.m).toEqual({ type: "object", additionalProperties: { type: "boolean" } });
    expect(props.tup).toEqual({ type: "array", items: { $ref: "pulumi.json#/Any" } });
  });

  it("object attributes become named types with no required attribute (Terraform accepts null for any; the reference lists none)", () => {
    expect(props.obj).toEqual({ $ref: "#/types/acme:index%2FRObj:RObj" });
    expect(render(m).types["acme:index/RObj:RObj"]).toMatchObject({ type: "object" });
    expect(render(m).types["acme:index/RObj:RObj"].required).toBeUndefined();
  });

  it("nested attributes in every nesting mode", () => {
    expect(props.singleNa).toEqual({ $ref: "#/types/acme:index%2FRSingleNa:RSingleNa" });
    expect(props.listNas).toEqual({ type: "array", items: { $ref: "#/types/acme:index%2FRListNa:RListNa" } });
    expect(props.setNas).toEqual({ type: "array", items: { $ref: "#/types/acme:index%2FRSetNa:RSetNa" } });
    expect(props.mapNa).toEqual({ type: "object", additionalProperties: { $ref: "#/types/acme:index%2FRMapNa:RMapNa" } });
  });

  it("blocks in every nesting mode, with max-items-1 flattened to an object", () => {
    expect(props.singleB).toEqual({ $ref: "#/types/acme:index%2FRSingleB:RSingleB" });
    expect(props.groupB).toEqual({ $ref: "#/types/acme:index%2FRGroupB:RGroupB" });
    expect(props.listBs).toEqual({ type: "array", items: { $ref: "#/types/acme:index%2FRListB:RListB" } });
    expect(props.setBs).toEqual({ type: "array", items: { $ref: "#/types/acme:index%2FRSetB:RSetB" } });
    expect(props.mapB).toEqual({ type: "object", additionalProperties: { $ref: "#/types/acme:index%2FRMapB:RMapB" } });
    expect(props.oneB).toEqual({ $ref: "#/types/acme:index%2FROneB:ROneB" });
    expect(resource(m, "acme_r").properties.find((p) => p.tfName === "one_b")!.maxItemsOne).toBe(true);
  });
});

describe("flags", () => {
  const m = model(provider({
    resources: {
      acme_r: block(
        [
          idAttr,
          req("name", S, { description: "The name." }),
          opt("size", N),
          opt("zone", S, { computed: true }),
          comp("arn", S),
          opt("password", S, { sensitive: true }),
          opt("token", S, { writeOnly: true }),
          opt("old", S, { deprecated: true }),
          opt("older", S, { deprecated: true, deprecationMessage: "Use size." }),
        ],
        [nested("needed", "list", block([req("k", S), opt("v", S, { computed: true })]), 1)],
      ),
    },
  }));
  const r = render(m).resources["acme:index/r:R"];

  it("inputs are the required and optional attributes; computed-only ones are outputs only", () => {
    expect(Object.keys(r.inputProperties).sort()).toEqual(["name", "neededs", "old", "older", "password", "size", "token", "zone"]);
    expect(r.properties.arn).toEqual({ type: "string" });
    expect(r.inputProperties.arn).toBeUndefined();
  });

  it("requiredInputs are TF required (blocks: min_items > 0) but for the autonamed `name`; required outputs are required or computed", () => {
    expect(r.requiredInputs).toEqual(["neededs"]);
    expect(r.required).toEqual(["arn", "name", "neededs", "zone"]);
  });

  it("stateInputs list every property, none required", () => {
    expect(Object.keys(r.stateInputs.properties).sort()).toEqual(Object.keys(r.properties).sort());
    expect(r.stateInputs.required).toBeUndefined();
  });

  it("sensitive and write-only become secret", () => {
    expect(r.properties.password.secret).toBe(true);
    expect(r.properties.token.secret).toBe(true);
    expect(r.properties.size.secret).toBeUndefined();
  });

  it("deprecation: the provider's message, or a default when it only sets the flag", () => {
    expect(r.properties.older.deprecationMessage).toBe("Use size.");
    expect(r.properties.old.deprecationMessage).toBe("Deprecated");
  });

  it("TF descriptions become docs", () => {
    expect(r.properties.name.description).toBe("The name.");
  });

  it("nested types: required is the input rule, nodejs requiredOutputs adds computed fields", () => {
    const t = render(m).types["acme:index/RNeeded:RNeeded"];
    expect(t.required).toEqual(["k"]);
    expect(t.language).toEqual({ nodejs: { requiredOutputs: ["k", "v"] } });
  });
});

describe("data sources, functions and configuration", () => {
  const m = model(provider({
    config: block([opt("region", S), req("endpoint", S), opt("api_key", S, { sensitive: true })]),
    dataSources: { acme_lookup: block([req("query", S), comp("result", S), idAttr]) },
    functions: {
      concat: {
        parameters: [
          { name: "first", type: S, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" },
          { name: "maybe", type: S, allowNullValue: true, allowUnknownValues: false, description: "", descriptionKind: "plain" },
        ],
        variadicParameter: { name: "rest", type: N, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" },
        returnType: S, summary: "Concatenates.", description: "", descriptionKind: "plain", deprecationMessage: "",
      },
      split: {
        parameters: [{ name: "s", type: S, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" }],
        returnType: { kind: "object", attributes: { head: S, tail: list(S) } }, summary: "Splits.", description: "Cuts `s` in two.", descriptionKind: "plain", deprecationMessage: "",
      },
    },
  }));
  const s = render(m);

  it("data sources: inputs are their arguments, outputs every attribute", () => {
    const f = s.functions["acme:index/getLookup:getLookup"];
    expect(Object.keys(f.inputs.properties)).toEqual(["query"]);
    expect(f.inputs.required).toEqual(["query"]);
    expect(Object.keys(f.outputs.properties).sort()).toEqual(["id", "query", "result"]);
  });

  it("provider functions: positional parameters, a trailing variadic array, plain or object return", () => {
    const f = s.functions["acme:index/concat:concat"];
    expect(f.multiArgumentInputs).toEqual(["first", "maybe", "rest"]);
    expect(f.inputs.required).toEqual(["first"]);
    expect(f.inputs.properties.rest).toEqual({ type: "array", items: { type: "number" } });
    expect(f.outputs).toEqual({ type: "string" });
    expect(f.description).toBe("Concatenates.");
    // Summary, then description, as the reference writes them.
    expect(s.functions["acme:index/split:split"].description).toBe("Splits.\n\nCuts `s` in two.");
    expect(s.functions["acme:index/split:split"].outputs).toEqual({
      type: "object",
      properties: { head: { type: "string" }, tails: { type: "array", items: { type: "string" } } },
      required: ["head", "tails"],
    });
  });

  it("the provider has the reference's terraformConfig method, declared as a function of the provider", () => {
    expect(s.provider.methods).toEqual({ terraformConfig: "pulumi:providers:acme/terraformConfig" });
    const f = s.functions["pulumi:providers:acme/terraformConfig"];
    expect(f.inputs).toEqual({ type: "object", properties: { __self__: { $ref: "#/provider" } }, required: ["__self__"] });
    expect(f.outputs.properties.result).toEqual({ type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } });
  });

  it("an object function result is spelled out inline and registers no type", () => {
    expect(Object.keys(s.types ?? {}).filter((t) => t.includes("Split"))).toEqual([]);
  });

  it("config variables of object type use types of the config module named after the variable; the provider's inputs keep theirs", () => {
    const c = render(model(provider({ config: block([], [nested("proxy", "list", block([opt("url", S)], [nested("auth", "single", block([opt("user", S)]))]))]) })));
    expect(c.config.variables.proxies).toMatchObject({ type: "array", items: { $ref: "#/types/acme:config%2Fproxies:proxies" } });
    expect(c.types["acme:config/proxies:proxies"].properties.auth).toEqual({ $ref: "#/types/acme:config%2FproxiesAuth:proxiesAuth" });
    expect(c.provider.inputProperties.proxies).toMatchObject({ items: { $ref: "#/types/acme:index%2FProviderProxy:ProviderProxy" } });
  });

  it("types of the configuration alone that require something carry the reference's empty list for the position it never meets them in", () => {
    // As google's external_credentials and azurerm's features.template_deployment: config types are met as outputs only
    // (requiredInputs []), the Provider's as inputs only (requiredOutputs []); a type requiring nothing carries neither.
    const c = render(model(provider({ config: block([], [nested("cred", "list", block([req("token", S)])), nested("opt", "list", block([opt("x", S)]))]) })));
    expect(c.types["acme:config/creds:creds"]).toMatchObject({ required: ["token"], language: { nodejs: { requiredInputs: [] } } });
    expect(c.types["acme:index/ProviderCred:ProviderCred"]).toMatchObject({ required: ["token"], language: { nodejs: { requiredOutputs: [] } } });
    expect(c.types["acme:config/opts:opts"].language).toBeUndefined();
    expect(c.types["acme:index/ProviderOpt:ProviderOpt"].language).toBeUndefined();
  });

  it("provider configuration: config variables and provider inputs, secrets kept", () => {
    expect(Object.keys(s.config.variables).sort()).toEqual(["apiKey", "endpoint", "region"]);
    expect(s.config.variables.apiKey.secret).toBe(true);
    expect(s.config.required).toEqual(["endpoint"]);
    expect(s.provider.requiredInputs).toEqual(["endpoint"]);
    expect(Object.keys(s.provider.inputProperties).sort()).toEqual(["apiKey", "endpoint", "region"]);
  });
});

describe("ephemeral resources", () => {
  const password = block([req("length", N), opt("special", B, { computed: true }), comp("result", S, { sensitive: true }), comp("bcrypt_hash", S)], [
    nested("rule", "list", block([opt("min", N)])),
  ]);
  const p = provider({
    resources: { acme_password: block([idAttr, req("length", N)]) },
    dataSources: { acme_password: block([idAttr, opt("length", N)]) },
    ephemeralResources: { acme_password: password, acme_2fa_code: block([comp("code", S)]) },
  });

  it("naming: get<Name> in the ephemeral module, both halves like every function", () => {
    expect(ephemeralFunctionName("password")).toBe("getPassword");
    expect(ephemeralFunctionName("private_key")).toBe("getPrivateKey");
    expect(ephemeralFunctionToken("random", ephemeralFunctionName("password"))).toBe("random:ephemeral/getPassword:getPassword");
  });

  it("become functions that cannot collide with the data source or resource of the same Terraform name", () => {
    const m = model(p);
    expect(m.ephemeralResources.get("acme_password")!.token).toBe("acme:ephemeral/getPassword:getPassword");
    expect(m.ephemeralResources.get("acme_2fa_code")!.token).toBe("acme:ephemeral/getTwoFaCode:getTwoFaCode");
    expect(m.dataSources.get("acme_password")!.token).toBe("acme:index/getPassword:getPassword");
    expect(resource(m, "acme_password").token).toBe("acme:index/password:Password");
    // Nested types live in the ephemeral module too, so no index-module type name moves.
    expect([...m.types.keys()]).toEqual(["acme:ephemeral/getPasswordRule:getPasswordRule"]);
  });

  it("render as functions: inputs are the configurable attributes, outputs every attribute, all secret", () => {
    const fn = render(model(p))["functions"]["acme:ephemeral/getPassword:getPassword"];
    expect(Object.keys(fn.inputs.properties).sort()).toEqual(["length", "rules", "special"]);
    expect(fn.inputs.required).toEqual(["length"]);
    expect(fn.inputs.properties.length.secret).toBeUndefined();
    expect(Object.keys(fn.outputs.properties).sort()).toEqual(["bcryptHash", "length", "result", "rules", "special"]);
    for (const o of Object.values<any>(fn.outputs.properties)) expect(o.secret).toBe(true);
    expect(fn.outputs.required).toEqual(["bcryptHash", "length", "result", "special"]);
  });

  it("--include of a Terraform name keeps every kind of that name, --exclude drops every kind", () => {
    const inc = model(p, { includes: ["acme_password"] });
    expect([...inc.resources.keys(), ...inc.dataSources.keys(), ...inc.ephemeralResources.keys()]).toEqual(["acme_password", "acme_password", "acme_password"]);
    expect(model(p, { includes: ["acme_2fa_code"] }).ephemeralResources.size).toBe(1);
    const exc = model(p, { excludes: ["acme_password"] });
    expect([...exc.ephemeralResources.keys()]).toEqual(["acme_2fa_code"]);
    expect(exc.resources.size + exc.dataSources.size).toBe(0);
  });

  it("a provider without ephemeral resources renders exactly as before", () => {
    const without = provider({ resources: { acme_password: block([idAttr, req("length", N)]) } });
    const withEph = provider({ resources: { acme_password: block([idAttr, req("length", N)]) }, ephemeralResources: { acme_password: password } });
    const a = render(model(without));
    const b = render(model(withEph));
    delete b["functions"]["acme:ephemeral/getPassword:getPassword"];
    delete b["types"]["acme:ephemeral/getPasswordRule:getPasswordRule"];
    expect(b).toEqual(a);
  });
});

describe("package metadata", () => {
  const m = model(provider({ resources: { acme_r: block([idAttr]) } }));

  it("name, version, registry repository and publisher, parameterization", () => {
    const s = render(m);
    expect(s.name).toBe("acme");
    expect(s.version).toBe("1.2.3");
    expect(s.repository).toBe("https://github.com/acmecorp/terraform-provider-acme");
    expect(s.publisher).toBe("acmecorp");
    expect(s.parameterization).toEqual({
      baseProvider: { name: "terraform-provider", version: "0.1.0" },
      parameter: Buffer.from('{"remote":{"url":"registry.opentofu.org/acme/acme","version":"1.2.3"}}').toString("base64"),
    });
  });

  it("a local binary has no repository; language sections give sane SDK names", () => {
    const s = render(m, "local");
    expect(s.repository).toBeUndefined();
    expect(s.language.go.importBasePath).toBe("github.com/pulumi/pulumi-terraform-provider/sdks/go/acme/acme");
    const v3 = render(buildProviderModel(provider({}), { packageName: "acme", packageVersion: "3.0.1" }));
    expect(v3.language.go.importBasePath).toBe("github.com/pulumi/pulumi-terraform-provider/sdks/go/acme/v3/acme");
    expect(s.language.python.pyproject).toEqual({ enabled: true });
  });
});

describe("--include and --exclude", () => {
  const p = provider({ resources: { acme_a: block([idAttr]), acme_b: block([idAttr]) }, dataSources: { acme_a: block([idAttr]) } });

  it("include keeps only the named tokens (resource and data source alike)", () => {
    const m = model(p, { includes: ["acme_a"] });
    expect([...m.resources.keys()]).toEqual(["acme_a"]);
    expect([...m.dataSources.keys()]).toEqual(["acme_a"]);
  });

  it("exclude drops them", () => {
    expect([...model(p, { excludes: ["acme_a"] }).resources.keys()]).toEqual(["acme_b"]);
  });

  it("naming a token in both, or a token the provider lacks, is an error naming it", () => {
    expect(() => model(p, { includes: ["acme_a"], excludes: ["acme_a"] })).toThrow(/--include and --exclude both name acme_a/);
    expect(() => model(p, { includes: ["acme_zzz"] })).toThrow(/name acme_zzz, which the provider does not have/);
  });
});

describe("required where a property appears (the reference's isOptional)", () => {
  const flags = (f: { required?: boolean; optional?: boolean; computed?: boolean; autonamed?: boolean }) => ({
    required: f.required ?? false,
    input: (f.required ?? false) || (f.optional ?? false),
    computed: f.computed ?? false,
    ...(f.autonamed !== undefined ? { autonamed: f.autonamed } : {}),
  });
  it.each([
    ["Required", true, true, { required: true }],
    ["Optional", false, false, { optional: true }],
    ["Computed", false, true, { computed: true }],
    ["Optional + Computed", false, true, { optional: true, computed: true }],
    ["Required with a default (autonamed)", false, true, { required: true, autonamed: true }],
    ["Optional with a default (autonamed)", false, true, { optional: true, autonamed: true }],
    ["Optional + Computed with a default", false, true, { optional: true, computed: true, autonamed: true }],
  ] as const)("%s: required as an input %s, as an output %s", (_name, asInput, asOutput, f) => {
    expect(requiredIn("input", flags(f))).toBe(asInput);
    expect(requiredIn("output", flags(f))).toBe(asOutput);
  });

  const inner = (): Block => block([opt("opt", S), comp("comp", S), opt("both", S, { computed: true }), req("req", S)]);
  const nestedResult = (): Attribute =>
    attr("results", undefined, { computed: true, nestedType: { nesting: "list", attributes: [opt("opt", S), comp("comp", S), opt("both", S, { computed: true })] } });

  it("types of resources: the input rule, the output rule for Node.js; types of data sources: the output rule, the input rule (or none) for Node.js", () => {
    const schema = render(
      model(
        provider({
          resources: { acme_thing: block([idAttr, req("name", S)], [nested("rule", "list", inner())]) },
          dataSources: { acme_lookup: block([idAttr, opt("filter", S), nestedResult()], [nested("detail", "list", inner())]) },
        }),
      ),
    );
    expect(schema["types"]["acme:index/ThingRule:ThingRule"]).toMatchObject({ required: ["req"], language: { nodejs: { requiredOutputs: ["both", "comp", "req"] } } });
    // Met as an input (the block is configurable) and then as an output.
    expect(schema["types"]["acme:index/getLookupDetail:getLookupDetail"]).toMatchObject({ required: ["both", "comp", "req"], language: { nodejs: { requiredInputs: ["req"] } } });
    // Only ever an output: the provider fills in every computed attribute, optional or not.
    expect(schema["types"]["acme:index/getLookupResult:getLookupResult"]).toMatchObject({ required: ["both", "comp"], language: { nodejs: { requiredInputs: [] } } });
    expect(schema["functions"]["acme:index/getLookup:getLookup"]["outputs"]["required"]).toEqual(["id", "results"]);
  });

  it("holds over a provider the size of a large real one (98 resources, hundreds of nested types)", () => {
    const resources: Record<string, Block> = {};
    const dataSources: Record<string, Block> = {};
    for (let i = 0; i < 98; i++) {
      resources[`acme_r${i}`] = block([idAttr, req("name", S)], [nested("a", "list", inner()), nested("b", "set", inner()), nested("c", "single", inner())]);
      dataSources[`acme_d${i}`] = block([idAttr, opt("filter", S), nestedResult()], [nested("a", "list", inner()), nested("e", "single", inner()), nested("b", "list", block([comp("x", N), opt("y", B, { computed: true })], [nested("deep", "list", inner())]))]);
    }
    const schema = render(model(provider({ resources, dataSources })));
    const types = Object.entries(schema["types"] as Record<string, { required?: string[]; language?: { nodejs: Record<string, string[]> } }>);
    expect(types.length).toBeGreaterThan(700);
    let dataSourceTypes = 0;
    for (const [token, t] of types) {
      if (token.includes("/get")) {
        dataSourceTypes++;
        // Every optional + computed attribute of a data source's nested result is required there.
        if (token.endsWith("Result")) expect(t.required, token).toEqual(["both", "comp"]);
        if (/getD\d+B:/.test(token)) expect(t.required, token).toEqual(["x", "y"]);
        expect(t.language?.nodejs["requiredOutputs"], token).toBeUndefined();
      } else {
        expect(t.required, token).toEqual(["req"]);
        expect(t.language?.nodejs["requiredOutputs"], token).toEqual(["both", "comp", "req"]);
      }
    }
    expect(dataSourceTypes).toBeGreaterThan(350);
  });
});
