// The repairs `convert` makes to a generated program: the configuration object renamed when a resource takes its name,
// Go's reads of list, map and object variables.
import { describe, expect, it } from "vitest";
import { goConfigObjects, renameCollidingConfig } from "../../src/commands/program-fixes.js";

describe("renameCollidingConfig", () => {
  it("TypeScript: renames the Config object and its reads, leaves the resource named config as it is", () => {
    const generated = [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as local from "@pulumi/local";',
      "",
      "const config = new pulumi.Config();",
      'const prefix = config.get("prefix") || "shop";',
      'const count = config.requireNumber("count");',
      'const tags = config.getObject<Record<string, string>>("tags");',
      'const config = new local.File("config", {filename: `${prefix}.txt`, content: "x"});',
      "export const file = config.filename;",
      "",
    ].join("\n");
    const fixed = renameCollidingConfig(generated, "typescript");
    expect(fixed.text).toBe(
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as local from "@pulumi/local";',
        "",
        "const pulumiConfig = new pulumi.Config();",
        'const prefix = pulumiConfig.get("prefix") || "shop";',
        'const count = pulumiConfig.requireNumber("count");',
        'const tags = pulumiConfig.getObject<Record<string, string>>("tags");',
        'const config = new local.File("config", {filename: `${prefix}.txt`, content: "x"});',
        "export const file = config.filename;",
        "",
      ].join("\n"),
    );
    expect(fixed.notes).toEqual(["the program's configuration object is `pulumiConfig`, not `config`: a resource of the Terraform project is named config"]);
  });

  it("Python: the same, in Python's spelling", () => {
    const generated = ['import pulumi', 'import pulumi_local as local', "", "config = pulumi.Config()", 'prefix = config.get("prefix")', 'n = config.require_int("n")', 'config = local.File("config", filename=f"{prefix}.txt", content="x")', 'pulumi.export("file", config.filename)', ""].join("\n");
    const fixed = renameCollidingConfig(generated, "python");
    expect(fixed.text).toContain("pulumi_config = pulumi.Config()\nprefix = pulumi_config.get(\"prefix\")\nn = pulumi_config.require_int(\"n\")\nconfig = local.File(");
    expect(fixed.text).toContain('pulumi.export("file", config.filename)');
    expect(fixed.notes).toHaveLength(1);
  });

  it("changes nothing when no other `config` is declared, or there is no Config object", () => {
    const plain = 'const config = new pulumi.Config();\nconst x = config.get("x");\n';
    expect(renameCollidingConfig(plain, "typescript")).toEqual({ text: plain, notes: [] });
    const noConfig = 'const config = new local.File("config", {});\n';
    expect(renameCollidingConfig(noConfig, "typescript")).toEqual({ text: noConfig, notes: [] });
    const py = 'config = pulumi.Config()\nx = config.get("x")\n';
    expect(renameCollidingConfig(py, "python")).toEqual({ text: py, notes: [] });
  });
});

describe("goConfigObjects", () => {
  it("reads a list or map variable into its default's variable, emptied first only when the key is set", () => {
    // As Pulumi's Go generator writes a `config "colors" "list(string)"` with a default (gofmt'd, in pulumi.Run's func).
    const generated = ["\t\tcolors := []string{", '\t\t\t"red",', "\t\t}", '\t\tif param := cfg.GetObject("colors"); param != nil {', "\t\t\tcolors = param", "\t\t}", ""].join("\n");
    const fixed = goConfigObjects(generated);
    expect(fixed.text).toBe(
      ["\t\tcolors := []string{", '\t\t\t"red",', "\t\t}", '\t\tif cfg.Get("colors") != "" {', "\t\t\tcolors = nil", '\t\t\tif err := cfg.GetObject("colors", &colors); err != nil {', "\t\t\t\treturn err", "\t\t\t}", "\t\t}", ""].join("\n"),
    );
    expect(fixed.notes).toEqual(['colors: read from configuration with cfg.GetObject("colors", &colors) (the generated call does not compile)']);
    const plain = '\t\tname := cfg.Get("name")\n';
    expect(goConfigObjects(plain)).toEqual({ text: plain, notes: [] });
  });
});
