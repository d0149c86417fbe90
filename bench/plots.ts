// The plots of docs/performance.md: SVGs drawn with vega-lite from the benchmarks' JSON (docs/bench-data) into
// docs/img, and the section of docs/performance.md that embeds them with the same figures as tables, the run's date,
// machine and load, each median drawn and printed with its min–max. `npm run bench:plots`; the same JSON gives the same
// bytes. It refuses runs made on a loaded machine, with too few rounds, or on different days or machines.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { MIN_ROUNDS, QUIET_LOAD, type BenchData, type BenchResult } from "./report.js";

export const ROOT = join(import.meta.dirname, "..");
/** Where the JSON is read from: BENCH_DATA_DIR, as the benchmarks write it, or docs/bench-data. */
export const DATA_DIR = process.env["BENCH_DATA_DIR"] ?? join(ROOT, "docs", "bench-data");
export const IMG_DIR = join(ROOT, "docs", "img");
export const PERFORMANCE_MD = join(ROOT, "docs", "performance.md");
export const BEGIN = "<!-- bench-plots: written by `npm run bench:plots` from docs/bench-data; edit bench/plots.ts, not this -->";
export const END = "<!-- /bench-plots -->";

/** The benchmarks plotted, by the name their JSON has in docs/bench-data. */
export const BENCHES = ["scale-random_id", "giants", "overhead", "startup", "docker"] as const;
export type Bench = (typeof BENCHES)[number];

/** The command that makes each plotted JSON, as docs/performance.md gives it; bench/run.ts waits for a quiet machine first. */
export const COMMANDS: Record<Bench, string> = {
  "scale-random_id": "SCALE_SIZES=100,500,2000 SCALE_SKIP_CHECKPOINTS=1 BENCHES=scale npm run bench",
  giants: "BENCHES=giants npm run bench",
  overhead: "BENCHES=overhead npm run bench",
  startup: "BENCH_PROVIDERS=random,tls,local BENCH_VARIANTS=packaged BENCHES=startup npm run bench",
  docker: "BENCHES=docker npm run bench",
};

export function readBenchData(dir = DATA_DIR): Map<string, BenchData> {
  const out = new Map<string, BenchData>();
  for (const name of BENCHES) {
    const file = join(dir, `${name}.json`);
    if (existsSync(file)) out.set(name, JSON.parse(readFileSync(file, "utf8")) as BenchData);
  }
  return out;
}

/** The rounds (or runs) a bench's settings say each median is taken over; undefined where they do not say. */
export function roundsOf(d: BenchData): number | undefined {
  const n = Number(d.settings["rounds"] ?? d.settings["runs"]);
  return Number.isFinite(n) ? n : undefined;
}

const machineOf = (d: BenchData): string => `${d.machine.cpu}, ${d.machine.cores} cores, ${d.machine.memoryGiB} GiB, Linux ${d.machine.kernel}, Node ${d.machine.node}`;
const dayOf = (d: BenchData): string => d.date.slice(0, 10);

/**
 * Why the data may not be published, one line per problem, each naming the file, its run's start and 1-minute load,
 * and what to do; empty when every plotted bench is there, started at a load under QUIET_LOAD, took each median over
 * at least MIN_ROUNDS rounds, and ran on the same day and machine as the others.
 */
