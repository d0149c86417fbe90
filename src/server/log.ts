// Logging for the plugin: through the engine's Engine.Log when we have its address, else to stderr (never stdout).
import { loadProtos, serviceOf } from "../wire/proto.js";
import { logLevelPasses, requestedLogLevel, type ProviderLogEntry } from "../terraform/launch.js";
import { boundText, MAX_LOG_MESSAGE_CHARS } from "../wire/bound.js";
import { Channel, type CallError, type Method } from "../wire/rpc.js";
import { method } from "../wire/shape.js";
import type * as pb from "../wire/pulumirpc.gen.js";

export type Severity = "debug" | "info" | "warning" | "error";

export interface LogOptions {
  /** The resource the message is about. */
  urn?: string;
  /** A status line the engine shows transiently (progress), rather than a lasting diagnostic. */
  ephemeral?: boolean;
}

export interface Logger {
  log(severity: Severity, message: string, options?: LogOptions): void;
  /** Ephemeral info line, e.g. "Launching terraform-provider-random…". */
  status(message: string, urn?: string): void;
  /** Resolves once every message logged so far was delivered (or given up on). */
  flush(): Promise<void>;
}

const SEVERITY_ENUM: Record<Severity, pb.LogSeverity> = { debug: "DEBUG", info: "INFO", warning: "WARNING", error: "ERROR" };

/** Where diagnostics of the plugin itself go when the engine can't take them; -v=N raises what is printed. */
export class StderrLogger implements Logger {
  constructor(private readonly verbosity = 0) {}

  log(severity: Severity, message: string, options?: LogOptions): void {
    if (severity === "debug" && this.verbosity < 1) return;
    const urn = options?.urn ? ` ${options.urn}` : "";
    process.stderr.write(`[terraform-provider] ${severity}${urn}: ${message}\n`);
  }

  status(message: string, urn?: string): void {
    this.log("info", message, { urn, ephemeral: true });
  }

  async flush(): Promise<void> {}
}

/** A hung engine must not hold up shutdown, which waits on flush(). */
const LOG_DEADLINE_MS = 5_000;

/**
 * The characters of messages waiting for the engine beyond which all but errors are dropped (and counted): a provider
 * that logs faster than the engine takes it would otherwise grow the queue without end. 8 Mi characters (16 MiB at
 * most) hold some 40,000 lines of a TF_LOG=TRACE run, which the engine takes in well under a second.
 */
export const MAX_PENDING_LOG_CHARS = 8 * 1024 * 1024;

/** The definitions the engine logger calls with; the startup snapshot preloads these same files. */
export const ENGINE_PROTO = ["pulumi/engine.proto"] as const;

/**
 * Sends messages to the engine one after another, so they arrive in the order they were logged. A failed send
 * (the engine went away) falls back to stderr for that message and every later one.
 */
export class EngineLogger implements Logger {
  private readonly channel: Channel;
  private readonly logMethod: Method<unknown, pb.EngineMethods["Log"]["response"]>;
  private chain: Promise<void> = Promise.resolve();
  private broken = false;
  private pendingChars = 0;
  private dropped = 0;

  constructor(
    readonly engineAddress: string,
    private readonly fallback: Logger,
  ) {
    this.logMethod = method<pb.EngineMethods["Log"]["response"]>(serviceOf(loadProtos(ENGINE_PROTO), "pulumirpc.Engine"), "Log")!;
    this.channel = new Channel(engineAddress);
  }

  log(severity: Severity, message: string, options?: LogOptions): void {
    if (this.pendingChars >= MAX_PENDING_LOG_CHARS && severity !== "error") {
      this.dropped++;
      return;
    }
    this.reportDropped();
    this.enqueue(severity, message, options);
  }

  private reportDropped(): void {
    if (this.dropped === 0) return;
    const note = `${this.dropped} log messages were dropped: they came faster than the engine took them`;
    this.dropped = 0;
    this.enqueue("warning", note, undefined);
  }

