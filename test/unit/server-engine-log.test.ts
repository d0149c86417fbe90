// src/server/log.ts's EngineLogger against a loopback engine that is slow on purpose: what a flood of provider log
// lines may queue is bounded, errors are never dropped, the drop is reported, and each message is cut to its bound.
// And where a Terraform provider's log lines go: to the engine's debug stream, whatever level the provider gave them,
// from the level Terraform's TF_LOG rule lets through.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_PROTO, EngineLogger, forwardProviderLog, MAX_PENDING_LOG_CHARS, StderrLogger, type LogOptions, type Logger, type Severity } from "../../src/server/log.js";
import { parseLogLine, providerLogEnv } from "../../src/terraform/launch.js";
import { MAX_LOG_MESSAGE_CHARS } from "../../src/wire/bound.js";
import { loadProtos, serviceOf } from "../../src/wire/proto.js";
import { Server, type Handler } from "../../src/wire/rpc.js";

interface Received {
  severity: string;
  message: string;
}

describe("EngineLogger", () => {
  const received: Received[] = [];
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  const server = new Server({ maxReceiveBytes: 64 * 1024 * 1024 });
  let address: string;

  beforeAll(async () => {
    const engine = serviceOf(loadProtos(ENGINE_PROTO), "pulumirpc.Engine");
    const handlers: Record<string, Handler> = Object.fromEntries(Object.keys(engine).map((name) => [name, () => ({})]));
    handlers["Log"] = async (request: unknown) => {
      await gate;
      const r = request as { severity: unknown; message: string };
      received.push({ severity: String(r.severity), message: r.message });
      return {};
    };
    server.addService(engine, handlers);
    address = `127.0.0.1:${await server.listen("127.0.0.1")}`;
  });
  afterAll(() => server.forceShutdown());

  it("an engine slower than the provider: the queue stops at its bound, errors still pass, the drop is reported", async () => {
    received.length = 0;
    gate = new Promise((r) => (release = r));
    const logger = new EngineLogger(address, new StderrLogger());
    // Lines of 1 KiB: the bound holds 8 Ki of them.
    const line = (i: number): string => `line ${String(i).padStart(5, "0")}: ${"x".repeat(1024 - 12)}`;
    const kept = MAX_PENDING_LOG_CHARS / 1024;
    const flood = 5 * kept;
    for (let i = 0; i < flood; i++) logger.log("debug", line(i));
    logger.log("error", "the one that matters");
    release();
    await logger.flush();
    logger.close();
    expect(received).toHaveLength(kept + 2);
    expect(received[kept - 1]!.message).toBe(line(kept - 1));
    expect(received[kept]).toEqual({ severity: "WARNING", message: `${flood - kept} log messages were dropped: they came faster than the engine took them` });
    expect(received[kept + 1]).toEqual({ severity: "ERROR", message: "the one that matters" });
  }, 120_000);

  it("a message of megabytes arrives cut in the middle, with its first words and its last", async () => {
    received.length = 0;
    gate = Promise.resolve();
    const logger = new EngineLogger(address, new StderrLogger());
    logger.log("warning", `provider: first words ${"y".repeat(8 * 1024 * 1024)}`);
    await logger.flush();
    logger.close();
    expect(received).toHaveLength(1);
    expect(received[0]!.message).toMatch(/^provider: first words y+ … \[\d+ characters not shown\] … y+$/);
    expect(received[0]!.message.length).toBeLessThan(MAX_LOG_MESSAGE_CHARS + 100);
  });
});

