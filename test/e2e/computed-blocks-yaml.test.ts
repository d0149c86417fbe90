// Terraform 1.16's computed nested blocks through the real Pulumi CLI with a YAML program, against Terraform v1.16.4 on
// the same peer (test/peers/cblock: `addresses` computed-only, `rules` optional and computed): previews show the blocks
// unknown where Terraform's plans do, the stack holds what Terraform's state holds, refresh keeps it, and the
// output-only block is no input of the resource.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";
import { expectSuccess, runPulumi } from "../support/pulumi.js";
import { terraformBin } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { UNKNOWN } from "../support/reference-ops.js";
import { devOverridesEnv } from "../support/terraform-cli.js";

const sandbox = e2eSandbox();

/** The values the provider computes (the peer's id is `srv-<name>`, nothing in it is random, so all compare). */
const COMPUTED_KEYS = ["id", "addresses", "rules"] as const;

interface TerraformFacts {
  /** `after_unknown` of the create plan and of the rename's plan, and the rename's `after` (`terraform show -json <plan>`). */
  createUnknown: Record<string, unknown>;
  renameUnknown: Record<string, unknown>;
  renameAfter: Record<string, unknown>;
  /** The resource's values in Terraform's state after the create and after the rename. */
  created: Record<string, unknown>;
  renamed: Record<string, unknown>;
}

const hcl = (name: string): string =>
  `terraform {\n  required_providers {\n    cblock = { source = "acme/cblock" }\n  }\n}\n\nresource "cblock_server" "s" {\n  name = "${name}"\n}\n`;

/** Terraform's plan of `name` on top of whatever state `dir` holds, as the saved plan shows it. */
async function tfPlan(dir: string, env: NodeJS.ProcessEnv, name: string, planFile: string): Promise<{ after: Record<string, unknown>; after_unknown: Record<string, unknown> }> {
  writeFileSync(join(dir, "main.tf"), hcl(name));
  await execAsync(terraformBin(), ["plan", `-out=${planFile}`, "-no-color", "-input=false"], { cwd: dir, env });
  const shown = JSON.parse((await execAsync(terraformBin(), ["show", "-json", planFile], { cwd: dir, env })).stdout) as {
    resource_changes: { change: { after: Record<string, unknown>; after_unknown: Record<string, unknown> } }[];
  };
  return shown.resource_changes[0]!.change;
}

/** Terraform on the same peer and the same changes: create `alpha`, then rename it `beta` (plan, apply, state each). */
async function terraformFacts(): Promise<TerraformFacts> {
  const root = scratch("tfbridge-cbe2e-tf-");
  const env = devOverridesEnv(root, { "acme/cblock": "cblock" });
  const dir = join(root, "tf");
  mkdirSync(dir);
  const create = await tfPlan(dir, env, "alpha", "create.plan");
  const created = await tfApply(dir, env, "create.plan");
  const rename = await tfPlan(dir, env, "beta", "rename.plan");
  const renamed = await tfApply(dir, env, "rename.plan");
  return { createUnknown: create.after_unknown, renameUnknown: rename.after_unknown, renameAfter: rename.after, created, renamed };
}

/** Applies a saved plan; the resource's values in Terraform's state after it. */
async function tfApply(dir: string, env: NodeJS.ProcessEnv, planFile: string): Promise<Record<string, unknown>> {
  await execAsync(terraformBin(), ["apply", "-no-color", "-input=false", planFile], { cwd: dir, env });
  const state = JSON.parse((await execAsync(terraformBin(), ["show", "-json"], { cwd: dir, env })).stdout) as {
    values: { root_module: { resources: { values: Record<string, unknown> }[] } };
  };
  return state.values.root_module.resources[0]!.values;
}

const program = (name: string, extra: string[] = []): string =>
  ["resources:", "  server:", "    type: cblock:index/server:Server", "    properties:", `      name: ${name}`, ...extra].join("\n");

interface Previewed {
  op: string;
  /** What the provider planned for `server`: the outputs of its step's resOutputsEvent. */
  outputs: Record<string, unknown>;
}

/**
 * `pulumi preview` of the project: the operation and the planned outputs of `server`. `preview --json` leaves a
 * step's outputs out (its steps are the engine's pre-events), so the engine's events are streamed instead
 * (PULUMI_ENABLE_STREAMING_JSON_PREVIEW, one JSON event a line) and the outputs taken from its resOutputsEvent.
 */
