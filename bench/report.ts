// One summary line per benchmark scenario, collected by bench/run.ts into the combined table, and the same results
// with the run's date, machine and load written as JSON (docs/bench-data/<bench>.json) for bench/plots.ts.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, release, totalmem } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../test/support/peers.js";

export interface BenchResult {
  scenario: string;
  /** The bridge's figure. */
  bridge: number;
  /** The same work done straight against the Terraform provider (the physical limit), when there is one. */
  direct?: number;
  /** The same work done by the reference bridge (Pulumi's Go pulumi-terraform-provider), when measured. */
  reference?: number;
  unit: string;
  /** The target, in words. */
  target?: string;
  /** [min, max] over the runs behind each median, where the work was repeated (runs, or rounds of operations). */
  bridgeRange?: [number, number];
  referenceRange?: [number, number];
  directRange?: [number, number];
  /** Where the figure sits in a plot (e.g. { step: "up", resources: 500 }): the scenario's words, as data. */
  key?: Record<string, string | number>;
}

/** What a benchmark wrote for bench/plots.ts: its results and the conditions they were measured in. */
export interface BenchData {
  bench: string;
  /** When the run started, ISO 8601. */
  date: string;
  machine: { cpu: string; cores: number; memoryGiB: number; kernel: string; node: string };
  /** os.loadavg() (1, 5 and 15 minutes) when the run started and when it ended: other work on the machine skews timings. */
  load: { start: number[]; end: number[] };
  /** The settings the run was given (sizes, runs, …). */
  settings: Record<string, string | number>;
  results: BenchResult[];
}

export const REPORT_PREFIX = "BENCH-RESULT ";

/** The 1-minute load average a published run must start under (bench/plots.ts refuses others). */
export const QUIET_LOAD = 1.5;
/** The fewest rounds (or runs) a published median may be taken over; each bench records its count in its settings. */
export const MIN_ROUNDS = 5;

/**
 * Waits until the 1-minute load average is under QUIET_LOAD, at most `maxSeconds`, so a bench started right after
 * another does not record (and publish) the load the previous one left; true when the machine got quiet.
 */
export async function settle(maxSeconds: number, log: (line: string) => void = console.log): Promise<boolean> {
  const until = Date.now() + maxSeconds * 1000;
  let said = false;
  while (loadavg()[0]! >= QUIET_LOAD) {
    if (Date.now() >= until) {
      log(`load ${loadavg()[0]!.toFixed(2)} after ${maxSeconds} s: starting anyway (bench:plots will refuse this run's figures)`);
      return false;
    }
    if (!said) log(`waiting for the 1-minute load (${loadavg()[0]!.toFixed(2)}) to fall under ${QUIET_LOAD} (at most ${maxSeconds} s)`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  return true;
}

const started = { date: new Date().toISOString(), load: loadavg() };
const reported: BenchResult[] = [];

export function report(r: BenchResult): void {
  reported.push(r);
  console.log(REPORT_PREFIX + JSON.stringify(r));
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Writes everything reported so far to `<BENCH_DATA_DIR>/<bench>.json`, by default docs/bench-data (checked in, the
 * plots' source). BENCH_DATA_DIR=none writes nothing, for runs whose figures are not for the docs.
 */
export function saveBenchData(bench: string, settings: BenchData["settings"]): string | undefined {
  const dir = process.env["BENCH_DATA_DIR"] ?? join(repoRoot, "docs", "bench-data");
  if (dir === "none") return undefined;
  const cpu = cpus();
  const data: BenchData = {
    bench,
    date: started.date,
    machine: { cpu: cpu[0]?.model.trim() ?? "unknown", cores: cpu.length, memoryGiB: round2(totalmem() / 2 ** 30), kernel: release(), node: process.version },
    load: { start: started.load.map(round2), end: loadavg().map(round2) },
    settings,
    results: reported,
  };
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${bench}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  console.log(`bench data: ${file}`);
  return file;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function range(xs: readonly number[]): [number, number] | undefined {
  return xs.length > 1 ? [Math.min(...xs), Math.max(...xs)] : undefined;
}
