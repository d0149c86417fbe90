// Terraform resource identity through the bridge against real bridgetest: kept in __meta, sent on every call, upgraded across identity schema versions, imported by.
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { META_KEY } from "../../src/bridge/meta.js";
import { BridgeError } from "../../src/bridge/types.js";
import type { PropertyMap } from "../../src/bridge/property-value.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { CallRecorder, RecordingProvider } from "../../src/terraform/recording.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { peerPath } from "../support/peers.js";
import { closedAfterEach } from "../support/launched.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-identity-"));
const open = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const T = "bridgetest:index/identified:Identified";
const OBJECT = "bridgetest:index/objectResource:ObjectResource";
const stateDir = join(scratch, "objects");

interface Call {
  method: string;
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
  error?: string;
}

let files = 0;
/** bridgetest through the bridge, every call recorded (the real provider, watched: the record shows what each call carried). */
async function bridge(identityVersion: "0" | "1", extraEnv: Record<string, string> = {}): Promise<{ b: TerraformBridge; calls: () => Call[] }> {
  const tf = await GrpcTerraformProvider.launch({
    path: peerPath("bridgetest"),
    env: { BRIDGETEST_STATE_DIR: stateDir, BRIDGETEST_IDENTITY_VERSION: identityVersion, ...extraEnv },
  });
  open.push(tf);
  const file = join(scratch, `calls-${files++}.jsonl`);
  const recorded = new RecordingProvider(tf, new CallRecorder(file), "bridgetest");
  const schema = await recorded.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" });
  const b = new TerraformBridge(recorded, schema, model);
  await b.configure({});
  const calls = (): Call[] =>
    readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Call);
  return { b, calls };
}

function meta(props: PropertyMap): Record<string, unknown> {
  return JSON.parse(props[META_KEY] as string) as Record<string, unknown>;
}

