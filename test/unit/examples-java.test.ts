// renderJava: one case per construct of the example Program model, each compared with the Java program text.
import { describe, expect, it } from "vitest";
import { exampleProgram } from "../../src/schema-translate/examples/index.js";
import { renderJava } from "../../src/schema-translate/examples/java.js";
import { ConversionError, type ConfigVariable, type Entity, type InvokeNode, type ObjectValue, type PathStep, type Program, type ProgramNode, type ResourceNode, type Value } from "../../src/schema-translate/examples/program.js";
import { buildProviderModel } from "../../src/schema-translate/build.js";
import type { ObjectTypeModel, PropertyModel, TypeModel } from "../../src/schema-translate/model.js";
import { B, N, S, block, comp, list, map, nested, nestedAttr, obj, opt, provider, req } from "../support/tf-schema.js";

const fnParam = (name: string, type = S) => ({ name, type, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" as const });
const fnBase = { summary: "", description: "", descriptionKind: "plain" as const, deprecationMessage: "" };

const model = buildProviderModel(
  provider({
    resources: {
      tls_private_key: block([req("algorithm", S), opt("rsa_bits", N), comp("private_key_pem", S), comp("public_key_openssh", S), comp("id", S)]),
      tls_self_signed_cert: block(
        [req("private_key_pem", S), req("validity_period_hours", N), req("allowed_uses", list(S)), opt("dns_names", list(S)), opt("early_renewal", B), opt("default", S), comp("cert_pem", S)],
        [nested("subject", "list", block([opt("common_name", S), opt("organization", S), opt("street_address", list(S))]), 0, 1)],
      ),
      tls_cert_request: block(
        [req("private_key_pem", S), opt("labels", map(S)), opt("weights", list(N)), nestedAttr("rules", "map", [opt("priority", N), opt("from", S)]), comp("cert_request_pem", S)],
        [nested("subject", "list", block([opt("common_name", S), opt("country", S)]))],
      ),
      tls_string: block([req("length", N), comp("result", S)]),
    },
    dataSources: {
      tls_public_key: block([opt("private_key_pem", S), comp("public_key_openssh", S), comp("id", S)]),
      tls_certificate: block([req("url", S), comp("id", S)], [nested("certificates", "list", block([comp("cert_pem", S), opt("serial", S)]))]),
    },
    ephemeralResources: { tls_private_key: block([req("algorithm", S), comp("private_key_pem", S)]) },
    functions: {
      duration_parse: { parameters: [fnParam("duration")], returnType: obj({ hours: N, minutes: N }), ...fnBase },
      join_with: { parameters: [fnParam("separator"), fnParam("first"), fnParam("second")], returnType: S, ...fnBase },
      span: { parameters: [fnParam("from"), fnParam("until"), fnParam("step", N)], returnType: obj({ length: N }), ...fnBase },
    },
    config: block([opt("proxy_url", S)]),
  }),
  { packageName: "tls", packageVersion: "4.0.0" },
);

function found<T>(m: Map<string, T>, key: string): T {
  const v = m.get(key);
  if (v === undefined) throw new Error(`no ${key} in the model`);
  return v;
}
const entity = (token: string, properties: readonly PropertyModel[], foreign = false): Entity => ({ pkg: token.split(":")[0]!, token, properties, foreign });
const res = (tfName: string): Entity => {
  const r = found(model.resources, tfName);
  return entity(r.token, [...r.properties, ...(r.properties.some((p) => p.name === "id") ? [] : [idProperty])]);
};
const ds = (tfName: string): Entity => entity(found(model.dataSources, tfName).token, found(model.dataSources, tfName).properties);
const eph = (tfName: string): Entity => entity(found(model.ephemeralResources, tfName).token, found(model.ephemeralResources, tfName).properties);
const prop = (props: readonly PropertyModel[], name: string): PropertyModel => {
  const p = props.find((q) => q.name === name);
  if (p === undefined) throw new Error(`no ${name} among ${props.map((q) => q.name).join(", ")}`);
  return p;
};
const objectTypeOf = (t: TypeModel): ObjectTypeModel => {
  if (t.kind === "object") return t.ref;
  if (t.kind === "array") return objectTypeOf(t.items);
  if (t.kind === "map") return objectTypeOf(t.values);
  throw new Error(`not an object type: ${t.kind}`);
};
/** The `id` every resource has, as bind.ts adds it. */
const idProperty: PropertyModel = { tfName: "id", name: "id", tfType: { kind: "string" }, type: { kind: "string" }, required: false, input: false, computed: true, secret: false, writeOnly: false, maxItemsOne: false, description: "" };

const str = (value: string, type?: TypeModel): Value => ({ kind: "string", value, ...(type ? { type } : {}) });
const num = (value: number, type?: TypeModel): Value => ({ kind: "number", value, ...(type ? { type } : {}) });
const bool = (value: boolean): Value => ({ kind: "bool", value });
const cfg = (variable: string, type?: TypeModel): Value => ({ kind: "config", variable, ...(type ? { type } : {}) });
const tpl = (...parts: (string | Value)[]): Value => ({ kind: "template", parts });
const call = (fn: "file" | "jsonencode" | "jsondecode" | "trimspace", arg: Value, type?: TypeModel): Value => ({ kind: "call", fn, args: [arg], ...(type ? { type } : {}) });
/** A reference: a string step is a property, a number an index, `{ key }` a map key. */
const ref = (node: string, ...steps: (string | number | { key: string })[]): Value => ({
  kind: "ref",
  node,
  path: steps.map((s): PathStep => (typeof s === "string" ? { kind: "property", tfName: s, name: s } : typeof s === "number" ? { kind: "index", index: s } : { kind: "key", key: s.key })),
});
/** An object of the given properties, each typed from `props` when given (as bind.ts types them). */
const object = (values: Record<string, Value>, props: readonly PropertyModel[] = [], objectType?: ObjectTypeModel): ObjectValue => ({
  kind: "object",
  properties: Object.entries(values).map(([name, value]) => {
    const p = props.find((q) => q.name === name);
    return { tfName: p?.tfName ?? name, name, value: p !== undefined && value.type === undefined ? { ...value, type: p.type } : value };
  }),
  ...(objectType ? { objectType } : {}),
});
const resource = (variable: string, e: Entity, args: Record<string, Value>, extra: Partial<ResourceNode> = {}): ResourceNode => ({
  kind: "resource",
  name: extra.name ?? variable,
  variable,
  entity: e,
  args: object(args, e.properties),
  dependsOn: [],
  ...extra,
});
const invoke = (variable: string, role: InvokeNode["role"], e: Entity, args: Record<string, Value>, extra: Partial<InvokeNode> = {}): InvokeNode => ({
  kind: "invoke",
  role,
  name: variable,
  variable,
  entity: e,
  args: object(args, e.properties),
  ...extra,
});
const program = (nodes: ProgramNode[], rest: Partial<Program> = {}): Program => ({ pkg: "tls", config: [], nodes, outputs: [], otherProviders: [], goImports: {}, ...rest });

/** The statements of `stack`, unindented. */
function body(code: string): string {
  const start = code.indexOf("    public static void stack(Context ctx) {\n");
  const end = code.indexOf("\n    }\n", start);
  return code
    .slice(start + "    public static void stack(Context ctx) {\n".length, end)
    .split("\n")
    .map((l) => l.replace(/^ {8}/, ""))
    .join("\n");
}
const imports = (code: string): string[] => [...code.matchAll(/^import (.*);$/gm)].map((m) => m[1]!);

const key = res("tls_private_key");
const cert = res("tls_self_signed_cert");
const csr = res("tls_cert_request");
const subjectType = objectTypeOf(prop(cert.properties, "subject").type);
const csrSubjectType = objectTypeOf(prop(csr.properties, "subjects").type);
const ruleType = objectTypeOf(prop(csr.properties, "rules").type);

describe("renderJava: the program", () => {
  it("a whole program: package, imports, class App with main and stack, config, a resource, an output", () => {
    const config: ConfigVariable[] = [{ name: "key_algorithm", variable: "keyAlgorithm", type: "string" }];
    const code = renderJava(program([resource("example", key, { algorithm: cfg("keyAlgorithm"), rsaBits: num(4096) }, { name: "my-key" })], { config, outputs: [{ name: "public_key", value: ref("example", "publicKeyOpenssh") }] }));
    expect(code).toBe(`package generated_program;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.tls.PrivateKey;
import com.pulumi.tls.PrivateKeyArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        final var config = ctx.config();
        final var keyAlgorithm = config.require("key_algorithm");

        var example = new PrivateKey("my-key", PrivateKeyArgs.builder()
            .algorithm(keyAlgorithm)
            .rsaBits(4096.0)
            .build());

        ctx.export("public_key", example.publicKeyOpenssh());
    }
}
`);
  });

  it("an empty program still has its class and stack method", () => {
    expect(body(renderJava(program([])))).toBe("");
  });
});

describe("renderJava: values", () => {
  const render = (args: Record<string, Value>): string => body(renderJava(program([resource("cert", cert, { privateKeyPem: str("pem"), validityPeriodHours: num(12), ...args })])));

  it.each<[string, Record<string, Value>, string]>([
    // `default` is a Java keyword: the SDK's setter is `default_`.
    ["a string, escaped", { default: str('say "hi"\\\t€') }, '.default_("say \\"hi\\"\\\\\\t€")'],
    ["an integer as a double", { validityPeriodHours: num(12) }, ".validityPeriodHours(12.0)"],
    ["a fraction", { validityPeriodHours: num(0.5) }, ".validityPeriodHours(0.5)"],
    ["a bool", { earlyRenewal: bool(true) }, ".earlyRenewal(true)"],
  ])("%s", (_, args, expected) => {
    expect(render(args)).toContain(`\n    ${expected}\n`);
  });

  it("a literal converted to the type the schema expects: a number where a string goes, a string where a number goes", () => {
    expect(render({ default: num(42, { kind: "string" }) })).toContain('.default_("42")');
    expect(body(renderJava(program([resource("cert", cert, { privateKeyPem: str("pem"), validityPeriodHours: str("12", { kind: "number" }) })])))).toContain(".validityPeriodHours(12.0)");
  });

  it("text of several lines is one literal per line, joined with +", () => {
    expect(render({ default: str("line one\nline two\nline three\n") })).toContain(`.default_("line one\\n" +\n        "line two\\n" +\n        "line three\\n")`);
  });

  it("a null leaves the property out", () => {
    expect(render({ default: { kind: "null" } })).not.toContain("default_");
  });

  it("a list as the setter's varargs, one per line when they do not fit on one", () => {
    expect(render({ allowedUses: { kind: "list", items: [str("a"), str("b")] } })).toContain('.allowedUses("a", "b")');
    const long = Array.from({ length: 6 }, (_, i) => str(`key_encipherment_${i}`));
    expect(render({ allowedUses: { kind: "list", items: long } })).toContain(`.allowedUses(\n        "key_encipherment_0",\n        "key_encipherment_1",\n`);
    expect(render({ allowedUses: { kind: "list", items: [] } })).toContain(".allowedUses(List.of())");
  });

  it("a single nested object (a block with at most one item): its args class's builder", () => {
    expect(render({ subject: object({ commonName: str("example.com"), streetAddresses: { kind: "list", items: [str("1 Main St")] } }, subjectType.properties, subjectType) })).toBe(`var cert = new SelfSignedCert("cert", SelfSignedCertArgs.builder()
    .privateKeyPem("pem")
    .validityPeriodHours(12.0)
    .subject(SelfSignedCertSubjectArgs.builder()
        .commonName("example.com")
        .streetAddresses("1 Main St")
        .build())
    .build());`);
  });

  it("a list of objects, a map and a map of objects", () => {
    const code = renderJava(
      program([
        resource("req", csr, {
          privateKeyPem: str("pem"),
          subjects: { kind: "list", items: [object({ commonName: str("a") }, csrSubjectType.properties, csrSubjectType), object({ country: str("NL") }, csrSubjectType.properties, csrSubjectType)] },
          labels: { kind: "map", entries: [{ key: "team", value: str("web") }, { key: "tier-1", value: str("front") }] },
          rules: { kind: "map", entries: [{ key: "first", value: object({ priority: num(1) }, ruleType.properties, ruleType) }] },
        }),
      ]),
    );
    expect(body(code)).toBe(`var req = new CertRequest("req", CertRequestArgs.builder()
    .privateKeyPem("pem")
    .subjects(
        CertRequestSubjectArgs.builder()
            .commonName("a")
            .build(),
        CertRequestSubjectArgs.builder()
            .country("NL")
            .build())
    .labels(Map.of("team", "web", "tier-1", "front"))
    .rules(Map.of("first", CertRequestRulesArgs.builder()
        .priority(1.0)
        .build()))
    .build());`);
    expect(imports(code)).toEqual([
      "com.pulumi.Context",
      "com.pulumi.Pulumi",
      "com.pulumi.core.Output",
      "com.pulumi.tls.CertRequest",
      "com.pulumi.tls.CertRequestArgs",
      "com.pulumi.tls.inputs.CertRequestRulesArgs",
      "com.pulumi.tls.inputs.CertRequestSubjectArgs",
      "java.util.Map",
    ]);
  });

  it("a list holding a null is Arrays.asList (List.of refuses nulls)", () => {
    const code = body(renderJava(program([resource("req", csr, { privateKeyPem: str("pem"), labels: { kind: "map", entries: [{ key: "k", value: { kind: "list", items: [str("a"), { kind: "null" }] } }] } })])));
    expect(code).toContain('.labels(Map.of("k", Arrays.asList("a", null)))');
  });

  it("past ten pairs a map is Map.ofEntries", () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ key: `k${i}`, value: str(`v${i}`) }));
    expect(body(renderJava(program([resource("req", csr, { privateKeyPem: str("pem"), labels: { kind: "map", entries } })])))).toContain(
      `.labels(Map.ofEntries(\n        Map.entry("k0", "v0"),\n        Map.entry("k1", "v1"),`,
    );
  });
});

