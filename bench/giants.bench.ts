// The largest real providers at full size (schema dumps served by test/peers/replay): start-up (spawn → Parameterize →
// GetSchema answered) and peak RSS, ours (the packaged plugin; its first start-up too, the schema not cached) beside the
// reference's and the replay peer's own start (handshake → schema), medians of BENCH_RUNS (default 5) with their
// min–max. `BENCHES=giants npm run bench`; BENCH_GIANTS=aws,google runs a subset.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import { giants, giantsDir, giantsPresent, serveGiant, type ServedGiant } from "../test/support/giants.js";
import { extractPlugin } from "../test/support/e2e.js";
import { childPids } from "../test/support/processes.js";
import { referenceBin } from "../test/support/peers.js";
import { argsRequest, startPluginProcess } from "../test/support/pulumi.js";
import { median, range, report, saveBenchData } from "./report.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
const wanted = process.env["BENCH_GIANTS"]?.split(",");

/** A process's peak resident set (VmHWM), in MiB; 0 once it is gone. */
function peakMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]) / 1024;
  } catch {
    return 0;
  }
}

interface Sample {
  ms: number;
  /** Peak RSS in MiB: the plugin's own (not its Terraform provider's), or the replay peer's when it runs alone. */
  rss: number;
}

async function plugin(served: ServedGiant, bin: string, env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  const t0 = performance.now();
  const p = await startPluginProcess({ bin, env: { ...served.env, ...env }, startTimeoutMs: 60_000, reapChildren: bin === referenceBin() });
  try {
    const r = await p.call("Parameterize", argsRequest(served.binary));
    await p.call("GetSchema", { version: 0, subpackage_name: r["name"], subpackage_version: r["version"] });
    const ms = performance.now() - t0;
    return { ms, rss: peakMiB(p.child.pid) };
  } finally {
    await p.stop();
  }
}

/** The replay peer alone: spawn, handshake, schema received, as Parameterize needs it from any provider. */
async function alone(served: ServedGiant): Promise<Sample> {
  const before = new Set(childPids(process.pid));
  const t0 = performance.now();
  const tf = await GrpcTerraformProvider.launch({ path: served.binary, env: { REPLAY_SCHEMA: served.env["REPLAY_SCHEMA"]!, REPLAY_STORE: served.env["REPLAY_STORE"]! } });
  try {
    await tf.getProviderSchema();
    const ms = performance.now() - t0;
    const pids = childPids(process.pid).filter((pid) => !before.has(pid));
    return { ms, rss: Math.max(0, ...pids.map(peakMiB)) };
  } finally {
    await tf.close();
  }
}

if (!giantsPresent) {
  console.log(`giants benchmark: the schema dumps are not in ${giantsDir} (TF_BRIDGE_GIANT_SCHEMAS names another directory); nothing measured`);
} else {
  // Ours as users run it: the packaged single executable, laid out as `pulumi plugin install` does.
  const packaged = join(extractPlugin(), "pulumi-resource-terraform-provider");
  const fmt = (n: number): string => n.toFixed(0).padStart(6);
  console.log(`giants benchmark: medians of ${RUNS} runs; start-up in ms (ours: the schema cached by an earlier start; first: not cached); peak RSS in MiB of the plugin process (its Terraform provider apart) and of the replay peer alone`);
  console.log(`  ${"provider".padEnd(11)} ${"ours".padStart(6)} ${"first".padStart(6)} ${"ref".padStart(6)} ${"replay".padStart(6)}  ${"÷ ref".padStart(6)}   ${"RSS ours".padStart(8)} ${"RSS ref".padStart(8)} ${"replay".padStart(6)}  ${"÷ ref".padStart(6)}`);
  for (const g of giants.filter((x) => wanted === undefined || wanted.includes(x.name))) {
    const ours: Sample[] = [];
    const ref: Sample[] = [];
    const direct: Sample[] = [];
    // Interleaved, one process at a time: the machine's load drifts, and two giants at once would share its memory.
    const first: Sample[] = [];
    // Served once, as an installed provider is: its path and file stay the same from one start to the next, so the
    // plugin's schema cache, filled by the first start, answers the later ones. "First start" runs with it off.
    const served = serveGiant(g);
    try {
      await plugin(served, packaged);
      for (let i = 0; i < RUNS; i++) {
        ours.push(await plugin(served, packaged));
        first.push(await plugin(served, packaged, { TF_BRIDGE_SCHEMA_CACHE: "0" }));
        ref.push(await plugin(served, referenceBin()));
        direct.push(await alone(served));
      }
    } finally {
      served.cleanup();
    }
    const ms = (xs: Sample[]): number[] => xs.map((x) => x.ms);
    const rss = (xs: Sample[]): number[] => xs.map((x) => x.rss);
    const [o, r, d] = [median(ms(ours)), median(ms(ref)), median(ms(direct))];
    const [ro, rr, rd] = [median(rss(ours)), median(rss(ref)), median(rss(direct))];
    console.log(`  ${g.name.padEnd(11)} ${fmt(o)} ${fmt(median(ms(first)))} ${fmt(r)} ${fmt(d)}  ${(o / r).toFixed(2).padStart(6)}   ${fmt(ro).padStart(8)} ${fmt(rr).padStart(8)} ${fmt(rd)}  ${(ro / rr).toFixed(2).padStart(6)}`);
    report({ scenario: `${g.name} (schema dump) start-up to GetSchema`, bridge: o, reference: r, direct: d, unit: "ms", bridgeRange: range(ms(ours)), referenceRange: range(ms(ref)), directRange: range(ms(direct)), key: { giant: g.name, measure: "start-up" } });
    report({ scenario: `${g.name} (schema dump) first start-up to GetSchema (schema not cached)`, bridge: median(ms(first)), reference: r, direct: d, unit: "ms", bridgeRange: range(ms(first)), referenceRange: range(ms(ref)), directRange: range(ms(direct)), key: { giant: g.name, measure: "first start-up" } });
    report({ scenario: `${g.name} (schema dump) plugin peak RSS`, bridge: ro, reference: rr, direct: rd, unit: "MiB", bridgeRange: range(rss(ours)), referenceRange: range(rss(ref)), directRange: range(rss(direct)), key: { giant: g.name, measure: "peak RSS" } });
  }
  saveBenchData("giants", { runs: RUNS, giants: giants.filter((x) => wanted === undefined || wanted.includes(x.name)).map((x) => x.name).join(",") });
}
