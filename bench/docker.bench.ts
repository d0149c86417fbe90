// Docker at scale (issue 52 item 5): a stack of N containers, each with a docker_volume of its own
// (test/support/docker-stack.ts), on a real Docker Engine (test/support/docker.ts), deployed three ways with the same
// configuration on the same engine: `pulumi up` with ours (the packaged plugin), with the reference bridge installed
// as the same plugin (both through the load scenario's steps), and `tofu apply`. Then a no-change look (`pulumi preview
// --expect-no-changes`, `tofu plan -detailed-exitcode`) and the destroy. Prints wall times and peak memory (the plugin
// process's VmHWM; for tofu, the tofu process's own, which does the engine's and the bridge's work in one), the Docker
// provider's peak beside each, and ours ÷ reference and ours ÷ tofu. DOCKER_SIZES (default 40), DOCKER_ROUNDS
// (default 5, as docs/performance.md's plots need; medians over rounds), LOAD_PARALLEL (default 32; tofu gets the same
// -parallelism), DOCKER_RUNNERS (default ours,reference,tofu), DOCKER_TRACE_DIR (keep the engine's OpenTelemetry trace
// of each Pulumi up there and print what it says of the provider calls, bench/engine-trace.ts). No assertions on
// figures; a run that leaves a container, volume or process behind stops.
import { spawn } from "node:child_process";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { basename, join } from "node:path";
import { dockerMissing, startDocker, type DockerEngine } from "../test/support/docker.js";
import { CONTAINER_TOKEN, VOLUME_TOKEN, dockerStackTf, dockerStackYaml } from "../test/support/docker-stack.js";
import type { PluginKind } from "../test/support/interchange.js";
import { describeLoad, runLoadScenario, type LoadResult } from "../test/support/load-scenario.js";
import { peerPath, repoRoot } from "../test/support/peers.js";
import { childPids } from "../test/support/processes.js";
import { devOverridesEnv } from "../test/support/terraform-cli.js";
import { tempDir } from "../test/support/temp.js";
import { describeEngineTrace, readEngineTrace } from "./engine-trace.js";
import { median, range, report, saveBenchData } from "./report.js";

type Runner = PluginKind | "tofu";
const sizes = (process.env["DOCKER_SIZES"] ?? "40").split(",").map(Number);
const rounds = Number(process.env["DOCKER_ROUNDS"] ?? 5);
const parallel = Number(process.env["LOAD_PARALLEL"] ?? 32);
const runners = (process.env["DOCKER_RUNNERS"] ?? "ours,reference,tofu").split(",") as Runner[];
const traceDir = process.env["DOCKER_TRACE_DIR"];

/** One run's figures: wall times in ms, peaks in KiB (undefined when none was seen). */
interface Figures {
  upMs: number;
  previewMs: number;
  destroyMs: number;
  /** The plugin process (ours, reference) or the tofu process. */
  peakKiB?: number;
  /** The Docker provider's own process. */
  providerPeakKiB?: number;
}

const STEPS = [
  ["up", "upMs"],
  ["no-change preview", "previewMs"],
  ["destroy", "destroyMs"],
] as const;

/** VmHWM of `pid` in KiB, or 0 once it has exited. */
function vmHwm(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Runs `tofu args` in `cwd`, sampling the peak of tofu and of its Docker provider every 200 ms; fails unless it exits with `want`. */
async function tofu(args: string[], cwd: string, env: NodeJS.ProcessEnv, want = 0): Promise<{ ms: number; peakKiB: number; providerPeakKiB: number }> {
  const started = Date.now();
  const child = spawn(realpathSync(join(repoRoot, ".peers", "tofu")), [...args, "-no-color", "-input=false"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out = (out + d).slice(-20_000)));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (out = (out + d).slice(-20_000)));
  let peakKiB = 0;
  let providerPeakKiB = 0;
  const providers = new Set<number>();
  const sample = (): void => {
    peakKiB = Math.max(peakKiB, vmHwm(child.pid!));
    for (const pid of childPids(child.pid!)) providers.add(pid);
    for (const pid of providers) providerPeakKiB = Math.max(providerPeakKiB, vmHwm(pid));
  };
  const timer = setInterval(sample, 200);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => (clearInterval(timer), resolve(c))));
  const ms = Date.now() - started;
  if (code !== want) throw new Error(`tofu ${args.join(" ")} exited with ${code}, wanted ${want}:\n${out}`);
  return { ms, peakKiB, providerPeakKiB };
}