describe("renderJava: references", () => {
  const withCert = (value: Value, nodes: ProgramNode[] = []): string =>
    body(renderJava(program([resource("key", key, { algorithm: str("RSA") }), ...nodes, resource("cert", cert, { privateKeyPem: value, validityPeriodHours: num(1), allowedUses: { kind: "list", items: [] } })])));

  it("a resource's attribute is its getter, an Output the setter takes", () => {
    expect(withCert(ref("key", "privateKeyPem"))).toContain(".privateKeyPem(key.privateKeyPem())");
  });

  it("a resource's id is the id() every resource has", () => {
    expect(withCert(ref("key", "id"))).toContain(".privateKeyPem(key.id())");
  });

  it("an optional attribute: the getter's Optional unwrapped where a value goes, kept in a stack output", () => {
    const code = renderJava(
      program([resource("cert", cert, { privateKeyPem: str("pem"), validityPeriodHours: num(1) }), resource("other", cert, { privateKeyPem: { ...ref("cert", "default"), type: { kind: "string" } }, validityPeriodHours: num(1) })], {
        outputs: [{ name: "dflt", value: ref("cert", "default") }],
      }),
    );
    expect(body(code)).toContain(".privateKeyPem(cert.default_().applyValue(v -> v.orElse(null)))");
    expect(body(code)).toContain('ctx.export("dflt", cert.default_());');
  });

  it("property, index and property steps in one lambda, through the SDK's Optionals", () => {
    const code = body(
      renderJava(
        program([resource("cert", cert, { privateKeyPem: str("pem"), validityPeriodHours: num(1) })], {
          outputs: [
            { name: "first_name", value: ref("cert", "subject", "commonName") },
            { name: "street", value: ref("cert", "subject", "streetAddresses", 0) },
          ],
        }),
      ),
    );
    expect(code).toContain('ctx.export("first_name", cert.subject().applyValue(v -> v.get().commonName()));');
    expect(code).toContain('ctx.export("street", cert.subject().applyValue(v -> v.get().streetAddresses().get(0)));');
  });

  it("a map key step", () => {
    const code = body(renderJava(program([resource("req", csr, { privateKeyPem: str("pem") })], { outputs: [{ name: "team", value: ref("req", "labels", { key: "team" }) }] })));
    expect(code).toContain('ctx.export("team", req.labels().applyValue(m -> m.get().get("team")));');
  });

  it("a data source's result: required results plain, optional ones Optional (the output rule of its nested types)", () => {
    const certs = ds("tls_certificate");
    const code = body(
      renderJava(
        program([invoke("site", "dataSource", certs, { url: str("https://example.com") }), resource("cert", cert, { privateKeyPem: { ...ref("site", "certificates", 0, "serial"), type: { kind: "string" } }, validityPeriodHours: num(1) })], {
          outputs: [{ name: "pem", value: ref("site", "certificates", 0, "certPem") }],
        }),
      ),
    );
    expect(code).toContain(".privateKeyPem(site.applyValue(r -> r.certificates().get(0).serial().orElse(null)))");
    expect(code).toContain('ctx.export("pem", site.applyValue(r -> r.certificates().get(0).certPem()));');
  });

  it("a number attribute where text goes is converted", () => {
    expect(withCert({ ...ref("key", "rsaBits"), type: { kind: "string" } })).toContain(".privateKeyPem(key.rsaBits().applyValue(v -> String.valueOf(v.orElse(null))))");
  });

  it("a lambda parameter clear of the program's variables", () => {
    const code = body(renderJava(program([resource("v", cert, { privateKeyPem: str("pem"), validityPeriodHours: num(1) })], { outputs: [{ name: "name", value: ref("v", "subject", "commonName") }] })));
    expect(code).toContain('ctx.export("name", v.subject().applyValue(v2 -> v2.get().commonName()));');
  });
});

