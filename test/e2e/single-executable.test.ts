// The packaged plugin is one self-contained executable: with no Node.js anywhere on PATH, the real Pulumi CLI installs
// it, `pulumi package add` and `pulumi up` of a YAML program run through it; copied alone into an empty directory it
// answers Parameterize and GetSchema for a provider it installs from a filesystem mirror named in an HCL CLI
// configuration, which it parses with the HCL parser it carries (WebAssembly, unpacked with the rest by src/server/sea.ts).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractPlugin, installPlugin } from "../support/e2e.js";
import { peerPath } from "../support/peers.js";
import { pulumiBinDir, pulumiSandbox, startPluginProcess, tempDir, type PulumiSandbox } from "../support/pulumi.js";
import { removeScratch, scratch, YamlScenario } from "../support/lifecycle.js";
import { CURRENT_PLATFORM } from "../support/registry-server.js";

let sandbox: PulumiSandbox;
/** PATH for everything below: pulumi and its YAML language host, and nothing else (no node, no npm, no shell tools). */
let bare: string;

beforeAll(() => {
  sandbox = pulumiSandbox();
  bare = scratch("tfbridge-sea-path-");
  for (const tool of ["pulumi", "pulumi-language-yaml"]) symlinkSync(join(pulumiBinDir(), tool), join(bare, tool));
  sandbox.env["PATH"] = bare;
  installPlugin(sandbox);
}, 1_200_000);

afterAll(() => {
  sandbox?.cleanup();
  removeScratch();
});

describe("the single executable", () => {
  it("runs `pulumi package add` and `pulumi up` of a YAML program with no node on PATH", async () => {
    const which = spawnSync("/bin/sh", ["-c", "command -v node npm npx || true"], { env: sandbox.env, encoding: "utf8" });
    expect(which.stdout.trim(), "node must not be on the test's PATH").toBe("");

    const project = YamlScenario.inline(scratch("tfbridge-sea-yaml-"), "sea-yaml", "", sandbox.env);
    const added = await project.ok(["package", "add", "terraform-provider", peerPath("random")]);
    expect(added.stdout + added.stderr).toMatch(/Added package random/);
    project.program(
      ["resources:", "  pet:", "    type: random:index/pet:Pet", "    properties:", "      length: 3", "outputs:", "  name: ${pet.id}", ""].join("\n"),
    );
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["up", "--yes", "--skip-preview"]);
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as { name: string };
    expect(outputs.name.split("-")).toHaveLength(3);
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
  }, 600_000);

  it("alone in an empty directory, answers Parameterize and GetSchema for a provider from a filesystem mirror named in HCL", async () => {
    const alone = tempDir("tfbridge-sea-alone-");
    const exe = join(alone, "pulumi-resource-terraform-provider");
    copyFileSync(join(extractPlugin(), "pulumi-resource-terraform-provider"), exe);
    expect(readdirSync(alone)).toEqual(["pulumi-resource-terraform-provider"]);

    const home = tempDir("tfbridge-sea-home-");
    const mirror = join(home, "mirror");
    const pkg = join(mirror, "registry.opentofu.org", "hashicorp", "random", "3.6.3", CURRENT_PLATFORM);
    mkdirSync(pkg, { recursive: true });
    copyFileSync(peerPath("random"), join(pkg, "terraform-provider-random_v3.6.3"));
    const rc = join(home, "cli.tfrc");
    writeFileSync(rc, `# HCL, with a comment and a heredoc-free block\nprovider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.opentofu.org/hashicorp/*"]\n  }\n}\n`);

    const env: NodeJS.ProcessEnv = { HOME: home, PATH: "/nonexistent", TF_CLI_CONFIG_FILE: rc, TF_BRIDGE_SEA_DIR: join(home, "unpacked") };
    const plugin = await startPluginProcess({ bin: exe, env });
    try {
      const res = await plugin.call("Parameterize", { args: { args: ["hashicorp/random", "3.6.3"] } });
      expect(res).toMatchObject({ name: "random", version: "3.6.3" });
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { name: string; resources: Record<string, unknown> };
      expect(schema.name).toBe("random");
      expect(Object.keys(schema.resources)).toContain("random:index/pet:Pet");
    } finally {
      await plugin.stop();
    }
    // Its files were unpacked once, into the directory named by TF_BRIDGE_SEA_DIR.
    expect(readdirSync(join(home, "unpacked")).filter((d) => !d.includes(".unpacking-"))).toHaveLength(1);
  }, 300_000);

  it("touches its unpacked tree at each start, and removes other builds' trees unused for 30 days when it unpacks", async () => {
    const exe = join(extractPlugin(), "pulumi-resource-terraform-provider");
    const base = tempDir("tfbridge-sea-prune-");
    const daysAgo = (days: number): Date => new Date(Date.now() - days * 24 * 3600_000);
    const tree = (name: string, age: number, marker = true): void => {
      mkdirSync(join(base, name), { recursive: true });
      if (marker) {
        writeFileSync(join(base, name, ".complete"), name);
        utimesSync(join(base, name, ".complete"), daysAgo(age), daysAgo(age));
      } else {
        utimesSync(join(base, name), daysAgo(age), daysAgo(age));
      }
    };
    tree("build-unused-40-days", 40);
    tree("build-used-2-days-ago", 2);
    tree("killed.unpacking-123", 2, false); // a staging directory left by a start killed while unpacking
    tree("other.unpacking-456", 0, false); // one being unpacked right now
    const start = async (): Promise<void> => {
      const plugin = await startPluginProcess({ bin: exe, env: { PATH: "/nonexistent", HOME: tempDir("tfbridge-sea-prune-home-"), TF_BRIDGE_SEA_DIR: base } });
      await plugin.stop();
    };
    await start();
    const after = readdirSync(base).sort();
    const own = after.filter((d) => !["build-used-2-days-ago", "other.unpacking-456"].includes(d));
    expect(own, `left: ${after.join(", ")}`).toHaveLength(1);
    expect(after).toEqual(expect.arrayContaining(["build-used-2-days-ago", "other.unpacking-456"]));
    expect(after).not.toContain("build-unused-40-days");
    expect(after).not.toContain("killed.unpacking-123");
    const marker = join(base, own[0]!, ".complete");
    expect(existsSync(marker)).toBe(true);

    // A later start of the same build only touches its marker.
    utimesSync(marker, daysAgo(10), daysAgo(10));
    await start();
    expect(Date.now() - statSync(marker).mtimeMs).toBeLessThan(3600_000);
    expect(readdirSync(base).sort()).toEqual(after);
  }, 120_000);
});
