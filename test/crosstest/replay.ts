// Replays the oracle corpus through our plugin's gRPC as the engine calls it and lists every place our answer differs
// from OpenTofu's recorded one (action, detailed diff, state after create/update, refresh, import).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess, type CallError, type PluginProcess } from "../support/pulumi.js";
import { fromStruct, toStruct as plainStruct, toWire, type Json } from "../support/reference-ops.js";
import { PEER, loadCases, loadGolden, loadPeerCorpus, loadShapes, type Case, type Flavour, type Golden, type PeerCase, type Value } from "./corpus.js";
import { blockNode, nullBlocksEmpty, pulumiToTf, pulumiToTfPath, shapeNode, tfToPulumi, valueDifferences, withPulumiNames, type Node } from "./paths.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import type { DataSourceModel, PropertyModel, ResourceModel } from "../../src/schema-translate/model.js";
import type { Block } from "../../src/terraform/types.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { serveGiant, type Giant } from "../support/giants.js";
import { bundlePath, loadBundle } from "./giants.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SIG = "4dabf18193072939515e22adb298388d";

export type DisagreementKind = "check" | "create" | "state1" | "action" | "replace-order" | "detailed-diff" | "output-diff" | "update" | "state2" | "refresh" | "import";

export interface Disagreement {
  id: string;
  kind: DisagreementKind;
  detail: string;
}

export interface ReplayResult {
  cases: number;
  /** Cases whose configuration OpenTofu refused (its errors recorded in the golden): ours must refuse them too. */
  refused: string[];
  disagreements: Disagreement[];
}

type Props = Record<string, Json>;

/** A decoded property map back on the wire: secrets and unknowns in their engine forms. */
const toStruct = (p: Props): Record<string, unknown> => plainStruct(toWire(p) as Props);

