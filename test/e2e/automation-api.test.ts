// docs/automation-api.md's Pulumi.yaml and automation.ts, taken from the page as written and run: the TypeScript Automation
// API (@pulumi/pulumi PULUMI_NODE_SDK from npm, run on Node 24 as that SDK needs Node 22+) drives a local YAML program
// using random through this plugin against the real CLI: install, up, a no-change preview, destroy.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packagedNode } from "../support/e2e.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { sdkDeps } from "../support/pulumi-tools.js";

const sandbox = e2eSandbox();

/** The fenced blocks of a language on the docs page, in order. */
function blocks(lang: string): string[] {
  const page = readFileSync(join(repoRoot, "docs/automation-api.md"), "utf8");
  return [...page.matchAll(new RegExp("^```" + lang + "\\n([^]*?)^```$", "gm"))].map((m) => m[1]!);
}

describe("the Automation API page", () => {
  it("its driver installs, deploys, previews no change and destroys the project using a parameterized package", async () => {
    const [project] = blocks("yaml");
    const [driver] = blocks("ts");
    expect(project).toContain("source: terraform-provider");
    expect(driver).toContain('from "@pulumi/pulumi/automation"');

    const dir = scratch("tfbridge-automation-");
    // The driver's own folder, with @pulumi/pulumi from npm as node_modules.
    symlinkSync(sdkDeps(), join(dir, "node_modules"));
    writeFileSync(join(dir, "automation.ts"), driver!);
    const infra = join(dir, "infra");
    mkdirSync(infra);
    writeFileSync(join(infra, "Pulumi.yaml"), project!);
    symlinkSync(peerPath("random"), join(infra, "terraform-provider-random"));

    const tsx = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
    const r = await spawnAsync(packagedNode().bin, [tsx, "automation.ts", "infra"], { cwd: dir, env: sandbox.env });
    const said = `${r.stdout}\n${r.stderr}`;
    expect(r.status, said).toBe(0);
    expect(said).toMatch(/^up: succeeded \{"create":2\}$/m);
    expect(said).toMatch(/^name: [a-z]+-[a-z]+$/m);
    expect(said).toMatch(/^preview: \{"same":2\}$/m);
    expect(said).toMatch(/^destroy: succeeded \{"delete":2\}$/m);
  }, 600_000);
});
