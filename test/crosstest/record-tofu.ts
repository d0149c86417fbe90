// OpenTofu's answer for oracle cases (test/crosstest): it applies each case's first configuration, plans the second,
// applies it, runs a refresh-only plan and a plain plan, and plans an import of every object into an empty state; all
// cases of one target in one working directory, one resource per case. Used by scripts/crosstest/record.ts (the
// recorded goldens) and by tests that ask OpenTofu live (test/integration/docker-oracle.test.ts).
import { spawn } from "node:child_process";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isUnknownMarker, type Case, type Golden, type PeerCase, type Value } from "./corpus.js";
import { changedPaths, replaceSteps, type Node } from "./paths.js";
import { repoRoot } from "../support/peers.js";

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

interface Tofu {
  run(args: string[], allowFail?: boolean): Promise<Ran>;
  json(args: string[]): Promise<any>;
}

/**
 * The engine (`tofu`, or Terraform: its path) run in `dir`, without blocking the process: a test worker blocked for a
 * minute misses vitest's own calls.
 */
function tofuIn(engine: string, dir: string, env: NodeJS.ProcessEnv): Tofu {
  const run = (args: string[], allowFail = false) =>
    new Promise<Ran>((resolve, reject) => {
      const child = spawn(engine, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (d: Buffer) => out.push(d));
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.once("error", reject);
      child.once("close", (code) => {
        const r = { status: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
        if (r.status !== 0 && !allowFail) reject(new Error(`tofu ${args.join(" ")} failed (${r.status}):\n${r.stderr}\n${r.stdout.slice(-4000)}`));
        else resolve(r);
      });
    });
  return { run, json: async (args) => JSON.parse((await run(args)).stdout) };
}

/** Terraform resource names for case ids (`prim_string_optional.decimal-0.1-unchanged` → `decimal-0_1-unchanged`). */
export function resourceName(c: { scenario: string }): string {
  return "c_" + c.scenario.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** A configuration value in Terraform's JSON syntax; an unknown becomes a reference to the case's source resource. */
function render(v: Value, source: string): unknown {
  if (isUnknownMarker(v)) return `\${${source}.${v.$unknown}}`;
  if (typeof v === "string") {
    if (v.includes("${") || v.includes("%{")) throw new Error(`template sequence in corpus string ${v}`);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => render(x, source));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, render(x, source)]));
  return v;
}

function resolved(v: Value): Value {
  if (isUnknownMarker(v)) return v.value;
  if (Array.isArray(v)) return v.map(resolved);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x)]));
  return v;
}

