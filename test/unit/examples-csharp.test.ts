// renderCSharp: one case per construct of the example Program model, against the C# Pulumi's .NET program generator
// writes (no .NET SDK can be installed here, so these shapes are the C# renderer's whole check).
import { describe, expect, it } from "vitest";
import type { FunctionModel, ObjectTypeModel, PropertyModel } from "../../src/schema-translate/model.js";
import { propertyModel } from "../../src/schema-translate/model.js";
import { renderCSharp } from "../../src/schema-translate/examples/csharp.js";
import type { ConfigVariable, Entity, InvokeNode, ObjectValue, PathStep, Program, ProgramNode, ResourceNode, Value } from "../../src/schema-translate/examples/program.js";

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
const objectType = (name: string, pkg = "tls", module = "index"): ObjectTypeModel => ({ token: `${pkg}:${module}/${name}:${name}`, properties: [], description: "" });
const required = (name: string): PropertyModel => propertyModel({ tfName: name, name, tfType: { kind: "string" }, type: { kind: "string" }, required: true });

const entity = (token: string, properties: PropertyModel[] = [], foreign = false): Entity => ({ pkg: token.split(":")[0]!, token, properties, foreign });
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

function program(p: Partial<Program>): Program {
  return { pkg: "tls", config: [], nodes: [], outputs: [], otherProviders: [], goImports: {}, ...p };
}

/** The statements inside `Deployment.RunAsync(() => { … })`, one level of indentation taken off. */
function body(p: Partial<Program>): string {
  const text = renderCSharp(program(p));
  const start = text.indexOf("{\n") + 2;
  const end = text.lastIndexOf("\n});");
  return text
    .slice(start, end)
    .split("\n")
    .map((l) => l.replace(/^ {4}/, ""))
    .join("\n");
}

describe("renderCSharp: the program around the statements", () => {
  it("usings (System ones sorted, Pulumi, a package alias per package), Deployment.RunAsync, stack outputs", () => {
    const text = renderCSharp(
      program({
        nodes: [resource("key", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("ED25519")]]))],
        outputs: [{ name: "public_key", value: ref("key", prop("publicKeyPem")) }],
      }),
    );
    expect(text).toBe(
      [
        "using System.Collections.Generic;",
        "using System.Linq;",
        "using Pulumi;",
        "using Tls = Pulumi.Tls;",
        "",
        "return await Deployment.RunAsync(() =>",
        "{",
        '    var key = new Tls.PrivateKey("key", new()',
        "    {",
        '        Algorithm = "ED25519",',
        "    });",
        "",
        "    return new Dictionary<string, object?>",
        "    {",
        '        ["publicKey"] = key.PublicKeyPem,',
        "    };",
        "});",
        "",
      ].join("\n"),
    );
  });

  it("another provider's entities import its namespace too; a variable named like a package does not clash with its alias", () => {
    const text = renderCSharp(
      program({
        otherProviders: ["aws"],
        nodes: [
          resource("tls", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("RSA")]])),
          { ...resource("aws", "aws:index/instance:Instance", obj([["ami", str("ami-1")], ["rootBlockDevice", obj([["volumeSize", num(8)]])]])), entity: entity("aws:index/instance:Instance", [], true) },
        ],
      }),
    );
    expect(text).toContain("using Aws = Pulumi.Aws;\nusing Tls = Pulumi.Tls;\n");
    expect(text).toContain('var tls = new Tls.PrivateKey("tls", new()');
    // Another provider's nested types are unknown here: a plain dictionary.
    expect(text).toContain(
      ['    var aws = new Aws.Instance("aws", new()', "    {", '        Ami = "ami-1",', "        RootBlockDevice = new Dictionary<string, object?>", "        {", '            ["volumeSize"] = 8,', "        },", "    });"].join("\n"),
    );
  });

  it("a package named output is imported as PulumiOutput", () => {
    const text = renderCSharp(program({ pkg: "output", nodes: [resource("x", "output:index/thing:Thing", obj([]))] }));
    expect(text).toContain("using PulumiOutput = Pulumi.Output;");
    expect(text).toContain('var x = new PulumiOutput.Thing("x");');
  });
});

