// Terraform 1.16's computed blocks and planned private data, the bridge against Terraform v1.16.4 itself: the cblock peer
// (test/peers/cblock, which speaks protocol 6 from Terraform's own descriptor) records what every plan and apply
// receives; the same create and update run through Terraform and through the bridge, and their records, plans and
// states are compared.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { COMPUTED, Secret } from "../../src/bridge/property-value.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { closedAfterEach } from "../support/launched.js";
import { peerPath, terraformBin } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { devOverridesEnv } from "../support/terraform-cli.js";

type Rec = Record<string, unknown> & { rpc: string };
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-cblock-"));
const open = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const records = (file: string): Rec[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Rec);
const calls = (recs: Rec[], rpc: string): Rec[] => recs.filter((r) => r.rpc === rpc);
/** The private data the peer's apply returns, having received `planned` (test/peers/cblock/resource.go). */
const appliedPrivate = (planned: string): string => `{"applied":true,"received":${JSON.stringify(planned)}}`;

/** What Terraform did: the peer's record of each step and the state after it. */
const terraform: {
  create: Rec[];
  update: Rec[];
  replace: Rec[];
  created: Record<string, unknown>;
  updated: Record<string, unknown>;
  replaced: Record<string, unknown>;
  planned: Record<string, unknown>;
} = {} as never;

async function tfRun(dir: string, env: NodeJS.ProcessEnv, record: string, resource: string): Promise<Rec[]> {
  writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    cblock = { source = "acme/cblock" }\n  }\n}\n\n${resource}\n`);
  await execAsync(terraformBin(), ["apply", "-auto-approve", "-no-color"], { cwd: dir, env: { ...env, CBLOCK_RECORD: record } });
  return records(record);
}

async function tfState(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const shown = JSON.parse((await execAsync(terraformBin(), ["show", "-json"], { cwd: dir, env })).stdout) as { values: { root_module: { resources: { values: Record<string, unknown> }[] } } };
  return shown.values.root_module.resources[0]!.values;
}

beforeAll(async () => {
  const env = devOverridesEnv(scratch, { "acme/cblock": "cblock" });
  const dir = join(scratch, "tf");
  mkdirSync(dir);
  // The plan alone, for what Terraform shows before the apply.
  writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    cblock = { source = "acme/cblock" }\n  }\n}\n\nresource "cblock_server" "s" {\n  name = "alpha"\n}\n`);
  await execAsync(terraformBin(), ["plan", "-out=create.plan", "-no-color"], { cwd: dir, env });
  const plan = JSON.parse((await execAsync(terraformBin(), ["show", "-json", "create.plan"], { cwd: dir, env })).stdout) as { resource_changes: { change: { after: Record<string, unknown>; after_unknown: Record<string, unknown> } }[] };
  terraform.planned = plan.resource_changes[0]!.change.after_unknown;
  terraform.create = await tfRun(dir, env, join(scratch, "tf-create.jsonl"), `resource "cblock_server" "s" {\n  name = "alpha"\n}`);
  terraform.created = await tfState(dir, env);
  terraform.update = await tfRun(dir, env, join(scratch, "tf-update.jsonl"), `resource "cblock_server" "s" {\n  name        = "beta"\n  password_wo = "s3cret"\n  rules {\n    port = 8080\n  }\n}`);
  terraform.updated = await tfState(dir, env);
  terraform.replace = await tfRun(dir, env, join(scratch, "tf-replace.jsonl"), `resource "cblock_server" "s" {\n  name = "beta"\n  zone = "b"\n  rules {\n    port = 8080\n  }\n}`);
  terraform.replaced = await tfState(dir, env);
}, 120_000);

async function bridge(record: string): Promise<TerraformBridge> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath("cblock"), env: { CBLOCK_RECORD: record } });
  open.push(tf);
  const schema = await tf.getProviderSchema();
  const b = new TerraformBridge(tf, schema, buildProviderModel(schema, { packageName: "cblock", packageVersion: "1.0.0" }));
  await b.configure({});
  return b;
}

