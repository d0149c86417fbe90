// Registry and mirror faults against the loopback fake registry (test/support/registry-server.ts): slow and failing
// servers, damaged, oversized and looping downloads, bad signatures and keys, a full disk, and eight processes
// installing at once. Every failure must say what to do and leave nothing half-written in the cache.
//
// The full disk is a real one: a small tmpfs mounted over the cache when this process may mount (root in these
// containers); where it may not, the child runs under `prlimit --fsize`, whose RLIMIT_FSIZE makes the kernel refuse
// writes past the size with EFBIG, the same failure path with another errno.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireInChild, sandbox, type AcquireResult } from "../support/registry-child.js";
import { cacheLeftovers, runScenario, SCENARIOS, startFaultRegistry } from "../support/registry-faults.js";
import { CURRENT_PLATFORM, FakeRegistry } from "../support/registry-server.js";
import { peerPath } from "../support/peers.js";

let reg: FakeRegistry;

beforeAll(async () => {
  reg = await startFaultRegistry();
});

afterAll(async () => {
  await reg?.stop();
});

const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

describe("the fault matrix: each fault answers as expected and leaves the cache clean", () => {
  for (const s of SCENARIOS) {
    it(s.name, async () => {
      const run = await runScenario(reg, s);
      expect(run.mismatch, JSON.stringify(run.result, null, 2)).toBeUndefined();
      expect(run.leftovers).toEqual([]);
    }, 60_000);
  }
});

interface LimitedDir {
  dir: string;
  /** What limits it: "tmpfs" (ENOSPC) or "RLIMIT_FSIZE" (EFBIG). */
  how: string;
  /** The command prefix the child runs under. */
  prefix: string[];
  /** Bytes in use on the file system holding it (the tmpfs only). */
  used: () => number | undefined;
  release: () => void;
}

/** A cache directory that holds at most `bytes`: a tmpfs of that size, or else a child-process file size limit. */
function limitedDir(dir: string, bytes: number): LimitedDir {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir], { stdio: "pipe" });
    return {
      dir,
      how: "tmpfs",
      prefix: [],
      used: () => {
        const s = statfsSync(dir);
        return (s.blocks - s.bfree) * s.bsize;
      },
      release: () => execFileSync("umount", [dir]),
    };
  } catch {
    return { dir, how: "RLIMIT_FSIZE", prefix: ["prlimit", `--fsize=${bytes}`, "--"], used: () => undefined, release: () => undefined };
  }
}

describe("a full disk", () => {
  // The archive is about 11.8 MiB and unpacks to 25 MiB: 8 MiB fills up while downloading, 16 MiB while unpacking.
  for (const [when, mib] of [
    ["while downloading", 8],
    ["while unpacking", 16],
  ] as const) {
    it(`${when} (${mib} MiB): says there is no space in the cache and what to do, and leaves nothing`, async () => {
      const sb = sandbox(reg.caFile);
      const limited = limitedDir(sb.cache, mib * 1024 * 1024);
      let r: AcquireResult;
      try {
        r = await acquireInChild(`${reg.host}/faults/random`, "= 1.0.0", sb.env, limited.prefix);
        expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
        expect(r.stack).toBeUndefined();
        expect(r.kind).toBe("failed-precondition");
        const errno = limited.how === "tmpfs" ? "ENOSPC: the disk is full" : "EFBIG: a file would grow past this process's file size limit \\(ulimit -f\\)";
        expect(r.message).toMatch(
          new RegExp(
            `no space left in ${sb.cache} \\(${errno}\\) while writing ${sb.cache}/.*/faults/random/1\\.0\\.0/${CURRENT_PLATFORM}; nothing was installed\\. ` +
              `Free some space there, or set PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR to a directory on a disk with room`,
          ),
        );
        if (when === "while unpacking") expect(r.statuses.some((s) => /^Unpacking /.test(s))).toBe(true);
        else expect(r.statuses.some((s) => /^Unpacking /.test(s))).toBe(false);
        expect(cacheLeftovers(sb.cache, false)).toEqual([]);
        expect(readdirSync(sb.cache)).toEqual([]);
        // Every byte written was given back (tmpfs only: its usage is exact).
        if (limited.how === "tmpfs") expect(limited.used()).toBe(0);
      } finally {
        limited.release();
        rmSync(sb.cache, { recursive: true, force: true });
      }
    }, 60_000);
  }
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
    const sb = sandbox(slow.caFile);
    const results = await Promise.all(Array.from({ length: 8 }, () => acquireInChild(`${slow.host}/hashicorp/random`, "~> 3.0", sb.env)));
    for (const r of results) expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true, version: "3.6.0" });
    expect(new Set(results.map((r) => r.path)).size).toBe(1);
    expect(sha(results[0]!.path!)).toBe(sha(peerPath("random")));
    expect(slow.count(/^\/files\/hashicorp\/random\/3\.6\.0\/.*\.zip$/)).toBe(1);
    const versionDir = join(sb.cache, slow.host, "hashicorp", "random", "3.6.0");
    expect(readdirSync(versionDir)).toEqual([CURRENT_PLATFORM]);
    expect(readdirSync(join(versionDir, CURRENT_PLATFORM))).toEqual(["terraform-provider-random_v3.6.0"]);
    expect(cacheLeftovers(sb.cache, true)).toEqual([]);
  }, 180_000);
});
