// Per-operation overhead: Check, Create, Update, Read and Delete of N resources through our plugin's gRPC server (the
// calls the engine makes for `pulumi up`, `pulumi refresh` and `pulumi destroy`) versus the same validate/plan/apply/read
// calls sent straight to the Terraform provider, and versus the reference bridge. Medians per op, with the min–max of
// the rounds' medians.
// The engine's side of the hop is the engine's own stack: pulumi-engineclient (grpc-go + the pulumirpc stubs of the
// pinned SDK, test/peers/pulumi/engineclient) sends the calls. The same cycle from a Node.js gRPC client is shown too:
// that client costs more per call than Pulumi's, so its figure bounds the overhead from above. The reference bridge
// (Pulumi's Go implementation) runs the same cycles from the same engine client, for the reference column.
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import { completeObject, proposedNewState } from "../src/terraform/values.js";
import type { CtyValue } from "../src/terraform/cty/index.js";
import type { Diagnostic } from "../src/terraform/types.js";
import { propertyMapToStruct } from "../src/server/struct.js";
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { extractPlugin } from "../test/support/e2e.js";
import { peerPath, referenceBin, repoRoot } from "../test/support/peers.js";
import { argsRequest, startPluginProcess, type Msg, type PluginProcess } from "../test/support/pulumi.js";
import { pulumiBin } from "../test/support/pulumi-tools.js";
import { median, range, report, saveBenchData } from "./report.js";

const N = Number(process.env["BENCH_OPS"] ?? 1_000);
// The cycles run in rounds, each round doing direct, grpc-go and grpc-js in turn on the same long-lived processes, so
// that drift of the machine (other load, page cache, the provider's own state files) falls on all three alike.
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const PER_ROUND = Math.ceil(N / ROUNDS);
const WARMUP = 50;
// The packaged plugin as users run it (the single executable), extracted from the tarball into a private directory.
const installed = extractPlugin();
const launcher = join(installed, "pulumi-resource-terraform-provider");

/** Milliseconds per cycle of each operation; create includes its Check, update its Check and Diff (engine steps). */
type Cycles = { check: number[]; create: number[]; update: number[]; read: number[]; del: number[] };
const OPS = ["check", "create", "update", "read", "del"] as const;
const none = (): Cycles => ({ check: [], create: [], update: [], read: [], del: [] });

interface Case {
  peer: string;
  tfType: string;
  token: string;
  inputs: (i: number) => Record<string, CtyValue>;
  /** Pulumi inputs of cycle i; "%d" in a string stands for i (the Go client fills it in the same way). */
  pulumiInputs: Record<string, string | number | boolean>;
  /** An in-place change made by each cycle's update (Terraform inputs, and the same as Pulumi inputs); none when every
   * attribute forces replacement. */
  update?: { inputs: (i: number) => Record<string, CtyValue>; pulumiInputs: Case["pulumiInputs"] };
  /** The reference's token where it differs from ours (test/interchange/schema-differences.json). */
  referenceToken?: string;
  env?: Record<string, string>;
}

const cases: Case[] = [
  { peer: "random", tfType: "random_id", token: "random:index/id:Id", inputs: () => ({ byte_length: 8 }), pulumiInputs: { byteLength: 8 } },
  {
    peer: "bridgetest",
    tfType: "bridgetest_object",
    token: "bridgetest:index/objectResource:ObjectResource",
    referenceToken: "bridgetest:index/object:Object",
    inputs: (i) => ({ name: `o${i}` }),
    pulumiInputs: { name: "o%d" },
    update: { inputs: (i) => ({ name: `o${i}`, int_value: 2 }), pulumiInputs: { name: "o%d", intValue: 2 } },
    env: { BRIDGETEST_STATE_DIR: `/tmp/tfbridge-overhead-${process.pid}` },
  },
];


/** A session runs n create[+update][+read]+delete cycles at a time, on processes started once (so rounds interleave, warm). */
interface Session {
  run(n: number): Promise<Cycles>;
  close(): Promise<void>;
}

