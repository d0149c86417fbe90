// Replays the oracle corpus through our plugin's gRPC as the engine calls it and lists every place our answer differs
// from OpenTofu's recorded one (action, detailed diff, state after create/update, refresh, import).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess, type CallError, type PluginProcess } from "../support/pulumi.js";
import { fromStruct, toStruct as plainStruct, toWire, type Json } from "../support/reference-ops.js";
import { PEER, loadCases, loadGolden, loadShapes, type Case, type Flavour, type Golden, type Value } from "./corpus.js";
import { pulumiToTf, pulumiToTfPath, shapeNode, tfToPulumi, valueDifferences, withPulumiNames, type Node } from "./paths.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import type { ResourceModel } from "../../src/schema-translate/model.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";

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

export class Replayer {
  private constructor(
    private readonly plugin: PluginProcess,
    private readonly flavour: Flavour,
    private readonly tokens: Map<string, string>,
    private readonly store: string,
    private readonly models: Map<string, ResourceModel>,
  ) {}

  private readonly nodes = new Map<string, Node>();

  /** The shape's type tree, named as the plugin's model names it. */
  private node(shape: string): Node {
    let n = this.nodes.get(shape);
    if (n === undefined) {
      n = namedShapeNode(this.flavour, shape, this.models);
      this.nodes.set(shape, n);
    }
    return n;
  }

  static async start(flavour: Flavour): Promise<Replayer> {
    const dir = mkdtempSync(join(tmpdir(), `crosstest-replay-${flavour}-`));
    const schemaFile = join(dir, "shapes.json");
    writeFileSync(schemaFile, JSON.stringify({ resources: loadShapes(flavour) }));
    const env = { SHAPES_SCHEMA: schemaFile, SHAPES_STORE: join(dir, "store") };
    const models = await shapeModels(flavour, env);
    const plugin = await startPluginProcess({ env: { ...process.env, ...env } });
    try {
      await plugin.call("Parameterize", argsRequest(peerPath(PEER[flavour])));
      const schema = JSON.parse(String((await plugin.call("GetSchema", {}))["schema"])) as { resources: Record<string, unknown> };
      const tokens = new Map<string, string>();
      for (const token of Object.keys(schema.resources)) tokens.set(token.split(":").pop()!.toLowerCase(), token);
      await plugin.call("Configure", { args: toStruct({}), acceptSecrets: true, acceptResources: true });
      return new Replayer(plugin, flavour, tokens, dir, models);
    } catch (e) {
      await plugin.stop();
      throw e;
    }
  }

  async stop(): Promise<void> {
    await this.plugin.stop();
    rmSync(this.store, { recursive: true, force: true });
  }

  /** Every case with a golden, `concurrency` at a time. */
  async replayAll(filter: (c: Case) => boolean = () => true, concurrency = 6): Promise<ReplayResult> {
    const cases = loadCases(this.flavour).filter(filter);
    const result: ReplayResult = { cases: 0, refused: [], disagreements: [] };
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const golden = loadGolden(this.flavour, c.id);
        if (golden === undefined) throw new Error(`no golden for ${this.flavour} case ${c.id}: run \`npm run crosstest:record\``);
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

  private token(c: Case): string {
    const t = this.tokens.get(c.shape.replace(/_/g, ""));
    if (t === undefined) throw new Error(`no resource token for shape ${c.shape}`);
    return t;
  }

  /** A call's answer, or its gRPC error as text (a disagreement to report, not a test crash). */
  private async call(method: string, request: Record<string, unknown>): Promise<{ ok: Record<string, unknown>; error?: undefined } | { error: string }> {
    try {
      return { ok: await this.plugin.call(method, request) };
    } catch (e) {
      const err = e as CallError;
      if (err.code === undefined) throw e;
      return { error: `${method}: ${err.details}` };
    }
  }

  /** Check, then a Create of what it accepted: one of them must fail where OpenTofu's validation did. */
  private async refuse(c: Case, errors: string[]): Promise<Disagreement[]> {
    const node = this.node(c.shape);
    const type = this.token(c);
    const base = { urn: `urn:pulumi:crosstest::crosstest::${type}::${c.id}`, type, name: c.id };
    const cfg = errors.some((e) => e.startsWith("config1:")) ? c.config1 : c.config2;
    const news = tfToPulumi(node, cfg, (m) => m.value) as Props;
    const checked = await this.call("Check", { ...base, olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 1) });
    if (checked.error !== undefined || ((checked.ok["failures"] as unknown[] | undefined) ?? []).length > 0) return [];
    const created = await this.call("Create", { ...base, properties: checked.ok["inputs"], timeout: 60 });
    if (created.error !== undefined) return [];
    await this.call("Delete", { ...base, id: created.ok["id"], properties: created.ok["properties"], timeout: 60 });
    return [{ id: c.id, kind: "check", detail: `OpenTofu refused the configuration (${errors[0]!.split("\n")[0]}), ours created it` }];
  }

  async replay(c: Case, golden: Golden): Promise<Disagreement[]> {
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
      const call = await this.call("Check", { ...base, olds: toStruct(olds), news: toStruct(news), randomSeed: Buffer.alloc(32, 1) });
      if (call.error !== undefined) return void say("check", `${what}: ${call.error}`);
      const r = call.ok;
      const failures = (r["failures"] as { property: string; reason: string }[] | undefined) ?? [];
      if (failures.length > 0) return void say("check", `${what}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
      return fromStruct(r["inputs"] as Record<string, unknown>) as Props;
    };
    const stateDiff = (kind: DisagreementKind, ours: Props, theirs: Record<string, Value> | null) => {
      const d = valueDifferences(cmpNode, pulumiToTf(cmpNode, plain(ours)), theirs);
      if (d.length > 0) say(kind, `ours ${JSON.stringify(plain(ours))} vs OpenTofu ${JSON.stringify(theirs)}: ${d.join(", ")}`);
    };

    // Step 1: create from config1.
    const in1 = await check({}, inputs(c.config1, false), "config1");
    if (in1 === undefined) return out;
    const createdCall = await this.call("Create", { ...base, properties: toStruct(in1), timeout: 60 });
    if (createdCall.error !== undefined) return stop("create", createdCall.error);
    const created = createdCall.ok;
    let id = String(created["id"]);
    let state = fromStruct(created["properties"] as Record<string, unknown>) as Props;
    stateDiff("state1", state, golden.state1);
    // OpenTofu refreshes before it plans; `pulumi up --refresh` is the same sequence.
    const pre = await this.call("Read", { ...base, id, properties: toStruct(state), inputs: toStruct(in1) });
    if (pre.error !== undefined) return stop("refresh", pre.error);
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
          const madeCall = await this.call("Create", { ...base, properties: toStruct(in2), timeout: 60 });
          if (madeCall.error !== undefined) return stop("update", madeCall.error);
          const made = madeCall.ok;
          await this.call("Delete", { ...base, id, properties: toStruct(state), oldInputs: toStruct(in1), timeout: 60 });
          id = String(made["id"]);
          state = fromStruct(made["properties"] as Record<string, unknown>) as Props;
        } else {
          const updatedCall = await this.call("Update", { ...base, id, olds: toStruct(state), news: toStruct(in2), oldInputs: toStruct(in1), timeout: 60 });
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
      if (imported.error !== undefined) say("import", imported.error);
      else if (golden.imported !== null) stateDiff("import", fromStruct(imported.ok["properties"] as Record<string, unknown>) as Props, golden.imported);
    } finally {
      await this.call("Delete", { ...base, id, properties: toStruct(state), timeout: 60 });
    }
    return out;
  }
}

