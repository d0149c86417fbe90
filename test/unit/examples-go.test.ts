// renderGo: one case per construct of the example Program model, each compared with the Go program text.
import { describe, expect, it } from "vitest";
import { renderGo } from "../../src/schema-translate/examples/go.js";
import { exampleProgram } from "../../src/schema-translate/examples/index.js";
import { ConversionError } from "../../src/schema-translate/examples/program.js";
import type { Entity, InvokeNode, ObjectValue, PathStep, Program, ProgramNode, ProviderNode, ResourceNode, Value } from "../../src/schema-translate/examples/program.js";
import { buildProviderModel } from "../../src/schema-translate/build.js";
import type { FunctionModel, ObjectTypeModel, PropertyModel, TypeModel } from "../../src/schema-translate/model.js";
import { B, N, S, block, comp, list, map, nested, nestedAttr, obj, opt, provider, req } from "../support/tf-schema.js";

const fnParam = (name: string, type = S) => ({ name, type, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" as const });
const fnBase = { summary: "", description: "", descriptionKind: "plain" as const, deprecationMessage: "" };

const model = buildProviderModel(
  provider({
    config: block([opt("endpoint", S)]),
    resources: {
      tls_private_key: block([req("algorithm", S), opt("rsa_bits", N), comp("private_key_pem", S), comp("public_key_openssh", S)]),
      tls_self_signed_cert: block(
        [
          req("private_key_pem", S),
          req("validity_period_hours", N),
          req("allowed_uses", list(S)),
          opt("dns_names", list(S)),
          opt("early_renewal_hours", N),
          opt("is_ca_certificate", B),
          opt("labels", map(S)),
          comp("cert_pem", S),
        ],
        [nested("subject", "list", block([opt("common_name", S), opt("organization", S), opt("street_address", list(S))]), 0, 1)],
      ),
      tls_cert_request: block(
        [req("private_key_pem", S), nestedAttr("rules", "map", [opt("priority", N), opt("from", S)]), comp("cert_request_pem", S)],
        [nested("subject", "list", block([opt("common_name", S), opt("country", S)]))],
      ),
    },
    dataSources: {
      tls_public_key: block([opt("private_key_pem", S), comp("public_key_openssh", S), comp("id", S)], [nested("match", "list", block([comp("id", S), opt("name", S)]))]),
      tls_private_key: block([req("algorithm", S), comp("private_key_pem", S)]),
    },
    ephemeralResources: { tls_private_key: block([req("algorithm", S), comp("private_key_pem", S)]) },
    functions: {
      duration_parse: { parameters: [fnParam("duration")], returnType: obj({ hours: N, minutes: N }), ...fnBase },
      join_with: { parameters: [fnParam("separator"), fnParam("first"), fnParam("second")], returnType: S, ...fnBase },
      count_of: { parameters: [fnParam("text")], returnType: N, ...fnBase },
    },
  }),
  { packageName: "tls", packageVersion: "4.0.0" },
);

const TLS = "github.com/pulumi/pulumi-terraform-provider/sdks/go/tls/v4/tls";
const AWS = "github.com/pulumi/pulumi-terraform-provider/sdks/go/aws/aws";

function found<T>(m: Map<string, T>, key: string): T {
  const v = m.get(key);
  if (v === undefined) throw new Error(`no ${key} in the model`);
  return v;
}
const entity = (token: string, properties: readonly PropertyModel[]): Entity => ({ pkg: token.split(":")[0]!, token, properties, foreign: false });
const res = (tfName: string): Entity => {
  const r = found(model.resources, tfName);
  return entity(r.token, r.properties);
};
const ds = (tfName: string): Entity => {
  const d = found(model.dataSources, tfName);
  return entity(d.token, d.properties);
};
const eph = (tfName: string): Entity => {
  const d = found(model.ephemeralResources, tfName);
  return entity(d.token, d.properties);
};
const fn = (tfName: string): FunctionModel => found(model.functions, tfName);
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

// Values.
const str = (value: string, type?: TypeModel): Value => ({ kind: "string", value, ...(type ? { type } : {}) });
const num = (value: number, type?: TypeModel): Value => ({ kind: "number", value, ...(type ? { type } : {}) });
const bool = (value: boolean): Value => ({ kind: "bool", value });
const lst = (...items: Value[]): Value => ({ kind: "list", items });
const mp = (entries: Record<string, Value>): Value => ({ kind: "map", entries: Object.entries(entries).map(([key, value]) => ({ key, value })) });
const cfg = (variable: string): Value => ({ kind: "config", variable });
const ref = (node: string, ...path: (string | number | { key: string })[]): Value => ({ kind: "ref", node, path: path.map(step) });
function step(s: string | number | { key: string }): PathStep {
  if (typeof s === "number") return { kind: "index", index: s };
  if (typeof s === "object") return { kind: "key", key: s.key };
  return { kind: "property", tfName: s, name: s };
}
const tpl = (...parts: (string | Value)[]): Value => ({ kind: "template", parts });
const call = (f: "file" | "jsonencode" | "jsondecode" | "trimspace", ...args: Value[]): Value => ({ kind: "call", fn: f, args });
/** An object of schema properties: keys are Pulumi names. */
function object(props: Record<string, Value>, objectType?: ObjectTypeModel): ObjectValue {
  return { kind: "object", properties: Object.entries(props).map(([name, value]) => ({ tfName: name, name, value })), ...(objectType ? { objectType } : {}) };
}

// Nodes.
function resource(variable: string, e: Entity, args: Record<string, Value>, extra: Partial<ResourceNode> = {}): ResourceNode {
  return { kind: "resource", name: variable, variable, entity: e, args: object(args), dependsOn: [], ...extra };
}
function invoke(variable: string, role: InvokeNode["role"], e: Entity, args: Record<string, Value>, extra: Partial<InvokeNode> = {}): InvokeNode {
  return { kind: "invoke", role, name: variable, variable, entity: e, args: object(args), ...extra };
}
function fnCall(variable: string, tfName: string, args: Record<string, Value>): InvokeNode {
  const f = fn(tfName);
  return invoke(variable, "function", entity(f.token, []), args, { function: f });
}
function program(nodes: ProgramNode[], extra: Partial<Program> = {}): Program {
  return { pkg: "tls", config: [], nodes, outputs: [], otherProviders: [], goImports: { tls: TLS }, ...extra };
}
const out = (name: string, value: Value): Program["outputs"][number] => ({ name, value });

/** A whole main.go: imports as the lines inside `import (...)`, the body as the lines inside the closure. */
function goFile(imports: string[], body: string[], tail = ""): string {
  const indented = body.map((l) => l.split("\n").map((x) => (x === "" ? x : `\t\t${x}`)).join("\n"));
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => (i === "" ? "" : `\t${i}`)),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...indented,
    "\t\treturn nil",
    "\t})",
    "}",
  ].join("\n") + `\n${tail}`;
}
const IMPORTS = [`"${TLS}"`, '"github.com/pulumi/pulumi/sdk/v3/go/pulumi"'];
const ONLY_PULUMI = ['"github.com/pulumi/pulumi/sdk/v3/go/pulumi"'];
const ERR = "if err != nil {\n\treturn err\n}";
const READ_FILE = `
func readFileOrPanic(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err.Error())
	}
	return string(data)
}
`;

