// src/wire/rpc.ts: framing, status and timeout encodings as tables, and calls both ways against @grpc/grpc-js as an independent peer.
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallError, Channel, MessageReader, RECEIVE_HEADER_LIST_BYTES, Server, Status, decodeStatusMessage, encodeStatusMessage, parseTimeout, type Method, type Service } from "../../src/wire/rpc.js";

type Msg = { text?: string; wait?: number; fail?: { code: number; details: string }; count?: number };

const json = (v: object): Buffer => Buffer.from(JSON.stringify(v));
const parse = (b: Buffer): Msg => JSON.parse(b.toString()) as Msg;
function jsonMethod(name: string, responseStream = false): Method<Msg, Msg> {
  return { path: `/test.Echo/${name}`, originalName: name, requestStream: false, responseStream, requestSerialize: json, requestDeserialize: parse, responseSerialize: json, responseDeserialize: parse };
}
const ECHO: Service = { Echo: jsonMethod("Echo"), Count: jsonMethod("Count", true) };
const MISSING = jsonMethod("Missing");

const frame = (body: Buffer, compressed = false): Buffer => {
  const head = Buffer.alloc(5);
  head[0] = compressed ? 1 : 0;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
};

describe("encodeStatusMessage / decodeStatusMessage", () => {
  it.each([
    ["plain ASCII", "no such resource", "no such resource"],
    ["empty", "", ""],
    ["percent", "100% done", "100%25 done"],
    ["newline and tab", "a\nb\tc", "a%0Ab%09c"],
    ["non-ASCII as UTF-8", "é→", "%C3%A9%E2%86%92"],
    ["astral", "𝄞", "%F0%9D%84%9E"],
    ["edge spaces, which HTTP/2 refuses", " a b ", "%20a b%20"],
  ])("%s", (_what, text, wire) => {
    expect(encodeStatusMessage(text)).toBe(wire);
    expect(decodeStatusMessage(wire)).toBe(text);
  });

  it("keeps a malformed escape as received", () => {
    expect(decodeStatusMessage("50%")).toBe("50%");
  });
});

describe("parseTimeout", () => {
  it.each([
    ["1H", 3_600_000],
    ["2M", 120_000],
    ["3S", 3_000],
    ["250m", 250],
    ["1500u", 1.5],
    ["2000000n", 2],
    ["99999999m", 99_999_999],
    // Past Node's longest timer (2^31 - 1 ms, 24.8 days): that, not a timer that overflows and fires at once.
    ["3000000S", 2 ** 31 - 1],
    ["99999999H", 2 ** 31 - 1],
  ])("%s → %d ms", (wire, ms) => expect(parseTimeout(wire)).toBeCloseTo(ms, 6));

  it.each([[undefined], [""], ["10"], ["123456789m"], ["-1S"], ["1.5S"], ["5x"]])("%s is no timeout", (wire) => {
    expect(parseTimeout(wire)).toBeUndefined();
  });
});

describe("MessageReader", () => {
  it("splits messages across and within chunks", () => {
    const wire = Buffer.concat([frame(Buffer.from("one")), frame(Buffer.alloc(0)), frame(Buffer.from("three"))]);
    const reader = new MessageReader(1024, undefined);
    const out: string[] = [];
    for (let i = 0; i < wire.length; i += 3) out.push(...reader.push(wire.subarray(i, i + 3)).map(String));
    expect(out).toEqual(["one", "", "three"]);
    expect(reader.partial).toBe(false);
  });

  it("reports a message left half-read", () => {
    const reader = new MessageReader(1024, undefined);
    expect(reader.push(frame(Buffer.from("abc")).subarray(0, 6))).toEqual([]);
    expect(reader.partial).toBe(true);
  });

  it("inflates gzip, and refuses a compressed message without gzip", () => {
    const packed = frame(gzipSync(Buffer.from("hello")), true);
    expect(new MessageReader(1024, "gzip").push(packed).map(String)).toEqual(["hello"]);
    expect(() => new MessageReader(1024, undefined).push(packed)).toThrow(/only gzip/);
  });

  it("refuses a message over the limit with RESOURCE_EXHAUSTED before reading it", () => {
    const err = (() => {
      try {
        new MessageReader(4, undefined).push(frame(Buffer.from("too long")).subarray(0, 5));
      } catch (e) {
        return e as CallError;
      }
      return undefined;
    })();
    expect(err?.code).toBe(Status.RESOURCE_EXHAUSTED);
    expect(err?.details).toMatch(/8 bytes, more than the limit of 4/);
  });
});

