// renderPython: one case per construct of the example Program model, each compared with the Python program text.
import { describe, expect, it } from "vitest";
import { renderPython } from "../../src/schema-translate/examples/python.js";
import type { Entity, InvokeNode, ObjectValue, PathStep, Program, ProgramNode, ResourceNode, Value } from "../../src/schema-translate/examples/program.js";
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
        [req("private_key_pem", S), req("validity_period_hours", N), req("allowed_uses", list(S)), opt("dns_names", list(S)), opt("early_renewal", B), comp("cert_pem", S)],
        [nested("subject", "list", block([opt("common_name", S), opt("organization", S), opt("street_address", list(S))]), 0, 1)],
      ),
      tls_cert_request: block(
        [req("private_key_pem", S), opt("labels", map(S)), nestedAttr("rules", "map", [opt("priority", N), opt("from", S)]), comp("cert_request_pem", S)],
        [nested("subject", "list", block([opt("common_name", S), opt("country", S)]))],
      ),
    },
    dataSources: { tls_public_key: block([opt("private_key_pem", S), comp("public_key_openssh", S), comp("public_key_fingerprint_md5", S), comp("id", S)]) },
    ephemeralResources: { tls_private_key: block([req("algorithm", S), comp("private_key_pem", S)]) },
    functions: {
      duration_parse: { parameters: [fnParam("duration")], returnType: obj({ hours: N, minutes: N }), ...fnBase },
      join_with: { parameters: [fnParam("separator"), fnParam("first"), fnParam("second")], returnType: S, ...fnBase },
      count_of: { parameters: [fnParam("text")], returnType: N, ...fnBase },
    },
  }),
  { packageName: "tls", packageVersion: "4.0.0" },
);

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
const str = (value: string, type?: TypeModel): Value => ({ kind: "string", value, type });
const num = (value: number): Value => ({ kind: "number", value });
const bool = (value: boolean): Value => ({ kind: "bool", value });
const lst = (...items: Value[]): Value => ({ kind: "list", items });
const mp = (entries: Record<string, Value>): Value => ({ kind: "map", entries: Object.entries(entries).map(([key, value]) => ({ key, value })) });
const cfg = (variable: string, type?: TypeModel): Value => ({ kind: "config", variable, type });
const ref = (node: string, ...path: (string | number | { key: string })[]): Value => ({ kind: "ref", node, path: path.map(step) });
function step(s: string | number | { key: string }): PathStep {
  if (typeof s === "number") return { kind: "index", index: s };
  if (typeof s === "object") return { kind: "key", key: s.key };
  return { kind: "property", tfName: s, name: s };
}
const tpl = (...parts: (string | Value)[]): Value => ({ kind: "template", parts });
const call = (fn: "file" | "jsonencode" | "jsondecode" | "trimspace", ...args: Value[]): Value => ({ kind: "call", fn, args });
/** An object of schema properties: keys are Pulumi names. */
function object(props: Record<string, Value>, objectType?: ObjectTypeModel): ObjectValue {
  return { kind: "object", properties: Object.entries(props).map(([name, value]) => ({ tfName: name, name, value })), objectType };
}

// Nodes.
function resource(variable: string, e: Entity, args: Record<string, Value>, extra: Partial<ResourceNode> = {}): ResourceNode {
  return { kind: "resource", name: variable, variable, entity: e, args: object(args), dependsOn: [], ...extra };
}
function invoke(variable: string, role: InvokeNode["role"], e: Entity, args: Record<string, Value>, extra: Partial<InvokeNode> = {}): InvokeNode {
  return { kind: "invoke", role, name: variable, variable, entity: e, args: object(args), ...extra };
}
function program(nodes: ProgramNode[], extra: Partial<Program> = {}): Program {
  return { pkg: "tls", config: [], nodes, outputs: [], otherProviders: [], goImports: {}, ...extra };
}
const key = resource("key", res("tls_private_key"), { algorithm: str("ED25519") });
const HEAD = "import pulumi\nimport pulumi_tls as tls\n\n";
const KEY = 'key = tls.PrivateKey("key", algorithm="ED25519")\n';

