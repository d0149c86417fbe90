// Records Terraform's answer for every corpus case with OpenTofu driving the very shapesdk/shapefw binaries the tests use:
// apply config1, plan config2, apply it, a refresh-only plan, a plain plan, and an import into an empty state.
// Usage: npm run crosstest:record [-- sdkv2|framework [case-id-substring]]   (minutes; not run in CI; writes
// test/crosstest/golden/); `-- --paths [flavour]` only recomputes the goldens' changed paths from their recorded plans.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FLAVOURS, GOLDEN_DIR, PEER, goldenPath, isUnknownMarker, loadCases, loadShapes, type Case, type Flavour, type Golden, type Value } from "../../test/crosstest/corpus.js";
import { changedPaths, replaceSteps, shapeNode } from "../../test/crosstest/paths.js";
import { repoRoot } from "../../test/support/peers.js";

if (process.env["CROSSTEST_SKIP_BUILD"] === undefined && process.argv[2] !== "--paths") execFileSync("bash", [join(repoRoot, "scripts/build-peers.sh")], { stdio: ["ignore", "ignore", "inherit"] });
const tofu = realpathSync(join(repoRoot, ".peers", "tofu"));

interface Tofu {
  run(args: string[], allowFail?: boolean): { status: number; stdout: string; stderr: string };
  json(args: string[]): any;
}

