// The hardest oracle cases through the real Pulumi CLI (YAML): what a user sees in `pulumi preview --json` (step op,
// detailed diff) and what `pulumi up` stores, against OpenTofu's recorded plan and state for the same change.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PEER, loadCases, loadGolden, loadShapes, type Case, type Flavour } from "../crosstest/corpus.js";
import { listedDifferences, reconcile } from "../crosstest/differences.js";
import { pulumiToTf, tfToPulumi, valueDifferences, type Node } from "../crosstest/paths.js";
import { detailedDiffPaths, goldenPaths, namedShapeNode, shapeModels, type Disagreement } from "../crosstest/replay.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario, type PreviewJson } from "../support/lifecycle.js";
import type { ResourceModel } from "../../src/schema-translate/model.js";

const sandbox = e2eSandbox();

/** Sets of nested blocks with computed fields, force-new inside sets and lists, defaults, unknowns, decimals. */
const HARD = new RegExp(
  "^(block_set_(computed|forcenew_field|default|optional_computed)|nested_set_(computed|forcenew|default)|block_(list|maxone)_forcenew_field|" +
    "prim_(string|number|int)_optional_default|list_string_optional_forcenew|combined)\\." +
    "(unchanged|field-changed|added-end|removed-start|reordered|forcenew-field-changed|forcenew-element-added|unknown-field|duplicated|removed|changed|" +
    "unknown|added-unknown|decimal-0\\.1-unchanged|rule-added|rules-reordered|name-and-tags|ports-unknown|unknown-element|element-changed)$",
);

function yamlValue(v: unknown): string {
  return JSON.stringify(v);
}

/** A YAML program with one resource per case, and the source resource its unknowns come from when `source` is set. */
function program(flavour: Flavour, cases: Case[], which: "config1" | "config2", nodes: Map<string, Node>, models: Map<string, ResourceModel>): string {
  const peer = PEER[flavour];
  const source = models.get(`${peer}_source`)!;
  const output = (tf: string) => source.properties.find((p) => p.tfName === tf)!.name;
  const lines = ["resources:"];
  if (which === "config2") lines.push("  src:", `    type: ${source.token}`, "    properties:", "      input: u");
  cases.forEach((c, i) => {
    const props = tfToPulumi(nodes.get(c.shape)!, c[which], (m) => `\${src.${output(m.$unknown)}}`) as Record<string, unknown>;
    lines.push(`  c${i}:`, `    type: ${models.get(`${peer}_${c.shape}`)!.token}`, `    properties: ${yamlValue(props)}`);
  });
  return lines.join("\n") + "\n";
}

type Action = "none" | "update" | "replace";
function stepAction(ops: string[]): Action {
  if (ops.some((o) => ["replace", "create-replacement", "delete-replaced"].includes(o))) return "replace";
  if (ops.includes("update")) return "update";
  return "none";
}
function tfAction(actions: string[]): Action {
  const a = actions.join(",");
  return a === "update" ? "update" : a === "no-op" || a === "" ? "none" : "replace";
}

