// `npm run bench:plots` draws every median with its min–max and prints it as `median (min–max)`, gives the same bytes
// from the same JSON, and refuses to publish runs made on a loaded machine, with too few rounds, or on mixed days or
// machines. Quiet runs here are synthetic; the checked-in plots are compared with the checked-in JSON once it is quiet.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BEGIN,
  BENCHES,
  COMMANDS,
  END,
  IMG_DIR,
  PERFORMANCE_MD,
  ROOT,
  fmt,
  readBenchData,
  refusals,
  renderPlots,
  withSection,
  type Bench,
} from "../../bench/plots.js";
import type { BenchData, BenchResult } from "../../bench/report.js";
import { spawnAsync } from "../support/processes.js";
import { tempDir } from "../support/temp.js";

const MACHINE: BenchData["machine"] = { cpu: "Test CPU", cores: 8, memoryGiB: 31.25, kernel: "6.1.0", node: "v20.20.2" };

/** A median with a min–max around it, and the same for the reference and direct, each a little apart. */
function ranged(bridge: number, reference: number, direct: number | undefined): Pick<BenchResult, "bridge" | "reference" | "direct" | "bridgeRange" | "referenceRange" | "directRange"> {
  const around = (n: number): [number, number] => [n * 0.9, n * 1.2];
  return { bridge, reference, bridgeRange: around(bridge), referenceRange: around(reference), ...(direct === undefined ? {} : { direct, directRange: around(direct) }) };
}

/** Every plotted bench's JSON as a quiet run of one morning on one machine would write it. */
function quietRun(): Map<Bench, BenchData> {
  const at = (minute: number, bench: string, settings: BenchData["settings"], results: BenchResult[]): BenchData => ({
    bench,
    date: `2026-12-01T03:${String(minute).padStart(2, "0")}:00.000Z`,
    machine: { ...MACHINE },
    load: { start: [0.31, 0.42, 0.5], end: [1.9, 1.2, 0.8] },
    settings,
    results,
  });
  const scale = [100, 500, 2000].flatMap((n) => [
    ...(["up", "no-change preview", "destroy"] as const).map((step, i): BenchResult => ({ scenario: `${step} of ${n}`, ...ranged(n / 50 + i, n / 45 + i, undefined), unit: "s", key: { step, resources: n } })),
    { scenario: `peak RSS ${n}`, ...ranged(100 + n / 100, 95 + n / 90, undefined), unit: "MiB", key: { step: "peak RSS", resources: n } },
  ]);
  const giants = ["aws", "google"].flatMap((giant, i): BenchResult[] => [
    { scenario: `${giant} start-up`, ...ranged(3000 + i * 500, 20000 + i * 1000, 5000), unit: "ms", key: { giant, measure: "start-up" } },
    { scenario: `${giant} first start-up`, ...ranged(12000 + i * 700, 20000 + i * 1000, 5000), unit: "ms", key: { giant, measure: "first start-up" } },
    { scenario: `${giant} peak RSS`, ...ranged(600 + i * 40, 900 + i * 30, 400), unit: "MiB", key: { giant, measure: "peak RSS" } },
  ]);
  const overhead = ["check", "create", "update", "read", "delete"].map((op, i): BenchResult => ({ scenario: `${op} random_id`, ...ranged(1.5 + i / 10, 1.7 + i / 10, 0.8 + i / 10), unit: "ms", key: { resource: "random_id", op } }));
  const startup = ["random", "tls", "local", "big"].flatMap((provider, i): BenchResult[] => [
    { scenario: `${provider} Parameterize`, ...ranged(60 + i, 110 + i, 40 + i), unit: "ms", key: { provider, measure: "Parameterize" } },
    { scenario: `${provider} start-up`, ...ranged(70 + i, 120 + i, 40 + i), unit: "ms", key: { provider, measure: "start-up" } },
    { scenario: `${provider} first start-up`, ...ranged(140 + i, 120 + i, 40 + i), unit: "ms", key: { provider, measure: "first start-up" } },
  ]);
  const docker: BenchResult[] = [
    ...(["up", "no-change preview", "destroy"] as const).map((step, i): BenchResult => ({ scenario: `${step} of 40 containers`, ...ranged(8 + i, 10 + i, 7 + i), unit: "s", key: { step, containers: 40 } })),
    { scenario: "peak RSS 40 containers", ...ranged(105, 110, 100), unit: "MiB", key: { step: "peak RSS", containers: 40 } },
  ];
  return new Map<Bench, BenchData>([
    ["scale-random_id", at(0, "scale-random_id", { kind: "random_id", sizes: "100,500,2000", rounds: 5, parallel: 32, plugins: "ours,reference", checkpoints: "skipped" }, scale)],
    ["giants", at(30, "giants", { runs: 5, giants: "aws,google" }, giants)],
    ["overhead", at(40, "overhead", { cycles: 300, rounds: 5, cases: "random_id" }, overhead)],
    ["startup", at(50, "startup", { runs: 10, providers: "random,tls,local,big", variants: "packaged (snapshot); reference (Go)" }, startup)],
    ["docker", at(55, "docker", { sizes: "40", rounds: 5, parallel: 32, runners: "ours,reference,tofu" }, docker)],
  ]);
}

