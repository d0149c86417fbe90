// Load benchmark: the e2e load scenario (random_id, random_string, httpapi_item; `pulumi up --parallel N`, a no-change
// preview, then destroy) run by our packaged plugin and by the reference bridge installed as the same plugin, with
// figures printed: wall times and the plugin's RSS at rest and at peak (VmHWM from /proc). No assertions.
// LOAD_SIZES (default 300,1000 resources, each split in three), LOAD_PARALLEL (default 32) and LOAD_PLUGINS (default
// ours,reference) scale it.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { propertyMapToStruct } from "../src/server/struct.js";
import { extractPlugin } from "../test/support/e2e.js";
import type { PluginKind } from "../test/support/interchange.js";
import { describeLoad, runLoadScenario, type LoadResult } from "../test/support/load-scenario.js";
import { peerPath, referenceBin } from "../test/support/peers.js";
import { argsRequest, startPluginProcess } from "../test/support/pulumi.js";
import { median, range, report } from "./report.js";

const sizes = (process.env["LOAD_SIZES"] ?? process.env["LOAD_RESOURCES"] ?? "300,1000").split(",").map(Number);
const parallel = Number(process.env["LOAD_PARALLEL"] ?? 32);
const plugins = (process.env["LOAD_PLUGINS"] ?? "ours,reference").split(",") as PluginKind[];
const REST_RUNS = Number(process.env["LOAD_REST_RUNS"] ?? 3);

const mib = (kib: number): number => kib / 1024;
const procStatus = (pid: number, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

/**
 * The plugin at rest: started, parameterized with random and configured, then left idle for a second, as each plugin
 * process of a `pulumi up` is between the engine's calls. VmRSS then, and VmHWM (the peak of getting there).
 */
async function atRest(bin: string): Promise<{ rssKiB: number; hwmKiB: number }> {
  const plugin = await startPluginProcess({ bin, startTimeoutMs: 60_000, reapChildren: bin === referenceBin() });
  try {
    await plugin.call("Parameterize", argsRequest(peerPath("random")));
    await plugin.call("Configure", { args: propertyMapToStruct({}), acceptSecrets: true, acceptResources: true });
    await new Promise((r) => setTimeout(r, 1000));
    const pid = plugin.child.pid!;
    return { rssKiB: procStatus(pid, "VmRSS"), hwmKiB: procStatus(pid, "VmHWM") };
  } finally {
    await plugin.stop();
  }
}

const installed = extractPlugin();
const restBins: Record<PluginKind, string> = { ours: join(installed, "pulumi-resource-terraform-provider"), reference: referenceBin() };
const rest: Record<string, { rss: number[]; hwm: number[] }> = {};
for (const kind of plugins) {
  rest[kind] = { rss: [], hwm: [] };
  for (let i = 0; i < REST_RUNS; i++) {
    const r = await atRest(restBins[kind]);
    rest[kind].rss.push(mib(r.rssKiB));
    rest[kind].hwm.push(mib(r.hwmKiB));
  }
  console.log(`plugin at rest (${kind}; random, parameterized and configured): RSS ${rest[kind].rss.map((x) => x.toFixed(1)).join(", ")} MiB; VmHWM ${rest[kind].hwm.map((x) => x.toFixed(1)).join(", ")} MiB`);
}
rmSync(installed, { recursive: true, force: true });
const both = (k: "rss" | "hwm") => ({
  bridge: median(rest["ours"]?.[k] ?? [NaN]),
  reference: rest["reference"] ? median(rest["reference"][k]) : undefined,
  bridgeRange: range(rest["ours"]?.[k] ?? []),
  referenceRange: range(rest["reference"]?.[k] ?? []),
});
report({ scenario: "plugin RSS at rest (random, parameterized and configured)", ...both("rss"), unit: "MiB" });
report({ scenario: "plugin VmHWM at rest (random, parameterized and configured)", ...both("hwm"), unit: "MiB" });

for (const total of sizes) {
  const third = Math.floor(total / 3);
  const runs: Partial<Record<PluginKind, LoadResult>> = {};
  for (const kind of plugins) {
    const r = await runLoadScenario({ randomIds: third, randomStrings: third, items: total - 2 * third, parallel, plugin: kind });
    for (const line of describeLoad(r)) console.log(line);
    console.log(`per resource: up ${(r.upMs / r.resources).toFixed(1)} ms, destroy ${(r.destroyMs / r.resources).toFixed(1)} ms`);
    runs[kind] = r;
  }
  const ours = runs["ours"];
  const ref = runs["reference"];
  // The plugin's peak: VmHWM of every plugin process, sampled from /proc, and for ours also the figure each process
  // reports of itself at exit (TF_BRIDGE_RSS_REPORT), which a 250 ms sample can miss.
  // No sample and no report is no figure (printed "-"), not 0 MiB.
  const peak = (r: LoadResult | undefined): number | undefined => {
    const samples = r === undefined ? [] : [...r.pluginReports.map((x) => x.maxRssKiB), ...r.pluginPeaks.map((x) => x.peakKiB)];
    if (samples.length === 0) {
      if (r !== undefined) console.log("no plugin memory figure: no process was sampled and none reported its peak");
      return undefined;
    }
    return mib(Math.max(...samples));
  };
  const seconds = (r: LoadResult | undefined, k: "upMs" | "previewMs" | "destroyMs"): number | undefined => r && r[k] / 1000;
  const row = (scenario: string, k: "upMs" | "previewMs" | "destroyMs"): void =>
    report({ scenario, bridge: seconds(ours, k) ?? NaN, reference: seconds(ref, k), unit: "s" });
  const n = (ours ?? ref)!.resources;
  row(`pulumi up of ${n} resources --parallel ${parallel}`, "upMs");
  row(`no-change pulumi preview of ${n} resources --parallel ${parallel}`, "previewMs");
  row(`pulumi destroy of ${n} resources --parallel ${parallel}`, "destroyMs");
  report({ scenario: `plugin peak RSS (VmHWM) during the ${n}-resource run`, bridge: peak(ours) ?? NaN, reference: peak(ref), unit: "MiB" });
}
