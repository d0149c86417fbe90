// HCL native syntax as examples use it: bodies in source order, every expression form, and errors that name the line.
import { describe, expect, it } from "vitest";
import { parseExpression, parseHcl } from "../../src/schema-translate/examples/hcl.js";
import { ConversionError } from "../../src/schema-translate/examples/program.js";

const lit = (value: string | number | boolean | null) => ({ t: "literal", value });
const name = (n: string) => ({ t: "name", name: n });

describe("parseExpression", () => {
  it.each([
    ["16", lit(16)],
    ["1.5e3", lit(1500)],
    ['"a\\n\\"b\\u00e9"', lit('a\n"bé')],
    ['"$${x} %%{y}"', lit("${x} %{y}")],
    ["true", lit(true)],
    ["null", lit(null)],
    ["-3", { t: "unary", op: "-", operand: lit(3) }],
    ["[1, 2,]", { t: "tuple", items: [lit(1), lit(2)] }],
    ['{ a = 1, "b-c" : 2 }', { t: "object", items: [{ key: lit("a"), value: lit(1) }, { key: lit("b-c"), value: lit(2) }] }],
    ["a.b[0].c", { t: "attr", of: { t: "index", of: { t: "attr", of: name("a"), name: "b" }, key: lit(0) }, name: "c" }],
    ['m["k"]', { t: "index", of: name("m"), key: lit("k") }],
    ["a.0", { t: "index", of: name("a"), key: lit(0) }],
    ["a[*].b", { t: "attr", of: { t: "splat", of: name("a") }, name: "b" }],
    ['"${x}"', name("x")],
    ['"web-${x.id}-rg"', { t: "template", parts: ["web-", { t: "attr", of: name("x"), name: "id" }, "-rg"] }],
    ['file("a.pem")', { t: "call", name: "file", args: [lit("a.pem")], expand: false }],
    ["f(xs...)", { t: "call", name: "f", args: [name("xs")], expand: true }],
    ['provider::time::duration_parse("1h")', { t: "call", name: "provider::time::duration_parse", args: [lit("1h")], expand: false }],
    ["1 + 2 * 3", { t: "binary", op: "+", left: lit(1), right: { t: "binary", op: "*", left: lit(2), right: lit(3) } }],
    ["a ? b : c", { t: "conditional", cond: name("a"), then: name("b"), else: name("c") }],
    ["[for s in xs : upper(s)]", { t: "for", source: "[for s in xs : upper(s)]" }],
  ])("%s", (source, expected) => {
    expect(parseExpression(source)).toEqual(expected);
  });
});

describe("parseHcl", () => {
  it("keeps attributes and blocks in source order, labels, nested blocks, heredocs and comments out", () => {
    const body = parseHcl(`
# a comment
resource "tls_cert_request" "example" { // trailing
  private_key_pem = file("key.pem")
  /* block
     comment */
  subject {
    common_name = "example.com"
  }
  dns_names = [
    "a",
    "b",
  ]
  note = <<-EOT
    indented
      more
  EOT
}
output "o" { value = 1 }
`);
    expect(body.blocks.map((b) => [b.type, b.labels])).toEqual([["resource", ["tls_cert_request", "example"]], ["output", ["o"]]]);
    const r = body.blocks[0]!.body;
    expect(r.items.map((i) => (i.kind === "attribute" ? i.attribute.name : `{${i.block.type}}`))).toEqual(["private_key_pem", "{subject}", "dns_names", "note"]);
    expect(r.attributes[2]!.value).toEqual(lit("indented\n  more\n"));
    expect(r.blocks[0]!.body.attributes).toEqual([{ name: "common_name", value: lit("example.com") }]);
  });

  it("reads a multi-line object whose items are separated by newlines", () => {
    const body = parseHcl('x = {\n  a = 1\n  b = [\n 2\n ]\n}\n');
    expect(body.attributes[0]!.value).toEqual({ t: "object", items: [{ key: lit("a"), value: lit(1) }, { key: lit("b"), value: { t: "tuple", items: [lit(2)] } }] });
  });

  it.each([
    ['resource "a" "b" {\n  x = \n}', /HCL line 2: expected an expression/],
    ['x = "open', /HCL line 1: a quoted string runs past the end of its line|never closed/],
    ['x = "%{ if true }y%{ endif }"', /template directives/],
    ["x = 1 y = 2", /expected the end of the line after x/],
    ["x = <<EOT\nno end\n", /the heredoc EOT is never closed/],
    ["x = @", /unexpected character "@"/],
  ])("rejects %j", (text, message) => {
    expect(() => parseHcl(text)).toThrow(ConversionError);
    expect(() => parseHcl(text)).toThrow(message);
  });
});
