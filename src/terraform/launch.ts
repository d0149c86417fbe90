// Starts a Terraform provider binary as go-plugin does (magic cookie, protocol negotiation, AutoMTLS), watches it, and stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants as fsConstants, existsSync } from "node:fs";
import { lookUpPath, whyNotExecutable, whyNotRunnable } from "./binary.js";
import { LaunchError } from "./errors.js";
import { serverCertificatePem, takeClientCertificate } from "./mtls.js";
import { LineSplitter, LineTail, MAX_LINE_BYTES, MAX_STDOUT_LINE_BYTES } from "./output.js";
import { MAX_PROVIDER_MESSAGE_ENV, PING_TIMEOUT_ENV, maxProviderMessageBytes, pingTimeoutMs } from "./settings.js";
import { loadProtos, serviceOf, type Services } from "../wire/proto.js";
import { Channel, warmChannel, type ClientCall, type Method } from "../wire/rpc.js";
import { method } from "../wire/shape.js";
import type * as goplugin from "../wire/plugin.gen.js";

export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/** The plugin protocol versions offered when the caller names none; the provider picks the highest it speaks. */
export const DEFAULT_PROTOCOL_VERSIONS: readonly (5 | 6)[] = [5, 6];

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

/** One line the provider logged, from its stderr (hclog JSON or `[LEVEL]` text) or its redirected stdio. */
export interface ProviderLogEntry {
  level: LogLevel;
  message: string;
  /** Structured fields of an hclog JSON line, without @level/@message/@timestamp. */
  fields?: Record<string, unknown>;
  source: "stderr" | "stdout";
}

export interface LaunchOptions {
  /** Path to a `terraform-provider-*` binary. */
  path: string;
  /** Extra environment for the provider; the caller's environment is inherited. */
  env?: Record<string, string>;
  /** Plugin protocol versions we offer; the provider picks the highest it speaks. */
  protocolVersions?: readonly (5 | 6)[];
  /** How long to wait for the handshake line. go-plugin's own client waits a minute. */
  handshakeTimeoutMs?: number;
  /** Where provider log lines go. */
  onLog?: (entry: ProviderLogEntry) => void;
  /**
   * Work to do while the provider process starts: it runs once the process is spawned, before the handshake is
   * awaited, so it uses time otherwise spent idle (tens of milliseconds for a Go binary to start). A failure in it is
   * ignored here; the work is done again where it is needed.
   */
  whileStarting?: () => void;
}

export interface Handshake {
  coreVersion: number;
  protocolVersion: 5 | 6;
  network: "unix" | "tcp";
  address: string;
  serverCert: string | undefined;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Without these, HashiCorp's plugin SDKs log every request at trace level to stderr (dozens of lines per call) and leave
 * the filtering to the client. Terraform users choose provider logging with TF_LOG / TF_LOG_PROVIDER; we honour those and
 * otherwise ask the provider for warnings and errors only.
 */
const LOG_SUBSYSTEMS = ["TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_SDK_HELPER_RESOURCE", "TF_LOG_SDK_MUX"];

/** What the user set for the provider's log, TF_LOG_PROVIDER before TF_LOG; set but empty is unset, as Go reads it. */
function askedLogSetting(env: NodeJS.ProcessEnv): string | undefined {
  const asked = env["TF_LOG_PROVIDER"] || env["TF_LOG"];
  return asked === undefined || asked.trim() === "" ? undefined : asked;
}

export function providerLogEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const level = askedLogSetting(env) ?? "WARN";
  const out: Record<string, string> = {};
  for (const key of LOG_SUBSYSTEMS) if (env[key] === undefined) out[key] = level;
  return out;
}

const LEVEL_ORDER: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error"];

/**
 * The lowest level of a provider's log lines its user asked for, as Terraform reads TF_LOG_PROVIDER and TF_LOG
 * (`JSON` is trace; `OFF` or a name Terraform does not know, nothing); undefined when neither is set. Providers built
 * on Go's log package write `[DEBUG]` lines whatever these say, and the client is what filters them.
 */
