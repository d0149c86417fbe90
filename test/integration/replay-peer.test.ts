// The replay peer (test/peers/replay) through our Terraform client: it serves a schema dump field for field at
// protocol 6 and 5, and behaves as the shapes peers do (plan unknowns, fixed values, store, read, import, delete).
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { isUnknown, type CtyValue } from "../../src/terraform/cty/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { completeObject } from "../../src/terraform/values.js";
import { peerPath } from "../support/peers.js";

type Obj = Record<string, CtyValue>;
const dir = mkdtempSync(join(tmpdir(), "tfbridge-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const open: GrpcTerraformProvider[] = [];
afterEach(async () => {
  for (const p of open.splice(0)) await p.close();
});

const str = (flags: object = {}) => ({ type: "string", ...flags });
/** One resource with every kind of schema element a dump holds; `nested` adds protocol 6's nested attributes. */
function dump(nested: boolean): object {
  const thing = {
    version: 2,
    block: {
      attributes: {
        id: str({ computed: true }),
        name: str({ required: true, description: "the name", description_kind: "markdown" }),
        secret: str({ optional: true, sensitive: true }),
        wo: str({ optional: true, write_only: true }),
        count: { type: "number", computed: true },
        old: str({ optional: true, deprecated: true }),
        tags: { type: ["map", "string"], optional: true },
        obj: { type: ["object", { a: "string", b: ["list", "bool"] }], computed: true },
        ...(nested ? { settings: { nested_type: { nesting_mode: "single", attributes: { mode: str({ optional: true }), level: { type: "number", computed: true } } }, optional: true } } : {}),
        ...(nested ? { ports: { nested_type: { nesting_mode: "map", attributes: { port: { type: "number", required: true } } }, optional: true } } : {}),
      },
      block_types: {
        rule: { nesting_mode: "list", min_items: 1, max_items: 3, block: { attributes: { match: str({ required: true }), hits: { type: "number", computed: true } } } },
        tag_set: { nesting_mode: "set", block: { attributes: { k: str({ optional: true }) } } },
        timeouts: { nesting_mode: "single", block: { attributes: { create: str({ optional: true }) } } },
        grp: { nesting_mode: "group", block: { attributes: { g: str({ optional: true }) } } },
        by_key: { nesting_mode: "map", block: { attributes: { v: str({ optional: true }) } } },
      },
    },
  };
  return {
    format_version: "1.0",
    provider_schemas: {
      "registry.terraform.io/acme/rp": {
        provider: { version: 0, block: { attributes: { region: str({ optional: true }) } } },
        resource_schemas: { rp_thing: thing },
        data_source_schemas: { rp_info: { version: 0, block: { attributes: { key: str({ required: true }), value: str({ computed: true }) } } } },
        ephemeral_resource_schemas: { rp_token: { version: 0, block: { attributes: { token: str({ computed: true, sensitive: true }) } } } },
      },
    },
  };
}

async function serve(nested: boolean, env: Record<string, string> = {}): Promise<{ p: GrpcTerraformProvider; store: string }> {
  const file = join(dir, `dump-${nested}.json.gz`);
  writeFileSync(file, gzipSync(JSON.stringify(dump(nested))));
  const store = mkdtempSync(join(dir, "store-"));
  const p = await GrpcTerraformProvider.launch({ path: peerPath("replay"), env: { REPLAY_SCHEMA: file, REPLAY_STORE: store, ...env } });
  open.push(p);
  return { p, store };
}

describe("the replay peer", () => {
  it("serves a dump with nested attributes at protocol 6, every element and flag as the dump has it", async () => {
    const { p } = await serve(true);
    expect(p.protocolVersion).toBe(6);
    const s = await p.getProviderSchema();
    const thing = s.resources.get("rp_thing")!;
    expect(thing.version).toBe(2);
    const attr = (n: string) => thing.block.attributes.find((a) => a.name === n)!;
    expect(attr("name")).toMatchObject({ required: true, description: "the name", descriptionKind: "markdown" });
    expect(attr("secret").sensitive).toBe(true);
    expect(attr("wo").writeOnly).toBe(true);
    expect(attr("old").deprecated).toBe(true);
    expect(attr("obj").type).toEqual({ kind: "object", attributes: { a: { kind: "string" }, b: { kind: "list", element: { kind: "bool" } } } });
    expect(attr("settings").nestedType?.nesting).toBe("single");
    expect(attr("ports").nestedType?.nesting).toBe("map");
    expect(thing.block.blockTypes.map((b) => [b.typeName, b.nesting, b.minItems, b.maxItems])).toEqual([
      ["by_key", "map", 0, 0], ["grp", "group", 0, 0], ["rule", "list", 1, 3], ["tag_set", "set", 0, 0], ["timeouts", "single", 0, 0],
    ]);
    expect([...s.dataSources.keys()]).toEqual(["rp_info"]);
    expect([...s.ephemeralResources.keys()]).toEqual(["rp_token"]);
    expect(s.provider.block.attributes.map((a) => a.name)).toEqual(["region"]);
  });

  it("plans computed values unknown, fills them with fixed values, stores, reads back, imports by id and deletes", async () => {
    const { p, store } = await serve(true);
    const s = await p.getProviderSchema();
    const block = s.resources.get("rp_thing")!.block;
    const config = completeObject(block, { name: "n", wo: "hidden", settings: { mode: "fast", level: null }, rule: [{ match: "m", hits: null }] });
    const plan = await p.planResourceChange({ typeName: "rp_thing", priorState: null, proposedNewState: config, config });
    const planned = plan.plannedState as Obj;
    expect(isUnknown(planned["id"])).toBe(true);
    expect(isUnknown(planned["count"])).toBe(true);
    expect(isUnknown((planned["settings"] as Obj)["level"])).toBe(true);
    expect(isUnknown((planned["rule"] as Obj[])[0]!["hits"])).toBe(true);
    expect(planned["name"]).toBe("n");
    expect(planned["wo"]).toBeNull();
    const applied = await p.applyResourceChange({ typeName: "rp_thing", priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    expect(applied.diagnostics).toEqual([]);
    const state = applied.newState as Obj;
    expect(state["id"]).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(state["count"])).toBe(7);
    expect(Number((state["settings"] as Obj)["level"])).toBe(7);
    expect(state["obj"]).toMatchObject({ a: "computed", b: [true] });
    expect(state["wo"]).toBeNull();
    const id = state["id"] as string;
    expect(readdirSync(join(store, "rp_thing"))).toEqual([id]);

    const read = await p.readResource({ typeName: "rp_thing", currentState: state });
    expect(read.newState).toEqual(state);
    const imported = await p.importResourceState("rp_thing", id);
    expect((imported.imported[0]!.state as Obj)["id"]).toBe(id);
    expect((await p.readResource({ typeName: "rp_thing", currentState: imported.imported[0]!.state })).newState).toEqual(state);

    const gone = await p.applyResourceChange({ typeName: "rp_thing", priorState: state, plannedState: null, config: null });
    expect(gone.newState).toBeNull();
    expect(existsSync(join(store, "rp_thing", id))).toBe(false);
    expect((await p.readResource({ typeName: "rp_thing", currentState: state })).newState).toBeNull();
  });

  it("answers data sources and ephemeral resources with their computed attributes given fixed values", async () => {
    const { p } = await serve(true);
    await p.getProviderSchema();
    const ds = await p.readDataSource({ typeName: "rp_info", config: { key: "k", value: null } });
    expect(ds.state).toEqual({ key: "k", value: "computed" });
    const eph = await p.openEphemeralResource("rp_token", { token: null });
    expect(eph.result).toEqual({ token: "computed" });
  });

  it("serves a dump without nested attributes at protocol 5, and refuses protocol 5 for one with them, naming the setting", async () => {
    const { p } = await serve(false);
    expect(p.protocolVersion).toBe(5);
    expect((await p.getProviderSchema()).resources.get("rp_thing")!.block.blockTypes.find((b) => b.typeName === "grp")!.nesting).toBe("group");
    await expect(serve(true, { REPLAY_PROTOCOL: "5" })).rejects.toThrow(/REPLAY_PROTOCOL=5: the dump has nested attributes, which protocol 5 cannot carry; use 6/);
  });

  it("refuses to start without a dump, naming the variable", async () => {
    await expect(GrpcTerraformProvider.launch({ path: peerPath("replay"), env: { REPLAY_SCHEMA: "" } })).rejects.toThrow(/REPLAY_SCHEMA is not set/);
  });
});