/** The run with one bench's JSON changed by `change`. */
function withChanged(name: Bench, change: (d: BenchData) => void): Map<Bench, BenchData> {
  const data = quietRun();
  change(data.get(name)!);
  return data;
}

describe("npm run bench:plots", () => {
  it("gives the same bytes from the same JSON, and draws the min–max of every median it plots", async () => {
    const data = quietRun();
    const [first, second] = [await renderPlots(data), await renderPlots(data)];
    expect(second.svgs).toEqual(first.svgs);
    expect(second.section).toBe(first.section);
    expect([...first.svgs.keys()].sort()).toEqual(["bench-docker", "bench-giants-rss", "bench-giants-startup", "bench-overhead", "bench-scale-rss", "bench-scale-time", "bench-startup"]);
    for (const [name, svg] of first.svgs) {
      expect(svg).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
      // One rule mark per plotted median, from its min to its max: every point of the synthetic run has a range.
      const points = first.figures.get(name)!;
      expect(first.spreads.get(name), name).toBeGreaterThan(0);
      expect(svg.match(/aria-roledescription="rule mark"/g)?.length, name).toBe(first.spreads.get(name));
      expect(points.length, name).toBeGreaterThan(first.spreads.get(name)!);
    }
    // scale: 3 sizes × 3 steps × 2 plugins; giants: 2 × (ours, not cached, reference, replay alone); startup: random, tls,
    // local × 4; docker: 3 steps × (ours, reference, tofu).
    expect(first.spreads.get("bench-scale-time")).toBe(18);
    expect(first.spreads.get("bench-giants-startup")).toBe(8);
    expect(first.spreads.get("bench-startup")).toBe(12);
    expect(first.spreads.get("bench-overhead")).toBe(15);
    expect(first.spreads.get("bench-docker")).toBe(9);
  }, 60_000);

  it("prints every median as `median (min–max)` in a table, with the run's date, machine, load and the command that reproduces it", async () => {
    const data = quietRun();
    const { section, figures, svgs } = await renderPlots(data);
    for (const [name, d] of data) {
      expect(section, name).toContain(`load average (1, 5, 15 min) ${d.load.start.join(" / ")}`);
      expect(section, name).toContain(`${d.machine.cores} cores`);
      expect(section, name).toContain(d.date.slice(0, 16).replace("T", " "));
      expect(section, name).toContain(`Reproduce: \`${COMMANDS[name]}\``);
    }
    expect(section).toContain("| 2,000 | up | 40.0 (36.0–48.0) s | 44.4 (40.0–53.3) s | 0.90 |");
    expect(section).toContain("| aws | 3.00 (2.70–3.60) s | 12.0 (10.8–14.4) s | 20.0 (18.0–24.0) s | 5.00 (4.50–6.00) s | 0.15 |");
    expect(section).toContain("| random | 70.0 (63.0–84.0) ms | 140 (126–168) ms | 120 (108–144) ms | 40.0 (36.0–48.0) ms | 0.58 | 1.17 |");
    expect(section).toContain("| `random_id` | check | 0.800 (0.720–0.960) ms | 1.50 (1.35–1.80) ms | 1.70 (1.53–2.04) ms | 0.700 ms | 0.88 |");
    expect(section).toContain("| 40 | up | 8.00 (7.20–9.60) s | 10.0 (9.00–12.0) s | 7.00 (6.30–8.40) s | 0.80 | 1.14 |");
    expect(section).toContain("| 40 | peak RSS: plugin (tofu: the tofu process) | 105 (94.5–126) MiB | 110 (99.0–132) MiB | 100 (90.0–120) MiB | 0.95 | 1.05 |");
    // The start-up plot and table show random, tls and local, not the 1,600-resource provider.
    expect(section).not.toMatch(/^\| big \|/m);
    // Each number a plot is drawn from (medians and their min and max) is in a table, printed as the plots round it.
    const cells = new Set(
      section
        .split("\n")
        .filter((l) => l.startsWith("|"))
        .flatMap((l) => l.split("|").flatMap((c) => c.trim().replace(/ (ms|s|MiB)$/, "").split(/ \(|–|\)/).filter((x) => x !== ""))),
    );
    for (const [name, values] of figures) {
      expect(values.length, name).toBeGreaterThan(0);
      // A count (resources) prints whole; every other figure as fmt rounds it.
      for (const v of values) expect(cells.has(fmt(v)) || cells.has(v.toLocaleString("en-US")), `${name}: ${v} (${fmt(v)}) in a table`).toBe(true);
    }
    expect([...svgs.keys()].every((name) => section.includes(`](img/${name}.svg)`))).toBe(true);
  }, 60_000);

  it("publishes a quiet run of at least 5 rounds made on one day and machine", () => {
    expect(refusals(quietRun(), "/data")).toEqual([]);
  });

  it("refuses a run whose 1-minute load at the start is 1.5 or more, naming the file, its load and what to do", () => {
    const got = refusals(withChanged("overhead", (d) => (d.load.start = [1.5, 0.9, 0.7])), "/data");
    expect(got).toHaveLength(1);
    expect(got[0]).toContain("/data/overhead.json (run of 2026-12-01 03:40 UTC, 1-minute load 1.5 at the start)");
    expect(got[0]).toContain(`rerun \`${COMMANDS.overhead}\` on a quiet machine`);
    expect(refusals(withChanged("overhead", (d) => (d.load.start = [1.49, 0.9, 0.7])), "/data")).toEqual([]);
  });

  it("refuses medians of fewer than 5 rounds or runs, and settings that record none", () => {
    const four = refusals(withChanged("giants", (d) => (d.settings["runs"] = 4)), "/data");
    expect(four).toHaveLength(1);
    expect(four[0]).toMatch(/giants\.json .*: 4 runs, at least 5 are needed; rerun `BENCHES=giants npm run bench` with its default rounds on a quiet machine/);
    const none = refusals(withChanged("scale-random_id", (d) => delete d.settings["rounds"]), "/data");
    expect(none).toHaveLength(1);
    expect(none[0]).toMatch(/scale-random_id\.json .*: its settings record no rounds or runs; rerun `SCALE_SIZES=100,500,2000 SCALE_SKIP_CHECKPOINTS=1 BENCHES=scale npm run bench`/);
  });

  it("refuses runs not all from the same day and machine, and a plotted bench with no JSON", () => {
    const day = refusals(withChanged("startup", (d) => (d.date = "2026-11-30T23:50:00.000Z")), "/data");
    expect(day).toHaveLength(1);
    expect(day[0]).toMatch(/startup\.json \(run of 2026-11-30 23:50 UTC.*: run 2026-11-30 on Test CPU.*, the others 2026-12-01 on Test CPU.*same day and machine/);
    const machine = refusals(withChanged("giants", (d) => (d.machine = { ...MACHINE, cores: 2 })), "/data");
    expect(machine).toHaveLength(1);
    expect(machine[0]).toMatch(/giants\.json .*: run 2026-12-01 on Test CPU, 2 cores.*, the others 2026-12-01 on Test CPU, 8 cores/);
    const data = quietRun();
    data.delete("startup");
    expect(refusals(data, "/data")).toEqual([`/data/startup.json is missing: run \`${COMMANDS.startup}\` (on a quiet machine), then \`npm run bench:plots\``]);
  });

  it("exits 1 on a loaded run, saying why, and draws nothing", async () => {
    const dir = tempDir("bench-plots-");
    for (const [name, d] of withChanged("giants", (x) => (x.load.start = [6.25, 3.46, 3.37]))) writeFileSync(join(dir, `${name}.json`), JSON.stringify(d));
    const before = readFileSync(PERFORMANCE_MD, "utf8");
    const r = await spawnAsync(process.execPath, ["--import", "tsx", join(ROOT, "bench", "plots.ts")], { cwd: ROOT, env: { ...process.env, BENCH_DATA_DIR: dir } });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`giants.json (run of 2026-12-01 03:30 UTC, 1-minute load 6.25 at the start): a loaded run`);
    expect(r.stderr).toContain(`rerun \`${COMMANDS.giants}\``);
    expect(r.stdout).toBe("");
    expect(readFileSync(PERFORMANCE_MD, "utf8")).toBe(before);
  }, 60_000);

  // The checked-in JSON predating the quiet-run rule is refused; until a quiet run replaces it this comparison skips.
  const committed = readBenchData(join(ROOT, "docs", "bench-data"));
  const publishable = BENCHES.every((b) => committed.has(b)) && refusals(committed).length === 0;
  it.skipIf(!publishable)("the checked-in SVGs and section of docs/performance.md are what it draws from the checked-in JSON", async () => {
    const plots = await renderPlots(committed);
    for (const [name, svg] of plots.svgs) expect(svg, `docs/img/${name}.svg: run npm run bench:plots`).toBe(readFileSync(join(IMG_DIR, `${name}.svg`), "utf8"));
    const doc = readFileSync(PERFORMANCE_MD, "utf8");
    expect(withSection(doc, plots.section), "docs/performance.md's plots section: run npm run bench:plots").toBe(doc);
  }, 60_000);

  it("replaces only its own section of the page", () => {
    const page = `# Performance\n\nprose\n\n${BEGIN}\nold\n${END}\n\nmore prose\n`;
    expect(withSection(page, `${BEGIN}\nnew\n${END}`)).toBe(`# Performance\n\nprose\n\n${BEGIN}\nnew\n${END}\n\nmore prose\n`);
  });
});
