// Answers whether a process still exists, so tests can prove no provider outlives its client; runs commands without
// blocking the test worker.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without blocking the test worker (a build, an install or a compile can take minutes on a
 * loaded machine, and a worker blocked that long misses vitest's own calls, whose RPC gives up after 60 s). Never
 * rejects for a non-zero exit; `execAsync` does.
 */
export function spawnAsync(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** spawnAsync that fails with the command and its whole output unless it exits 0. */
export async function execAsync(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  const r = await spawnAsync(cmd, args, options);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

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

/**
 * Runs `fn` while holding a lock shared by every test file of the run (a file in the run's temp dir): for steps that
 * must not overlap across workers, such as two conversions whose generated programs `npm install` at the same time
 * (seen hanging until the step's deadline under load, while each alone took 17 s).
 */
export async function oneAtATime<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const lockfile = (await import("proper-lockfile")).default;
  const file = join(tmpdir(), `tfbridge-${name}.lock`);
  const release = await lockfile.lock(file, { realpath: false, stale: 600_000, retries: { retries: 1_200, minTimeout: 250, maxTimeout: 1_000 } });
  try {
    return await fn();
  } finally {
    await release();
  }
}
