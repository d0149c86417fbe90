// What a provider writes or answers is cut to a bounded size before anything keeps or forwards it: lines of its output
// (src/terraform/output.ts), its diagnostics (src/terraform/wire.ts), and the status messages we send (src/wire/rpc.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineSplitter, LineTail, MAX_LINE_BYTES } from "../../src/terraform/output.js";
import { diagnosticsFromPb } from "../../src/terraform/wire.js";
import { boundText, MAX_DIAGNOSTIC_CHARS, MAX_STATUS_MESSAGE_BYTES } from "../../src/wire/bound.js";
import { MAX_QUOTED_VALUE_CHARS, shownValue } from "../../src/terraform/diagnostics.js";
import { boundedStatusMessage, CallError, Channel, Server, Status, type Method } from "../../src/wire/rpc.js";

function split(chunks: (string | Buffer)[], max = 16): string[] {
  const out: string[] = [];
  const s = new LineSplitter(max, (l) => out.push(l));
  for (const c of chunks) s.push(typeof c === "string" ? Buffer.from(c) : c);
  s.end();
  return out;
}

describe("LineSplitter", () => {
  it("splits LF and CRLF lines across chunks, and keeps a last line without a newline", () => {
    expect(split(["ab", "c\nde\r", "\nf"])).toEqual(["abc", "de", "f"]);
    expect(split(["\n\n"])).toEqual(["", ""]);
    expect(split([])).toEqual([]);
  });

  it("keeps a long line's first bytes and counts the rest, in one chunk or many", () => {
    const line = `first words ${"x".repeat(100)}`;
    const expected = `first words xxxx … [${line.length - 16} more bytes of this line not shown]`;
    expect(split([`${line}\nnext\n`])).toEqual([expected, "next"]);
    expect(split([...line].concat("\n", "next"))).toEqual([expected, "next"]);
  });

  it("drops a character the cut falls inside rather than showing half of it", () => {
    // "é" is two bytes; the limit falls between them.
    expect(split([`${"a".repeat(15)}é tail\n`])).toEqual([`${"a".repeat(15)} … [7 more bytes of this line not shown]`]);
    expect(split([Buffer.from("€", "utf8").subarray(0, 1), Buffer.from("€", "utf8").subarray(1), "\n"])).toEqual(["€"]);
  });

  it("holds no more than the limit of a line that never ends", () => {
    const lines: string[] = [];
    const s = new LineSplitter(MAX_LINE_BYTES, (l) => lines.push(l));
    const chunk = Buffer.alloc(1024 * 1024, "y");
    for (let i = 0; i < 64; i++) s.push(chunk);
    expect(lines).toEqual([]);
    s.end();
    expect(lines).toHaveLength(1);
    expect(lines[0]!.length).toBeLessThan(MAX_LINE_BYTES + 100);
    expect(lines[0]).toMatch(new RegExp(`^y{${MAX_LINE_BYTES}} … \\[${64 * 1024 * 1024 - MAX_LINE_BYTES} more bytes of this line not shown\\]$`));
  });
});

describe("LineTail", () => {
  it("keeps the last lines within a count and a total", () => {
    const tail = new LineTail(3, 10);
    for (const l of ["a", "b", "c", "d"]) tail.push(l);
    expect(tail.all()).toEqual(["b", "c", "d"]);
    tail.push("0123456789");
    expect(tail.all()).toEqual(["0123456789"]);
    tail.push("0123456789abc");
    expect(tail.all()).toEqual(["0123456789abc"]);
  });

  it("quotes the last lines that fit, always at least the last", () => {
    const tail = new LineTail();
    for (const l of ["one", "two", "three"]) tail.push(l);
    expect(tail.last(2)).toBe("two\nthree");
    expect(tail.last(10, 10)).toBe("two\nthree");
    tail.push("x".repeat(50));
    expect(tail.last(10, 10)).toBe("x".repeat(50));
  });

  it("after thousands of lines, wrapping around its ring many times, keeps what a plain list of every line would", () => {
    const tail = new LineTail(7, 40);
    const every: string[] = [];
    // Lengths cycle through 0..12, so both the count and the character bound take turns deciding what goes.
    for (let i = 0; i < 5000; i++) {
      const line = String(i % 10).repeat((i * 7) % 13);
      tail.push(line);
      every.push(line);
      let kept = every.slice(-7);
      while (kept.length > 1 && kept.reduce((n, l) => n + l.length, 0) > 40) kept = kept.slice(1);
      expect(tail.all()).toEqual(kept);
      expect(tail.some((l) => l === every[every.length - 1])).toBe(true);
      expect(tail.last(2, 1000)).toBe(kept.slice(-2).join("\n"));
    }
    expect(tail.some((l) => l === "not a line")).toBe(false);
  });
});

