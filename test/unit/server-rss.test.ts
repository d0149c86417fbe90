// peakRssKiB is this program's own high-water mark: at least what it holds now, at most what getrusage reports (which
// may include a parent's peak inherited through exec).
import { describe, expect, it } from "vitest";
import { peakRssKiB } from "../../src/server/rss.js";

describe("peakRssKiB", () => {
  it("lies between the current RSS and ru_maxrss", () => {
    const hold = Buffer.alloc(32 * 1024 * 1024, 1); // touch 32 MiB so the peak moves
    const peak = peakRssKiB();
    expect(peak).toBeGreaterThanOrEqual(32 * 1024);
    expect(peak).toBeGreaterThanOrEqual(Math.floor(process.memoryUsage().rss / 1024) - 1024);
    // (The kernel batches RSS counters per thread, so the two readings may differ by a few pages.)
    expect(peak).toBeLessThanOrEqual(process.resourceUsage().maxRSS + 1024);
    expect(hold[hold.length - 1]).toBe(1);
  });
});
