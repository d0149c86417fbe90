// OpenTofu as the oracle of adoption over the shape peers' corpus: one OpenTofu apply of a few hundred corpus cases
// (shapesdk and shapefw, some as count and for_each instances) and of local files (a provider with no importer), one
// `adopt`, a preview that must show no changes, then each case's second configuration on both sides: Pulumi's preview
// must plan the action OpenTofu's plan does for every instance.
import { chmodSync, cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PEER, isUnknownMarker, loadCases, loadGolden, loadShapes, type Case, type Flavour, type Value } from "../crosstest/corpus.js";
import { tfToPulumi, type Node } from "../crosstest/paths.js";
import { namedShapeNode, shapeModels } from "../crosstest/replay.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, type PreviewJson } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import type { ResourceModel } from "../../src/schema-translate/model.js";
import { VERSION } from "../../src/version.js";

const sandbox = e2eSandbox();
const FLAVOURS = ["sdkv2", "framework"] as const;

/**
 * One case of each shape, the scenario turning with the shape's index, and a second one for shapes with sensitive or
 * write-only attributes or nested blocks; cases OpenTofu refused when the corpus was recorded are left out.
 */
function selectCases(flavour: Flavour): Case[] {
  const shapes = loadShapes(flavour);
  const byShape = new Map<string, Case[]>();
  for (const c of loadCases(flavour)) {
    if (loadGolden(flavour, c.id)?.errors !== undefined) continue;
    byShape.set(c.shape, [...(byShape.get(c.shape) ?? []), c]);
  }
  const out: Case[] = [];
  [...byShape.entries()].forEach(([shape, list], j) => {
    out.push(list[j % list.length]!);
    const text = JSON.stringify(shapes[shape]);
    const special = text.includes('"sensitive"') || text.includes('"writeOnly"') || shapes[shape]!.blocks !== undefined;
    if (special && list.length > 1) out.push(list[(j + Math.ceil(list.length / 2)) % list.length]!);
  });
  return out;
}

/** How a case's resource is repeated: every fifth is `count = 2`, every fifth from the third `for_each` over two keys. */
type Repeat = { kind: "one" } | { kind: "count" } | { kind: "for_each" };
const FOR_EACH_KEYS = { a: "1", "b c": "2" };
function repeatOf(i: number): Repeat {
  return i % 5 === 0 ? { kind: "count" } : i % 5 === 2 ? { kind: "for_each" } : { kind: "one" };
}
function keysOf(r: Repeat): (number | string | undefined)[] {
  return r.kind === "count" ? [0, 1] : r.kind === "for_each" ? Object.keys(FOR_EACH_KEYS) : [undefined];
}

interface Entry {
  flavour: Flavour;
  c: Case;
  type: string;
  /** The Terraform resource name (record.ts's rule: `c_` and the scenario). */
  name: string;
  repeat: Repeat;
}

function address(type: string, name: string, key: number | string | undefined): string {
  return `${type}.${name}${key === undefined ? "" : typeof key === "number" ? `[${key}]` : `[${JSON.stringify(key)}]`}`;
}

/** A corpus value in Terraform's JSON syntax; an unknown becomes a reference to the flavour's source resource. */
function render(v: Value, source: string): unknown {
  if (isUnknownMarker(v)) return `\${${source}.${v.$unknown}}`;
  if (Array.isArray(v)) return v.map((x) => render(x, source));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, render(x, source)]));
  return v;
}

const usesUnknown = (v: Value): boolean => JSON.stringify(v).includes('"$unknown"');

/** local_file has no importer ("Resource Import Not Implemented"): adopted only from the state. */
function localResources(files: string, which: "config1" | "config2"): Record<string, Record<string, unknown>> {
  const word = which === "config1" ? "first" : "second";
  return {
    local_file: {
      counted: { count: 2, filename: `${files}/counted-\${count.index}.txt`, content: `${word} \${count.index}` },
      keyed: { for_each: FOR_EACH_KEYS, filename: `${files}/keyed-\${each.value}.txt`, content: "same" },
    },
    local_sensitive_file: { secret: { filename: `${files}/secret.txt`, content: `${word} secret` } },
  };
}