describe("renderJava: templates", () => {
  const render = (value: Value, config: ConfigVariable[] = []): string =>
    body(renderJava(program([resource("key", key, { algorithm: str("RSA") }), resource("cert", cert, { privateKeyPem: value, validityPeriodHours: num(1) })], { config })));

  it("without Outputs: String.format over plain values, % doubled", () => {
    const config: ConfigVariable[] = [{ name: "env", variable: "env", type: "string" }];
    expect(render(tpl("100% ", cfg("env"), "-key"), config)).toContain('.privateKeyPem(String.format("100%% %s-key", env))');
  });

  it("with Outputs: Output.format", () => {
    expect(render(tpl("web-", ref("key", "id"), "/", ref("key", "algorithm")))).toContain('.privateKeyPem(Output.format("web-%s/%s", key.id(), key.algorithm()))');
  });

  it("a template of one value is that value", () => {
    expect(render(tpl(ref("key", "privateKeyPem")))).toContain(".privateKeyPem(key.privateKeyPem())");
  });
});

describe("renderJava: builtins", () => {
  const render = (value: Value): string => renderJava(program([resource("key", key, { algorithm: str("RSA") }), resource("cert", cert, { privateKeyPem: value, validityPeriodHours: num(1) })]));

  it("file: a helper reading the file, its IOException wrapped", () => {
    const code = render(call("file", str("key.pem")));
    expect(body(code)).toContain('.privateKeyPem(readFile("key.pem"))');
    expect(code).toContain(`    private static String readFile(String path) {
        try {
            return Files.readString(Paths.get(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
`);
    expect(imports(code)).toEqual(expect.arrayContaining(["java.io.IOException", "java.io.UncheckedIOException", "java.nio.file.Files", "java.nio.file.Paths"]));
  });

  it("file of an Output: read in its lambda", () => {
    expect(body(render(call("file", ref("key", "algorithm"))))).toContain(".privateKeyPem(key.algorithm().applyValue(v -> readFile(v)))");
  });

  it("jsonencode: serializeJson of jsonObject, jsonArray and jsonProperty, statically imported", () => {
    const json: Value = {
      kind: "map",
      entries: [
        { key: "name", value: str("a") },
        { key: "count", value: num(2) },
        { key: "tags", value: { kind: "list", items: [str("x"), bool(false)] } },
      ],
    };
    const code = render(call("jsonencode", json));
    expect(body(code)).toContain(`
    .privateKeyPem(serializeJson(jsonObject(
        jsonProperty("name", "a"),
        jsonProperty("count", 2),
        jsonProperty("tags", jsonArray("x", false)))))
`);
    expect(code).toContain("import static com.pulumi.codegen.internal.Serialization.*;\n");
  });

  it("jsonencode with an Output inside: serialized in its lambda", () => {
    const json: Value = { kind: "map", entries: [{ key: "key", value: ref("key", "privateKeyPem") }] };
    expect(body(render(call("jsonencode", json)))).toContain('.privateKeyPem(key.privateKeyPem().applyValue(v -> serializeJson(jsonObject(jsonProperty("key", v)))))');
  });

  it("jsondecode: Gson's JsonParser for any value, Gson with the type where the schema gives one", () => {
    expect(body(render(call("jsondecode", str("{}"), { kind: "any" })))).toContain('.privateKeyPem(JsonParser.parseString("{}"))');
    const typed = renderJava(program([resource("req", csr, { privateKeyPem: str("pem"), labels: call("jsondecode", str("{}"), { kind: "map", values: { kind: "string" } }) })]));
    expect(body(typed)).toContain('.labels(new Gson().<Map<String, String>>fromJson("{}", new TypeToken<Map<String, String>>() {}.getType()))');
    expect(imports(typed)).toEqual(expect.arrayContaining(["com.google.gson.Gson", "com.google.gson.reflect.TypeToken"]));
  });

  it("a builtin of a result: one lambda, its parameter named for what it gets", () => {
    const code = body(renderJava(program([invoke("pub", "dataSource", ds("tls_public_key"), {})], { outputs: [{ name: "key", value: call("trimspace", ref("pub", "publicKeyOpenssh")) }] })));
    expect(code).toContain('ctx.export("key", pub.applyValue(r -> r.publicKeyOpenssh().strip()));');
  });

  it("trimspace: strip(), in a lambda for an Output", () => {
    expect(body(render(call("trimspace", str(" x "))))).toContain('.privateKeyPem(" x ".strip())');
    expect(body(render(call("trimspace", ref("key", "privateKeyPem"))))).toContain(".privateKeyPem(key.privateKeyPem().applyValue(v -> v.strip()))");
  });
});