const certProps = res("tls_self_signed_cert").properties;
const subjectType = objectTypeOf(prop(certProps, "subject").type);
const csrProps = res("tls_cert_request").properties;
const csrSubjectType = objectTypeOf(prop(csrProps, "subjects").type);
const ruleType = objectTypeOf(prop(csrProps, "rules").type);

describe("renderPython: values", () => {
  const cases: [string, Value, string][] = [
    ["a string", str("RSA"), '"RSA"'],
    ["a string with a backslash, a tab and a control character", str("a\\b\t\u0001"), '"a\\\\b\\t\\x01"'],
    ["a string with more double quotes than single ones: single-quoted, as black quotes it", str(`say "it's"`), `'say "it\\'s"'`],
    ["a string with as many of each: double-quoted", str(`a'b"c`), `"a'b\\"c"`],
    ["one trailing line break stays an escape", str("one line\n"), '"one line\\n"'],
    ["an integer (Python takes an int where a float is wanted)", num(2048), "2048"],
    ["a fraction and a negative number", lst(num(0.5), num(-3)), "[0.5, -3]"],
    ["booleans", lst(bool(true), bool(false)), "[True, False]"],
    ["null", lst({ kind: "null" }), "[None]"],
    ["an empty list", lst(), "[]"],
    ["a map: keys as given", mp({ "Key-One": str("a"), two: num(2) }), '{"Key-One": "a", "two": 2}'],
    ["a number where a string is wanted", { kind: "number", value: 3, type: { kind: "string" } }, '"3"'],
    ["a numeric string where a number is wanted", str("42", { kind: "number" }), "42"],
    ["a string where a boolean is wanted", str("true", { kind: "boolean" }), "True"],
  ];
  it.each(cases)("%s", (_, value, expected) => {
    expect(renderPython(program([key], { outputs: [{ name: "v", value }] }))).toBe(`${HEAD}${KEY}\npulumi.export("v", ${expected})\n`);
  });
});

describe("renderPython: strings of several lines", () => {
  it("are triple-quoted with their line breaks kept; a quote is escaped only where it could end the literal", () => {
    const p = program([key], { outputs: [{ name: "a", value: str('line "one"\nline two\n') }, { name: "b", value: str('a\nb ""c"') }] });
    expect(renderPython(p)).toBe(`${HEAD}${KEY}
pulumi.export(
    "a",
    """line "one"
line two
""",
)
pulumi.export(
    "b",
    """a
b \\""c\\"""",
)
`);
  });
});

