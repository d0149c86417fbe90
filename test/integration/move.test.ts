// Moves across resource types (MoveResourceState) through the bridge against real bridgetest: a bridgetest_named's state handed to bridgetest_relabeled, as a Pulumi alias that changes the type does.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { META_KEY } from "../../src/bridge/meta.js";
import { BridgeError } from "../../src/bridge/types.js";
import type { PropertyMap } from "../../src/bridge/property-value.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { CallRecorder, RecordingProvider } from "../../src/terraform/recording.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { peerPath, terraformBin } from "../support/peers.js";
import { spawnAsync, waitGone } from "../support/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-move-"));
const stateDir = join(scratch, "objects");
const open: GrpcTerraformProvider[] = [];
afterEach(async () => {
  const pids = open.map((p) => p.process.pid);
  await Promise.all(open.splice(0).map((p) => p.close()));
  for (const pid of pids) expect(await waitGone(pid)).toBe(true);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NAMED = "bridgetest:index/named:Named";
const RELABELED = "bridgetest:index/relabeled:Relabeled";
const IDENTIFIED = "bridgetest:index/identified:Identified";
const ADDRESS = "registry.terraform.io/bridge/bridgetest";

interface Call {
  method: string;
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
}

let files = 0;
/** bridgetest through the bridge, every call recorded. */
async function bridge(providerAddress = ADDRESS): Promise<{ b: TerraformBridge; calls: () => Call[] }> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest"), env: { BRIDGETEST_STATE_DIR: stateDir } });
  open.push(tf);
  const file = join(scratch, `calls-${files++}.jsonl`);
  const recorded = new RecordingProvider(tf, new CallRecorder(file), "bridgetest");
  const schema = await recorded.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" });
  const b = new TerraformBridge(recorded, schema, model, () => undefined, { providerAddress });
  await b.configure({});
  const calls = (): Call[] =>
    existsSync(file)
      ? readFileSync(file, "utf8")
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l) as Call)
      : [];
  return { b, calls };
}

function meta(props: PropertyMap): Record<string, unknown> {
  return JSON.parse(props[META_KEY] as string) as Record<string, unknown>;
}

function storedFile(id: string): { resource: string; state: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(stateDir, `${id}.json`), "utf8")) as { resource: string; state: Record<string, unknown> };
}

