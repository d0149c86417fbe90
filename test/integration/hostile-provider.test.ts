// Providers that misbehave on purpose (test/peers/hostile, and files built for other machines) against the real launch
// and Parameterize path: output of any size ends in a bounded error that keeps the provider's first words, within a
// sane memory; a provider that never answers meets the schema deadline; a reply with a huge status message or a huge
// message ends the call at once; a file this machine cannot run is named as such.
// The foreign executables are headers written here: no real peer for another machine can be run on this one.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parameterize } from "../../src/parameterize/index.js";
import { LaunchError } from "../../src/terraform/errors.js";
import { launchProvider, type ProviderLogEntry } from "../../src/terraform/launch.js";
import { MAX_LINE_BYTES, STDERR_QUOTE_CHARS } from "../../src/terraform/output.js";
import { DEFAULT_MAX_PROVIDER_MESSAGE_BYTES, MAX_PROVIDER_MESSAGE_ENV, PING_TIMEOUT_ENV, SCHEMA_TIMEOUT_ENV } from "../../src/terraform/settings.js";
import { RECEIVE_HEADER_LIST_BYTES } from "../../src/wire/rpc.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { processAlive, waitGone } from "../support/processes.js";

const HOSTILE = join(repoRoot, "test/peers/hostile/terraform-provider-hostile");
const FIRST_WORDS = "Error: hostile provider failed on purpose; its first words come first.";
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-hostile-"));
/** Set in the environment of every hostile provider this file starts, so that only those are looked for. */
const TAG = { HOSTILE_TAG: `${process.pid}-${Date.now()}` };
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `fn` with these variables set in our environment (a launched provider inherits it), then restores it. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The most our resident memory grew above where it was while `fn` ran, sampled every 10 ms. */
async function peakRssGrowth<T>(fn: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - base) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

/** Live hostile providers started by this file. */
function ours(): number[] {
  const marker = `HOSTILE_TAG=${TAG.HOSTILE_TAG}\0`;
  return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(HOSTILE) && readFileSync(`/proc/${pid}/environ`, "utf8").includes(marker) && processAlive(pid);
    } catch {
      return false; // exited while we looked
    }
  });
}

async function noHostileLeft(): Promise<number[]> {
  await Promise.all(ours().map((p) => waitGone(p, 5_000)));
  return ours();
}