describe("renderCSharp: values", () => {
  const one = (v: Value): string => body({ nodes: [resource("r", "tls:index/thing:Thing", obj([["value", v]]))] });

  it.each<[string, Value, string]>([
    ["a string", str('say "hi" \\ {x}'), 'Value = "say \\"hi\\" \\\\ {x}",'],
    ["a multi-line string (verbatim)", str('line "1"\nline 2\n'), 'Value = @"line ""1""\nline 2\n",'],
    ["a whole number (a double in the SDK)", num(16), "Value = 16,"],
    ["a fraction", num(1.5), "Value = 1.5,"],
    ["a negative number", num(-3), "Value = -3,"],
    ["a bool", bool(true), "Value = true,"],
    ["a config variable", cfg("amiId"), "Value = amiId,"],
    ["a template without outputs", tpl("web-", cfg("amiId")), 'Value = $"web-{amiId}",'],
    ["a template with an output", tpl("web-", ref("other", prop("id")), " {x}"), 'Value = Output.Format($"web-{other.Id} {{x}}"),'],
    ["a multi-line template", tpl("a\n", ref("other", prop("id")), '"'), 'Value = Output.Format(@$"a\n{other.Id}"""),'],
    ["a resource's property", ref("other", prop("privateKeyPem")), "Value = other.PrivateKeyPem,"],
    ["an index into a resource's list", ref("other", prop("certificates"), { kind: "index", index: 0 }, prop("certPem")), "Value = other.Certificates.Apply(certificates => certificates[0].CertPem),"],
    ["a key of a resource's map", ref("other", prop("keepers"), { kind: "key", key: "ami_id" }), 'Value = other.Keepers.Apply(keepers => keepers["ami_id"]),'],
    ["a property named like a keyword, read in an Apply", ref("other", prop("default"), { kind: "index", index: 1 }), "Value = other.Default.Apply(@default => @default[1]),"],
  ])("%s", (_, v, expected) => {
    expect(one(v)).toContain(`\n    ${expected}\n`);
  });

  it("a number or bool where a string is wanted becomes a string, as Terraform converts it", () => {
    const num_ = propertyModel({ tfName: "year", name: "year", tfType: { kind: "number" }, type: { kind: "number" } });
    const src: ResourceNode = { ...resource("src", "tls:index/thing:Thing", obj([])), entity: entity("tls:index/thing:Thing", [num_]) };
    const exists: FunctionModel = { tfName: "direxists", token: "tls:index/direxists:direxists", parameters: [], tfReturnType: { kind: "bool" }, returnType: { kind: "boolean" }, description: "" };
    const text = body({
      config: [{ name: "on", variable: "on", type: "boolean" }],
      nodes: [
        src,
        invoke("there", exists.token, obj([]), { role: "function", function: exists }),
        resource(
          "r",
          "tls:index/thing:Thing",
          obj([
            ["a", { ...ref("src", prop("year")), type: { kind: "string" } }],
            ["b", { ...ref("there"), type: { kind: "string" } }],
            ["c", { ...cfg("on"), type: { kind: "string" } }],
            ["d", { ...ref("src", prop("year")), type: { kind: "number" } }],
          ]),
        ),
      ],
    });
    expect(text).toContain(
      ["    A = src.Year.Apply(v => v.ToString()),", '    B = there.Apply(v => (v ? "true" : "false")),', '    C = (@on ? "true" : "false"),', "    D = src.Year,"].join("\n"),
    );
  });

  it("a null property is left out (an absent input is null)", () => {
    expect(one({ kind: "null" })).toBe('var r = new Tls.Thing("r");');
  });

  it("lists: strings and bools as new[], numbers as new double[], objects of one input class, outputs mixed in by a collection initializer, empty", () => {
    const text = body({
      nodes: [
        resource(
          "r",
          "tls:index/thing:Thing",
          obj([
            ["allowedUses", list(str("a"), str("b"))],
            ["flags", list(bool(true))],
            ["ports", list(num(80), num(443))],
            ["subjects", list(obj([["commonName", str("example.com")]], objectType("ThingSubject")))],
            ["mixed", list(str("a"), ref("other", prop("id")))],
            ["empty", list()],
          ]),
        ),
      ],
    });
    expect(text).toBe(
      [
        'var r = new Tls.Thing("r", new()',
        "{",
        "    AllowedUses = new[]",
        "    {",
        '        "a",',
        '        "b",',
        "    },",
        "    Flags = new[]",
        "    {",
        "        true,",
        "    },",
        "    Ports = new double[]",
        "    {",
        "        80,",
        "        443,",
        "    },",
        "    Subjects = new[]",
        "    {",
        "        new Tls.Inputs.ThingSubjectArgs",
        "        {",
        '            CommonName = "example.com",',
        "        },",
        "    },",
        "    Mixed = new()",
        "    {",
        '        "a",',
        "        other.Id,",
        "    },",
        "    Empty = new() { },",
        "});",
      ].join("\n"),
    );
  });

  it("maps: a property's InputMap filled by a collection initializer, keys as given; a single nested object and a map of objects", () => {
    const text = body({
      nodes: [
        resource(
          "r",
          "tls:index/thing:Thing",
          obj([
            ["tags", map(["Name", str("x")], ["ami_id", cfg("amiId")])],
            ["subject", obj([["commonName", str("example.com")], ["organizationalUnits", list(str("ou"))]], objectType("ThingSubject"))],
            ["rules", map(["first", obj([["port", num(1)]], objectType("ThingRule"))])],
            ["none", map()],
          ]),
        ),
      ],
    });
    expect(text).toBe(
      [
        'var r = new Tls.Thing("r", new()',
        "{",
        "    Tags =",
        "    {",
        '        { "Name", "x" },',
        '        { "ami_id", amiId },',
        "    },",
        "    Subject = new Tls.Inputs.ThingSubjectArgs",
        "    {",
        '        CommonName = "example.com",',
        "        OrganizationalUnits = new[]",
        "        {",
        '            "ou",',
        "        },",
        "    },",
        "    Rules =",
        "    {",
        '        { "first", new Tls.Inputs.ThingRuleArgs',
        "        {",
        "            Port = 1,",
        "        } },",
        "    },",
        "    None = new() { },",
        "});",
      ].join("\n"),
    );
  });

  it("builtins: file, trimspace, jsonencode (plain and with outputs), jsondecode; their usings", () => {
    const text = renderCSharp(
      program({
        nodes: [
          resource(
            "r",
            "tls:index/thing:Thing",
            obj([
              ["pem", { kind: "call", fn: "file", args: [str("key.pem")] }],
              ["trimmed", { kind: "call", fn: "trimspace", args: [{ kind: "call", fn: "file", args: [str("name.txt")] }] }],
              ["trimmedOutput", { kind: "call", fn: "trimspace", args: [ref("other", prop("content"))] }],
              ["json", { kind: "call", fn: "jsonencode", args: [map(["a", num(1)], ["b", list(str("x"), str("y"))])] }],
              ["jsonOutput", { kind: "call", fn: "jsonencode", args: [map(["id", ref("other", prop("id"))])] }],
              ["decoded", { kind: "call", fn: "jsondecode", args: [str('{"a":1}')], type: { kind: "map", values: { kind: "string" } } }],
              ["decodedOutput", { kind: "call", fn: "jsondecode", args: [ref("other", prop("content"))], type: { kind: "array", items: { kind: "string" } } }],
            ]),
          ),
        ],
      }),
    );
    expect(text.split("\n").slice(0, 6)).toEqual(["using System.Collections.Generic;", "using System.IO;", "using System.Linq;", "using System.Text.Json;", "using Pulumi;", "using Tls = Pulumi.Tls;"]);
    for (const line of [
      '        Pem = File.ReadAllText("key.pem"),',
      '        Trimmed = File.ReadAllText("name.txt").Trim(),',
      "        TrimmedOutput = other.Content.Apply(s => s.Trim()),",
      [
        "        Json = JsonSerializer.Serialize(new Dictionary<string, object?>",
        "        {",
        '            ["a"] = 1,',
        '            ["b"] = new[]',
        "            {",
        '                "x",',
        '                "y",',
        "            },",
        "        }),",
      ].join("\n"),
      ["        JsonOutput = Output.JsonSerialize(Output.Create(new Dictionary<string, object?>", "        {", '            ["id"] = other.Id,', "        })),"].join("\n"),
      '        Decoded = JsonSerializer.Deserialize<Dictionary<string, string>>("{\\"a\\":1}"),',
      "        DecodedOutput = Output.JsonDeserialize<string[]>(other.Content),",
    ]) {
      expect(text).toContain(`${line}\n`);
    }
  });
});