async function preview(s: YamlScenario): Promise<Previewed> {
  const r = expectSuccess(await runPulumi(["preview", "--json"], { cwd: s.dir, env: { ...s.env, PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true" } }), `pulumi preview in ${s.dir}`);
  type Event = {
    resourcePreEvent?: { metadata: { urn: string; op: string } };
    resOutputsEvent?: { metadata: { urn: string; new?: { outputs?: Record<string, unknown> } } };
  };
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Event);
  const pre = events.find((e) => e.resourcePreEvent?.metadata.urn.endsWith("::server"))?.resourcePreEvent;
  const done = events.find((e) => e.resOutputsEvent?.metadata.urn.endsWith("::server"))?.resOutputsEvent;
  expect(done?.metadata.new?.outputs, `no outputs event for server in:\n${r.stdout}`).toBeDefined();
  return { op: pre?.metadata.op ?? "none", outputs: done!.metadata.new!.outputs! };
}

/** Which of the computed values a preview has unknown, as `after_unknown` says it: key → true. */
const previewUnknown = (p: Previewed): Record<string, boolean> => Object.fromEntries(COMPUTED_KEYS.map((k) => [k, p.outputs[k] === UNKNOWN]));
const terraformUnknown = (afterUnknown: Record<string, unknown>): Record<string, boolean> => Object.fromEntries(COMPUTED_KEYS.map((k) => [k, afterUnknown[k] === true]));
const computedOf = (values: Record<string, unknown> | undefined): Record<string, unknown> => Object.fromEntries(COMPUTED_KEYS.map((k) => [k, values?.[k]]));

describe("computed nested blocks through the Pulumi CLI (YAML), against Terraform 1.16.4", () => {
  let terraform: Promise<TerraformFacts>;
  let s: YamlScenario;
  beforeAll(() => {
    // Terraform runs while the Pulumi project is made and previewed; each test awaits what it needs.
    terraform = terraformFacts();
    terraform.catch(() => undefined);
  });

  it("a create's preview has the computed blocks unknown where Terraform's plan does", async () => {
    s = await YamlScenario.create(sandbox, "cblock-yaml", ["cblock"]);
    s.program(program("alpha"));
    const planned = await preview(s);
    expect(planned.op).toBe("create");
    const tf = await terraform;
    expect(terraformUnknown(tf.createUnknown)).toEqual({ id: true, addresses: true, rules: true });
    expect(previewUnknown(planned)).toEqual(terraformUnknown(tf.createUnknown));
  }, 120_000);

  it("up stores the blocks the provider computed, as Terraform's state holds them; refresh keeps them", async () => {
    await s.up();
    const stored = (await s.resource("server"))?.outputs;
    const tf = await terraform;
    expect(computedOf(tf.created)).toEqual({
      id: "srv-alpha",
      addresses: [{ address: "alpha.1.example" }, { address: "alpha.2.example" }],
      rules: [{ port: 443, protocol: "tcp" }],
    });
    expect(computedOf(stored)).toEqual(computedOf(tf.created));
    // The program set neither block, and the inputs say so: no diff against what the provider computed.
    const inputs = (await s.resource("server"))?.inputs ?? {};
    expect(Object.keys(inputs)).not.toContain("addresses");
    expect(Object.keys(inputs)).not.toContain("rules");

    await s.ok(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(computedOf((await s.resource("server"))?.outputs)).toEqual(computedOf(tf.created));
    await s.ok(["preview", "--expect-no-changes"]);
  }, 120_000);

  it("setting the output-only block is refused before anything runs: it is no input of the resource", async () => {
    s.program(program("alpha", ["      addresses:", "        - address: mine.example"]));
    const r = await s.pulumi(["preview"]);
    expect(r.code).not.toBe(0);
    const out = r.stdout + r.stderr;
    // Pulumi YAML checks the program against the package schema, where `addresses` is an output only and `rules` (its
    // `port` optional) an input too; the bridge's own check (`addresses is computed by the provider and cannot be set`)
    // is for SDKs that send it anyway, tested in test/integration/computed-blocks.test.ts.
    expect(out).toContain("Property addresses does not exist on 'cblock:index/server:Server'");
    const inputs = /Existing properties are: (.*)/.exec(out)?.[1]?.split(", ").sort();
    expect(inputs).toEqual(["name", "passwordWo", "rules", "zone"]);
    expect(computedOf((await s.resource("server"))?.outputs)["addresses"]).toEqual([{ address: "alpha.1.example" }, { address: "alpha.2.example" }]);
  }, 120_000);

  it("a rename's preview has the addresses unknown and the rules kept where Terraform's plan does, and its state is Terraform's", async () => {
    s.program(program("beta"));
    const planned = await preview(s);
    expect(planned.op).toBe("update");
    const tf = await terraform;
    expect(terraformUnknown(tf.renameUnknown)).toEqual({ id: false, addresses: true, rules: false });
    expect(previewUnknown(planned)).toEqual(terraformUnknown(tf.renameUnknown));
    // What stays known is the prior value, in both.
    expect(tf.renameAfter["rules"]).toEqual(tf.created["rules"]);
    expect(planned.outputs["rules"]).toEqual(tf.renameAfter["rules"]);

    await s.up();
    expect(computedOf(tf.renamed)).toEqual({ id: "srv-alpha", addresses: [{ address: "beta.1.example" }, { address: "beta.2.example" }], rules: [{ port: 443, protocol: "tcp" }] });
    expect(computedOf((await s.resource("server"))?.outputs)).toEqual(computedOf(tf.renamed));
    await s.ok(["preview", "--expect-no-changes"]);
  }, 120_000);
});
