// Import inputs against Terraform 1.16.4's `plan -generate-config-out` on the real peers: the configuration we derive
// for each imported state is the one Terraform writes, and the inputs made of it plan no change.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { generatedConfig, terraformGeneratedConfig } from "../../src/bridge/generate-config.js";
import { Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import type { CtyValue } from "../../src/terraform/cty/index.js";
import type { Block } from "../../src/terraform/types.js";
import type { ProviderModel } from "../../src/schema-translate/model.js";
import { asBody, normalized, terraformGenerate, type Body } from "../support/generated-config.js";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";
import { peerPath } from "../support/peers.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-generate-config-"));
const stateDir = join(scratch, "bridgetest-state");

interface Peer {
  source: string;
  tf: GrpcTerraformProvider;
  model: ProviderModel;
  bridge: TerraformBridge;
  config: PropertyMap;
  hcl: string;
}

interface Case {
  peer: string;
  type: string;
  id: string;
}

const peers = new Map<string, Peer>();
let api: HttpApiServer;
let generated: Map<string, Body>;
let terraformOutput: string;

const cases: Case[] = [
  { peer: "random", type: "random_integer", id: "42,1,100" },
  { peer: "random", type: "random_password", id: "s3cret-pw" },
  { peer: "random", type: "random_string", id: "hello" },
  { peer: "random", type: "random_id", id: "p-9hUg" },
  { peer: "random", type: "random_uuid", id: "6a1b4c5e-2f3d-4e5f-8a9b-0c1d2e3f4a5b" },
  { peer: "random", type: "random_bytes", id: "aGVsbG8gd29ybGQ=" },
  { peer: "time", type: "time_offset", id: "2020-02-12T06:36:13Z,0,0,0,0,0,1" },
  { peer: "time", type: "time_rotating", id: "2020-02-12T06:36:13Z,100,0,0,0,0" },
  { peer: "time", type: "time_static", id: "2020-02-12T06:36:13Z" },
  { peer: "time", type: "time_sleep", id: "1s," },
  // Created in beforeAll, which fills in their ids.
  { peer: "bridgetest", type: "bridgetest_object", id: "" },
  { peer: "bridgetest", type: "bridgetest_named", id: "" },
  { peer: "httpapi", type: "httpapi_item", id: "" },
  { peer: "httpapi", type: "httpapi_record", id: "" },
];

function addressOf(c: Case): string {
  return `${c.type}.imp_${cases.indexOf(c)}`;
}

async function peer(name: string, source: string, config: PropertyMap, hcl = ""): Promise<Peer> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(name) });
  const schema = await tf.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: name, packageVersion: "1.0.0" });
  const bridge = new TerraformBridge(tf, schema, model);
  expect((await bridge.checkConfig(config)).failures).toEqual([]);
  await bridge.configure(config);
  const p = { source, tf, model, bridge, config, hcl };
  peers.set(name, p);
  return p;
}

function tokenOf(c: Case): string {
  return peers.get(c.peer)!.model.resources.get(c.type)!.token;
}

async function schemaBlock(c: Case): Promise<{ block: Block; generates: boolean }> {
  const s = await peers.get(c.peer)!.tf.getProviderSchema();
  return { block: s.resources.get(c.type)!.block, generates: s.serverCapabilities.generateResourceConfig };
}

/** The provider's state for an import, as Terraform has it before generating: ImportResourceState, then ReadResource. */
async function importedState(c: Case): Promise<CtyValue> {
  const tf = peers.get(c.peer)!.tf;
  const imported = await tf.importResourceState(c.type, c.id);
  const one = imported.imported.find((r) => r.typeName === c.type)!;
  return (await tf.readResource({ typeName: c.type, currentState: one.state, private: one.private })).newState;
}