const token = "cblock:index/server:Server";
const urn = "urn:pulumi:dev::p::cblock:index/server:Server::s";
/** The provider's own values of a state: the blocks and the id, as Terraform stores them. */
const computed = (v: Record<string, unknown>) => ({ id: v["id"], addresses: v["addresses"], rules: v["rules"] });
/** What a plan or apply call was given, without the capabilities (compared on their own). */
const given = (r: Rec) => ({ config: r["config"], proposed: r["proposed"], prior_private: r["prior_private"], planned_private: r["planned_private"] });

describe("computed blocks and planned private data, the bridge against Terraform 1.16.4", () => {
  it("Terraform sends a plan's private data back with the plan before the apply, and the capabilities", () => {
    const [planWalk, applyWalk] = calls(terraform.create, "PlanResourceChange");
    expect(planWalk!["planned_private"]).toBe("");
    expect(applyWalk!["planned_private"]).toBe('{"planned":"alpha","received":""}');
    expect(planWalk!["capabilities"]).toMatchObject({ store_planned_private: true, computed_blocks_allowed: true });
  });

  it("creates: the plan is given what Terraform's is, the preview shows the blocks unknown, the state is Terraform's", async () => {
    const record = join(scratch, "bridge-create.jsonl");
    const b = await bridge(record);
    const news = (await b.check({ token, name: "s", olds: {}, news: { name: "alpha" }, urn })).inputs;
    const preview = await b.create({ token, news, urn, preview: true });
    // Terraform's plan has the computed blocks (and the id) unknown, as the preview does.
    expect(terraform.planned).toMatchObject({ addresses: true, rules: true, id: true });
    expect(preview.properties).toMatchObject({ addresses: COMPUTED, rules: COMPUTED });
    const created = await b.create({ token, news, urn });
    expect(created.id).toBe(terraform.created["id"]);
    expect({ id: created.id, addresses: created.properties["addresses"], rules: created.properties["rules"] }).toEqual(computed(terraform.created));

    const mine = records(record);
    const tfPlans = calls(terraform.create, "PlanResourceChange");
    // Both plans of a create are given the configuration with the empty computed blocks null, as Terraform gives it.
    for (const r of calls(mine, "PlanResourceChange")) {
      expect(r).toMatchObject({ config_addresses_null: true, config_rules_null: true });
      expect(given(r)).toEqual(given(tfPlans[0]!));
      for (const c of ["store_planned_private", "computed_blocks_allowed", "write_only_attributes_allowed"]) {
        expect((r["capabilities"] as Record<string, boolean>)[c], c).toBe((tfPlans[0]!["capabilities"] as Record<string, boolean>)[c]);
      }
    }
    // A create plans once per run here (no earlier plan of it in this process), and its apply gets that plan's private data.
    expect(calls(mine, "ApplyResourceChange")[0]!["planned_private"]).toBe('{"planned":"alpha","received":""}');
  });

  it("updates: the Update's new plan gets the Diff's private data, as Terraform's apply-time plan gets its plan's; state and refresh keep what the provider computed", async () => {
    const record = join(scratch, "bridge-update.jsonl");
    const b = await bridge(record);
    const createdNews = (await b.check({ token, name: "s", olds: {}, news: { name: "alpha" }, urn })).inputs;
    const created = await b.create({ token, news: createdNews, urn });
    rmSync(record);
    // As the engine runs an update: check (which holds the write-only value back), diff, update.
    const news = (await b.check({ token, name: "s", olds: createdNews, news: { name: "beta", passwordWo: new Secret("s3cret"), rules: [{ port: 8080 }] }, urn })).inputs;
    const diff = await b.diff({ token, id: created.id, olds: created.properties, news, urn });
    expect(diff.changes).toBe("some");
    const updated = await b.update({ token, id: created.id, olds: created.properties, news, urn });
    expect({ id: created.id, addresses: updated.properties["addresses"], rules: updated.properties["rules"] }).toEqual(computed(terraform.updated));

    const mine = records(record);
    const [diffPlan, updatePlan] = calls(mine, "PlanResourceChange");
    const [tfPlanWalk, tfApplyWalk] = calls(terraform.update, "PlanResourceChange");
    expect(diffPlan!["planned_private"]).toBe(tfPlanWalk!["planned_private"]);
    // The Update plans anew (its configuration has the write-only value the Diff's lacked) and is handed the Diff's plan's private data.
    expect(updatePlan!["planned_private"]).toBe('{"planned":"beta","received":""}');
    expect({ ...given(updatePlan!), prior_private: undefined }).toEqual({ ...given(tfApplyWalk!), prior_private: undefined });
    // The stored private data is each one's own create's: Terraform planned that create twice (plan and apply walks),
    // the bridge once, so Terraform's apply got private data one plan deeper.
    const createdWith = (recs: Rec[]) => calls(recs, "ApplyResourceChange")[0]!["planned_private"] as string;
    expect(createdWith(terraform.create)).toBe('{"planned":"alpha","received":"{\\"planned\\":\\"alpha\\",\\"received\\":\\"\\"}"}');
    expect(tfApplyWalk!["prior_private"]).toBe(appliedPrivate(createdWith(terraform.create)));
    expect(updatePlan!["prior_private"]).toBe(appliedPrivate('{"planned":"alpha","received":""}'));
    expect(updatePlan!["planned"]).toEqual(tfApplyWalk!["planned"]);
    expect(calls(mine, "ApplyResourceChange")[0]!["planned_private"]).toBe(calls(terraform.update, "ApplyResourceChange")[0]!["planned_private"]);

    // Refresh keeps the computed blocks; a program that never set them has no inputs for them.
    const read = await b.read({ token, id: created.id, state: updated.properties, inputs: { name: "beta", rules: [{ port: 8080 }] }, urn });
    expect(read?.properties["addresses"]).toEqual(terraform.updated["addresses"]);
    expect(read?.properties["rules"]).toEqual(terraform.updated["rules"]);
    expect(read?.inputs["addresses"]).toBeUndefined();
  });

  it("replaces: the create plan of the replacement and the Create's plan are handed private data as Terraform's are", async () => {
    const record = join(scratch, "bridge-replace.jsonl");
    const b = await bridge(record);
    const olds = (await b.check({ token, name: "s", olds: {}, news: { name: "beta", rules: [{ port: 8080 }] }, urn })).inputs;
    const created = await b.create({ token, news: olds, urn });
    rmSync(record);
    const news = (await b.check({ token, name: "s", olds, news: { name: "beta", zone: "b", rules: [{ port: 8080 }] }, urn })).inputs;
    const diff = await b.diff({ token, id: created.id, olds: created.properties, news, urn });
    expect(diff.replaces).toEqual(["zone"]);
    const replaced = await b.create({ token, news, urn });
    await b.delete({ token, id: created.id, olds: created.properties, urn });
    expect({ id: replaced.id, addresses: replaced.properties["addresses"], rules: replaced.properties["rules"] }).toEqual(computed(terraform.replaced));

    // After the first plan (whose prior private data is each one's stored state): Terraform's plan of the new object,
    // from a null prior with the first plan's private data as prior_private, then the apply-time plan of the create,
    // handed that plan's private data; the bridge's Diff and Create make the same two plans.
    const handed = (recs: Rec[]) => [
      ...calls(recs, "PlanResourceChange").slice(1).map((r) => ({ prior: r["prior"], prior_private: r["prior_private"], planned_private: r["planned_private"] })),
      ...calls(recs, "ApplyResourceChange").filter((r) => r["new"] !== null).map((r) => ({ applied: r["planned_private"] })),
    ];
    expect(handed(terraform.replace)).toEqual([
      { prior: null, prior_private: '{"planned":"beta","received":""}', planned_private: "" },
      { prior: null, prior_private: "", planned_private: '{"planned":"beta","received":""}' },
      { applied: '{"planned":"beta","received":"{\\"planned\\":\\"beta\\",\\"received\\":\\"\\"}"}' },
    ]);
    expect(handed(records(record))).toEqual(handed(terraform.replace));
  });

  it("refuses an output-only block as an input, and plans an unchanged computed block as no change", async () => {
    const b = await bridge(join(scratch, "bridge-check.jsonl"));
    const check = await b.check({ token, name: "s", olds: {}, news: { name: "alpha", addresses: [{ address: "x" }] }, urn });
    expect(check.failures).toEqual([{ property: "addresses", reason: "addresses is computed by the provider and cannot be set" }]);
    const news = (await b.check({ token, name: "s", olds: {}, news: { name: "alpha" }, urn })).inputs;
    const created = await b.create({ token, news, urn });
    const diff = await b.diff({ token, id: created.id, olds: created.properties, news, urn });
    expect(diff.changes).toBe("none");
  });
});