/** Secrets unwrapped: the comparison is of values; whether a value is secret is the secrets tests' business. */
function plain(v: Json): Json {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    if (v[SIG] !== undefined) return plain(v["value"] ?? null);
    if ("<secret>" in v && Object.keys(v).length === 1) return plain(v["<secret>"] ?? null);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

const withoutId = (node: Node): Node => (node.kind === "object" ? { kind: "object", fields: Object.fromEntries(Object.entries(node.fields).filter(([k]) => k !== "id")) } : node);

type Action = "none" | "update" | "replace";
function tfAction(actions: string[]): { action: Action; deleteFirst: boolean } {
  const a = actions.join(",");
  if (a === "no-op" || a === "read" || a === "") return { action: "none", deleteFirst: false };
  if (a === "update") return { action: "update", deleteFirst: false };
  return { action: "replace", deleteFirst: a === "delete,create" };
}

const DIFF_KINDS = ["add", "add-replace", "delete", "delete-replace", "update", "update-replace"];
const fillIn = (text: string, placeholders: [string, string][]): string => placeholders.reduce((t, [k, v]) => t.split(k).join(v), text);

function kindName(k: unknown): string {
  if (typeof k === "number") return DIFF_KINDS[k]!;
  if (k === undefined || k === null) return "add";
  return String(k).toLowerCase().replace("_", "-");
}

/** The plugin's model of every shape resource, read from the provider's own schema (for Pulumi names and tokens). */
export async function shapeModels(flavour: Flavour, env: Record<string, string>): Promise<Map<string, ResourceModel>> {
  const provider = await GrpcTerraformProvider.launch({ path: peerPath(PEER[flavour]), env });
  try {
    return buildProviderModel(await provider.getProviderSchema(), { packageName: PEER[flavour], packageVersion: "0.0.0" }).resources;
  } finally {
    await provider.close();
  }
}

/** A shape's type tree with the Pulumi names the model gives its fields. */
export function namedShapeNode(flavour: Flavour, shape: string, models: Map<string, ResourceModel>): Node {
  const n = shapeNode(loadShapes(flavour)[shape]!, flavour);
  const model = models.get(`${PEER[flavour]}_${shape}`);
  if (model === undefined) throw new Error(`no resource ${PEER[flavour]}_${shape} in the provider's schema`);
  withPulumiNames(n, model.properties);
  return n;
}

/** Terraform's path strings and kinds for a Pulumi detailed diff (`vs[0]` → `v[0]:add`). */
export function detailedDiffPaths(node: Node, detailed: Record<string, { kind?: unknown }>): Set<string> {
  return new Set(Object.entries(detailed).map(([p, d]) => `${pulumiToTfPath(node, p)}:${kindName(d.kind)}`));
}

/** Terraform's changed paths as `path:kind[-replace]`. */
export function goldenPaths(golden: Golden): Set<string> {
  return new Set(golden.plan.changed.map((x) => `${x.path}:${x.kind}${x.replace ? "-replace" : ""}`));
}

/** What a replay runs against: one plugin parameterized with one provider, and how its cases map to that provider. */
interface Subject {
  /** The golden folder: a flavour, or `peers`. */
  goldens: Flavour | "peers";
  cases: AnyCase[];
  /** The Terraform resource type of a case's shape. */
  typeOf(shape: string): string;
  /** The shape's type tree before Pulumi names are put on it. */
  tree(shape: string): Node;
  models: Map<string, ResourceModel>;
  /** Run-time placeholders (`{dir}`) and their values in cases and goldens. */
  placeholders: [string, string][];
  /** A case's golden where it is not a `golden/<goldens>/` file (the giants' bundles). */
  golden?: (id: string) => Golden | undefined;
  /** Fields every Check request carries (the giants disable autonaming, as `pulumi:autonaming` mode `disabled` does). */
  check?: Record<string, unknown>;
  /** The provider's data sources, by Terraform name: their model and their schema's type tree (Pulumi names on it). */
  dataSources?: Map<string, { model: DataSourceModel; node: Node }>;
}

type AnyCase = Case | PeerCase;

/** A real peer's provider schema, from a provider started for that alone. */
async function peerSchema(peer: string): Promise<Awaited<ReturnType<GrpcTerraformProvider["getProviderSchema"]>>> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(peer) });
  try {
    return await p.getProviderSchema();
  } finally {
    await p.close();
  }
}

export class Replayer {
  private constructor(
    private readonly plugin: PluginProcess,
    private readonly subject: Subject,
    private readonly dir: string,
  ) {}

  private readonly nodes = new Map<string, Node>();

  /** The shape's type tree, named as the plugin's model names it. */
  private node(shape: string): Node {
    let n = this.nodes.get(shape);
    if (n === undefined) {
      n = this.subject.tree(shape);
      const model = this.subject.models.get(this.subject.typeOf(shape));
      if (model === undefined) throw new Error(`no resource ${this.subject.typeOf(shape)} in the provider's schema`);
      withPulumiNames(n, model.properties);
      this.nodes.set(shape, n);
    }
    return n;
  }

  /** A plugin parameterized with `peer` and configured with `config` (Terraform names), in its own scratch folder. */
  private static async launch(peer: string, dir: string, env: Record<string, string>, config: Record<string, Value>, subject: (models: Map<string, ResourceModel>, providerConfig: PropertyModel[], dataSources: Map<string, DataSourceModel>) => Subject, path = peerPath(peer)): Promise<Replayer> {
    const provider = await GrpcTerraformProvider.launch({ path, env });
    let model: ReturnType<typeof buildProviderModel>;
    let configBlock: Block;
    try {
      const schema = await provider.getProviderSchema();
      model = buildProviderModel(schema, { packageName: peer, packageVersion: "0.0.0" });
      configBlock = schema.provider.block;
    } finally {
      await provider.close();
    }
    const plugin = await startPluginProcess({ env: { ...process.env, ...env } });
    try {
      await plugin.call("Parameterize", argsRequest(path));
      const configNode = blockNode(configBlock);
      withPulumiNames(configNode, model.config);
      const args = tfToPulumi(configNode, config, (m) => m.value) as Props;
      await plugin.call("Configure", { args: toStruct(args), acceptSecrets: true, acceptResources: true });
      return new Replayer(plugin, subject(model.resources, model.config, model.dataSources), dir);
    } catch (e) {
      await plugin.stop();
      throw e;
    }
  }