export function refusals(data: Map<string, BenchData>, dir = DATA_DIR): string[] {
  const out: string[] = [];
  // Relative to the checkout where it is in it (docs/bench-data/giants.json), else as given.
  const fileOf = (name: Bench): string => {
    const file = join(dir, `${name}.json`);
    return relative(ROOT, file).startsWith("..") ? file : relative(ROOT, file);
  };
  const rerun = (name: Bench, how = ""): string => `rerun \`${COMMANDS[name]}\`${how} on a quiet machine (nothing else running), then \`npm run bench:plots\``;
  // The day and machine most of the runs share (the newest run's, on a tie) is the one the others must match.
  const place = (d: BenchData): string => `${dayOf(d)} on ${machineOf(d)}`;
  const counts = new Map<string, number>();
  for (const d of data.values()) counts.set(place(d), (counts.get(place(d)) ?? 0) + 1);
  const newest = [...data.values()].sort((a, b) => b.date.localeCompare(a.date))[0];
  const isNewest = (at: string): number => Number(newest !== undefined && at === place(newest));
  const common = [...counts].sort((a, b) => b[1] - a[1] || isNewest(b[0]) - isNewest(a[0]))[0]?.[0];
  for (const name of BENCHES) {
    const d = data.get(name);
    if (d === undefined) {
      out.push(`${fileOf(name)} is missing: run \`${COMMANDS[name]}\` (on a quiet machine), then \`npm run bench:plots\``);
      continue;
    }
    const what = `${fileOf(name)} (run of ${d.date.slice(0, 16).replace("T", " ")} UTC, 1-minute load ${d.load.start[0]} at the start)`;
    if (!(d.load.start[0]! < QUIET_LOAD)) out.push(`${what}: a loaded run, the load at the start must be under ${QUIET_LOAD}; ${rerun(name)}`);
    const rounds = roundsOf(d);
    if (rounds === undefined) out.push(`${what}: its settings record no rounds or runs; ${rerun(name)}`);
    else if (rounds < MIN_ROUNDS) out.push(`${what}: ${rounds} ${"rounds" in d.settings ? "rounds" : "runs"}, at least ${MIN_ROUNDS} are needed; ${rerun(name, " with its default rounds")}`);
    const at = place(d);
    if (common !== undefined && at !== common) out.push(`${what}: run ${at}, the others ${common}; every plotted run must come from the same day and machine: ${rerun(name)} there`);
  }
  return out;
}

const known = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);
/** Three significant figures or whole numbers, as the bench summary prints them; "-" for a figure not measured. */
export const fmt = (n: number | null | undefined): string =>
  !known(n) ? "-" : n >= 100 ? Math.round(n).toLocaleString("en-US") : n >= 10 ? n.toFixed(1) : n.toFixed(n >= 1 ? 2 : 3);
const ratio = (a: number | undefined, b: number | undefined): string => (known(a) && known(b) && b !== 0 ? (a / b).toFixed(2) : "-");
/** Plotted values are rounded as the tables print them, so the picture and the text agree. */
const plotted = (n: number | undefined): number | null => (known(n) ? Number(fmt(n).replaceAll(",", "")) : null);
/** A table cell: the median and, where the work was repeated, its min–max over the rounds, scaled and with its unit. */
const cell = (n: number | undefined, r: [number, number] | undefined, unit: string, scaleBy = 1): string =>
  !known(n) ? "-" : `${fmt(n / scaleBy)}${r === undefined ? "" : ` (${fmt(r[0] / scaleBy)}–${fmt(r[1] / scaleBy)})`}${unit}`;

/** The run's conditions in one line: when, on what, how loaded. */
export function conditions(d: BenchData): string {
  const m = d.machine;
  const settings = Object.entries(d.settings).map(([k, v]) => `${k} ${v}`).join(", ");
  return (
    `Run of ${d.date.slice(0, 16).replace("T", " ")} UTC on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Linux ${m.kernel}, the benchmark on Node ${m.node}; ` +
    `load average (1, 5, 15 min) ${d.load.start.join(" / ")} at the start and ${d.load.end.join(" / ")} at the end; ${settings}.`
  );
}

const subtitle = (d: BenchData): string => `${d.date.slice(0, 10)}, ${d.machine.cores} cores, load ${d.load.start[0]} → ${d.load.end[0]}; medians of ${roundsOf(d) ?? "?"}, bars from min to max`;

/** The same colour for the same series in every plot; a plot's legend lists only its own series. */
const PALETTE: Record<string, string> = { ours: "#1f77b4", "ours, not cached": "#aec7e8", reference: "#ff7f0e", direct: "#7f7f7f", "replay alone": "#7f7f7f", tofu: "#7f7f7f" };
const colors = (names: string[]): { domain: string[]; range: string[] } => ({ domain: names, range: names.map((n) => PALETTE[n]!) });
const BASE = { background: "white", config: { font: "sans-serif", view: { stroke: "#ddd" }, title: { anchor: "start" } } } as const;
/** The min–max drawn over each median: a rule from `low` to `high` (nothing where the figure was not repeated). */
const SPREAD = { type: "rule", color: "black", strokeWidth: 1.5 } as const;

/**
 * vega-lite's warnings but one: a faceted plot with a min–max layer gets "Detected faceted independent scales that union
 * domain of the same fields from different source", as it should, since the median and its low and high share the y scale.
 */
const LOGGER = {
  level(): number {
    return vega.Warn;
  },
  error(...args: unknown[]) {
    console.error(...args);
    return this;
  },
  warn(...args: unknown[]) {
    if (!String(args[0]).startsWith("Detected faceted independent scales")) console.warn(...args);
    return this;
  },
  info() {
    return this;
  },
  debug() {
    return this;
  },
};