describe("renderJava: Outputs inside lists and maps", () => {
  it("a list of plain values with Outputs among them: Output.all", () => {
    const code = body(renderJava(program([resource("key", key, { algorithm: str("RSA") }), resource("cert", cert, { privateKeyPem: str("pem"), validityPeriodHours: num(1), allowedUses: { kind: "list", items: [str("a"), ref("key", "id")] } })])));
    expect(code).toContain(".allowedUses(Output.all(Output.of(\"a\"), key.id()))");
  });

  it("a map with one Output: built in its lambda; with two: Output.tuple", () => {
    const one = body(renderJava(program([resource("key", key, { algorithm: str("RSA") }), resource("req", csr, { privateKeyPem: str("pem"), labels: { kind: "map", entries: [{ key: "k", value: ref("key", "id") }] } })])));
    expect(one).toContain('.labels(key.id().applyValue(v -> Map.of("k", v)))');
    const two = body(
      renderJava(
        program([
          resource("key", key, { algorithm: str("RSA") }),
          resource("req", csr, { privateKeyPem: str("pem"), labels: { kind: "map", entries: [{ key: "a", value: ref("key", "id") }, { key: "b", value: ref("key", "algorithm") }] } }),
        ]),
      ),
    );
    expect(two).toContain('.labels(Output.tuple(key.id(), key.algorithm()).applyValue(t -> Map.of("a", t.t1, "b", t.t2)))');
  });
});