const key = resource("key", res("tls_private_key"), { algorithm: str("ED25519") });
const KEY = ['key, err := tls.NewPrivateKey(ctx, "key", &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("ED25519"),\n})', ERR];

const certProps = res("tls_self_signed_cert").properties;
const subjectType = objectTypeOf(prop(certProps, "subject").type);
const csrProps = res("tls_cert_request").properties;
const csrSubjectType = objectTypeOf(prop(csrProps, "subjects").type);
const ruleType = objectTypeOf(prop(csrProps, "rules").type);
const pubProps = ds("tls_public_key").properties;
const matchType = objectTypeOf(prop(pubProps, "matches").type);

describe("renderGo: values as stack outputs (no schema type: the literal's own)", () => {
  const cases: [string, Value, string][] = [
    ["a string", str("RSA"), 'pulumi.String("RSA")'],
    ["a string with quotes, a backslash, a tab and a control character", str('say "hi"\\\t\u0001'), 'pulumi.String("say \\"hi\\"\\\\\\t\\u0001")'],
    ["a multi-line string holding a backquote stays interpreted", str("a`b\nc"), 'pulumi.String("a`b\\nc")'],
    ["an integer and a fraction, both float64", lst(num(2048), num(0.5), num(-3)), "pulumi.Array{pulumi.Float64(2048), pulumi.Float64(0.5), pulumi.Float64(-3)}"],
    ["booleans", lst(bool(true), bool(false)), "pulumi.Array{pulumi.Bool(true), pulumi.Bool(false)}"],
    ["null", { kind: "null" }, "nil"],
    ["an empty list", lst(), "pulumi.Array{}"],
    ["a map: keys as given", mp({ "Key-One": str("a"), two: num(2) }), 'pulumi.Map{"Key-One": pulumi.String("a"), "two": pulumi.Float64(2)}'],
    [
      "a long list: one element a line",
      lst(str("us-west-1a"), str("us-west-1b"), str("us-west-1c"), str("us-west-1d")),
      'pulumi.Array{\n\tpulumi.String("us-west-1a"),\n\tpulumi.String("us-west-1b"),\n\tpulumi.String("us-west-1c"),\n\tpulumi.String("us-west-1d"),\n}',
    ],
    [
      "a map of many entries: values aligned as gofmt aligns them, a multi-line entry apart",
      mp({ a: str("1"), longer: str("2"), nested: lst(str("us-west-1a"), str("us-west-1b"), str("us-west-1c"), str("us-west-1d")), b: str("3") }),
      'pulumi.Map{\n\t"a":      pulumi.String("1"),\n\t"longer": pulumi.String("2"),\n\t"nested": pulumi.Array{\n\t\tpulumi.String("us-west-1a"),\n\t\tpulumi.String("us-west-1b"),\n\t\tpulumi.String("us-west-1c"),\n\t\tpulumi.String("us-west-1d"),\n\t},\n\t"b": pulumi.String("3"),\n}',
    ],
  ];
  it.each(cases)("%s", (_, value, expected) => {
    expect(renderGo(program([], { outputs: [out("v", value)] }))).toBe(goFile(ONLY_PULUMI, [`ctx.Export("v", ${expected})`]));
  });
});

it("renderGo: a multi-line string is a raw string, its lines left as they are", () => {
  expect(renderGo(program([], { outputs: [out("v", str("line one\n  line two\n"))] }))).toBe(
    goFile(ONLY_PULUMI, []).replace("\t\treturn nil", '\t\tctx.Export("v", pulumi.String(`line one\n  line two\n`))\n\t\treturn nil'),
  );
});

