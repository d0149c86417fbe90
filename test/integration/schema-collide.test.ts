// Terraform attributes that are one Pulumi name (`foo_bar` and `foo__bar`) through the plugin process and a real
// framework provider (shapefw, given a resource of its own): distinct in the schema, each input written to its own
// attribute, both read back. The shape lives in this test, not in bridgetest or the oracle corpus, because the
// reference bridge merges the two names and every suite that compares with it would differ on purpose.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess, type PluginProcess } from "../support/pulumi.js";
import { fromStruct, toStruct } from "../support/reference-ops.js";

const TOKEN = "shapefw:index/collide:Collide";
const URN = `urn:pulumi:test::collide::${TOKEN}::c`;
const pair = { foo_bar: { type: "string", optional: true }, foo__bar: { type: "string", optional: true } };
const shapes = { resources: { collide: { attributes: { ...pair, to_string: { type: "string", optional: true } }, blocks: { settings: { mode: "single", attributes: pair } } } } };

const dir = mkdtempSync(join(tmpdir(), "tfbridge-collide-"));
const store = join(dir, "store");
let plugin: PluginProcess;

beforeAll(async () => {
  writeFileSync(join(dir, "shapes.json"), JSON.stringify(shapes));
  plugin = await startPluginProcess({ env: { ...process.env, SHAPES_SCHEMA: join(dir, "shapes.json"), SHAPES_STORE: store } });
  await plugin.call("Parameterize", argsRequest(peerPath("shapefw")));
  await plugin.call("Configure", { args: toStruct({}), acceptSecrets: true, acceptResources: true });
}, 120_000);
afterAll(async () => {
  await plugin.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** msgpack of one string-keyed member, `key: value`, as the provider stores its state (fixstr key, fixstr value). */
const member = (key: string, value: string): Buffer => Buffer.concat([Buffer.from([0xa0 | key.length]), Buffer.from(key), Buffer.from([0xa0 | value.length]), Buffer.from(value)]);

describe("colliding Terraform names through the plugin and a real framework provider", () => {
  it("get distinct names in the schema: the snake_case spelling keeps fooBar, the other is fooBarV2, at the top and in a block", async () => {
    const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as Record<string, any>;
    const resource = schema["resources"][TOKEN];
    expect(Object.keys(resource["inputProperties"]).sort()).toEqual(["fooBar", "fooBarV2", "settings", "toString"]);
    const settings = schema["types"][decodeURIComponent((resource["inputProperties"]["settings"]["$ref"] as string).slice("#/types/".length))];
    expect(Object.keys(settings["properties"]).sort()).toEqual(["fooBar", "fooBarV2"]);
  });

  it("writes each input to its own attribute (as the provider stored it) and reads both values back", async () => {
    const inputs = { fooBar: "one", fooBarV2: "two", toString: "three", settings: { fooBar: "inner1", fooBarV2: "inner2" } };
    const checked = await plugin.call("Check", { urn: URN, type: TOKEN, name: "c", olds: toStruct({}), news: toStruct(inputs), randomSeed: Buffer.alloc(32, 1) });
    expect(checked["failures"] ?? []).toEqual([]);
    const created = await plugin.call("Create", { urn: URN, type: TOKEN, name: "c", properties: checked["inputs"] });
    const id = created["id"] as string;
    expect(fromStruct(created["properties"] as Record<string, unknown>)).toMatchObject(inputs);

    const files = readdirSync(join(store, "shapefw_collide"));
    expect(files).toEqual([id]);
    const stored = readFileSync(join(store, "shapefw_collide", id));
    for (const [k, v] of [["foo_bar", "one"], ["foo__bar", "two"], ["to_string", "three"], ["foo_bar", "inner1"], ["foo__bar", "inner2"]] as const) {
      expect(stored.includes(member(k, v)), `the provider stored ${k} = ${v}`).toBe(true);
    }

    const read = await plugin.call("Read", { urn: URN, type: TOKEN, name: "c", id, properties: created["properties"], inputs: checked["inputs"] });
    expect(fromStruct(read["properties"] as Record<string, unknown>)).toMatchObject(inputs);
    const diff = await plugin.call("Diff", { urn: URN, type: TOKEN, name: "c", id, olds: read["properties"], news: checked["inputs"], oldInputs: checked["inputs"] });
    expect(diff["changes"]).toBe("DIFF_NONE");

    await plugin.call("Delete", { urn: URN, type: TOKEN, name: "c", id, properties: read["properties"] });
    expect(existsSync(join(store, "shapefw_collide", id))).toBe(false);
  });
});
