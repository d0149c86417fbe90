// Plugin startup as the engine sees it: spawn → port printed → Parameterize answered → GetSchema answered (medians of
// BENCH_RUNS, default 10, with their min–max), ours beside the reference's and the Terraform provider's own start; the
// summary rows go to docs/bench-data/startup.json for bench/plots.ts.
// BENCH_PROVIDERS=random,tls,local,big and BENCH_VARIANTS=packaged,reference,… (prefixes of the names below) run a subset.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { extractPlugin, packagedNode } from "../test/support/e2e.js";
import { peerPath, referenceBin, repoRoot } from "../test/support/peers.js";
import { argsRequest, startPluginProcess, PLUGIN_BIN } from "../test/support/pulumi.js";
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import { median, range, report, saveBenchData } from "./report.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 10);

interface Sample {
  port: number;
  parameterize: number;
  schema: number;
  schemaBytes: number;
}

async function once(bin: string, provider: string, env?: NodeJS.ProcessEnv, args?: string[]): Promise<Sample> {
  const t0 = performance.now();
  // The reference leaves its Terraform provider running when stopped; reap it so runs do not pile up processes.
  const plugin = await startPluginProcess({ bin, args, startTimeoutMs: 60_000, env: { ...process.env, ...env }, reapChildren: bin === referenceBin() });
  const tPort = performance.now();
  try {
    await plugin.call("Parameterize", argsRequest(peerPath(provider)));
    const tParam = performance.now();
    const res = await plugin.call("GetSchema", {});
    const tSchema = performance.now();
    return { port: tPort - t0, parameterize: tParam - t0, schema: tSchema - t0, schemaBytes: String(res["schema"]).length };
  } finally {
    await plugin.stop();
  }
}

/** The Terraform provider's own start: spawn, handshake, schema received (what Parameterize needs from it). */
async function direct(provider: string, env?: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(provider), env });
  await tf.getProviderSchema();
  const t = performance.now() - t0;
  await tf.close();
  return t;
}

// The packaged plugin exactly as `pulumi plugin install` lays it out: the tarball extracted into a directory.
const installed = extractPlugin();

// The linux-amd64 executable starts from its V8 startup snapshot (src/server/snapshot.ts). The other platforms'
// executables run the bundle with a V8 code cache (src/server/boot.ts): "code cache" is that path, in the same Node
// with the same flags, on this checkout's dist/ (the warm-up run writes the cache later runs use), and "no code cache"
// the same compiled from scratch at every start, as on their first start after installing.
const packaged = join(installed, "pulumi-resource-terraform-provider");
const node = packagedNode();
const boot = [...node.flags, join(repoRoot, "dist", "boot.cjs")];
const allVariants: { name: string; bin: string; args?: string[]; env?: NodeJS.ProcessEnv }[] = [
  { name: "packaged (snapshot)", bin: packaged },
  // The first start of a binary, or a provider run with the schema cache off: the provider started and asked its schema.
  { name: "packaged, schema cache off", bin: packaged, env: { TF_BRIDGE_SCHEMA_CACHE: "0" } },
  { name: "packaged Node, dist/boot.cjs (code cache)", bin: node.bin, args: boot },
  { name: "packaged Node, dist/boot.cjs, no code cache", bin: node.bin, args: boot, env: { TF_BRIDGE_COMPILE_CACHE: "0" } },
  // The same bundle on the `node` on PATH (the machine's Node 20), as the plugin ran before it was a single executable.
  { name: "node dist/boot.cjs", bin: process.execPath, args: [join(repoRoot, "dist", "boot.cjs")] },
  { name: "checkout (tsx)", bin: PLUGIN_BIN },
  { name: "reference (Go)", bin: referenceBin() },
];
const wantedVariants = process.env["BENCH_VARIANTS"]?.split(",");
// The packaged plugin and the reference always run: the summary rows compare those two (the plugin with the schema cache
// filled by the warm-up run, and without it where that variant runs).
const variants = allVariants.filter(
  (v) => wantedVariants === undefined || v.name === "packaged (snapshot)" || v.name === "reference (Go)" || wantedVariants.some((w) => v.name.startsWith(w)),
);