describe("moving a resource's state to another type", () => {
  it("keeps the Terraform type in __meta", async () => {
    const { b } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "typed", note: "n" } });
    expect(meta(created.properties)).toMatchObject({ schema_version: "0", type: "bridgetest_named" });
    await b.delete({ token: NAMED, id: created.id, olds: created.properties });
  });

  it("hands a bridgetest_named's state to bridgetest_relabeled through MoveResourceState; diff shows the move, update keeps the object", async () => {
    const { b, calls } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "moved-1", note: "hello" } });
    const olds = created.properties;
    const news = { name: "moved-1", label: "hello" };

    const diff = await b.diff({ token: RELABELED, id: created.id, olds, news });
    // Nothing to change in the moved object, yet the engine must write the new type's outputs: a change, no replacement.
    expect(diff).toMatchObject({ changes: "some", replaces: [] });
    expect(diff.detailedDiff).toEqual({ note: "delete", namePrefix: "delete", label: "add" });
    const move = calls().find((c) => c.method === "MoveResourceState");
    expect(move?.request).toMatchObject({
      sourceProviderAddress: ADDRESS,
      sourceTypeName: "bridgetest_named",
      sourceSchemaVersion: 0,
      sourceState: { id: created.id, name: "moved-1", name_prefix: null, note: "hello" },
      targetTypeName: "bridgetest_relabeled",
    });
    expect(move?.response).toMatchObject({ targetState: { id: created.id, name: "moved-1", label: "hello" } });

    const before = calls().length;
    const updated = await b.update({ token: RELABELED, id: created.id, olds, news });
    expect(updated.properties).toMatchObject({ id: created.id, name: "moved-1", label: "hello" });
    expect(updated.properties["note"]).toBeUndefined();
    const m = meta(updated.properties);
    expect(m).toMatchObject({ schema_version: "0", type: "bridgetest_relabeled" });
    // The mover's private state is kept, as Terraform keeps it.
    expect(JSON.parse(Buffer.from(m["private_state"] as string, "base64").toString())).toMatchObject({ moved_from: expect.any(String) });
    // A move the plan leaves unchanged applies nothing, as in Terraform: the object is the one the named resource wrote.
    expect(calls().slice(before).map((c) => c.method)).not.toContain("ApplyResourceChange");
    expect(storedFile(created.id).resource).toBe("bridgetest_named");

    // From then on the state is the new type's: no move, no change.
    const after = calls().length;
    expect(await b.diff({ token: RELABELED, id: created.id, olds: updated.properties, news })).toMatchObject({ changes: "none" });
    const refreshed = await b.read({ token: RELABELED, id: created.id, state: updated.properties, inputs: news });
    expect(refreshed?.properties).toMatchObject({ id: created.id, name: "moved-1", label: "hello" });
    expect(calls().slice(after).map((c) => c.method)).not.toContain("MoveResourceState");

    const relabeled = await b.update({ token: RELABELED, id: created.id, olds: refreshed!.properties, news: { ...news, label: "changed" } });
    expect(relabeled.properties["label"]).toBe("changed");
    expect(storedFile(created.id)).toMatchObject({ resource: "bridgetest_relabeled", state: { label: "changed" } });
    await b.delete({ token: RELABELED, id: created.id, olds: relabeled.properties });
    expect(existsSync(join(stateDir, `${created.id}.json`))).toBe(false);
  });

  it("moves and changes in one update when the program also changed a property", async () => {
    const { b, calls } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "moved-2", note: "old" } });
    const news = { name: "moved-2", label: "new" };
    const diff = await b.diff({ token: RELABELED, id: created.id, olds: created.properties, news });
    expect(diff).toMatchObject({ changes: "some", replaces: [], detailedDiff: { label: "update" } });
    const updated = await b.update({ token: RELABELED, id: created.id, olds: created.properties, news });
    expect(updated.properties).toMatchObject({ id: created.id, label: "new" });
    expect(meta(updated.properties)["type"]).toBe("bridgetest_relabeled");
    expect(calls().map((c) => c.method)).toContain("ApplyResourceChange");
    expect(storedFile(created.id)).toMatchObject({ resource: "bridgetest_relabeled", state: { name: "moved-2", label: "new" } });
    await b.delete({ token: RELABELED, id: created.id, olds: updated.properties });
  });

  it("refreshes and deletes a moved resource straight from the old type's state", async () => {
    const { b } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "moved-3", note: "r" } });
    const read = await b.read({ token: RELABELED, id: created.id, state: created.properties, inputs: { name: "moved-3", label: "r" } });
    expect(read?.properties).toMatchObject({ id: created.id, name: "moved-3", label: "r" });
    expect(meta(read!.properties)["type"]).toBe("bridgetest_relabeled");
    await b.delete({ token: RELABELED, id: created.id, olds: created.properties });
    expect(existsSync(join(stateDir, `${created.id}.json`))).toBe(false);
  });

  it("reads a state written before the type was kept (or by the reference) as the resource's own type", async () => {
    const { b, calls } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "legacy", note: "x" } });
    const { type: _t, ...legacyMeta } = meta(created.properties);
    const legacy = { ...created.properties, [META_KEY]: JSON.stringify(legacyMeta) };
    expect(await b.diff({ token: NAMED, id: created.id, olds: legacy, news: { name: "legacy", note: "x" } })).toMatchObject({ changes: "none" });
    const updated = await b.update({ token: NAMED, id: created.id, olds: legacy, news: { name: "legacy", note: "y" } });
    expect(meta(updated.properties)["type"]).toBe("bridgetest_named");
    expect(calls().map((c) => c.method)).not.toContain("MoveResourceState");
    await b.delete({ token: NAMED, id: created.id, olds: updated.properties });
  });

  it("names both types and the ways on when the target cannot take the source over", async () => {
    const { b } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "stuck", note: "x" } });
    const err = await b.diff({ token: IDENTIFIED, id: created.id, olds: created.properties, news: { name: "stuck" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BridgeError);
    const message = (err as Error).message;
    expect(message).toContain(`cannot move ${created.id} from bridgetest_named (${NAMED}) to bridgetest_identified (${IDENTIFIED})`);
    expect(message).toContain("Unable to Move Resource State");
    expect(message).toContain("remove the alias");
    expect(message).toContain(`pulumi import ${IDENTIFIED}`);
    await b.delete({ token: NAMED, id: created.id, olds: created.properties });
  });

  it("passes on the provider's refusal of a source it does not accept (another provider's address)", async () => {
    const { b } = await bridge("registry.terraform.io/acme/other");
    const created = await b.create({ token: NAMED, news: { name: "elsewhere", note: "x" } });
    await expect(b.diff({ token: RELABELED, id: created.id, olds: created.properties, news: { name: "elsewhere" } })).rejects.toThrow(
      /cannot move .* from bridgetest_named .* to bridgetest_relabeled[^]*does not include support for the given source resource[^]*Source Provider Address: registry.terraform.io\/acme\/other/,
    );
    await b.delete({ token: NAMED, id: created.id, olds: created.properties });
  });

  it("refuses a source type the package does not have, naming it", async () => {
    const { b } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "gone", note: "x" } });
    const olds = { ...created.properties, [META_KEY]: JSON.stringify({ ...meta(created.properties), type: "bridgetest_gone" }) };
    await expect(b.diff({ token: RELABELED, id: created.id, olds, news: { name: "gone" } })).rejects.toThrow(
      /cannot move .* from bridgetest_gone to bridgetest_relabeled .*: this package has no bridgetest_gone/,
    );
    await b.delete({ token: NAMED, id: created.id, olds: created.properties });
  });
});

