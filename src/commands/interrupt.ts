// What a command leaves behind when it is stopped: on SIGINT, SIGTERM or SIGHUP, or when the process that started it
// (`pulumi plugin run`, which forwards no signal to a plugin it runs) is gone, every child's whole process tree is
// stopped and the command's undo steps run before it exits.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** A process as /proc shows it: its parent, and its start time, which tells it from a later process given its pid. */
interface ProcInfo {
  ppid: number;
  start: string;
}

/** Every process of the machine, by pid; empty where there is no /proc (then only the direct children are stopped). */
function processTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return table;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name, in parentheses, may hold spaces and parentheses itself: the fields follow the last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(name), { ppid: Number(fields[1]), start: fields[19] ?? "" });
    } catch {
      // Gone since the listing.
    }
  }
  return table;
}

/** `roots` and every process descended from them, with their start times. */
function trees(roots: readonly number[]): Map<number, string> {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, info] of table) children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  const found = new Map<number, string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (found.has(pid)) continue;
    found.set(pid, table.get(pid)?.start ?? "");
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/** The pids of `known` that still run as the same processes (not a later one given the same pid). */
function stillRunning(known: Map<number, string>): number[] {
  const table = processTable();
  if (table.size === 0) return [...known.keys()].filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
  return [...known].filter(([pid, start]) => table.get(pid)?.start === start).map(([pid]) => pid);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Stops each tree: SIGINT first, which the Pulumi CLI answers by cancelling and stopping its plugins and language
 * hosts; after `graceMs` SIGKILL to everything still running, including processes the trees started meanwhile and
 * those a stopped parent left to init.
 */
export async function stopTrees(roots: () => readonly number[], graceMs = 5_000): Promise<void> {
  const known = new Map<number, string>();
  // Anything the trees (or the command, before it notices) start meanwhile joins them.
  const grow = (): number[] => {
    const added: number[] = [];
    for (const [pid, start] of trees([...roots(), ...known.keys()])) {
      if (!known.has(pid)) {
        known.set(pid, start);
        added.push(pid);
      }
    }
    return added;
  };
  const deadline = Date.now() + graceMs;
  do {
    for (const pid of grow()) signal(pid, "SIGINT");
    if (stillRunning(known).length === 0) return;
    await sleep(100);
  } while (Date.now() < deadline);
  grow();
  for (const pid of stillRunning(known)) signal(pid, "SIGKILL");
}

const children = new Set<ChildProcess>();
const undo: (() => void)[] = [];
let watching: { ppid: number; timer: NodeJS.Timeout } | undefined;
let stopping = false;

/** Exit codes as shells report a process ended by a signal. */
const EXIT: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const childPids = (): number[] => [...children].map((c) => c.pid).filter((pid): pid is number => pid !== undefined);

async function interrupted(why: NodeJS.Signals | "parent", log: (line: string) => void): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(why === "parent" ? "the command that started this one is gone: stopping" : `${why}: stopping`);
  await stopTrees(childPids);
  for (const step of undo.splice(0).reverse()) {
    try {
      step();
    } catch (e) {
      log(`could not undo a step: ${(e as Error).message}`);
    }
  }
  process.exit(EXIT[why] ?? 130);
}

/**
 * Makes the running command stoppable: from now on a signal, or its parent's end, stops its children's trees, runs
 * the undo steps (last first) and exits. Called once by a command that starts processes.
 */
export function stopWithChildren(log: (line: string) => void): void {
  if (watching !== undefined) return;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => void interrupted(sig, log));
  // `pulumi plugin run` starts a plugin in its own process group and forwards no signal: its end shows as a new parent.
  const ppid = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== ppid) void interrupted("parent", log);
  }, 250);
  timer.unref();
  watching = { ppid, timer };
}

/**
 * Resolves at once unless the command is being stopped; then never, since the stop ends the process itself once the
 * trees are down and the undo steps have run (a command that returns because its child was stopped must not exit first).
 */
export function unlessStopping(): Promise<void> {
  return stopping ? new Promise(() => undefined) : Promise.resolve();
}

/** Tracks a child the command started, until it ends; one started while the command is being stopped joins the rest. */
export function track(child: ChildProcess): void {
  children.add(child);
  child.once("close", () => children.delete(child));
}

/** Adds a step to undo if the command is stopped; returns its removal, for when the command no longer needs it. */
export function onInterrupt(step: () => void): () => void {
  undo.push(step);
  return () => {
    const i = undo.indexOf(step);
    if (i >= 0) undo.splice(i, 1);
  };
}