describe("boundText", () => {
  it("leaves short text alone and cuts long text in the middle, keeping its start and its end, with a count of what was cut", () => {
    expect(boundText("short", 5)).toBe("short");
    expect(boundText("abcdefgh", 4)).toBe("abc … [4 characters not shown] … h");
    expect(boundText("reading x 0123456789abcdef failed: because", 28)).toBe("reading x 0123456789a … [14 characters not shown] … because");
  });

  it("never splits a surrogate pair, at either end of the cut", () => {
    // Three quarters of 3 is 3 characters from the start, but the third is the first half of 𝄞.
    expect(boundText("ab𝄞cdef", 3)).toBe("ab … [6 characters not shown] … ");
    // The last character of 4 would be the second half of 𝄞.
    expect(boundText("abcde𝄞", 4)).toBe("abc … [4 characters not shown] … ");
  });

  it("shows a value of any size by its start and end", () => {
    const id = `start-${"0".repeat(10 * 1024 * 1024)}-end`;
    const shown = shownValue(id);
    expect(shown.length).toBeLessThan(MAX_QUOTED_VALUE_CHARS + 50);
    expect(shown).toMatch(/^start-0+ … \[10485\d\d\d characters not shown\] … 0+-end$/);
    expect(shownValue("short-id")).toBe("short-id");
  });
});

describe("a provider's diagnostics", () => {
  it("keep the first words and the last of a summary and detail of megabytes", () => {
    const huge = `Error calling the API: ${"z".repeat(4 * 1024 * 1024)}: the reason`;
    const [d] = diagnosticsFromPb([{ severity: "ERROR", summary: huge, detail: huge }]);
    for (const text of [d!.summary, d!.detail]) {
      expect(text.length).toBeLessThan(MAX_DIAGNOSTIC_CHARS + 100);
      expect(text).toMatch(/^Error calling the API: z+ … \[\d+ characters not shown\] … z+: the reason$/);
    }
  });
});

describe("a status message of any size reaches the client", () => {
  const json = (v: object): Buffer => Buffer.from(JSON.stringify(v));
  const parse = (b: Buffer): { size: number } => JSON.parse(b.toString()) as { size: number };
  const FAIL: Method<{ size: number }, object> = {
    path: "/test.Hostile/Fail", originalName: "Fail", requestStream: false, responseStream: false,
    requestSerialize: json, requestDeserialize: parse, responseSerialize: json, responseDeserialize: parse,
  };
  const server = new Server({ maxReceiveBytes: 1024 });
  let channel: Channel;
  beforeAll(async () => {
    server.addService({ Fail: FAIL }, {
      // The message an error built from a provider's output could carry: its first words, then megabytes.
      Fail: (req) => {
        throw new CallError(Status.FAILED_PRECONDITION, `the provider said: ${"é".repeat((req as { size: number }).size)}`);
      },
    });
    channel = new Channel(`127.0.0.1:${await server.listen("127.0.0.1")}`);
  });
  afterAll(async () => {
    channel.close();
    await server.shutdown();
  });

  it.each([[100], [1024 * 1024], [20 * 1024 * 1024]])("%d characters: its start and end, cut in the middle with a marker, and its status code", async (size) => {
    const err = (await channel.unary(FAIL, { size }).catch((e: unknown) => e)) as CallError;
    expect(err).toBeInstanceOf(CallError);
    expect(err.code).toBe(Status.FAILED_PRECONDITION);
    expect(err.details.startsWith("the provider said: éé")).toBe(true);
    expect(boundedStatusMessage(err.details).length).toBeLessThanOrEqual(MAX_STATUS_MESSAGE_BYTES);
    if (size < 1000) expect(err.details).toBe(`the provider said: ${"é".repeat(size)}`);
    else expect(err.details).toMatch(/é … \[\d+ characters not shown\] … éé+$/);
  }, 60_000);
});

describe("a peer's status message of 60 KB", () => {
  it("is cut as it is read, so an error built on it stays bounded", async () => {
    // A server that misbehaves on purpose: node:http2 answering every call with a long grpc-message.
    const http2 = await import("node:http2");
    const peer = http2.createServer();
    peer.on("stream", (stream) => {
      stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "2", "grpc-message": `peer says: ${"q".repeat(60_000)}` }, { endStream: true });
    });
    await new Promise<void>((resolve) => peer.listen(0, "127.0.0.1", resolve));
    const channel = new Channel(`127.0.0.1:${(peer.address() as { port: number }).port}`);
    const ECHO: Method = {
      path: "/test.Hostile/Echo", originalName: "Echo", requestStream: false, responseStream: false,
      requestSerialize: () => Buffer.alloc(0), requestDeserialize: () => ({}), responseSerialize: () => Buffer.alloc(0), responseDeserialize: () => ({}),
    };
    try {
      const err = (await channel.unary(ECHO, {}, { deadline: Date.now() + 10_000 }).catch((e: unknown) => e)) as CallError;
      expect(err.code, err.details).toBe(Status.UNKNOWN);
      expect(err.details).toMatch(/^peer says: q+ … \[\d+ characters not shown\] … q+$/);
      expect(err.details.length).toBeLessThan(MAX_STATUS_MESSAGE_BYTES + 100);
    } finally {
      channel.close();
      peer.close();
    }
  });
});
