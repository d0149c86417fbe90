// The two perpetual diffs OpenTofu does not have, on bridgetest as a user met them: after create and refresh, the same
// program must preview no change (a set of nested attributes whose computed tag the provider fills; a decimal number).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, inProcessPlugin, type Call } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { fromStruct, toStruct, type Json } from "../support/reference-ops.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-oracle-"));
const type = "bridgetest:index/objectResource:ObjectResource";
let sink: Awaited<ReturnType<typeof engineLogSink>>;
let plugin: Awaited<ReturnType<typeof inProcessPlugin>>;

beforeAll(async () => {
  sink = await engineLogSink();
  plugin = await inProcessPlugin(sink.address);
  await plugin.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
  await plugin.call("Configure", { args: toStruct({ stateDir: join(scratch, "state") }), acceptSecrets: true, acceptResources: true });
});
afterAll(async () => {
  await plugin?.close();
  sink?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Create, refresh, then the Diff the next `pulumi preview` makes with the same program. */
async function diffAfterRefresh(call: Call, name: string, news: Record<string, Json>): Promise<Record<string, unknown>> {
  const urn = `urn:pulumi:dev::p::${type}::${name}`;
  const base = { urn, name, type };
  const checked = await call("Check", { ...base, olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 1) });
  const created = await call("Create", { ...base, properties: checked["inputs"], timeout: 60 });
  const read = await call("Read", { ...base, id: created["id"], properties: created["properties"], inputs: checked["inputs"] });
  const again = await call("Check", { ...base, olds: checked["inputs"], news: toStruct(news), randomSeed: Buffer.alloc(32, 1) });
  const diff = await call("Diff", { ...base, id: created["id"], olds: read["properties"], news: again["inputs"], oldInputs: checked["inputs"] });
  await call("Delete", { ...base, id: created["id"], properties: read["properties"], timeout: 60 });
  return { ...diff, outputs: fromStruct(read["properties"] as Record<string, unknown>) };
}

describe("no perpetual diff where OpenTofu plans none", () => {
  it("a set of nested attributes keeps the computed values the provider gave each element", async () => {
    const d = await diffAfterRefresh(plugin.call, "sets", { name: "sets", setNesteds: [{ key: "a" }, { key: "b" }] });
    expect((d["outputs"] as Record<string, Json>)["setNesteds"]).toEqual([
      { computedTag: "auto", key: "a", value: null },
      { computedTag: "auto", key: "b", value: null },
    ]);
    expect(d["changes"]).toBe("DIFF_NONE");
    expect(d["detailedDiff"] ?? {}).toEqual({});
  });

  for (const n of [0.1, 0.3, 1e-7, 123.456]) {
    it(`the number ${n} is the same number after create and refresh`, async () => {
      const d = await diffAfterRefresh(plugin.call, `n${String(n).replace(/\W/g, "_")}`, { name: "numbers", numberValue: n });
      expect((d["outputs"] as Record<string, Json>)["numberValue"]).toBe(n);
      expect(d["changes"]).toBe("DIFF_NONE");
    });
  }
});
