// The bridge against a real SDKv2 provider (terraform-provider-httpapi, protocol 5) managing a real loopback HTTP
// service: max-items-1 blocks, customTimeouts → `timeouts`, schema upgrades, import, data source, partial failure.
// No fakes: the service and the provider are built from test/peers/httpapi; faults are switched on in the service.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { META_KEY } from "../../src/bridge/meta.js";
import { BridgeError, PartialFailure } from "../../src/bridge/types.js";
import { Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";
import { peerPath } from "../support/peers.js";
import { waitGone } from "../support/processes.js";

const T = "httpapi:index/item:Item";
let api: HttpApiServer;
const open: GrpcTerraformProvider[] = [];

beforeAll(async () => {
  api = await startHttpApi();
});
afterAll(async () => {
  await api?.stop();
});
beforeEach(async () => {
  await api.reset();
});
afterEach(async () => {
  const pids = open.map((p) => p.process.pid);
  await Promise.all(open.splice(0).map((p) => p.close()));
  for (const pid of pids) expect(await waitGone(pid)).toBe(true);
});

async function bridge(config: PropertyMap = { endpoint: api.url, token: new Secret(api.token) }): Promise<TerraformBridge> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath("httpapi") });
  open.push(tf);
  const schema = await tf.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: "httpapi", packageVersion: "0.0.0" });
  const b = new TerraformBridge(tf, schema, model);
  expect((await b.checkConfig(config)).failures).toEqual([]);
  await b.configure(config);
  return b;
}

const full: PropertyMap = {
  name: "full",
  size: 42,
  tags: { env: "test", team: "bridge" },
  settings: { mode: "fast", enabled: true, retries: 3 },
  rules: [{ port: 80 }, { port: 53, protocol: "udp", cidr: "127.0.0.0/8" }],
};

