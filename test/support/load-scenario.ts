// The load scenario, shared by test/e2e/load.test.ts (which asserts) and bench/load.bench.ts (which only prints): one
// YAML program with hundreds of random_id, random_string and httpapi_item resources, `pulumi up --parallel N`, then
// `pulumi destroy`, through the real CLI, the packaged plugin (or the reference bridge, installed as the same plugin) and
// real providers; the httpapi service runs on loopback.
import { YamlScenario } from "./lifecycle.js";
import { readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { installPlugin, readRssReports, sandboxProcesses, waitNoSandboxProcesses, type ExportedResource, type RssReport } from "./e2e.js";
import { startHttpApi } from "./httpapi.js";
import { usePlugin, type PluginKind } from "./interchange.js";
import { peerPath } from "./peers.js";
import { pulumiBinDir, pulumiSandbox, tempDir } from "./pulumi.js";

export interface LoadOptions {
  /** How many of each resource; the total is their sum. */
  randomIds: number;
  randomStrings: number;
  items: number;
  parallel: number;
  /** Progress lines (phase timings); defaults to stderr. */
  log?: (line: string) => void;
  /** Which `terraform-provider` plugin the engine runs: our packaged plugin (the default) or the reference bridge. */
  plugin?: PluginKind;
  /** Another program instead of loadProgram's: its own packages, the environment its providers need, its types. */
  custom?: CustomLoad;
  /** Extra environment for every pulumi command of the run (e.g. PULUMI_SKIP_CHECKPOINTS). */
  env?: Record<string, string>;
  /** Where the engine writes its OpenTelemetry trace of the up (`--otel-traces file://…`; bench/engine-trace.ts reads it). */
  traceFile?: string;
}

/** A program of other resources (test/support/scale-scenario.ts), run through the same steps and measured alike. */
export interface CustomLoad {
  /** Local provider paths for `pulumi package add terraform-provider`. */
  packages: string[];
  program: string;
  resources: number;
  /** Pulumi tokens of the program's resources (what stack export is counted by). */
  types: Set<string>;
  env?: Record<string, string>;
  /** Stack configuration set before the first up (`docker:host`). */
  config?: Record<string, string>;
}

export interface ProcessPeak {
  pid: number;
  /** The parent's pid: for a Terraform provider, the plugin process that launched it. */
  ppid: number;
  cmd: string;
  /** Peak resident set (VmHWM) last seen in /proc, KiB. */
  peakKiB: number;
}

export interface LoadResult {
  plugin: PluginKind;
  resources: number;
  parallel: number;
  upMs: number;
  /** `pulumi preview --expect-no-changes` right after up (it fails the run if anything would change). */
  previewMs: number;
  destroyMs: number;
  upOutputTail: string;
  /** Our resources in `pulumi stack export` after up and after destroy. */
  exportedAfterUp: number;
  exportedAfterDestroy: number;
  /** Items the httpapi service held after up and after destroy. */
  serviceItemsAfterUp: number;
  serviceItemsAfterDestroy: number;
  /** Ids in the stack that the service does not have (lost) and items it has that the stack does not (leaked). */
  lostItems: string[];
  leakedItems: string[];
  /** One line per plugin process, written by the plugin itself (TF_BRIDGE_RSS_REPORT), with the command it served. */
  pluginReports: (RssReport & { phase: string; provider?: string })[];
  /** Peaks sampled from /proc while the commands ran: the plugin processes and the Terraform providers. */
  pluginPeaks: ProcessPeak[];
  providerPeaks: ProcessPeak[];
  /** CPU time by kind of process over the whole run (sampled every 250 ms, so a little low). */
  cpuSeconds: Record<string, number>;
  /** The same, per step: what each class spent from the end of the step before to the end of this one. */
  stepCpuSeconds: Record<LoadStep, Record<ProcessClass, number>>;
  /** terraform-provider-* and plugin processes of this sandbox still alive 10 s after destroy. */
  leftovers: { pid: number; cmd: string }[];
}

const OUR_TYPES = new Set(["random:index/id:Id", "random:index/string:String", "httpapi:index/item:Item"]);

export function loadProgram(o: Pick<LoadOptions, "randomIds" | "randomStrings" | "items">): string {
  const lines = ["resources:"];
  for (let i = 0; i < o.randomIds; i++) lines.push(`  id${i}:`, "    type: random:index/id:Id", "    properties:", "      byteLength: 8");
  for (let i = 0; i < o.randomStrings; i++) {
    lines.push(`  str${i}:`, "    type: random:index/string:String", "    properties:", "      length: 12", "      special: false", "      keepers:", `        n: "${i}"`);
  }
  for (let i = 0; i < o.items; i++) {
    lines.push(
      `  item${i}:`,
      "    type: httpapi:index/item:Item",
      "    properties:",
      `      name: load-${i}`,
      `      size: ${i}`,
      "      tags:",
      "        scenario: load",
      "      settings:",
      "        mode: standard",
      "        enabled: true",
      "      rules:",
      `        - port: ${1024 + i}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux/x86-64). */
const USER_HZ = 100;

export type ProcessClass = "engine" | "language host" | "plugin" | "provider" | "other";
export type LoadStep = "setup" | "up" | "preview" | "destroy";
const noCpu = (): Record<ProcessClass, number> => ({ engine: 0, "language host": 0, plugin: 0, provider: 0, other: 0 });

function classify(cmd: string): ProcessClass {
  const exe = basename(cmd.split(" ")[0] ?? "");
  // Plugins run as `…/resource-terraform-provider-v…/pulumi-resource-terraform-provider`; providers as their own executable. The
  // pulumi CLI's own command line may name a provider too (`pulumi package add terraform-provider <path>`).
  if (cmd.includes("resource-terraform-provider")) return "plugin";
  if (exe.startsWith("terraform-provider-")) return "provider";
  if (exe === "pulumi") return "engine";
  if (exe.startsWith("pulumi-language-")) return "language host";
  return "other";
}

/** Samples every process of the sandbox: peak RSS (VmHWM) and CPU time, until stopped. */
function startSampler(sandbox: ReturnType<typeof pulumiSandbox>): {
  /** CPU seconds per class of every process seen so far, sampled now. */
  cpu(): Record<ProcessClass, number>;
  stop(): { plugins: ProcessPeak[]; providers: ProcessPeak[]; cpuSeconds: Record<ProcessClass, number> };
} {
  const peaks = new Map<number, ProcessPeak & { cpuTicks: number }>();
  const sample = (): void => {
    for (const p of sandboxProcesses(sandbox, "")) {
      try {
        const status = readFileSync(`/proc/${p.pid}/status`, "utf8");
        const stat = readFileSync(`/proc/${p.pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const cpuTicks = Number(fields[11]) + Number(fields[12]); // utime, stime
        const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
        const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
        const prev = peaks.get(p.pid);
        peaks.set(p.pid, { pid: p.pid, ppid, cmd: p.cmd, peakKiB: Math.max(kib, prev?.peakKiB ?? 0), cpuTicks: Math.max(cpuTicks, prev?.cpuTicks ?? 0) });
      } catch {
        // exited between the scan and the read
      }
    }
  };
  const timer = setInterval(sample, 250);
  const cpu = (): Record<ProcessClass, number> => {
    sample();
    const cpuSeconds = noCpu();
    for (const p of peaks.values()) cpuSeconds[classify(p.cmd)] += p.cpuTicks / USER_HZ;
    return cpuSeconds;
  };
  return {
    cpu,
    stop: () => {
      clearInterval(timer);
      const all = [...peaks.values()];
      const cpuSeconds = cpu();
      const strip = ({ pid, ppid, cmd, peakKiB }: ProcessPeak): ProcessPeak => ({ pid, ppid, cmd, peakKiB });
      return {
        plugins: all.filter((p) => classify(p.cmd) === "plugin").map(strip),
        providers: all.filter((p) => classify(p.cmd) === "provider").map(strip),
        cpuSeconds,
      };
    },
  };
}

export async function runLoadScenario(o: LoadOptions): Promise<LoadResult> {
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const kind = o.plugin ?? "ours";
  pulumiBinDir();
  const sandbox = pulumiSandbox();
  // The reference is installed as the same plugin name and version; no executable on PATH may stand in for either.
  if (kind === "reference") sandbox.env["PULUMI_IGNORE_AMBIENT_PLUGINS"] = "true";
  const dir = tempDir("tfbridge-load-");
  const rssFile = join(dir, "plugin-rss.jsonl");
  sandbox.env["TF_BRIDGE_RSS_REPORT"] = rssFile;
  const api = await startHttpApi();
  let sampler: ReturnType<typeof startSampler> | undefined;
  try {
    if (kind === "reference") await usePlugin(sandbox, "reference");
    else installPlugin(sandbox);
    const reports: LoadResult["pluginReports"] = [];
    const collectReports = (phase: string): void => {
      for (const r of readRssReports(rssFile).slice(reports.length)) reports.push({ ...r, phase });
    };
    sampler = startSampler(sandbox);
    // Each step's CPU per class: the sampler's totals at the step's end less those at the end of the step before.
    const stepCpu = { setup: noCpu(), up: noCpu(), preview: noCpu(), destroy: noCpu() };
    let cpuBefore = noCpu();
    const endStep = (step: LoadStep): void => {
      const now = sampler!.cpu();
      for (const k of Object.keys(now) as ProcessClass[]) stepCpu[step][k] = now[k] - cpuBefore[k];
      cpuBefore = now;
    };
    Object.assign(sandbox.env, o.custom?.env ?? {}, o.env ?? {});
    const ourTypes = o.custom?.types ?? OUR_TYPES;
    const project = YamlScenario.inline(dir, "load", "", sandbox.env);
    for (const pkg of o.custom?.packages ?? [peerPath("random"), ...(o.items > 0 ? [peerPath("httpapi")] : [])]) {
      await project.ok(["package", "add", "terraform-provider", pkg], 600_000);
    }
    collectReports("package add");
    project.program(o.custom?.program ?? loadProgram(o));
    await project.ok(["stack", "init", "load"]);
    for (const [key, value] of Object.entries(o.custom?.config ?? {})) await project.ok(["config", "set", key, value]);
    if (o.custom === undefined && o.items > 0) {
      await project.ok(["config", "set", "httpapi:endpoint", api.url]);
      await project.ok(["config", "set", "--secret", "httpapi:token", api.token]);
    }
    const resources = o.custom?.resources ?? o.randomIds + o.randomStrings + o.items;

    collectReports("setup");
    endStep("setup");
    let started = Date.now();
    const trace = o.traceFile === undefined ? [] : ["--otel-traces", `file://${o.traceFile}`];
    const up = await project.ok(["up", "--yes", "--skip-preview", "--parallel", String(o.parallel), ...trace], 1_800_000);
    const upMs = Date.now() - started;
    log(`load (${kind}): up of ${resources} resources with --parallel ${o.parallel}: ${(upMs / 1000).toFixed(1)} s`);
    collectReports("up");
    endStep("up");

    // A second look must find nothing to do: no perpetual diffs at scale.
    started = Date.now();
    await project.ok(["preview", "--expect-no-changes", "--parallel", String(o.parallel)], 1_800_000);
    const previewMs = Date.now() - started;
    log(`load (${kind}): no-change preview: ${(previewMs / 1000).toFixed(1)} s`);
    collectReports("preview");
    endStep("preview");

    const exported: ExportedResource[] = (await project.resources()).filter((r) => ourTypes.has(r.type));
    const serviceItems = await api.items();
    const stackItemIds = new Set(exported.filter((r) => r.type === "httpapi:index/item:Item").map((r) => r.id ?? ""));
    const serviceIds = new Set(serviceItems.map((i) => i.id));
    cpuBefore = sampler.cpu(); // the stack export above is no step's

    started = Date.now();
    await project.ok(["destroy", "--yes", "--skip-preview", "--parallel", String(o.parallel)], 1_800_000);
    const destroyMs = Date.now() - started;
    log(`load (${kind}): destroy: ${(destroyMs / 1000).toFixed(1)} s`);
    collectReports("destroy");
    endStep("destroy");
    const afterDestroy = (await project.resources()).filter((r) => ourTypes.has(r.type)).length;
    const leftovers = await waitNoSandboxProcesses(sandbox, "terraform-provider", 10_000);
    // The reference leaves its Terraform providers running when the engine stops it; they are counted, then ended so
    // that runs do not pile up processes.
    if (kind === "reference") for (const p of leftovers) try { process.kill(p.pid, "SIGKILL"); } catch { /* gone already */ }
    const peaks = sampler.stop();
    collectReports("after destroy");
    // Which Terraform provider each plugin process ran: its child's executable.
    for (const r of reports) {
      const child = peaks.providers.find((p) => p.ppid === r.pid);
      if (child) r.provider = basename(child.cmd.split(" ")[0] ?? "").replace(/^terraform-provider-/, "");
    }
    return {
      plugin: kind,
      resources,
      parallel: o.parallel,
      upMs,
      previewMs,
      destroyMs,
      upOutputTail: up.stdout.split("\n").slice(-12).join("\n"),
      exportedAfterUp: exported.length,
      exportedAfterDestroy: afterDestroy,
      serviceItemsAfterUp: serviceItems.length,
      serviceItemsAfterDestroy: (await api.items()).length,
      lostItems: [...stackItemIds].filter((id) => !serviceIds.has(id)),
      leakedItems: [...serviceIds].filter((id) => !stackItemIds.has(id)),
      pluginReports: reports,
      pluginPeaks: peaks.plugins,
      providerPeaks: peaks.providers,
      cpuSeconds: peaks.cpuSeconds,
      stepCpuSeconds: stepCpu,
      leftovers,
    };
  } finally {
    sampler?.stop();
    await api.stop();
    sandbox.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures a human wants from a run, as lines. */
export function describeLoad(r: LoadResult): string[] {
  const mib = (kib: number): string => `${(kib / 1024).toFixed(1)} MiB`;
  const reported = r.pluginReports.map((x) => x.maxRssKiB);
  const sampled = r.pluginPeaks.map((x) => x.peakKiB);
  return [
    `plugin: ${r.plugin === "ours" ? "ours (packaged)" : "the reference bridge"}`,
    `resources: ${r.resources} (stack export after up: ${r.exportedAfterUp}, after destroy: ${r.exportedAfterDestroy}; service items after up: ${r.serviceItemsAfterUp}, after destroy: ${r.serviceItemsAfterDestroy})`,
    `wall time: up ${(r.upMs / 1000).toFixed(1)} s, no-change preview ${(r.previewMs / 1000).toFixed(1)} s, destroy ${(r.destroyMs / 1000).toFixed(1)} s (--parallel ${r.parallel})`,
    `plugin peak RSS (VmHWM at stop, TF_BRIDGE_RSS_REPORT; ours only): max ${reported.length ? mib(Math.max(...reported)) : "n/a"} over ${reported.length} plugin processes`,
    ...r.pluginReports.map((x) => `  ${x.phase}: ${x.provider ?? "?"} ${mib(x.maxRssKiB)} (pid ${x.pid}, ran ${(x.uptimeMs / 1000).toFixed(1)} s)`),
    `plugin peak RSS (/proc VmHWM, sampled): max ${sampled.length ? mib(Math.max(...sampled)) : "n/a"} over ${sampled.length} processes`,
    `terraform providers peak RSS (/proc VmHWM): ${r.providerPeaks.map((p) => `${p.cmd.split("/").pop()} ${mib(p.peakKiB)}`).join(", ") || "n/a"}`,
    `CPU time (s): ${Object.entries(r.cpuSeconds).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`,
    `leftover processes: ${r.leftovers.length}`,
  ];
}