  static async start(flavour: Flavour): Promise<Replayer> {
    const dir = mkdtempSync(join(tmpdir(), `crosstest-replay-${flavour}-`));
    const schemaFile = join(dir, "shapes.json");
    const shapes = loadShapes(flavour);
    writeFileSync(schemaFile, JSON.stringify({ resources: shapes }));
    const env = { SHAPES_SCHEMA: schemaFile, SHAPES_STORE: join(dir, "store") };
    return Replayer.launch(PEER[flavour], dir, env, {}, (models) => ({
      goldens: flavour,
      cases: loadCases(flavour),
      typeOf: (shape) => `${PEER[flavour]}_${shape}`,
      tree: (shape) => shapeNode(shapes[shape]!, flavour),
      models,
      placeholders: [],
    }));
  }

  /** One real peer's cases of the peers corpus; `httpapi` is the loopback service httpapi's cases need. */
  static async startPeer(peer: string, httpapi?: { url: string; token: string }): Promise<Replayer> {
    const dir = mkdtempSync(join(tmpdir(), `crosstest-replay-${peer}-`));
    mkdirSync(join(dir, "files"));
    const corpus = loadPeerCorpus();
    const placeholders: [string, string][] = [["{dir}", join(dir, "files")], ["{httpapi_token}", httpapi?.token ?? ""], ["{httpapi}", httpapi?.url ?? ""]];
    const config = JSON.parse(fillIn(JSON.stringify(corpus.providers[peer] ?? {}), placeholders)) as Record<string, Value>;
    const schema = await peerSchema(peer);
    return Replayer.launch(peer, dir, {}, config, (models) => ({
      goldens: "peers",
      cases: corpus.cases.filter((c) => c.peer === peer),
      typeOf: (shape) => shape,
      tree: (shape) => blockNode(schema.resources.get(shape)!.block),
      models,
      placeholders,
    }));
  }

  /**
   * Cases on a real provider answered live rather than from the recorded corpus (a Docker engine's objects): `goldens`
   * holds OpenTofu's answer for each case id, `config` the provider's configuration (Terraform names).
   */
  static async startLive(peer: string, cases: PeerCase[], goldens: Record<string, Golden>, config: Record<string, Value>): Promise<Replayer> {
    const dir = mkdtempSync(join(tmpdir(), `crosstest-live-${peer}-`));
    const schema = await peerSchema(peer);
    return Replayer.launch(peer, dir, {}, config, (models, _config, dataSources) => ({
      goldens: "peers",
      cases,
      typeOf: (shape) => shape,
      tree: (shape) => blockNode(schema.resources.get(shape)!.block),
      models,
      placeholders: [],
      golden: (id) => goldens[id],
      dataSources: new Map(
        [...dataSources].map(([name, model]) => {
          const node = blockNode(schema.dataSources.get(name)!.block);
          withPulumiNames(node, model.properties);
          return [name, { model, node }];
        }),
      ),
    }));
  }

