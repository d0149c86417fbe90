// Scale benchmark (issue 36 item 5): `pulumi up`, a no-change preview and destroy of many resources, ours (the packaged
// plugin) beside the reference bridge installed as the same plugin, through the load scenario's steps. Prints wall times
// and the plugin's peak RSS with ours ÷ reference, time per resource at each size, and the CPU each class of process
// (engine, plugin, Terraform provider) spent per step and per resource, with its growth from the first size to the
// last, so a step of the plugin that grows faster than the engine's own shows.
// Each size runs SCALE_ROUNDS rounds (default 5), ours and the reference in turn within a round (the first of them
// alternating), and reports the medians over the rounds with their min–max.
// SCALE_KIND: `random_id` (random_id only; default sizes 100,500,2000, the published plot's) or `aws` (resources spread
// over aws resource types served by the replay peer from the aws schema dump; default 200,500). SCALE_SIZES,
// LOAD_PARALLEL (default 32) and LOAD_PLUGINS (default ours,reference) as in bench/load.bench.ts.
// SCALE_SKIP_CHECKPOINTS=1 runs every pulumi command with PULUMI_SKIP_CHECKPOINTS=true (the engine saves the snapshot
// once at the end instead of after every step, which is quadratic in stack size on the local backend). No assertions.
import { awsLoad } from "../test/support/scale-scenario.js";
import type { PluginKind } from "../test/support/interchange.js";
import { describeLoad, runLoadScenario, type LoadResult, type LoadStep, type ProcessClass } from "../test/support/load-scenario.js";
import { median, range, report, saveBenchData } from "./report.js";

const kind = process.env["SCALE_KIND"] ?? "random_id";
if (kind !== "random_id" && kind !== "aws") throw new Error(`SCALE_KIND is ${kind}: set it to random_id or aws`);
const sizes = (process.env["SCALE_SIZES"] ?? (kind === "aws" ? "200,500" : "100,500,2000")).split(",").map(Number);
const parallel = Number(process.env["LOAD_PARALLEL"] ?? 32);
const plugins = (process.env["LOAD_PLUGINS"] ?? "ours,reference").split(",") as PluginKind[];
const rounds = Number(process.env["SCALE_ROUNDS"] ?? 5);
const skipCheckpoints = process.env["SCALE_SKIP_CHECKPOINTS"] === "1";
const env = skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : undefined;
console.log(
  `scale: ${kind}, sizes ${sizes.join(",")}, ${rounds} rounds, --parallel ${parallel}, plugins ${plugins.join(",")}, ` +
    `checkpoints ${skipCheckpoints ? "skipped (PULUMI_SKIP_CHECKPOINTS=true)" : "saved after every step (the engine's default)"}`,
);

const STEPS = [
  ["up", "upMs"],
  ["no-change preview", "previewMs"],
  ["destroy", "destroyMs"],
] as const;

/** The plugin's peak: the largest VmHWM any of its processes reported at exit or was sampled at; undefined if none. */
function peakMiB(r: LoadResult): number | undefined {
  const samples = [...r.pluginReports.map((x) => x.maxRssKiB), ...r.pluginPeaks.map((x) => x.peakKiB)];
  return samples.length === 0 ? undefined : Math.max(...samples) / 1024;
}

async function run(n: number, plugin: PluginKind): Promise<LoadResult> {
  if (kind === "random_id") return runLoadScenario({ randomIds: n, randomStrings: 0, items: 0, parallel, plugin, env });
  const custom = awsLoad(n);
  try {
    return await runLoadScenario({ randomIds: 0, randomStrings: 0, items: 0, parallel, plugin, custom, env });
  } finally {
    custom.cleanup();
  }
}

const CPU_STEPS: LoadStep[] = ["setup", "up", "preview", "destroy"];
const CPU_CLASSES: ProcessClass[] = ["engine", "plugin", "provider", "language host"];

/** CPU seconds of each class of process per step, and per resource in ms. */
function describeStepCpu(r: LoadResult): string[] {
  const cell = (s: number): string => `${s.toFixed(1)} s ${((s * 1000) / r.resources).toFixed(2)} ms/res`;
  return [
    `CPU per step (${CPU_CLASSES.join(" | ")}; seconds, ms per resource):`,
    ...CPU_STEPS.map((step) => `  ${step}: ${CPU_CLASSES.map((c) => cell(r.stepCpuSeconds[step][c])).join(" | ")}`),
  ];
}

