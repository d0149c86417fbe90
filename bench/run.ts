// Runs every benchmark in turn (their own tables print as they go), then one table: the bridge's figure, the reference
// bridge's (Pulumi's Go implementation) where measured, the same work done straight against the Terraform provider,
// and the ratios. `npm run bench`; no assertions anywhere. Writing to docs/bench-data (BENCH_DATA_DIR unset), it waits
// before each bench whose JSON bench/plots.ts draws (up to BENCH_SETTLE_SECONDS, default 600; 0 does not wait) for the
// machine to be quiet: the previous bench's load would otherwise be the next one's start, and plots refuse loaded runs.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { repoRoot } from "../test/support/peers.js";
import { REPORT_PREFIX, settle, type BenchResult } from "./report.js";

const benches = (process.env["BENCHES"] ?? "codec,launch,startup,overhead,schema,docs,load").split(",");
const results: BenchResult[] = [];
/** The benches whose JSON is plotted in docs/performance.md (bench/plots.ts BENCHES). */
const PLOTTED = new Set(["scale", "giants", "overhead", "startup", "docker"]);
const settleSeconds = Number(process.env["BENCH_SETTLE_SECONDS"] ?? 600);

for (const name of benches) {
  console.log(`\n== bench/${name}.bench.ts`);
  if (PLOTTED.has(name) && process.env["BENCH_DATA_DIR"] === undefined && settleSeconds > 0) await settle(settleSeconds);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "bench", `${name}.bench.ts`)], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith(REPORT_PREFIX)) results.push(JSON.parse(line.slice(REPORT_PREFIX.length)) as BenchResult);
      else console.log(line);
    });
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`bench/${name}.bench.ts exited with ${code}`))));
  });
}

// A figure not measured arrives as undefined, or as null where a bench had NaN (JSON has no NaN): both print "-".
const known = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);
const fmt = (n: number | null | undefined): string => (!known(n) ? "-" : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));
// A median with its min–max over the repeated runs, when there were several.
const withRange = (n: number | null | undefined, r: [number, number] | undefined): string => (!known(n) || r === undefined ? fmt(n) : `${fmt(n)} (${fmt(r[0])}–${fmt(r[1])})`);
// "added" is what the bridge costs on top of the provider's own work, the figure the per-op and start-up targets name.
const rows = [["scenario", "bridge", "reference", "direct", "added", "÷ reference", "÷ direct", "unit", "target"]];
for (const r of results) {
  const d = r.direct;
  const ref = r.reference;
  rows.push([
    r.scenario,
    withRange(r.bridge, r.bridgeRange),
    withRange(ref, r.referenceRange),
    withRange(d, r.directRange),
    known(d) && known(r.bridge) ? fmt(r.bridge - d) : "-",
    known(ref) && ref !== 0 && known(r.bridge) ? (r.bridge / ref).toFixed(2) : "-",
    known(d) && d !== 0 && known(r.bridge) ? (r.bridge / d).toFixed(2) : "-",
    r.unit,
    r.target ?? "",
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log("\n== summary (medians, min–max over runs in brackets; reference = Pulumi's Go bridge doing the same; direct = the same work sent straight to the Terraform provider)");
for (const r of rows) console.log(r.map((c, i) => (i >= 1 && i <= 6 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  "));