describe("a Terraform provider's log lines", () => {
  /** What the provider's lines became, as the engine logger was asked to send them. */
  function forwarded(lines: string[], verbosity = 0, env: NodeJS.ProcessEnv = {}): { severity: Severity; message: string; options?: LogOptions }[] {
    const sent: { severity: Severity; message: string; options?: LogOptions }[] = [];
    const logger: Logger = {
      log: (severity, message, options) => sent.push({ severity, message, ...(options !== undefined ? { options } : {}) }),
      status: () => undefined,
      flush: async () => undefined,
    };
    const forward = forwardProviderLog(logger, "random", verbosity, env);
    for (const line of lines) forward(parseLogLine(line, "stderr"));
    return sent;
  }

  // As terraform-plugin-go logs the warning diagnostic it returns (the bridge reports the diagnostic itself), and as
  // the tfe provider logs through Go's log package.
  const WARN_DIAGNOSTIC =
    '{"@level":"warn","@message":"Response contains warning diagnostic","@module":"sdk.proto","@timestamp":"2026-11-28T00:00:00.000000Z","diagnostic_severity":"WARNING","diagnostic_summary":"Attribute Deprecated","tf_proto_version":"5.10","tf_req_id":"0c1d","tf_resource_type":"random_string","tf_rpc":"ValidateResourceTypeConfig"}';
  const TFE_WARN = "2026/11/28 00:00:00 [WARN] Unable to read CLI config or credentials file /root/.terraformrc: no such file";
  const ERROR_DIAGNOSTIC = '{"@level":"error","@message":"Response contains error diagnostic","@module":"sdk.proto","tf_rpc":"ApplyResourceChange"}';

  const INFO = "[INFO] configuring server automatic mTLS";
  const DEBUG = "2026/11/28 00:00:00 [DEBUG] Docker container create request";
  const TRACE = '{"@level":"trace","@message":"Received request","tf_rpc":"GetProviderSchema"}';

  it("are debug messages at every level, never warnings or errors, and about no resource", () => {
    const sent = forwarded([WARN_DIAGNOSTIC, TFE_WARN, ERROR_DIAGNOSTIC, INFO, "plain text"], 0, { TF_LOG: "INFO" });
    expect(sent.map((s) => s.severity)).toEqual(["debug", "debug", "debug", "debug", "debug"]);
    expect(sent.every((s) => s.options === undefined)).toBe(true);
    expect(sent[0]!.message).toBe(
      "random: Response contains warning diagnostic (diagnostic_severity=WARNING diagnostic_summary=Attribute Deprecated tf_proto_version=5.10 tf_req_id=0c1d tf_resource_type=random_string tf_rpc=ValidateResourceTypeConfig)",
    );
    expect(sent[1]!.message).toBe("random: Unable to read CLI config or credentials file /root/.terraformrc: no such file");
    expect(sent[3]!.message).toBe("random: configuring server automatic mTLS");
  });

  it("pass from warnings up when nothing asks for more, as Terraform keeps a provider's debug lines to itself", () => {
    const sent = forwarded([TRACE, DEBUG, INFO, "plain text", TFE_WARN, ERROR_DIAGNOSTIC]);
    expect(sent.map((s) => s.message)).toEqual([
      "random: Unable to read CLI config or credentials file /root/.terraformrc: no such file",
      "random: Response contains error diagnostic (tf_rpc=ApplyResourceChange)",
    ]);
  });

  it("pass from the level TF_LOG_PROVIDER or TF_LOG names (JSON is trace, OFF and unknown names nothing)", () => {
    const all = [TRACE, DEBUG, INFO, TFE_WARN];
    expect(forwarded(all, 0, { TF_LOG: "debug" })).toHaveLength(3);
    expect(forwarded(all, 0, { TF_LOG: "TRACE" })).toHaveLength(4);
    expect(forwarded(all, 0, { TF_LOG: "JSON" })).toHaveLength(4);
    expect(forwarded(all, 0, { TF_LOG: "TRACE", TF_LOG_PROVIDER: "ERROR" })).toEqual([]);
    expect(forwarded(all, 9, { TF_LOG: "OFF" })).toEqual([]);
    expect(forwarded(all, 0, { TF_LOG: "constructor" })).toEqual([]);
    // Set but empty is unset, as Terraform reads it.
    expect(forwarded(all, 0, { TF_LOG_PROVIDER: "", TF_LOG: "INFO" })).toHaveLength(2);
    expect(forwarded(all, 0, { TF_LOG: " " })).toEqual(forwarded(all));
    expect(forwarded(all)).toHaveLength(1);
  });

  it("are asked of a launched provider by the same rule: what TF_LOG_PROVIDER or TF_LOG says, WARN when neither does", () => {
    expect(providerLogEnv({})).toMatchObject({ TF_LOG_PROVIDER: "WARN", TF_LOG_SDK: "WARN", TF_LOG_SDK_PROTO: "WARN" });
    expect(providerLogEnv({ TF_LOG_PROVIDER: "", TF_LOG: "INFO" })).toMatchObject({ TF_LOG_SDK: "INFO", TF_LOG_SDK_FRAMEWORK: "INFO" });
    // A subsystem the user set keeps its own value (it is inherited, not overridden).
    const own = providerLogEnv({ TF_LOG: "DEBUG", TF_LOG_SDK_PROTO: "ERROR" });
    expect(own).not.toHaveProperty("TF_LOG_SDK_PROTO");
    expect(own["TF_LOG_PROVIDER"]).toBe("DEBUG");
  });

  it("without TF_LOG follow the verbosity the engine passes: debug from -v=1, trace from -v=9", () => {
    expect(forwarded([TRACE, DEBUG], 1)).toEqual([{ severity: "debug", message: "random: Docker container create request" }]);
    expect(forwarded([TRACE], 8)).toEqual([]);
    expect(forwarded([TRACE], 9)).toEqual([{ severity: "debug", message: "random: Received request (tf_rpc=GetProviderSchema)" }]);
  });
});