export function requestedLogLevel(env: NodeJS.ProcessEnv): LogLevel | "off" | undefined {
  const asked = askedLogSetting(env)?.trim().toLowerCase();
  if (asked === undefined) return undefined;
  if (asked === "json") return "trace";
  return Object.hasOwn(levels, asked) ? levels[asked]! : "off";
}

/** Whether a line at `level` passes a `minimum` (none passes "off"). */
export function logLevelPasses(level: LogLevel, minimum: LogLevel | "off"): boolean {
  return minimum !== "off" && LEVEL_ORDER.indexOf(level) >= LEVEL_ORDER.indexOf(minimum);
}

/** How long each shutdown step waits before the next, harsher one. */
const SHUTDOWN_GRACE_MS = 2_000;
const TERM_GRACE_MS = 1_000;

/** Every provider process we started and have not seen exit, so none outlives us. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' runs on normal exit, process.exit() and uncaught exceptions; signals that kill us outright are
  // covered by the parent-death signal set at spawn (see spawnCommand).
  process.on("exit", () => {
    for (const child of live) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

const setprivPath = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));

/**
 * On Linux the provider is exec'd through util-linux `setpriv --pdeathsig SIGKILL`, so the kernel kills it the moment
 * our process dies for any reason, SIGKILL included; no exit handler can promise that.
 */
function spawnCommand(path: string): { command: string; args: string[] } {
  if (process.platform === "linux" && setprivPath !== undefined && process.env["TF_BRIDGE_NO_PDEATHSIG"] !== "1") {
    return { command: setprivPath, args: ["--pdeathsig", "SIGKILL", "--", path] };
  }
  return { command: path, args: [] };
}

function checkBinary(path: string): void {
  const looked = lookUpPath(path);
  if ("missing" in looked) throw new LaunchError(`Terraform provider binary not found: ${path}. Check the path, or install the provider first.`);
  if ("unreachable" in looked) throw new LaunchError(`cannot launch the Terraform provider: ${looked.unreachable}`);
  if (!looked.found.isFile()) throw new LaunchError(`${path} is not a file; expected a terraform-provider-<name> executable.`);
  try {
    accessSync(path, fsConstants.X_OK);
  } catch {
    throw new LaunchError(`${whyNotExecutable(path, looked.found.mode)}, or point at the provider executable.`);
  }
}