/** One SVG from a vega-lite spec, with nothing in it that differs between two renderings of the same spec. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Text widths estimated from the characters and font size, never measured with the optional `canvas` package where
  // one happens to be installed: a measured width depends on the machine's fonts, and so would the bytes.
  (vega as unknown as { textMetrics: { canvas(use: boolean): void } }).textMetrics.canvas(false);
  const view = new vega.View(vega.parse(compile(spec, { logger: LOGGER }).spec), { renderer: "none" });
  try {
    return (await view.toSVG()) + "\n";
  } finally {
    view.finalize();
  }
}

interface Point {
  [k: string]: string | number | null;
}

type Series = [name: string, median: number | undefined, range: [number, number] | undefined];
const series = (r: BenchResult, third: string): Series[] => [
  ["ours", r.bridge, r.bridgeRange],
  ["reference", r.reference, r.referenceRange],
  [third, r.direct, r.directRange],
];
/** A plotted point's median under `field` and its min–max as `low` and `high`, rounded as the tables print them. */
const figure = (field: string, v: number, range: [number, number] | undefined, scaleBy = 1): Point => ({
  [field]: plotted(v / scaleBy),
  low: range === undefined ? null : plotted(range[0] / scaleBy),
  high: range === undefined ? null : plotted(range[1] / scaleBy),
});

function scale(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const steps = ["up", "no-change preview", "destroy"];
  const time: Point[] = [];
  const rss: Point[] = [];
  for (const r of d.results) {
    const n = Number(r.key?.["resources"]);
    for (const [plugin, v, span] of series(r, "direct").slice(0, 2)) {
      if (!known(v)) continue;
      if (r.key?.["step"] === "peak RSS") rss.push({ resources: n, plugin, ...figure("MiB", v, span) });
      else time.push({ resources: n, step: String(r.key?.["step"]), plugin, ...figure("seconds", v, span) });
    }
  }
  const color = { field: "plugin", type: "nominal", title: null, scale: colors(["ours", "reference"]), legend: { orient: "bottom" } } as const;
  const x = { field: "resources", type: "quantitative", title: "resources", axis: { tickMinStep: 1 } } as const;
  const layers = (field: string) => [
    { mark: { type: "line", point: true }, encoding: { y: { field, type: "quantitative", title: field } } },
    { mark: SPREAD, encoding: { y: { field: "low", type: "quantitative", title: field }, y2: { field: "high" } } },
  ];
  const timeSpec: TopLevelSpec = {
    ...BASE,
    title: { text: "pulumi up, no-change preview and destroy: wall time against stack size", subtitle: subtitle(d) },
    data: { values: time },
    facet: { column: { field: "step", type: "nominal", sort: steps, title: null } },
    spec: { width: 190, height: 170, encoding: { x, color }, layer: layers("seconds") },
    resolve: { scale: { y: "independent" } },
  } as TopLevelSpec;
  const rssSpec: TopLevelSpec = {
    ...BASE,
    title: { text: "Plugin peak RSS (VmHWM) against stack size", subtitle: subtitle(d) },
    data: { values: rss },
    width: 420,
    height: 200,
    encoding: { x, color },
    layer: layers("MiB"),
  } as TopLevelSpec;
  const rows = ["| resources | step | ours | reference | ours ÷ reference |", "| --- | --- | --- | --- | --- |"];
  for (const r of d.results) {
    const step = String(r.key?.["step"]);
    const unit = r.unit === "s" ? " s" : " MiB";
    rows.push(`| ${Number(r.key?.["resources"]).toLocaleString("en-US")} | ${step === "peak RSS" ? "plugin peak RSS" : step} | ${cell(r.bridge, r.bridgeRange, unit)} | ${cell(r.reference, r.referenceRange, unit)} | ${ratio(r.bridge, r.reference)} |`);
  }
  return { svgs: { "bench-scale-time": timeSpec, "bench-scale-rss": rssSpec }, tables: rows.join("\n") };
}