function tofuConfig(entries: Entry[], which: "config1" | "config2", files: string): string {
  const resource: Record<string, Record<string, unknown>> = localResources(files, which);
  const sources = new Set<string>();
  for (const e of entries) {
    const source = `${PEER[e.flavour]}_source.src`;
    if (usesUnknown(e.c[which])) sources.add(PEER[e.flavour]);
    const body = render(e.c[which], source) as Record<string, unknown>;
    const repeat = e.repeat.kind === "count" ? { count: 2 } : e.repeat.kind === "for_each" ? { for_each: FOR_EACH_KEYS } : {};
    (resource[e.type] ??= {})[e.name] = { ...repeat, ...body };
  }
  for (const peer of sources) resource[`${peer}_source`] = { src: { input: "u" } };
  return JSON.stringify({ terraform: { required_providers: { shapesdk: { source: "bridge/shapesdk" }, shapefw: { source: "bridge/shapefw" } } }, resource }, null, 1);
}

/**
 * A provider folder for OpenTofu's dev_overrides whose shape peers are scripts running the real binaries with their
 * flavour's corpus schema (SHAPES_SCHEMA is one variable; one apply serves both): the same files are the packages'
 * local providers, so both sides run the same provider with the same store.
 */
function providerFolder(root: string): { folder: string; env: NodeJS.ProcessEnv } {
  const folder = join(root, "providers");
  mkdirSync(folder);
  for (const flavour of FLAVOURS) {
    const peer = PEER[flavour];
    const schema = join(root, `${peer}.shapes.json`);
    writeFileSync(schema, JSON.stringify({ resources: loadShapes(flavour) }));
    const script = join(folder, `terraform-provider-${peer}`);
    writeFileSync(script, `#!/bin/sh\nSHAPES_SCHEMA='${schema}' SHAPES_STORE='${join(root, "store", peer)}' exec '${realpathSync(peerPath(peer))}' "$@"\n`);
    chmodSync(script, 0o755);
  }
  cpSync(realpathSync(peerPath("local")), join(folder, "terraform-provider-local"));
  const rc = join(root, "tofurc");
  const overrides = ["bridge/shapesdk", "bridge/shapefw", "hashicorp/local"].map((a) => `    "${a}" = "${folder}"\n`).join("");
  writeFileSync(rc, `provider_installation {\n  dev_overrides {\n${overrides}  }\n  direct {}\n}\n`);
  return { folder, env: { ...process.env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" } };
}

/** A command's stdout; asynchronous, so the test worker keeps answering vitest during minutes-long commands. */
async function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const r = await spawnAsync(cmd, args, { cwd, env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stderr}\n${r.stdout.slice(-4000)}`);
  return r.stdout;
}

type Action = "none" | "update" | "replace" | "create" | "delete";
function stepAction(ops: string[]): Action {
  if (ops.some((o) => ["replace", "create-replacement", "delete-replaced"].includes(o))) return "replace";
  if (ops.includes("update")) return "update";
  if (ops.includes("create")) return "create";
  if (ops.includes("delete")) return "delete";
  return "none";
}
function tfAction(actions: string[]): Action {
  const a = actions.join(",");
  return a === "update" ? "update" : a === "create" ? "create" : a === "delete" ? "delete" : a === "no-op" || a === "" || a === "read" ? "none" : "replace";
}

/** OpenTofu's plan of the directory's configuration: the action for each managed instance it plans to change. */
async function tofuPlan(dir: string, env: NodeJS.ProcessEnv, file: string): Promise<Map<string, Action>> {
  const tofu = join(repoRoot, ".peers/tofu");
  await run(tofu, ["plan", "-no-color", "-input=false", "-parallelism=16", `-out=${file}`], dir, env);
  const plan = JSON.parse(await run(tofu, ["show", "-json", file], dir, env)) as { resource_changes?: { address: string; mode: string; change: { actions: string[] } }[] };
  return new Map((plan.resource_changes ?? []).filter((c) => c.mode === "managed").map((c) => [c.address, tfAction(c.change.actions)]));
}

describe("adopt with OpenTofu as the oracle: the shape peers' corpus", () => {
  const entries: Entry[] = [];
  const nodes = new Map<string, Node>();
  const models = new Map<Flavour, Map<string, ResourceModel>>();
  let root: string;
  let infra: string;
  let proj: string;
  let tofuEnv: NodeJS.ProcessEnv;
  let pulumiEnv: NodeJS.ProcessEnv;
  const timings: Record<string, number> = {};
  const timed = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    try {
      return await f();
    } finally {
      timings[what] = (Date.now() - t0) / 1000;
    }
  };

  beforeAll(async () => {
    root = scratch("tfbridge-adopt-oracle-");
    infra = join(root, "infra");
    proj = join(root, "proj");
    mkdirSync(join(infra, "files"), { recursive: true });
    mkdirSync(proj);
    const providers = providerFolder(root);
    tofuEnv = providers.env;
    pulumiEnv = { ...sandbox.env };
    for (const flavour of FLAVOURS) {
      const env = { SHAPES_SCHEMA: join(root, `${PEER[flavour]}.shapes.json`), SHAPES_STORE: join(root, "models-store") };
      const m = await shapeModels(flavour, env);
      models.set(flavour, m);
      selectCases(flavour).forEach((c, i) => {
        entries.push({ flavour, c, type: `${PEER[flavour]}_${c.shape}`, name: `c_${c.scenario.replace(/[^A-Za-z0-9_-]/g, "_")}`, repeat: repeatOf(i) });
        if (!nodes.has(`${flavour}/${c.shape}`)) nodes.set(`${flavour}/${c.shape}`, namedShapeNode(flavour, c.shape, m));
      });
    }
    writeFileSync(join(proj, "Pulumi.yaml"), "name: adopted\nruntime: yaml\n");
    await run("pulumi", ["stack", "init", "dev"], proj, pulumiEnv);
    for (const t of ["shapesdk", "shapefw", "local"]) await run("pulumi", ["package", "add", "terraform-provider", join(providers.folder, `terraform-provider-${t}`)], proj, pulumiEnv);
  }, 900_000);

  it("covers hundreds of corpus instances, sensitive and write-only attributes, nested blocks, count and for_each", () => {
    const instances = entries.reduce((n, e) => n + keysOf(e.repeat).length, 0);
    console.log(`adopt oracle: ${entries.length} corpus cases, ${instances} instances`);
    expect(instances).toBeGreaterThanOrEqual(300);
    const shapes = (f: Flavour) => loadShapes(f);
    const has = (word: string) => entries.filter((e) => JSON.stringify(shapes(e.flavour)[e.c.shape]).includes(word)).length;
    expect(has('"sensitive"')).toBeGreaterThanOrEqual(20);
    expect(has('"writeOnly"')).toBeGreaterThanOrEqual(8);
    expect(entries.filter((e) => JSON.stringify(shapes(e.flavour)[e.c.shape]!.blocks ?? {}).includes('"blocks"')).length).toBeGreaterThanOrEqual(4);
    expect(entries.filter((e) => e.repeat.kind === "count").length).toBeGreaterThanOrEqual(20);
    expect(entries.filter((e) => e.repeat.kind === "for_each").length).toBeGreaterThanOrEqual(20);
  });

  it("adopts every instance, previews clean, and plans each second configuration as OpenTofu does", async () => {
    const files = join(infra, "files");
    writeFileSync(join(infra, "main.tf.json"), tofuConfig(entries, "config1", files));
    await timed("tofu apply", () => run(join(repoRoot, ".peers/tofu"), ["apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=16"], infra, tofuEnv));
    const stateBefore = readFileSync(join(infra, "terraform.tfstate"), "utf8");

    const out = await timed("adopt", () =>
      run("pulumi", ["plugin", "run", "--kind", "resource", `terraform-provider@${VERSION}`, "--", "adopt", "--language", "yaml", "--out", "adopted", join(infra, "terraform.tfstate")], proj, pulumiEnv),
    );
    expect(readFileSync(join(infra, "terraform.tfstate"), "utf8")).toBe(stateBefore);
    const adopted = new Map([...out.matchAll(/^adopted (.+) as (\S+) (\S+)$/gm)].map((m) => [m[1]!, { token: m[2]!, name: m[3]! }]));
    const notAdopted = [...out.matchAll(/^not adopted (.+)$/gm)].map((m) => m[1]!);
    expect(notAdopted).toEqual([]);
    const expected = [
      ...entries.flatMap((e) => keysOf(e.repeat).map((k) => address(e.type, e.name, k))),
      "local_file.counted[0]",
      "local_file.counted[1]",
      'local_file.keyed["a"]',
      'local_file.keyed["b c"]',
      "local_sensitive_file.secret",
    ];
    expect([...adopted.keys()].sort()).toEqual(expected.sort());

    // The adopted code previews clean wherever OpenTofu's next plan of the unchanged configuration is clean (a few
    // shapes do not converge: their provider plans an update again after each apply, on both sides alike).
    const tofuNext = await tofuPlan(infra, tofuEnv, "plan1.bin");
    cpSync(join(proj, "adopted", "Main.yaml"), join(proj, "Main.yaml"));
    const clean = JSON.parse(await timed("preview (adopted code)", () => run("pulumi", ["preview", "--json"], proj, pulumiEnv))) as PreviewJson;
    const unclean: string[] = [];
    for (const [addr, { token, name }] of adopted) {
      const steps = (clean.steps ?? []).filter((s) => s.urn.endsWith(`::${token}::${name}`));
      const ours = stepAction(steps.map((s) => s.op));
      if (ours !== "none" && ours !== (tofuNext.get(addr) ?? "none")) unclean.push(`${addr}: Pulumi ${steps.map((s) => `${s.op} ${JSON.stringify(s.detailedDiff ?? {})}`).join(",")}, OpenTofu ${tofuNext.get(addr) ?? "none"}`);
    }
    const others = (clean.steps ?? []).filter((s) => s.op !== "same" && ![...adopted.values()].some((a) => s.urn.endsWith(`::${a.token}::${a.name}`)));
    expect(unclean).toEqual([]);
    expect(others.map((s) => `${s.op} ${s.urn}`)).toEqual([]);

    // The second configuration on both sides.
    writeFileSync(join(infra, "main.tf.json"), tofuConfig(entries, "config2", files));
    const tofuChange = await timed("tofu plan", () => tofuPlan(infra, tofuEnv, "plan2.bin"));
    writeFileSync(join(proj, "Main.yaml"), pulumiProgram(entries, adopted, files));
    const preview = JSON.parse(await timed("preview (second configuration)", () => run("pulumi", ["preview", "--json"], proj, pulumiEnv))) as PreviewJson;

    const disagreements: string[] = [];
    const counts: Record<string, number> = {};
    for (const [addr, { token, name }] of adopted) {
      const steps = (preview.steps ?? []).filter((s) => s.urn.endsWith(`::${token}::${name}`));
      const ours = stepAction(steps.map((s) => s.op));
      const theirs = tofuChange.get(addr) ?? "none";
      counts[theirs] = (counts[theirs] ?? 0) + 1;
      if (ours !== theirs) disagreements.push(`${addr}: Pulumi ${steps.map((s) => s.op).join(",") || "same"}, OpenTofu ${theirs}`);
    }
    console.log(`adopt oracle: ${adopted.size} adopted; OpenTofu's plan of the second configuration: ${JSON.stringify(counts)}; timings ${JSON.stringify(timings)}`);
    expect(disagreements).toEqual([]);
    // The change is a real one: OpenTofu's plan for the second configurations updates and replaces many instances.
    expect(counts["update"] ?? 0).toBeGreaterThanOrEqual(20);
    expect(counts["replace"] ?? 0).toBeGreaterThanOrEqual(20);
  }, 1_200_000);

  /** The second configuration as a YAML program: each instance under the name adopt gave it, unknowns from a source resource. */
  function pulumiProgram(list: Entry[], adopted: Map<string, { token: string; name: string }>, files: string): string {
    const resources: Record<string, unknown> = {};
    const sources = new Set<Flavour>();
    for (const e of list) {
      const model = models.get(e.flavour)!;
      const source = model.get(`${PEER[e.flavour]}_source`)!;
      const output = (tf: string) => source.properties.find((p) => p.tfName === tf)!.name;
      const props = tfToPulumi(nodes.get(`${e.flavour}/${e.c.shape}`)!, e.c.config2, (m) => {
        sources.add(e.flavour);
        return `\${src_${e.flavour}.${output(m.$unknown)}}`;
      });
      for (const k of keysOf(e.repeat)) {
        const a = adopted.get(address(e.type, e.name, k))!;
        resources[`r${Object.keys(resources).length}`] = { type: a.token, name: a.name, properties: props };
      }
    }
    for (const f of sources) resources[`src_${f}`] = { type: models.get(f)!.get(`${PEER[f]}_source`)!.token, properties: { input: "u" } };
    const local = (addr: string, properties: Record<string, string>) => {
      const a = adopted.get(addr)!;
      resources[`r${Object.keys(resources).length}`] = { type: a.token, name: a.name, properties };
    };
    local("local_file.counted[0]", { filename: `${files}/counted-0.txt`, content: "second 0" });
    local("local_file.counted[1]", { filename: `${files}/counted-1.txt`, content: "second 1" });
    local('local_file.keyed["a"]', { filename: `${files}/keyed-1.txt`, content: "same" });
    local('local_file.keyed["b c"]', { filename: `${files}/keyed-2.txt`, content: "same" });
    local("local_sensitive_file.secret", { filename: `${files}/secret.txt`, content: "second secret" });
    return `resources: ${JSON.stringify(resources, null, 1)}\n`;
  }
});