const ourHandlers = {
  Echo: async (req: unknown) => {
    const m = req as Msg;
    if (m.wait !== undefined) await new Promise((r) => setTimeout(r, m.wait));
    if (m.fail !== undefined) throw new CallError(m.fail.code, m.fail.details, { "x-why": "asked", "x-raw-bin": Buffer.from([0, 255]) });
    return { text: m.text };
  },
  Count: (req: unknown) => Array.from({ length: (req as Msg).count ?? 0 }, (_, i) => ({ text: String(i) })),
};

describe("our Server, called by grpc-js", () => {
  const server = new Server({ maxReceiveBytes: 1024 });
  let client: grpc.Client & Record<string, (...a: unknown[]) => unknown>;
  beforeAll(async () => {
    server.addService(ECHO, ourHandlers);
    const port = await server.listen("127.0.0.1");
    const Ctor = grpc.makeGenericClientConstructor({ ...ECHO, Missing: MISSING } as unknown as grpc.ServiceDefinition, "Echo");
    client = new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as typeof client;
  });
  afterAll(async () => {
    client.close();
    await server.shutdown();
  });

  const unary = (name: string, req: Msg, deadlineMs = 5000): Promise<Msg> =>
    new Promise((resolve, reject) =>
      client[name]!(req, new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (err: grpc.ServiceError | null, res: Msg) => (err ? reject(err) : resolve(res))),
    );

  it("answers a unary call", async () => {
    expect(await unary("Echo", { text: "hi" })).toEqual({ text: "hi" });
  });

  it("sends a handler's CallError with its code, text and metadata", async () => {
    const err = (await unary("Echo", { fail: { code: Status.INVALID_ARGUMENT, details: "bad ünïcode " } }).catch((e) => e)) as grpc.ServiceError;
    expect(err.code).toBe(Status.INVALID_ARGUMENT);
    expect(err.details).toBe("bad ünïcode ");
    expect(err.metadata.get("x-why")).toEqual(["asked"]);
    expect(err.metadata.get("x-raw-bin")).toEqual([Buffer.from([0, 255])]);
  });

  it("waits out a deadline longer than a timer can hold (grpc-timeout 3000000S) instead of failing at once", async () => {
    // 3,000,000 s, beyond Node's 24.8-day timer limit, which would fire after 1 ms unless clamped.
    expect(await unary("Echo", { text: "later", wait: 50 }, 3_000_000_000)).toEqual({ text: "later" });
  });

  it("answers UNIMPLEMENTED for a method it does not serve", async () => {
    const err = (await unary("Missing", {}).catch((e) => e)) as grpc.ServiceError;
    expect(err.code).toBe(Status.UNIMPLEMENTED);
    expect(err.details).toContain("/test.Echo/Missing");
  });

  it("refuses a request over maxReceiveBytes with RESOURCE_EXHAUSTED", async () => {
    const err = (await unary("Echo", { text: "x".repeat(2000) }).catch((e) => e)) as grpc.ServiceError;
    expect(err.code).toBe(Status.RESOURCE_EXHAUSTED);
  });

  it("streams a server-streaming reply in order", async () => {
    const got: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = client["Count"]!({ count: 3 }) as grpc.ClientReadableStream<Msg>;
      call.on("data", (m: Msg) => got.push(m.text!));
      call.on("error", reject);
      call.on("end", resolve);
    });
    expect(got).toEqual(["0", "1", "2"]);
  });
});