describe("renderJava: config", () => {
  it.each<[ConfigVariable, string]>([
    [{ name: "name", variable: "name", type: "string" }, 'final var name = config.require("name");'],
    [{ name: "size", variable: "size", type: "number" }, 'final var size = config.requireDouble("size");'],
    [{ name: "on", variable: "on", type: "boolean" }, 'final var on = config.requireBoolean("on");'],
    [{ name: "name", variable: "name", type: "string", default: str("web") }, 'final var name = config.get("name").orElse("web");'],
    [{ name: "size", variable: "size", type: "number", default: num(3) }, 'final var size = config.getDouble("size").orElse(3.0);'],
    [{ name: "on", variable: "on", type: "boolean", default: bool(true) }, 'final var on = config.getBoolean("on").orElse(true);'],
  ])("%j", (c, expected) => {
    expect(body(renderJava(program([], { config: [c] })))).toBe(`final var config = ctx.config();\n${expected}`);
  });

  it("a number where text goes: String.valueOf", () => {
    const code = body(renderJava(program([resource("cert", cert, { privateKeyPem: cfg("size"), validityPeriodHours: num(1) })], { config: [{ name: "size", variable: "size", type: "number" }] })));
    expect(code).toContain(".privateKeyPem(String.valueOf(size))");
  });
});

describe("renderJava: resource options", () => {
  it("dependsOn and an explicit provider: CustomResourceOptions (an invoke in depends_on is no resource to depend on)", () => {
    const code = renderJava(
      program([
        { kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: object({ proxyUrl: str("http://proxy") }, model.config), properties: model.config },
        resource("key", key, { algorithm: str("RSA") }),
        invoke("pub", "dataSource", ds("tls_public_key"), {}),
        resource("other", key, { algorithm: str("ED25519") }, { dependsOn: ["key", "pub"], provider: "tlsProvider" }),
        resource("bare", res("tls_string"), {}, { dependsOn: ["key"] }),
      ]),
    );
    expect(body(code)).toBe(`var tlsProvider = new Provider("tls", ProviderArgs.builder()
    .proxyUrl("http://proxy")
    .build());

var key = new PrivateKey("key", PrivateKeyArgs.builder()
    .algorithm("RSA")
    .build());

final var pub = TlsFunctions.getPublicKey();

var other = new PrivateKey("other", PrivateKeyArgs.builder()
    .algorithm("ED25519")
    .build(), CustomResourceOptions.builder()
        .dependsOn(key)
        .provider(tlsProvider)
        .build());

var bare = new com.pulumi.tls.String("bare", StringArgs.Empty, CustomResourceOptions.builder()
        .dependsOn(key)
        .build());`);
    expect(imports(code)).toEqual(expect.arrayContaining(["com.pulumi.resources.CustomResourceOptions", "com.pulumi.tls.Provider", "com.pulumi.tls.ProviderArgs"]));
    // The SDK's String would shadow java.lang.String: written in full, its args class imported.
    expect(imports(code)).not.toContain("com.pulumi.tls.String");
  });
});

