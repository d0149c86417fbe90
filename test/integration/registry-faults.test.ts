// Registry and mirror faults against the loopback fake registry (test/support/registry-server.ts): slow and failing
// servers, damaged, oversized and looping downloads, bad signatures and keys, a full disk, a cache that cannot be
// written, and eight processes installing at once. Every failure must say what to do and leave nothing half-written
// in the cache.
//
// The full disk is a real one: a small tmpfs mounted over the cache when this process may mount (root in these
// containers); where it may not, the child runs under `prlimit --fsize`, whose RLIMIT_FSIZE makes the kernel refuse
// writes past the size with EFBIG, the same failure path with another errno. That limit also gets a test of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskFullMessage, runConcurrent, runDiskFull, runScenario, runUnwritable, SCENARIOS, startFaultRegistry, unwritableCache } from "../support/registry-faults.js";
import type { AcquireResult } from "../support/registry-child.js";
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

describe("timeouts meant as never", () => {
  // Past the 24.8 days a Node.js timer can wait; unclamped, every request was aborted after 1 ms, advising to raise them.
  it("TF_REGISTRY_CLIENT_TIMEOUT and TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT of 3000000 s: the install waits and succeeds", async () => {
    const env = { TF_REGISTRY_CLIENT_TIMEOUT: "3000000", TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "3000000" };
    const run = await runScenario(reg, { name: "never", via: "registry", version: "1.0.0", env, expect: () => ({ ok: true }) });
    expect(run.mismatch, JSON.stringify(run.result, null, 2)).toBeUndefined();
    expect(run.leftovers).toEqual([]);
  }, 60_000);
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
      const cache = unwritableCache(r.message);
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
    const cache = unwritableCache(r.message);
    expect(r.message).toMatch(diskFullMessage(cache, how));
    expect(clean).toBe(true);
  }, 60_000);
});

describe("a cache that cannot be written (a container's read-only file system, a wrong path)", () => {
  const ELSEWHERE = "set PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR to a writable directory";
  const failed = (r: AcquireResult): void => {
    expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
    expect(r.stack).toBeUndefined();
    expect(r.kind).toBe("failed-precondition");
  };

  it("on a read-only file system: says EROFS, not Node's ENOENT, and names the setting", async (ctx) => {
    const run = await runUnwritable(reg, "read-only mount");
    // Root in these containers and in CI: the mount is made; elsewhere this says why not.
    if (run.skipped !== undefined) return ctx.skip(run.skipped);
    failed(run.result);
    expect(run.result.message).toMatch(
      new RegExp(`the plugin cache at ${run.cache} cannot be written \\(EROFS: read-only file system at ${run.cache}/127\\.0\\.0\\.1:\\d+\\) while installing ${run.cache}/.*/faults/random/1\\.0\\.0/\\w+; nothing was installed\\. Mount it writable, or ${ELSEWHERE} \\(in a container, a volume or a tmpfs\\)$`),
    );
    expect(run.result.message).not.toMatch(/ENOENT/);
  }, 60_000);

  it("a file where the cache should be: names the file, not a raw ENOTDIR", async () => {
    const run = await runUnwritable(reg, "a file");
    failed(run.result);
    expect(run.result.message).toMatch(
      new RegExp(`the plugin cache at ${run.cache} cannot be written \\(ENOTDIR: ${run.cache} is a file, not a directory\\) while installing .*; nothing was installed\\. Move that file away, or ${ELSEWHERE}$`),
    );
  }, 60_000);

  it("a file where one of its parents should be: names that file", async () => {
    const run = await runUnwritable(reg, "a file above it");
    failed(run.result);
    const file = run.cache.replace(/\/plugins$/, "");
    expect(run.result.message).toContain(`the plugin cache at ${run.cache} cannot be written (ENOTDIR: ${file} is a file, not a directory)`);
    expect(run.result.message).toMatch(new RegExp(`${ELSEWHERE}$`));
  }, 60_000);

  it("a directory this user may not write (EACCES): names the user and the setting", async (ctx) => {
    const run = await runUnwritable(reg, "no permission");
    if (run.skipped !== undefined) return ctx.skip(run.skipped);
    failed(run.result);
    expect(run.result.message).toMatch(
      new RegExp(`the plugin cache at ${run.cache} cannot be written \\(EACCES: permission denied at ${run.cache}/127\\.0\\.0\\.1:\\d+\\) while installing .*; nothing was installed\\. Give this user \\(uid \\d+\\) write access there, or ${ELSEWHERE}$`),
    );
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