/** Parses go-plugin's handshake line `CORE|APP|NETWORK|ADDR|PROTOCOL[|CERT]`. */
export function parseHandshake(line: string, offered: readonly number[]): Handshake {
  const parts = line.trim().split("|");
  if (parts.length < 5) {
    throw new LaunchError(
      `the binary printed "${truncate(line, 200)}" instead of a go-plugin handshake; is it a Terraform provider?`,
    );
  }
  const [core, app, network, address, protocol, cert] = parts as [string, string, string, string, string, string?];
  if (core !== "1") throw new LaunchError(`unsupported go-plugin core protocol version ${core} (expected 1)`);
  const protocolVersion = Number(app);
  if (!offered.includes(protocolVersion)) {
    throw new LaunchError(
      `the provider speaks Terraform plugin protocol ${app}; this bridge supports ${offered.join(" and ")}`,
    );
  }
  if (network !== "unix" && network !== "tcp") throw new LaunchError(`unsupported plugin network "${network}"`);
  if (protocol !== "grpc") {
    throw new LaunchError(`the provider serves "${protocol}" rather than grpc; only gRPC providers are supported`);
  }
  return {
    coreVersion: 1,
    protocolVersion: protocolVersion as 5 | 6,
    network,
    address,
    serverCert: cert === undefined || cert === "" ? undefined : cert,
  };
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

const levels: Record<string, LogLevel> = {
  trace: "trace", debug: "debug", info: "info", warn: "warn", warning: "warn", error: "error", err: "error",
};

/** Reads one provider log line: hclog JSON, `[LEVEL] msg`, or plain text (reported at info, as Terraform does). */
export function parseLogLine(line: string, source: ProviderLogEntry["source"]): ProviderLogEntry {
  if (line.startsWith("{")) {
    try {
      const obj = JSON.parse(line) as Record<string, unknown>;
      if (typeof obj["@message"] === "string" || typeof obj["@level"] === "string") {
        const { "@level": lvl, "@message": msg, "@timestamp": _ts, ...fields } = obj;
        return {
          level: levels[String(lvl).toLowerCase()] ?? "info",
          message: String(msg ?? ""),
          fields: Object.keys(fields).length > 0 ? fields : undefined,
          source,
        };
      }
    } catch {
      // not JSON after all; fall through to text
    }
  }
  // Go's log package prefixes a date and time: `2026/01/01 00:00:00 [DEBUG] message`.
  const m = /^(?:[\d/:.\sT-]*\s)?\[(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|ERR)\]\s?(.*)$/i.exec(line);
  if (m !== null) return { level: levels[m[1]!.toLowerCase()] ?? "info", message: m[2]!, source };
  return { level: "info", message: line, source };
}

/** Extracts a Go panic or fatal error, with its stack, from the provider's last stderr lines. */
export function extractPanic(lines: readonly string[]): string | undefined {
  const start = lines.findIndex((l) => /^(panic: |fatal error: )/.test(l));
  if (start < 0) return undefined;
  return lines.slice(start).join("\n");
}

/** A provider process that completed the handshake, with the channel to reach it. */
export class LaunchedProvider {
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private shuttingDown: Promise<void> | undefined;
  private stdioCall: ClientCall | undefined;

  constructor(
    readonly path: string,
    readonly pid: number,
    readonly handshake: Handshake,
    readonly channel: Channel,
    private readonly child: ChildProcess,
    exited: Promise<ExitInfo>,
    /** The provider's last stderr lines, kept by the reader in launchProvider. */
    private readonly stderrTail: LineTail,
  ) {
    this.exited = exited.then((info) => (this.exitInfo = info));
  }

  get protocolVersion(): 5 | 6 {
    return this.handshake.protocolVersion;
  }

  /** Set once the process has exited. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** The panic text, if the process printed one before it died. */
  panicText(): string | undefined {
    return extractPanic(this.stderrTail.all());
  }

  /** The last lines of stderr, for error messages; bounded in length as well as in lines. */
  recentStderr(max = 20): string {
    return this.stderrTail.last(max);
  }

  startStdio(onLog: (entry: ProviderLogEntry) => void): void {
    const stream = method<goplugin.GRPCStdioMethods["StreamStdio"]["response"]>(serviceOf(goPluginProtos(), "plugin.GRPCStdio"), "StreamStdio")!;
    const request: goplugin.GRPCStdioMethods["StreamStdio"]["requestIn"] = {};
    const splitter = (source: ProviderLogEntry["source"]): LineSplitter =>
      new LineSplitter(MAX_LINE_BYTES, (line) => {
        if (line.trim() !== "") onLog(parseLogLine(line, source));
      });
    const splitters = { STDERR: splitter("stderr"), STDOUT: splitter("stdout") };
    // The stream ends with the process; its errors carry no information the exit handler lacks.
    this.stdioCall = this.channel.serverStream(stream, request, (msg) => {
      splitters[msg.channel === "STDERR" ? "STDERR" : "STDOUT"].push(msg.data);
    }, () => undefined);
  }

  /**
   * Stops the provider: go-plugin's controlled Shutdown first, SIGTERM after a grace period, SIGKILL last.
   * Resolves once the process is gone. Safe to call more than once.
   */
  shutdown(): Promise<void> {
    this.shuttingDown ??= this.doShutdown();
    return this.shuttingDown;
  }

  private async doShutdown(): Promise<void> {
    if (this.exitInfo === undefined) {
      try {
        const request: goplugin.GRPCControllerMethods["Shutdown"]["requestIn"] = {};
        await this.channel.unary(shutdownMethod(), request, { deadline: Date.now() + SHUTDOWN_GRACE_MS });
      } catch {
        // no answer or a refusal: fall through to signals
      }
      if (!(await this.waitExit(SHUTDOWN_GRACE_MS))) {
        this.child.kill("SIGTERM");
        if (!(await this.waitExit(TERM_GRACE_MS))) {
          this.child.kill("SIGKILL");
          await this.exited;
        }
      }
    }
    this.stdioCall?.cancel();
    this.channel.close();
  }

  /** Kills the process at once, without the polite steps; for use when our own process is going down. */
  kill(): void {
    if (this.exitInfo === undefined) this.child.kill("SIGKILL");
  }

  private async waitExit(ms: number): Promise<boolean> {
    if (this.exitInfo !== undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const done = await Promise.race([this.exited.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }
}

/** go-plugin's own services, which every launched provider serves beside tfplugin. */
export const GO_PLUGIN_PROTO = ["go-plugin/grpc_controller.proto", "go-plugin/grpc_stdio.proto"] as const;

let goPluginRoot: Services | undefined;
export function goPluginProtos(): Services {
  goPluginRoot ??= loadProtos(GO_PLUGIN_PROTO);
  return goPluginRoot;
}

/** go-plugin's controlled Shutdown: how a provider is stopped, and the call the channel warm-up makes. */
function shutdownMethod(): Method {
  return method(serviceOf(goPluginProtos(), "plugin.GRPCController"), "Shutdown")!;
}

/** Starts the binary, completes the handshake and connects; throws LaunchError with what went wrong. */
export async function launchProvider(options: LaunchOptions): Promise<LaunchedProvider> {
  const { path } = options;
  checkBinary(path);
  const offered = options.protocolVersions ?? DEFAULT_PROTOCOL_VERSIONS;
  const timeoutMs = options.handshakeTimeoutMs ?? 60_000;
  const onLog = options.onLog ?? (() => undefined);
  // Read before the provider starts, so that a bad value fails with nothing to stop.
  const maxReceive = { bytes: maxProviderMessageBytes(), setting: MAX_PROVIDER_MESSAGE_ENV };
  const liveness = { timeoutMs: pingTimeoutMs(), setting: PING_TIMEOUT_ENV };
  const clientCert = takeClientCertificate();

  installExitHook();
  const { command, args } = spawnCommand(path);
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      ...options.env,
      ...providerLogEnv({ ...process.env, ...options.env }),
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: offered.join(","),
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_CLIENT_CERT: clientCert.certPem,
    },
  });
  live.add(child);

  const stderrTail = new LineTail();
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));

  // Lines are cut as they arrive: a provider may write one line of hundreds of megabytes, or never end one.
  const stderrLines = new LineSplitter(MAX_LINE_BYTES, (line) => {
    stderrTail.push(line);
    onLog(parseLogLine(line, "stderr"));
  });
  const stderrEnded = new Promise<void>((resolve) => {
    child.stderr!.on("data", (chunk: Buffer) => stderrLines.push(chunk));
    child.stderr!.once("close", () => {
      stderrLines.end();
      resolve();
    });
  });

  const firstLine = new Promise<string>((resolve) => {
    let first = true;
    const stdoutLines = new LineSplitter(MAX_STDOUT_LINE_BYTES, (line) => {
      if (first) {
        first = false;
        resolve(line);
      } else if (line.trim() !== "") {
        onLog(parseLogLine(line, "stdout"));
      }
    });
    child.stdout!.on("data", (chunk: Buffer) => stdoutLines.push(chunk));
    child.stdout!.once("close", () => stdoutLines.end());
  });

  try {
    options.whileStarting?.();
    // The warm-up's call never reaches a server, so any unary method and any CA do: Shutdown and our own certificate.
    void warmChannel({ ca: clientCert.certPem, cert: clientCert.certPem, key: clientCert.keyPem, servername: "localhost" }, shutdownMethod(), {});
  } catch {
    // only a head start; the caller repeats what failed
  }

  let timer: NodeJS.Timeout | undefined;
  const fail = (message: string): never => {
    child.kill("SIGKILL");
    throw new LaunchError(message);
  };
  const stderrHint = (): string => {
    const tail = stderrTail.last(10).trim();
    return tail === "" ? "" : `\nprovider stderr:\n${tail}`;
  };

  let handshakeLine: string;
  try {
    const outcome = await Promise.race([
      firstLine.then((line) => ({ kind: "line" as const, line })),
      exited.then((info) => ({ kind: "exit" as const, info })),
      spawnError.then((error) => ({ kind: "error" as const, error })),
      new Promise<{ kind: "timeout" }>((resolve) => (timer = setTimeout(() => resolve({ kind: "timeout" }), timeoutMs))),
    ]);
    if (outcome.kind === "error") {
      return fail(whyNotRunnable(path) ?? `cannot start ${path}: ${outcome.error.message}`);
    }
    if (outcome.kind === "exit") {
      // The last lines, which usually say why, may still be in the pipe; a child the provider left holding stderr
      // open must not keep us waiting.
      let settle: NodeJS.Timeout | undefined;
      await Promise.race([stderrEnded, new Promise((r) => (settle = setTimeout(r, 1_000)))]);
      clearTimeout(settle);
      // What the kernel refuses to run, exec hands to /bin/sh, which fails on it in its own words ("1: ELF…: not found",
      // exit 127 or 2); the file's first bytes say why. A native program or a script whose interpreter exists passes.
      const unrunnable = outcome.info.signal === null ? whyNotRunnable(path) : undefined;
      if (unrunnable !== undefined) return fail(unrunnable);
      const how = outcome.info.signal !== null ? `was killed by ${outcome.info.signal}` : `exited with code ${outcome.info.code}`;
      const notPlugin = stderrTail.some((l) => l.includes("This binary is a plugin"));
      return fail(
        notPlugin
          ? `${path} refused to start as a plugin (it did not accept the Terraform magic cookie); is it a Terraform provider built with go-plugin?${stderrHint()}`
          : `${path} ${how} before completing the plugin handshake; is it a Terraform provider?${stderrHint()}`,
      );
    }
    if (outcome.kind === "timeout") {
      return fail(
        `${path} did not print a plugin handshake within ${timeoutMs} ms; is it a Terraform provider?${stderrHint()}`,
      );
    }
    handshakeLine = outcome.line;
  } finally {
    clearTimeout(timer);
  }

  let handshake: Handshake;
  try {
    handshake = parseHandshake(handshakeLine, offered);
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }

  let channel: Channel;
  const target = handshake.network === "unix" ? `unix://${handshake.address}` : handshake.address;
  if (handshake.serverCert !== undefined) {
    let serverPem: string;
    try {
      serverPem = serverCertificatePem(handshake.serverCert);
    } catch (e) {
      return fail(`the provider's handshake carried an unusable TLS certificate: ${(e as Error).message}`);
    }
    // go-plugin's certificate names "localhost", whatever address the provider listens on.
    channel = new Channel(target, { tls: { ca: serverPem, cert: clientCert.certPem, key: clientCert.keyPem, servername: "localhost" }, maxReceive, liveness });
  } else {
    channel = new Channel(target, { maxReceive, liveness });
  }

  const provider = new LaunchedProvider(path, child.pid!, handshake, channel, child, exited, stderrTail);
  provider.startStdio(onLog);
  return provider;
}
