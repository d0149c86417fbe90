// A provider that misbehaves on purpose (test/peers/hostile) added to a YAML project with the real Pulumi CLI and the
// packaged plugin: one stderr line of megabytes before it fails, or a handshake and then silence. `pulumi package add`
// ends promptly with a bounded error that keeps the provider's first words (or names the schema deadline and its
// setting), and neither the provider nor the plugin is left running.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitNoSandboxProcesses } from "../support/e2e.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";
import { repoRoot } from "../support/peers.js";

const HOSTILE = join(repoRoot, "test/peers/hostile/terraform-provider-hostile");
const FIRST_WORDS = "Error: hostile provider failed on purpose; its first words come first.";
const sandbox = e2eSandbox();

/** `pulumi package add terraform-provider <hostile>` in a fresh YAML project, the provider steered by `env`. */
async function addHostile(env: Record<string, string>): Promise<{ code: number; all: string; ms: number }> {
  const project = YamlScenario.inline(scratch("tfbridge-hostile-cli-"), "hostile", "resources: {}\n", { ...sandbox.env, ...env });
  const started = Date.now();
  const r = await project.pulumi(["package", "add", "terraform-provider", HOSTILE], 180_000);
  return { code: r.code, all: r.stdout + r.stderr, ms: Date.now() - started };
}

async function nothingLeftRunning(): Promise<void> {
  expect(await waitNoSandboxProcesses(sandbox, "terraform-provider-hostile", 10_000)).toEqual([]);
  expect(await waitNoSandboxProcesses(sandbox, "pulumi-resource-terraform-provider", 10_000)).toEqual([]);
}

describe("a provider that writes one huge stderr line, then exits 1", () => {
  it.each([
    ["1 MB", 1024 * 1024],
    ["20 MB", 20 * 1024 * 1024],
    ["300 MB", 300 * 1024 * 1024],
  ])("%s: `package add` fails with its first words and how much was cut, not a megabyte error, a reset stream or a crash", async (what, size) => {
    const r = await addHostile({ HOSTILE_MODE: "huge-line", HOSTILE_BYTES: String(size) });
    console.log(`[hostile-cli] package add, ${what} stderr line: exit ${r.code}, ${r.all.length} characters of output:\n${r.all.slice(0, 600)}\n…\n${r.all.slice(-600)}`);
    expect(r.code, r.all.slice(0, 20_000)).not.toBe(0);
    expect(r.all).toContain("terraform-provider-hostile exited with code 1 before completing the plugin handshake");
    expect(r.all).toContain(`${FIRST_WORDS} xxx`);
    expect(r.all).toMatch(/x … \[\d+ more bytes of this line not shown\]/);
    // The CLI may print the error more than once; each copy is bounded.
    expect(r.all.length).toBeLessThan(64 * 1024);
    expect(r.all).not.toMatch(/RST_STREAM|FRAME_SIZE_ERROR|heap out of memory|exited prematurely/);
    expect(r.all).not.toMatch(OUR_STACK);
    await nothingLeftRunning();
  }, 300_000);
});

describe("a provider that completes the handshake and never answers", () => {
  it("`package add` fails at TF_BRIDGE_SCHEMA_TIMEOUT naming the provider, the deadline and the setting; nothing is left running", async () => {
    const r = await addHostile({ HOSTILE_MODE: "hang", TF_BRIDGE_SCHEMA_TIMEOUT: "3" });
    console.log(`[hostile-cli] package add of a provider that never answers: exit ${r.code} after ${r.ms} ms:\n${r.all}`);
    expect(r.code, r.all).not.toBe(0);
    expect(r.all).toContain(`the Terraform provider ${HOSTILE} did not answer GetProviderSchema within 3 s; it seems hung. If it is only slow, raise TF_BRIDGE_SCHEMA_TIMEOUT (seconds, now 3)`);
    expect(r.all).not.toMatch(OUR_STACK);
    // The deadline and the stop's grace periods, not the five-minute default nor a hang.
    expect(r.ms).toBeLessThan(90_000);
    await nothingLeftRunning();
  }, 300_000);
});