describe("renderJava: invokes", () => {
  it("a data source in output form, an explicit provider as InvokeOptions", () => {
    const code = body(
      renderJava(
        program([
          { kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: object({}), properties: model.config },
          invoke("site", "dataSource", ds("tls_certificate"), { url: str("https://example.com") }, { provider: "tlsProvider" }),
          invoke("pub", "dataSource", ds("tls_public_key"), {}, { provider: "tlsProvider" }),
        ]),
      ),
    );
    expect(code).toBe(`var tlsProvider = new Provider("tls");

final var site = TlsFunctions.getCertificate(
    GetCertificateArgs.builder()
        .url("https://example.com")
        .build(),
    InvokeOptions.builder()
        .provider(tlsProvider)
        .build());

final var pub = TlsFunctions.getPublicKey(GetPublicKeyArgs.Empty, InvokeOptions.builder()
    .provider(tlsProvider)
    .build());`);
  });

  it("an ephemeral resource: the ephemeral module's EphemeralFunctions, its result read in a lambda (a result is no Optional)", () => {
    const code = renderJava(
      program([invoke("key", "ephemeral", eph("tls_private_key"), { algorithm: str("ECDSA") }), resource("req", csr, { privateKeyPem: { ...ref("key", "privateKeyPem"), type: { kind: "string" } } })], {
        outputs: [{ name: "pem", value: ref("key", "privateKeyPem") }],
      }),
    );
    expect(body(code)).toBe(`final var key = EphemeralFunctions.getPrivateKey(GetPrivateKeyArgs.builder()
    .algorithm("ECDSA")
    .build());

var req = new CertRequest("req", CertRequestArgs.builder()
    .privateKeyPem(key.applyValue(r -> r.privateKeyPem()))
    .build());

ctx.export("pem", key.applyValue(r -> r.privateKeyPem()));`);
    expect(imports(code)).toEqual(expect.arrayContaining(["com.pulumi.tls.ephemeral.EphemeralFunctions", "com.pulumi.tls.ephemeral.inputs.GetPrivateKeyArgs"]));
  });

  it("provider functions: positional parameters in the schema's order, an object result read in a lambda", () => {
    const parse = found(model.functions, "duration_parse");
    const span = found(model.functions, "span");
    const code = body(
      renderJava(
        program(
          [
            invoke("parsed", "function", entity(parse.token, []), { duration: str("1h") }, { function: parse }),
            invoke("spanned", "function", entity(span.token, []), { until: str("b"), from: str("a"), step: num(2) }, { function: span }),
          ],
          { outputs: [{ name: "hours", value: ref("parsed", "hours") }, { name: "spanned", value: ref("spanned") }] },
        ),
      ),
    );
    expect(code).toBe(`final var parsed = TlsFunctions.durationParse("1h");

final var spanned = TlsFunctions.span("a", "b", 2.0);

ctx.export("hours", parsed.applyValue(r -> r.hours()));
ctx.export("spanned", spanned);`);
  });

  it("a provider function given Outputs: called once they are known (apply)", () => {
    const span = found(model.functions, "span");
    const code = body(
      renderJava(program([resource("key", key, { algorithm: str("RSA") }), invoke("spanned", "function", entity(span.token, []), { from: ref("key", "id"), until: ref("key", "algorithm"), step: num(1) }, { function: span })])),
    );
    expect(code).toContain("final var spanned = Output.tuple(key.id(), key.algorithm()).apply(t -> TlsFunctions.span(t.t1, t.t2, 1.0));");
  });

  it("a provider function with a plain result is left out: Java SDKs type it Output<Void>", () => {
    const join = found(model.functions, "join_with");
    expect(() => renderJava(program([invoke("joined", "function", entity(join.token, []), { separator: str("-"), first: str("a"), second: str("b") }, { function: join })]))).toThrow(
      new ConversionError("join_with returns a string, which Java SDKs type as Output<Void>"),
    );
  });
});

