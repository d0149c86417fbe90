// peakRssKiB is this program's own high-water mark in KiB: from VmHWM where /proc has it, from getrusage elsewhere.
import { describe, expect, it } from "vitest";
import { peakRssKiB } from "../../src/server/rss.js";

const currentKiB = (): number => Math.floor(process.memoryUsage().rss / 1024);

describe("peakRssKiB", () => {
  it("lies between the current RSS and ru_maxrss", () => {
    const hold = Buffer.alloc(32 * 1024 * 1024, 1); // touch 32 MiB so the peak moves
    const peak = peakRssKiB();
    expect(peak).toBeGreaterThanOrEqual(32 * 1024);
    expect(peak).toBeGreaterThanOrEqual(currentKiB() - 1024);
    // (The kernel batches RSS counters per thread, so the two readings may differ by a few pages.)
    expect(peak).toBeLessThanOrEqual(process.resourceUsage().maxRSS + 1024);
    expect(hold[hold.length - 1]).toBe(1);
  });

  it("reads VmHWM's kB as KiB", () => {
    expect(peakRssKiB(() => "Name:\tnode\nVmPeak:\t  999999 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 1000 kB\n")).toBe(12345);
  });

  it("falls back to getrusage, in KiB, where /proc is missing or says nothing", () => {
    const hold = Buffer.alloc(32 * 1024 * 1024, 1);
    for (const readStatus of [() => { throw new Error("ENOENT"); }, () => "Name:\tnode\n"]) {
      const peak = peakRssKiB(readStatus);
      // In KiB: at least what is resident now, and not a thousand times more (bytes) or less (MiB).
      expect(peak).toBeGreaterThanOrEqual(currentKiB() - 1024);
      expect(peak).toBeLessThan(currentKiB() * 64);
    }
    expect(hold[0]).toBe(1);
  });
});