// The cached providers users start most, and one with the largest schema there is (AWS-sized: bridgetest serving 1,600
// schema-only resources and 650 data sources from a real provider process), where Parameterize also decodes and models
// that schema; for it only the packaged plugin is timed.
const allProviders: { key: string; label: string; peer: string; env?: Record<string, string>; onlyPackaged?: boolean }[] = [
  { key: "random", label: "random", peer: "random" },
  { key: "tls", label: "tls", peer: "tls" },
  { key: "local", label: "local", peer: "local" },
  {
    key: "big",
    label: "1,600-resource provider",
    peer: "bridgetest",
    env: { BRIDGETEST_SYNTHETIC_RESOURCES: "1600", BRIDGETEST_SYNTHETIC_DATA_SOURCES: "650" },
    onlyPackaged: true,
  },
];
const wantedProviders = process.env["BENCH_PROVIDERS"]?.split(",");
const providers = allProviders.filter((p) => wantedProviders === undefined || wantedProviders.includes(p.key));

const rows: string[][] = [];
for (const p of providers) {
  const timed: Record<string, Sample[]> = {};
  for (const v of variants.filter((x) => !p.onlyPackaged || x.name === "packaged (snapshot)" || x.name === "reference (Go)")) {
    const env = { ...v.env, ...p.env };
    await once(v.bin, p.peer, env, v.args); // warm the page cache, the code cache and tsx's transform cache
    const samples: Sample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await once(v.bin, p.peer, env, v.args));
    timed[v.name] = samples;
    rows.push([
      p.label,
      v.name,
      median(samples.map((s) => s.port)).toFixed(0),
      median(samples.map((s) => s.parameterize)).toFixed(0),
      median(samples.map((s) => s.schema)).toFixed(0),
      (samples[0]!.schemaBytes / 1024).toFixed(0),
    ]);
  }
  const ours = timed["packaged (snapshot)"]!;
  const ref = timed["reference (Go)"]!;
  const directs: number[] = [];
  for (let i = 0; i < RUNS; i++) directs.push(await direct(p.peer, p.env));
  const d = median(directs);
  const at = (xs: Sample[], k: keyof Sample): number => median(xs.map((s) => s[k]));
  const span = (xs: Sample[], k: keyof Sample): [number, number] | undefined => range(xs.map((s) => s[k]));
  const figures = (k: "parameterize" | "schema") => ({
    bridge: at(ours, k),
    reference: at(ref, k),
    direct: d,
    bridgeRange: span(ours, k),
    referenceRange: span(ref, k),
    directRange: range(directs),
  });
  report({ scenario: `start → Parameterize answered (${p.label}, packaged)`, ...figures("parameterize"), unit: "ms", target: "< direct + 300 ms", key: { provider: p.key, measure: "Parameterize" } });
  report({ scenario: `start → GetSchema answered (${p.label}, packaged)`, ...figures("schema"), unit: "ms", key: { provider: p.key, measure: "start-up" } });
  const first = timed["packaged, schema cache off"];
  if (first !== undefined) {
    report({ scenario: `start → GetSchema answered (${p.label}, packaged, schema not cached)`, ...figures("schema"), bridge: at(first, "schema"), bridgeRange: span(first, "schema"), unit: "ms", key: { provider: p.key, measure: "first start-up" } });
  }
}

const header = ["provider", "plugin", "port printed ms", "Parameterize answered ms", "GetSchema answered ms", "schema KiB"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
console.log(`plugin startup, medians of ${RUNS} (times from spawn)`);
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
rmSync(installed, { recursive: true, force: true });
saveBenchData("startup", { runs: RUNS, providers: providers.map((p) => p.key).join(","), variants: variants.map((v) => v.name).join("; ") });