async function runTofu(n: number, engine: DockerEngine, prefix: string): Promise<Figures> {
  const dir = tempDir("tfbridge-docker-bench-tofu-");
  try {
    const env = devOverridesEnv(dir, { "kreuzwerker/docker": "docker" });
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(dockerStackTf(n, prefix, engine.host), null, 1));
    const p = `-parallelism=${parallel}`;
    const up = await tofu(["apply", "-auto-approve", p], dir, env);
    // -detailed-exitcode: 0 is no change, 2 is a change (which the bench does not accept), 1 an error.
    const plan = await tofu(["plan", "-detailed-exitcode", p], dir, env);
    await expectStack(engine, prefix, n);
    const destroy = await tofu(["destroy", "-auto-approve", p], dir, env);
    return {
      upMs: up.ms,
      previewMs: plan.ms,
      destroyMs: destroy.ms,
      peakKiB: Math.max(up.peakKiB, plan.peakKiB, destroy.peakKiB),
      providerPeakKiB: Math.max(up.providerPeakKiB, plan.providerPeakKiB, destroy.providerPeakKiB),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPulumi(n: number, engine: DockerEngine, prefix: string, plugin: PluginKind): Promise<Figures> {
  const traceFile = traceDir === undefined ? undefined : join(traceDir, `${prefix}.json`);
  const r: LoadResult = await runLoadScenario({
    ...(traceFile !== undefined ? { traceFile } : {}),
    randomIds: 0,
    randomStrings: 0,
    items: 0,
    parallel,
    plugin,
    custom: { packages: [peerPath("docker")], program: dockerStackYaml(n, prefix), resources: 2 * n, types: new Set([CONTAINER_TOKEN, VOLUME_TOKEN]), config: { "docker:host": engine.host } },
  });
  for (const line of describeLoad(r)) console.log(`  ${line}`);
  if (traceFile !== undefined) for (const line of describeEngineTrace(readEngineTrace(traceFile))) console.log(`  ${line}`);
  if (r.exportedAfterUp !== 2 * n || r.exportedAfterDestroy !== 0) throw new Error(`${plugin}: ${r.exportedAfterUp} resources in the stack after up (wanted ${2 * n}), ${r.exportedAfterDestroy} after destroy`);
  if (r.leftovers.length > 0 && plugin === "ours") throw new Error(`${plugin} left processes running: ${r.leftovers.map((p) => p.cmd).join(", ")}`);
  const peaks = [...r.pluginReports.map((x) => x.maxRssKiB), ...r.pluginPeaks.map((x) => x.peakKiB)];
  const docker = r.providerPeaks.filter((p) => basename(p.cmd.split(" ")[0] ?? "") === "terraform-provider-docker").map((p) => p.peakKiB);
  return {
    upMs: r.upMs,
    previewMs: r.previewMs,
    destroyMs: r.destroyMs,
    peakKiB: peaks.length > 0 ? Math.max(...peaks) : undefined,
    providerPeakKiB: docker.length > 0 ? Math.max(...docker) : undefined,
  };
}

/** The engine holds the stack's N running containers and N volumes (nothing else of ours). */
async function expectStack(engine: DockerEngine, prefix: string, n: number): Promise<void> {
  const running = (await engine.docker(["ps", "-q", "--filter", `name=^${prefix}-c`])).stdout.split("\n").filter((l) => l !== "").length;
  const volumes = (await engine.docker(["volume", "ls", "-q", "--filter", `name=^${prefix}-v`])).stdout.split("\n").filter((l) => l !== "").length;
  if (running !== n || volumes !== n) throw new Error(`after up: ${running} running containers and ${volumes} volumes named ${prefix}-*, wanted ${n} of each`);
}

/** Nothing left on the engine from a run: the next run starts from the same empty engine. */
async function expectEmpty(engine: DockerEngine, who: string): Promise<void> {
  const left = await engine.leftovers();
  if (left.containers.length + left.volumes.length + left.networks.length > 0) throw new Error(`${who} left on the engine: ${JSON.stringify(left)}`);
}

if (dockerMissing()) process.exit(0);
const engine = await startDocker();
console.log(
  `docker: sizes ${sizes.join(",")} containers (each with a volume), rounds ${rounds}, --parallel ${parallel} (tofu -parallelism ${parallel}), runners ${runners.join(",")}, ` +
    `engine ${engine.host}; load average ${loadavg().map((x) => x.toFixed(2)).join(" / ")}`,
);
const mib = (kib: number | undefined): number => (kib === undefined ? NaN : kib / 1024);
const fmt = (x: number | undefined, unit: string): string => (x === undefined || !Number.isFinite(x) ? "-" : `${x >= 100 ? x.toFixed(0) : x.toFixed(2)} ${unit}`);
const ratio = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0 ? "-" : (a / b).toFixed(2));
const table: string[][] = [["containers", "step", "ours", "reference", "tofu", "ours ÷ reference", "ours ÷ tofu"]];
try {
  for (const n of sizes) {
    const runs: Record<Runner, Figures[]> = { ours: [], reference: [], tofu: [] };
    for (let round = 0; round < rounds; round++) {
      for (const who of runners) {
        const prefix = `bench-${who.slice(0, 3)}-${n}-${round}`;
        const f = who === "tofu" ? await runTofu(n, engine, prefix) : await runPulumi(n, engine, prefix, who);
        await expectEmpty(engine, `${who} (${n} containers)`);
        console.log(
          `${who} ${n} containers, round ${round + 1}: up ${fmt(f.upMs / 1000, "s")}, no-change ${who === "tofu" ? "plan" : "preview"} ${fmt(f.previewMs / 1000, "s")}, destroy ${fmt(f.destroyMs / 1000, "s")}; ` +
            `peak RSS ${fmt(mib(f.peakKiB), "MiB")} (${who === "tofu" ? "tofu" : "plugin"}), Docker provider ${fmt(mib(f.providerPeakKiB), "MiB")}; load ${loadavg()[0]!.toFixed(2)}`,
        );
        runs[who].push(f);
      }
    }
    const med = (who: Runner, pick: (f: Figures) => number | undefined): number | undefined => {
      const xs = runs[who].map(pick).filter((x): x is number => x !== undefined);
      return xs.length === 0 ? undefined : median(xs);
    };
    const rng = (who: Runner, pick: (f: Figures) => number | undefined): [number, number] | undefined => range(runs[who].map(pick).filter((x): x is number => x !== undefined));
    for (const [step, k] of STEPS) {
      const s = (who: Runner): number | undefined => { const m = med(who, (f) => f[k]); return m === undefined ? undefined : m / 1000; };
      const sr = (who: Runner): [number, number] | undefined => { const r = rng(who, (f) => f[k]); return r && [r[0] / 1000, r[1] / 1000]; };
      table.push([String(n), step, fmt(s("ours"), "s"), fmt(s("reference"), "s"), fmt(s("tofu"), "s"), ratio(s("ours"), s("reference")), ratio(s("ours"), s("tofu"))]);
      report({ scenario: `${step} of ${n} Docker containers + volumes --parallel ${parallel} (direct: tofu)`, bridge: s("ours") ?? NaN, reference: s("reference"), direct: s("tofu"), bridgeRange: sr("ours"), referenceRange: sr("reference"), directRange: sr("tofu"), unit: "s", key: { step, containers: n } });
    }
    const peak = (who: Runner): number | undefined => { const m = med(who, (f) => f.peakKiB); return m === undefined ? undefined : m / 1024; };
    const provider = (who: Runner): number | undefined => { const m = med(who, (f) => f.providerPeakKiB); return m === undefined ? undefined : m / 1024; };
    table.push([String(n), "peak RSS: plugin (tofu: tofu)", fmt(peak("ours"), "MiB"), fmt(peak("reference"), "MiB"), fmt(peak("tofu"), "MiB"), ratio(peak("ours"), peak("reference")), ratio(peak("ours"), peak("tofu"))]);
    table.push([String(n), "peak RSS: Docker provider", fmt(provider("ours"), "MiB"), fmt(provider("reference"), "MiB"), fmt(provider("tofu"), "MiB"), ratio(provider("ours"), provider("reference")), ratio(provider("ours"), provider("tofu"))]);
    const peakRange = (who: Runner): [number, number] | undefined => { const r = rng(who, (f) => f.peakKiB); return r && [r[0] / 1024, r[1] / 1024]; };
    report({ scenario: `plugin peak RSS (VmHWM), ${n} Docker containers + volumes (direct: the tofu process)`, bridge: peak("ours") ?? NaN, reference: peak("reference"), direct: peak("tofu"), bridgeRange: peakRange("ours"), referenceRange: peakRange("reference"), directRange: peakRange("tofu"), unit: "MiB", key: { step: "peak RSS", containers: n } });
  }
} finally {
  await engine.stop();
}

const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
console.log(`\n== Docker stack: ours, the reference and tofu on the same engine (medians of ${rounds} round${rounds === 1 ? "" : "s"}; load average now ${loadavg().map((x) => x.toFixed(2)).join(" / ")})`);
for (const r of table) console.log(r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  "));
saveBenchData("docker", { sizes: sizes.join(","), rounds, parallel, runners: runners.join(",") });