describe("renderCSharp: configuration", () => {
  it.each<[string, ConfigVariable, string]>([
    ["a required string", { name: "ami_id", variable: "amiId", type: "string" }, 'var amiId = config.Require("ami_id");'],
    ["a required number", { name: "count", variable: "count", type: "number" }, 'var count = config.RequireDouble("count");'],
    ["a required bool", { name: "on", variable: "on", type: "boolean" }, 'var @on = config.RequireBoolean("on");'],
    ["a string with a default", { name: "region", variable: "region", type: "string", default: str("us-east-1") }, 'var region = config.Get("region") ?? "us-east-1";'],
    ["a number with a default", { name: "size", variable: "size", type: "number", default: num(3) }, 'var size = config.GetDouble("size") ?? 3;'],
    ["a bool with a default", { name: "enabled", variable: "enabled", type: "boolean", default: bool(false) }, 'var enabled = config.GetBoolean("enabled") ?? false;'],
  ])("%s", (_, c, expected) => {
    expect(body({ config: [c] })).toBe(`var config = new Config();\n${expected}`);
  });
});

describe("renderCSharp: resources and providers", () => {
  it("no arguments: the name alone, unless an input is required", () => {
    expect(body({ nodes: [resource("pet", "random:index/pet:Pet", obj([]))] })).toBe('var pet = new Random.Pet("pet");');
    const withRequired: ProgramNode = { ...resource("cert", "tls:index/certRequest:CertRequest", obj([])), entity: entity("tls:index/certRequest:CertRequest", [required("privateKeyPem")]) };
    expect(body({ nodes: [withRequired] })).toBe('var cert = new Tls.CertRequest("cert", new());');
  });

  it("the resource name is the HCL label, the variable its camelCase", () => {
    expect(body({ nodes: [{ ...resource("ed25519Example", "tls:index/privateKey:PrivateKey", obj([])), name: "ed25519-example" }] })).toBe('var ed25519Example = new Tls.PrivateKey("ed25519-example");');
  });

  it("dependsOn and an explicit provider as CustomResourceOptions", () => {
    const text = body({
      nodes: [
        { kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: obj([["proxies", list(obj([["fromEnv", bool(true)]], objectType("ProviderProxy")))]]), properties: [] },
        resource("first", "tls:index/privateKey:PrivateKey", obj([])),
        resource("second", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("RSA")]]), { dependsOn: ["first"], provider: "tlsProvider" }),
        resource("third", "tls:index/privateKey:PrivateKey", obj([]), { dependsOn: ["first", "second"] }),
      ],
    });
    expect(text).toBe(
      [
        'var tlsProvider = new Tls.Provider("tls", new()',
        "{",
        "    Proxies = new[]",
        "    {",
        "        new Tls.Inputs.ProviderProxyArgs",
        "        {",
        "            FromEnv = true,",
        "        },",
        "    },",
        "});",
        "",
        'var first = new Tls.PrivateKey("first");',
        "",
        'var second = new Tls.PrivateKey("second", new()',
        "{",
        '    Algorithm = "RSA",',
        "}, new CustomResourceOptions",
        "{",
        "    DependsOn =",
        "    {",
        "        first,",
        "    },",
        "    Provider = tlsProvider,",
        "});",
        "",
        'var third = new Tls.PrivateKey("third", new(), new CustomResourceOptions',
        "{",
        "    DependsOn =",
        "    {",
        "        first,",
        "        second,",
        "    },",
        "});",
      ].join("\n"),
    );
  });

  it("depends_on naming a data source: left out (an invoke is no resource to wait for)", () => {
    const text = body({ nodes: [invoke("pub", "tls:index/getPublicKey:getPublicKey", obj([])), resource("r", "tls:index/privateKey:PrivateKey", obj([]), { dependsOn: ["pub"] })] });
    expect(text).toBe(['var pub = Tls.GetPublicKey.Invoke();', "", 'var r = new Tls.PrivateKey("r");'].join("\n"));
  });

  it("a provider without arguments", () => {
    expect(body({ nodes: [{ kind: "provider", name: "tls", variable: "tlsProvider", pkg: "tls", args: obj([]), properties: [] }] })).toBe('var tlsProvider = new Tls.Provider("tls");');
  });
});