beforeAll(async () => {
  api = await startHttpApi();
  mkdirSync(stateDir);
  await peer("random", "hashicorp/random", {});
  await peer("time", "hashicorp/time", {});
  await peer("bridgetest", "bridge/bridgetest", { stateDir }, `provider "bridgetest" {\n  state_dir = ${JSON.stringify(stateDir)}\n}\n`);
  await peer("httpapi", "bridge/httpapi", { endpoint: api.url, token: new Secret(api.token) }, `provider "httpapi" {\n  endpoint = ${JSON.stringify(api.url)}\n  token    = ${JSON.stringify(api.token)}\n}\n`);

  // Objects that exist only once created: made through the bridge, imported by Terraform and by us.
  const made = async (peerName: string, type: string, news: PropertyMap): Promise<void> => {
    const p = peers.get(peerName)!;
    const token = p.model.resources.get(type)!.token;
    const checked = await p.bridge.check({ token, name: `made-${type}`, olds: {}, news });
    expect(checked.failures).toEqual([]);
    const created = await p.bridge.create({ token, news: checked.inputs });
    cases.find((c) => c.type === type)!.id = created.id;
  };
  await made("bridgetest", "bridgetest_object", {
    name: "obj",
    numberValue: 1.5,
    listValues: ["a", "b"],
    mapValue: { k: "v" },
    objectValue: { a: "x", b: 2, c: true },
    singleNested: { key: "k", value: "v" },
    listBlocks: [{ key: "k1", value: "v1" }],
    secret: new Secret("s3"),
  });
  await made("bridgetest", "bridgetest_named", { name: "named-one", note: "a note" });
  await made("httpapi", "httpapi_item", { name: "item", size: 42, tags: { env: "test" }, settings: { mode: "fast", enabled: true, retries: 3 }, rules: [{ port: 80 }, { port: 53, protocol: "udp", cidr: "127.0.0.0/8" }] });
  await made("httpapi", "httpapi_record", { name: "rec", sizeKb: 2, fast: true, secret: new Secret("hush"), label: "", legacyLabel: "old", ports: [{ number: 443, cidr: "10.0.0.0/8" }] });

  // One Terraform run imports every case and writes the configuration it generates.
  const dir = join(scratch, "config");
  mkdirSync(dir);
  const required = [...peers.entries()].map(([n, p]) => `    ${n} = { source = "${p.source}" }`).join("\n");
  const imports = cases.map((c) => `import {\n  to = ${addressOf(c)}\n  id = ${JSON.stringify(c.id)}\n}\n`).join("\n");
  const providerBlocks = [...peers.values()].map((p) => p.hcl).join("\n");
  writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n${required}\n  }\n}\n\n${providerBlocks}\n${imports}`);
  const ran = await terraformGenerate(dir, Object.fromEntries([...peers.entries()].map(([n, p]) => [p.source, peerPath(n)])));
  terraformOutput = ran.output;
  generated = ran.resources;
}, 120_000);

afterAll(async () => {
  await Promise.all([...peers.values()].map((p) => p.tf.close()));
  await api?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("generated import configuration, against Terraform 1.16.4", () => {
  it("Terraform generated a resource for every case", () => {
    expect([...generated.keys()].sort()).toEqual(cases.map(addressOf).sort());
  });

  it("SDKv2 (httpapi) advertises GenerateResourceConfig; the plugin framework (random, time, bridgetest) does not", async () => {
    expect((await peers.get("httpapi")!.tf.getProviderSchema()).serverCapabilities.generateResourceConfig).toBe(true);
    for (const name of ["random", "time", "bridgetest"]) expect((await peers.get(name)!.tf.getProviderSchema()).serverCapabilities.generateResourceConfig).toBe(false);
  });

  it.each(cases.map((c) => [addressOf(c), c] as const))("%s: our configuration is the one Terraform writes", async (_address, c) => {
    const { block, generates } = await schemaBlock(c);
    const ours = await terraformGeneratedConfig(peers.get(c.peer)!.tf, generates, c.type, block, await importedState(c));
    expect(ours.diagnostics).toEqual([]);
    expect(asBody(block, ours.config)).toEqual(normalized(generated.get(addressOf(c))));
  });

  it.each(cases.map((c) => [addressOf(c), c] as const))("%s: the imported inputs hold no output-only value and plan no change", async (_address, c) => {
    const p = peers.get(c.peer)!;
    const token = tokenOf(c);
    const model = p.model.resources.get(c.type)!;
    const imported = (await p.bridge.read({ token, id: c.id }))!;
    for (const prop of model.properties) if (!prop.input) expect(imported.inputs, prop.name).not.toHaveProperty(prop.name);
    const checked = await p.bridge.check({ token, name: "imported", olds: {}, news: imported.inputs });
    if (c.type === "time_rotating") {
      // time imports unset rotation_* as 0, which its own validators refuse: Terraform writes them and fails the same way.
      expect(checked.failures.map((f) => f.property).sort()).toEqual(["rotationDays", "rotationHours", "rotationMinutes", "rotationMonths"]);
      expect(terraformOutput).toContain("Attribute rotation_months value must be at least 1, got: 0");
      return;
    }
    expect(checked.failures).toEqual([]);
    const diff = await p.bridge.diff({ token, id: imported.id, olds: imported.properties, news: checked.inputs });
    expect(diff.detailedDiff).toEqual({});
    expect(diff.changes).toBe("none");
  });
});

describe("where Terraform's generated configuration does not plan", () => {
  it("httpapi_record: Terraform writes both halves of a ConflictsWith and an ExactlyOneOf pair, and its plan fails", () => {
    const c = cases.find((x) => x.type === "httpapi_record")!;
    const body = generated.get(addressOf(c))!;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["size", "size_kb", "mode", "fast"]));
    expect(terraformOutput).toMatch(/conflicts with size|only one of `fast,mode` can be specified/);
  });

  it("httpapi_record: we leave out the half that sorts last, so the configuration validates", async () => {
    const c = cases.find((x) => x.type === "httpapi_record")!;
    const { block, generates } = await schemaBlock(c);
    const tf = peers.get(c.peer)!.tf;
    const ours = await generatedConfig(tf, generates, c.type, block, await importedState(c));
    expect(ours.dropped).toEqual(["size_kb", "mode"]);
    expect((await tf.validateResourceConfig(c.type, ours.config)).filter((d) => d.severity === "error")).toEqual([]);
  });

  it("httpapi_record: Terraform writes the sensitive value as null and leaves the deprecated one out; we keep both (the secret as a secret), so nothing plans their removal", () => {
    const c = cases.find((x) => x.type === "httpapi_record")!;
    expect(generated.get(addressOf(c))!["secret"]).toBeNull();
    expect(generated.get(addressOf(c))).not.toHaveProperty("legacy_label");
  });

  it("httpapi_record's imported inputs: no computed-only value, no \"\" label, one half of each pair", async () => {
    const c = cases.find((x) => x.type === "httpapi_record")!;
    const p = peers.get(c.peer)!;
    const imported = (await p.bridge.read({ token: tokenOf(c), id: c.id }))!;
    expect(imported.inputs).toEqual({
      name: "rec",
      description: "record rec",
      size: 2048,
      fast: true,
      secret: new Secret("hush"),
      legacyLabel: "old",
      ports: [{ number: 443, protocol: "tcp", cidr: "10.0.0.0/8" }],
    });
  });
});