describe("renderGo: arguments typed by the schema", () => {
  const cert = (args: Record<string, Value>): string => renderGo(program([resource("cert", res("tls_self_signed_cert"), args)]));
  const certFile = (fields: string): string => goFile(IMPORTS, [`_, err := tls.NewSelfSignedCert(ctx, "cert", &tls.SelfSignedCertArgs{\n${fields}\n})`, ERR]);
  const cases: [string, Record<string, Value>, string][] = [
    ["a string, a number and a bool: aligned values", { privateKeyPem: str("pem"), validityPeriodHours: num(12), isCaCertificate: bool(true) }, '\tPrivateKeyPem:       pulumi.String("pem"),\n\tValidityPeriodHours: pulumi.Float64(12),\n\tIsCaCertificate:     pulumi.Bool(true),'],
    ["a number where a string is wanted", { privateKeyPem: num(3) }, '\tPrivateKeyPem: pulumi.String("3"),'],
    ["a numeric string where a number is wanted", { validityPeriodHours: str("42") }, "\tValidityPeriodHours: pulumi.Float64(42),"],
    ["a string where a bool is wanted", { isCaCertificate: str("true") }, "\tIsCaCertificate: pulumi.Bool(true),"],
    ["a list of strings", { allowedUses: lst(str("a"), str("b")) }, '\tAllowedUses: pulumi.StringArray{pulumi.String("a"), pulumi.String("b")},'],
    ["a map of strings", { labels: mp({ team: str("x") }) }, '\tLabels: pulumi.StringMap{"team": pulumi.String("x")},'],
    ["null leaves the field out", { dnsNames: { kind: "null" }, privateKeyPem: str("pem") }, '\tPrivateKeyPem: pulumi.String("pem"),'],
    [
      "a single nested block (max one): a pointer to its Args, a multi-line field apart from the aligned ones",
      { privateKeyPem: str("pem"), subject: object({ commonName: str("example.com"), streetAddresses: lst(str("1 Main St")) }, subjectType), validityPeriodHours: num(1), isCaCertificate: bool(false) },
      '\tPrivateKeyPem: pulumi.String("pem"),\n\tSubject: &tls.SelfSignedCertSubjectArgs{\n\t\tCommonName:      pulumi.String("example.com"),\n\t\tStreetAddresses: pulumi.StringArray{pulumi.String("1 Main St")},\n\t},\n\tValidityPeriodHours: pulumi.Float64(1),\n\tIsCaCertificate:     pulumi.Bool(false),',
    ],
  ];
  it.each(cases)("%s", (_, args, fields) => {
    expect(cert(args)).toBe(certFile(fields));
  });

  it("a list of nested blocks and a map of nested objects: <Type>Array and <Type>Map of &<Type>Args", () => {
    const csr = resource("csr", res("tls_cert_request"), {
      privateKeyPem: str("pem"),
      subjects: { kind: "list", items: [object({ commonName: str("a"), country: str("NL") }, csrSubjectType)], type: prop(csrProps, "subjects").type },
      rules: { kind: "map", entries: [{ key: "web", value: object({ priority: num(1) }, ruleType) }], type: prop(csrProps, "rules").type },
    });
    expect(renderGo(program([csr]))).toBe(
      goFile(IMPORTS, [
        [
          '_, err := tls.NewCertRequest(ctx, "csr", &tls.CertRequestArgs{',
          '\tPrivateKeyPem: pulumi.String("pem"),',
          "\tSubjects: tls.CertRequestSubjectArray{",
          "\t\t&tls.CertRequestSubjectArgs{",
          '\t\t\tCommonName: pulumi.String("a"),',
          '\t\t\tCountry:    pulumi.String("NL"),',
          "\t\t},",
          "\t},",
          "\tRules: tls.CertRequestRulesMap{",
          '\t\t"web": &tls.CertRequestRulesArgs{',
          "\t\t\tPriority: pulumi.Float64(1),",
          "\t\t},",
          "\t},",
          "})",
        ].join("\n"),
        ERR,
      ]),
    );
  });

  it("a resource given no arguments gets nil", () => {
    expect(renderGo(program([resource("k", res("tls_private_key"), {})]))).toBe(goFile(IMPORTS, ['_, err := tls.NewPrivateKey(ctx, "k", nil)', ERR]));
  });
});