/** Terraform v1.16.4 with bridgetest through dev_overrides, in a directory of its own; `main.tf` is rewritten per step. */
function terraform(name: string): { dir: string; run: (args: string[], hcl: string) => ReturnType<typeof spawnAsync> } {
  const dir = join(scratch, name);
  const providers = join(dir, "providers");
  mkdirSync(providers, { recursive: true });
  symlinkSync(peerPath("bridgetest"), join(providers, "terraform-provider-bridgetest"));
  const rc = join(dir, "terraformrc");
  writeFileSync(rc, `provider_installation {\n  dev_overrides {\n    "bridge/bridgetest" = "${providers}"\n  }\n  direct {}\n}\n`);
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", BRIDGETEST_STATE_DIR: stateDir };
  const header = `terraform {\n  required_providers {\n    bridgetest = { source = "bridge/bridgetest" }\n  }\n}\n\n`;
  return {
    dir,
    run: (args, hcl) => {
      writeFileSync(join(dir, "main.tf"), header + hcl);
      return spawnAsync(terraformBin(), args, { cwd: dir, env });
    },
  };
}

/** The one resource instance of a Terraform state file: its type, attributes and private state. */
function tfInstance(dir: string): { type: string; attributes: Record<string, unknown>; private: Record<string, unknown> } {
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as {
    resources: { type: string; instances: { attributes: Record<string, unknown>; private?: string }[] }[];
  };
  expect(state.resources).toHaveLength(1);
  const r = state.resources[0]!;
  const priv = r.instances[0]!.private;
  return { type: r.type, attributes: r.instances[0]!.attributes, private: priv === undefined ? {} : (JSON.parse(Buffer.from(priv, "base64").toString()) as Record<string, unknown>) };
}

describe("the same move in Terraform v1.16.4 (a moved block) and through the bridge (an alias)", () => {
  it("ends with the same state", { timeout: 120_000 }, async () => {
    const named = (name: string): string => `resource "bridgetest_named" "x" {\n  name = "${name}"\n  note = "hello"\n}\n`;
    const relabeled = (name: string, from = "bridgetest_named"): string =>
      `resource "bridgetest_relabeled" "x" {\n  name  = "${name}"\n  label = "hello"\n}\n\nmoved {\n  from = ${from}.x\n  to   = bridgetest_relabeled.x\n}\n`;
    const tf = terraform("oracle");
    const ok = async (args: string[], hcl: string): Promise<string> => {
      const r = await tf.run(args, hcl);
      if (r.status !== 0) throw new Error(`terraform ${args.join(" ")} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };
    await ok(["apply", "-auto-approve", "-no-color"], named("oracle-move"));
    const before = tfInstance(tf.dir);
    const plan = await ok(["plan", "-no-color", "-detailed-exitcode"], relabeled("oracle-move")).catch((e: Error) => e.message);
    // Terraform plans the move alone: no create, update or destroy.
    expect(plan).toContain("bridgetest_named.x has moved to bridgetest_relabeled.x");
    expect(plan).toContain("0 to add, 0 to change, 0 to destroy");
    await ok(["apply", "-auto-approve", "-no-color"], relabeled("oracle-move"));
    const oracle = tfInstance(tf.dir);
    expect(oracle.type).toBe("bridgetest_relabeled");
    expect(await ok(["plan", "-no-color", "-detailed-exitcode"], relabeled("oracle-move"))).toContain("No changes.");

    // The bridge, from the same starting object: create as bridgetest_named, then update as bridgetest_relabeled.
    const { b } = await bridge();
    const created = await b.create({ token: NAMED, news: { name: "bridge-move", note: "hello" } });
    expect(created.properties).toMatchObject({ note: before.attributes["note"], namePrefix: before.attributes["name_prefix"] });
    const news = { name: "bridge-move", label: "hello" };
    expect((await b.diff({ token: RELABELED, id: created.id, olds: created.properties, news })).replaces).toEqual([]);
    const moved = await b.update({ token: RELABELED, id: created.id, olds: created.properties, news });
    const { [META_KEY]: m, ...outputs } = moved.properties;
    const privateState = JSON.parse(Buffer.from(JSON.parse(m as string).private_state as string, "base64").toString()) as Record<string, unknown>;
    const same = (attrs: Record<string, unknown>, id: string, name: string): Record<string, unknown> => ({ ...attrs, id: attrs["id"] === id ? "<id>" : attrs["id"], name: attrs["name"] === name ? "<name>" : attrs["name"] });
    expect(same(outputs, created.id, "bridge-move")).toEqual(same(oracle.attributes, oracle.attributes["id"] as string, "oracle-move"));
    expect(Object.keys(privateState)).toEqual(Object.keys(oracle.private));
    expect(privateState[movedKey]).toEqual(oracle.private[movedKey]);
    await b.delete({ token: RELABELED, id: created.id, olds: moved.properties });

    // A move the target does not support: both refuse it with the provider's own diagnostic.
    const refused = await tf.run(["plan", "-no-color"], `resource "bridgetest_identified" "x" {\n  name = "oracle-move"\n}\n\nmoved {\n  from = bridgetest_relabeled.x\n  to   = bridgetest_identified.x\n}\n`);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("Unable to Move Resource State");
    await ok(["destroy", "-auto-approve", "-no-color"], relabeled("oracle-move"));
  });
});

/** The private key bridgetest_relabeled's mover sets. */
const movedKey = "moved_from";
