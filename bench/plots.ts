// The plots of docs/performance.md: SVGs drawn with vega-lite from the benchmarks' JSON (docs/bench-data) into
// docs/img, and the section of docs/performance.md that embeds them with the same figures as tables, the run's date,
// machine and load. `npm run bench:plots`; the same JSON gives the same bytes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { BenchData, BenchResult } from "./report.js";

export const ROOT = join(import.meta.dirname, "..");
export const DATA_DIR = join(ROOT, "docs", "bench-data");
export const IMG_DIR = join(ROOT, "docs", "img");
export const PERFORMANCE_MD = join(ROOT, "docs", "performance.md");
export const BEGIN = "<!-- bench-plots: written by `npm run bench:plots` from docs/bench-data; edit bench/plots.ts, not this -->";
export const END = "<!-- /bench-plots -->";

/** The benchmarks plotted, by the name their JSON has in docs/bench-data. */
export const BENCHES = ["scale-random_id", "giants", "overhead"] as const;

export function readBenchData(dir = DATA_DIR): Map<string, BenchData> {
  const out = new Map<string, BenchData>();
  for (const name of BENCHES) {
    const file = join(dir, `${name}.json`);
    if (!existsSync(file)) throw new Error(`${file} is missing: run the benchmark that writes it (bench/${name.replace(/-.*/, "")}.bench.ts, see docs/performance.md)`);
    out.set(name, JSON.parse(readFileSync(file, "utf8")) as BenchData);
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

/** The run's conditions in one line: when, on what, how loaded. */
export function conditions(d: BenchData): string {
  const m = d.machine;
  const settings = Object.entries(d.settings).map(([k, v]) => `${k} ${v}`).join(", ");
  return (
    `Run of ${d.date.slice(0, 16).replace("T", " ")} UTC on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Linux ${m.kernel}, the benchmark on Node ${m.node}; ` +
    `load average (1, 5, 15 min) ${d.load.start.join(" / ")} at the start and ${d.load.end.join(" / ")} at the end; ${settings}.`
  );
}

const subtitle = (d: BenchData): string => `${d.date.slice(0, 10)}, ${d.machine.cores} cores, load ${d.load.start[0]} → ${d.load.end[0]}`;

/** The same colour for the same series in every plot; a plot's legend lists only its own series. */
const PALETTE: Record<string, string> = { ours: "#1f77b4", reference: "#ff7f0e", direct: "#7f7f7f", "replay alone": "#7f7f7f" };
const colors = (names: string[]): { domain: string[]; range: string[] } => ({ domain: names, range: names.map((n) => PALETTE[n]!) });
const BASE = { background: "white", config: { font: "sans-serif", view: { stroke: "#ddd" }, title: { anchor: "start" } } } as const;

/** One SVG from a vega-lite spec, with nothing in it that differs between two renderings of the same spec. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Text widths estimated from the characters and font size, never measured with the optional `canvas` package where
  // one happens to be installed: a measured width depends on the machine's fonts, and so would the bytes.
  (vega as unknown as { textMetrics: { canvas(use: boolean): void } }).textMetrics.canvas(false);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return (await view.toSVG()) + "\n";
  } finally {
    view.finalize();
  }
}

interface Point {
  [k: string]: string | number | null;
}

const series = (r: BenchResult, third: string): [string, number | undefined][] => [
  ["ours", r.bridge],
  ["reference", r.reference],
  [third, r.direct],
];

function scale(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const steps = ["up", "no-change preview", "destroy"];
  const time: Point[] = [];
  const rss: Point[] = [];
  for (const r of d.results) {
    const n = Number(r.key?.["resources"]);
    for (const [plugin, v] of series(r, "direct").slice(0, 2)) {
      if (!known(v)) continue;
      if (r.key?.["step"] === "peak RSS") rss.push({ resources: n, plugin, MiB: plotted(v) });
      else time.push({ resources: n, step: String(r.key?.["step"]), plugin, seconds: plotted(v) });
    }
  }
  const color = { field: "plugin", type: "nominal", title: null, scale: colors(["ours", "reference"]), legend: { orient: "bottom" } } as const;
  const x = { field: "resources", type: "quantitative", title: "resources", axis: { tickMinStep: 1 } } as const;
  const timeSpec: TopLevelSpec = {
    ...BASE,
    title: { text: "pulumi up, no-change preview and destroy: wall time against stack size", subtitle: subtitle(d) },
    data: { values: time },
    facet: { column: { field: "step", type: "nominal", sort: steps, title: null } },
    spec: {
      width: 190,
      height: 170,
      mark: { type: "line", point: true },
      encoding: { x, y: { field: "seconds", type: "quantitative", title: "seconds" }, color },
    },
    resolve: { scale: { y: "independent" } },
  };
  const rssSpec: TopLevelSpec = {
    ...BASE,
    title: { text: "Plugin peak RSS (VmHWM) against stack size", subtitle: subtitle(d) },
    data: { values: rss },
    width: 420,
    height: 200,
    mark: { type: "line", point: true },
    encoding: { x, y: { field: "MiB", type: "quantitative", title: "MiB" }, color },
  };
  const rows = ["| resources | step | ours | reference | ours ÷ reference |", "| --- | --- | --- | --- | --- |"];
  for (const r of d.results) {
    const step = String(r.key?.["step"]);
    const unit = r.unit === "s" ? " s" : " MiB";
    rows.push(`| ${r.key?.["resources"]} | ${step === "peak RSS" ? "plugin peak RSS" : step} | ${fmt(r.bridge)}${unit} | ${fmt(r.reference)}${unit} | ${ratio(r.bridge, r.reference)} |`);
  }
  return { svgs: { "bench-scale-time": timeSpec, "bench-scale-rss": rssSpec }, tables: rows.join("\n") };
}

function giants(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["ours", "reference", "replay alone"];
  const points = (measure: string, field: string, scaleBy: number): Point[] =>
    d.results
      .filter((r) => r.key?.["measure"] === measure)
      .flatMap((r) => series(r, "replay alone").filter(([, v]) => known(v)).map(([who, v]) => ({ giant: String(r.key?.["giant"]), who, [field]: plotted(v! / scaleBy) })));
  const bars = (title: string, field: string, values: Point[]): TopLevelSpec => ({
    ...BASE,
    title: { text: title, subtitle: subtitle(d) },
    data: { values },
    width: 420,
    height: 220,
    mark: "bar",
    encoding: {
      x: { field: "giant", type: "nominal", title: null, axis: { labelAngle: 0 } },
      xOffset: { field: "who", type: "nominal", sort: order },
      y: { field, type: "quantitative", title: field },
      color: { field: "who", type: "nominal", title: null, sort: order, scale: colors(order), legend: { orient: "bottom" } },
    },
  });
  const rows = [
    "| provider | start-up ours | reference | replay alone | ours ÷ reference | peak RSS ours | reference | replay alone | ours ÷ reference |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const names = [...new Set(d.results.map((r) => String(r.key?.["giant"])))];
  for (const g of names) {
    const s = d.results.find((r) => r.key?.["giant"] === g && r.key["measure"] === "start-up");
    const m = d.results.find((r) => r.key?.["giant"] === g && r.key["measure"] === "peak RSS");
    const sec = (n: number | undefined): string => (known(n) ? `${fmt(n / 1000)} s` : "-");
    const mib = (n: number | undefined): string => (known(n) ? `${fmt(n)} MiB` : "-");
    rows.push(`| ${g} | ${sec(s?.bridge)} | ${sec(s?.reference)} | ${sec(s?.direct)} | ${ratio(s?.bridge, s?.reference)} | ${mib(m?.bridge)} | ${mib(m?.reference)} | ${mib(m?.direct)} | ${ratio(m?.bridge, m?.reference)} |`);
  }
  return {
    svgs: {
      "bench-giants-startup": bars("Giant schemas: start → GetSchema answered", "seconds", points("start-up", "seconds", 1000)),
      "bench-giants-rss": bars("Giant schemas: peak RSS of the plugin process (the replay peer's alone beside it)", "MiB", points("peak RSS", "MiB", 1)),
    },
    tables: rows.join("\n"),
  };
}

function overhead(d: BenchData): { svgs: Record<string, TopLevelSpec>; tables: string } {
  const order = ["direct", "ours", "reference"];
  const ops = ["check", "create", "update", "read", "delete"];
  const values: Point[] = d.results.flatMap((r) =>
    series(r, "direct").filter(([, v]) => known(v)).map(([who, v]) => ({ resource: String(r.key?.["resource"]), op: String(r.key?.["op"]), who, ms: plotted(v) })),
  );
  const spec: TopLevelSpec = {
    ...BASE,
    title: { text: "Per operation: ms through the plugin (engine's gRPC client) against Terraform's calls sent directly", subtitle: subtitle(d) },
    data: { values },
    facet: { row: { field: "resource", type: "nominal", title: null } },
    spec: {
      width: 420,
      height: { step: 11 },
      mark: "bar",
      encoding: {
        y: { field: "op", type: "nominal", sort: ops, title: null },
        yOffset: { field: "who", type: "nominal", sort: order },
        x: { field: "ms", type: "quantitative", title: "ms per operation (median)" },
        color: { field: "who", type: "nominal", title: null, sort: order, scale: colors(order), legend: { orient: "bottom" } },
      },
    },
    resolve: { scale: { y: "independent" } },
  };
  const rows = ["| resource | operation | direct | ours | reference | ours − direct | ours ÷ reference |", "| --- | --- | --- | --- | --- | --- | --- |"];
  for (const r of d.results) {
    const added = known(r.direct) ? fmt(r.bridge - r.direct) : "-";
    rows.push(`| \`${r.key?.["resource"]}\` | ${r.key?.["op"]} | ${fmt(r.direct)} ms | ${fmt(r.bridge)} ms | ${fmt(r.reference)} ms | ${added} ms | ${ratio(r.bridge, r.reference)} |`);
  }
  return { svgs: { "bench-overhead": spec }, tables: rows.join("\n") };
}

export interface Plots {
  /** SVG text by file name (without .svg). */
  svgs: Map<string, string>;
  /** Every number each plot was drawn from, by file name. */
  figures: Map<string, number[]>;
  /** The generated section of docs/performance.md, markers included. */
  section: string;
}

/** Every plot and the markdown that embeds them, from the benchmarks' JSON. */
export async function renderPlots(data: Map<string, BenchData>): Promise<Plots> {
  const svgs = new Map<string, string>();
  const figures = new Map<string, number[]>();
  const parts: string[] = [BEGIN, ""];
  const sections: [string, BenchData, ReturnType<typeof scale>, string][] = [
    ["Scale: `pulumi up`, preview and destroy against stack size", data.get("scale-random_id")!, scale(data.get("scale-random_id")!), "`bench/scale.bench.ts` (random_id resources, ours and the reference as installed plugins)."],
    ["Giant schemas: start-up and memory", data.get("giants")!, giants(data.get("giants")!), "`bench/giants.bench.ts` (the five largest providers' schema dumps served by the replay peer; medians)."],
    ["Per-operation overhead against direct calls", data.get("overhead")!, overhead(data.get("overhead")!), "`bench/overhead.bench.ts` (medians over the cycles; the reference driven by the same engine client)."],
  ];
  for (const [title, d, built, source] of sections) {
    parts.push(`### ${title}`, "", `${conditions(d)} From ${source}`, "");
    for (const [name, spec] of Object.entries(built.svgs)) {
      svgs.set(name, await renderSvg(spec));
      const values = spec.data !== undefined && spec.data !== null && "values" in spec.data ? (spec.data.values as Point[]) : [];
      figures.set(name, values.flatMap((p) => Object.values(p).filter((v): v is number => typeof v === "number")));
      parts.push(`![${typeof spec.title === "object" && "text" in spec.title ? String(spec.title.text) : name}](img/${name}.svg)`, "");
    }
    parts.push(built.tables, "");
  }
  parts.push(END);
  return { svgs, figures, section: parts.join("\n") };
}

/** docs/performance.md with its generated section replaced (or added at the end, the first time). */
export function withSection(markdown: string, section: string): string {
  const a = markdown.indexOf(BEGIN);
  const b = markdown.indexOf(END);
  if (a < 0 || b < a) return `${markdown.trimEnd()}\n\n## Plots\n\n${section}\n`;
  return markdown.slice(0, a) + section + markdown.slice(b + END.length);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const plots = await renderPlots(readBenchData());
  mkdirSync(IMG_DIR, { recursive: true });
  for (const [name, svg] of plots.svgs) {
    writeFileSync(join(IMG_DIR, `${name}.svg`), svg);
    console.log(`docs/img/${name}.svg`);
  }
  writeFileSync(PERFORMANCE_MD, withSection(readFileSync(PERFORMANCE_MD, "utf8"), plots.section));
  console.log("docs/performance.md");
}