describe("renderGo: references", () => {
  const pub = invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: ref("key", "privateKeyPem") });
  const PUB = 'pub := tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{\n\tPrivateKeyPem: key.PrivateKeyPem,\n})';
  const certWith = (args: Record<string, Value>): ResourceNode => resource("cert", res("tls_self_signed_cert"), args);
  const cases: [string, ProgramNode[], Value, string[], string][] = [
    ["a resource's output: a field", [key], ref("key", "publicKeyOpenssh"), KEY, "key.PublicKeyOpenssh"],
    ["a resource's id: ID()", [key], ref("key", "id"), KEY, "key.ID()"],
    ["an invoke's result: an accessor method", [key, pub], ref("pub", "publicKeyOpenssh"), [...KEY, PUB], "pub.PublicKeyOpenssh()"],
    ["an index into a data source's nested list, then a property", [key, pub], ref("pub", "matches", 0, "id"), [...KEY, PUB], "pub.Matches().Index(pulumi.Int(0)).Id()"],
    [
      "a map key",
      [certWith({ labels: mp({ a: str("b") }) })],
      ref("cert", "labels", { key: "a" }),
      ['cert, err := tls.NewSelfSignedCert(ctx, "cert", &tls.SelfSignedCertArgs{\n\tLabels: pulumi.StringMap{"a": pulumi.String("b")},\n})', ERR],
      'cert.Labels.MapIndex(pulumi.String("a"))',
    ],
    [
      "into a single nested block: its pointer output's accessor",
      [certWith({})],
      ref("cert", "subject", "commonName"),
      ['cert, err := tls.NewSelfSignedCert(ctx, "cert", nil)', ERR],
      "cert.Subject.CommonName()",
    ],
  ];
  it.each(cases)("%s", (_, nodes, value, body, expected) => {
    expect(renderGo(program(nodes, { outputs: [out("v", value)] }))).toBe(goFile(IMPORTS, [...body, `ctx.Export("v", ${expected})`]));
  });

  const fits: [string, Record<string, Value>, string][] = [
    ["a required output into a required field as it is", { privateKeyPem: ref("key", "privateKeyPem") }, "\tPrivateKeyPem: key.PrivateKeyPem,"],
    ["an optional (pointer) output into a required field: Elem()", { validityPeriodHours: ref("key", "rsaBits") }, "\tValidityPeriodHours: key.RsaBits.Elem(),"],
    ["an optional output into an optional field as it is", { earlyRenewalHours: ref("key", "rsaBits") }, "\tEarlyRenewalHours: key.RsaBits,"],
    ["an id into a required string as it is (IDOutput is a StringInput)", { privateKeyPem: ref("key", "id") }, "\tPrivateKeyPem: key.ID(),"],
    ["a number into a string: Sprintf", { privateKeyPem: ref("key", "rsaBits") }, '\tPrivateKeyPem: pulumi.Sprintf("%v", key.RsaBits.Elem()),'],
    ["outputs as list elements", { allowedUses: lst(ref("key", "privateKeyPem"), ref("key", "id")) }, "\tAllowedUses: pulumi.StringArray{key.PrivateKeyPem, key.ID()},"],
  ];
  it.each(fits)("%s", (_, args, fields) => {
    expect(renderGo(program([key, resource("cert", res("tls_self_signed_cert"), args)]))).toBe(
      goFile(IMPORTS, [...KEY, `_, err = tls.NewSelfSignedCert(ctx, "cert", &tls.SelfSignedCertArgs{\n${fields}\n})`, ERR]),
    );
  });

  it("an id into an optional string: ToStringOutput(), IDOutput being no StringPtrInput", () => {
    expect(renderGo(program([key, invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: ref("key", "id") })]))).toBe(
      goFile(IMPORTS, [...KEY, "_ = tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{\n\tPrivateKeyPem: key.ID().ToStringOutput(),\n})"]),
    );
  });
});

describe("renderGo: templates and builtins", () => {
  const config: Program["config"] = [{ name: "prefix", variable: "prefix", type: "string" }];
  const CFG = ['cfg := config.New(ctx, "")', 'prefix := cfg.Require("prefix")'];
  const CONFIG = '"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"';
  const cases: [string, Value, string[], string[], string, string?][] = [
    ["a template with outputs: pulumi.Sprintf, % doubled", tpl(ref("key", "id"), "-", cfg("prefix"), " 100%"), [...IMPORTS, CONFIG], [], 'pulumi.Sprintf("%v-%v 100%%", key.ID(), prefix)'],
    ["a template of plain values: fmt.Sprintf", tpl("web-", cfg("prefix")), ['"fmt"', "", ...IMPORTS, CONFIG], [], 'pulumi.String(fmt.Sprintf("web-%v", prefix))'],
    ["an optional output in a template: Elem()", tpl("bits ", ref("key", "rsaBits")), [...IMPORTS, CONFIG], [], 'pulumi.Sprintf("bits %v", key.RsaBits.Elem())'],
    ["file: readFileOrPanic", call("file", str("key.pem")), ['"os"', "", ...IMPORTS, CONFIG], [], 'pulumi.String(readFileOrPanic("key.pem"))', READ_FILE],
    ["trimspace of a plain value", call("trimspace", call("file", str("k"))), ['"os"', '"strings"', "", ...IMPORTS, CONFIG], [], 'pulumi.String(strings.TrimSpace(readFileOrPanic("k")))', READ_FILE],
    ["trimspace of an output: ApplyT", call("trimspace", ref("key", "privateKeyPem")), ['"strings"', "", ...IMPORTS, CONFIG], [], "key.PrivateKeyPem.ApplyT(strings.TrimSpace).(pulumi.StringOutput)"],
    [
      "jsonencode of plain values: json.Marshal into tmpJSON0 first",
      call("jsonencode", mp({ name: cfg("prefix"), sizes: lst(num(1), num(2)) })),
      ['"encoding/json"', "", ...IMPORTS, CONFIG],
      ['tmpJSON0, err := json.Marshal(map[string]interface{}{"name": prefix, "sizes": []interface{}{1, 2}})', ERR],
      "pulumi.String(string(tmpJSON0))",
    ],
    ["jsonencode with outputs: pulumi.JSONMarshal", call("jsonencode", mp({ pem: ref("key", "privateKeyPem") })), [...IMPORTS, CONFIG], [], 'pulumi.JSONMarshal(pulumi.Map{"pem": key.PrivateKeyPem})'],
    ["jsondecode: pulumi.JSONUnmarshal", call("jsondecode", ref("key", "privateKeyPem")), [...IMPORTS, CONFIG], [], "pulumi.JSONUnmarshal(key.PrivateKeyPem)"],
  ];
  it.each(cases)("%s", (_, value, imports, pre, expected, tail) => {
    const p = program([key], { config, outputs: [out("v", value)] });
    // The config variable and the key are read in every case, so `cfg` and `key` are there throughout.
    p.outputs.push(out("p", cfg("prefix")), out("k", ref("key", "id")));
    const reads = ['ctx.Export("p", pulumi.String(prefix))', 'ctx.Export("k", key.ID())'];
    expect(renderGo(p)).toBe(goFile(imports, [...CFG, ...KEY, ...pre, `ctx.Export("v", ${expected})`, ...reads], tail ?? ""));
  });
});