describe("renderPython: resources and nested objects", () => {
  it("a single nested object (maxItemsOne) is a dict with snake_case keys; lists too long for a line are one item per line", () => {
    const cert = resource("cert", res("tls_self_signed_cert"), {
      privateKeyPem: ref("key", "privateKeyPem"),
      validityPeriodHours: num(12),
      allowedUses: lst(str("key_encipherment"), str("digital_signature"), str("server_auth"), str("client_auth"), str("any_extended")),
      subject: object({ commonName: str("example.com"), organization: str("ACME Examples, Inc"), streetAddresses: lst(str("1 Main St")) }, subjectType),
      earlyRenewalHours: { kind: "null" },
    });
    expect(renderPython(program([key, cert]))).toBe(`${HEAD}${KEY}cert = tls.SelfSignedCert(
    "cert",
    private_key_pem=key.private_key_pem,
    validity_period_hours=12,
    allowed_uses=[
        "key_encipherment",
        "digital_signature",
        "server_auth",
        "client_auth",
        "any_extended",
    ],
    subject={
        "common_name": "example.com",
        "organization": "ACME Examples, Inc",
        "street_addresses": ["1 Main St"],
    },
)
`);
  });

  it("a list of objects, a map of strings and a map of objects (keys as given, values' keys snake_case and keyword-safe)", () => {
    const csr = resource("csr", res("tls_cert_request"), {
      privateKeyPem: ref("key", "privateKeyPem"),
      subjects: lst(object({ commonName: str("a.example.com") }, csrSubjectType), object({ commonName: str("b.example.com"), country: str("NZ") }, csrSubjectType)),
      labels: mp({ team: str("web") }),
      rules: mp({ "First Rule": object({ priority: num(1), from: str("10.0.0.0/8") }, ruleType) }),
    });
    expect(renderPython(program([key, csr]))).toBe(`${HEAD}${KEY}csr = tls.CertRequest(
    "csr",
    private_key_pem=key.private_key_pem,
    subjects=[
        {"common_name": "a.example.com"},
        {"common_name": "b.example.com", "country": "NZ"},
    ],
    labels={"team": "web"},
    rules={"First Rule": {"priority": 1, "from_": "10.0.0.0/8"}},
)
`);
  });

  it("dependsOn and an explicit provider: opts=pulumi.ResourceOptions(...); the provider block is a Provider resource", () => {
    const west: ProgramNode = { kind: "provider", name: "west", variable: "west", pkg: "tls", args: object({ proxy: object({ url: str("http://proxy:3128") }) }), properties: [] };
    const other = resource("other", res("tls_private_key"), { algorithm: str("RSA"), rsaBits: num(4096) }, { dependsOn: ["key"], provider: "west" });
    expect(renderPython(program([key, west, other]))).toBe(`${HEAD}${KEY}west = tls.Provider("west", proxy={"url": "http://proxy:3128"})
other = tls.PrivateKey(
    "other",
    algorithm="RSA",
    rsa_bits=4096,
    opts=pulumi.ResourceOptions(depends_on=[key], provider=west),
)
`);
  });

  it("dependsOn naming an invoke is left out: depends_on takes resources, and an invoke's result is an Output", () => {
    const pub = invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: ref("key", "privateKeyPem") });
    const other = resource("other", res("tls_private_key"), { algorithm: str("RSA") }, { dependsOn: ["pub", "key"] });
    expect(renderPython(program([key, pub, other]))).toBe(`${HEAD}${KEY}pub = tls.get_public_key_output(private_key_pem=key.private_key_pem)
other = tls.PrivateKey(
    "other",
    algorithm="RSA",
    opts=pulumi.ResourceOptions(depends_on=[key]),
)
`);
  });

  it("a depends_on list too long for its line is one item per line", () => {
    const deps = ["firstPrivateKeyForTheCluster", "secondPrivateKeyForTheCluster", "thirdPrivateKeyForTheCluster"];
    const keys = deps.map((d) => resource(d, res("tls_private_key"), { algorithm: str("RSA") }));
    const last = resource("last", res("tls_private_key"), { algorithm: str("RSA") }, { dependsOn: deps });
    expect(renderPython(program([...keys, last])).split("\n").slice(-12).join("\n")).toBe(`last = tls.PrivateKey(
    "last",
    algorithm="RSA",
    opts=pulumi.ResourceOptions(
        depends_on=[
            first_private_key_for_the_cluster,
            second_private_key_for_the_cluster,
            third_private_key_for_the_cluster,
        ],
    ),
)
`);
  });

  it("a resource with no arguments", () => {
    const bare = resource("bare", res("tls_private_key"), {});
    expect(renderPython(program([bare]))).toBe(`${HEAD}bare = tls.PrivateKey("bare")\n`);
  });
});

describe("renderPython: references", () => {
  const cert = resource("cert", res("tls_self_signed_cert"), {
    privateKeyPem: ref("key", "privateKeyPem"),
    validityPeriodHours: num(1),
    allowedUses: lst(),
  });
  const CERT = `cert = tls.SelfSignedCert(
    "cert",
    private_key_pem=key.private_key_pem,
    validity_period_hours=1,
    allowed_uses=[],
)
`;
  const cases: [string, Value, string][] = [
    ["a property", ref("key", "publicKeyOpenssh"), "key.public_key_openssh"],
    ["a property of a nested object", ref("cert", "subject", "commonName"), "cert.subject.common_name"],
    ["an element of a list", ref("cert", "allowedUses", 0), "cert.allowed_uses[0]"],
    ["a list element under a property", ref("cert", "subject", "streetAddresses", 1), "cert.subject.street_addresses[1]"],
    ["a map key", ref("cert", "labels", { key: "team" }), 'cert.labels["team"]'],
    ["a number where a string is wanted goes through apply(str)", { kind: "ref", node: "cert", path: [step("validityPeriodHours")], type: { kind: "string" } }, "cert.validity_period_hours.apply(str)"],
    ["a string where a number is wanted goes through apply(float)", { kind: "ref", node: "key", path: [step("algorithm")], type: { kind: "number" } }, "key.algorithm.apply(float)"],
  ];
  it.each(cases)("%s", (_, value, expected) => {
    expect(renderPython(program([key, cert], { outputs: [{ name: "v", value }] }))).toBe(`${HEAD}${KEY}${CERT}\npulumi.export("v", ${expected})\n`);
  });
});