function tofuIn(dir: string, env: NodeJS.ProcessEnv): Tofu {
  const run = (args: string[], allowFail = false) => {
    const r = spawnSync(tofu, args, { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 30 });
    if (r.status !== 0 && !allowFail) throw new Error(`tofu ${args.join(" ")} failed (${r.status}):\n${r.stderr}\n${r.stdout.slice(-4000)}`);
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  return { run, json: (args) => JSON.parse(run(args).stdout) };
}

/** Terraform resource names for case ids (`prim_string_optional.decimal-0.1-unchanged` → `decimal-0_1-unchanged`). */
function resourceName(c: Case): string {
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

/**
 * The configuration file, one resource per line so a diagnostic's line names its case. `which` picks config1 or
 * config2; `imports` adds import blocks (unknowns then take their known values: the sources are not in that state).
 */
function configFile(flavour: Flavour, cases: Case[], which: "config1" | "config2", imports?: Map<string, string>): { text: string; lines: Map<number, string> } {
  const peer = PEER[flavour];
  const lines: string[] = ["{", `"terraform": {"required_providers": {"${peer}": {"source": "bridge/${peer}"}}},`];
  const owner = new Map<number, string>();
  const byType = new Map<string, Case[]>();
  for (const c of cases) byType.set(c.shape, [...(byType.get(c.shape) ?? []), c]);
  const sources = cases.filter((c) => which === "config2" && imports === undefined && usesUnknown(c.config2));
  lines.push(`"resource": {`);
  const blocks: string[][] = [];
  for (const [shape, list] of byType) {
    const body = list.map((c) => {
      const src = `${peer}_source.${shape}__${resourceName(c)}`;
      const cfg = imports === undefined ? render(c[which], src) : resolved(c[which]);
      return `${JSON.stringify(resourceName(c))}: ${JSON.stringify(cfg)}`;
    });
    blocks.push([`${JSON.stringify(`${peer}_${shape}`)}: {`, body.join(",\n"), "}"]);
  }
  if (sources.length > 0) {
    blocks.push([`"${peer}_source": {`, sources.map((c) => `${JSON.stringify(`${c.shape}__${resourceName(c)}`)}: {"input": "u"}`).join(",\n"), "}"]);
  }
  let text = lines.join("\n") + "\n" + blocks.map((b) => b.join("\n")).join(",\n") + "\n}";
  if (imports !== undefined) {
    const im = cases.filter((c) => imports.has(c.id)).map((c) => JSON.stringify({ to: `${peer}_${c.shape}.${resourceName(c)}`, id: imports.get(c.id) }));
    text += `,\n"import": [\n${im.join(",\n")}\n]`;
  }
  text += "\n}\n";
  // A body's line number, read back from the text itself.
  const all = text.split("\n");
  let type = "";
  for (let i = 0; i < all.length; i++) {
    const t = /^"([^"]+)": \{$/.exec(all[i]!);
    if (t) type = t[1]!;
    const r = /^"(c_[^"]+)": /.exec(all[i]!);
    if (r && type.startsWith(`${peer}_`) && type !== `${peer}_source`) {
      const c = cases.find((x) => `${peer}_${x.shape}` === type && resourceName(x) === r[1]);
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

function record(flavour: Flavour, only?: string): void {
  const peer = PEER[flavour];
  const shapes = loadShapes(flavour);
  let cases = loadCases(flavour).filter((c) => only === undefined || c.id.includes(only));
  const work = mkdtempSync(join(tmpdir(), `crosstest-${flavour}-`));
  const bin = realpathSync(join(repoRoot, ".peers", `terraform-provider-${peer}`));
  const cli = join(work, "tofurc");
  writeFileSync(cli, `provider_installation {\n  dev_overrides {\n    "bridge/${peer}" = "${dirname(bin)}"\n  }\n  direct {}\n}\n`);
  const schemaFile = join(work, "shapes.json");
  writeFileSync(schemaFile, JSON.stringify({ resources: shapes }));
  const env = { ...process.env, TF_CLI_CONFIG_FILE: cli, SHAPES_SCHEMA: schemaFile, SHAPES_STORE: join(work, "store"), TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  const errors = new Map<string, string[]>();
  const fail = (id: string, msg: string) => errors.set(id, [...(errors.get(id) ?? []), msg]);

  // Cases OpenTofu refuses to validate are recorded as refused and left out of the runs.
  const main = join(work, "main");
  mkdirSync(main);
  const tf = tofuIn(main, env);
  for (const which of ["config1", "config2"] as const) {
    for (;;) {
      const { text, lines } = configFile(flavour, cases, which);
      writeFileSync(join(main, "main.tf.json"), text);
      const v = JSON.parse(tf.run(["validate", "-json", "-no-color"], true).stdout);
      const bad = new Set<string>();
      for (const d of v.diagnostics ?? []) {
        if (d.severity !== "error") continue;
        const id = lines.get(d.range?.start?.line);
        if (id === undefined) throw new Error(`validation error not tied to a case: ${d.summary}: ${d.detail}`);
        fail(id, `${which}: ${d.summary}: ${d.detail ?? ""}`);
        bad.add(id);
      }
      if (bad.size === 0) break;
      cases = cases.filter((c) => !bad.has(c.id));
    }
  }
  const addr = (c: Case) => `${peer}_${c.shape}.${resourceName(c)}`;
  // A run whose errors are all tied to cases records them there; any other failure stops the recording.
  const step = (args: string[], planFile?: string) => {
    const r = tf.run([...args, "-json", "-no-color", "-input=false", "-lock=false", ...(planFile === undefined ? [] : [planFile])], true);
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

  console.log(`${flavour}: ${cases.length} cases in ${work}`);
  writeFileSync(join(main, "main.tf.json"), configFile(flavour, cases, "config1").text);
  step(["apply", "-auto-approve", "-parallelism=4"]);
  const state1 = stateValues(tf.json(["show", "-json"]));

  writeFileSync(join(main, "main.tf.json"), configFile(flavour, cases, "config2").text);
  step(["plan", "-out=plan2", "-parallelism=4"]);
  const plan2 = tf.json(["show", "-json", "plan2"]);
  const changes = new Map<string, any>();
  for (const rc of plan2.resource_changes ?? []) changes.set(rc.address, rc.change);
  step(["apply", "-auto-approve", "-parallelism=4"], "plan2");
  const state2 = stateValues(tf.json(["show", "-json"]));

  step(["plan", "-refresh-only", "-out=plan3", "-parallelism=4"]);
  const drift = new Map<string, string[]>();
  for (const d of tf.json(["show", "-json", "plan3"]).resource_drift ?? []) drift.set(d.address, d.change.actions);
  step(["plan", "-out=plan4", "-parallelism=4"]);
  const again = new Map<string, string[]>();
  for (const rc of tf.json(["show", "-json", "plan4"]).resource_changes ?? []) if (rc.change.actions.join() !== "no-op") again.set(rc.address, rc.change.actions);

  // Import: the objects by id into an empty state, with the second configuration; the import's `before` is what the
  // provider's import and read gave.
  const imp = join(work, "import");
  mkdirSync(imp);
  const ids = new Map<string, string>();
  for (const c of cases) {
    const id = state2.get(addr(c))?.["id"];
    if (typeof id === "string") ids.set(c.id, id);
  }
  writeFileSync(join(imp, "main.tf.json"), configFile(flavour, cases, "config2", ids).text);
  const ti = tofuIn(imp, env);
  const ir = ti.run(["plan", "-out=plan5", "-json", "-no-color", "-input=false", "-lock=false", "-parallelism=4"], true);
  const imported = new Map<string, Record<string, Value>>();
  if (ir.status === 0) {
    for (const rc of ti.json(["show", "-json", "plan5"]).resource_changes ?? []) if (rc.change.importing !== undefined) imported.set(rc.address, rc.change.before);
  } else {
    for (const line of ir.stdout.split("\n")) if (line.includes('"diagnostic"')) console.error(`import: ${line}`);
  }

  rmSync(join(GOLDEN_DIR, flavour), { recursive: true, force: true });
  mkdirSync(join(GOLDEN_DIR, flavour), { recursive: true });
  let written = 0;
  for (const c of loadCases(flavour).filter((x) => only === undefined || x.id.includes(only))) {
    const node = shapeNode(shapes[c.shape]!, flavour);
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
    writeFileSync(goldenPath(flavour, c.id), JSON.stringify(golden, null, 1) + "\n");
    written++;
  }
  console.log(`${flavour}: ${written} goldens, ${errors.size} cases with OpenTofu errors, ${drift.size} drifted on refresh, ${again.size} still planned after apply, ${imported.size} imported`);
  if (process.env["CROSSTEST_KEEP"] === undefined) rmSync(work, { recursive: true, force: true });
}

/** Recomputes the changed paths of existing goldens from their recorded plans (after a change to paths.ts). */
function rederive(flavour: Flavour): void {
  const shapes = loadShapes(flavour);
  for (const c of loadCases(flavour)) {
    const file = goldenPath(flavour, c.id);
    const g = JSON.parse(readFileSync(file, "utf8")) as Golden;
    if (g.plan.actions.length === 0) continue;
    const node = shapeNode(shapes[c.shape]!, flavour);
    const replace = g.plan.replacePaths.map((p) => replaceSteps(node, JSON.parse(p) as (string | number)[]));
    g.plan.changed = changedPaths(node, g.plan.before, g.plan.after, g.plan.afterUnknown, replace);
    writeFileSync(file, JSON.stringify(g, null, 1) + "\n");
  }
}

const args = process.argv.slice(2);
const pathsOnly = args[0] === "--paths";
const [flavourArg, only] = pathsOnly ? args.slice(1) : args;
for (const f of FLAVOURS) {
  if (flavourArg !== undefined && flavourArg !== f) continue;
  if (pathsOnly) rederive(f);
  else record(f, only);
}