  private enqueue(severity: Severity, text: string, options: LogOptions | undefined): void {
    const message = boundText(text, MAX_LOG_MESSAGE_CHARS);
    const request: pb.LogRequestIn = {
      severity: SEVERITY_ENUM[severity],
      message,
      urn: options?.urn ?? "",
      streamId: 0,
      ephemeral: options?.ephemeral ?? false,
    };
    this.pendingChars += message.length;
    this.chain = this.chain.then(() => this.send(request, severity, message, options)).finally(() => (this.pendingChars -= message.length));
  }

  status(message: string, urn?: string): void {
    this.log("info", message, { urn, ephemeral: true });
  }

  flush(): Promise<void> {
    this.reportDropped();
    return this.chain;
  }

  close(): void {
    this.channel.close();
  }

  private send(request: pb.LogRequestIn, severity: Severity, message: string, options: LogOptions | undefined): Promise<void> {
    if (this.broken) {
      this.fallback.log(severity, message, options);
      return Promise.resolve();
    }
    return this.channel.unary(this.logMethod, request, { deadline: Date.now() + LOG_DEADLINE_MS }).then(
      () => undefined,
      (err: CallError) => {
        this.broken = true;
        this.fallback.log("debug", `engine log unavailable (${err.details || err.message}); logging to stderr`);
        this.fallback.log(severity, message, options);
      },
    );
  }
}

/**
 * Status lines for one step that is usually quick (Parameterize: find, maybe download, launch): nothing is shown if
 * the step ends within `afterMs`; past that the latest line appears, and later ones as they come. A cached or local
 * provider launches in tens of milliseconds, and its status lines would only be noise; worse, in YAML programs they
 * end up listed under the stack's diagnostics as if they were lasting messages. Downloads still show their progress.
 */
export function slowStatus(emit: (message: string) => void, afterMs = 500): { update(message: string): void; done(): void } {
  let latest: string | undefined;
  let showing = false;
  let finished = false;
  const timer = setTimeout(() => {
    showing = true;
    if (latest !== undefined) emit(latest);
  }, afterMs);
  timer.unref();
  return {
    update(message) {
      if (finished) return;
      if (showing) emit(message);
      else latest = message;
    },
    done() {
      finished = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Forwards a Terraform provider's log lines (its stderr and stdout) to the engine as debug messages, whatever their
 * level: a provider's log is for whoever debugs it. What a user must see comes as diagnostics, which the bridge reports
 * with the resource they are about; the framework's log repeats each one ("Response contains warning diagnostic"), and
 * as an engine warning or error that copy would be shown a second time, on the stack (an error would mark the stack
 * failed). `pulumi up --debug` shows these lines, as does the engine's own log from -v=3 (`--logtostderr`).
 * Which lines pass is Terraform's rule: TF_LOG_PROVIDER or TF_LOG name the lowest level; unset, warnings and errors
 * pass (debug from -v=1, trace from -v=9, when the engine passes its verbosity on). Providers on Go's log package write
 * every `[DEBUG]` line whatever they were asked, and each forwarded line is a call the engine must take in: all of the
 * Docker provider's took 4 of the plugin's 7 s of CPU over `up` of 40 containers, and as much again of the engine's.
 */
export function forwardProviderLog(logger: Logger, providerName: string, verbosity: number, env: NodeJS.ProcessEnv = process.env): (e: ProviderLogEntry) => void {
  const minimum = requestedLogLevel(env) ?? (verbosity >= 9 ? "trace" : verbosity >= 1 ? "debug" : "warn");
  return (entry) => {
    if (!logLevelPasses(entry.level, minimum)) return;
    logger.log("debug", `${providerName}: ${entry.message}${formatFields(entry.fields)}`);
  };
}

/** hclog's structured fields carry the specifics ("Found resource type" names it only in a field). */
function formatFields(fields: Record<string, unknown> | undefined): string {
  if (fields === undefined) return "";
  const parts = Object.entries(fields)
    .filter(([k]) => !k.startsWith("@"))
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return parts.length > 0 ? ` (${parts.join(" ")})` : "";
}
