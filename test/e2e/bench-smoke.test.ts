// The benchmarks keep working: `bench/run.ts` (what `npm run bench` runs) at small sizes must finish and report every
// scenario with a bridge figure, and a direct figure wherever one is measured. Only that they run is checked here:
// the figures themselves are for reading (docs/performance.md, closing notes), never asserted.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { packagePlugin } from "../support/e2e.js";
import { repoRoot } from "../support/peers.js";
import { tempDir } from "../support/temp.js";
import { pulumiBinDir } from "../support/pulumi.js";
import { dockerMissing } from "../support/docker.js";

beforeAll(() => {
  pulumiBinDir(); // pulumi-engineclient, built with the CLI
  packagePlugin(); // the overhead bench runs the packaged bundle
}, 1_200_000);

interface Result {
  scenario: string;
  bridge: number;
  reference?: number;
  unit: string;
  direct?: number;
}

describe("npm run bench (small sizes; the load bench is the e2e load test)", () => {
  it("runs codec, launch, startup, overhead and schema and reports every scenario", async () => {
    // The overhead bench's JSON for bench/plots.ts goes here, not over the checked-in docs/bench-data.
    const dataDir = tempDir("tfbridge-bench-data-");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", join(repoRoot, "bench", "run.ts")], {
      cwd: repoRoot,
      env: {
        ...process.env,
        BENCHES: "codec,launch,startup,overhead,schema",
        BENCH_RUNS: "2",
        BENCH_OPS: "20",
        BENCH_ROUNDS: "2",
        BENCH_RESOURCES: "60",
        BENCH_DATA_SOURCES: "20",
        BENCH_DATA_DIR: dataDir,
      },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    // The summary table, one row per scenario; run.ts prints it from the benches' BENCH-RESULT lines.
    const summary = stdout.slice(stdout.indexOf("== summary"));
    expect(summary).not.toBe("");
    const rows = summary.split("\n").slice(2).filter((l) => l.trim() !== "");
    const results: Result[] = rows.map((row) => {
      const cells = row.split(/\s{2,}/);
      // A figure is its median, followed by "(min–max)" where the runs repeat.
      const figure = (c: string | undefined): number | undefined => (c === undefined || c === "-" ? undefined : parseFloat(c));
      return { scenario: cells[0]!, bridge: parseFloat(cells[1]!), reference: figure(cells[2]), direct: figure(cells[3]), unit: cells[7] ?? "" };
    });
    const scenarios = results.map((r) => r.scenario);
    for (const expected of [
      /^start → Parameterize answered \(random, packaged\)$/,
      /^check random_id \(per op/,
      /^create random_id \(per op/,
      /^read random_id \(per op/,
      /^delete random_id \(per op/,
      /^check bridgetest_object \(per op/,
      /^create bridgetest_object \(per op/,
      /^update bridgetest_object \(per op/,
      /^read bridgetest_object \(per op/,
      /^delete bridgetest_object \(per op/,
      /^translate 60 resources \+ 20 data sources to JSON$/,
      /^schema translation peak RSS$/,
    ]) {
      expect(scenarios.some((s) => expected.test(s)), `${expected} in:\n${summary}`).toBe(true);
    }
    // Every figure is there and is a measurement (finite, not negative). A small one may print as 0.000 (figures under
    // 10 keep 3 decimals), so only whole-process timings, which cannot be that small, must be above zero.
    const measured = (n: number | undefined): boolean => n !== undefined && Number.isFinite(n) && n >= 0;
    for (const r of results) {
      expect(measured(r.bridge), `${r.scenario}: bridge figure`).toBe(true);
      if (/per op|Parameterize answered/.test(r.scenario)) expect(measured(r.direct), `${r.scenario}: direct figure`).toBe(true);
      if (/per op|Parameterize answered|GetSchema answered/.test(r.scenario)) expect(measured(r.reference), `${r.scenario}: reference figure`).toBe(true);
      if (/^start → /.test(r.scenario)) expect(r.bridge, `${r.scenario} (${r.unit})`).toBeGreaterThan(0);
    }
    // The same per-op figures, with the run's machine and load, as bench/plots.ts reads them.
    const data = JSON.parse(readFileSync(join(dataDir, "overhead.json"), "utf8")) as { machine: { cores: number }; load: { start: number[] }; results: { key?: { op?: string } }[] };
    expect(data.machine.cores).toBeGreaterThan(0);
    expect(data.load.start).toHaveLength(3);
    expect(data.results.map((r) => r.key?.op)).toEqual(expect.arrayContaining(["check", "create", "update", "read", "delete"]));
  }, 900_000);
});

describe.skipIf(dockerMissing())("the Docker bench (2 containers; bench/docker.bench.ts)", () => {
  it("runs ours, the reference and tofu on one engine and reports every step with all three figures", async () => {
    const dataDir = tempDir("tfbridge-bench-data-");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", join(repoRoot, "bench", "run.ts")], {
      cwd: repoRoot,
      env: { ...process.env, BENCHES: "docker", DOCKER_SIZES: "2", DOCKER_ROUNDS: "1", BENCH_DATA_DIR: dataDir },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    expect(stdout).toContain("== Docker stack: ours, the reference and tofu on the same engine");
    const data = JSON.parse(readFileSync(join(dataDir, "docker.json"), "utf8")) as { results: { key?: { step?: string }; bridge: number; reference?: number; direct?: number }[] };
    expect(data.results.map((r) => r.key?.step)).toEqual(["up", "no-change preview", "destroy", "peak RSS"]);
    for (const r of data.results) {
      for (const figure of [r.bridge, r.reference, r.direct]) expect(figure !== undefined && Number.isFinite(figure) && figure > 0, JSON.stringify(r)).toBe(true);
    }
  }, 900_000);
});
