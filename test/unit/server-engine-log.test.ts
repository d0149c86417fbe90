// src/server/log.ts's EngineLogger against a loopback engine that is slow on purpose: what a flood of provider log
// lines may queue is bounded, errors are never dropped, the drop is reported, and each message is cut to its bound.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINE_PROTO, EngineLogger, MAX_PENDING_LOG_CHARS, StderrLogger } from "../../src/server/log.js";
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