/** Terraform's calls for the same cycle, sent straight to the provider by our client. */
async function directSession(c: Case): Promise<Session> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(c.peer), env: c.env });
  const schema = await tf.getProviderSchema();
  // A call that answered with errors would time a failure, not the work: every direct answer is checked.
  const ok = <T extends { diagnostics: readonly Diagnostic[] }>(what: string, r: T): T => {
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`direct ${c.tfType} ${what}: ${errors.map((d) => `${d.summary}: ${d.detail}`).join("; ")}`);
    return r;
  };
  ok("configure", { diagnostics: await tf.configureProvider(completeObject(schema.provider.block, {})) });
  const resource = schema.resources.get(c.tfType)!;
  const run = async (n: number): Promise<Cycles> => {
    const out = none();
    for (let i = 0; i < n; i++) {
      const config = completeObject(resource.block, c.inputs(i));
      let t = performance.now();
      // Terraform validates a resource's configuration before planning it, as the bridge's Check does.
      ok("validate", { diagnostics: await tf.validateResourceConfig(c.tfType, config) });
      out.check.push(performance.now() - t);
      const plan = ok("plan", await tf.planResourceChange({ typeName: c.tfType, priorState: null, proposedNewState: config, config }));
      const applied = ok("apply", await tf.applyResourceChange({ typeName: c.tfType, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate }));
      out.create.push(performance.now() - t);
      let state = applied.newState;
      let priv = applied.private;
      // Terraform upgrades stored state before using it; the bridge does the same, so the direct path does too.
      const upgrade = async () => ok("upgrade", await tf.upgradeResourceState({ typeName: c.tfType, version: resource.version, rawStateJson: JSON.stringify(state) })).upgradedState;
      if (c.update) {
        const next = completeObject(resource.block, c.update.inputs(i));
        t = performance.now();
        ok("validate", { diagnostics: await tf.validateResourceConfig(c.tfType, next) });
        const prior = await upgrade();
        const uplan = ok("plan", await tf.planResourceChange({ typeName: c.tfType, priorState: prior, proposedNewState: proposedNewState(resource.block, prior, next), config: next, priorPrivate: priv }));
        const updated = ok("apply", await tf.applyResourceChange({ typeName: c.tfType, priorState: prior, plannedState: uplan.plannedState, config: next, plannedPrivate: uplan.plannedPrivate }));
        out.update.push(performance.now() - t);
        state = updated.newState;
        priv = updated.private;
      }
      t = performance.now();
      const read = ok("read", await tf.readResource({ typeName: c.tfType, currentState: await upgrade(), private: priv }));
      out.read.push(performance.now() - t);
      state = read.newState;
      priv = read.private;
      t = performance.now();
      const up = await upgrade();
      // Terraform plans a deletion only with providers that declare the plan_destroy capability; so does the bridge.
      let plannedPrivate = priv;
      if (schema.serverCapabilities.planDestroy) {
        const dplan = ok("plan destroy", await tf.planResourceChange({ typeName: c.tfType, priorState: up, proposedNewState: null, config: null, priorPrivate: priv }));
        plannedPrivate = dplan.plannedPrivate;
      }
      ok("destroy", await tf.applyResourceChange({ typeName: c.tfType, priorState: up, plannedState: null, config: null, plannedPrivate }));
      out.del.push(performance.now() - t);
    }
    return out;
  };
  return { run, close: () => tf.close() };
}

const fill = (inputs: Case["pulumiInputs"], i: number): Case["pulumiInputs"] =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, typeof v === "string" ? v.replaceAll("%d", String(i)) : v]));

/** The reference bridge, parameterized and configured as ours, driven by the engine's client with its own token. */
async function referenceSession(c: Case): Promise<Session> {
  // Stopped, the reference leaves its Terraform provider running; reap it.
  const plugin = await startPluginProcess({ bin: referenceBin(), env: { ...process.env, ...c.env }, reapChildren: true });
  await plugin.call("Parameterize", argsRequest(peerPath(c.peer)));
  await plugin.call("Configure", { args: propertyMapToStruct({}), acceptSecrets: true, acceptResources: true });
  const client = goEngine({ ...c, token: c.referenceToken ?? c.token });
  return { run: (n) => client(plugin, n), close: () => plugin.stop() };
}

/** The plugin as users run it (the packaged bundle), parameterized and configured, driven by `client`. */
async function bridgeSession(c: Case, client: (plugin: PluginProcess, n: number) => Promise<Cycles>): Promise<Session> {
  // BENCH_PROFILE_DIR=<dir> writes a CPU profile of the plugin process there, to find hot spots. Node refuses
  // --cpu-prof in NODE_OPTIONS, so then node runs the checkout's dist/boot.cjs (the same bundle the single executable
  // carries, left there by scripts/package.sh) itself, as the executable would (it adds no flags).
  const profile = process.env["BENCH_PROFILE_DIR"];
  const start = profile
    ? { bin: process.execPath, args: ["--cpu-prof", `--cpu-prof-dir=${profile}`, join(repoRoot, "dist", "boot.cjs")] }
    : { bin: launcher };
  const plugin = await startPluginProcess({ ...start, env: { ...process.env, ...c.env } });
  await plugin.call("Parameterize", argsRequest(peerPath(c.peer)));
  await plugin.call("Configure", { args: propertyMapToStruct({}), acceptSecrets: true, acceptResources: true });
  return { run: (n) => client(plugin, n), close: () => plugin.stop() };
}

/** Check+Create, Check+Diff+Update, Read and Delete from the engine's own gRPC client stack (grpc-go), as `pulumi up`,
 * `pulumi refresh` and `pulumi destroy` send them. */