describe("renderJava: names", () => {
  it("another provider's resource: its SDK's classes, nested args named as the bridge names them", () => {
    const code = renderJava(
      program(
        [
          resource("web", entity("aws:index/instance:Instance", [], true), {
            ami: str("ami-123"),
            ebsBlockDevices: { kind: "list", items: [object({ volumeSize: num(8) })] },
          }),
        ],
        { otherProviders: ["aws"] },
      ),
    );
    expect(body(code)).toBe(`var web = new Instance("web", InstanceArgs.builder()
    .ami("ami-123")
    .ebsBlockDevices(InstanceEbsBlockDeviceArgs.builder()
        .volumeSize(8.0)
        .build())
    .build());`);
    expect(imports(code)).toEqual(expect.arrayContaining(["com.pulumi.aws.Instance", "com.pulumi.aws.InstanceArgs", "com.pulumi.aws.inputs.InstanceEbsBlockDeviceArgs"]));
  });

  it("a package named by a Java keyword: its SDK's package gains `_`", () => {
    const code = renderJava(program([resource("previous", entity("null:index/resource:Resource", [], true), {})], { otherProviders: ["null"] }));
    expect(imports(code)).toContain("com.pulumi.null_.Resource");
    expect(body(code)).toBe('var previous = new Resource("previous");');
  });

  it("classes of one name from two packages are both written in full", () => {
    const other = entity("random:ephemeral/getPassword:getPassword", [], true);
    const code = renderJava(program([invoke("key", "ephemeral", eph("tls_private_key"), { algorithm: str("RSA") }), invoke("pw", "ephemeral", other, { length: num(8) })], { otherProviders: ["random"] }));
    expect(body(code)).toContain("final var key = com.pulumi.tls.ephemeral.EphemeralFunctions.getPrivateKey(GetPrivateKeyArgs.builder()");
    expect(body(code)).toContain("final var pw = com.pulumi.random.ephemeral.EphemeralFunctions.getPassword(GetPasswordArgs.builder()");
    expect(imports(code).filter((i) => i.endsWith("EphemeralFunctions"))).toEqual([]);
  });

  it("a variable named like a package (`tls`) is fine; one that would hide `com.` or `java.` gets a `_`", () => {
    const code = body(renderJava(program([resource("tls", key, { algorithm: str("RSA") }), resource("com", key, { algorithm: ref("tls", "algorithm") })])));
    expect(code).toContain('var tls = new PrivateKey("tls"');
    expect(code).toContain('var com_ = new PrivateKey("com"');
  });
});

