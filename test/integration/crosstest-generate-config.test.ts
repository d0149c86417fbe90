// Every oracle corpus case that imports (test/crosstest, golden `imported` not null), live against Terraform 1.16.4:
// the object OpenTofu imported is put in the shapes provider's store, Terraform imports them all with
// `plan -generate-config-out`, and our configuration for the same state must be the one it writes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { terraformGeneratedConfig } from "../../src/bridge/generate-config.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { decodeJson, encodeMsgpack, type CtyType } from "../../src/terraform/cty/index.js";
import { impliedType } from "../../src/terraform/schema.js";
import { FLAVOURS, loadCases, loadGolden, loadShapes, PEER, type Flavour } from "../crosstest/corpus.js";
import { asBody, normalized, setsSorted, terraformGenerate } from "../support/generated-config.js";
import { peerPath } from "../support/peers.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-crosstest-genconfig-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The cty JSON type a plain JSON value implies, for a value in a dynamic slot (show -json drops its type). */
function jsonType(v: unknown): unknown {
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return ["tuple", v.map(jsonType)];
  if (v !== null && typeof v === "object") return ["object", Object.fromEntries(Object.entries(v).map(([k, e]) => [k, jsonType(e)]))];
  return "dynamic";
}

/** State JSON as `tofu show -json` prints it, with each dynamic value wrapped as cty's JSON wants it ({value, type}). */
function typedJson(t: CtyType, v: unknown): unknown {
  if (v === null) return null;
  switch (t.kind) {
    case "dynamic":
      return { value: v, type: jsonType(v) };
    case "list":
    case "set":
      return (v as unknown[]).map((e) => typedJson(t.element, e));
    case "tuple":
      return (v as unknown[]).map((e, i) => typedJson(t.elements[i]!, e));
    case "map":
      return Object.fromEntries(Object.entries(v as object).map(([k, e]) => [k, typedJson(t.element, e)]));
    case "object":
      return Object.fromEntries(Object.entries(v as object).map(([k, e]) => [k, t.attributes[k] === undefined ? e : typedJson(t.attributes[k], e)]));
    default:
      return v;
  }
}

/** Writes `state` where the shapes provider keeps the object (SDKv2: JSON by attribute; framework: the state's msgpack). */
function storeObject(flavour: Flavour, store: string, type: string, state: Record<string, unknown>, t: CtyType): string {
  const id = String(state["id"]);
  mkdirSync(join(store, type), { recursive: true });
  if (flavour === "sdkv2") writeFileSync(join(store, type, `${id}.json`), JSON.stringify(state));
  else writeFileSync(join(store, type, id), encodeMsgpack(decodeJson(JSON.stringify(typedJson(t, state)), t), t));
  return id;
}

describe.each(FLAVOURS)("%s corpus imports: our generated configuration is Terraform 1.16.4's", (flavour) => {
  it("for every case OpenTofu imported", async () => {
    const peer = PEER[flavour];
    const work = join(scratch, flavour);
    const store = join(work, "store");
    mkdirSync(store, { recursive: true });
    const schemaFile = join(work, "shapes.json");
    writeFileSync(schemaFile, JSON.stringify({ resources: loadShapes(flavour) }));
    const env = { SHAPES_SCHEMA: schemaFile, SHAPES_STORE: store };
    const tf = await GrpcTerraformProvider.launch({ path: peerPath(peer), env });
    try {
      const schema = await tf.getProviderSchema();
      const imports: { address: string; type: string; id: string; caseId: string }[] = [];
      for (const c of loadCases(flavour)) {
        const imported = loadGolden(flavour, c.id)?.imported;
        if (imported === null || imported === undefined) continue;
        const type = `${peer}_${c.shape}`;
        const id = storeObject(flavour, store, type, imported, impliedType(schema.resources.get(type)!.block));
        imports.push({ address: `${type}.c${imports.length}`, type, id, caseId: c.id });
      }
      expect(imports.length).toBeGreaterThan(1000);
      const dir = join(work, "config");
      mkdirSync(dir);
      const main = { terraform: { required_providers: { [peer]: { source: `bridge/${peer}` } } }, import: imports.map((i) => ({ to: i.address, id: i.id })) };
      writeFileSync(join(dir, "main.tf.json"), JSON.stringify(main));
      const { resources, output } = await terraformGenerate(dir, { [`bridge/${peer}`]: peerPath(peer) }, env);
      expect(resources.size, output.slice(-2000)).toBe(imports.length);

      const differing: { caseId: string; ours: unknown; terraform: unknown }[] = [];
      for (const i of imports) {
        const block = schema.resources.get(i.type)!.block;
        const got = await tf.importResourceState(i.type, i.id);
        const one = got.imported[0]!;
        const state = (await tf.readResource({ typeName: i.type, currentState: one.state, private: one.private })).newState;
        const ours = await terraformGeneratedConfig(tf, schema.serverCapabilities.generateResourceConfig, i.type, block, state);
        const terraform = setsSorted(block, normalized(resources.get(i.address)));
        const mine = setsSorted(block, asBody(block, ours.config));
        if (JSON.stringify(mine) !== JSON.stringify(terraform)) {
          // Key order aside: compare structurally before counting it.
          try {
            expect(mine).toEqual(terraform);
          } catch {
            differing.push({ caseId: i.caseId, ours: mine, terraform });
          }
        }
      }
      console.log(`${flavour}: ${imports.length} imported cases, ${imports.length - differing.length} generate Terraform's configuration`);
      const families = new Map<string, number>();
      for (const d of differing) families.set(d.caseId.split(".")[0]!, (families.get(d.caseId.split(".")[0]!) ?? 0) + 1);
      expect(Object.fromEntries(families)).toEqual({});
      expect(differing.slice(0, 3)).toEqual([]);
    } finally {
      await tf.close();
    }
  }, 600_000);
});