const goEngine = (c: Case) => async (plugin: PluginProcess, n: number): Promise<Cycles> => {
  const args = ["-port", String(plugin.port), "-token", c.token, "-inputs", JSON.stringify(c.pulumiInputs), "-n", String(n), "-read"];
  if (c.update) args.push("-update", JSON.stringify(c.update.pulumiInputs));
  const { stdout } = await promisify(execFile)(join(pulumiBin(), "pulumi-engineclient"), args, { maxBuffer: 64 * 1024 * 1024 });
  const out = JSON.parse(stdout) as { check: number[]; create: number[]; update?: number[]; read?: number[]; delete: number[] };
  return { check: out.check, create: out.create, update: out.update ?? [], read: out.read ?? [], del: out.delete };
};

/** Create and delete from a Node.js gRPC client (@grpc/grpc-js), whose own per-call cost is higher than the engine's. */
const nodeClient = (c: Case) => async (plugin: PluginProcess, n: number): Promise<Cycles> => {
  const { check, create, del } = none();
  for (let i = 0; i < n; i++) {
    const urn = `urn:pulumi:bench::bench::${c.token}::r${i}`;
    const news = propertyMapToStruct(fill(c.pulumiInputs, i));
    let t = performance.now();
    const checked = await plugin.call("Check", { urn, type: c.token, name: `r${i}`, olds: propertyMapToStruct({}), news, randomSeed: Buffer.alloc(0) });
    check.push(performance.now() - t);
    const created = await plugin.call("Create", { urn, type: c.token, name: `r${i}`, properties: checked["inputs"] as Msg, preview: false, timeout: 0 });
    create.push(performance.now() - t);
    t = performance.now();
    await plugin.call("Delete", { urn, type: c.token, name: `r${i}`, id: created["id"], properties: created["properties"] as Msg, timeout: 0 });
    del.push(performance.now() - t);
  }
  return { ...none(), check, create, del };
};

const rows = [["resource", "op", "engine client", "direct ms", "bridge ms", "added ms", "ratio"]];
const opName = { check: "check", create: "create", update: "update", read: "read", del: "delete" } as const;
const opWhat = {
  check: "Check; direct: ValidateResourceConfig",
  create: "Check+Create; direct: validate, plan, apply",
  update: "Check+Diff+Update; direct: validate, upgrade, plan, apply",
  read: "Read; direct: upgrade, ReadResource",
  del: "Delete; direct: upgrade, plan, apply",
} as const;
// BENCH_CASES=random_id,… limits the run to some of the cases (by Terraform type).
const only = process.env["BENCH_CASES"]?.split(",");
for (const c of cases.filter((x) => only === undefined || only.includes(x.tfType))) {
  const sessions = [await directSession(c), await bridgeSession(c, goEngine(c)), await bridgeSession(c, nodeClient(c)), await referenceSession(c)];
  // Every sample, and each round's median (whose spread is the range the summary shows).
  const all = sessions.map(none);
  const rounds = sessions.map(none);
  // Unrecorded warm-up: the first cycles of a process pay for JIT compilation and connection set-up.
  for (const s of sessions) await s.run(WARMUP);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, s] of sessions.entries()) {
      const got = await s.run(PER_ROUND);
      for (const op of OPS) {
        all[k]![op].push(...got[op]);
        if (got[op].length) rounds[k]![op].push(median(got[op]));
      }
    }
  }
  for (const s of sessions) await s.close();
  const [d, viaGo, viaNode, viaRef] = all as [Cycles, Cycles, Cycles, Cycles];
  for (const op of OPS) {
    if (d[op].length === 0) continue;
    const dm = median(d[op]);
    for (const [client, bx] of [["grpc-go (engine)", viaGo[op]], ["grpc-js", viaNode[op]], ["reference, grpc-go", viaRef[op]]] as const) {
      if (bx.length === 0) continue;
      const bm = median(bx);
      rows.push([c.tfType, opName[op], client, dm.toFixed(3), bm.toFixed(3), (bm - dm).toFixed(3), (bm / dm).toFixed(2)]);
    }
    report({
      scenario: `${opName[op]} ${c.tfType} (per op: ${opWhat[op]})`,
      bridge: median(viaGo[op]),
      reference: median(viaRef[op]),
      direct: dm,
      bridgeRange: range(rounds[1]![op]),
      referenceRange: range(rounds[3]![op]),
      directRange: range(rounds[0]![op]),
      unit: "ms",
      target: "< direct + 1 ms",
      key: { resource: c.tfType, op: opName[op] },
    });
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`per-operation overhead: medians over ${PER_ROUND * ROUNDS} cycles in ${ROUNDS} rounds (bridge: Check+Create, Check+Diff+Update, Read and Delete over gRPC, as the engine calls them)`);
for (const r of rows) console.log(r.map((x, i) => x.padEnd(widths[i]!)).join("  "));
saveBenchData("overhead", { cycles: PER_ROUND * ROUNDS, rounds: ROUNDS, cases: (only ?? cases.map((c) => c.tfType)).join(",") });
rmSync(installed, { recursive: true, force: true });
for (const c of cases) if (c.env?.["BRIDGETEST_STATE_DIR"]) rmSync(c.env["BRIDGETEST_STATE_DIR"], { recursive: true, force: true });
