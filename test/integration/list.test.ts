// Pulumi's List over real bridgetest's list resource through the bridge: the query as the list's config, pages with
// continuation tokens, the limit across pages, an unknown query, bad queries and tokens, and every listed id importing.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { listedId, type ListPage, type ListRequest } from "../../src/bridge/list.js";
import { COMPUTED } from "../../src/bridge/property-value.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { CallRecorder, RecordingProvider } from "../../src/terraform/recording.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { peerPath } from "../support/peers.js";
import { waitGone } from "../support/processes.js";

const T = "bridgetest:index/identified:Identified";
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-list-"));
let tf: GrpcTerraformProvider;
let b: TerraformBridge;
const ids: Record<string, string> = {};

beforeAll(async () => {
  tf = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest"), env: { BRIDGETEST_STATE_DIR: scratch } });
  const schema = await tf.getProviderSchema();
  b = new TerraformBridge(tf, schema, buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" }));
  await b.configure({});
  for (const name of ["a1", "a2", "a3", "a4", "a5", "b1"]) ids[name] = (await b.create({ token: T, news: { name, note: name.startsWith("a") ? "first" : "second" } })).id;
  // Another resource type in the same directory: never listed as an identified object.
  await b.create({ token: "bridgetest:index/objectResource:ObjectResource", news: { name: "other" } });
}, 60_000);

afterAll(async () => {
  const pid = tf.process.pid;
  await tf.close();
  expect(await waitGone(pid)).toBe(true);
  rmSync(scratch, { recursive: true, force: true });
});

const request = (r: Partial<ListRequest>): ListRequest => ({ query: {}, limit: 0, pageSize: 0, continuationToken: "", ...r });

/** Every page, following continuation tokens as `pulumi do … list --all` does. */
async function all(r: Partial<ListRequest>): Promise<{ pages: number; names: string[]; ids: string[] }> {
  const names: string[] = [];
  const got: string[] = [];
  let token = "";
  let pages = 0;
  for (;;) {
    const page = await b.list(T, request({ ...r, continuationToken: token }));
    if (page === "computed") throw new Error("computed");
    pages++;
    for (const x of page.results) {
      names.push(x.name);
      got.push(x.id);
    }
    token = page.continuationToken;
    if (token === "") return { pages, names, ids: got };
  }
}

describe("List over bridgetest's list resource", () => {
  it("lists every object of the type, with the object's id and its display name", async () => {
    const page = (await b.list(T, request({}))) as Exclude<ListPage, "computed">;
    expect(page.continuationToken).toBe("");
    expect(Object.fromEntries(page.results.map((r) => [r.name, r.id]))).toEqual(ids);
  });

  it("filters by the list inputs, converted by the model's names", async () => {
    expect((await all({ query: { namePrefix: "a", note: "first" } })).names.sort()).toEqual(["a1", "a2", "a3", "a4", "a5"]);
    expect((await all({ query: { note: "second" } })).ids).toEqual([ids["b1"]]);
  });

  it("pages by page size with continuation tokens, in the provider's order, without repeats", async () => {
    const whole = await all({});
    const paged = await all({ pageSize: 2 });
    expect(paged.pages).toBe(3);
    expect(paged.ids).toEqual(whole.ids);
  });

  it("stops at the limit across pages", async () => {
    const whole = await all({});
    const limited = await all({ limit: 3, pageSize: 2 });
    expect(limited.pages).toBe(2);
    expect(limited.ids).toEqual(whole.ids.slice(0, 3));
    expect((await all({ limit: 6, pageSize: 3 })).pages).toBe(2);
  });

  it("answers computed for an unknown query, without calling the provider", async () => {
    expect(await b.list(T, request({ query: { namePrefix: COMPUTED } }))).toBe("computed");
  });

  it("refuses what it cannot list, naming what to do", async () => {
    await expect(b.list(T, request({ query: { region: "x" } }))).rejects.toThrow(`${T} has no list input region; its list inputs are namePrefix, note`);
    await expect(b.list(T, request({ query: { note: ["a", "b"] } }))).rejects.toThrow(/the list query for bridgetest:index\/identified:Identified is not valid: note/);
    await expect(b.list("bridgetest:index/objectResource:ObjectResource", request({}))).rejects.toThrow(/cannot be listed: its Terraform provider has no list resource bridgetest_object/);
    await expect(b.list(T, request({ continuationToken: "garbage" }))).rejects.toThrow(/was not made by this provider; start the listing again without one/);
    const first = (await b.list(T, request({ pageSize: 1 }))) as Exclude<ListPage, "computed">;
    await expect(b.list(T, request({ pageSize: 1, query: { note: "first" }, continuationToken: first.continuationToken }))).rejects.toThrow(/belongs to a listing with another query or limit/);
  });

  it("lists ids that import: Read by each id finds the object", async () => {
    const page = (await b.list(T, request({ query: { namePrefix: "a1" } }))) as Exclude<ListPage, "computed">;
    const imported = await b.read({ token: T, id: page.results[0]!.id, state: {}, inputs: {} });
    expect(imported?.id).toBe(ids["a1"]);
    expect(imported?.properties["name"]).toBe("a1");
  });

  it("without the object, the identity as JSON is the id, and import by it finds the object", async () => {
    // What a resource whose Pulumi id is not its `id` gets: the provider's events without objects.
    const stream = await tf.listResource({ typeName: "bridgetest_identified", config: { name_prefix: "b1", note: null }, includeResource: false, limit: 10 });
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events).toHaveLength(1);
    expect(events[0]!.resourceObject).toBeUndefined();
    const id = listedId(b.model.resources.get("bridgetest_identified")!, events[0]!, (await tf.getResourceIdentitySchemas()).get("bridgetest_identified"));
    expect(JSON.parse(id)).toEqual({ id: ids["b1"], name: "b1" });
    const imported = await b.read({ token: T, id, state: {}, inputs: {} });
    expect(imported?.id).toBe(ids["b1"]);
    expect(imported?.properties["note"]).toBe("second");
  });

  it("lists through a recording provider, which records the validation and the stream's opening", async () => {
    const file = join(scratch, "calls.jsonl");
    const recorded = new RecordingProvider(tf, new CallRecorder(file), "bridgetest");
    const schema = await recorded.getProviderSchema();
    const rb = new TerraformBridge(recorded, schema, b.model);
    const page = (await rb.list(T, request({ query: { note: "second" } }))) as Exclude<ListPage, "computed">;
    expect(page.results.map((r) => r.id)).toEqual([ids["b1"]]);
    const calls = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { method: string; request: Record<string, unknown>; response: unknown });
    expect(calls.map((c) => c.method)).toEqual(["GetProviderSchema", "ValidateListResourceConfig", "GetResourceIdentitySchemas", "ListResource"]);
    expect(calls[3]!.request).toMatchObject({ typeName: "bridgetest_identified", config: { name_prefix: null, note: "second" }, includeResource: true });
    expect(calls[3]!.response).toEqual({ stream: "opened" });
  });
});
