// Registry and mirror fault benchmark: every scenario of test/support/registry-faults.ts, a full disk and eight
// concurrent installs, run BENCH_RUNS times (default 3) against the loopback fake registry; prints the matrix
// (runs, answered as expected, cache left clean, median time to the answer). No assertions.
// `npx tsx bench/faults.bench.ts`, or `BENCHES=faults npm run bench`; FAULT_SCENARIOS=<regex> picks scenarios.
import { FakeRegistry } from "../test/support/registry-server.js";
import { diskFullMessage, runConcurrent, unwritableCache, runDiskFull, runScenario, SCENARIOS, startFaultRegistry } from "../test/support/registry-faults.js";
import { peerPath } from "../test/support/peers.js";
import { median, report } from "./report.js";

const runs = Number(process.env["BENCH_RUNS"] ?? 3);
const pick = new RegExp(process.env["FAULT_SCENARIOS"] ?? ".");

interface Row {
  scenario: string;
  outcome: string;
  runs: number;
  expected: number;
  clean: number;
  ms: number[];
  notes: Set<string>;
}

const rows: Row[] = [];
const row = (scenario: string, outcome: string): Row => {
  const r: Row = { scenario, outcome, runs: 0, expected: 0, clean: 0, ms: [], notes: new Set() };
  rows.push(r);
  return r;
};

const reg = await startFaultRegistry();
try {
  for (const s of SCENARIOS.filter((x) => pick.test(x.name))) {
    const want = s.expect(reg);
    const r = row(s.name, want.ok ? (want.warning ? "installs, warns" : "installs") : "fails, says what to do");
    for (let i = 0; i < runs; i++) {
      const run = await runScenario(reg, s);
      r.runs++;
      if (run.asExpected) r.expected++;
      else r.notes.add(run.mismatch ?? "");
      if (run.leftovers.length === 0) r.clean++;
      r.ms.push(run.result.ms);
    }
  }
  const disks = [
    { name: "disk full while downloading (8 MiB tmpfs)", mib: 8, how: "tmpfs" },
    { name: "disk full while unpacking (16 MiB tmpfs)", mib: 16, how: "tmpfs" },
    { name: "file size limit while unpacking (ulimit -f 16 MiB)", mib: 16, how: "RLIMIT_FSIZE" },
  ] as const;
  for (const d of disks.filter((x) => pick.test(x.name))) {
    const r = row(d.name, "fails, says what to do");
    for (let i = 0; i < runs; i++) {
      const run = await runDiskFull(reg, d.mib, d.how);
      const cache = unwritableCache(run.result.message);
      const ok = !run.result.ok && diskFullMessage(cache, run.how).test(run.result.message ?? "");
      r.runs++;
      if (ok) r.expected++;
      else r.notes.add(run.result.message ?? "succeeded");
      if (run.clean) r.clean++;
      r.ms.push(run.result.ms);
      if (run.how !== d.how) r.notes.add(`limited by ${run.how}: this process may not mount`);
    }
  }
} finally {
  await reg.stop();
}

if (pick.test("8 concurrent installs")) {
  const slow = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.6.0" }] }, binaries: { random: peerPath("random") }, chunkDelayMs: 20 });
  try {
    const r = row("8 concurrent installs into one cache", "all install, one download");
    for (let i = 0; i < runs; i++) {
      const run = await runConcurrent(slow, 8);
      r.runs++;
      if (run.results.every((x) => x.ok) && run.identical && run.downloads === 1) r.expected++;
      else r.notes.add(`${run.results.filter((x) => !x.ok).length} failed, ${run.downloads} downloads`);
      if (run.clean) r.clean++;
      // The slowest process: when the last of them has its answer.
      r.ms.push(Math.max(...run.results.map((x) => x.ms)));
    }
  } finally {
    await slow.stop();
  }
}

const table = [["scenario", "outcome", "runs", "as expected", "cache clean", "median ms to answer"]];
for (const r of rows) {
  const yes = (n: number): string => (n === r.runs ? "yes" : `no (${n}/${r.runs})`);
  table.push([r.scenario, r.outcome, String(r.runs), yes(r.expected), yes(r.clean), median(r.ms).toFixed(0)]);
}
const widths = table[0]!.map((_, i) => Math.max(...table.map((t) => t[i]!.length)));
console.log(`registry and mirror faults: ${runs} runs per scenario against the loopback fake registry (time: call → answer, in the acquiring process)`);
for (const t of table) console.log(t.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  "));
for (const r of rows) for (const n of r.notes) console.log(`  ${r.scenario}: ${n}`);
report({ scenario: `registry fault scenarios answered as expected (of ${rows.length})`, bridge: rows.filter((r) => r.expected === r.runs).length, unit: "scenarios" });
report({ scenario: `registry fault scenarios leaving the cache clean (of ${rows.length})`, bridge: rows.filter((r) => r.clean === r.runs).length, unit: "scenarios" });
