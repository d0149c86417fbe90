// Per-operation overhead: create+delete of N resources through our plugin's gRPC server (the calls the engine makes:
// Check, Create, Delete) versus the same plan/apply calls sent straight to the Terraform provider. Medians per op.
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import { completeObject } from "../src/terraform/values.js";
import type { CtyValue } from "../src/terraform/cty/index.js";
import { propertyMapToStruct } from "../src/server/struct.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { peerPath, repoRoot } from "../test/support/peers.js";
import { argsRequest, startPluginProcess, type Msg } from "../test/support/pulumi.js";
import { median, report } from "./report.js";

const N = Number(process.env["BENCH_OPS"] ?? 1_000);
const bundle = join(repoRoot, "dist", "plugin.mjs");
if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run package\` first`);

interface Case {
  peer: string;
  tfType: string;
  token: string;
  inputs: (i: number) => Record<string, CtyValue>;
  pulumiInputs: (i: number) => Record<string, string | number | boolean>;
  env?: Record<string, string>;
}

const cases: Case[] = [
  { peer: "random", tfType: "random_id", token: "random:index/id:Id", inputs: () => ({ byte_length: 8 }), pulumiInputs: () => ({ byteLength: 8 }) },
  {
    peer: "bridgetest",
    tfType: "bridgetest_object",
    token: "bridgetest:index/objectResource:ObjectResource",
    inputs: (i) => ({ name: `o${i}` }),
    pulumiInputs: (i) => ({ name: `o${i}` }),
    env: { BRIDGETEST_STATE_DIR: `/tmp/tfbridge-overhead-${process.pid}` },
  },
];


async function direct(c: Case): Promise<{ create: number[]; del: number[] }> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(c.peer), env: c.env });
  const schema = await tf.getProviderSchema();
  await tf.configureProvider(completeObject(schema.provider.block, {}));
  const block = schema.resources.get(c.tfType)!.block;
  const create: number[] = [];
  const del: number[] = [];
  for (let i = 0; i < N; i++) {
    const config = completeObject(block, c.inputs(i));
    let t = performance.now();
    // Terraform validates a resource's configuration before planning it, as the bridge's Check does.
    await tf.validateResourceConfig(c.tfType, config);
    const plan = await tf.planResourceChange({ typeName: c.tfType, priorState: null, proposedNewState: config, config });
    const applied = await tf.applyResourceChange({ typeName: c.tfType, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    create.push(performance.now() - t);
    t = performance.now();
    // Terraform upgrades stored state before using it; the bridge does the same, so the direct path does too.
    const up = await tf.upgradeResourceState({ typeName: c.tfType, version: schema.resources.get(c.tfType)!.version, rawStateJson: JSON.stringify(applied.newState) });
    const dplan = await tf.planResourceChange({ typeName: c.tfType, priorState: up.upgradedState, proposedNewState: null, config: null, priorPrivate: applied.private });
    await tf.applyResourceChange({ typeName: c.tfType, priorState: up.upgradedState, plannedState: null, config: null, plannedPrivate: dplan.plannedPrivate });
    del.push(performance.now() - t);
  }
  await tf.close();
  return { create, del };
}

async function bridged(c: Case): Promise<{ create: number[]; del: number[] }> {
  // The packaged bundle, as users run it (`npm run package` first); BENCH_PROFILE_DIR=<dir> writes a CPU profile of
  // the plugin process there (node --cpu-prof), for finding hot spots.
  const profile = process.env["BENCH_PROFILE_DIR"];
  const nodeArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const plugin = await startPluginProcess({ bin: process.execPath, args: [...nodeArgs, bundle], env: { ...process.env, ...c.env } });
  await plugin.call("Parameterize", argsRequest(peerPath(c.peer)));
  await plugin.call("Configure", { args: propertyMapToStruct({}), acceptSecrets: true, acceptResources: true });
  const create: number[] = [];
  const del: number[] = [];
  for (let i = 0; i < N; i++) {
    const urn = `urn:pulumi:bench::bench::${c.token}::r${i}`;
    const news = propertyMapToStruct(c.pulumiInputs(i));
    let t = performance.now();
    const checked = await plugin.call("Check", { urn, type: c.token, name: `r${i}`, olds: propertyMapToStruct({}), news, randomSeed: Buffer.alloc(0) });
    const created = await plugin.call("Create", { urn, type: c.token, name: `r${i}`, properties: checked["inputs"] as Msg, preview: false, timeout: 0 });
    create.push(performance.now() - t);
    t = performance.now();
    await plugin.call("Delete", { urn, type: c.token, name: `r${i}`, id: created["id"], properties: created["properties"] as Msg, timeout: 0 });
    del.push(performance.now() - t);
  }
  await plugin.stop();
  return { create, del };
}

const rows = [["resource", "op", "direct ms", "bridge ms", "added ms", "ratio"]];
for (const c of cases) {
  const d = await direct(c);
  const b = await bridged(c);
  for (const [op, dx, bx] of [["create", d.create, b.create], ["delete", d.del, b.del]] as const) {
    const dm = median(dx);
    const bm = median(bx);
    rows.push([c.tfType, op, dm.toFixed(3), bm.toFixed(3), (bm - dm).toFixed(3), (bm / dm).toFixed(2)]);
    report({ scenario: `${op} ${c.tfType} (per op)`, bridge: bm, direct: dm, unit: "ms", target: "< direct + 1 ms" });
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`per-operation overhead: medians over ${N} create+delete cycles (bridge: Check+Create and Delete over gRPC, as the engine calls them)`);
for (const r of rows) console.log(r.map((x, i) => x.padEnd(widths[i]!)).join("  "));
