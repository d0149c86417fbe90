// `--package-name` through the real CLI (pulumi/pulumi#24167): one YAML program using the same Terraform provider as two
// packages under two names in one stack, `up`, `preview` and `destroy`; and the option's bad values refused by
// `pulumi package add` with a message that says what to do, leaving the project as it was.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { removeScratch, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";

const sandbox = e2eSandbox();
afterAll(removeScratch);

describe("--package-name (YAML)", () => {
  it("the same provider as `random` and as `rnd2` in one stack: up, no change on preview, destroy", async () => {
    const s = await YamlScenario.create(sandbox, "pkgname-yaml", ["random"]);
    const added = await s.ok(["package", "add", "terraform-provider", "--", peerPath("random"), "--package-name", "rnd2"]);
    expect(added.stdout + added.stderr).toMatch(/Added package rnd2/);
    const project = readFileSync(join(s.dir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(/^ {2}rnd2:\n/m);
    expect(project).toMatch(/^ {2}random:\n/m);
    s.program(
      [
        "resources:",
        "  plain:",
        "    type: random:index/pet:Pet",
        "    properties:",
        "      length: 2",
        "  renamed:",
        "    type: rnd2:index/pet:Pet",
        "    properties:",
        "      length: 3",
        "      prefix: ${plain.id}",
        "outputs:",
        "  plain: ${plain.id}",
        "  renamed: ${renamed.id}",
      ].join("\n"),
    );
    await s.up();
    const out = await s.outputs();
    expect(String(out["renamed"]).startsWith(`${String(out["plain"])}-`)).toBe(true);
    const resources = (await s.deployment()).resources ?? [];
    expect(resources.filter((r) => r.type.startsWith("pulumi:providers:")).map((r) => r.type).sort()).toEqual(["pulumi:providers:random", "pulumi:providers:rnd2"]);
    expect(resources.find((r) => r.urn.endsWith("::renamed"))?.type).toBe("rnd2:index/pet:Pet");
    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await s.resourceNames()).toEqual([]);
  }, 600_000);

  it("refuses an empty name, a name that breaks tokens, and a name another package of the project has; Pulumi.yaml is unchanged", async () => {
    const s = await YamlScenario.create(sandbox, "pkgname-bad", ["random"]);
    const before = readFileSync(join(s.dir, "Pulumi.yaml"), "utf8");
    const cases: [string[], RegExp][] = [
      [["--package-name", ""], /--package-name is empty: give the package a name/],
      [["--package-name", "tf:random"], /invalid --package-name "tf:random": ":" cannot be part of a package name/],
      // `random` is this project's package of hashicorp/random from another source: two packages cannot share a name.
      [["--package-name", "random"], /--package-name random: this project already has a package named random \(Pulumi\.yaml, packages:\), made from .*terraform-provider-random.*; choose another name/],
    ];
    for (const [flags, message] of cases) {
      const r = await s.pulumi(["package", "add", "terraform-provider", "--", peerPath("local"), ...flags]);
      expect(r.code, flags.join(" ")).not.toBe(0);
      expect(r.stdout + r.stderr, flags.join(" ")).toMatch(message);
      expect(readFileSync(join(s.dir, "Pulumi.yaml"), "utf8")).toBe(before);
    }
  }, 600_000);
});
