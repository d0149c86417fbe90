import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LaunchError } from "../../src/terraform/errors.js";
import { launchProvider, parseHandshake, parseLogLine, extractPanic, type ProviderLogEntry } from "../../src/terraform/launch.js";
import { peerPath, pins, repoRoot } from "../support/peers.js";
import { processAlive, waitGone } from "../support/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-launch-"));

function script(name: string, body: string): string {
  const p = join(scratch, name);
  writeFileSync(p, `#!/bin/sh\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

describe("launching real providers", () => {
  for (const [name, pin] of Object.entries(pins)) {
    it(`${name}: handshake over protocol ${pin.protocol} with AutoMTLS, then shutdown leaves no process`, async () => {
      const logs: ProviderLogEntry[] = [];
      const p = await launchProvider({ path: peerPath(name), onLog: (e) => logs.push(e) });
      expect(p.protocolVersion).toBe(pin.protocol);
      expect(p.handshake.network).toBe("unix");
      expect(p.handshake.serverCert).toBeDefined(); // AutoMTLS negotiated
      expect(processAlive(p.pid)).toBe(true);
      await p.shutdown();
      expect(await waitGone(p.pid)).toBe(true);
      expect(p.exit).toBeDefined();
    });
  }
});

describe("bad binaries give clear errors without hanging", () => {
  it("a path that does not exist", async () => {
    await expect(launchProvider({ path: join(scratch, "terraform-provider-nope") })).rejects.toThrow(
      /Terraform provider binary not found: .*terraform-provider-nope/,
    );
  });

  it("a file that is not executable", async () => {
    const p = join(scratch, "terraform-provider-noexec");
    writeFileSync(p, "not a program");
    await expect(launchProvider({ path: p })).rejects.toThrow(/is not executable; run `chmod \+x/);
  });

  it("a real program that is not a plugin (gofmt) exits before the handshake", async () => {
    const gofmt = join(process.env["GOROOT"] ?? "/usr/local/go", "bin", "gofmt");
    const err = await launchProvider({ path: gofmt, handshakeTimeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LaunchError);
    expect((err as Error).message).toMatch(/exited with code 0 before completing the plugin handshake; is it a Terraform provider\?/);
  });

  it("a program that prints something else than a handshake", async () => {
    const p = script("terraform-provider-chatty", "echo 'hello, I am not a plugin'; sleep 5");
    await expect(launchProvider({ path: p })).rejects.toThrow(/printed "hello, I am not a plugin" instead of a go-plugin handshake/);
  });

  it("a provider that exits during the handshake reports its stderr", async () => {
    const p = script("terraform-provider-dies", "echo 'listen unix /nonexistent/sock: permission denied' >&2; exit 3");
    await expect(launchProvider({ path: p })).rejects.toThrow(/exited with code 3 before completing the plugin handshake[\s\S]*permission denied/);
  });

  it("a program that never prints a handshake times out", async () => {
    const p = script("terraform-provider-silent", "exec sleep 30");
    const started = Date.now();
    const err = await launchProvider({ path: p, handshakeTimeoutMs: 1_000 }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/did not print a plugin handshake within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("a provider offering a protocol we did not offer", () => {
    expect(() => parseHandshake("1|4|unix|/tmp/x|grpc|", [5, 6])).toThrow(/speaks Terraform plugin protocol 4; this bridge supports 5 and 6/);
    expect(() => parseHandshake("1|5|unix|/tmp/x|netrpc|", [5, 6])).toThrow(/serves "netrpc" rather than grpc/);
    expect(() => parseHandshake("2|5|unix|/tmp/x|grpc|", [5, 6])).toThrow(/core protocol version 2/);
    expect(parseHandshake("1|6|tcp|127.0.0.1:10001|grpc|", [5, 6])).toMatchObject({ protocolVersion: 6, network: "tcp", address: "127.0.0.1:10001", serverCert: undefined });
  });
});

describe("provider log lines", () => {
  it("reads hclog JSON, [LEVEL] text and plain text", () => {
    expect(parseLogLine('{"@level":"warn","@message":"careful","@timestamp":"x","tf_rpc":"Plan"}', "stderr")).toEqual({
      level: "warn", message: "careful", fields: { tf_rpc: "Plan" }, source: "stderr",
    });
    expect(parseLogLine("2026/01/01 00:00:00 [DEBUG] planning", "stderr")).toMatchObject({ level: "debug", message: "planning" });
    expect(parseLogLine("[ERROR] boom", "stdout")).toMatchObject({ level: "error", message: "boom", source: "stdout" });
    expect(parseLogLine("just text", "stderr")).toMatchObject({ level: "info", message: "just text" });
  });

  it("finds a Go panic and its stack in stderr", () => {
    const lines = ["noise", "panic: runtime error: index out of range", "", "goroutine 1 [running]:", "main.main()"];
    expect(extractPanic(lines)).toBe(lines.slice(1).join("\n"));
    expect(extractPanic(["fine"])).toBeUndefined();
  });

  it("forwards a real provider's stderr logs with their levels", async () => {
    const logs: ProviderLogEntry[] = [];
    const p = await launchProvider({ path: peerPath("random"), env: { TF_LOG_PROVIDER: "TRACE" }, onLog: (e) => logs.push(e) });
    await p.shutdown();
    // go-plugin logs the address it listens on at debug level, as hclog JSON.
    expect(logs.some((l) => l.level === "debug" && l.message === "plugin address" && l.fields?.["network"] === "unix")).toBe(true);
  });
});

describe("no orphan providers", () => {
  const runChild = (mode: string): Promise<{ child: ReturnType<typeof spawn>; pid: number }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test/support/launch-and-wait.ts"), peerPath("random"), mode], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^(\d+)\n/.exec(out);
        if (m) resolve({ child, pid: Number(m[1]) });
      });
      child.on("exit", (code) => {
        if (!/^\d+\n/.test(out)) reject(new Error(`helper exited ${code} before printing a pid: ${err}`));
      });
    });

  it("SIGKILL of our process takes the provider with it", async () => {
    const { child, pid } = await runChild("wait");
    expect(processAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    expect(await waitGone(pid)).toBe(true);
  });

  it("SIGTERM of our process takes the provider with it", async () => {
    const { child, pid } = await runChild("wait");
    child.kill("SIGTERM");
    expect(await waitGone(pid)).toBe(true);
  });

  it("process.exit() without shutdown takes the provider with it", async () => {
    const { pid } = await runChild("exit");
    expect(await waitGone(pid)).toBe(true);
  });

  it("an uncaught exception takes the provider with it", async () => {
    const { pid } = await runChild("throw");
    expect(await waitGone(pid)).toBe(true);
  });
});

afterAll(() => undefined);
