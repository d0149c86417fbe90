// Terraform 1.14 list resources through the real Pulumi CLI: `pulumi do <package> <Resource> list` over bridgetest's
// list resource (filters, --count, --all across pages), the same items Terraform v1.16.4's `terraform query` finds, and
// discover-and-import: the listing turned into a `pulumi import --file` file, imported into a YAML project whose
// generated program previews with no changes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { importedResources, scratch, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { discover } from "../support/discover.js";
import { terraformQuery } from "../support/terraform-query.js";

const sandbox = e2eSandbox();

const TYPE = "bridgetest:index/identified:Identified";

/** The package argument of `pulumi do` for a parameterized package: the plugin, then its Parameterize arguments. */
const doPackage = (): string => `terraform-provider ${peerPath("bridgetest")}`;

interface Listed {
  id: string;
  name: string;
}

async function list(s: YamlScenario, flags: string[]): Promise<Listed[]> {
  const r = await s.ok(["do", "--package", doPackage(), TYPE, "list", "--output", "json", ...flags]);
  return JSON.parse(r.stdout) as Listed[];
}

const byName = (a: Listed, b: Listed): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

describe("list resources (YAML)", () => {
  it("`pulumi do … list` finds what `terraform query` finds; the listing imports and previews with no changes", async () => {
    const stateDir = scratch("tfbridge-list-state-");
    // Objects made outside the project that will import them: another stack, which is then forgotten.
    const maker = await YamlScenario.create(sandbox, "list-maker", ["bridgetest"], { BRIDGETEST_STATE_DIR: stateDir });
    await maker.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    const made = ["alpha", "alpine", "beta"];
    maker.program(["resources:", ...made.flatMap((n) => [`  ${n}:`, `    type: ${TYPE}`, "    properties:", `      name: ${n}`, `      note: ${n === "beta" ? "b" : "a"}`])].join("\n"));
    await maker.up();
    const ids = Object.fromEntries((await maker.resources()).filter((r) => r.type === TYPE).map((r) => [r.urn.split("::").pop()!, r.id!]));
    await maker.ok(["stack", "rm", "--force", "--yes"]);

    const s = await YamlScenario.create(sandbox, "list-import", ["bridgetest"], { BRIDGETEST_STATE_DIR: stateDir });
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);

    // The resource's help shows the list inputs from the schema's listInputs, under our naming rules.
    const help = await s.ok(["do", "--package", doPackage(), TYPE, "list", "--help"]);
    expect(help.stdout).toMatch(/--name-prefix/);
    expect(help.stdout).toMatch(/--note/);
    expect(help.stdout).toMatch(/--bridgetest:state-dir/);

    // The short form inside this project, whose Pulumi.yaml names the package: the CLI (pkg/cmd/pulumi/do/do.go)
    // parameterizes the plugin from the project's `packages:` entry, sends no arguments of its own, and then refuses
    // the parameterized schema the plugin rightly answers. docs/discover-and-import.md gives `--package` instead;
    // this fails the day a CLI fixes it, so that the page can say so.
    const short = await s.pulumi(["do", TYPE, "list", "--output", "json"]);
    expect(short.code).not.toBe(0);
    expect(short.stderr + short.stdout).toContain("provider returned parameterization but no parameterization args were sent");

    const prefixed = await list(s, ["--name-prefix", "al"]);
    expect(prefixed.sort(byName)).toEqual([
      { id: ids["alpha"], name: "alpha" },
      { id: ids["alpine"], name: "alpine" },
    ]);
    // The oracle: Terraform's own query of the same list resource with the same config finds the same items.
    const oracle = await terraformQuery(stateDir, "bridgetest_identified", '    name_prefix = "al"', { includeResource: true });
    expect(oracle.map((r) => ({ id: r.resource_object?.["id"] as string, name: r.display_name })).sort(byName)).toEqual(prefixed.sort(byName));
    expect(oracle.map((r) => r.identity)).toEqual(expect.arrayContaining([{ id: ids["alpha"], name: "alpha" }]));

    expect(await list(s, ["--note", "b"])).toEqual([{ id: ids["beta"], name: "beta" }]);
    const limited = await terraformQuery(stateDir, "bridgetest_identified", "", { limit: 2 });
    const counted = await list(s, ["--count", "2"]);
    expect(counted).toHaveLength(2);
    expect(counted.map((r) => r.name)).toEqual(limited.map((r) => r.display_name));
    const all = await list(s, ["--all"]);
    expect(all.map((r) => r.id).sort()).toEqual(Object.values(ids).sort());

    // Discover and import with exactly the commands docs/discover-and-import.md gives: the listing and the package's
    // parameterization (from its schema) become a `pulumi import --file` file.
    await discover(s, doPackage(), TYPE, "imported.yaml");
    const entries = (JSON.parse(readFileSync(join(s.dir, "import.json"), "utf8")) as { resources: Record<string, unknown>[] }).resources;
    expect(entries.map((e) => e["id"]).sort()).toEqual(Object.values(ids).sort());
    expect(entries[0]).toMatchObject({ type: TYPE, parameterization: { pluginName: "terraform-provider", pluginVersion: expect.any(String), value: expect.any(String) } });
    const generated = join(s.dir, "imported.yaml");
    expect((await s.resourceNames()).sort()).toEqual(made);
    for (const n of made) expect((await s.resource(n))?.id).toBe(ids[n]);
    const code = readFileSync(generated, "utf8");
    expect(code).toMatch(/name: alpine/);
    s.program(`resources:\n${importedResources(code)}\n`);
    await s.ok(["preview", "--expect-no-changes"]);

    await s.ok(["destroy", "--yes"]);
    expect(await list(s, ["--all"])).toEqual([]);
  }, 600_000);
});
