// A resource whose `id` attribute is a number (cloudflare_logpush_job's, in the real schema) is created, read and
// refreshed through the plugin with the number's decimal text as its resource id, as Terraform shows it.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";
import { fromStruct, toStruct } from "../support/reference-ops.js";

const dir = mkdtempSync(join(tmpdir(), "tfbridge-number-id-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("takes a number id as the resource id, and reads the object back by it", async () => {
  const attrs = { id: { type: "number", computed: true }, destination: { type: "string", required: true } };
  const dump = { format_version: "1.0", provider_schemas: { "registry.terraform.io/acme/numid": { provider: { version: 0, block: {} }, resource_schemas: { numid_job: { version: 0, block: { attributes: attrs } } } } } };
  writeFileSync(join(dir, "dump.json"), JSON.stringify(dump));
  const binary = join(dir, "terraform-provider-numid");
  symlinkSync(peerPath("replay"), binary);
  const plugin = await startPluginProcess({ env: { ...process.env, REPLAY_SCHEMA: join(dir, "dump.json"), REPLAY_STORE: join(dir, "store") } });
  try {
    await plugin.call("Parameterize", argsRequest(binary));
    const type = "numid:index/job:Job";
    const base = { urn: `urn:pulumi:s::p::${type}::j`, type, name: "j" };
    const checked = await plugin.call("Check", { ...base, olds: toStruct({}), news: toStruct({ destination: "d" }), randomSeed: Buffer.alloc(32, 1) });
    const created = await plugin.call("Create", { ...base, properties: checked["inputs"] });
    // The replay peer gives an unknown number the fixed value 7.
    expect(created["id"]).toBe("7");
    const props = fromStruct(created["properties"] as Parameters<typeof fromStruct>[0]) as Record<string, unknown>;
    expect(props["destination"]).toBe("d");
    const read = await plugin.call("Read", { ...base, id: "7", properties: created["properties"], inputs: checked["inputs"] });
    expect(read["id"]).toBe("7");
    expect(fromStruct(read["properties"] as Parameters<typeof fromStruct>[0])).toEqual(props);
  } finally {
    await plugin.stop();
  }
});