describe("renderPython: templates and builtins", () => {
  const config = [
    { name: "prefix", variable: "prefix", type: "string" as const },
    { name: "key_count", variable: "keyCount", type: "number" as const },
  ];
  const CONFIG = 'config = pulumi.Config()\nprefix = config.require("prefix")\nkey_count = config.require_float("key_count")\n\n';
  const cases: [string, Value, string, string?][] = [
    ["a template of plain values: an f-string, braces doubled", tpl("{", cfg("prefix"), "}-", cfg("keyCount")), 'f"{{{prefix}}}-{key_count}"'],
    ["a template with an Output: pulumi.Output.concat, numbers through str", tpl(cfg("prefix"), "-", ref("key", "id"), "-", cfg("keyCount")), 'pulumi.Output.concat(prefix, "-", key.id, "-", str(key_count))'],
    ["a template of one value is the value", tpl(ref("key", "id")), "key.id"],
    ["a template of text only is a string", tpl("plain ", "text"), '"plain text"'],
    ["a template whose value cannot sit in an f-string: +", tpl(call("file", str("a.txt")), "!"), 'read_file("a.txt") + "!"', "helper"],
    ["file: a helper reading the file", call("file", str("${path.module}/key.pem")), 'read_file("${path.module}/key.pem")', "helper"],
    ["jsonencode of plain values: json.dumps", call("jsonencode", mp({ a: lst(num(1), bool(true)), b: { kind: "null" } })), 'json.dumps({"a": [1, True], "b": None})', "json"],
    ["jsonencode holding an Output: pulumi.Output.json_dumps", call("jsonencode", mp({ id: ref("key", "id") })), 'pulumi.Output.json_dumps({"id": key.id})'],
    ["jsondecode of a plain string: json.loads", call("jsondecode", str('{"a": 1}')), `json.loads('{"a": 1}')`, "json"],
    ["jsondecode of an Output: pulumi.Output.json_loads", call("jsondecode", ref("key", "publicKeyOpenssh")), "pulumi.Output.json_loads(key.public_key_openssh)"],
    ["trimspace of a plain string: strip()", call("trimspace", call("file", str("name.txt"))), 'read_file("name.txt").strip()', "helper"],
    ["trimspace of an Output: apply", call("trimspace", ref("key", "publicKeyOpenssh")), "key.public_key_openssh.apply(lambda s: s.strip())"],
    ["trimspace of a concatenation: parenthesised", call("trimspace", tpl(call("file", str("a")), "b")), '(read_file("a") + "b").strip()', "helper"],
  ];
  it.each(cases)("%s", (_, value, expected, extra) => {
    const head = extra === "json" ? `import json\n${HEAD}` : extra === "helper" ? `import os\n${HEAD}` : HEAD;
    const helper = extra === "helper" ? '\ndef read_file(path: str) -> str:\n    with open(os.path.expanduser(path), encoding="utf-8") as f:\n        return f.read()\n\n\n' : "";
    expect(renderPython(program([key], { config, outputs: [{ name: "v", value }] }))).toBe(`${head}${helper}${CONFIG}${KEY}\npulumi.export("v", ${expected})\n`);
  });

  it("a long concatenation is one argument per line", () => {
    const value = tpl("-----BEGIN PUBLIC KEY FROM ", ref("key", "id"), " ALGORITHM ", ref("key", "algorithm"), " END-----");
    expect(renderPython(program([key], { outputs: [{ name: "banner", value }] }))).toBe(`${HEAD}${KEY}
pulumi.export(
    "banner",
    pulumi.Output.concat(
        "-----BEGIN PUBLIC KEY FROM ",
        key.id,
        " ALGORITHM ",
        key.algorithm,
        " END-----",
    ),
)
`);
  });
});

