// The TypeScript rendering of example programs: imports, config, resources with options, invokes in output form,
// provider functions, references, templates, builtins and outputs.
import { describe, expect, it } from "vitest";
import { exampleProgram } from "../../src/schema-translate/examples/index.js";
import { renderTypeScript } from "../../src/schema-translate/examples/typescript.js";
import { exampleModel } from "../support/example-model.js";

const model = exampleModel();
const ts = (hcl: string): string => renderTypeScript(exampleProgram(hcl, model));

describe("renderTypeScript", () => {
  it("writes a whole program", () => {
    expect(
      ts(`
variable "size" {
  type = number
  default = 2
}
provider "ex" {
  proxy {
    url = "http://p"
  }
}
resource "ex_thing" "a" {
  name = var.name
  size = var.size
  settings {
    mode = "fast"
  }
  rule {
    port = 80
  }
}
data "ex_lookup" "l" {
  key = "web-\${ex_thing.a.result}"
}
resource "aws_s3_object" "o" {
  content = jsonencode({ k = ex_thing.a.id, "a-b" = [1, true, null] })
  depends_on = [ex_thing.a]
}
output "first-item" {
  value = data.ex_lookup.l.items[0]
}`),
    ).toBe(`import * as pulumi from "@pulumi/pulumi";
import * as aws from "@pulumi/aws";
import * as ex from "@pulumi/ex";

const config = new pulumi.Config();
const name = config.require("name");
const size = config.getNumber("size") ?? 2;
const exProvider = new ex.Provider("ex", {
    proxy: {
        url: "http://p",
    },
});
const a = new ex.Thing("a", {
    name: name,
    size: size,
    settings: {
        mode: "fast",
    },
    rules: [
        {
            port: 80,
        },
    ],
}, {
    provider: exProvider,
});
const l = ex.getLookupOutput({
    key: pulumi.interpolate\`web-\${a.result}\`,
}, {
    provider: exProvider,
});
const o = new aws.S3Object("o", {
    content: pulumi.jsonStringify({
        k: a.id,
        "a-b": [
            1,
            true,
            undefined,
        ],
    }),
}, {
    dependsOn: [a],
});
export const firstItem = l.items[0];
`);
  });

  it.each([
    ['ephemeral "ex_secret" "s" {\n  length = 8\n}', 'const s = ex.ephemeral.getSecretOutput({\n    length: 8,\n});'],
    ['output "o" {\n  value = provider::ex::join2("a", "b")\n}', 'const join2Result = ex.join2Output("a", "b");\nexport const o = join2Result;'],
    ['resource "ex_thing" "t" {\n  name = file("\${path.module}/n.txt")\n}', 'name: fs.readFileSync("./n.txt", "utf8"),'],
    ['resource "ex_thing" "t" {\n  name = trimspace(file("n.txt"))\n}', 'name: fs.readFileSync("n.txt", "utf8").trim(),'],
    ['resource "ex_thing" "t" {\n  name = "x"\n}\noutput "o" {\n  value = jsondecode(ex_thing.t.result)\n}', "export const o = pulumi.jsonParse(t.result);"],
    ['resource "ex_thing" "t" {\n  name = "a`b$${c}-${var.v}"\n}', String.raw`name: ${"`"}a\`b\${c}-${"${v}"}${"`"},`],
    ['resource "ex_thing" "t" {\n  name = "a$${c}"\n}', 'name: "a${c}",'],
    ['resource "ex_thing" "t" {\n  name = "x"\n  tags = {}\n  zones = []\n}', "tags: {},\n    zones: [],"],
  ])("%j", (hcl, expected) => {
    expect(ts(hcl)).toContain(expected);
  });

  it("imports fs only when a file is read", () => {
    expect(ts('resource "ex_thing" "t" {\n  name = file("n")\n}')).toContain('import * as fs from "fs";');
    expect(ts('resource "ex_thing" "t" {\n  name = "n"\n}')).not.toContain("fs");
  });
});

describe("renderTypeScript, repeated resources", () => {
  it("fills an array in a counting loop and a record per key, each instance named after its index or key", () => {
    const out = ts(`
resource "ex_thing" "n" {
  count = 2
  name  = "n\${count.index}"
}
resource "ex_thing" "k" {
  for_each = toset(["a"])
  name     = each.value
}
output "o" {
  value = ex_thing.k.a.result
}`);
    expect(out).toContain('const n: ex.Thing[] = [];\nfor (const range = {value: 0}; range.value < 2; range.value++) {\n    n.push(new ex.Thing(`n-${range.value}`, {\n        name: `n${range.value}`,\n    }));\n}');
    expect(out).toContain("const k: Record<string, ex.Thing> = {};\nfor (const range of [\n    \"a\",\n].map(key => ({key, value: key}))) {\n    k[range.key] = new ex.Thing(`k-${range.key}`, {\n        name: range.value,\n    });\n}");
    expect(out).toContain('export const o = k["a"].result;');
  });
});

describe("renderTypeScript, depends_on a repeated resource", () => {
  it("spreads its instances into dependsOn", () => {
    const out = ts('resource "ex_thing" "n" {\n  count = 2\n  name = "n"\n}\nresource "ex_thing" "k" {\n  for_each = toset(["a"])\n  name = each.key\n}\nresource "ex_thing" "after" {\n  name = "z"\n  depends_on = [ex_thing.n, ex_thing.k]\n}');
    expect(out).toContain("dependsOn: [...n, ...Object.values(k)],");
  });
});
