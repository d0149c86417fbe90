// Answers whether a process still exists, so tests can prove no provider outlives its client.
import { readdirSync, readFileSync } from "node:fs";

/** True while the pid names a live (non-zombie) process. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie has exited; only its parent's bookkeeping is left.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits up to `ms` for the process to be gone. */
export async function waitGone(pid: number, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!processAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !processAlive(pid);
}

/** Pids of running processes whose executable path contains `needle`. */
export function processesMatching(needle: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmd.includes(needle) && processAlive(Number(entry))) out.push(Number(entry));
    } catch {
      // raced with an exit
    }
  }
  return out;
}

/** The parent pid of a process, or undefined once it is gone. */
export function parentPid(pid: number): number | undefined {
  try {
    const m = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of the live children of a process. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && parentPid(Number(entry)) === pid && processAlive(Number(entry))) out.push(Number(entry));
  }
  return out;
}