describe("renderPython: configuration", () => {
  it("required values by type, and defaults applied when the value is not set (not `or`: false and 0 are values)", () => {
    const p = program([resource("sized", res("tls_private_key"), { algorithm: cfg("algorithm"), rsaBits: cfg("rsaBits") })], {
      config: [
        { name: "algorithm", variable: "algorithm", type: "string" },
        { name: "rsa_bits", variable: "rsaBits", type: "number", default: num(4096) },
        { name: "enabled", variable: "enabled", type: "boolean", default: bool(true) },
        { name: "threshold", variable: "threshold", type: "number" },
        { name: "strict", variable: "strict", type: "boolean" },
        { name: "label", variable: "label", type: "string", default: str("none") },
        { name: "maybe", variable: "maybe", type: "string", default: { kind: "null" } },
      ],
    });
    expect(renderPython(p)).toBe(`${HEAD}config = pulumi.Config()
algorithm = config.require("algorithm")
rsa_bits = config.get_float("rsa_bits")
if rsa_bits is None:
    rsa_bits = 4096
enabled = config.get_bool("enabled")
if enabled is None:
    enabled = True
threshold = config.require_float("threshold")
strict = config.require_bool("strict")
label = config.get("label")
if label is None:
    label = "none"
maybe = config.get("maybe")

sized = tls.PrivateKey("sized", algorithm=algorithm, rsa_bits=rsa_bits)
`);
  });

  it("a default written as a string for a number variable is a number", () => {
    const p = program([], { config: [{ name: "n", variable: "n", type: "number", default: str("5") }] });
    expect(renderPython(p)).toBe('import pulumi\n\nconfig = pulumi.Config()\nn = config.get_float("n")\nif n is None:\n    n = 5\n');
  });

  it("a number variable where a string is wanted goes through str()", () => {
    const p = program([resource("k", res("tls_private_key"), { algorithm: cfg("size", { kind: "string" }) })], { config: [{ name: "size", variable: "size", type: "number" }] });
    expect(renderPython(p)).toBe(`${HEAD}config = pulumi.Config()\nsize = config.require_float("size")\n\nk = tls.PrivateKey("k", algorithm=str(size))\n`);
  });
});

describe("renderPython: invokes", () => {
  const fn = (name: string) => found(model.functions, name);
  const fnEntity = (name: string) => entity(fn(name).token, []);

  it("a data source in its output form, its result's attributes lifted", () => {
    const pub = invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: ref("key", "privateKeyPem") });
    const p = program([key, pub], { outputs: [{ name: "fingerprint", value: ref("pub", "publicKeyFingerprintMd5") }] });
    expect(renderPython(p)).toBe(`${HEAD}${KEY}pub = tls.get_public_key_output(private_key_pem=key.private_key_pem)

pulumi.export("fingerprint", pub.public_key_fingerprint_md5)
`);
  });

  it("an ephemeral resource: the ephemeral module's function, output form", () => {
    const e = found(model.ephemeralResources, "tls_private_key");
    const eph = invoke("temp", "ephemeral", entity(e.token, e.properties), { algorithm: str("ECDSA") });
    expect(e.token).toBe("tls:ephemeral/getPrivateKey:getPrivateKey");
    expect(renderPython(program([eph], { outputs: [{ name: "pem", value: ref("temp", "privateKeyPem") }] }))).toBe(`${HEAD}temp = tls.ephemeral.get_private_key_output(algorithm="ECDSA")

pulumi.export("pem", temp.private_key_pem)
`);
  });

  it("a provider function with an object result: positional argument, attributes lifted", () => {
    const parsed = invoke("parsed", "function", fnEntity("duration_parse"), { duration: str("1h30m") }, { function: fn("duration_parse") });
    expect(renderPython(program([parsed], { outputs: [{ name: "hours", value: ref("parsed", "hours") }] }))).toBe(`${HEAD}parsed = tls.duration_parse_output("1h30m")

pulumi.export("hours", parsed.hours)
`);
  });

  it("a provider function with several arguments and a plain result: positional in the signature's order, the result is the value", () => {
    const joined = invoke("joined", "function", fnEntity("join_with"), { first: ref("key", "id"), separator: str("-"), second: str("b") }, { function: fn("join_with") });
    const counted = invoke("counted", "function", fnEntity("count_of"), { text: ref("joined") }, { function: fn("count_of") });
    const p = program([key, joined, counted], { outputs: [{ name: "joined", value: ref("joined") }, { name: "label", value: tpl("n=", ref("counted")) }] });
    expect(renderPython(p)).toBe(`${HEAD}${KEY}joined = tls.join_with_output("-", key.id, "b")
counted = tls.count_of_output(joined)

pulumi.export("joined", joined)
pulumi.export("label", pulumi.Output.concat("n=", counted.apply(str)))
`);
  });

  it("a provider function with a parameter left out: the ones after it by keyword", () => {
    const joined = invoke("joined", "function", fnEntity("join_with"), { separator: str("-"), second: str("b") }, { function: fn("join_with") });
    expect(renderPython(program([joined]))).toBe(`${HEAD}joined = tls.join_with_output("-", second="b")\n`);
  });

  it("an invoke with an explicit provider: opts=pulumi.InvokeOptions(provider=...)", () => {
    const west: ProgramNode = { kind: "provider", name: "west", variable: "west", pkg: "tls", args: object({}), properties: [] };
    const pub = invoke("pub", "dataSource", ds("tls_public_key"), { privateKeyPem: str("pem") }, { provider: "west" });
    expect(renderPython(program([west, pub]))).toBe(`${HEAD}west = tls.Provider("west")
pub = tls.get_public_key_output(
    private_key_pem="pem",
    opts=pulumi.InvokeOptions(provider=west),
)
`);
  });
});