  /**
   * One giant's recorded corpus (test/crosstest/giants.ts): its dump served by the replay peer under the giant's name,
   * the plugin parameterized with it, the cases and goldens read from the giant's bundle.
   */
  static async startGiant(g: Giant): Promise<Replayer> {
    const bundle = loadBundle(g);
    if (bundle === undefined) throw new Error(`no recorded corpus for ${g.name} at ${bundlePath(g)}: run \`npm run crosstest:record -- giants ${g.name}\``);
    const dir = mkdtempSync(join(tmpdir(), `crosstest-replay-${g.name}-`));
    const served = serveGiant(g, dir);
    const env = { REPLAY_SCHEMA: served.env["REPLAY_SCHEMA"]!, REPLAY_STORE: served.env["REPLAY_STORE"]! };
    const schema = await (async () => {
      const p = await GrpcTerraformProvider.launch({ path: served.binary, env });
      try {
        return await p.getProviderSchema();
      } finally {
        await p.close();
      }
    })();
    return Replayer.launch(
      g.name,
      dir,
      env,
      {},
      (models) => ({
        goldens: "peers",
        cases: bundle.cases,
        typeOf: (shape) => shape,
        tree: (shape) => blockNode(schema.resources.get(shape)!.block),
        models,
        placeholders: [],
        golden: (id) => bundle.goldens[id],
        // Terraform has no autonaming: an optional `name` left out stays null there, so the comparison is without it.
        check: { autonaming: { proposed_name: "", mode: "DISABLE" } },
      }),
      served.binary,
    );
  }

  /**
   * A data source read through the plugin's Invoke, as a program's `get…` function reads it: `args` and the answer in
   * Terraform's names (the answer's id aside), or the Invoke's error or failures as text.
   */
  async readDataSource(tfName: string, args: Record<string, Value>): Promise<{ value: Record<string, Value> } | { error: string }> {
    const ds = this.subject.dataSources?.get(tfName);
    if (ds === undefined) throw new Error(`no data source ${tfName} in the provider's schema`);
    const call = await this.call("Invoke", { tok: ds.model.token, args: toStruct(tfToPulumi(ds.node, args, (m) => m.value) as Props) });
    if (call.error !== undefined) return { error: call.error };
    const failures = (call.ok["failures"] as { property: string; reason: string }[] | undefined) ?? [];
    if (failures.length > 0) return { error: failures.map((f) => `${f.property}: ${f.reason}`).join("; ") };
    const out = fromStruct(call.ok["return"] as Record<string, unknown>) as Props;
    return { value: nullBlocksEmpty(ds.node, pulumiToTf(ds.node, plain(out))) as Record<string, Value> };
  }

  /** Where a data source's answer (Terraform names) differs from OpenTofu's. */
  dataSourceDifferences(tfName: string, ours: Record<string, Value>, theirs: Record<string, Value>): string[] {
    const ds = this.subject.dataSources?.get(tfName);
    if (ds === undefined) throw new Error(`no data source ${tfName} in the provider's schema`);
    return valueDifferences(ds.node, ours, nullBlocksEmpty(ds.node, theirs));
  }