describe("renderCSharp: invokes (output form)", () => {
  it("a data source: Invoke with InvokeArgs whose object types are the …InputArgs classes; its result read in an Apply", () => {
    const text = body({
      nodes: [
        invoke("cert", "tls:index/getCertificate:getCertificate", obj([["url", str("https://example.com")], ["retry", obj([["attempts", num(3)]], objectType("getCertificateRetry"))]])),
        resource("r", "tls:index/thing:Thing", obj([["fingerprint", ref("cert", prop("certificates"), { kind: "index", index: 0 }, prop("sha1Fingerprint"))], ["whole", ref("cert")]])),
      ],
    });
    expect(text).toBe(
      [
        "var cert = Tls.GetCertificate.Invoke(new()",
        "{",
        '    Url = "https://example.com",',
        "    Retry = new Tls.Inputs.GetCertificateRetryInputArgs",
        "    {",
        "        Attempts = 3,",
        "    },",
        "});",
        "",
        'var r = new Tls.Thing("r", new()',
        "{",
        "    Fingerprint = cert.Apply(getCertificateResult => getCertificateResult.Certificates[0].Sha1Fingerprint),",
        "    Whole = cert,",
        "});",
      ].join("\n"),
    );
  });

  it("a data source without arguments, and one with an explicit provider (InvokeOptions)", () => {
    const text = body({
      nodes: [
        invoke("all", "tls:index/getThings:getThings", obj([])),
        invoke("some", "tls:index/getThings:getThings", obj([]), { provider: "tlsProvider" }),
      ],
    });
    expect(text).toBe(["var all = Tls.GetThings.Invoke();", "", "var some = Tls.GetThings.Invoke(new(), new InvokeOptions", "{", "    Provider = tlsProvider,", "});"].join("\n"));
  });

  it("an ephemeral resource: its function in the Ephemeral namespace", () => {
    const text = body({ nodes: [invoke("pw", "random:ephemeral/getPassword:getPassword", obj([["length", num(16)]]))], outputs: [{ name: "pw", value: ref("pw", prop("result")) }] });
    expect(text).toBe(
      ["var pw = Random.Ephemeral.GetPassword.Invoke(new()", "{", "    Length = 16,", "});", "", "return new Dictionary<string, object?>", "{", '    ["pw"] = pw.Apply(getPasswordResult => getPasswordResult.Result),', "};"].join("\n"),
    );
  });

  const fn = (name: string, params: string[], returnType: FunctionModel["returnType"]): FunctionModel => ({
    tfName: name,
    token: `time:index/${name}:${name}`,
    parameters: params.map((p) => ({ tfName: p, name: p, tfType: { kind: "string" }, type: { kind: "string" }, required: true, description: "" })),
    tfReturnType: { kind: "string" },
    returnType,
    description: "",
  });

  it("a provider function with a plain result (the SDK unwraps it) and positional arguments", () => {
    const durationParse = fn("durationParse", ["duration"], { kind: "number" });
    const text = body({
      pkg: "time",
      nodes: [invoke("parsed", durationParse.token, obj([["duration", str("1h")]]), { role: "function", function: durationParse })],
      outputs: [{ name: "seconds", value: ref("parsed") }],
    });
    expect(text).toBe(['var parsed = Time.DurationParse.Invoke("1h");', "", "return new Dictionary<string, object?>", "{", '    ["seconds"] = parsed,', "};"].join("\n"));
  });

  it("a provider function with several arguments in the schema's order, a gap as null, an index into a plain list result", () => {
    const join = fn("join", ["sep", "middle", "last"], { kind: "array", items: { kind: "string" } });
    const text = body({
      pkg: "time",
      nodes: [invoke("joined", join.token, obj([["last", str("c")], ["sep", list(str("a"), ref("other", prop("id")))]]), { role: "function", function: join })],
      outputs: [{ name: "first", value: ref("joined", { kind: "index", index: 0 }) }],
    });
    expect(text).toBe(
      ["var joined = Time.Join.Invoke(new()", "{", '    "a",', "    other.Id,", '}, null, "c");', "", "return new Dictionary<string, object?>", "{", '    ["first"] = joined.Apply(result => result[0]),', "};"].join("\n"),
    );
  });

  it("a provider function with an object result: its fields read in an Apply", () => {
    const rfc = fn("rfc3339Parse", ["timestamp"], { kind: "object", ref: objectType("rfc3339ParseResult", "time") });
    const text = body({
      pkg: "time",
      nodes: [invoke("parsed", rfc.token, obj([["timestamp", str("2024-01-01T00:00:00Z")]]), { role: "function", function: rfc })],
      outputs: [{ name: "year", value: ref("parsed", prop("year")) }],
    });
    expect(text).toContain('["year"] = parsed.Apply(rfc3339ParseResult => rfc3339ParseResult.Year),');
  });
});