for (const flavour of ["framework", "sdkv2"] as const) {
  describe(`Terraform as the oracle through the Pulumi CLI: ${flavour}`, () => {
    const cases = loadCases(flavour).filter((c) => HARD.test(c.id) && loadGolden(flavour, c.id)?.errors === undefined);
    const nodes = new Map<string, Node>();
    let models: Map<string, ResourceModel>;
    let scenario: YamlScenario;
    const found: Disagreement[] = [];
    const say = (id: string, kind: Disagreement["kind"], detail: string) => found.push({ id, kind, detail });

    beforeAll(async () => {
      const dir = scratch(`crosstest-cli-${flavour}-`);
      const schemaFile = join(dir, "shapes.json");
      writeFileSync(schemaFile, JSON.stringify({ resources: loadShapes(flavour) }));
      const env = { SHAPES_SCHEMA: schemaFile, SHAPES_STORE: join(dir, "store") };
      models = await shapeModels(flavour, env);
      for (const c of cases) if (!nodes.has(c.shape)) nodes.set(c.shape, namedShapeNode(flavour, c.shape, models));
      scenario = await YamlScenario.create(sandbox, `crosstest-${flavour}`, [PEER[flavour]], env);
    }, 600_000);

    it(`takes at least 30 of the hardest cases (${flavour})`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(30);
    });

    it("previews what OpenTofu plans, stores what it stores, and plans nothing after", async () => {
      scenario.program(program(flavour, cases, "config1", nodes, models));
      await scenario.ok(["up", "--yes", "--skip-preview"]);
      // OpenTofu refreshes before it plans: `preview --refresh` is the same sequence.
      scenario.program(program(flavour, cases, "config2", nodes, models));
      const preview = JSON.parse((await scenario.ok(["preview", "--refresh", "--json"])).stdout) as PreviewJson;
      cases.forEach((c, i) => {
        const golden = loadGolden(flavour, c.id)!;
        const steps = (preview.steps ?? []).filter((s) => s.urn.endsWith(`::c${i}`));
        const ours = stepAction(steps.map((s) => s.op));
        if (ours !== tfAction(golden.plan.actions)) say(c.id, "action", `preview ${steps.map((s) => s.op).join(",")}, OpenTofu ${golden.plan.actions.join(",")}`);
        else if (ours === "replace") {
          const ops = steps.map((s) => s.op);
          const deleteFirst = ops.indexOf("delete-replaced") < ops.indexOf("create-replacement");
          if (deleteFirst !== (golden.plan.actions[0] === "delete")) say(c.id, "replace-order", `preview ${ops.join(",")}, OpenTofu ${golden.plan.actions.join(",")}`);
        }
        // `--refresh` adds refresh steps; the plan is the update, replace or create-replacement step.
        const main = steps.find((s) => ["update", "replace", "create-replacement"].includes(s.op));
        const node = nodes.get(c.shape)!;
        const oursPaths = detailedDiffPaths(node, (main?.detailedDiff as Record<string, { kind?: unknown }> | undefined) ?? {});
        const tf = goldenPaths(golden);
        const inputOnly = (p: string) => !(node.kind === "object" && node.fields[p.split(/[.[:]/)[0]!]?.computedOnly === true);
        const missing = [...tf].filter((p) => inputOnly(p) && !oursPaths.has(p));
        const extra = [...oursPaths].filter((p) => !tf.has(p));
        if (missing.length + extra.length > 0) say(c.id, "detailed-diff", `missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
      });

      await scenario.ok(["up", "--yes", "--skip-preview"]);
      const resources = await scenario.resources();
      cases.forEach((c, i) => {
        const r = resources.find((x) => x.urn.endsWith(`::c${i}`));
        const node = nodes.get(c.shape)!;
        const cmp: Node = node.kind === "object" ? { kind: "object", fields: Object.fromEntries(Object.entries(node.fields).filter(([k]) => k !== "id")) } : node;
        const d = valueDifferences(cmp, pulumiToTf(cmp, r?.outputs ?? {}), loadGolden(flavour, c.id)!.state2);
        if (d.length > 0) say(c.id, "state2", d.join(", "));
      });

      const after = JSON.parse((await scenario.ok(["preview", "--refresh", "--json"])).stdout) as PreviewJson;
      cases.forEach((c, i) => {
        const ops = (after.steps ?? []).filter((s) => s.urn.endsWith(`::c${i}`)).map((s) => s.op);
        const golden = loadGolden(flavour, c.id)!;
        if (stepAction(ops) !== "none" && golden.planAfterApply.length === 0) say(c.id, "refresh", `the next preview wants ${ops.join(",")}, OpenTofu nothing`);
      });
      await scenario.ok(["destroy", "--yes", "--skip-preview"]);

      console.log(`crosstest CLI ${flavour}: ${cases.length} cases, ${found.length} disagreements`);
      const report = process.env["CROSSTEST_REPORT"];
      if (report !== undefined) writeFileSync(report.replace("{flavour}", `cli-${flavour}`), JSON.stringify(found, null, 1));
      const { unlisted } = reconcile(found, listedDifferences(flavour));
      expect(unlisted.map((d) => `${d.id} [${d.kind}] ${d.detail}`)).toEqual([]);
    }, 1_200_000);
  });
}

