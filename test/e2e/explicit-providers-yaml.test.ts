// Explicit providers of a bridged package in YAML (pulumi/pulumi-yaml#840, pulumi/pulumi-terraform-bridge#2694): a
// `pulumi:providers:<name>` resource, as the default provider and as a resource's `provider`, is served by our plugin
// under the package's parameterization, and the engine never looks for a `pulumi-resource-<name>` plugin.
import { afterAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { removeScratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();
afterAll(removeScratch);

const PET = "random:index/pet:Pet";

describe("explicit providers of a bridged package (YAML)", () => {
  it("a defaultProvider and an explicit provider serve the package's resources; no pulumi-resource-random is looked for", async () => {
    const s = await YamlScenario.create(sandbox, "explicit-yaml", ["random"]);
    s.program(
      [
        "resources:",
        "  fallback:",
        "    type: pulumi:providers:random",
        "    defaultProvider: true",
        "  chosen:",
        "    type: pulumi:providers:random",
        "  byDefault:",
        `    type: ${PET}`,
        "    properties:",
        "      length: 2",
        "  byChoice:",
        `    type: ${PET}`,
        "    properties:",
        "      length: 3",
        "    options:",
        "      provider: ${chosen}",
        "outputs:",
        "  byDefault: ${byDefault.id}",
        "  byChoice: ${byChoice.id}",
      ].join("\n"),
    );
    // Plugin downloads are off in the sandbox: had the engine looked for a plugin named after the package, `up` would
    // fail with "no resource plugin 'pulumi-resource-random' found".
    const up = await s.up();
    expect(up.stdout + up.stderr).not.toMatch(/pulumi-resource-random|resource plugin 'random'/);
    const out = await s.outputs();
    expect((out["byDefault"] as string).split("-")).toHaveLength(2);
    expect((out["byChoice"] as string).split("-")).toHaveLength(3);

    const resources = (await s.deployment()).resources ?? [];
    const providers = resources.filter((r) => r.type === "pulumi:providers:random");
    // Only the two the program declares: `defaultProvider: true` replaces the engine's default one.
    expect(providers.map((p) => p.urn.split("::").pop()).sort()).toEqual(["chosen", "fallback"]);
    const ref = (name: string) => {
      const p = providers.find((r) => r.urn.endsWith(`::${name}`))!;
      return `${p.urn}::${p.id}`;
    };
    const pet = (name: string) => resources.find((r) => r.type === PET && r.urn.endsWith(`::${name}`));
    expect(pet("byDefault")?.provider).toBe(ref("fallback"));
    expect(pet("byChoice")?.provider).toBe(ref("chosen"));

    await s.ok(["preview", "--expect-no-changes"]);
    const destroyed = await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(destroyed.stdout + destroyed.stderr).not.toMatch(/pulumi-resource-random/);
    expect((await s.deployment()).resources ?? []).toEqual([]);
  }, 600_000);
});
