// The HCL block scanner: block order, labels and spans, and what it must not mistake for a block.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { scanHclBlocks } from "../../src/acquire/hcl-blocks.js";

describe("the HCL block scanner", () => {
  it("finds blocks in order, skipping strings, comments, heredocs and object values", () => {
    const text = [
      'a = "provider_installation { fake }"',
      "# provider_installation { commented }",
      "obj = {",
      "  nested = { x = 1 }",
      "}",
      "doc = <<EOT",
      "provider_installation {",
      "EOT",
      "provider_installation {",
      '  direct { exclude = ["x/y"] }',
      "  network_mirror {",
      '    url = "https://m/"',
      "  }",
      "}",
      'credentials "h" { token = "t" }',
    ].join("\n");
    const blocks = scanHclBlocks(text);
    expect(blocks.map((b) => [b.type, b.labels])).toEqual([
      ["provider_installation", []],
      ["credentials", ["h"]],
    ]);
    expect(blocks[0]!.children.map((c) => c.type)).toEqual(["direct", "network_mirror"]);
    expect(text.slice(blocks[0]!.start, blocks[0]!.end)).toMatch(/^provider_installation \{[\s\S]*\}$/);
  });

  it("keeps the file order of installation methods, which hcl2json's JSON does not", async () => {
    const text = ['provider_installation {', '  network_mirror { url = "https://m/" }', '  filesystem_mirror { path = "/p" }', "  direct {}", "}"].join("\n");
    expect(scanHclBlocks(text)[0]!.children.map((c) => c.type)).toEqual(["network_mirror", "filesystem_mirror", "direct"]);
    // The reason this scanner exists: the parser's JSON groups the methods by type, in sorted order.
    const hcl2json = createRequire(import.meta.url)("@cdktf/hcl2json") as typeof import("@cdktf/hcl2json");
    const json = (await hcl2json.parse("order.tfrc", text)) as { provider_installation: Record<string, unknown>[] };
    expect(Object.keys(json.provider_installation[0]!)).toEqual(["direct", "filesystem_mirror", "network_mirror"]);
  });

  it("spans a dev_overrides block with HCL 1 quoted keys, so it can be blanked before parsing", () => {
    const text = ["provider_installation {", "  dev_overrides {", '    "hashicorp/null" = "/home/dev/null"', "  }", "  direct {}", "}"].join("\n");
    const [pi] = scanHclBlocks(text);
    const dev = pi!.children[0]!;
    expect(dev.type).toBe("dev_overrides");
    expect(text.slice(dev.start, dev.end)).toBe(['dev_overrides {', '    "hashicorp/null" = "/home/dev/null"', "  }"].join("\n"));
    expect(pi!.children.map((c) => c.type)).toEqual(["dev_overrides", "direct"]);
  });

  it("reads labels given as quoted strings or bare identifiers, and closes blocks on one line", () => {
    const blocks = scanHclBlocks('credentials "app.terraform.io" { token = "x" }\nblock bare "quoted" {}\n');
    expect(blocks.map((b) => [b.type, b.labels])).toEqual([
      ["credentials", ["app.terraform.io"]],
      ["block", ["bare", "quoted"]],
    ]);
    expect(blocks.every((b) => b.end > b.start)).toBe(true);
  });
});