describe("renderGo: stack configuration", () => {
  const CONFIG_IMPORTS = [...ONLY_PULUMI, '"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'];
  const cases: [string, Program["config"][number], string[], string][] = [
    ["a required string", { name: "ami_id", variable: "amiId", type: "string" }, ['amiId := cfg.Require("ami_id")'], "pulumi.String(amiId)"],
    ["a required number", { name: "size", variable: "size", type: "number" }, ['size := cfg.RequireFloat64("size")'], "pulumi.Float64(size)"],
    ["a required bool", { name: "on", variable: "on", type: "boolean" }, ['on := cfg.RequireBool("on")'], "pulumi.Bool(on)"],
    ["a string with a default", { name: "name", variable: "name", type: "string", default: str("web") }, ['name := "web"', 'if param, err := cfg.Try("name"); err == nil {\n\tname = param\n}'], "pulumi.String(name)"],
    ["a number with a default", { name: "size", variable: "size", type: "number", default: num(16) }, ["size := float64(16)", 'if param, err := cfg.TryFloat64("size"); err == nil {\n\tsize = param\n}'], "pulumi.Float64(size)"],
    ["a bool with a default", { name: "on", variable: "on", type: "boolean", default: bool(true) }, ["on := true", 'if param, err := cfg.TryBool("on"); err == nil {\n\ton = param\n}'], "pulumi.Bool(on)"],
  ];
  it.each(cases)("%s", (_, c, lines, expected) => {
    expect(renderGo(program([], { config: [c], outputs: [out("v", cfg(c.variable))] }))).toBe(
      goFile(CONFIG_IMPORTS, ['cfg := config.New(ctx, "")', ...lines, `ctx.Export("v", ${expected})`]),
    );
  });

  it("a required variable nothing reads is still required; one with a default is left out, and so is cfg", () => {
    const unused = (c: Program["config"][number]): string => renderGo(program([], { config: [c] }));
    expect(unused({ name: "ami_id", variable: "amiId", type: "string" })).toBe(goFile(CONFIG_IMPORTS, ['cfg := config.New(ctx, "")', '_ = cfg.Require("ami_id")']));
    expect(unused({ name: "ami_id", variable: "amiId", type: "string", default: str("x") })).toBe(goFile(ONLY_PULUMI, []));
  });
});

describe("renderGo: resource options and explicit providers", () => {
  it("dependsOn lists resources; a second `_` result reuses err with =", () => {
    const k2 = resource("other", res("tls_private_key"), { algorithm: str("RSA") }, { dependsOn: ["key"] });
    expect(renderGo(program([key, k2]))).toBe(
      goFile(IMPORTS, [...KEY, '_, err = tls.NewPrivateKey(ctx, "other", &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("RSA"),\n}, pulumi.DependsOn([]pulumi.Resource{key}))', ERR]),
    );
  });

  it("an explicit provider: NewProvider, then pulumi.Provider on resources and invokes", () => {
    const p: ProviderNode = { kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: object({ endpoint: str("https://proxy") }), properties: model.config };
    const k = resource("key", res("tls_private_key"), { algorithm: str("RSA") }, { provider: "tlsProvider" });
    const d = invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: ref("key", "privateKeyPem") }, { provider: "tlsProvider" });
    expect(renderGo(program([p, k, d]))).toBe(
      goFile(IMPORTS, [
        'tlsProvider, err := tls.NewProvider(ctx, "tls", &tls.ProviderArgs{\n\tEndpoint: pulumi.String("https://proxy"),\n})',
        ERR,
        'key, err := tls.NewPrivateKey(ctx, "key", &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("RSA"),\n}, pulumi.Provider(tlsProvider))',
        ERR,
        "_ = tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{\n\tPrivateKeyPem: key.PrivateKeyPem,\n}, pulumi.Provider(tlsProvider))",
      ]),
    );
  });
});

