// A real framework provider (shapefw) whose schema nests too deep, through the plugin process: a type nested past
// TF_BRIDGE_MAX_SCHEMA_DEPTH leaves out its resource with one warning and the rest of the provider works; blocks
// nested past the protobuf decoder's own limit (100 messages, as protoc's) fail Parameterize with an error naming the
// call, never INTERNAL. That limit, and the type reader's, come first for a real provider, so the first case lowers
// the setting to reach it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { engineLogSink } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess, type PluginProcess } from "../support/pulumi.js";
import { fromStruct, toStruct } from "../support/reference-ops.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-hostile-peer-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The plugin process, with an engine log to read, serving shapefw with `resources` as its shapes. */
async function withShapes<T>(name: string, resources: Record<string, unknown>, env: Record<string, string>, f: (plugin: PluginProcess, warnings: () => string[]) => Promise<T>): Promise<T> {
  const dir = join(scratch, name);
  const file = `${dir}.json`;
  writeFileSync(file, JSON.stringify({ resources }));
  const engine = await engineLogSink();
  const plugin = await startPluginProcess({ args: [engine.address], env: { ...process.env, ...env, SHAPES_SCHEMA: file, SHAPES_STORE: dir } });
  try {
    return await f(plugin, () => engine.logs.filter((l) => l.severity === "WARNING").map((l) => l.message));
  } finally {
    await plugin.stop();
    engine.close();
  }
}

describe("a real provider's schema nested far too deep", () => {
  it("a type nested deeper than TF_BRIDGE_MAX_SCHEMA_DEPTH leaves its resource out with one warning naming the setting; the other resource works", async () => {
    let type: unknown = "string";
    for (let i = 0; i < 50; i++) type = ["list", type];
    const resources = { deep: { attributes: { v: { type, optional: true } } }, ok: { attributes: { value: { type: "string", optional: true } } } };
    await withShapes("type", resources, { TF_BRIDGE_MAX_SCHEMA_DEPTH: "20" }, async (plugin, warnings) => {
      expect(await plugin.call("Parameterize", argsRequest(peerPath("shapefw")))).toEqual({ name: "shapefw", version: "0.0.0" });
      // The engine's Log calls are not awaited by Parameterize; the warning may land just after it answers.
      await vi.waitFor(() => expect(warnings().length).toBeGreaterThan(0), { timeout: 10_000 });
      expect(warnings()).toEqual([
        expect.stringMatching(/^shapefw: resource shapefw_deep is left out of the Pulumi package: v is nested more than 20 levels deep \(TF_BRIDGE_MAX_SCHEMA_DEPTH, default 100\); raise TF_BRIDGE_MAX_SCHEMA_DEPTH .*--exclude shapefw_deep/),
      ]);
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { resources: Record<string, unknown> };
      expect(schema.resources).toHaveProperty(["shapefw:index/ok:Ok"]);
      expect(Object.keys(schema.resources).filter((t) => t.includes("deep"))).toEqual([]);
      await plugin.call("Configure", { args: toStruct({}), acceptSecrets: true, acceptResources: true });
      const T = "shapefw:index/ok:Ok";
      const created = await plugin.call("Create", { urn: `urn:pulumi:test::hostile::${T}::o`, type: T, name: "o", properties: toStruct({ value: "kept" }) });
      expect(fromStruct(created["properties"] as Record<string, unknown>)).toMatchObject({ value: "kept" });
    });
  });

  it("a type nested 500 deep, beyond the default TF_BRIDGE_MAX_SCHEMA_DEPTH, leaves only its resource out, not the whole provider", async () => {
    let type: unknown = "string";
    for (let i = 0; i < 500; i++) type = ["list", type];
    const resources = { deep: { attributes: { v: { type, optional: true } } }, ok: { attributes: { value: { type: "string", optional: true } } } };
    await withShapes("type500", resources, {}, async (plugin, warnings) => {
      expect(await plugin.call("Parameterize", argsRequest(peerPath("shapefw")))).toEqual({ name: "shapefw", version: "0.0.0" });
      await vi.waitFor(() => expect(warnings().length).toBeGreaterThan(0), { timeout: 10_000 });
      expect(warnings()).toEqual([expect.stringMatching(/^shapefw: resource shapefw_deep is left out of the Pulumi package: v is nested more than 100 levels deep \(TF_BRIDGE_MAX_SCHEMA_DEPTH, default 100\)/)]);
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { resources: Record<string, unknown> };
      expect(schema.resources).toHaveProperty(["shapefw:index/ok:Ok"]);
      expect(Object.keys(schema.resources).filter((t) => t.includes("deep"))).toEqual([]);
    });
  });

  it("a TF_BRIDGE_MAX_SCHEMA_DEPTH that is no number fails Parameterize as INVALID_ARGUMENT naming the setting", async () => {
    await withShapes("badsetting", { ok: { attributes: { value: { type: "string", optional: true } } } }, { TF_BRIDGE_MAX_SCHEMA_DEPTH: "lots" }, async (plugin) => {
      const e = await plugin.call("Parameterize", argsRequest(peerPath("shapefw"))).then(() => undefined, (x: unknown) => x as { code: number; details: string });
      expect(e?.code).toBe(3);
      expect(e?.details).toBe('TF_BRIDGE_MAX_SCHEMA_DEPTH="lots" is not a whole number from 1 to 1000; set it to one or unset it (default 100)');
    });
  });

  it("blocks nested 2,000 deep fail Parameterize as FAILED_PRECONDITION naming GetProviderSchema and the nesting, not INTERNAL", async () => {
    let b: Record<string, unknown> = { mode: "single", attributes: { leaf: { type: "string", optional: true } } };
    for (let i = 1; i < 2000; i++) b = { mode: "single", blocks: { b } };
    await withShapes("blocks", { deep: { blocks: { b } } }, {}, async (plugin) => {
      const e = await plugin.call("Parameterize", argsRequest(peerPath("shapefw"))).then(() => undefined, (x: unknown) => x as { code: number; details: string });
      expect(e?.code).toBe(9);
      expect(e?.details).toMatch(/^could not read the schema of \S+terraform-provider-shapefw: GetProviderSchema failed: .*cannot decode the response: maximum nesting depth exceeded/);
    });
  });
});
