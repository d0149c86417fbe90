// Drives our plugin as the engine does (spawn, read the port, gRPC) and runs the real Pulumi CLI in isolated homes.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { grpcClientConstructor } from "./grpc-peer.js";
import { repoRoot } from "./peers.js";
import { childPids, processAlive } from "./processes.js";
import { pulumiBin } from "./pulumi-tools.js";

export const PLUGIN_BIN = join(repoRoot, "bin", "pulumi-resource-terraform-provider");

/** A decoded protobuf message as proto-loader gives it. */
export type Msg = Record<string, unknown>;

export interface CallError extends Error {
  code: grpc.status;
  details: string;
}

/** Our plugin, started as the engine starts it. */
export interface PluginProcess {
  child: ChildProcess;
  port: number;
  /** Everything the plugin wrote to stderr so far. */
  stderr(): string;
  /** Everything after the port line on stdout (must stay empty). */
  extraStdout(): string;
  call(method: string, request: Msg, timeoutMs?: number): Promise<Msg>;
  /** Closes the client and ends the process (SIGTERM, then SIGKILL). */
  stop(): Promise<void>;
}

export interface StartPluginOptions {
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Executable to start; defaults to bin/pulumi-resource-terraform-provider. */
  bin?: string;
  startTimeoutMs?: number;
  /**
   * Kill the plugin's child processes once it has exited. For the reference bridge only: stopped with SIGTERM it leaves
   * its Terraform provider running (orphaned to init). Our plugin must never need this; tests check it does not.
   */
  reapChildren?: boolean;
}

/** Spawns the plugin, waits for the port line, connects a ResourceProvider client. */
export async function startPluginProcess(options: StartPluginOptions = {}): Promise<PluginProcess> {
  const child = spawn(options.bin ?? PLUGIN_BIN, options.args ?? [], {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    // stdin is a pipe, as the engine makes it: closing it tells the plugin the engine is gone.
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let extra = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port line within ${options.startTimeoutMs ?? 30_000} ms; stderr:\n${stderr}`)), options.startTimeoutMs ?? 30_000);
    let first = true;
    lines.on("line", (line) => {
      if (first) {
        first = false;
        clearTimeout(timer);
        if (/^\d+$/.test(line)) resolve(Number(line));
        else reject(new Error(`first stdout line is not a port: ${JSON.stringify(line)}; stderr:\n${stderr}`));
      } else {
        extra += line + "\n";
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`plugin exited (${code ?? signal}) before printing its port; stderr:\n${stderr}`));
    });
  });
  const ResourceProvider = grpcClientConstructor(["pulumi/provider.proto"], "pulumirpc.ResourceProvider");
  const client = new ResourceProvider(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 512 * 1024 * 1024,
    "grpc.enable_channelz": 0,
    "grpc.enable_retries": 0,
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    child,
    port,
    stderr: () => stderr,
    extraStdout: () => extra,
    call: (method, request, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        const fn = (client as unknown as Record<string, Function>)[method];
        if (typeof fn !== "function") return reject(new Error(`no method ${method}`));
        fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (err: CallError | null, res: Msg) =>
          err ? reject(err) : resolve(res),
        );
      }),
    stop: async () => {
      client.close();
      const children = options.reapChildren === true && child.pid !== undefined ? childPids(child.pid) : [];
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      for (const pid of children) if (processAlive(pid)) process.kill(pid, "SIGKILL");
    },
  };
}

/** Calls a method and returns the gRPC error it fails with (throws if it succeeds). */
export async function callError(plugin: PluginProcess, method: string, request: Msg): Promise<CallError> {
  try {
    const res = await plugin.call(method, request);
    throw new Error(`${method} succeeded unexpectedly: ${JSON.stringify(res).slice(0, 300)}`);
  } catch (e) {
    if (typeof (e as { code?: unknown }).code !== "number") throw e;
    return e as CallError;
  }
}

/** Parameterize request bodies. */
export const argsRequest = (...args: string[]): Msg => ({ args: { args } });
export const valueRequest = (value: string | Uint8Array, name = "", version = ""): Msg => ({
  value: { name, version, value: typeof value === "string" ? Buffer.from(value) : Buffer.from(value) },
});

// ---- The real Pulumi CLI ----

/** Builds (first time, minutes) or finds the pinned Pulumi CLI and YAML language host. */
export const pulumiBinDir = pulumiBin;

/** An isolated Pulumi home and file backend, removed by cleanup(). */
export interface PulumiSandbox {
  home: string;
  backend: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function pulumiSandbox(extraPath: string[] = []): PulumiSandbox {
  const root = mkdtempSync(join(tmpdir(), "tfbridge-pulumi-"));
  const home = join(root, "home");
  const backend = join(root, "backend");
  execFileSync("mkdir", ["-p", home, backend]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [...extraPath, pulumiBinDir(), process.env["PATH"] ?? ""].join(":"),
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "test-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Package names must not be looked up in the Pulumi Cloud registry (no network here).
    PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    PULUMI_ACCESS_TOKEN: "",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    NO_COLOR: "1",
  };
  return { home, backend, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The pinned Pulumi CLI and its arguments as every test runs it (non-interactive): for the tests that need the process
 * itself (its signals, its process group, its measurements); every other runs runPulumi.
 */
export function pulumiCommand(args: readonly string[]): [string, string[]] {
  return [join(pulumiBinDir(), "pulumi"), ["--non-interactive", ...args]];
}

export interface RunPulumiOptions {
  /** Where it runs; the caller's working directory when absent. */
  cwd?: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs `pulumi ARGS` and collects its output; never throws on a non-zero exit (expectSuccess does). */
export function runPulumi(args: readonly string[], options: RunPulumiOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [exe, argv] = pulumiCommand(args);
    const child = spawn(exe, argv, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * runPulumi for the set-up that has to be synchronous (sandboxWithPlugin, which every end-to-end file calls at its top);
 * a test itself awaits runPulumi, which does not block the worker.
 */
export function runPulumiSync(args: readonly string[], options: RunPulumiOptions): RunResult {
  const [exe, argv] = pulumiCommand(args);
  const r = spawnSync(exe, argv, { cwd: options.cwd, env: options.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30, timeout: options.timeoutMs ?? 300_000, killSignal: "SIGKILL" });
  if (r.error !== undefined && r.status === null && r.signal === null) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Fails with the command's whole output when it did not exit 0. */
export function expectSuccess(r: RunResult, what: string): RunResult {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r;
}

export { tempDir } from "./temp.js";
