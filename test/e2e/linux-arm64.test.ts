// The linux-arm64 executable runs: under QEMU user-mode emulation (test/support/arm64.ts) it answers Parameterize and
// GetSchema, and the amd64 Pulumi CLI installs its tarball and runs `package add`, `up` and `destroy` of a YAML program
// through it and an arm64 build of the pinned local provider. The AArch64 build is what ran, not this machine's: the
// installed file is an AArch64 ELF, QEMU is the program image of the processes the engine started, and each plugin
// process reports Node's process.arch (TF_BRIDGE_RSS_REPORT) as arm64. Its timings are emulated ones (docs/using.md).
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { arm64Emulation, arm64EmulationMissing, arm64Peer, elfMachine, EM_AARCH64, processImage } from "../support/arm64.js";
import { isOurExecutable, packagePluginAsync, readRssReports, sandboxProcesses } from "../support/e2e.js";
import { removeScratch, scratch, YamlScenario } from "../support/lifecycle.js";
import { parentPid } from "../support/processes.js";
import { expectSuccess, pulumiBinDir, pulumiSandbox, runPulumi, startPluginProcess, tempDir, type PulumiSandbox } from "../support/pulumi.js";
import { Timings } from "../support/timings.js";

const PLUGIN = "pulumi-resource-terraform-provider";
const EM_X86_64 = 0x3e;
const QEMU = /qemu-aarch64/;

const missing = arm64EmulationMissing();
const timings = new Timings("linux-arm64");
const { timed } = timings;
let emulation: Record<string, string>;
let provider: string;
let tarball: string;
let sandbox: PulumiSandbox | undefined;
let rssFile: string;

beforeAll(async () => {
  if (missing) return;
  const e = arm64Emulation();
  if ("missing" in e) throw new Error(e.missing);
  emulation = e.env;
  provider = await timed("go install local for linux/arm64 (cached after the first run)", () => arm64Peer("local"));
  tarball = await timed("package linux-arm64 (cached per source state)", () => packagePluginAsync("linux-arm64"));
  sandbox = pulumiSandbox();
  rssFile = join(sandbox.home, "rss.jsonl");
  Object.assign(sandbox.env, emulation, { TF_BRIDGE_RSS_REPORT: rssFile });
  expectSuccess(
    await runPulumi(["plugin", "install", "resource", "terraform-provider", VERSION, "--file", tarball], { cwd: sandbox.home, env: sandbox.env }),
    "pulumi plugin install of the linux-arm64 tarball",
  );
}, 1_200_000);

afterAll(() => {
  sandbox?.cleanup();
  removeScratch();
  if (!missing) timings.report();
});