describe("resource identity through the bridge", () => {
  it("comes back on create, is sent on refresh, update and delete, and stays in __meta with its version", async () => {
    const { b, calls } = await bridge("1");
    const created = await b.create({ token: T, news: { name: "alpha" } });
    expect(meta(created.properties)).toMatchObject({ identity: { id: created.id, name: "alpha" }, identity_schema_version: "1" });

    const refreshed = await b.read({ token: T, id: created.id, state: created.properties, inputs: { name: "alpha" } });
    expect(meta(refreshed!.properties)).toMatchObject({ identity: { id: created.id, name: "alpha" }, identity_schema_version: "1" });

    // bridgetest's Update leaves the identity to the framework, which answers with the planned one: an update whose
    // apply did not carry it fails with "Missing Resource Identity After Update".
    const updated = await b.update({ token: T, id: created.id, olds: refreshed!.properties, news: { name: "alpha", note: "hello" } });
    expect(updated.properties["note"]).toBe("hello");
    expect(meta(updated.properties)).toMatchObject({ identity: { id: created.id, name: "alpha" }, identity_schema_version: "1" });

    await b.delete({ token: T, id: created.id, olds: updated.properties });
    expect(existsSync(join(stateDir, `${created.id}.json`))).toBe(false);

    const identity = { id: created.id, name: "alpha" };
    const c = calls().filter((x) => x.request["typeName"] === "bridgetest_identified");
    // The stored state is at the provider's schema version, so no UpgradeResourceState (docs/resources.md).
    expect(c.map((x) => x.method)).toEqual(["PlanResourceChange", "ApplyResourceChange", "ReadResource", "PlanResourceChange", "ApplyResourceChange", "PlanResourceChange", "ApplyResourceChange"]);
    const [plan0, apply0, read, plan1, apply1, plan2, apply2] = c;
    expect(plan0!.request["priorIdentity"]).toBeNull();
    expect(apply0!.response!["newIdentity"]).toEqual(identity);
    expect(read!.request["currentIdentity"]).toEqual(identity);
    expect(plan1!.request["priorIdentity"]).toEqual(identity);
    expect(apply1!.request["plannedIdentity"]).toEqual(identity);
    expect(plan2!.request["priorIdentity"]).toEqual(identity);
    expect(apply2!.request).toMatchObject({ plannedState: null, plannedIdentity: identity });
    // Fetched once per provider process.
    expect(calls().filter((x) => x.method === "GetResourceIdentitySchemas")).toHaveLength(1);
  });

  it("a resource without identity stores exactly what it did before, and its calls carry no identity", async () => {
    const { b, calls } = await bridge("1");
    const created = await b.create({ token: OBJECT, news: { name: "plain" } });
    expect(Object.keys(meta(created.properties))).toEqual(["schema_version", "private_state", "type"]);
    const refreshed = await b.read({ token: OBJECT, id: created.id, state: created.properties, inputs: { name: "plain" } });
    expect(Object.keys(meta(refreshed!.properties))).toEqual(["schema_version", "private_state", "type"]);
    await b.delete({ token: OBJECT, id: created.id, olds: refreshed!.properties });
    for (const x of calls().filter((y) => y.request["typeName"] === "bridgetest_object")) {
      expect(Object.keys(x.request).filter((k) => /identity/i.test(k))).toEqual([]);
      expect(Object.keys(x.response ?? {}).filter((k) => /identity/i.test(k))).toEqual([]);
    }
  });

  it("a state stored without identity (written before the provider had one) gets it on refresh", async () => {
    const { b, calls } = await bridge("1");
    const created = await b.create({ token: T, news: { name: "older" } });
    const { identity: _i, identity_schema_version: _v, ...rest } = meta(created.properties);
    const old = { ...created.properties, [META_KEY]: JSON.stringify(rest) };
    const refreshed = await b.read({ token: T, id: created.id, state: old, inputs: { name: "older" } });
    expect(meta(refreshed!.properties)).toMatchObject({ identity: { id: created.id, name: "older" }, identity_schema_version: "1" });
    expect(calls().find((x) => x.method === "ReadResource")!.request["currentIdentity"]).toBeNull();
    await b.delete({ token: T, id: created.id, olds: refreshed!.properties });
  });

  it("an identity stored at identity schema version 0 is upgraded to 1 by the provider, on refresh and before an update", async () => {
    const v0 = await bridge("0");
    const created = await v0.b.create({ token: T, news: { name: "legacy" } });
    expect(meta(created.properties)).toMatchObject({ identity: { object_id: created.id }, identity_schema_version: "0" });
    const otherCreated = await v0.b.create({ token: T, news: { name: "legacy-2" } });

    const v1 = await bridge("1");
    const refreshed = await v1.b.read({ token: T, id: created.id, state: created.properties, inputs: { name: "legacy" } });
    expect(meta(refreshed!.properties)).toMatchObject({ identity: { id: created.id, name: "legacy" }, identity_schema_version: "1" });
    const upgrade = v1.calls().find((x) => x.method === "UpgradeResourceIdentity")!;
    expect(upgrade.request).toEqual({ typeName: "bridgetest_identified", version: 0, rawIdentity: { object_id: created.id } });
    expect(upgrade.response!["upgradedIdentity"]).toEqual({ id: created.id, name: "legacy" });
    expect(v1.calls().find((x) => x.method === "ReadResource")!.request["currentIdentity"]).toEqual({ id: created.id, name: "legacy" });

    // Straight from the v0 state to an update: the plan gets the upgraded identity, and the new state keeps it.
    const updated = await v1.b.update({ token: T, id: otherCreated.id, olds: otherCreated.properties, news: { name: "legacy-2", note: "n" } });
    expect(meta(updated.properties)).toMatchObject({ identity: { id: otherCreated.id, name: "legacy-2" }, identity_schema_version: "1" });
    await v1.b.delete({ token: T, id: created.id, olds: refreshed!.properties });
    await v1.b.delete({ token: T, id: otherCreated.id, olds: updated.properties });
  });

  it("an identity stored at a newer identity schema version than the provider's is an error naming both", async () => {
    const v1 = await bridge("1");
    const created = await v1.b.create({ token: T, news: { name: "future" } });
    const v0 = await bridge("0");
    const err = await v0.b.read({ token: T, id: created.id, state: created.properties, inputs: { name: "future" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as Error).message).toBe(
      "the stored identity of bridgetest_identified has identity schema version 1, newer than the provider's 0: it was written by a newer version of the provider; use that version or a later one",
    );
    await v1.b.delete({ token: T, id: created.id, olds: created.properties });
  });
});

describe("import by identity", () => {
  it("takes the import id or the identity as JSON, with or without its optional attributes; both give the same state", async () => {
    const { b, calls } = await bridge("1");
    const created = await b.create({ token: T, news: { name: "adopt-me", note: "n" } });
    const byId = await b.read({ token: T, id: created.id });
    const byIdentity = await b.read({ token: T, id: JSON.stringify({ id: created.id }) });
    const byFull = await b.read({ token: T, id: JSON.stringify({ id: created.id, name: "adopt-me" }) });
    for (const r of [byId, byIdentity, byFull]) {
      expect(r!.id).toBe(created.id);
      expect(r!.inputs).toEqual({ name: "adopt-me", note: "n" });
      expect(meta(r!.properties)).toMatchObject({ identity: { id: created.id, name: "adopt-me" }, identity_schema_version: "1" });
    }
    const imports = calls().filter((x) => x.method === "ImportResourceState");
    expect(imports.map((x) => x.request)).toEqual([
      { typeName: "bridgetest_identified", id: created.id },
      { typeName: "bridgetest_identified", id: "", identity: { id: created.id, name: null } },
      { typeName: "bridgetest_identified", id: "", identity: { id: created.id, name: "adopt-me" } },
    ]);
    await b.delete({ token: T, id: created.id, olds: byIdentity!.properties });
  });

  it("an identity the provider rejects, or one with keys the resource does not know, fails with the reason", async () => {
    const { b, calls } = await bridge("1");
    const created = await b.create({ token: T, news: { name: "picky" } });
    const wrongName = await b.read({ token: T, id: JSON.stringify({ id: created.id, name: "other" }) }).catch((e: unknown) => e);
    expect(wrongName).toBeInstanceOf(BridgeError);
    expect((wrongName as Error).message).toContain(`bridgetest: identity does not match: object "${created.id}" is named "picky", not "other"`);

    const unknownKey = await b.read({ token: T, id: JSON.stringify({ identifier: created.id }) }).catch((e: unknown) => e);
    expect(unknownKey).toBeInstanceOf(BridgeError);
    expect((unknownKey as Error).message).toBe(
      `cannot import bridgetest_identified {"identifier":"${created.id}"}: the import identity has an attribute bridgetest_identified does not know: "identifier"; bridgetest_identified's identity attributes are id (required), name (optional)`,
    );
    // Refused before the provider was asked.
    expect(calls().filter((x) => x.method === "ImportResourceState")).toHaveLength(1);
    await b.delete({ token: T, id: created.id, olds: created.properties });
  });

  it("a resource without identity takes a JSON-looking argument as its import id", async () => {
    const { b, calls } = await bridge("1");
    const arg = JSON.stringify({ id: "nothing-here" });
    // bridgetest_object looks the id up as it is, and says it has no such object.
    const err = await b.read({ token: OBJECT, id: arg }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as Error).message).toContain(`bridgetest: cannot import: no object ${JSON.stringify(arg)}`);
    expect(calls().find((x) => x.method === "ImportResourceState")!.request).toEqual({ typeName: "bridgetest_object", id: arg });
  });
});

describe("deferred reads and imports", () => {
  it("a refresh or an import the provider defers fails naming the resource and the reason", async () => {
    const created = await (await bridge("1")).b.create({ token: T, news: { name: "later" } });
    const { b } = await bridge("1", { BRIDGETEST_DEFER: "read:absent_prereq,import:provider_config_unknown" });
    const refresh = await b.read({ token: T, id: created.id, state: created.properties, inputs: { name: "later" } }).catch((e: unknown) => e);
    expect(refresh).toBeInstanceOf(BridgeError);
    expect((refresh as Error).message).toBe(
      `reading bridgetest_identified "${created.id}" failed: the provider deferred the change (a prerequisite is absent); Pulumi cannot defer a resource, so make what it waits for known first`,
    );
    const imported = await b.read({ token: T, id: created.id }).catch((e: unknown) => e);
    expect(imported).toBeInstanceOf(BridgeError);
    expect((imported as Error).message).toBe(
      `importing bridgetest_identified "${created.id}" failed: the provider deferred the change (provider configuration unknown); Pulumi cannot defer a resource, so make what it waits for known first`,
    );
    unlinkSync(join(stateDir, `${created.id}.json`));
  });
});