  async stop(): Promise<void> {
    await this.plugin.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Every case with a golden, `concurrency` at a time. */
  async replayAll(filter: (c: AnyCase) => boolean = () => true, concurrency = 6): Promise<ReplayResult> {
    const cases = this.subject.cases.filter(filter).map((c) => JSON.parse(fillIn(JSON.stringify(c), this.subject.placeholders)) as AnyCase);
    const result: ReplayResult = { cases: 0, refused: [], disagreements: [] };
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const recorded = this.subject.golden !== undefined ? this.subject.golden(c.id) : loadGolden(this.subject.goldens, c.id);
        if (recorded === undefined) throw new Error(`no golden for ${this.subject.goldens} case ${c.id}: run \`npm run crosstest:record\``);
        const golden = JSON.parse(fillIn(JSON.stringify(recorded), this.subject.placeholders)) as Golden;
        if (golden.errors !== undefined) {
          // A configuration OpenTofu refuses must be refused here too, before anything is created.
          result.refused.push(c.id);
          result.disagreements.push(...(await this.refuse(c, golden.errors)));
          continue;
        }
        result.cases++;
        result.disagreements.push(...(await this.replay(c, golden)));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    result.disagreements.sort((a, b) => (a.id === b.id ? a.kind.localeCompare(b.kind) : a.id.localeCompare(b.id)));
    return result;
  }

  private token(c: AnyCase): string {
    const model = this.subject.models.get(this.subject.typeOf(c.shape));
    if (model === undefined) throw new Error(`no resource token for ${c.shape}`);
    return model.token;
  }

  /** A call's answer, or its gRPC error as text (a disagreement to report, not a test crash). */
  private async call(method: string, request: Record<string, unknown>): Promise<{ ok: Record<string, unknown>; error?: undefined } | { error: string }> {
    try {
      return { ok: await this.plugin.call(method, request) };
    } catch (e) {
      const err = e as CallError;
      if (typeof (e as { code?: unknown }).code !== "number") throw e;
      return { error: `${method}: ${err.details}` };
    }
  }

  /** Check, then a Create of what it accepted: one of them must fail where OpenTofu's validation did. */
  private async refuse(c: AnyCase, errors: string[]): Promise<Disagreement[]> {
    const node = this.node(c.shape);
    const type = this.token(c);
    const base = { urn: `urn:pulumi:crosstest::crosstest::${type}::${c.id}`, type, name: c.id };
    const cfg = errors.some((e) => e.startsWith("config1:")) ? c.config1 : c.config2;
    const news = tfToPulumi(node, cfg, (m) => m.value) as Props;
    const checked = await this.call("Check", { ...base, olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 1), ...this.subject.check });
    if (checked.error !== undefined || ((checked.ok["failures"] as unknown[] | undefined) ?? []).length > 0) return [];
    const created = await this.call("Create", { ...base, properties: checked.ok["inputs"] });
    if (created.error !== undefined) return [];
    await this.call("Delete", { ...base, id: created.ok["id"], properties: created.ok["properties"] });
    return [{ id: c.id, kind: "check", detail: `OpenTofu refused the configuration (${errors[0]!.split("\n")[0]}), ours created it` }];
  }