function usesUnknown(v: Value): boolean {
  if (isUnknownMarker(v)) return true;
  if (Array.isArray(v)) return v.some(usesUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(usesUnknown);
  return false;
}

/** What one recording covers: cases, the providers they use (local name → source), their configuration, and how to read their types. */
export interface Target {
  /** The golden folder's name: a flavour, or `peers`. */
  name: string;
  cases: AnyCase[];
  providers: Record<string, string>;
  providerConfig: Record<string, Record<string, Value>>;
  /** The Terraform resource type of a case. */
  typeOf(c: AnyCase): string;
  node(c: AnyCase): Node;
  /** The provider whose `_source` resource supplies unknown values, if any. */
  source?: string;
  env: Record<string, string>;
  /** Run-time placeholders (`{dir}`) and their values, put in before OpenTofu runs and taken out of what it recorded. */
  placeholders: [string, string][];
  /** The folder holding each provider's binary (local name → folder), where it is not `.peers/`. */
  binaries?: Record<string, string>;
  /** Where goldens go instead of `golden/<name>/` files. */
  sink?: (golden: Golden) => void;
  /** Import every type in one plan (many types, one provider), falling back to one plan per type if it fails. */
  importAtOnce?: boolean;
  /** Destroy everything at the end (`tofu destroy`): the objects live outside the working directory (a Docker engine). */
  destroy?: boolean;
}

export type AnyCase = Case | PeerCase;

const fill = (text: string, t: Target): string => t.placeholders.reduce((s, [k, v]) => s.split(k).join(v), text);
const unfill = (text: string, t: Target): string => t.placeholders.reduce((s, [k, v]) => s.split(v).join(k), text);

/**
 * The configuration file, one resource per line so a diagnostic's line names its case. `which` picks config1 or
 * config2; `imports` adds import blocks (unknowns then take their known values: the sources are not in that state).
 */
function configFile(t: Target, cases: AnyCase[], which: "config1" | "config2", imports?: Map<string, string>): { text: string; lines: Map<number, string> } {
  const required = Object.fromEntries(Object.entries(t.providers).map(([k, v]) => [k, { source: v }]));
  const lines: string[] = ["{", `"terraform": {"required_providers": ${JSON.stringify(required)}},`];
  if (Object.keys(t.providerConfig).length > 0) lines.push(`"provider": ${fill(JSON.stringify(t.providerConfig), t)},`);
  const owner = new Map<number, string>();
  const byType = new Map<string, AnyCase[]>();
  for (const c of cases) byType.set(t.typeOf(c), [...(byType.get(t.typeOf(c)) ?? []), c]);
  const sources = cases.filter((c) => which === "config2" && imports === undefined && usesUnknown(c.config2));
  if (sources.length > 0 && t.source === undefined) throw new Error(`${t.name}: unknown values need a source resource`);
  lines.push(`"resource": {`);
  const blocks: string[][] = [];
  for (const [type, list] of byType) {
    const body = list.map((c) => {
      const src = `${t.source}_source.${c.shape}__${resourceName(c)}`;
      const cfg = imports === undefined ? render(c[which], src) : resolved(c[which]);
      return `${JSON.stringify(resourceName(c))}: ${fill(JSON.stringify(cfg), t)}`;
    });
    blocks.push([`${JSON.stringify(type)}: {`, body.join(",\n"), "}"]);
  }
  if (sources.length > 0) {
    blocks.push([`"${t.source}_source": {`, sources.map((c) => `${JSON.stringify(`${c.shape}__${resourceName(c)}`)}: {"input": "u"}`).join(",\n"), "}"]);
  }
  let text = lines.join("\n") + "\n" + blocks.map((b) => b.join("\n")).join(",\n") + "\n}";
  if (imports !== undefined) {
    const im = cases.filter((c) => imports.has(c.id)).map((c) => JSON.stringify({ to: `${t.typeOf(c)}.${resourceName(c)}`, id: imports.get(c.id) }));
    text += `,\n"import": [\n${im.join(",\n")}\n]`;
  }
  text += "\n}\n";
  // A body's line number, read back from the text itself.
  const all = text.split("\n");
  let type = "";
  for (let i = 0; i < all.length; i++) {
    const m = /^"([^"]+)": \{$/.exec(all[i]!);
    if (m) type = m[1]!;
    const r = /^"(c_[^"]+)": /.exec(all[i]!);
    if (r) {
      const c = cases.find((x) => t.typeOf(x) === type && resourceName(x) === r[1]);
      if (c) owner.set(i + 1, c.id);
    }
  }
  return { text, lines: owner };
}

/** Resource instances' attribute values by address, from `tofu show -json` of a state. */
function stateValues(show: any): Map<string, Record<string, Value>> {
  const out = new Map<string, Record<string, Value>>();
  for (const r of show.values?.root_module?.resources ?? []) out.set(r.address, r.values);
  return out;
}

/** The CLI configuration pointing every provider address of the target at the binaries the tests use. */
function cliConfig(work: string, t: Target): string {
  const file = join(work, "tofurc");
  const folder = (local: string) => t.binaries?.[local] ?? dirname(realpathSync(join(repoRoot, ".peers", `terraform-provider-${local}`)));
  const overrides = Object.entries(t.providers).map(([local, source]) => `    "${source}" = "${folder(local)}"`);
  writeFileSync(file, `provider_installation {\n  dev_overrides {\n${overrides.join("\n")}\n  }\n  direct {}\n}\n`);
  return file;
}