describe("httpapi (SDKv2) through the bridge", () => {
  it("a max-items-1 block is one object in Pulumi and a one-element list in Terraform, both ways", async () => {
    const b = await bridge();
    const created = await b.create({ token: T, news: full });
    // Pulumi → Terraform: the provider received settings as its one block element and sent it to the service.
    const [stored] = await api.items();
    expect(stored).toMatchObject({ id: created.id, name: "full", size: 42, settings: { mode: "fast", enabled: true, retries: 3 } });
    expect(stored!.rules).toEqual([{ port: 80, protocol: "tcp" }, { port: 53, protocol: "udp", cidr: "127.0.0.0/8" }]);
    // Terraform → Pulumi: an object, not a list; the non-max-items-1 `rule` block stays a list named `rules`.
    expect(created.properties["settings"]).toEqual({ mode: "fast", enabled: true, retries: 3 });
    expect(created.properties["rules"]).toEqual([
      { port: 80, protocol: "tcp", cidr: "" },
      { port: 53, protocol: "udp", cidr: "127.0.0.0/8" },
    ]);
    expect(created.properties["etag"]).toBe(stored!.etag);

    // A change inside the flattened block is reported at its Pulumi path, without an index.
    const d = await b.diff({ token: T, id: created.id, olds: created.properties, news: { ...full, settings: { mode: "safe", enabled: true, retries: 3 } } });
    expect(d).toMatchObject({ changes: "some", replaces: [] });
    expect(d.detailedDiff).toMatchObject({ "settings.mode": "update" });
    // ...and so are validation failures inside it, in the reason with the value given, since the engine prints only
    // a top-level property's value.
    const bad = await b.check({ token: T, name: "x", olds: {}, news: { ...full, settings: { mode: "turbo" } } });
    expect(bad.failures).toEqual([{ property: "", reason: expect.stringMatching(/^settings\.mode = "turbo": expected settings\.0\.mode to be one of/) }]);

    const updated = await b.update({ token: T, id: created.id, olds: created.properties, news: { ...full, settings: { mode: "safe" } } });
    expect(updated.properties["settings"]).toEqual({ mode: "safe", enabled: false, retries: 0 });
    expect((await api.items())[0]!.settings).toEqual({ mode: "safe", enabled: false, retries: 0 });
    // Removing the block: Terraform sees an empty list, Pulumi null.
    const cleared = await b.update({ token: T, id: created.id, olds: updated.properties, news: { ...full, settings: null } });
    expect(cleared.properties["settings"]).toBeNull();
    expect((await api.items())[0]!.settings).toBeUndefined();

    const refreshed = await b.read({ token: T, id: created.id, state: cleared.properties, inputs: { ...full, settings: null } });
    expect(refreshed?.properties["settings"]).toBeNull();
    await b.delete({ token: T, id: created.id, olds: cleared.properties });
    expect(await api.items()).toEqual([]);
  });

  it("customTimeouts reach the TF timeouts block: the provider's own deadline ends a slow create and update", async () => {
    const b = await bridge();
    const created = await b.create({ token: T, news: { name: "timed" }, timeoutSeconds: 30 });
    // SDKv2 keeps the block in state and the parsed durations (nanoseconds) in its private state.
    expect(created.properties["timeouts"]).toEqual({ create: "30s", update: null, delete: null });
    const priv = JSON.parse(Buffer.from(JSON.parse(created.properties[META_KEY] as string).private_state, "base64").toString()) as Record<string, Record<string, number>>;
    expect(priv["e2bfb730-ecaa-11e6-8f88-34363bc7c4c0"]).toMatchObject({ create: 30e9 });

    // Writes take 15 s; a deadline of 1-2 s must end them far sooner (generous bounds: these machines are shared).
    await api.setFaults({ delay_ms: 15_000 });
    let started = Date.now();
    const slowCreate = await b.create({ token: T, news: { name: "slow" }, timeoutSeconds: 1 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(slowCreate).toBeInstanceOf(BridgeError);
    expect((slowCreate as Error).message).toMatch(/creating item "slow": .*context deadline exceeded.*\(timeout 1s\)/s);

    started = Date.now();
    const slowUpdate = await b.update({ token: T, id: created.id, olds: created.properties, news: { name: "timed", size: 5 }, timeoutSeconds: 2 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The update failed with its prior state kept (SDKv2 partial mode): a PartialFailure with the old outputs.
    expect(slowUpdate).toBeInstanceOf(PartialFailure);
    expect((slowUpdate as PartialFailure).reasons[0]).toMatch(/updating item .*context deadline exceeded.*\(timeout 2s\)/s);
    expect((slowUpdate as PartialFailure).properties["size"]).toBe(0);

    await api.clearFaults();
    // The service never stored the abandoned create; the first item is unchanged.
    expect((await api.items()).map((i) => [i.name, i.size])).toEqual([["timed", undefined]]);
    // The program's own timeouts block wins over customTimeouts.
    const own = await b.create({ token: T, news: { name: "own", timeouts: { create: "45s" } }, timeoutSeconds: 1 });
    expect(own.properties["timeouts"]).toMatchObject({ create: "45s" });
  }, 60_000);

  it("customTimeouts reach delete too: SDKv2 reads the delete deadline from its private state, and it ends a slow delete", async () => {
    const b = await bridge();
    const created = await b.create({ token: T, news: { name: "doomed" } });
    const own = await b.create({ token: T, news: { name: "patient", timeouts: { delete: "45s" } } });
    await api.setFaults({ delay_ms: 15_000 });
    let started = Date.now();
    const slowDelete = await b.delete({ token: T, id: created.id, olds: created.properties, timeoutSeconds: 1 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(slowDelete).toBeInstanceOf(BridgeError);
    expect((slowDelete as Error).message).toMatch(/deleting item .*context deadline exceeded.*\(timeout 1s\)/s);
    // The program's own timeouts.delete wins: 45 s, so the 15 s delete finishes.
    started = Date.now();
    await b.delete({ token: T, id: own.id, olds: own.properties, timeoutSeconds: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
    await api.clearFaults();
    // (The previous test's abandoned slow write may land meanwhile; only this test's items count.)
    const mine = async (): Promise<string[]> => (await api.items()).map((i) => i.name).filter((n) => n === "doomed" || n === "patient");
    expect(await mine()).toEqual(["doomed"]);
    await b.delete({ token: T, id: created.id, olds: created.properties, timeoutSeconds: 30 });
    expect(await mine()).toEqual([]);
  }, 60_000);

  it("state from schema version 0 is upgraded by the provider's StateUpgrader before planning and reading", async () => {
    const b = await bridge();
    const created = await b.create({ token: T, news: { name: "old", rules: [{ port: 22 }] } });
    const meta = JSON.parse(created.properties[META_KEY] as string) as Record<string, string>;
    // Version 0 stored protocols upper-case and the etag quoted.
    const v0State = (version: string): PropertyMap => ({
      ...created.properties,
      rules: [{ port: 22, protocol: "TCP", cidr: "" }],
      etag: `"${created.properties["etag"] as string}"`,
      [META_KEY]: JSON.stringify({ ...meta, schema_version: version }),
    });
    const inputs = { name: "old", rules: [{ port: 22, protocol: "tcp" }] };
    // Upgraded, the stored state matches the program: no changes.
    expect(await b.diff({ token: T, id: created.id, olds: v0State("0"), news: inputs })).toMatchObject({ changes: "none", detailedDiff: {} });
    // The same values claimed as version 1 are not upgraded, and the provider plans the protocol change.
    expect((await b.diff({ token: T, id: created.id, olds: v0State("1"), news: inputs })).detailedDiff).toMatchObject({ "rules[0].protocol": "update" });

    const refreshed = await b.read({ token: T, id: created.id, state: v0State("0"), inputs });
    expect(JSON.parse(refreshed!.properties[META_KEY] as string)).toMatchObject({ schema_version: "1" });
    expect(refreshed!.properties["etag"]).toBe(created.properties["etag"]);
    const updated = await b.update({ token: T, id: created.id, olds: v0State("0"), news: { ...inputs, size: 7 } });
    expect(updated.properties).toMatchObject({ size: 7, rules: [{ port: 22, protocol: "tcp", cidr: "" }] });
  });

  it("import: ImportResourceState (passthrough) then ReadResource, inputs derived from what the service holds", async () => {
    const b = await bridge();
    const made = await b.create({ token: T, news: full });
    const imported = await b.read({ token: T, id: made.id });
    expect(imported?.id).toBe(made.id);
    expect(imported?.properties).toMatchObject({ name: "full", size: 42, settings: { mode: "fast", enabled: true, retries: 3 }, etag: made.properties["etag"] });
    expect(imported?.inputs).toMatchObject({ name: "full", size: 42, tags: { env: "test", team: "bridge" }, settings: { mode: "fast", enabled: true, retries: 3 } });
    // What Terraform 1.14 generates: an optional string holding "" (SDKv2's null) is left out, like computed-only etag.
    expect(imported?.inputs["rules"]).toEqual([
      { port: 80, protocol: "tcp" },
      { port: 53, protocol: "udp", cidr: "127.0.0.0/8" },
    ]);
    expect(imported?.inputs["etag"]).toBeUndefined(); // computed-only
    // The imported state plans no change against the program that describes the item, nor against the generated inputs.
    expect((await b.diff({ token: T, id: made.id, olds: imported!.properties, news: full })).changes).toBe("none");
    expect((await b.diff({ token: T, id: made.id, olds: imported!.properties, news: imported!.inputs })).changes).toBe("none");
    // An id the service does not know: the import reads nothing, so the resource does not exist.
    expect(await b.read({ token: T, id: "item-9999" })).toBeUndefined();
  });

  it("refresh reports an item deleted out of band as gone, and deleting it again is success", async () => {
    const b = await bridge();
    const made = await b.create({ token: T, news: { name: "ephemeral" } });
    await api.reset();
    expect(await b.read({ token: T, id: made.id, state: made.properties, inputs: { name: "ephemeral" } })).toBeUndefined();
    await b.delete({ token: T, id: made.id, olds: made.properties });
  });

  it("a failed delete is an error and keeps the item; deleting again succeeds", async () => {
    const b = await bridge();
    const made = await b.create({ token: T, news: { name: "sticky" } });
    await api.setFaults({ fail_delete: 1 });
    await expect(b.delete({ token: T, id: made.id, olds: made.properties })).rejects.toThrow(/deleting httpapi_item failed[\s\S]*injected fault fail_delete/);
    expect(await api.items()).toHaveLength(1);
    await b.delete({ token: T, id: made.id, olds: made.properties });
    expect(await api.items()).toEqual([]);
  });

  it("the data source lists items through invoke", async () => {
    const b = await bridge();
    const a = await b.create({ token: T, news: { name: "ds-a", size: 1 } });
    await b.create({ token: T, news: { name: "other", size: 2 } });
    const r = await b.invoke("httpapi:index/getItems:getItems", { namePrefix: "ds-" });
    expect(r.failures).toEqual([]);
    expect(r.result["ids"]).toEqual([a.id]);
    expect(r.result["items"]).toEqual([expect.objectContaining({ id: a.id, name: "ds-a", size: 1 })]);
  });

  it("the sensitive token is sent as a bearer token: a wrong one fails with the service's 401", async () => {
    // Not a word of the service's message: what a provider says back is scrubbed of every secret it was handed.
    const b = await bridge({ endpoint: api.url, token: new Secret("not-the-token-42") });
    await expect(b.create({ token: T, news: { name: "nope" } })).rejects.toThrow(/HTTP 401: missing or wrong bearer token/);
    expect(await api.items()).toEqual([]);
  });

  describe("partial failure", () => {
    it("a create that fails after the service stored the item is a PartialFailure; an update then finishes it, no duplicate", async () => {
      const b = await bridge();
      await api.setFaults({ fail_after_create: 1 });
      const err = await b.create({ token: T, news: full }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartialFailure);
      const pf = err as PartialFailure;
      const items = await api.items();
      expect(items).toHaveLength(1);
      expect(pf.id).toBe(items[0]!.id);
      // The outputs are what exists (a bare item), the inputs what the program wants.
      expect(pf.properties).toMatchObject({ name: "full", size: 0, settings: null, rules: [], etag: items[0]!.etag });
      expect(pf.inputs).toEqual(full);
      expect(pf.reasons[0]).toMatch(/creating httpapi_item failed part-way[\s\S]*injected fault fail_after_create/);
      expect(JSON.parse(pf.properties[META_KEY] as string)).toMatchObject({ schema_version: "1" });

      // What the engine does next: diff the recorded outputs against the inputs, then update.
      const d = await b.diff({ token: T, id: pf.id, olds: pf.properties, news: full });
      expect(d.changes).toBe("some");
      expect(d.replaces).toEqual([]);
      const done = await b.update({ token: T, id: pf.id, olds: pf.properties, news: full });
      expect(done.properties).toMatchObject({ size: 42, settings: { mode: "fast", enabled: true, retries: 3 } });
      const after = await api.items();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: pf.id, size: 42, tags: { env: "test", team: "bridge" }, settings: { mode: "fast" } });
      expect((await api.stats())["creates"]).toBe(1); // the failed one, and none since
    });

    it("a create whose second step (configure) fails is a PartialFailure too", async () => {
      const b = await bridge();
      await api.setFaults({ fail_update: 1 });
      const pf = (await b.create({ token: T, news: { name: "half", size: 3 } }).catch((e: unknown) => e)) as PartialFailure;
      expect(pf).toBeInstanceOf(PartialFailure);
      expect(pf.reasons[0]).toMatch(/configuring the new item item-\d+ failed/);
      expect(pf.properties).toMatchObject({ name: "half", size: 0, revision: 1 });
    });

    it("a failed update keeps the prior outputs (SDKv2 partial mode) and is reported as a PartialFailure", async () => {
      const b = await bridge();
      const made = await b.create({ token: T, news: { name: "upd", size: 1 } });
      await api.setFaults({ fail_update: 1 });
      const pf = (await b.update({ token: T, id: made.id, olds: made.properties, news: { name: "upd", size: 2 } }).catch((e: unknown) => e)) as PartialFailure;
      expect(pf).toBeInstanceOf(PartialFailure);
      expect(pf.id).toBe(made.id);
      expect(pf.properties["size"]).toBe(1);
      expect(pf.inputs).toEqual({ name: "upd", size: 2 });
    });

    it("a create that fails before anything is stored is a plain error: nothing to record", async () => {
      const b = await bridge();
      await api.setFaults({ fail_create: 1 });
      const err = await b.create({ token: T, news: { name: "never" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BridgeError);
      expect(err).not.toBeInstanceOf(PartialFailure);
      expect(await api.items()).toEqual([]);
    });
  });
});