  async replay(c: AnyCase, golden: Golden): Promise<Disagreement[]> {
    const out: Disagreement[] = [];
    const say = (kind: DisagreementKind, detail: string) => out.push({ id: c.id, kind, detail });
    const stop = (kind: DisagreementKind, detail: string): Disagreement[] => (say(kind, detail), out);
    const node = this.node(c.shape);
    const cmpNode = withoutId(node);
    const type = this.token(c);
    const urn = `urn:pulumi:crosstest::crosstest::${type}::${c.id.replace(/::/g, "_")}`;
    const base = { urn, type, name: c.id };
    const inputs = (cfg: Record<string, Value>, preview: boolean) => tfToPulumi(node, cfg, (m) => (preview ? UNKNOWN : m.value)) as Props;
    const check = async (olds: Props, news: Props, what: string): Promise<Props | undefined> => {
      const call = await this.call("Check", { ...base, olds: toStruct(olds), news: toStruct(news), randomSeed: Buffer.alloc(32, 1), ...this.subject.check });
      if (call.error !== undefined) return void say("check", `${what}: ${call.error}`);
      const r = call.ok;
      const failures = (r["failures"] as { property: string; reason: string }[] | undefined) ?? [];
      if (failures.length > 0) return void say("check", `${what}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      return fromStruct(r["inputs"] as Record<string, unknown>) as Props;
    };
    // Values that differ from run to run (random results, keys, timestamps) are compared by presence.
    const volatile = "volatile" in c ? c.volatile : [];
    const masked = (v: unknown): unknown => {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
      const o = { ...(v as Record<string, unknown>) };
      for (const k of volatile) if (o[k] !== null && o[k] !== undefined) o[k] = "<present>";
      return o;
    };
    const stateDiff = (kind: DisagreementKind, ours: Props, theirs: Record<string, Value> | null) => {
      const d = valueDifferences(cmpNode, masked(pulumiToTf(cmpNode, plain(ours))), masked(nullBlocksEmpty(cmpNode, theirs)));
      if (d.length > 0) say(kind, `ours ${JSON.stringify(plain(ours))} vs OpenTofu ${JSON.stringify(theirs)}: ${d.join(", ")}`);
    };

    // Step 1: create from config1.
    const in1 = await check({}, inputs(c.config1, false), "config1");
    if (in1 === undefined) return out;
    const createdCall = await this.call("Create", { ...base, properties: toStruct(in1) });
    if (createdCall.error !== undefined) return stop("create", createdCall.error);
    const created = createdCall.ok;
    let id = String(created["id"]);
    let state = fromStruct(created["properties"] as Record<string, unknown>) as Props;
    stateDiff("state1", state, golden.state1);
    // OpenTofu refreshes before it plans; `pulumi up --refresh` is the same sequence.
    const pre = await this.call("Read", { ...base, id, properties: toStruct(state), inputs: toStruct(in1) });
    if (pre.error !== undefined) return stop("refresh", pre.error);
    if (String(pre.ok["id"] ?? "") === "") {
      // The refresh found the object gone (time_rotating past its rotation): both sides plan a create.
      if (golden.plan.actions.join() !== "create") say("action", `ours: gone on refresh, create; OpenTofu ${golden.plan.actions.join(",")}`);
      const again = await this.call("Create", { ...base, properties: toStruct((await check({}, inputs(c.config2, false), "config2 (recreate)")) ?? {}) });
      if (again.error !== undefined) return stop("create", again.error);
      id = String(again.ok["id"]);
      stateDiff("state2", fromStruct(again.ok["properties"] as Record<string, unknown>) as Props, golden.state2);
      await this.call("Delete", { ...base, id, properties: again.ok["properties"] });
      return out;
    }
    state = fromStruct(pre.ok["properties"] as Record<string, unknown>) as Props;

    try {
      // Step 2: the preview of config2 (unknowns still unknown), against Terraform's plan.
      const preview = await check(in1, inputs(c.config2, true), "config2");
      if (preview === undefined) return out;
      const diffCall = await this.call("Diff", { ...base, id, olds: toStruct(state), news: toStruct(preview), oldInputs: toStruct(in1) });
      if (diffCall.error !== undefined) return stop("action", diffCall.error);
      const diff = diffCall.ok;
      const replaces = (diff["replaces"] as string[] | undefined) ?? [];
      const some = diff["changes"] === "DIFF_SOME" || diff["changes"] === 2;
      const ours: Action = !some ? "none" : replaces.length > 0 ? "replace" : "update";
      const theirs = tfAction(golden.plan.actions);
      if (ours !== theirs.action) say("action", `ours ${ours}${replaces.length > 0 ? ` (replaces ${replaces.join(", ")})` : ""}, OpenTofu ${golden.plan.actions.join(",")}`);
      else if (ours === "replace" && Boolean(diff["deleteBeforeReplace"]) !== theirs.deleteFirst) say("replace-order", `ours ${diff["deleteBeforeReplace"] ? "delete first" : "create first"}, OpenTofu ${golden.plan.actions.join(",")}`);
      const oursPaths = detailedDiffPaths(node, (diff["detailedDiff"] as Record<string, { kind?: unknown }> | undefined) ?? {});
      const tfPaths = goldenPaths(golden);
      const missing = [...tfPaths].filter((p) => !oursPaths.has(p));
      const extra = [...oursPaths].filter((p) => !tfPaths.has(p));
      // Attributes no program can set are told apart: a Pulumi preview shows them among the outputs, not as input diffs.
      const outputOnly = (p: string) => node.kind === "object" && node.fields[p.split(/[.[:]/)[0]!]?.computedOnly === true;
      const inDiff = [missing.filter((p) => !outputOnly(p)), extra.filter((p) => !outputOnly(p))] as const;
      const outDiff = [missing.filter(outputOnly), extra.filter(outputOnly)] as const;
      if (inDiff[0].length + inDiff[1].length > 0) say("detailed-diff", `missing ${JSON.stringify(inDiff[0])}, extra ${JSON.stringify(inDiff[1])}`);
      if (outDiff[0].length + outDiff[1].length > 0) say("output-diff", `missing ${JSON.stringify(outDiff[0])}, extra ${JSON.stringify(outDiff[1])}`);

      // Step 3: apply config2 with every value known, as `up` does after its own check and diff.
      const in2 = await check(in1, inputs(c.config2, false), "config2 (known)");
      if (in2 === undefined) return out;
      const applyDiffCall = await this.call("Diff", { ...base, id, olds: toStruct(state), news: toStruct(in2), oldInputs: toStruct(in1) });
      if (applyDiffCall.error !== undefined) return stop("update", applyDiffCall.error);
      const applyDiff = applyDiffCall.ok;
      if (applyDiff["changes"] === "DIFF_SOME" || applyDiff["changes"] === 2) {
        if (((applyDiff["replaces"] as string[] | undefined) ?? []).length > 0) {
          // The engine's order: delete first when the Diff says so, else create the replacement first.
          const deleteFirst = Boolean(applyDiff["deleteBeforeReplace"]);
          if (deleteFirst) await this.call("Delete", { ...base, id, properties: toStruct(state), oldInputs: toStruct(in1) });
          const madeCall = await this.call("Create", { ...base, properties: toStruct(in2) });
          if (madeCall.error !== undefined) return stop("update", madeCall.error);
          const made = madeCall.ok;
          if (!deleteFirst) await this.call("Delete", { ...base, id, properties: toStruct(state), oldInputs: toStruct(in1) });
          id = String(made["id"]);
          state = fromStruct(made["properties"] as Record<string, unknown>) as Props;
        } else {
          const updatedCall = await this.call("Update", { ...base, id, olds: toStruct(state), news: toStruct(in2), oldInputs: toStruct(in1) });
          if (updatedCall.error !== undefined) return stop("update", updatedCall.error);
          const updated = updatedCall.ok;
          state = fromStruct(updated["properties"] as Record<string, unknown>) as Props;
        }
      }
      stateDiff("state2", state, golden.state2);

      // Step 4: refresh finds nothing to change, and the next preview is empty (unless Terraform's is not).
      const readCall = await this.call("Read", { ...base, id, properties: toStruct(state), inputs: toStruct(in2) });
      if (readCall.error !== undefined) return stop("refresh", readCall.error);
      const read = readCall.ok;
      // The object gone right after its apply (a replacement made first under the same name, then the old one
      // deleted, took it along): the engine drops it from the stack; there is nothing left to diff.
      if (String(read["id"] ?? "") === "") return stop("refresh", "the object was gone when read right after the apply");
      const refreshed = fromStruct(read["properties"] as Record<string, unknown>) as Props;
      const drift = valueDifferences(cmpNode, pulumiToTf(cmpNode, plain(state)), pulumiToTf(cmpNode, plain(refreshed)));
      if (drift.length > 0 && golden.refreshDrift.length === 0) say("refresh", `read changed ${drift.join(", ")}`);
      const againCall = await this.call("Diff", { ...base, id, olds: toStruct(refreshed), news: toStruct(in2), oldInputs: toStruct(in2) });
      if (againCall.error !== undefined) return stop("refresh", againCall.error);
      const again = againCall.ok;
      const stillSome = again["changes"] === "DIFF_SOME" || again["changes"] === 2;
      if (stillSome !== golden.planAfterApply.length > 0) {
        say("refresh", `after refresh ours ${stillSome ? `plans ${JSON.stringify(again["detailedDiff"])}` : "plans nothing"}, OpenTofu ${golden.planAfterApply.join(",") || "nothing"}`);
      }

      // Step 5: import by id.
      const imported = await this.call("Read", { ...base, id, properties: toStruct({}) });
      if (golden.imported === null) {
        // OpenTofu could not import the object by its id (no importer, or another id format): neither may we.
        if (imported.error === undefined) say("import", "OpenTofu could not import the object by its id, ours did");
      } else if (imported.error !== undefined) say("import", imported.error);
      else stateDiff("import", fromStruct(imported.ok["properties"] as Record<string, unknown>) as Props, golden.imported);
    } finally {
      await this.call("Delete", { ...base, id, properties: toStruct(state) });
    }
    return out;
  }
}