describe("renderPython: names", () => {
  it("another provider's entities: its own import, names as if bridged; imports sorted", () => {
    const bucket = resource("bucket", { pkg: "aws", token: "aws:index/s3Bucket:S3Bucket", properties: [], foreign: true }, { bucketPrefix: str("logs-") });
    const found2 = invoke("ami", "dataSource", { pkg: "aws", token: "aws:index/getAmi:getAmi", properties: [], foreign: true }, { mostRecent: bool(true) });
    expect(renderPython(program([key, bucket, found2], { otherProviders: ["aws"] }))).toBe(`import pulumi
import pulumi_aws as aws
import pulumi_tls as tls

${KEY}bucket = aws.S3Bucket("bucket", bucket_prefix="logs-")
ami = aws.get_ami_output(most_recent=True)
`);
  });

  it("a variable named like a package import, or like a name the program uses, gets a trailing underscore", () => {
    const tlsNode = resource("tls", res("tls_private_key"), { algorithm: str("RSA") });
    const user = resource("readFile", res("tls_private_key"), { algorithm: call("file", str("alg.txt")) }, { dependsOn: ["tls"] });
    expect(renderPython(program([tlsNode, user], { outputs: [{ name: "id", value: ref("tls", "id") }] }))).toBe(`import os
import pulumi
import pulumi_tls as tls


def read_file(path: str) -> str:
    with open(os.path.expanduser(path), encoding="utf-8") as f:
        return f.read()


tls_ = tls.PrivateKey("tls", algorithm="RSA")
read_file_ = tls.PrivateKey(
    "readFile",
    algorithm=read_file("alg.txt"),
    opts=pulumi.ResourceOptions(depends_on=[tls_]),
)

pulumi.export("id", tls_.id)
`);
  });

  it("a variable named like a Python built-in gets a trailing underscore too", () => {
    const p = program([resource("next", res("tls_private_key"), { algorithm: str("RSA") })], { config: [{ name: "len", variable: "len", type: "number" }] });
    expect(renderPython(p)).toBe(`${HEAD}config = pulumi.Config()\nlen_ = config.require_float("len")\n\nnext_ = tls.PrivateKey("next", algorithm="RSA")\n`);
  });

  it("program variables in snake_case, Pulumi resource names as written", () => {
    const k = { ...resource("ed25519Example", res("tls_private_key"), { algorithm: str("ED25519") }), name: "ed25519-example" };
    expect(renderPython(program([k]))).toBe(`${HEAD}ed25519_example = tls.PrivateKey("ed25519-example", algorithm="ED25519")\n`);
  });
});