describe("renderGo: invokes in their output form", () => {
  it("a data source: <Fn>Output with <Fn>OutputArgs; `_ =` when nothing reads it", () => {
    expect(renderGo(program([invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: str("pem") })]))).toBe(
      goFile(IMPORTS, ['_ = tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{\n\tPrivateKeyPem: pulumi.String("pem"),\n})']),
    );
  });

  it("a data source's nested block argument: its <Type>Array of &<Type>Args, as the output form's args take them", () => {
    const matches: Value = { kind: "list", items: [object({ name: str("x") }, matchType)], type: prop(pubProps, "matches").type };
    expect(renderGo(program([invoke("pub", "dataSource", ds("tls_public_key"), { matches })]))).toBe(
      goFile(IMPORTS, ['_ = tls.GetPublicKeyOutput(ctx, tls.GetPublicKeyOutputArgs{\n\tMatches: tls.GetPublicKeyMatchArray{\n\t\t&tls.GetPublicKeyMatchArgs{\n\t\t\tName: pulumi.String("x"),\n\t\t},\n\t},\n})']),
    );
  });

  it("a data source sharing a resource's name is Lookup…, as the Go generator renames it", () => {
    const p = program([invoke("k", "dataSource", ds("tls_private_key"), { algorithm: str("RSA") })], { outputs: [out("pem", ref("k", "privateKeyPem"))] });
    const expected = goFile(IMPORTS, ['k := tls.LookupPrivateKeyOutput(ctx, tls.LookupPrivateKeyOutputArgs{\n\tAlgorithm: pulumi.String("RSA"),\n})', 'ctx.Export("pem", k.PrivateKeyPem())']);
    expect(renderGo(p, { resourceTokens: [...model.resources.values()].map((r) => r.token) })).toBe(expected);
    // Without the schema's resources, the example's own resource of that name tells it too.
    expect(renderGo({ ...p, nodes: [key, ...p.nodes] })).toContain("tls.LookupPrivateKeyOutput(ctx, tls.LookupPrivateKeyOutputArgs{");
  });

  it("an ephemeral resource: the ephemeral module's package", () => {
    expect(renderGo(program([invoke("k", "ephemeral", eph("tls_private_key"), { algorithm: str("RSA") })], { outputs: [out("pem", ref("k", "privateKeyPem"))] }))).toBe(
      goFile([`"${TLS}/ephemeral"`, ...ONLY_PULUMI], ['k := ephemeral.GetPrivateKeyOutput(ctx, ephemeral.GetPrivateKeyOutputArgs{\n\tAlgorithm: pulumi.String("RSA"),\n})', 'ctx.Export("pem", k.PrivateKeyPem())']),
    );
  });

  it("a provider function with an object result: positional arguments, accessors on the result", () => {
    const p = program([fnCall("parsed", "duration_parse", { duration: str("1h") })], { outputs: [out("hours", ref("parsed", "hours"))] });
    expect(renderGo(p)).toBe(goFile(IMPORTS, ['parsed := tls.DurationParseOutput(ctx, pulumi.String("1h"))', 'ctx.Export("hours", parsed.Hours())']));
  });

  it("a provider function with several arguments and a plain result: the result is the Output itself", () => {
    const joined = fnCall("joined", "join_with", { separator: str("-"), first: ref("key", "id"), second: str("b") });
    const counted = fnCall("counted", "count_of", { text: ref("joined") });
    const p = program([key, joined, counted, resource("cert", res("tls_self_signed_cert"), { privateKeyPem: ref("joined"), validityPeriodHours: ref("counted") })]);
    expect(renderGo(p)).toBe(
      goFile(IMPORTS, [
        ...KEY,
        'joined := tls.JoinWithOutput(ctx, pulumi.String("-"), key.ID(), pulumi.String("b"))',
        "counted := tls.CountOfOutput(ctx, joined)",
        '_, err = tls.NewSelfSignedCert(ctx, "cert", &tls.SelfSignedCertArgs{\n\tPrivateKeyPem:       joined,\n\tValidityPeriodHours: counted,\n})',
        ERR,
      ]),
    );
  });
});

describe("renderGo: outputs, other providers and names", () => {
  it("stack outputs are named in camelCase, as pulumi convert names them", () => {
    expect(renderGo(program([key], { outputs: [out("public_key", ref("key", "publicKeyOpenssh"))] }))).toBe(
      goFile(IMPORTS, [...KEY, 'ctx.Export("publicKey", key.PublicKeyOpenssh)']),
    );
  });

  it("another provider's resource: its package by goImports, arguments typed by their values", () => {
    const web = resource("web", { pkg: "aws", token: "aws:index/instance:Instance", properties: [], foreign: true }, {
      ami: str("ami-1"),
      tags: mp({ Name: tpl("web-", ref("key", "id")) }),
      rootBlockDevice: object({ volumeSize: num(8) }),
    });
    expect(renderGo(program([key, web], { otherProviders: ["aws"], goImports: { tls: TLS, aws: AWS } }))).toBe(
      goFile([`"${AWS}"`, ...IMPORTS], [
        ...KEY,
        '_, err = aws.NewInstance(ctx, "web", &aws.InstanceArgs{\n\tAmi:  pulumi.String("ami-1"),\n\tTags: pulumi.Map{"Name": pulumi.Sprintf("web-%v", key.ID())},\n\tRootBlockDevice: pulumi.Map{\n\t\t"volumeSize": pulumi.Float64(8),\n\t},\n})',
        ERR,
      ]),
    );
  });

  it("a variable named like an import or a Go keyword steps aside with a trailing _", () => {
    const strings = resource("strings", res("tls_private_key"), { algorithm: str("RSA") });
    const typ = resource("type", res("tls_private_key"), { algorithm: call("trimspace", ref("strings", "privateKeyPem")) });
    const tls = resource("tls", res("tls_private_key"), { algorithm: ref("type", "id") });
    expect(renderGo(program([strings, typ, tls], { outputs: [out("v", ref("tls", "id"))] }))).toBe(
      goFile(['"strings"', "", ...IMPORTS], [
        'strings_, err := tls.NewPrivateKey(ctx, "strings", &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("RSA"),\n})',
        ERR,
        'type_, err := tls.NewPrivateKey(ctx, "type", &tls.PrivateKeyArgs{\n\tAlgorithm: strings_.PrivateKeyPem.ApplyT(strings.TrimSpace).(pulumi.StringOutput),\n})',
        ERR,
        'tls_, err := tls.NewPrivateKey(ctx, "tls", &tls.PrivateKeyArgs{\n\tAlgorithm: type_.ID(),\n})',
        ERR,
        'ctx.Export("v", tls_.ID())',
      ]),
    );
  });
});

