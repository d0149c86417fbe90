// The package-name check of `package add`: a name the project's Pulumi.yaml or Pulumi's own packages in its manifests
// already hold is refused under --package-name, and warned about under the provider's own name.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { checkPackageName } from "../../src/parameterize/project-packages.js";
import type { ProviderSource } from "../../src/parameterize/args.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { parseVersionConstraint } from "../../src/acquire/constraint.js";
import { tempDir } from "../support/temp.js";

const remote = (address: string): ProviderSource => ({ kind: "remote", address: parseProviderAddress(address), constraint: parseVersionConstraint("") });

function project(files: Record<string, string>): string {
  const dir = tempDir("tfbridge-pkgname-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function check(dir: string, name: string, explicit: boolean, source: ProviderSource, cwd = dir): Promise<{ error?: string; warnings: string[] }> {
  const warnings: string[] = [];
  try {
    await checkPackageName({ name, explicit, source, cwd, warn: (m) => warnings.push(m) });
    return { warnings };
  } catch (e) {
    expect(e).toBeInstanceOf(ParameterizeError);
    return { error: (e as Error).message, warnings };
  }
}

const YAML = `name: p
runtime: yaml
packages:
  random:
    source: terraform-provider
    version: 0.1.0-ts
    parameters:
      - ./bin/terraform-provider-random
  aws: aws@6.19.0
`;

describe("checkPackageName", () => {
  it("refuses --package-name of a Pulumi.yaml package made from another provider or plugin, from the project or below it", async () => {
    const dir = project({ "Pulumi.yaml": YAML, "sub/x": "" });
    expect((await check(dir, "random", true, { kind: "local", path: "./bin/terraform-provider-local" })).error).toBe(
      "--package-name random: this project already has a package named random (Pulumi.yaml, packages:), made from terraform-provider ./bin/terraform-provider-random; choose another name",
    );
    expect((await check(dir, "aws", true, remote("hashicorp/aws"), join(dir, "sub"))).error).toMatch(/package named aws \(Pulumi\.yaml, packages:\), made from aws@6\.19\.0; choose another name$/);
  });

  it("lets the same provider be added again under its name, a free name pass, and the provider's own name replace an entry", async () => {
    const dir = project({ "Pulumi.yaml": YAML });
    expect(await check(dir, "random", true, { kind: "local", path: join(dir, "bin/terraform-provider-random") })).toEqual({ warnings: [] });
    expect(await check(dir, "tfaws", true, remote("hashicorp/aws"))).toEqual({ warnings: [] });
    expect(await check(dir, "random", false, remote("hashicorp/random"))).toEqual({ warnings: [] });
  });

  it("finds Pulumi's own packages in package.json, requirements.txt, pyproject.toml, go.mod and pom.xml, not SDKs generated into the project", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "package.json": JSON.stringify({ dependencies: { "@pulumi/pulumi": "3.276.0", "@pulumi/aws": "^6.0.0" } }) }, "package.json"],
      [{ "requirements.txt": "pulumi>=3.0.0,<4.0.0\npulumi-aws>=6.0.0\n" }, "requirements.txt"],
      [{ "pyproject.toml": '[project]\ndependencies = ["pulumi>=3", "pulumi_aws>=6"]\n' }, "pyproject.toml"],
      [{ "go.mod": "module p\n\nrequire (\n\tgithub.com/pulumi/pulumi-aws/sdk/v6 v6.19.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.276.0\n)\n" }, "go.mod"],
      [{ "pom.xml": "<dependency>\n  <groupId>com.pulumi</groupId>\n  <artifactId>aws</artifactId>\n</dependency>" }, "pom.xml"],
    ];
    for (const [files, where] of cases) {
      const dir = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n", ...files });
      const named = await check(dir, "aws", true, remote("hashicorp/aws"));
      expect(named.error, where).toMatch(new RegExp(`^--package-name aws: this project already has a package named aws \\(${where.replace(".", "\\.")}\\), made from .*aws.*; choose another name$`));
      const plain = await check(dir, "aws", false, remote("hashicorp/aws"));
      expect(plain.error, where).toBeUndefined();
      expect(plain.warnings, where).toEqual([expect.stringMatching(/a program cannot use two packages of one name: add this provider under another with --package-name \(e\.g\. `-- --package-name tfaws`\)$/)]);
    }
    const generated = project({
      "Pulumi.yaml": "name: p\nruntime: go\n",
      "package.json": JSON.stringify({ dependencies: { "@pulumi/aws": "file:sdks/aws" } }),
      "go.mod": "module p\n\nrequire github.com/pulumi/pulumi-aws/sdk/v6 v6.0.0\n\nreplace github.com/pulumi/pulumi-aws/sdk/v6 => ./sdks/aws\n",
    });
    expect(await check(generated, "aws", false, remote("hashicorp/aws"))).toEqual({ warnings: [] });
  });

  it("does nothing outside a project, or when Pulumi.yaml cannot be read", async () => {
    const none = tempDir("tfbridge-pkgname-none-");
    expect(await check(none, "random", true, remote("hashicorp/random"))).toEqual({ warnings: [] });
    const broken = project({ "Pulumi.yaml": "packages: [unclosed\n" });
    expect(await check(broken, "random", true, remote("hashicorp/random"))).toEqual({ warnings: [] });
  });
});
