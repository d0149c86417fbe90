// The process's peak resident set size, for the RSS reports of the load scenario and the benchmarks.
import { readFileSync } from "node:fs";

/**
 * Peak RSS of this process in KiB. On Linux this is VmHWM from /proc/self/status, the high-water mark of this
 * program's own memory. Not getrusage's ru_maxrss (process.resourceUsage().maxRSS): that survives execve, and a
 * process the engine starts (Go spawns with CLONE_VM|CLONE_VFORK) inherits the engine's own peak through it.
 * Elsewhere ru_maxrss is all there is.
 */
export function peakRssKiB(readStatus: () => string = () => readFileSync("/proc/self/status", "utf8")): number {
  try {
    const m = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readStatus());
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  // Node gives maxRSS in KiB already (getrusage's unit on Linux; Node scales macOS's bytes to match).
  return process.resourceUsage().maxRSS;
}