describe("renderGo: repeated resources (count, for_each) as pulumi convert writes them", () => {
  const index: Value = { kind: "loop", part: "index", type: { kind: "number" } };
  const eachKey: Value = { kind: "loop", part: "key", type: { kind: "string" } };
  const eachValue = (type?: TypeModel): Value => ({ kind: "loop", part: "value", ...(type ? { type } : {}) });
  const loop = (body: string[]): string => body.map((l) => l.split("\n").map((x) => (x === "" ? x : `\t${x}`)).join("\n")).join("\n");
  const FMT = ['"fmt"', "", ...IMPORTS];

  it("count: a slice appended to in a counting loop; the index in a template inside a nested block, as a number, and read by index", () => {
    const certs = resource(
      "certs",
      res("tls_self_signed_cert"),
      { privateKeyPem: str("pem"), validityPeriodHours: index, subject: object({ commonName: tpl("host", index, ".example.com") }, subjectType) },
      { loop: { kind: "count", count: num(2) } },
    );
    expect(renderGo(program([certs], { outputs: [out("first", ref("certs", 0, "certPem"))] }))).toBe(
      goFile(FMT, [
        "var certs []*tls.SelfSignedCert",
        [
          "for index := 0; index < 2; index++ {",
          loop([
            "key0 := index",
            "val0 := index",
            '__res, err := tls.NewSelfSignedCert(ctx, fmt.Sprintf("certs-%v", key0), &tls.SelfSignedCertArgs{',
            '\tPrivateKeyPem:       pulumi.String("pem"),',
            "\tValidityPeriodHours: pulumi.Float64(float64(val0)),",
            "\tSubject: &tls.SelfSignedCertSubjectArgs{",
            '\t\tCommonName: pulumi.String(fmt.Sprintf("host%v.example.com", val0)),',
            "\t},",
            "})",
            ERR,
            "certs = append(certs, __res)",
          ]),
          "}",
        ].join("\n"),
        'ctx.Export("first", certs[0].CertPem)',
      ]),
    );
  });

  it("a count from configuration: int(...) of the float64; an unread index declares no val0", () => {
    const keys = resource("keys", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "count", count: cfg("n") } });
    const p = program([keys], { config: [{ name: "n", variable: "n", type: "number" }], outputs: [out("v", ref("keys", 1, "id"))] });
    expect(renderGo(p)).toBe(
      goFile(['"fmt"', "", ...IMPORTS, '"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'], [
        'cfg := config.New(ctx, "")',
        'n := cfg.RequireFloat64("n")',
        "var keys []*tls.PrivateKey",
        [
          "for index := 0; index < int(n); index++ {",
          loop(["key0 := index", '__res, err := tls.NewPrivateKey(ctx, fmt.Sprintf("keys-%v", key0), &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("RSA"),\n})', ERR, "keys = append(keys, __res)"]),
          "}",
        ].join("\n"),
        'ctx.Export("v", keys[1].ID())',
      ]),
    );
  });

  it("for_each over a map: a map of resources filled by key, each.value typed by the map's values, read by key", () => {
    const keys = resource("keys", res("tls_private_key"), { algorithm: eachValue({ kind: "string" }) }, { loop: { kind: "forEach", items: mp({ ec: str("ECDSA"), ed: str("ED25519") }) } });
    const cert = resource("cert", res("tls_self_signed_cert"), { privateKeyPem: ref("keys", { key: "ec" }, "privateKeyPem"), labels: mp({ key: eachKey }) }, {
      loop: { kind: "forEach", items: mp({ a: num(1) }) },
    });
    expect(renderGo(program([keys, cert]))).toBe(
      goFile(FMT, [
        "keys := map[string]*tls.PrivateKey{}",
        [
          'for key0, val0 := range map[string]string{"ec": "ECDSA", "ed": "ED25519"} {',
          loop(['__res, err := tls.NewPrivateKey(ctx, fmt.Sprintf("keys-%v", key0), &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String(val0),\n})', ERR, "keys[key0] = __res"]),
          "}",
        ].join("\n"),
        [
          'for key0 := range map[string]float64{"a": 1} {',
          loop([
            '_, err := tls.NewSelfSignedCert(ctx, fmt.Sprintf("cert-%v", key0), &tls.SelfSignedCertArgs{\n\tPrivateKeyPem: keys["ec"].PrivateKeyPem,\n\tLabels:        pulumi.StringMap{"key": pulumi.String(key0)},\n})',
            ERR,
          ]),
          "}",
        ].join("\n"),
      ]),
    );
  });

  it("for_each over a list of strings: a range over the keys, each.value being the key", () => {
    const keys = resource("keys", res("tls_private_key"), { algorithm: eachValue({ kind: "string" }), rsaBits: index }, { loop: { kind: "forEach", items: lst(str("RSA"), str("ECDSA")) } });
    // `count.index` cannot occur under for_each; the binder never makes one, so rsaBits is left out here.
    keys.args.properties.pop();
    expect(renderGo(program([keys], { outputs: [out("rsa", ref("keys", { key: "RSA" }, "privateKeyPem"))] }))).toBe(
      goFile(FMT, [
        "keys := map[string]*tls.PrivateKey{}",
        [
          'for _, key0 := range []string{"RSA", "ECDSA"} {',
          loop(['__res, err := tls.NewPrivateKey(ctx, fmt.Sprintf("keys-%v", key0), &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String(key0),\n})', ERR, "keys[key0] = __res"]),
          "}",
        ].join("\n"),
        'ctx.Export("rsa", keys["RSA"].PrivateKeyPem)',
      ]),
    );
  });

  it("a map of mixed values ranges over interface{}: each.value asserted where a number goes, Sprint where a string goes", () => {
    const cert = resource("cert", res("tls_self_signed_cert"), { validityPeriodHours: eachValue(), privateKeyPem: eachValue() }, { loop: { kind: "forEach", items: mp({ a: num(1), b: str("x") }) } });
    expect(renderGo(program([cert]))).toContain(
      [
        'for key0, val0 := range map[string]interface{}{"a": float64(1), "b": "x"} {',
        '\t_, err := tls.NewSelfSignedCert(ctx, fmt.Sprintf("cert-%v", key0), &tls.SelfSignedCertArgs{',
        "\t\tValidityPeriodHours: pulumi.Float64(val0.(float64)),",
        "\t\tPrivateKeyPem:       pulumi.String(fmt.Sprint(val0)),",
      ]
        .map((l) => `\t\t${l}`)
        .join("\n"),
    );
  });

  it("statements a loop's arguments need (json.Marshal) go inside the loop; err outside is left as it was", () => {
    const k = resource("k", res("tls_private_key"), { algorithm: call("jsonencode", mp({ i: index })) }, { loop: { kind: "count", count: num(1) } });
    const after = resource("after", res("tls_private_key"), { algorithm: str("RSA") });
    expect(renderGo(program([k, after]))).toBe(
      goFile(['"encoding/json"', '"fmt"', "", ...IMPORTS], [
        [
          "for index := 0; index < 1; index++ {",
          loop([
            "key0 := index",
            "val0 := index",
            'tmpJSON0, err := json.Marshal(map[string]interface{}{"i": val0})',
            ERR,
            '_, err = tls.NewPrivateKey(ctx, fmt.Sprintf("k-%v", key0), &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String(string(tmpJSON0)),\n})',
            ERR,
          ]),
          "}",
        ].join("\n"),
        '_, err := tls.NewPrivateKey(ctx, "after", &tls.PrivateKeyArgs{\n\tAlgorithm: pulumi.String("RSA"),\n})',
        ERR,
      ]),
    );
  });

  it("a program variable named like a loop variable steps aside", () => {
    const idx = resource("index", res("tls_private_key"), { algorithm: str("RSA") });
    const keys = resource("keys", res("tls_private_key"), { algorithm: ref("index", "id") }, { loop: { kind: "count", count: num(1) } });
    const text = renderGo(program([idx, keys]));
    expect(text).toContain('index_, err := tls.NewPrivateKey(ctx, "index"');
    expect(text).toContain("\tAlgorithm: index_.ID(),");
  });

  const refusals: [string, ResourceNode[], RegExp][] = [
    ["a count known only after deployment", [key, resource("k", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "count", count: ref("key", "rsaBits") } })], /k: a count known only after deployment cannot drive a Go loop/],
    [
      "for_each over outputs",
      [key, resource("k", res("tls_private_key"), { algorithm: eachValue() }, { loop: { kind: "forEach", items: mp({ a: ref("key", "id") }) } })],
      /k: for_each over values known only after deployment cannot drive a Go loop/,
    ],
    [
      "depends_on a repeated resource",
      [resource("k", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "count", count: num(2) } }), resource("o", res("tls_private_key"), { algorithm: str("RSA") }, { dependsOn: ["k"] })],
      /depends_on a repeated resource \(k\) is not rendered in Go/,
    ],
  ];
  it.each(refusals)("refuses %s with a ConversionError", (_, nodes, message) => {
    expect(() => renderGo(program(nodes))).toThrow(ConversionError);
    expect(() => renderGo(program(nodes))).toThrow(message);
  });

  it("from HCL: references by index, by key and attribute-style key, through the binder", () => {
    const text = renderGo(
      exampleProgram(
        `
resource "tls_private_key" "keys" {
  for_each  = toset(["a", "b"])
  algorithm = each.key
}
resource "tls_private_key" "n" {
  count     = 2
  algorithm = "RSA"
}
output "by_key" {
  value = tls_private_key.keys["a"].private_key_pem
}
output "by_attribute" {
  value = tls_private_key.keys.b.private_key_pem
}
output "by_index" {
  value = tls_private_key.n[1].id
}`,
        model,
      ),
    );
    expect(text).toContain('ctx.Export("byKey", keys["a"].PrivateKeyPem)\n');
    expect(text).toContain('ctx.Export("byAttribute", keys["b"].PrivateKeyPem)\n');
    expect(text).toContain('ctx.Export("byIndex", n[1].ID())\n');
  });
});