describe("a provider that writes one huge stderr line, then exits 1", () => {
  it.each([
    ["1 MB", 1024 * 1024],
    ["20 MB", 20 * 1024 * 1024],
    ["300 MB", 300 * 1024 * 1024],
  ])("%s: a bounded error with its first words and the size cut, in bounded memory", async (_what, size) => {
    const logs: ProviderLogEntry[] = [];
    const { result: err, growthMb } = await peakRssGrowth(() =>
      launchProvider({ path: HOSTILE, env: { ...TAG, HOSTILE_MODE: "huge-line", HOSTILE_BYTES: String(size) }, onLog: (e) => logs.push(e) }).catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(LaunchError);
    const message = (err as Error).message;
    expect(message).toContain("terraform-provider-hostile exited with code 1 before completing the plugin handshake");
    expect(message).toContain(`provider stderr:\n${FIRST_WORDS} xxx`);
    expect(message).toMatch(new RegExp(`x … \\[${size - MAX_LINE_BYTES} more bytes of this line not shown\\]$`));
    expect(message.length).toBeLessThan(MAX_LINE_BYTES + 1024);
    // What goes to the log (and from there to the engine) is the same bounded line.
    expect(logs).toHaveLength(1);
    expect(logs[0]!.message.startsWith(FIRST_WORDS)).toBe(true);
    expect(logs[0]!.message.length).toBeLessThan(MAX_LINE_BYTES + 100);
    expect(growthMb).toBeLessThan(100);
    expect(await noHostileLeft()).toEqual([]);
  }, 120_000);

  it("many lines of 64 KiB (128 MB in all): the last lines quoted, each cut, within the quote's bound", async () => {
    const logs: ProviderLogEntry[] = [];
    const { result: err, growthMb } = await peakRssGrowth(() =>
      launchProvider({ path: HOSTILE, env: { ...TAG, HOSTILE_MODE: "many-lines", HOSTILE_LINES: "2000", HOSTILE_BYTES: String(64 * 1024) }, onLog: (e) => logs.push(e) }).catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(LaunchError);
    const message = (err as Error).message;
    const quoted = message.slice(message.indexOf("provider stderr:\n") + "provider stderr:\n".length);
    expect(quoted).toMatch(/^line 1999: x+ … \[\d+ more bytes of this line not shown\]$/m);
    expect(quoted).not.toContain("line 1990:");
    expect(quoted.length).toBeLessThanOrEqual(STDERR_QUOTE_CHARS + MAX_LINE_BYTES);
    expect(logs).toHaveLength(2000);
    expect(Math.max(...logs.map((l) => l.message.length))).toBeLessThan(MAX_LINE_BYTES + 100);
    expect(growthMb).toBeLessThan(100);
    expect(await noHostileLeft()).toEqual([]);
  }, 120_000);
});

describe("a provider that completes the handshake and never answers", () => {
  it(`Parameterize fails at ${SCHEMA_TIMEOUT_ENV}, naming the provider, the deadline and the setting; the process is gone`, async () => {
    const started = Date.now();
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "hang", [SCHEMA_TIMEOUT_ENV]: "1.5" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    const elapsed = Date.now() - started;
    expect((err as Error).message).toMatch(
      new RegExp(`could not read the schema of ${HOSTILE}: the Terraform provider ${HOSTILE} did not answer GetProviderSchema within 1\\.5 s; it seems hung\\. If it is only slow, raise ${SCHEMA_TIMEOUT_ENV} \\(seconds, now 1\\.5\\); it printed:\\nhostile provider: serving, and never answering$`),
    );
    // The deadline, then at most the stop's grace periods (Shutdown, SIGTERM), never the 5-minute default.
    expect(elapsed).toBeGreaterThanOrEqual(1_500);
    expect(elapsed).toBeLessThan(15_000);
    expect(await noHostileLeft()).toEqual([]);
  }, 60_000);

  it(`a ${SCHEMA_TIMEOUT_ENV} that is no number of seconds fails before anything starts, naming it`, async () => {
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "hang", [SCHEMA_TIMEOUT_ENV]: "soon" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((err as Error).message).toMatch(/TF_BRIDGE_SCHEMA_TIMEOUT="soon" is not a number of seconds above 0; set it to one or unset it \(default 300\)/);
    expect(ours()).toEqual([]);
  });
});

describe("deadlines meant as never", () => {
  // 3000000 s is past the 24.8 days a Node.js timer can wait; unclamped, the timer fired after 1 ms and Parameterize
  // failed at once, advising to raise the value.
  it(`${SCHEMA_TIMEOUT_ENV} and ${PING_TIMEOUT_ENV} of 3000000 s: a real provider's Parameterize waits for its schema and succeeds`, async () => {
    const result = await withEnv({ [SCHEMA_TIMEOUT_ENV]: "3000000", [PING_TIMEOUT_ENV]: "3000000" }, () => parameterize({ kind: "args", args: [peerPath("random")] }));
    try {
      expect(result.name).toBe("random");
      expect([...result.schema.resources.keys()]).toContain("random_pet");
    } finally {
      await result.provider.close();
    }
  }, 60_000);
});

describe("a provider whose GetProviderSchema reply has a huge status message", () => {
  // What grpc-go, every real provider's server, does: it will not send headers over the client's announced limit.
  it.each([
    ["trailer", "trailer"],
    ["trailers-only reply", "trailers-only"],
    ["initial header field", "header"],
  ])("1 MB in the %s, from a server that honours our header limit: Parameterize fails at once, naming the cause; the process is gone", async (_what, where) => {
    const started = Date.now();
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "huge-status", HOSTILE_WHERE: where, HOSTILE_BYTES: String(1024 * 1024), HOSTILE_HONOR_SETTINGS: "1", [SCHEMA_TIMEOUT_ENV]: "60" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((err as Error).message).toMatch(
      new RegExp(`could not read the schema of ${HOSTILE}: GetProviderSchema failed: the stream was reset \\(HTTP/2 error code 2\\) without a status; a gRPC server resets a reply this way when its headers would exceed the ${RECEIVE_HEADER_LIST_BYTES / 1024} KiB this client accepts, e\\.g\\. an error message larger than that$`),
    );
    // Not the 60 s schema deadline: the reset ends the call, then the stop's grace periods at most.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await noHostileLeft()).toEqual([]);
  }, 90_000);

  // node:http2's own server does not heed the limit: nghttp2 on our side then gives up on the connection in silence.
  it.each([
    ["trailer", "trailer"],
    ["trailers-only reply", "trailers-only"],
    ["initial header field", "header"],
  ])(`1 MB in the %s, from a server that ignores our header limit: the unanswered PING ends the call within ${PING_TIMEOUT_ENV}`, async (_what, where) => {
    const started = Date.now();
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "huge-status", HOSTILE_WHERE: where, HOSTILE_BYTES: String(1024 * 1024), [PING_TIMEOUT_ENV]: "1", [SCHEMA_TIMEOUT_ENV]: "60" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((err as Error).message).toMatch(
      new RegExp(`could not read the schema of ${HOSTILE}: GetProviderSchema failed: connection lost: the connection stopped answering: no reply to an HTTP/2 PING within 1 s \\(${PING_TIMEOUT_ENV}\\)\\. A peer that sends a header field over 64 KiB \\(e\\.g\\. a huge error message\\), ignoring the 64 KiB limit this client announces, leaves a connection so$`),
    );
    // Quiet for 2 s, probed, 1 s without an ack; then the stop's grace periods at most. Not the 60 s schema deadline.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await noHostileLeft()).toEqual([]);
  }, 90_000);

  it("40 KB in the trailer, under the limit: the provider's message arrives, cut to the status bound", async () => {
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "huge-status", HOSTILE_WHERE: "trailer", HOSTILE_BYTES: String(40 * 1024), HOSTILE_HONOR_SETTINGS: "1" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((err as Error).message).toContain(`GetProviderSchema failed: ${FIRST_WORDS} xxx`);
    expect((err as Error).message).toMatch(/x … \[\d+ characters not shown\] … x/);
    expect(await noHostileLeft()).toEqual([]);
  }, 60_000);
});

describe("a provider whose GetProviderSchema reply announces a 4 GiB message", () => {
  it(`is refused from the length prefix, naming ${MAX_PROVIDER_MESSAGE_ENV}, in bounded memory; the process is gone`, async () => {
    const started = Date.now();
    const { result: err, growthMb } = await peakRssGrowth(() =>
      withEnv({ ...TAG, HOSTILE_MODE: "giant-reply", [SCHEMA_TIMEOUT_ENV]: "60" }, () => parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e)),
    );
    expect((err as Error).message).toMatch(
      new RegExp(`could not read the schema of ${HOSTILE}: GetProviderSchema failed: received a message of 4294967295 bytes, more than the limit of ${DEFAULT_MAX_PROVIDER_MESSAGE_BYTES} set by ${MAX_PROVIDER_MESSAGE_ENV}; raise it if such messages are expected`),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(growthMb).toBeLessThan(200);
    expect(await noHostileLeft()).toEqual([]);
  }, 90_000);

  it(`${MAX_PROVIDER_MESSAGE_ENV} lowers the limit; a value that is no number of bytes fails before anything starts`, async () => {
    const err = await withEnv({ ...TAG, HOSTILE_MODE: "giant-reply", [MAX_PROVIDER_MESSAGE_ENV]: "1000" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((err as Error).message).toContain(`received a message of 4294967295 bytes, more than the limit of 1000 set by ${MAX_PROVIDER_MESSAGE_ENV}`);
    expect(await noHostileLeft()).toEqual([]);
    const bad = await withEnv({ ...TAG, HOSTILE_MODE: "giant-reply", [MAX_PROVIDER_MESSAGE_ENV]: "1GB" }, () =>
      parameterize({ kind: "args", args: [HOSTILE] }).catch((e: unknown) => e),
    );
    expect((bad as Error).message).toContain(`${MAX_PROVIDER_MESSAGE_ENV}="1GB" is not a whole number of bytes above 0; set it to one or unset it (default 268435456, 256 MiB)`);
    expect(ours()).toEqual([]);
  }, 60_000);
});

// ---- files this machine cannot run -----------------------------------------------------------------------------

const HOST_ARCH = process.arch === "arm64" ? "arm64" : "amd64";
const OTHER = HOST_ARCH === "arm64" ? { arch: "amd64", elf: 62 } : { arch: "arm64", elf: 183 };

/** A 64-bit little-endian ELF executable header for `machine`, with a PT_INTERP naming `interp` if given. */
function elf(machine: number, interp?: string): Buffer {
  const h = Buffer.alloc(64);
  h.write("\x7fELF", 0, "latin1");
  h[4] = 2;
  h[5] = 1;
  h[6] = 1;
  h.writeUInt16LE(2, 16);
  h.writeUInt16LE(machine, 18);
  h.writeUInt32LE(1, 20);
  h.writeBigUInt64LE(0x400000n, 24);
  h.writeUInt16LE(64, 52);
  h.writeUInt16LE(56, 54);
  if (interp === undefined) return Buffer.concat([h, Buffer.alloc(64)]);
  h.writeBigUInt64LE(64n, 32);
  h.writeUInt16LE(1, 56);
  const name = Buffer.from(`${interp}\0`, "latin1");
  const ph = Buffer.alloc(56);
  ph.writeUInt32LE(3, 0);
  ph.writeBigUInt64LE(120n, 8);
  ph.writeBigUInt64LE(BigInt(name.length), 32);
  return Buffer.concat([h, ph, name]);
}

function machO(cpu: number): Buffer {
  const h = Buffer.alloc(96);
  h.writeUInt32LE(0xfeedfacf, 0);
  h.writeUInt32LE(cpu, 4);
  h.writeUInt32LE(2, 12);
  return h;
}

function pe(machine: number): Buffer {
  const h = Buffer.alloc(0x80);
  h.write("MZ", 0, "latin1");
  h.writeUInt32LE(0x40, 0x3c);
  h.write("PE\0\0", 0x40, "latin1");
  h.writeUInt16LE(machine, 0x44);
  return h;
}

function file(name: string, content: Buffer | string): string {
  const p = join(scratch, name);
  writeFileSync(p, content);
  chmodSync(p, 0o755);
  return p;
}

const here = `linux/${HOST_ARCH}`;
const getBuild = `get the build of the provider for ${here} \\(the linux_${HOST_ARCH} zip of its release\\)`;

describe("a file this machine cannot run", () => {
  it.each([
    [`an ELF for linux/${OTHER.arch}`, () => elf(OTHER.elf), `is built for linux/${OTHER.arch}; this machine is ${here}: ${getBuild}$`],
    ["a Mach-O for darwin/arm64", () => machO(0x0100000c), `is built for darwin/arm64; this machine is ${here}: ${getBuild}$`],
    ["a Mach-O for darwin/amd64", () => machO(0x01000007), `is built for darwin/amd64; this machine is ${here}: ${getBuild}$`],
    ["a PE for windows/amd64", () => pe(0x8664), `is built for windows/amd64; this machine is ${here}: ${getBuild}$`],
    [`an ELF for ${here} whose loader is missing`, () => elf(HOST_ARCH === "arm64" ? 183 : 62, "/lib/ld-missing-tfbridge.so.1"), `is built for ${here} but needs the program loader /lib/ld-missing-tfbridge\\.so\\.1, which this machine does not have`],
    ["a script whose interpreter is missing", () => "#!/nonexistent/tfbridge-interp\necho hi\n", "is a script for /nonexistent/tfbridge-interp, which is not installed on this machine$"],
    ["a text file without #!", () => "provider = true\n", `is a text file without a #! line, not a program: point at the provider's executable built for ${here}, or give a script a #! line$`],
    ["the release zip itself", () => Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(60)]), "is a zip archive, not a program: unpack it and point at the terraform-provider-\\* executable inside$"],
  ])("%s: says what it is and what to get, not 'exited with code 127'", async (what, content, expected) => {
    const path = file(`terraform-provider-${what.replace(/\W+/g, "-")}`, content());
    for (const direct of ["0", "1"]) {
      // Through setpriv (the default on Linux) and spawned directly: exec and the shell fail differently in each.
      const err = await withEnv({ TF_BRIDGE_NO_PDEATHSIG: direct }, () => launchProvider({ path, handshakeTimeoutMs: 20_000 }).catch((e: unknown) => e));
      expect(err).toBeInstanceOf(LaunchError);
      expect((err as Error).message).toMatch(new RegExp(`^${path} ${expected}`));
    }
  });
});