describe("renderPython: repeated resources", () => {
  const loopValue = (part: "index" | "key" | "value", type?: TypeModel): Value => ({ kind: "loop", part, ...(type !== undefined ? { type } : {}) });
  const counted = (count: Value, args: Record<string, Value> = { algorithm: tpl("RSA", loopValue("index", { kind: "number" })) }, variable = "keys"): ResourceNode =>
    resource(variable, res("tls_private_key"), args, { loop: { kind: "count", count } });

  it("count: a list filled in a range loop, each instance named after its index", () => {
    expect(renderPython(program([counted(num(2))]))).toBe(`${HEAD}keys: list[tls.PrivateKey] = []
for index in range(2):
    keys.append(tls.PrivateKey(f"keys-{index}", algorithm=f"RSA{index}"))
`);
  });

  it("count from config: range() takes an int, and config numbers are floats", () => {
    const p = program([counted(cfg("n", { kind: "number" }))], { config: [{ name: "n", variable: "n", type: "number", default: num(2) }] });
    expect(renderPython(p)).toBe(`${HEAD}config = pulumi.Config()
n = config.get_float("n")
if n is None:
    n = 2

keys: list[tls.PrivateKey] = []
for index in range(int(n)):
    keys.append(tls.PrivateKey(f"keys-{index}", algorithm=f"RSA{index}"))
`);
  });

  it("an instance too long for append's line: split inside append's parentheses first, as black splits it", () => {
    const k = counted(num(3), { algorithm: str("ECDSA"), rsaBits: loopValue("index", { kind: "number" }) });
    const cert = resource(
      "certs",
      res("tls_self_signed_cert"),
      {
        privateKeyPem: ref("keys", 0, "privateKeyPem"),
        validityPeriodHours: num(12),
        allowedUses: lst(str("server_auth")),
        subject: object({ commonName: tpl("host", loopValue("index", { kind: "number" }), ".example.com"), streetAddresses: lst(loopValue("index", { kind: "string" })) }, subjectType),
      },
      { loop: { kind: "count", count: num(2) } },
    );
    expect(renderPython(program([k, cert]))).toBe(`${HEAD}keys: list[tls.PrivateKey] = []
for index in range(3):
    keys.append(tls.PrivateKey(f"keys-{index}", algorithm="ECDSA", rsa_bits=index))

certs: list[tls.SelfSignedCert] = []
for index in range(2):
    certs.append(
        tls.SelfSignedCert(
            f"certs-{index}",
            private_key_pem=keys[0].private_key_pem,
            validity_period_hours=12,
            allowed_uses=["server_auth"],
            subject={
                "common_name": f"host{index}.example.com",
                "street_addresses": [str(index)],
            },
        )
    )
`);
  });

  it("for_each over a map: a dict filled per key and value, each instance named after its key", () => {
    const k = resource("keys", res("tls_private_key"), { algorithm: loopValue("value", { kind: "string" }), rsaBits: { kind: "null" } }, { loop: { kind: "forEach", items: mp({ ec: str("ECDSA"), ed: str("ED25519") }) } });
    expect(renderPython(program([k], { outputs: [{ name: "ec", value: ref("keys", { key: "ec" }, "privateKeyPem") }] }))).toBe(`${HEAD}keys: dict[str, tls.PrivateKey] = {}
for key, value in {"ec": "ECDSA", "ed": "ED25519"}.items():
    keys[key] = tls.PrivateKey(f"keys-{key}", algorithm=value)

pulumi.export("ec", keys["ec"].private_key_pem)
`);
  });

  it("for_each over a list of strings: each string is the key and the value; a number value where a string is wanted goes through str()", () => {
    const named = resource("named", res("tls_private_key"), { algorithm: tpl(loopValue("key", { kind: "string" }), "-", loopValue("value", { kind: "string" })) }, { loop: { kind: "forEach", items: lst(str("a"), str("b")) } });
    // The binder types a value by its position: the map's numbers are where a string is wanted.
    const sized = resource("sized", res("tls_private_key"), { algorithm: loopValue("value", { kind: "string" }), rsaBits: loopValue("value", { kind: "number" }) }, {
      loop: { kind: "forEach", items: mp({ small: num(2048), big: num(4096) }) },
    });
    const out = renderPython(program([named, sized]));
    expect(out).toContain(`named: dict[str, tls.PrivateKey] = {}
for key in ["a", "b"]:
    named[key] = tls.PrivateKey(f"named-{key}", algorithm=f"{key}-{key}")
`);
    expect(out).toContain(`sized: dict[str, tls.PrivateKey] = {}
for key, value in {"small": 2048, "big": 4096}.items():
    sized[key] = tls.PrivateKey(f"sized-{key}", algorithm=str(value), rsa_bits=value)
`);
  });

  it("each map loop's values get a name of their own (mypy holds a module-level name to one type); a program variable keeps its name", () => {
    const value = resource("value", res("tls_private_key"), { algorithm: str("RSA") });
    const a = resource("a", res("tls_private_key"), { algorithm: loopValue("value", { kind: "string" }) }, { loop: { kind: "forEach", items: mp({ x: str("RSA") }) } });
    const b = resource("b", res("tls_private_key"), { algorithm: str("RSA"), rsaBits: loopValue("value", { kind: "number" }) }, { loop: { kind: "forEach", items: mp({ y: num(2048) }) } });
    expect(renderPython(program([value, a, b]))).toBe(`${HEAD}value = tls.PrivateKey("value", algorithm="RSA")

a: dict[str, tls.PrivateKey] = {}
for key, value_ in {"x": "RSA"}.items():
    a[key] = tls.PrivateKey(f"a-{key}", algorithm=value_)

b: dict[str, tls.PrivateKey] = {}
for key, value__ in {"y": 2048}.items():
    b[key] = tls.PrivateKey(f"b-{key}", algorithm="RSA", rsa_bits=value__)
`);
  });

  it("a for_each map too long for the loop's line is one entry per line", () => {
    const entries = Object.fromEntries(["first", "second", "third", "fourth"].map((k) => [`${k}-key-of-the-cluster`, str("ECDSA")]));
    const k = resource("keys", res("tls_private_key"), { algorithm: loopValue("value", { kind: "string" }) }, { loop: { kind: "forEach", items: mp(entries) } });
    expect(renderPython(program([k]))).toBe(`${HEAD}keys: dict[str, tls.PrivateKey] = {}
for key, value in {
    "first-key-of-the-cluster": "ECDSA",
    "second-key-of-the-cluster": "ECDSA",
    "third-key-of-the-cluster": "ECDSA",
    "fourth-key-of-the-cluster": "ECDSA",
}.items():
    keys[key] = tls.PrivateKey(f"keys-{key}", algorithm=value)
`);
  });

  it("references by index and by key (attribute-style in HCL, a key all the same), typed through the instance", () => {
    const k = resource("keys", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "forEach", items: lst(str("a")) } });
    const n = counted(num(1), undefined, "keys2");
    const outputs = [
      { name: "byIndex", value: ref("keys2", 0, "publicKeyOpenssh") },
      { name: "byKey", value: ref("keys", { key: "a" }, "privateKeyPem") },
      { name: "asNumber", value: { kind: "ref", node: "keys", path: [step({ key: "a" }), step("rsaBits")], type: { kind: "string" } } as Value },
    ];
    expect(renderPython(program([k, n], { outputs })).split("\n\n").at(-1)).toBe(`pulumi.export("byIndex", keys2[0].public_key_openssh)
pulumi.export("byKey", keys["a"].private_key_pem)
pulumi.export("asNumber", keys["a"].rsa_bits.apply(str))
`);
  });

  it("depends_on a repeated resource waits for all its instances", () => {
    const k = resource("keys", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "forEach", items: lst(str("a")) } });
    const n = counted(num(1), undefined, "many");
    const last = resource("last", res("tls_private_key"), { algorithm: str("RSA") }, { dependsOn: ["keys", "many"] });
    expect(renderPython(program([k, n, last])).split("\n").slice(-7).join("\n")).toBe(`
last = tls.PrivateKey(
    "last",
    algorithm="RSA",
    opts=pulumi.ResourceOptions(depends_on=[*keys.values(), *many]),
)
`);
  });

  it("a count or for_each known only after deployment cannot drive a loop", () => {
    expect(() => renderPython(program([key, counted(ref("key", "rsaBits"))]))).toThrow(/keys: a count known only after deployment cannot drive a Python loop/);
    const k = resource("keys", res("tls_private_key"), { algorithm: str("RSA") }, { loop: { kind: "forEach", items: mp({ a: ref("key", "id") }) } });
    expect(() => renderPython(program([key, k]))).toThrow(/keys: for_each over values known only after deployment cannot drive a Python loop/);
  });
});
