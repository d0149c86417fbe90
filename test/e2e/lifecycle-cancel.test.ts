// Cancelling a deployment through the real Pulumi CLI: SIGINT to `pulumi up` while terraform-provider-time sleeps in a
// time_sleep Create. The engine's Cancel reaches the Terraform provider (StopProvider), the create ends at once, no
// provider or plugin process outlives the command, and the state is consistent: the next `pulumi up` finishes the job.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sandboxProcesses, waitNoSandboxProcesses } from "../support/e2e.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { pulumiCommand } from "../support/pulumi.js";

const sandbox = e2eSandbox();

const program = (duration: string): string =>
  [
    "resources:",
    "  quick:",
    "    type: time:index/static:Static",
    "  nap:",
    "    type: time:index/sleep:Sleep",
    "    properties:",
    `      createDuration: ${duration}`,
    "    options:",
    "      dependsOn:",
    "        - ${quick}",
  ].join("\n");

describe("cancel (SIGINT to pulumi up)", () => {
  it("stops the sleeping Terraform provider, leaves no process behind, and keeps the state consistent", async () => {
    const s = await YamlScenario.create(sandbox, "lc-cancel", ["time"]);
    s.program(program("300s"));

    const child = spawn(...pulumiCommand(["up", "--yes", "--skip-preview"]), { cwd: s.dir, env: s.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    let done = false;
    const exited = new Promise<number | null>((resolve) =>
      child.once("close", (code) => {
        done = true;
        resolve(code);
      }),
    );

    // Wait until the sleep is under way inside the Terraform provider.
    const until = Date.now() + 60_000;
    while (!/time:index:Sleep\s+nap\s+creating/.test(output)) {
      if (done || Date.now() > until) throw new Error(`time_sleep never started:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    let providers = sandboxProcesses(sandbox, peerPath("time"));
    while (providers.length === 0 && !done && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      providers = sandboxProcesses(sandbox, peerPath("time"));
    }
    expect(providers.length, "a terraform-provider-time process runs the sleep").toBeGreaterThan(0);

    const interrupted = Date.now();
    child.kill("SIGINT");
    const code = await exited;
    const took = Date.now() - interrupted;
    expect(code, output).not.toBe(0);
    expect(output).toMatch(/\^C received; cancelling/);
    // The 300 s sleep was stopped, not waited out.
    expect(took, output).toBeLessThan(60_000);
    expect(output).toMatch(/time:index:Sleep\s+nap\s+\*\*creating failed\*\*/);
    expect(output).not.toMatch(/exited prematurely|panic:/);
    // The provider's own log of the failure stays at debug level: the failure is reported once, on the resource.
    expect(output).not.toMatch(/Response contains error diagnostic/);

    // Nothing of ours is left running: not the Terraform providers, not the plugin.
    expect(await waitNoSandboxProcesses(sandbox, peerPath("time"))).toEqual([]);
    expect(await waitNoSandboxProcesses(sandbox, "pulumi-resource-terraform-provider")).toEqual([]);

    // The state records what was made, nothing half-made, no pending operation.
    const deployment = await s.deployment();
    expect(deployment.pending_operations ?? []).toEqual([]);
    expect(await s.resourceNames()).toEqual(["quick"]);

    // The next up, with a short sleep, completes the job.
    s.program(program("1s"));
    await s.up();
    expect(await s.resourceNames()).toEqual(["nap", "quick"]);
    await s.ok(["destroy", "--yes"]);
    expect(await s.resourceNames()).toEqual([]);
    expect(await waitNoSandboxProcesses(sandbox, peerPath("time"))).toEqual([]);
  }, 300_000);
});