describe("renderCSharp: repeated resources (count, for_each)", () => {
  const index: Value = { kind: "loop", part: "index", type: { kind: "number" } };
  const key: Value = { kind: "loop", part: "key", type: { kind: "string" } };
  const each = (type?: "string" | "number"): Value => ({ kind: "loop", part: "value", ...(type !== undefined ? { type: { kind: type } } : {}) });
  const at = (i: number): PathStep => ({ kind: "index", index: i });
  const keyed = (k: string): PathStep => ({ kind: "key", key: k });

  it("count: a List filled in a counting loop over range.Value, each instance named after its index", () => {
    const text = body({ nodes: [resource("keys", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("RSA")], ["rsaBits", index]]), { loop: { kind: "count", count: num(3) } })] });
    expect(text).toBe(
      [
        "var keys = new List<Tls.PrivateKey>();",
        "for (var rangeIndex = 0; rangeIndex < 3; rangeIndex++)",
        "{",
        "    var range = new { Value = rangeIndex };",
        '    keys.Add(new Tls.PrivateKey($"keys-{range.Value}", new()',
        "    {",
        '        Algorithm = "RSA",',
        "        RsaBits = range.Value,",
        "    }));",
        "}",
      ].join("\n"),
    );
  });

  it("count from configuration (a double, which an int index compares with)", () => {
    const config: ConfigVariable[] = [{ name: "n", variable: "n", type: "number" }];
    const text = body({ config, nodes: [resource("k", "tls:index/privateKey:PrivateKey", obj([["algorithm", str("RSA")]]), { loop: { kind: "count", count: { ...cfg("n"), type: { kind: "number" } } } })] });
    expect(text).toContain('var n = config.RequireDouble("n");\n\nvar k = new List<Tls.PrivateKey>();\nfor (var rangeIndex = 0; rangeIndex < n; rangeIndex++)\n');
  });

  it("for_each over a map: a Dictionary by key from its pairs, typed by the values they share; range.Key and range.Value", () => {
    const items = map(["short", num(4)], ["long", num(12)]);
    const text = body({ nodes: [resource("s", "tls:index/thing:Thing", obj([["name", key], ["length", each("number")]]), { loop: { kind: "forEach", items } })] });
    expect(text).toBe(
      [
        "var s = new Dictionary<string, Tls.Thing>();",
        "foreach (var range in new Dictionary<string, double>",
        "{",
        '    ["short"] = 4,',
        '    ["long"] = 12,',
        "}.Select(pair => new { pair.Key, pair.Value }))",
        "{",
        '    s.Add(range.Key, new Tls.Thing($"s-{range.Key}", new()',
        "    {",
        "        Name = range.Key,",
        "        Length = range.Value,",
        "    }));",
        "}",
      ].join("\n"),
    );
  });

  it("for_each over a map of mixed values: object? values", () => {
    const text = body({ nodes: [resource("s", "tls:index/thing:Thing", obj([["name", key]]), { loop: { kind: "forEach", items: map(["a", num(1)], ["b", str("x")]) } })] });
    expect(text).toContain("foreach (var range in new Dictionary<string, object?>\n{\n");
  });

  it("for_each over a list (toset) of strings: each string is key and value", () => {
    const text = body({ nodes: [resource("s", "tls:index/thing:Thing", obj([["name", each("string")]]), { loop: { kind: "forEach", items: list(str("a"), str("b")) } })] });
    expect(text).toBe(
      [
        "var s = new Dictionary<string, Tls.Thing>();",
        "foreach (var range in new[]",
        "{",
        '    "a",',
        '    "b",',
        "}.Select(v => new { Key = v, Value = v }))",
        "{",
        '    s.Add(range.Key, new Tls.Thing($"s-{range.Key}", new()',
        "    {",
        "        Name = range.Value,",
        "    }));",
        "}",
      ].join("\n"),
    );
  });

  it("loop values in nested objects, maps, lists and templates; the index made a string where the schema wants one", () => {
    const name = propertyModel({ tfName: "name", name: "name", tfType: { kind: "string" }, type: { kind: "string" } });
    const subject: ObjectTypeModel = { ...objectType("ThingSubject"), properties: [name] };
    const r: ResourceNode = {
      ...resource(
        "r",
        "tls:index/thing:Thing",
        obj([
          ["name", index],
          ["subject", obj([["name", index], ["commonName", tpl("host", index, ".example.com")]], subject)],
          ["tags", map(["n", tpl("", index)])],
          ["zones", list(tpl("z", index))],
        ]),
        { loop: { kind: "count", count: num(2) } },
      ),
      entity: { ...entity("tls:index/thing:Thing"), properties: [name] },
    };
    const text = body({ nodes: [r] });
    expect(text).toContain(
      [
        "        Name = range.Value.ToString(),",
        "        Subject = new Tls.Inputs.ThingSubjectArgs",
        "        {",
        "            Name = range.Value.ToString(),",
        '            CommonName = $"host{range.Value}.example.com",',
        "        },",
        "        Tags =",
        "        {",
        '            { "n", $"{range.Value}" },',
        "        },",
        "        Zones = new()",
        "        {",
        '            $"z{range.Value}",',
        "        },",
      ].join("\n"),
    );
  });

  it("dependsOn and an explicit provider inside the loop", () => {
    const text = body({
      nodes: [
        { kind: "provider", name: "west", variable: "west", pkg: "tls", args: obj([]), properties: [] },
        resource("a", "tls:index/thing:Thing", obj([])),
        resource("r", "tls:index/thing:Thing", obj([]), { loop: { kind: "count", count: num(2) }, dependsOn: ["a"], provider: "west" }),
      ],
    });
    expect(text).toContain(
      ['    r.Add(new Tls.Thing($"r-{range.Value}", new(), new CustomResourceOptions', "    {", "        DependsOn =", "        {", "            a,", "        },", "        Provider = west,", "    }));", "}"].join("\n"),
    );
  });

  it("depends_on a repeated resource: its instances as a Resource[] (List and Dictionary values)", () => {
    const text = body({
      nodes: [
        resource("n", "tls:index/thing:Thing", obj([]), { loop: { kind: "count", count: num(2) } }),
        resource("k", "tls:index/thing:Thing", obj([]), { loop: { kind: "forEach", items: list(str("a")) } }),
        resource("r", "tls:index/thing:Thing", obj([]), { dependsOn: ["n", "k"] }),
      ],
    });
    expect(text).toContain(['var r = new Tls.Thing("r", new(), new CustomResourceOptions', "{", "    DependsOn =", "    {", "        n.ToArray<Resource>(),", "        k.Values.ToArray<Resource>(),", "    },", "});"].join("\n"));
  });

  it("references to an instance: by index, by key (also written attribute-style in HCL), into its nested values", () => {
    const subjects = propertyModel({ tfName: "subject", name: "subjects", tfType: { kind: "list", element: { kind: "string" } }, type: { kind: "array", items: { kind: "string" } } });
    const year = propertyModel({ tfName: "year", name: "year", tfType: { kind: "number" }, type: { kind: "number" } });
    const text = body({
      nodes: [
        { ...resource("certs", "tls:index/thing:Thing", obj([]), { loop: { kind: "count", count: num(2) } }), entity: entity("tls:index/thing:Thing", [subjects, year]) },
        resource("keys", "tls:index/privateKey:PrivateKey", obj([["algorithm", key]]), { loop: { kind: "forEach", items: list(str("ec")) } }),
      ],
      outputs: [
        { name: "first", value: ref("certs", at(0), prop("id")) },
        { name: "subject", value: ref("certs", at(1), prop("subjects"), at(0)) },
        { name: "year", value: { ...ref("certs", at(1), prop("year")), type: { kind: "string" } } },
        { name: "pem", value: ref("keys", keyed("ec"), prop("privateKeyPem")) },
        { name: "template", value: tpl("pem: ", ref("keys", keyed("ec"), prop("privateKeyPem"))) },
      ],
    });
    expect(text).toContain(
      [
        "return new Dictionary<string, object?>",
        "{",
        '    ["first"] = certs[0].Id,',
        '    ["subject"] = certs[1].Subjects.Apply(subjects => subjects[0]),',
        '    ["year"] = certs[1].Year.Apply(v => v.ToString()),',
        '    ["pem"] = keys["ec"].PrivateKeyPem,',
        '    ["template"] = Output.Format($"pem: {keys["ec"].PrivateKeyPem}"),',
        "};",
      ].join("\n"),
    );
  });

  it.each<[string, ResourceNode["loop"], RegExp]>([
    ["a count known only after deployment", { kind: "count", count: ref("other", prop("length")) }, /r: a count known only after deployment cannot drive a C# loop/],
    ["a for_each over values known only after deployment", { kind: "forEach", items: map(["a", ref("other", prop("id"))]) }, /r: for_each over values known only after deployment cannot drive a C# loop/],
  ])("%s stays HCL", (_, loop, reason) => {
    expect(() => body({ nodes: [resource("r", "tls:index/thing:Thing", obj([]), { loop: loop! })] })).toThrow(reason);
  });
});
