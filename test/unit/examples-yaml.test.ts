// renderYaml: one case per construct of the example Program model, against the Pulumi YAML program it must be; and
// the quoting of the emitter (every scalar read back as written).
import { describe, expect, it } from "vitest";
import type { FunctionModel, ObjectTypeModel } from "../../src/schema-translate/model.js";
import { renderYaml, yamlString } from "../../src/schema-translate/examples/yaml.js";
import { ConversionError, type ConfigVariable, type Entity, type InvokeNode, type ObjectValue, type PathStep, type Program, type ResourceNode, type Value } from "../../src/schema-translate/examples/program.js";

const str = (value: string): Value => ({ kind: "string", value });
const num = (value: number): Value => ({ kind: "number", value });
const bool = (value: boolean): Value => ({ kind: "bool", value });
const list = (...items: Value[]): Value => ({ kind: "list", items });
const map = (...entries: [string, Value][]): Value => ({ kind: "map", entries: entries.map(([key, value]) => ({ key, value })) });
const obj = (props: [string, Value][], objectType?: ObjectTypeModel): ObjectValue => ({
  kind: "object",
  properties: props.map(([name, value]) => ({ tfName: name, name, value })),
  ...(objectType !== undefined ? { objectType } : {}),
});
const prop = (name: string): PathStep => ({ kind: "property", tfName: name, name });
const ref = (node: string, ...path: PathStep[]): Value => ({ kind: "ref", node, path });
const cfg = (variable: string): Value => ({ kind: "config", variable });
const tpl = (...parts: (string | Value)[]): Value => ({ kind: "template", parts });
const objectType = (name: string): ObjectTypeModel => ({ token: `tls:index/${name}:${name}`, properties: [], description: "" });
const entity = (token: string, foreign = false): Entity => ({ pkg: token.split(":")[0]!, token, properties: [], foreign });
const resource = (variable: string, token: string, args: ObjectValue, more: Partial<ResourceNode> = {}): ResourceNode => ({
  kind: "resource",
  name: variable,
  variable,
  entity: entity(token),
  args,
  dependsOn: [],
  ...more,
});
const invoke = (variable: string, token: string, args: ObjectValue, more: Partial<InvokeNode> = {}): InvokeNode => ({
  kind: "invoke",
  role: token.includes(":ephemeral/") ? "ephemeral" : "dataSource",
  name: variable,
  variable,
  entity: entity(token),
  args,
  ...more,
});

function yaml(p: Partial<Program>): string {
  return renderYaml({ pkg: "tls", config: [], nodes: [], outputs: [], otherProviders: [], goImports: {}, ...p });
}

/** The YAML of one resource property `value`, as the lines under `properties:`. */
function valueYaml(v: Value): string {
  const text = yaml({ nodes: [resource("r", "tls:index/thing:Thing", obj([["value", v]]))] });
  return text.slice(text.indexOf("    properties:\n") + "    properties:\n".length).trimEnd();
}