describe("renderJava: repeated resources", () => {
  // As bind.ts types them: by where they go (a property's values are typed from its schema by `object`), else their own.
  const loopValue = (part: "index" | "key" | "value", type?: TypeModel): Value => ({ kind: "loop", part, ...(type ? { type } : {}) });
  const idx = loopValue("index");
  const idxInTemplate = loopValue("index", { kind: "number" });
  const eachKey = loopValue("key");
  const eachValue = (type?: TypeModel): Value => loopValue("value", type);
  const count = (n: Value): Partial<ResourceNode> => ({ loop: { kind: "count", count: n } });
  const forEach = (items: Value): Partial<ResourceNode> => ({ loop: { kind: "forEach", items } });
  const strings = (...s: string[]): Value => ({ kind: "list", items: s.map((x) => str(x)) });
  const numbers: Value = { kind: "map", entries: [{ key: "small", value: num(2048) }, { key: "big", value: num(4096) }] };

  it("count: a list filled in a counting loop, each instance named after its index (an int: a double where a number goes)", () => {
    const code = renderJava(program([resource("keys", key, { algorithm: tpl("RSA-", idxInTemplate), rsaBits: idx }, count(num(2)))]));
    expect(body(code)).toBe(`final var keys = new ArrayList<PrivateKey>();
for (var i = 0; i < 2; i++) {
    keys.add(new PrivateKey("keys-" + i, PrivateKeyArgs.builder()
        .algorithm(String.format("RSA-%s", i))
        .rsaBits((double) i)
        .build()));
}`);
    expect(imports(code)).toContain("java.util.ArrayList");
  });

  it("count from config: the loop runs to the config's Double; the index as text where a string goes", () => {
    const config: ConfigVariable[] = [{ name: "keys", variable: "keyCount", type: "number", default: num(3) }];
    const code = body(renderJava(program([resource("keys", key, { algorithm: idx }, count(cfg("keyCount")))], { config })));
    expect(code).toContain("final var keyCount = config.getDouble(\"keys\").orElse(3.0);\n\nfinal var keys = new ArrayList<PrivateKey>();\nfor (var i = 0; i < keyCount; i++) {\n    keys.add(new PrivateKey(\"keys-\" + i, PrivateKeyArgs.builder()\n        .algorithm(String.valueOf(i))\n");
  });

  it("count: a lambda reading the index reads an effectively final copy of it", () => {
    const code = body(
      renderJava(
        program([
          resource("key", key, { algorithm: str("RSA") }),
          resource("reqs", csr, { privateKeyPem: ref("key", "privateKeyPem"), labels: { kind: "map", entries: [{ key: "pem", value: ref("key", "id") }, { key: "n", value: loopValue("index", { kind: "string" }) }] } }, count(num(2))),
        ]),
      ),
    );
    expect(code).toContain(`for (var i = 0; i < 2; i++) {
    final var index = i;
    reqs.add(new CertRequest("reqs-" + index, CertRequestArgs.builder()
        .privateKeyPem(key.privateKeyPem())
        .labels(key.id().applyValue(v -> Map.of("pem", v, "n", String.valueOf(index))))
        .build()));
}`);
  });

  it("for_each over a map: a map filled per entry, each.key and each.value from the entry, in nested objects and templates", () => {
    const code = renderJava(
      program([
        resource(
          "certs",
          cert,
          {
            privateKeyPem: tpl("pem-", loopValue("key", { kind: "string" })),
            validityPeriodHours: eachValue(),
            allowedUses: { kind: "list", items: [loopValue("key", { kind: "string" })] },
            subject: object({ commonName: tpl(loopValue("key", { kind: "string" }), ".example.com"), streetAddresses: { kind: "list", items: [eachValue({ kind: "string" })] } }, subjectType.properties, subjectType),
          },
          forEach(numbers),
        ),
      ]),
    );
    expect(body(code)).toBe(`final var certs = new HashMap<String, SelfSignedCert>();
for (final var range : Map.of("small", 2048.0, "big", 4096.0).entrySet()) {
    certs.put(range.getKey(), new SelfSignedCert("certs-" + range.getKey(), SelfSignedCertArgs.builder()
        .privateKeyPem(String.format("pem-%s", range.getKey()))
        .validityPeriodHours(range.getValue())
        .allowedUses(range.getKey())
        .subject(SelfSignedCertSubjectArgs.builder()
            .commonName(String.format("%s.example.com", range.getKey()))
            .streetAddresses(String.valueOf(range.getValue()))
            .build())
        .build()));
}`);
    expect(imports(code)).toEqual(expect.arrayContaining(["java.util.HashMap", "java.util.Map"]));
  });

  it("for_each over a list of strings (toset): each string is key and value", () => {
    const code = body(renderJava(program([resource("keys", key, { algorithm: eachValue(), rsaBits: eachKey }, forEach(strings("2048", "4096")))])));
    expect(code).toBe(`final var keys = new HashMap<String, PrivateKey>();
for (final var key : List.of("2048", "4096")) {
    keys.put(key, new PrivateKey("keys-" + key, PrivateKeyArgs.builder()
        .algorithm(key)
        .rsaBits(Double.parseDouble(key))
        .build()));
}`);
  });

  it("loop variables clear of the program's variables and of the lambdas' parameters", () => {
    const code = body(renderJava(program([resource("i", key, { algorithm: str("RSA") }), resource("range", key, { algorithm: eachValue({ kind: "string" }) }, forEach({ kind: "map", entries: [{ key: "a", value: str("RSA") }] })), resource("n", key, { algorithm: tpl("k", idx) }, count(num(1)))])));
    expect(code).toContain("for (final var range2 : Map.of(\"a\", \"RSA\").entrySet()) {\n    range.put(range2.getKey(), ");
    expect(code).toContain("for (var i2 = 0; i2 < 1; i2++) {");
  });

  it("references to an instance: by index into the list, by key into the map, then into its Outputs", () => {
    const code = body(
      renderJava(
        program(
          [
            resource("keys", key, { algorithm: str("RSA") }, count(num(2))),
            resource("byName", key, { algorithm: eachValue({ kind: "string" }) }, forEach(strings("RSA", "ECDSA"))),
            resource("cert", cert, { privateKeyPem: ref("byName", { key: "RSA" }, "privateKeyPem"), validityPeriodHours: num(1), allowedUses: strings("any") }),
          ],
          { outputs: [{ name: "first", value: ref("keys", 0, "publicKeyOpenssh") }, { name: "rsa", value: ref("byName", { key: "RSA" }, "id") }] },
        ),
      ),
    );
    expect(code).toContain('.privateKeyPem(byName.get("RSA").privateKeyPem())');
    expect(code).toContain('ctx.export("first", keys.get(0).publicKeyOpenssh());\nctx.export("rsa", byName.get("RSA").id());');
  });

  it("from HCL: for_each over toset, an instance referred to attribute-style (`x.a.result`) and by key", () => {
    const code = body(
      renderJava(
        exampleProgram(
          `
resource "tls_private_key" "k" {
  for_each  = toset(["a", "b"])
  algorithm = each.value
}
output "a" {
  value = tls_private_key.k.a.private_key_pem
}
output "b" {
  value = tls_private_key.k["b"].id
}`,
          model,
        ),
      ),
    );
    expect(code).toContain('for (final var key : List.of("a", "b")) {');
    expect(code).toContain('ctx.export("a", k.get("a").privateKeyPem());\nctx.export("b", k.get("b").id());');
  });

  it("depends_on a repeated resource: its instances as a List<Resource>, with others streamed into one", () => {
    const keys = resource("keys", key, { algorithm: str("RSA") }, count(num(2)));
    const named = resource("named", key, { algorithm: eachKey }, forEach(strings("RSA")));
    const one = body(renderJava(program([keys, resource("a", key, { algorithm: str("RSA") }, { dependsOn: ["keys"] })])));
    expect(one).toContain(".dependsOn(new ArrayList<Resource>(keys))");
    const many = body(renderJava(program([keys, named, resource("b", key, { algorithm: str("RSA") }), resource("a", key, { algorithm: str("RSA") }, { dependsOn: ["b", "keys", "named"] })])));
    expect(many).toContain(`CustomResourceOptions.builder()
        .dependsOn(Stream.<Collection<? extends Resource>>of(List.of(b), keys, named.values())
            .flatMap(Collection::stream)
            .collect(Collectors.<Resource>toList()))
        .build());`);
  });

  it("a count or for_each known only after deployment cannot drive a loop; a loop value outside a loop is an error", () => {
    const other = resource("other", key, { algorithm: str("RSA") });
    expect(() => renderJava(program([other, resource("keys", key, { algorithm: str("RSA") }, count(ref("other", "rsaBits")))]))).toThrow(new ConversionError("keys: a count known only after deployment cannot drive a Java loop"));
    expect(() => renderJava(program([other, resource("keys", key, { algorithm: str("RSA") }, forEach({ kind: "list", items: [ref("other", "id")] }))]))).toThrow(
      new ConversionError("keys: for_each over values known only after deployment cannot drive a Java loop"),
    );
    expect(() => renderJava(program([resource("key", key, { algorithm: eachKey })]))).toThrow(ConversionError);
  });
});
