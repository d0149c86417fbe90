// Full docs' examples in the schema: a code chooser per converted example, HCL kept (and the reason logged) for the
// rest, the note under an example that uses other providers.
import { describe, expect, it } from "vitest";
import type { EntityDocs } from "../../src/docs/index.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { exampleSchema } from "../support/example-model.js";

const page = (examples: string): EntityDocs => ({ frontMatter: {}, description: "A thing.", examples, properties: new Map(), import: "" });

describe("examples in full docs", () => {
  it("converts what it can, keeps HCL with the reason in the debug log for the rest, and notes other providers", () => {
    const log: string[] = [];
    const examples = [
      '```terraform\nresource "ex_thing" "a" {\n  name = "a"\n}\n```',
      "### With a module",
      '```hcl\nmodule "m" {\n  source = "./m"\n}\n```',
      "### Beside another provider",
      '```terraform\nresource "ex_thing" "b" {\n  name = aws_s3_bucket.x.id\n}\nresource "aws_s3_bucket" "x" {}\n```',
    ].join("\n\n");
    const docs = { resources: new Map([["ex_thing", page(examples)]]), dataSources: new Map(), ephemeralResources: new Map(), functions: new Map(), missing: [], refused: [] };
    const model = buildProviderModel(exampleSchema(), { packageName: "ex", packageVersion: "1.0.0", docs, exampleLog: (m) => log.push(m) });
    const d = model.resources.get("ex_thing")!.description;
    expect(d).toMatch(/^A thing\.\n\n\{\{% examples %\}\}\n\{\{% example %\}\}\n## Example Usage\n\nExamples that stay in Terraform's configuration language \(HCL\)/);
    // The first example: one block per language, in the chooser's order.
    const chooser = d.slice(d.indexOf("<!--Start PulumiCodeChooser -->"), d.indexOf("<!--End PulumiCodeChooser -->"));
    expect([...chooser.matchAll(/^```(\w+)$/gm)].map((m) => m[1])).toEqual(["typescript", "python", "csharp", "go", "java", "yaml"]);
    expect(chooser).toContain('const a = new ex.Thing("a", {\n    name: "a",\n});');
    expect(d).toContain('### With a module\n\n```hcl\nmodule "m" {');
    expect(log).toEqual(["resource ex_thing: example 2 stays HCL: `module` blocks have no equivalent in a Pulumi program"]);
    expect(d).toContain("The example also uses `aws`, written as if bridged by this plugin");
    expect(d).toContain('const x = new aws.S3Bucket("x", {});');
  });

  it("names properties and data sources in prose with each language's spelling; other words stay", () => {
    const docs = { resources: new Map([["ex_thing", page("")]]), dataSources: new Map(), ephemeralResources: new Map(), functions: new Map(), missing: [], refused: [] };
    docs.resources.get("ex_thing")!.description = "Set `zones` or use_it with ex_lookup.";
    const model = buildProviderModel(exampleSchema(), { packageName: "ex", packageVersion: "1.0.0", docs });
    expect(model.resources.get("ex_thing")!.description).toBe(
      'Set <span pulumi-lang-nodejs="`zones`" pulumi-lang-dotnet="`Zones`" pulumi-lang-go="`zones`" pulumi-lang-python="`zones`" pulumi-lang-yaml="`zones`" pulumi-lang-java="`zones`" pulumi-lang-hcl="`zones`">`zones`</span> or use_it with <span pulumi-lang-nodejs="ex.getLookup" pulumi-lang-dotnet="ex.getLookup" pulumi-lang-go="GetLookup" pulumi-lang-python="get_lookup" pulumi-lang-yaml="ex.getLookup" pulumi-lang-java="ex.getLookup" pulumi-lang-hcl="data.ex_lookup">ex.getLookup</span>.',
    );
  });
});