describe("our Channel, calling a grpc-js server", () => {
  const server = new grpc.Server();
  let port = 0;
  let channel: Channel;
  beforeAll(async () => {
    const wrap =
      (f: (req: unknown) => unknown) =>
      (call: grpc.ServerUnaryCall<Msg, Msg>, cb: grpc.sendUnaryData<Msg>): void => {
        Promise.resolve(f(call.request)).then(
          (r) => cb(null, r as Msg),
          (e: CallError) => {
            const md = new grpc.Metadata();
            md.set("x-why", "asked");
            cb({ code: e.code, details: e.details, metadata: md });
          },
        );
      };
    server.addService(ECHO as unknown as grpc.ServiceDefinition, {
      Echo: wrap(ourHandlers.Echo),
      Count: (call: grpc.ServerWritableStream<Msg, Msg>) => {
        for (const m of ourHandlers.Count(call.request)) call.write(m);
        call.end();
      },
    });
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    channel = new Channel(`127.0.0.1:${port}`);
  });
  afterAll(() => {
    channel.close();
    server.forceShutdown();
  });

  it("makes a unary call", async () => {
    await channel.waitForReady(5000);
    expect(await channel.unary(ECHO["Echo"]!, { text: "hi" })).toEqual({ text: "hi" });
  });

  it("reports the server's status, text and metadata as a CallError", async () => {
    const err = (await channel.unary(ECHO["Echo"]!, { fail: { code: Status.NOT_FOUND, details: "gone 100% → away" } }).catch((e) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    expect(err.code).toBe(Status.NOT_FOUND);
    expect(err.details).toBe("gone 100% → away");
    expect(err.metadata["x-why"]).toBe("asked");
  });

  it("fails with DEADLINE_EXCEEDED when the deadline passes first", async () => {
    const err = (await channel.unary(ECHO["Echo"]!, { wait: 2000 }, { deadline: Date.now() + 100 }).catch((e) => e)) as CallError;
    expect(err.code).toBe(Status.DEADLINE_EXCEEDED);
  });

  it("waits out a deadline longer than a timer can hold instead of failing at once", async () => {
    expect(await channel.unary(ECHO["Echo"]!, { text: "later", wait: 50 }, { deadline: Date.now() + 3_000_000_000 })).toEqual({ text: "later" });
  });

  it("fails with CANCELLED when cancelled, and stays usable", async () => {
    const call = channel.unary(ECHO["Echo"]!, { wait: 2000 });
    setTimeout(() => call.cancel(), 50);
    expect(((await call.catch((e) => e)) as CallError).code).toBe(Status.CANCELLED);
    expect(await channel.unary(ECHO["Echo"]!, { text: "after" })).toEqual({ text: "after" });
  });

  it("gets UNIMPLEMENTED for a method the server lacks", async () => {
    expect(((await channel.unary(MISSING, {}).catch((e) => e)) as CallError).code).toBe(Status.UNIMPLEMENTED);
  });

  it("reads a server stream to its end", async () => {
    const got: string[] = [];
    const end = await new Promise<CallError | undefined>((resolve) => channel.serverStream(ECHO["Count"]!, { count: 4 }, (m) => got.push((m as Msg).text!), resolve));
    expect(end).toBeUndefined();
    expect(got).toEqual(["0", "1", "2", "3"]);
  });

  it("fails with UNAVAILABLE when nothing listens", async () => {
    const dead = new Channel("127.0.0.1:1");
    try {
      expect(((await dead.unary(ECHO["Echo"]!, {}).catch((e) => e)) as CallError).code).toBe(Status.UNAVAILABLE);
    } finally {
      dead.close();
    }
  });
});

// The peer below is node:http2 made to misbehave on purpose: no gRPC server sends these replies.
describe("our Channel, against a peer that misbehaves", () => {
  type Reply = (stream: http2.ServerHttp2Stream) => void;
  let reply: Reply = () => undefined;
  let announced: number | undefined;
  const server = http2.createServer({ maxSendHeaderBlockLength: 64 * 1024 * 1024 });
  let target = "";
  beforeAll(async () => {
    server.on("stream", (stream) => {
      stream.on("error", () => undefined);
      announced = stream.session?.remoteSettings.maxHeaderListSize;
      stream.resume();
      stream.on("end", () => reply(stream));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());
  const ok = { ":status": 200, "content-type": "application/grpc" };
  const huge = "x".repeat(1024 * 1024);

  it(`announces a header list limit of ${RECEIVE_HEADER_LIST_BYTES} bytes, which a gRPC server heeds`, async () => {
    reply = (s) => s.respond({ ...ok, "grpc-status": "0" }, { endStream: true });
    const channel = new Channel(target);
    try {
      await channel.unary(ECHO["Echo"]!, {}).catch(() => undefined);
      expect(announced).toBe(RECEIVE_HEADER_LIST_BYTES);
      expect(RECEIVE_HEADER_LIST_BYTES).toBeLessThanOrEqual(64 * 1024);
    } finally {
      channel.close();
    }
  });

  it.each<[string, Reply]>([
    ["a 1 MB grpc-message trailer", (s) => {
      s.respond(ok, { waitForTrailers: true });
      s.once("wantTrailers", () => s.sendTrailers({ "grpc-status": "2", "grpc-message": huge }));
      s.end();
    }],
    ["a 1 MB trailers-only reply", (s) => s.respond({ ...ok, "grpc-status": "2", "grpc-message": huge }, { endStream: true })],
    ["a 1 MB initial header", (s) => {
      s.respond({ ...ok, "x-huge": huge }, { waitForTrailers: true });
      s.once("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
      s.end();
    }],
  ])("%s ignoring our limit: the unanswered PING ends the call with UNAVAILABLE, naming the setting", async (_what, r) => {
    reply = r;
    const channel = new Channel(target, { liveness: { timeoutMs: 500, setting: "PING_SETTING" } });
    const started = Date.now();
    try {
      const err = (await channel.unary(ECHO["Echo"]!, {}).catch((e: unknown) => e)) as CallError;
      expect(err).toBeInstanceOf(CallError);
      expect(err.code).toBe(Status.UNAVAILABLE);
      expect(err.details).toMatch(/^connection lost: the connection stopped answering: no reply to an HTTP\/2 PING within 0\.5 s \(PING_SETTING\)\. A peer that sends a header field over 64 KiB/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      channel.close();
    }
  }, 15_000);

  it("a slow but live peer is probed, answers the PING, and its late reply arrives", async () => {
    reply = (s) => {
      setTimeout(() => {
        if (s.closed) return;
        s.respond(ok, { waitForTrailers: true });
        s.once("wantTrailers", () => s.sendTrailers({ "grpc-status": "0" }));
        s.end(frame(Buffer.from(JSON.stringify({ text: "late" }))));
      }, 4_000);
    };
    const channel = new Channel(target, { liveness: { timeoutMs: 500, setting: "PING_SETTING" } });
    let pings = 0;
    server.once("session", (session) => session.on("ping", () => pings++));
    try {
      expect(await channel.unary(ECHO["Echo"]!, {})).toEqual({ text: "late" });
      expect(pings).toBe(1);
    } finally {
      channel.close();
    }
  }, 15_000);

  it("a reply message announced over maxReceive is refused from its length prefix, naming the setting", async () => {
    reply = (s) => {
      s.respond(ok);
      const head = Buffer.alloc(5);
      head.writeUInt32BE(2 ** 30, 1);
      // A prefix and a little of the body, then nothing: the refusal must come from the prefix alone.
      s.write(Buffer.concat([head, Buffer.alloc(1024)]));
    };
    const channel = new Channel(target, { maxReceive: { bytes: 1000, setting: "SIZE_SETTING" } });
    try {
      const err = (await channel.unary(ECHO["Echo"]!, {}, { deadline: Date.now() + 3_000 }).catch((e: unknown) => e)) as CallError;
      expect(err.code).toBe(Status.RESOURCE_EXHAUSTED);
      expect(err.details).toBe("received a message of 1073741824 bytes, more than the limit of 1000 set by SIZE_SETTING; raise it if such messages are expected");
    } finally {
      channel.close();
    }
  });
});
