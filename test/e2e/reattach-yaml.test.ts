// Debugging a provider through the real Pulumi CLI: bridgetest runs in debug mode (as under a debugger), TF_REATTACH_PROVIDERS
// carries the line it printed, and `pulumi package add`, `up` and `destroy` of a YAML program use that process: nothing is
// downloaded or launched, and it is still running afterwards.
import { YamlScenario } from "../support/lifecycle.js";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxProcesses, sandboxWithPlugin } from "../support/e2e.js";
import { startDebugProvider, type DebugProvider } from "../support/debug-provider.js";
import { processAlive } from "../support/processes.js";
import { tempDir, type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let provider: DebugProvider;
let project: YamlScenario;
const scratch = tempDir("tfbridge-reattach-e2e-");
const stateDir = join(scratch, "state");
const cache = join(scratch, "plugin-cache");

const PROGRAM = [
  "resources:",
  "  obj:",
  "    type: bridgetest:index/objectResource:ObjectResource",
  "    properties:",
  "      name: debugged",
  "      secret: s3cret-value",
  "      mapValue:",
  "        a: b",
  "outputs:",
  "  id: ${obj.id}",
  "  revision: ${obj.revision}",
  "",
].join("\n");

beforeAll(async () => {
  sandbox = sandboxWithPlugin(); // the first run builds the Pulumi CLI (minutes)
  provider = await startDebugProvider("bridgetest", { BRIDGETEST_STATE_DIR: stateDir });
  // The engine hands its environment to the plugin: the variable set where `pulumi` runs is all it takes.
  const env = { ...sandbox.env, TF_REATTACH_PROVIDERS: provider.reattach, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache };
  project = YamlScenario.inline(scratch, "reattached", PROGRAM, env);
}, 1_200_000);

afterAll(async () => {
  await provider?.stop();
  sandbox?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a YAML program against a provider running in debug mode", () => {
  it("package add, up and destroy use the running provider; nothing is downloaded or launched, and it keeps running", async () => {
    // A registry address that cannot be downloaded here (no network): only the reattached process can serve it.
    const added = await project.ok(["package", "add", "terraform-provider", "registry.terraform.io/bridge/bridgetest"]);
    expect(added.stderr).toMatch(/Added package bridgetest/);
    await project.ok(["stack", "init", "dev"]);

    const up = await project.ok(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(/\+\s+bridgetest:index:ObjectResource\s+obj\s+created/);
    // Each plugin process the engine starts (the YAML host's schema load, the deployment) attaches and says so.
    expect(up.stdout).toMatch(/attaching to the running provider registry\.terraform\.io\/bridge\/bridgetest \(pid \d+, unix /);
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as { id: string; revision: number };
    expect(outputs.revision).toBe(1);
    // The object is a file the debugged process wrote.
    expect(readdirSync(stateDir)).toEqual([`${outputs.id}.json`]);

    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(readdirSync(stateDir)).toEqual([]);

    expect(existsSync(cache)).toBe(false);
    expect(sandboxProcesses(sandbox, "terraform-provider-bridgetest")).toEqual([]);
    expect(processAlive(provider.pid)).toBe(true);
  }, 600_000);
});