/** Grouped bars, one group per `group` value and one bar per series in `order`, each with its min–max drawn over it. */
function bars(d: BenchData, title: string, group: string, field: string, order: string[], values: Point[]): TopLevelSpec {
  return {
    ...BASE,
    title: { text: title, subtitle: subtitle(d) },
    data: { values },
    width: 420,
    height: 220,
    encoding: {
      x: { field: group, type: "nominal", title: null, sort: null, axis: { labelAngle: 0 } },
      xOffset: { field: "who", type: "nominal", sort: order },
    },
    layer: [
      { mark: "bar", encoding: { y: { field, type: "quantitative", title: field }, color: { field: "who", type: "nominal", title: null, sort: order, scale: colors(order), legend: { orient: "bottom" } } } },
      { mark: SPREAD, encoding: { y: { field: "low", type: "quantitative", title: field }, y2: { field: "high" } } },
    ],
  } as TopLevelSpec;
}

/**
 * Start-up as grouped bars: ours with the schema cached (`start-up`), ours with it not cached (`first start-up`, only
 * its bridge figure differs), the reference and the third series, per `group` value.
 */
function startupPoints(d: BenchData, group: string, third: string, scaleBy: number, field: string): Point[] {
  return d.results
    .filter((r) => r.key?.["measure"] === "start-up" || r.key?.["measure"] === "first start-up")
    .flatMap((r) => {
      const all = series(r, third).map(([who, v, span]): Series => [r.key?.["measure"] === "first start-up" && who === "ours" ? "ours, not cached" : who, v, span]);
      const mine = r.key?.["measure"] === "first start-up" ? all.slice(0, 1) : all;
      return mine.filter(([, v]) => known(v)).map(([who, v, span]) => ({ [group]: String(r.key?.[group]), who, ...figure(field, v!, span, scaleBy) }));
    });
}

