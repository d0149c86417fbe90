// Registry and mirror faults against the loopback fake registry (test/support/registry-server.ts): slow and failing
// servers, damaged, oversized and looping downloads, bad signatures and keys, a full disk, and eight processes
// installing at once. Every failure must say what to do and leave nothing half-written in the cache.
//
// The full disk is a real one: a small tmpfs mounted over the cache when this process may mount (root in these
// containers); where it may not, the child runs under `prlimit --fsize`, whose RLIMIT_FSIZE makes the kernel refuse
// writes past the size with EFBIG, the same failure path with another errno. That limit also gets a test of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskFullMessage, runConcurrent, runDiskFull, runScenario, SCENARIOS, startFaultRegistry } from "../support/registry-faults.js";
import { FakeRegistry } from "../support/registry-server.js";
import { peerPath } from "../support/peers.js";

let reg: FakeRegistry;

beforeAll(async () => {
  reg = await startFaultRegistry();
});

afterAll(async () => {
  await reg?.stop();
});

describe("the fault matrix: each fault answers as expected and leaves the cache clean", () => {
  for (const s of SCENARIOS) {
    it(s.name, async () => {
      const run = await runScenario(reg, s);
      expect(run.mismatch, JSON.stringify(run.result, null, 2)).toBeUndefined();
      expect(run.leftovers).toEqual([]);
    }, 60_000);
  }
});

describe("a full disk", () => {
  for (const [when, mib] of [
    ["while downloading", 8],
    ["while unpacking", 16],
  ] as const) {
    it(`${when} (${mib} MiB): says there is no space in the cache and what to do, and leaves nothing`, async () => {
      const { result: r, how, clean } = await runDiskFull(reg, mib);
      expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
      expect(r.stack).toBeUndefined();
      expect(r.kind).toBe("failed-precondition");
      const cache = /no space left in (\S+) /.exec(r.message ?? "")?.[1] ?? "";
      expect(r.message).toMatch(diskFullMessage(cache, how));
      expect(cache).toMatch(/tfbridge-acquire-.*\/cache$/);
      expect(r.statuses.some((s) => /^Unpacking /.test(s))).toBe(when === "while unpacking");
      // Nothing in the cache, and on a tmpfs every byte given back.
      expect(clean).toBe(true);
    }, 60_000);
  }

  it("a file size limit (ulimit -f, EFBIG) while unpacking: the same, and the process is not killed by SIGXFSZ", async () => {
    const { result: r, how, clean } = await runDiskFull(reg, 16, "RLIMIT_FSIZE");
    expect(how).toBe("RLIMIT_FSIZE");
    expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
    const cache = /no space left in (\S+) /.exec(r.message ?? "")?.[1] ?? "";
    expect(r.message).toMatch(diskFullMessage(cache, how));
    expect(clean).toBe(true);
  }, 60_000);
});

describe("concurrent installs", () => {
  let slow: FakeRegistry;
  beforeAll(async () => {
    // Slowed downloads (about 4 s) so that the processes overlap.
    slow = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.6.0" }] }, binaries: { random: peerPath("random") }, chunkDelayMs: 20 });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it("eight processes installing the same provider into one cache: all succeed, one download, one complete package", async () => {
    const run = await runConcurrent(slow, 8);
    for (const r of run.results) expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true, version: "3.6.0" });
    expect(run.identical).toBe(true);
    expect(run.downloads).toBe(1);
    expect(run.clean).toBe(true);
  }, 180_000);
});