/** Where the answers go: `engine` is the CLI's path, `goldenDir` the folder of golden files (unless the target has a sink). */
export interface RecordOptions {
  engine: string;
  goldenDir: string;
}

/** Runs every case of the target through OpenTofu in `work` and hands each case's golden to the target's sink or file. */
export async function record(t: Target, work: string, options: RecordOptions): Promise<void> {
  const { engine, goldenDir } = options;
  let cases = t.cases;
  const env = { ...process.env, ...t.env, TF_CLI_CONFIG_FILE: cliConfig(work, t), TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  const errors = new Map<string, string[]>();
  const fail = (id: string, msg: string) => errors.set(id, [...(errors.get(id) ?? []), msg]);

  // Cases OpenTofu refuses to validate are recorded as refused and left out of the runs.
  const main = join(work, "main");
  mkdirSync(main);
  const tf = tofuIn(engine, main, env);
  for (const which of ["config1", "config2"] as const) {
    for (;;) {
      const { text, lines } = configFile(t, cases, which);
      writeFileSync(join(main, "main.tf.json"), text);
      const v = JSON.parse((await tf.run(["validate", "-json", "-no-color"], true)).stdout);
      const bad = new Set<string>();
      for (const d of v.diagnostics ?? []) {
        if (d.severity !== "error") continue;
        const id = lines.get(d.range?.start?.line);
        if (id === undefined) throw new Error(`validation error not tied to a case: ${d.summary}: ${d.detail}`);
        fail(id, `${which}: ${d.summary}: ${d.detail ?? ""}`);
        console.log(`${t.name}: ${id} refused: ${d.summary}`);
        bad.add(id);
      }
      cases = cases.filter((c) => !bad.has(c.id));
      if (bad.size === 0 || cases.length === 0) break;
    }
  }
  const addr = (c: AnyCase) => `${t.typeOf(c)}.${resourceName(c)}`;
  // A run whose errors are all tied to cases records them there; any other failure stops the recording.
  const step = async (args: string[], planFile?: string) => {
    const r = await tf.run([...args, "-json", "-no-color", "-input=false", "-lock=false", ...(planFile === undefined ? [] : [planFile])], true);
    let tied = 0;
    for (const line of r.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line);
      if (m.type === "diagnostic" && m.diagnostic?.severity === "error") {
        const c = cases.find((x) => addr(x) === m.diagnostic.address);
        if (c === undefined) throw new Error(`tofu ${args[0]}: ${m.diagnostic.summary}: ${m.diagnostic.detail}`);
        fail(c.id, `${args[0]}: ${m.diagnostic.summary}: ${m.diagnostic.detail ?? ""}`);
        tied++;
      }
    }
    if (r.status !== 0 && tied === 0) throw new Error(`tofu ${args.join(" ")} failed (${r.status}):\n${r.stderr}\n${r.stdout.slice(-4000)}`);
  };

  console.log(`${t.name}: ${cases.length} cases in ${work}`);
  if (cases.length === 0) throw new Error(`${t.name}: OpenTofu refused every case`);
  writeFileSync(join(main, "main.tf.json"), configFile(t, cases, "config1").text);
  await step(["apply", "-auto-approve", "-parallelism=4"]);
  const state1 = stateValues(await tf.json(["show", "-json"]));

  writeFileSync(join(main, "main.tf.json"), configFile(t, cases, "config2").text);
  await step(["plan", "-out=plan2", "-parallelism=4"]);
  const plan2 = await tf.json(["show", "-json", "plan2"]);
  const changes = new Map<string, any>();
  for (const rc of plan2.resource_changes ?? []) changes.set(rc.address, rc.change);
  await step(["apply", "-auto-approve", "-parallelism=4"], "plan2");
  const state2 = stateValues(await tf.json(["show", "-json"]));

  await step(["plan", "-refresh-only", "-out=plan3", "-parallelism=4"]);
  const drift = new Map<string, string[]>();
  for (const d of (await tf.json(["show", "-json", "plan3"])).resource_drift ?? []) drift.set(d.address, d.change.actions);
  await step(["plan", "-out=plan4", "-parallelism=4"]);
  const again = new Map<string, string[]>();
  for (const rc of (await tf.json(["show", "-json", "plan4"])).resource_changes ?? []) if (rc.change.actions.join() !== "no-op") again.set(rc.address, rc.change.actions);

  // Import: the objects by id into an empty state, with the second configuration; the import's `before` is what the
  // provider's import and read gave. One plan per resource type, so a type that cannot be imported fails alone.
  const imported = new Map<string, Record<string, Value>>();
  const byType = new Map<string, AnyCase[]>();
  for (const c of cases) if (typeof state2.get(addr(c))?.["id"] === "string") byType.set(t.typeOf(c), [...(byType.get(t.typeOf(c)) ?? []), c]);
  const importPlan = async (name: string, list: AnyCase[]): Promise<boolean> => {
    const imp = join(work, `import-${name}`);
    mkdirSync(imp);
    const ids = new Map(list.map((c) => [c.id, state2.get(addr(c))!["id"] as string]));
    writeFileSync(join(imp, "main.tf.json"), configFile(t, list, "config2", ids).text);
    const ti = tofuIn(engine, imp, env);
    const ir = await ti.run(["plan", "-out=plan5", "-json", "-no-color", "-input=false", "-lock=false", "-parallelism=4"], true);
    if (ir.status !== 0) {
      const why = ir.stdout.split("\n").filter((l) => l.includes('"@level":"error"')).map((l) => JSON.parse(l).diagnostic?.summary as string);
      console.log(`${t.name}: ${name} not imported: ${[...new Set(why)].join("; ")}`);
      return false;
    }
    for (const rc of (await ti.json(["show", "-json", "plan5"])).resource_changes ?? []) if (rc.change.importing !== undefined) imported.set(rc.address, rc.change.before);
    return true;
  };
  if (!(t.importAtOnce === true && (await importPlan("all", [...byType.values()].flat())))) for (const [type, list] of byType) await importPlan(type, list);
  if (t.destroy === true) {
    writeFileSync(join(main, "main.tf.json"), configFile(t, cases, "config2").text);
    await tf.run(["destroy", "-auto-approve", "-no-color", "-input=false", "-lock=false", "-parallelism=4"]);
  }

  if (t.sink === undefined) mkdirSync(join(goldenDir, t.name), { recursive: true });
  let written = 0;
  for (const c of t.cases) {
    const node = t.node(c);
    const a = addr(c);
    const ch = changes.get(a);
    const golden: Golden = {
      id: c.id,
      state1: state1.get(a) ?? {},
      plan: {
        actions: ch?.actions ?? [],
        replacePaths: (ch?.replace_paths ?? []).map((p: (string | number)[]) => JSON.stringify(p)),
        changed: ch === undefined ? [] : changedPaths(node, ch.before, ch.after, ch.after_unknown, (ch.replace_paths ?? []).map((p: (string | number)[]) => replaceSteps(node, p))),
        before: ch?.before ?? null,
        after: ch?.after ?? null,
        afterUnknown: ch?.after_unknown ?? null,
      },
      state2: state2.get(a) ?? {},
      refreshDrift: drift.get(a) ?? [],
      planAfterApply: again.get(a) ?? [],
      imported: imported.get(a) ?? null,
      ...(errors.has(c.id) ? { errors: errors.get(c.id)! } : {}),
    };
    if (t.sink !== undefined) t.sink(golden);
    else writeFileSync(join(goldenDir, t.name, `${c.id}.json`), unfill(JSON.stringify(golden, null, 1), t) + "\n");
    written++;
  }
  console.log(`${t.name}: ${written} goldens, ${errors.size} cases with OpenTofu errors, ${drift.size} drifted on refresh, ${again.size} still planned after apply, ${imported.size} imported`);
}