function giants(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["ours", "ours, not cached", "reference", "replay alone"];
  const rssValues: Point[] = d.results
    .filter((r) => r.key?.["measure"] === "peak RSS")
    .flatMap((r) => series(r, "replay alone").filter(([, v]) => known(v)).map(([who, v, span]) => ({ giant: String(r.key?.["giant"]), who, ...figure("MiB", v!, span) })));
  const rows = [
    "| provider | start-up ours | ours, not cached | reference | replay alone | ours ÷ reference | peak RSS ours | reference | replay alone | ours ÷ reference |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const names = [...new Set(d.results.map((r) => String(r.key?.["giant"])))];
  for (const g of names) {
    const at = (measure: string): BenchResult | undefined => d.results.find((r) => r.key?.["giant"] === g && r.key["measure"] === measure);
    const [s, f, m] = [at("start-up"), at("first start-up"), at("peak RSS")];
    rows.push(
      `| ${g} | ${cell(s?.bridge, s?.bridgeRange, " s", 1000)} | ${cell(f?.bridge, f?.bridgeRange, " s", 1000)} | ${cell(s?.reference, s?.referenceRange, " s", 1000)} | ${cell(s?.direct, s?.directRange, " s", 1000)} | ${ratio(s?.bridge, s?.reference)} | ` +
        `${cell(m?.bridge, m?.bridgeRange, " MiB")} | ${cell(m?.reference, m?.referenceRange, " MiB")} | ${cell(m?.direct, m?.directRange, " MiB")} | ${ratio(m?.bridge, m?.reference)} |`,
    );
  }
  return {
    svgs: {
      "bench-giants-startup": bars(d, "Giant schemas: start → GetSchema answered", "giant", "seconds", order, startupPoints(d, "giant", "replay alone", 1000, "seconds")),
      "bench-giants-rss": bars(d, "Giant schemas: peak RSS of the plugin process (the replay peer's alone beside it)", "giant", "MiB", order.filter((w) => w !== "ours, not cached"), rssValues),
    },
    tables: rows.join("\n"),
  };
}

/** The providers the start-up plot shows, as bench/startup.bench.ts keys them. */
const STARTUP_PROVIDERS = ["random", "tls", "local"];

function startup(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["ours", "ours, not cached", "reference", "direct"];
  const shown: BenchData = { ...d, results: d.results.filter((r) => STARTUP_PROVIDERS.includes(String(r.key?.["provider"]))) };
  const rows = ["| provider | ours | ours, not cached | reference | direct | ours ÷ reference | not cached ÷ reference |", "| --- | --- | --- | --- | --- | --- | --- |"];
  for (const p of STARTUP_PROVIDERS) {
    const at = (measure: string): BenchResult | undefined => shown.results.find((r) => r.key?.["provider"] === p && r.key["measure"] === measure);
    const [s, f] = [at("start-up"), at("first start-up")];
    if (s === undefined) continue;
    rows.push(
      `| ${p} | ${cell(s.bridge, s.bridgeRange, " ms")} | ${cell(f?.bridge, f?.bridgeRange, " ms")} | ${cell(s.reference, s.referenceRange, " ms")} | ${cell(s.direct, s.directRange, " ms")} | ${ratio(s.bridge, s.reference)} | ${ratio(f?.bridge, s.reference)} |`,
    );
  }
  return {
    svgs: { "bench-startup": bars(d, "Start-up: spawn → GetSchema answered (direct: the Terraform provider's own start and schema)", "provider", "ms", order, startupPoints(shown, "provider", "direct", 1, "ms")) },
    tables: rows.join("\n"),
  };
}

function overhead(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["direct", "ours", "reference"];
  const ops = ["check", "create", "update", "read", "delete"];
  const values: Point[] = d.results.flatMap((r) =>
    series(r, "direct").filter(([, v]) => known(v)).map(([who, v, span]) => ({ resource: String(r.key?.["resource"]), op: String(r.key?.["op"]), who, ...figure("ms", v!, span) })),
  );
  const spec: TopLevelSpec = {
    ...BASE,
    title: { text: "Per operation: ms through the plugin (engine's gRPC client) against Terraform's calls sent directly", subtitle: subtitle(d) },
    data: { values },
    facet: { row: { field: "resource", type: "nominal", title: null } },
    spec: {
      width: 420,
      height: { step: 11 },
      encoding: { y: { field: "op", type: "nominal", sort: ops, title: null }, yOffset: { field: "who", type: "nominal", sort: order } },
      layer: [
        { mark: "bar", encoding: { x: { field: "ms", type: "quantitative", title: "ms per operation (median)" }, color: { field: "who", type: "nominal", title: null, sort: order, scale: colors(order), legend: { orient: "bottom" } } } },
        { mark: SPREAD, encoding: { x: { field: "low", type: "quantitative", title: "ms per operation (median)" }, x2: { field: "high" } } },
      ],
    },
    resolve: { scale: { y: "independent" } },
  } as TopLevelSpec;
  const rows = ["| resource | operation | direct | ours | reference | ours − direct | ours ÷ reference |", "| --- | --- | --- | --- | --- | --- | --- |"];
  for (const r of d.results) {
    const added = known(r.direct) ? fmt(r.bridge - r.direct) : "-";
    rows.push(`| \`${r.key?.["resource"]}\` | ${r.key?.["op"]} | ${cell(r.direct, r.directRange, " ms")} | ${cell(r.bridge, r.bridgeRange, " ms")} | ${cell(r.reference, r.referenceRange, " ms")} | ${added} ms | ${ratio(r.bridge, r.reference)} |`);
  }
  return { svgs: { "bench-overhead": spec }, tables: rows.join("\n") };
}

/** The steps of the Docker stack, in the order they run. */
const DOCKER_STEPS = ["up", "no-change preview", "destroy"];

function docker(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["ours", "reference", "tofu"];
  const sizes = [...new Set(d.results.map((r) => Number(r.key?.["containers"])))];
  // One size is the usual run; with several, each group names its size.
  const group = (r: BenchResult): string => (sizes.length === 1 ? String(r.key?.["step"]) : `${String(r.key?.["step"])}, ${String(r.key?.["containers"])}`);
  const timed = d.results.filter((r) => DOCKER_STEPS.includes(String(r.key?.["step"])));
  const values: Point[] = timed.flatMap((r) => series(r, "tofu").filter(([, v]) => known(v)).map(([who, v, span]) => ({ step: group(r), who, ...figure("seconds", v!, span) })));
  const rows = ["| containers | step | ours | reference | tofu | ours ÷ reference | ours ÷ tofu |", "| --- | --- | --- | --- | --- | --- | --- |"];
  for (const r of d.results) {
    const step = String(r.key?.["step"]);
    const unit = r.unit === "s" ? " s" : ` ${r.unit}`;
    const label = step === "peak RSS" ? "peak RSS: plugin (tofu: the tofu process)" : step === "no-change preview" ? "no-change preview (tofu plan)" : step;
    rows.push(`| ${String(r.key?.["containers"])} | ${label} | ${cell(r.bridge, r.bridgeRange, unit)} | ${cell(r.reference, r.referenceRange, unit)} | ${cell(r.direct, r.directRange, unit)} | ${ratio(r.bridge, r.reference)} | ${ratio(r.bridge, r.direct)} |`);
  }
  return {
    svgs: { "bench-docker": bars(d, "Docker containers with a volume each on a real engine: pulumi up, preview and destroy (tofu beside)", "step", "seconds", order, values) },
    tables: rows.join("\n"),
  };
}

export interface Plots {
  /** SVG text by file name (without .svg). */
  svgs: Map<string, string>;
  /** Every number each plot was drawn from, by file name. */
  figures: Map<string, number[]>;
  /** How many min–max ranges each plot draws, by file name. */
  spreads: Map<string, number>;
  /** The generated section of docs/performance.md, markers included. */
  section: string;
}

/** Every plot and the markdown that embeds them, from the benchmarks' JSON (all of BENCHES). */
export async function renderPlots(data: Map<string, BenchData>): Promise<Plots> {
  const svgs = new Map<string, string>();
  const figures = new Map<string, number[]>();
  const spreads = new Map<string, number>();
  const parts: string[] = [BEGIN, ""];
  const get = (name: Bench): BenchData => {
    const d = data.get(name);
    if (d === undefined) throw new Error(`no ${name}.json: run \`${COMMANDS[name]}\``);
    return d;
  };
  const sections: [Bench, string, ReturnType<typeof scale>, string][] = [
    ["scale-random_id", "Scale: `pulumi up`, preview and destroy against stack size", scale(get("scale-random_id")), "`bench/scale.bench.ts` (random_id resources, ours and the reference as installed plugins, interleaved in each round)."],
    ["giants", "Giant schemas: start-up and memory", giants(get("giants")), "`bench/giants.bench.ts` (the five largest providers' schema dumps served by the replay peer; ours with the schema cached by an earlier start, and not cached)."],
    ["overhead", "Per-operation overhead against direct calls", overhead(get("overhead")), "`bench/overhead.bench.ts` (medians over the cycles; the reference driven by the same engine client)."],
    ["startup", "Start-up: spawn to GetSchema answered", startup(get("startup")), "`bench/startup.bench.ts` (the packaged plugin with its schema cache filled by an earlier start, and with it off; direct: the Terraform provider started and asked its schema)."],
    ["docker", "Docker on a real engine: containers and volumes", docker(get("docker")), "`bench/docker.bench.ts` (the Docker provider on a Docker Engine the bench starts; ours, the reference and `tofu` deploy the same stack in turn in each round, `--parallel`/`-parallelism` 32)."],
  ];
  for (const [name, title, built, source] of sections) {
    const d = get(name);
    parts.push(`### ${title}`, "", `${conditions(d)} From ${source} Reproduce: \`${COMMANDS[name]}\`.`, "");
    for (const [file, spec] of Object.entries(built.svgs)) {
      svgs.set(file, await renderSvg(spec));
      const values = spec.data !== undefined && spec.data !== null && "values" in spec.data ? (spec.data.values as Point[]) : [];
      figures.set(file, values.flatMap((p) => Object.values(p).filter((v): v is number => typeof v === "number")));
      spreads.set(file, values.filter((p) => typeof p["low"] === "number" && typeof p["high"] === "number").length);
      parts.push(`![${typeof spec.title === "object" && "text" in spec.title ? String(spec.title.text) : file}](img/${file}.svg)`, "");
    }
    parts.push(built.tables, "");
  }
  parts.push(END);
  return { svgs, figures, spreads, section: parts.join("\n") };
}

/** docs/performance.md with its generated section replaced (or added at the end, the first time). */
export function withSection(markdown: string, section: string): string {
  const a = markdown.indexOf(BEGIN);
  const b = markdown.indexOf(END);
  if (a < 0 || b < a) return `${markdown.trimEnd()}\n\n## Plots\n\n${section}\n`;
  return markdown.slice(0, a) + section + markdown.slice(b + END.length);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const data = readBenchData();
  const refused = refusals(data);
  if (refused.length > 0) {
    console.error(`bench:plots: nothing drawn; a figure from a loaded, short or mixed run is not published:\n${refused.map((r) => `  ${r}`).join("\n")}`);
    process.exit(1);
  }
  const plots = await renderPlots(data);
  mkdirSync(IMG_DIR, { recursive: true });
  for (const [name, svg] of plots.svgs) {
    writeFileSync(join(IMG_DIR, `${name}.svg`), svg);
    console.log(`docs/img/${name}.svg`);
  }
  writeFileSync(PERFORMANCE_MD, withSection(readFileSync(PERFORMANCE_MD, "utf8"), plots.section));
  console.log("docs/performance.md");
}