describe("renderYaml: sections", () => {
  it("config (types, defaults), resources, variables (invokes), outputs (camelCase names)", () => {
    const config: ConfigVariable[] = [
      { name: "ami_id", variable: "amiId", type: "string" },
      { name: "size", variable: "size", type: "number", default: num(3) },
      { name: "enabled", variable: "enabled", type: "boolean", default: bool(true) },
      { name: "region", variable: "region", type: "string", default: str("us-east-1") },
    ];
    expect(
      yaml({
        config,
        nodes: [
          resource("key", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("ED25519")], ["comment", cfg("amiId")]])),
          invoke("pub", "tls:index/getPublicKey:getPublicKey", obj([["privateKeyPem", ref("key", prop("privateKeyPem"))]])),
        ],
        outputs: [
          { name: "public_key", value: ref("pub", prop("publicKeyPem")) },
          { name: "size", value: cfg("size") },
        ],
      }),
    ).toBe(
      [
        "config:",
        "  ami_id:",
        "    type: string",
        "  size:",
        "    type: number",
        "    default: 3",
        "  enabled:",
        "    type: boolean",
        "    default: true",
        "  region:",
        "    type: string",
        "    default: us-east-1",
        "",
        "resources:",
        "  key:",
        "    type: tls:PrivateKey",
        "    properties:",
        "      algorithm: ED25519",
        "      comment: ${ami_id}",
        "",
        "variables:",
        "  pub:",
        "    fn::invoke:",
        "      function: tls:index/getPublicKey:getPublicKey",
        "      arguments:",
        "        privateKeyPem: ${key.privateKeyPem}",
        "",
        "outputs:",
        "  publicKey: ${pub.publicKeyPem}",
        "  size: ${size}",
        "",
      ].join("\n"),
    );
  });

  it("a resource without properties; its name where the label is not the key; another provider's type by its token (collapsed as Pulumi's YAML generator writes it)", () => {
    expect(
      yaml({
        otherProviders: ["aws"],
        nodes: [
          { ...resource("ed25519Example", "tls:index/privateKey:PrivateKey", obj([])), name: "ed25519-example" },
          { ...resource("server", "aws:index/instance:Instance", obj([["rootBlockDevice", obj([["volumeSize", num(8)]])]])), entity: entity("aws:index/instance:Instance", true) },
        ],
      }),
    ).toBe(
      [
        "resources:",
        "  ed25519Example:",
        "    type: tls:PrivateKey",
        "    name: ed25519-example",
        "  server:",
        "    type: aws:Instance",
        "    properties:",
        "      rootBlockDevice:",
        "        volumeSize: 8",
        "",
      ].join("\n"),
    );
  });

  it("options: dependsOn and an explicit provider (pulumi:providers:<pkg>), for resources and invokes", () => {
    expect(
      yaml({
        nodes: [
          { kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: obj([["proxies", list(obj([["fromEnv", bool(true)]], objectType("ProviderProxy")))]]), properties: [] },
          resource("first", "tls:index/privateKey:PrivateKey", obj([])),
          resource("second", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("RSA")]]), { dependsOn: ["first"], provider: "tlsProvider" }),
          invoke("cert", "tls:index/getCertificate:getCertificate", obj([["url", str("https://example.com")]]), { provider: "tlsProvider" }),
          invoke("all", "tls:index/getThings:getThings", obj([])),
        ],
      }),
    ).toBe(
      [
        "resources:",
        "  tlsProvider:",
        "    type: pulumi:providers:tls",
        "    name: tls",
        "    properties:",
        "      proxies:",
        "        - fromEnv: true",
        "  first:",
        "    type: tls:PrivateKey",
        "  second:",
        "    type: tls:PrivateKey",
        "    properties:",
        "      algorithm: RSA",
        "    options:",
        "      dependsOn:",
        "        - ${first}",
        "      provider: ${tlsProvider}",
        "",
        "variables:",
        "  cert:",
        "    fn::invoke:",
        "      function: tls:index/getCertificate:getCertificate",
        "      arguments:",
        "        url: https://example.com",
        "      options:",
        "        provider: ${tlsProvider}",
        "  all:",
        "    fn::invoke:",
        "      function: tls:index/getThings:getThings",
        "",
      ].join("\n"),
    );
  });

  it("depends_on naming a data source: left out (dependsOn takes resources)", () => {
    expect(yaml({ nodes: [invoke("pub", "tls:index/getPublicKey:getPublicKey", obj([])), resource("r", "tls:index/privateKey:PrivateKey", obj([]), { dependsOn: ["pub"] })] })).toBe(
      ["resources:", "  r:", "    type: tls:PrivateKey", "", "variables:", "  pub:", "    fn::invoke:", "      function: tls:index/getPublicKey:getPublicKey", ""].join("\n"),
    );
  });

  it("a config key that is also a resource's name cannot be told apart in YAML", () => {
    expect(() => yaml({ config: [{ name: "key", variable: "key2", type: "string" }], nodes: [resource("key", "tls:index/privateKey:PrivateKey", obj([]))] })).toThrow(ConversionError);
  });
});

