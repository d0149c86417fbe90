// The binder: HCL blocks resolved against the provider model into a typed program, and the reasons an example stays HCL.
import { describe, expect, it } from "vitest";
import { exampleProgram } from "../../src/schema-translate/examples/index.js";
import { exampleModel } from "../support/example-model.js";

const model = exampleModel();
const bind = (hcl: string) => exampleProgram(hcl, model);

describe("bindProgram", () => {
  it("resolves a resource: tokens, Pulumi names, schema types, a single block as an object and repeated blocks as a list", () => {
    const p = bind(`
resource "ex_thing" "my-thing" {
  name = "a"
  size = "3"
  tags = { Name = "x" }
  settings {
    mode = "fast"
  }
  rule {
    port = 80
  }
  rule {
    port = 443
  }
}`);
    expect(p.pkg).toBe("ex");
    expect(p.goImports).toEqual({ ex: "github.com/pulumi/pulumi-terraform-provider/sdks/go/ex/v2/ex" });
    const [n] = p.nodes;
    expect(n).toMatchObject({ kind: "resource", name: "my-thing", variable: "myThing", entity: { pkg: "ex", token: "ex:index/thing:Thing", foreign: false }, dependsOn: [] });
    if (n?.kind !== "resource") throw new Error("not a resource");
    const props = Object.fromEntries(n.args.properties.map((q) => [q.name, q.value]));
    expect(props["size"], "a numeric string where the schema has a number is the number").toMatchObject({ kind: "number", value: 3, type: { kind: "number" } });
    expect(props["tags"]).toMatchObject({ kind: "map", entries: [{ key: "Name", value: { kind: "string", value: "x" } }] });
    expect(props["settings"]).toMatchObject({ kind: "object", objectType: { token: "ex:index/ThingSettings:ThingSettings" }, properties: [{ name: "mode" }] });
    expect(props["rules"]).toMatchObject({ kind: "list", items: [{ kind: "object", properties: [{ name: "port", value: { value: 80 } }] }, { kind: "object" }] });
  });

  it("orders nodes after what they refer to, and resolves references through Pulumi names, indexes and map keys", () => {
    const p = bind(`
resource "ex_thing" "b" {
  name = "\${ex_thing.a.endpoints[0]}-\${ex_thing.a.labels.team}"
  zones = [data.ex_lookup.l.match[0].id]
  depends_on = [ex_thing.a]
}
data "ex_lookup" "l" {
  key = ex_thing.a.id
}
resource "ex_thing" "a" {
  name = var.thing_name
}
output "value" {
  value = data.ex_lookup.l.value
}`);
    expect(p.nodes.map((n) => n.variable)).toEqual(["a", "l", "b"]);
    expect(p.config).toEqual([{ name: "thing_name", variable: "thingName", type: "string" }]);
    const b = p.nodes[2]!;
    if (b.kind !== "resource") throw new Error("not a resource");
    expect(b.dependsOn).toEqual(["a"]);
    expect(b.args.properties[0]!.value).toMatchObject({
      kind: "template",
      parts: [{ kind: "ref", node: "a", path: [{ kind: "property", name: "endpoints" }, { kind: "index", index: 0 }] }, "-", { kind: "ref", node: "a", path: [{ kind: "property", name: "labels" }, { kind: "key", key: "team" }] }],
    });
    expect(b.args.properties[1]!.value).toMatchObject({ kind: "list", items: [{ kind: "ref", node: "l", path: [{ name: "matches" }, { index: 0 }, { name: "id" }] }] });
    expect(p.outputs).toMatchObject([{ name: "value", value: { kind: "ref", node: "l", path: [{ name: "value" }], type: { kind: "string" } } }]);
  });

  it("makes a provider function an invoke node of its own, a provider block an explicit provider, other providers foreign", () => {
    const p = bind(`
provider "ex" {
  endpoint = "https://e"
}
resource "aws_s3_bucket" "b" {
  bucket = provider::ex::parse("\${path.module}/x")
  tags = { a = "b" }
}
ephemeral "ex_secret" "s" {
  length = 8
}`);
    expect(p.otherProviders).toEqual(["aws"]);
    expect(p.nodes.map((n) => [n.kind, n.variable])).toEqual([["provider", "exProvider"], ["invoke", "parseResult"], ["resource", "b"], ["invoke", "s"]]);
    expect(p.nodes[1]).toMatchObject({ role: "function", entity: { token: "ex:index/parse:parse" }, args: { properties: [{ name: "input", value: { kind: "string", value: "./x" } }] } });
    expect(p.nodes[2]).toMatchObject({ entity: { pkg: "aws", token: "aws:index/s3Bucket:S3Bucket", foreign: true }, args: { properties: [{ name: "bucket", value: { kind: "ref", node: "parseResult", path: [] } }, { name: "tags" }] } });
    expect(p.nodes[3]).toMatchObject({ role: "ephemeral", entity: { token: "ex:ephemeral/getSecret:getSecret" }, provider: "exProvider" });
    expect(p.goImports["aws"]).toBe("github.com/pulumi/pulumi-terraform-provider/sdks/go/aws/aws");
  });

  it("gives variables that clash with each other, a package or a keyword a name of their own", () => {
    const p = bind(`
resource "ex_thing" "ex" { name = "a" }
data "ex_lookup" "ex" { key = "k" }
resource "ex_thing" "default" { name = "b" }`);
    expect(p.nodes.map((n) => n.variable)).toEqual(["exThing", "exLookup", "default_"]);
  });

  it.each([
    ['resource "ex_thing" "a" {\n  name = "a"\n  lifecycle {\n    ignore_changes = [name]\n  }\n}', /`lifecycle`/],
    ['resource "ex_thing" "a" {\n  name = "a"\n  nope = 1\n}', /ex_thing\.a: nope is not in the schema/],
    ['resource "ex_thing" "a" {\n  name = "a"\n  result = "x"\n}', /result is computed by the provider and cannot be set/],
    ['resource "ex_thing" "a" {\n  name = upper("a")\n}', /the function upper has no equivalent rendered here/],
    ['resource "ex_thing" "a" {\n  name = data.aws_ami.x.id\n}', /nothing in the example is named data\.aws_ami\.x/],
    ['resource "ex_nothing" "a" {}', /ex_nothing is not in this provider's schema/],
    ['module "m" {\n  source = "x"\n}', /`module` blocks have no equivalent/],
    ['resource "ex_thing" "a" {\n  name = 1 + 2\n}', /operators/],
    ['resource "ex_thing" "a" {\n  name = self.id\n}', /self\.\* is not rendered/],
  ])("%j stays HCL", (hcl, reason) => {
    expect(() => bind(hcl)).toThrow(reason);
  });
});

describe("repeated resources", () => {
  it("binds count and for_each, the loop's index, key and value, and references through an index or key", () => {
    const p = bind(`
resource "ex_thing" "n" {
  count = 2
  name  = "n\${count.index}"
  size  = count.index
}
resource "ex_thing" "k" {
  for_each = { a = 1, b = 2 }
  name     = each.key
  size     = each.value
}
resource "ex_thing" "s" {
  for_each = toset(["x"])
  name     = each.value
  zones    = [ex_thing.n[1].result, ex_thing.k.a.result, ex_thing.k["b"].id]
}`);
    expect(p.nodes.map((n) => (n.kind === "resource" ? n.loop?.kind : undefined))).toEqual(["count", "forEach", "forEach"]);
    const [n, k, s] = p.nodes as Extract<(typeof p.nodes)[number], { kind: "resource" }>[];
    expect(n!.loop).toEqual({ kind: "count", count: { kind: "number", value: 2, type: { kind: "number" } } });
    expect(n!.args.properties.map((q) => q.value)).toMatchObject([{ kind: "template", parts: ["n", { kind: "loop", part: "index" }] }, { kind: "loop", part: "index" }]);
    expect(k!.args.properties.map((q) => q.value)).toMatchObject([{ kind: "loop", part: "key" }, { kind: "loop", part: "value", type: { kind: "number" } }]);
    expect(s!.loop).toMatchObject({ kind: "forEach", items: { kind: "list", items: [{ kind: "string", value: "x" }] } });
    expect(s!.args.properties[1]!.value).toMatchObject({
      kind: "list",
      items: [
        { kind: "ref", node: "n", path: [{ kind: "index", index: 1 }, { name: "result" }] },
        { kind: "ref", node: "k", path: [{ kind: "key", key: "a" }, { name: "result" }] },
        { kind: "ref", node: "k", path: [{ kind: "key", key: "b" }, { name: "id" }] },
      ],
    });
  });

  it.each([
    ['resource "ex_thing" "n" {\n  count = 2\n  name = "a"\n}\noutput "o" {\n  value = ex_thing.n.result\n}', /a repeated resource is referred to here without an index/],
    ['resource "ex_thing" "a" {\n  name = count.index\n}', /count\.\* is not rendered here/],
    ['resource "ex_thing" "a" {\n  for_each = [1, 2]\n  name = "a"\n}', /for_each over a list needs strings as keys/],
    ['resource "ex_thing" "a" {\n  name = "a"\n}\nresource "ex_thing" "b" {\n  for_each = ex_thing.a.labels\n  name = each.key\n}', /for_each over a value computed at run time/],
    ['data "ex_lookup" "l" {\n  count = 2\n  key = "k"\n}', /a repeated data source or ephemeral resource is not rendered/],
  ])("%j stays HCL", (hcl, reason) => {
    expect(() => bind(hcl)).toThrow(reason);
  });
});