/** Every round's result, by size and plugin. */
const results = new Map<number, Partial<Record<PluginKind, LoadResult[]>>>();
/** The median over a plugin's rounds at a size of what `f` takes from each; NaN where it did not run. */
const med = (n: number, plugin: PluginKind, f: (r: LoadResult) => number | undefined): number => {
  const xs = (results.get(n)?.[plugin] ?? []).map(f).filter((x): x is number => x !== undefined);
  return xs.length === 0 ? NaN : median(xs);
};
const spread = (n: number, plugin: PluginKind, f: (r: LoadResult) => number | undefined): [number, number] | undefined =>
  range((results.get(n)?.[plugin] ?? []).map(f).filter((x): x is number => x !== undefined));
const label = kind === "aws" ? `aws-shaped resources (replay peer)` : "random_ids";
for (const n of sizes) {
  const runs: Partial<Record<PluginKind, LoadResult[]>> = {};
  results.set(n, runs);
  for (let round = 0; round < rounds; round++) {
    // Interleaved, and the first of them alternating, so drift in the machine's load and anything one run leaves warm
    // for the next fall on both.
    for (const plugin of round % 2 === 0 ? plugins : [...plugins].reverse()) {
      console.log(`\n${n} ${label}, round ${round + 1} of ${rounds}: ${plugin}`);
      const r = await run(n, plugin);
      for (const line of describeLoad(r)) console.log(line);
      for (const line of describeStepCpu(r)) console.log(line);
      (runs[plugin] ??= []).push(r);
    }
  }
  const has = (plugin: PluginKind): boolean => (runs[plugin]?.length ?? 0) > 0;
  for (const [step, k] of STEPS) {
    const s = (r: LoadResult): number => r[k] / 1000;
    report({
      scenario: `${step} of ${n} ${label} --parallel ${parallel}, median of ${rounds}`,
      bridge: med(n, "ours", s),
      reference: has("reference") ? med(n, "reference", s) : undefined,
      bridgeRange: spread(n, "ours", s),
      referenceRange: has("reference") ? spread(n, "reference", s) : undefined,
      unit: "s",
      key: { step, resources: n },
    });
  }
  report({
    scenario: `plugin peak RSS (VmHWM), ${n} ${label}, median of ${rounds}`,
    bridge: med(n, "ours", peakMiB),
    reference: has("reference") ? med(n, "reference", peakMiB) : undefined,
    bridgeRange: spread(n, "ours", peakMiB),
    referenceRange: has("reference") ? spread(n, "reference", peakMiB) : undefined,
    unit: "MiB",
    key: { step: "peak RSS", resources: n },
  });
}

// Growth: time per resource at each size, and how much it grew from the smallest size to the largest, per plugin. A
// step that grows faster for ours than for the reference (which runs the same engine) is the bridge's own growth.
console.log(`\ngrowth (${kind}, medians over the rounds of ms per resource at ${sizes.join(" / ")}; last ÷ first):`);
for (const plugin of plugins) {
  for (const [step, k] of STEPS) {
    const per = sizes.map((n) => med(n, plugin, (r) => r[k] / r.resources));
    console.log(`  ${plugin} ${step}: ${per.map((x) => x.toFixed(1)).join(" / ")}; growth ${(per[per.length - 1]! / per[0]!).toFixed(2)}×`);
  }
}

// CPU growth: each class's CPU per resource at the first size and the last, and last ÷ first, per step and plugin. The
// engine's figure is the yardstick: a plugin (or provider) figure that grows faster than it is growth of our own.
console.log(`\nCPU growth (${kind}, ms of CPU per resource at ${sizes[0]} → ${sizes[sizes.length - 1]}; last ÷ first):`);
for (const plugin of plugins) {
  for (const step of CPU_STEPS.slice(1)) {
    const cells = CPU_CLASSES.slice(0, 3).map((c) => {
      const per = sizes.map((n) => med(n, plugin, (r) => (r.stepCpuSeconds[step][c] * 1000) / r.resources));
      return `${c} ${per[0]!.toFixed(2)} → ${per[per.length - 1]!.toFixed(2)} (${(per[per.length - 1]! / per[0]!).toFixed(2)}×)`;
    });
    console.log(`  ${plugin} ${step}: ${cells.join(", ")}`);
  }
}

saveBenchData(`scale-${kind}`, { kind, sizes: sizes.join(","), rounds, parallel, plugins: plugins.join(","), checkpoints: skipCheckpoints ? "skipped" : "saved" });