describe.skipIf(missing)("linux-arm64 under QEMU user-mode emulation", () => {
  it("the tarball's executable, run directly, serves Parameterize and GetSchema for an arm64 provider", async () => {
    const dir = tempDir("tfbridge-arm64-exe-");
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    const exe = join(dir, PLUGIN);
    expect(elfMachine(exe)).toBe(EM_AARCH64);
    expect(isOurExecutable(exe)).toBe(true);
    expect(elfMachine(provider)).toBe(EM_AARCH64);

    const env = { ...emulation, HOME: dir, PATH: "/nonexistent", TF_BRIDGE_SEA_DIR: join(dir, "unpacked") };
    const plugin = await timed("first start (unpacks its assets), to the port line", () => startPluginProcess({ bin: exe, env, startTimeoutMs: 180_000 }));
    try {
      expect(processImage(plugin.child.pid!)).toMatch(QEMU);
      const res = await timed("Parameterize", () => plugin.call("Parameterize", { args: { args: [provider] } }, 180_000));
      expect(res).toMatchObject({ name: "local" });
      const got = await timed("GetSchema", () => plugin.call("GetSchema", { version: 0 }, 180_000));
      const schema = JSON.parse(got["schema"] as string) as { name: string; resources: Record<string, unknown> };
      expect(schema.name).toBe("local");
      expect(Object.keys(schema.resources)).toContain("local:index/file:File");
    } finally {
      await plugin.stop();
    }
    const again = await timed("second start, to the port line", () => startPluginProcess({ bin: exe, env, startTimeoutMs: 180_000 }));
    await again.stop();
  }, 600_000);

  it("the amd64 Pulumi CLI installs it and runs package add, up and destroy through it and an arm64 provider", async () => {
    const box = sandbox!;
    expect(elfMachine(join(pulumiBinDir(), "pulumi"))).toBe(EM_X86_64);
    const installed = join(box.home, "plugins", `resource-terraform-provider-v${VERSION}`, PLUGIN);
    expect(elfMachine(installed)).toBe(EM_AARCH64);
    expect(isOurExecutable(installed)).toBe(true);

    const project = YamlScenario.inline(scratch("tfbridge-arm64-yaml-"), "arm64-yaml", "", box.env);
    const added = await timed("pulumi package add (Parameterize, GetSchema, YAML SDK)", () => project.ok(["package", "add", "terraform-provider", provider], 600_000));
    expect(added.stdout + added.stderr).toMatch(/Added package local/);
    const file = join(project.dir, "greeting.txt");
    const content = "hello from an emulated arm64 plugin\n";
    project.program(
      [
        "resources:",
        "  greeting:",
        "    type: local:index/file:File",
        "    properties:",
        `      filename: ${JSON.stringify(file)}`,
        `      content: ${JSON.stringify(content)}`,
        "outputs:",
        "  sha256: ${greeting.contentSha256}",
        "",
      ].join("\n"),
    );
    await project.ok(["stack", "init", "dev"]);

    // The processes of this sandbox running the plugin or the provider while `up` runs. binfmt_misc starts an AArch64
    // file as <QEMU interpreter> <file> <argv[0]> <args…> (the entry's P flag), so argv[1] is the program QEMU runs;
    // one observation per process and program (a child the plugin forks shows the plugin's command line until it
    // execs setpriv, then the provider).
    const seen = new Map<string, { pid: number; ppid?: number; argv: string[]; image: string }>();
    const look = (): void => {
      for (const needle of [PLUGIN, "terraform-provider-local"]) {
        for (const { pid } of sandboxProcesses(box, needle)) {
          try {
            const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "");
            const key = `${pid} ${argv[1] ?? ""}`;
            if (!seen.has(key)) seen.set(key, { pid, ppid: parentPid(pid), argv, image: processImage(pid) });
          } catch {
            // exited while we looked
          }
        }
      }
    };
    const poll = setInterval(look, 200);
    try {
      await timed("pulumi up (create)", () => project.ok(["up", "--yes", "--skip-preview"], 600_000));
    } finally {
      clearInterval(poll);
    }
    expect(readFileSync(file, "utf8")).toBe(content);
    expect((await project.outputs())["sha256"]).toBe(createHash("sha256").update(content).digest("hex"));

    const running = (program: string) => [...seen.values()].filter((p) => p.argv[1] === program);
    const pluginPids = new Set(running(installed).map((p) => p.pid));
    // The plugin processes the engine started, not the plugin's own children between fork and exec.
    const started = running(installed).filter((p) => p.ppid !== undefined && !pluginPids.has(p.ppid));
    const providers = running(provider);
    const shown = JSON.stringify([...seen.values()]);
    expect(started.length, `processes seen: ${shown}`).toBeGreaterThan(0);
    expect(providers.length, `processes seen: ${shown}`).toBeGreaterThan(0);
    for (const p of [...started, ...providers]) expect(p.image, shown).toMatch(QEMU);

    await timed("pulumi destroy", () => project.ok(["destroy", "--yes", "--skip-preview"], 600_000));
    expect(existsSync(file)).toBe(false);

    // Each plugin process the engine started (package add, up, destroy) was the AArch64 build; those seen
    // during `up` are among them.
    const reports = readRssReports(rssFile);
    expect(reports.length).toBeGreaterThanOrEqual(3);
    expect(new Set(reports.map((r) => r.arch))).toEqual(new Set(["arm64"]));
    for (const p of started) expect(reports.map((r) => r.pid)).toContain(p.pid);
    console.log(`[linux-arm64] plugin processes (emulated): ${reports.map((r) => `${Math.round(r.maxRssKiB / 1024)} MiB peak, ${(r.uptimeMs / 1000).toFixed(1)} s`).join("; ")}`);
  }, 1_200_000);
});
