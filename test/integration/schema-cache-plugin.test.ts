// The schema cache in the packaged plugin, as the engine drives it: `package add`'s Parameterize and GetSchema start no
// Terraform provider once the binary has been seen, and answer the same schema byte for byte, the package schema
// included (kept beside the provider's, per download location); a program's run starts the provider right after
// Parameterize, and stopping the plugin stops it.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractPlugin } from "../support/e2e.js";
import { peerPath } from "../support/peers.js";
import { childPids, processAlive, waitGone } from "../support/processes.js";
import { argsRequest, startPluginProcess, valueRequest, type PluginProcess } from "../support/pulumi.js";
import { tempDir } from "../support/temp.js";

let dir: string;
let plugin: string;
let binary: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = extractPlugin();
  plugin = join(dir, "pulumi-resource-terraform-provider");
  binary = join(dir, "providers", "terraform-provider-random");
  mkdirSync(join(dir, "providers"));
  copyFileSync(peerPath("random"), binary);
  env = { ...process.env, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: tempDir("tfbridge-schema-cache-"), TF_BRIDGE_SEA_DIR: join(dir, "unpacked") };
  delete env["TF_BRIDGE_SCHEMA_CACHE"];
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cached = (): string[] => readdirSync(join(env["PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR"]!, ".schemas")).sort();
/** The plugin's Terraform providers: its children running the private copy of random. */
const providers = (p: PluginProcess): number[] => childPids(p.child.pid!).filter((pid) => processAlive(pid));

async function addPackage(extra: NodeJS.ProcessEnv = {}): Promise<{ schema: string; providersAfterParameterize: number[] }> {
  const p = await startPluginProcess({ bin: plugin, env: { ...env, ...extra } });
  try {
    await p.call("Parameterize", argsRequest(binary));
    const providersAfterParameterize = providers(p);
    const r = await p.call("GetSchema", {});
    return { schema: String(r["schema"]), providersAfterParameterize };
  } finally {
    await p.stop();
  }
}

describe("the schema cache in the packaged plugin", () => {
  it("answers package add's calls without starting the provider once it has been seen, byte for byte", async () => {
    const first = await addPackage();
    expect(first.providersAfterParameterize).toHaveLength(1);
    expect(cached().filter((f) => f.endsWith(".pulumi.json"))).toHaveLength(1);
    const second = await addPackage();
    expect(second.providersAfterParameterize).toEqual([]);
    expect(second.schema).toBe(first.schema);
    // Another download location (set in the environment, itself part of the key) is another package schema, rendered
    // and kept beside the first; its next start is answered from the cache too.
    const location = { TF_BRIDGE_PLUGIN_DOWNLOAD_URL: "https://releases.example.test/terraform-provider" };
    const elsewhere = await addPackage(location);
    expect(JSON.parse(elsewhere.schema)).toMatchObject({ pluginDownloadURL: "https://releases.example.test/terraform-provider" });
    expect(JSON.parse(second.schema)).not.toHaveProperty("pluginDownloadURL");
    expect(cached().filter((f) => f.endsWith(".pulumi.json"))).toHaveLength(2);
    const again = await addPackage(location);
    expect(again.providersAfterParameterize).toEqual([]);
    expect(again.schema).toBe(elsewhere.schema);
  });

  it("starts the provider of a program's run right after Parameterize, and stops it with the plugin", async () => {
    const { schema } = await addPackage();
    const value = Buffer.from((JSON.parse(schema) as { parameterization: { parameter: string } }).parameterization.parameter, "base64");
    const p = await startPluginProcess({ bin: plugin, env });
    let started: number[] = [];
    try {
      await p.call("Parameterize", valueRequest(value));
      for (let i = 0; i < 200 && started.length === 0; i++) {
        started = providers(p);
        if (started.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(started).toHaveLength(1);
      const check = await p.call("CheckConfig", { urn: "urn:pulumi:s::p::pulumi:providers:random::r", olds: {}, news: {} });
      expect(check["failures"] ?? []).toEqual([]);
    } finally {
      await p.stop();
    }
    for (const pid of started) expect(await waitGone(pid, 10_000)).toBe(true);
  });
});