describe("renderYaml: values", () => {
  it.each<[string, Value, string]>([
    ["a plain string", str("example.com"), "value: example.com"],
    ["a string YAML would read as a bool", str("true"), "value: 'true'"],
    ["a string YAML would read as a number", str("1h"), "value: '1h'"],
    ["a string YAML would read as a date", str("2023-07-25T23:43:16Z"), "value: '2023-07-25T23:43:16Z'"],
    ["an empty string", str(""), "value: ''"],
    ["a string with a quote and a colon", str("it's: here"), "value: 'it''s: here'"],
    ["a string starting with an indicator", str("*.example.com"), "value: '*.example.com'"],
    ["a string with a $ (doubled, as Pulumi YAML reads $$)", str("!#$%&*"), "value: '!#$$%&*'"],
    ["a string with an interpolation-like ${", str("${not}"), "value: $${not}"],
    ["a string with a tab", str("a\tb"), 'value: "a\\tb"'],
    ["a multi-line string", str("line 1\nline 2\n"), "value: |\n        line 1\n        line 2"],
    ["a multi-line string without a final newline", str("a\n\nb"), "value: |-\n        a\n\n        b"],
    ["a multi-line string starting with a space", str(" a\nb"), 'value: " a\\nb"'],
    ["a number", num(1.5), "value: 1.5"],
    ["a negative number", num(-3), "value: -3"],
    ["a bool", bool(false), "value: false"],
    ["a config variable", cfg("amiId"), "value: ${amiId}"],
    ["a resource's property", ref("other", prop("privateKeyPem")), "value: ${other.privateKeyPem}"],
    ["an index and a property", ref("other", prop("certificates"), { kind: "index", index: 0 }, prop("certPem")), "value: ${other.certificates[0].certPem}"],
    ["a map key", ref("other", prop("keepers"), { kind: "key", key: 'a "b"' }), 'value: ${other.keepers["a \\"b\\""]}'],
    ["a whole node", ref("other"), "value: ${other}"],
    ["a template", tpl("web-", ref("other", prop("id")), "-$x"), "value: web-${other.id}-$$x"],
    ["a template that is all interpolation", tpl(ref("other", prop("id")), ref("other", prop("name"))), "value: ${other.id}${other.name}"],
    ["a multi-line template", tpl("a\n", ref("other", prop("id"))), "value: |-\n        a\n        ${other.id}"],
    ["a template with a builtin inside (fn::join)", tpl("key: ", { kind: "call", fn: "file", args: [str("k.pem")] }), 'value:\n        fn::join:\n          - ""\n          - - \'key: \'\n            - fn::readFile: k.pem'],
    ["a list", list(str("a"), num(1)), "value:\n        - a\n        - 1"],
    ["an empty list", list(), "value: []"],
    ["a list of objects", list(obj([["commonName", str("x")], ["organization", str("org")]], objectType("Subject"))), "value:\n        - commonName: x\n          organization: org"],
    ["a list of lists", list(list(str("a"), str("b"))), "value:\n        - - a\n          - b"],
    ["a map, keys as given (a $ doubled)", map(["Name", str("x")], ["ami_id", cfg("amiId")], ["on", bool(true)], ["$k", str("v")]), "value:\n        Name: x\n        ami_id: ${amiId}\n        'on': true\n        $$k: v"],
    ["an empty map", map(), "value: {}"],
    ["an object (null properties left out)", obj([["commonName", str("x")], ["gone", { kind: "null" }]], objectType("Subject")), "value:\n        commonName: x"],
    ["file", { kind: "call", fn: "file", args: [str("key.pem")] }, "value:\n        fn::readFile: key.pem"],
    ["jsonencode", { kind: "call", fn: "jsonencode", args: [map(["a", list(num(1), ref("other", prop("id")))])] }, "value:\n        fn::toJSON:\n          a:\n            - 1\n            - ${other.id}"],
  ])("%s", (_, v, expected) => {
    expect(valueYaml(v)).toBe(`      ${expected}`);
  });

  it.each([
    ["jsondecode", "jsondecode has no Pulumi YAML builtin"],
    ["trimspace", "trimspace has no Pulumi YAML builtin"],
  ] as const)("%s has no Pulumi YAML builtin: ConversionError", (fn, message) => {
    expect(() => valueYaml({ kind: "call", fn, args: [str("x")] })).toThrow(new ConversionError(`r.value: ${message}`));
  });

  it("a map whose only key reads as a builtin: ConversionError", () => {
    expect(() => valueYaml(map(["fn::secret", str("x")]))).toThrow(ConversionError);
  });
});

describe("renderYaml: invokes", () => {
  const fn = (name: string, params: string[], returnType: FunctionModel["returnType"]): FunctionModel => ({
    tfName: name,
    token: `time:index/${name}:${name}`,
    parameters: params.map((p) => ({ tfName: p, name: p, tfType: { kind: "string" }, type: { kind: "string" }, required: true, description: "" })),
    tfReturnType: { kind: "string" },
    returnType,
    description: "",
  });

  it("an ephemeral resource, and a provider function with several arguments (named) and a plain result (the value itself)", () => {
    const join = fn("join", ["sep", "parts"], { kind: "string" });
    expect(
      yaml({
        pkg: "time",
        nodes: [
          invoke("pw", "random:ephemeral/getPassword:getPassword", obj([["length", num(16)]])),
          invoke("joined", join.token, obj([["sep", str("-")], ["parts", list(str("a"), ref("pw", prop("result")))]]), { role: "function", function: join }),
        ],
        outputs: [{ name: "joined", value: ref("joined") }],
      }),
    ).toBe(
      [
        "variables:",
        "  pw:",
        "    fn::invoke:",
        "      function: random:ephemeral/getPassword:getPassword",
        "      arguments:",
        "        length: 16",
        "  joined:",
        "    fn::invoke:",
        "      function: time:index/join:join",
        "      arguments:",
        "        sep: '-'",
        "        parts:",
        "          - a",
        "          - ${pw.result}",
        "",
        "outputs:",
        "  joined: ${joined}",
        "",
      ].join("\n"),
    );
  });
});

describe("yamlString", () => {
  it.each([
    ["plain", "plain"],
    ["with space", "with space"],
    ["a: b", "'a: b'"],
    ["a #b", "'a #b'"],
    ["trailing ", "'trailing '"],
    ["null", "'null'"],
    ["~", "'~'"],
    ["Yes", "'Yes'"],
    ["0x1F", "'0x1F'"],
    [".5", "'.5'"],
    ["-x", "'-x'"],
    ["[a]", "'[a]'"],
    ["a\u0001b", '"a\\u0001b"'],
  ])("%j → %s", (s, expected) => {
    expect(yamlString(s)).toBe(expected);
  });
});
