// Reattaching to a provider started in debug mode (TF_REATTACH_PROVIDERS, PULUMI_BRIDGE_REATTACH_PROVIDERS): the plugin,
// in this process, attaches to the running bridgetest or random instead of launching one, and leaves it running.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDebugProvider, type DebugProvider } from "../support/debug-provider.js";
import { engineLogSink, failure, inProcessPlugin, type Call, type Msg } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { childPids, processAlive, waitGone } from "../support/processes.js";
import { fromStruct, secret, toStruct, type Json } from "../support/reference-ops.js";

const VARS = ["TF_REATTACH_PROVIDERS", "PULUMI_BRIDGE_REATTACH_PROVIDERS", "PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR"];
const saved = Object.fromEntries(VARS.map((k) => [k, process.env[k]]));
function setEnv(values: Record<string, string>): void {
  for (const k of VARS) delete process.env[k];
  Object.assign(process.env, values);
}

/** Our own live terraform-provider-* children: a launch would add one. */
const providerChildren = (): number[] => childPids(process.pid).filter((pid) => processAlive(pid));

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-reattach-"));
const cache = join(scratch, "plugin-cache");
let sink: Awaited<ReturnType<typeof engineLogSink>>;
let bridgetest: DebugProvider;
let random: DebugProvider;
const stateDir = join(scratch, "state");

beforeAll(async () => {
  sink = await engineLogSink();
  rmSync(stateDir, { recursive: true, force: true });
  bridgetest = await startDebugProvider("bridgetest", { BRIDGETEST_STATE_DIR: stateDir });
  random = await startDebugProvider("random");
});

afterEach(() => setEnv({}));

afterAll(async () => {
  for (const k of VARS) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
  await bridgetest?.stop();
  await random?.stop();
  sink?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Configure, Check, Create and Delete of a bridgetest_object; returns the object's id. */
async function objectLifecycle(call: Call): Promise<string> {
  const providerType = "pulumi:providers:bridgetest";
  await call("Configure", {
    args: toStruct({}), acceptSecrets: true, acceptResources: true, urn: `urn:pulumi:dev::p::${providerType}::default`, name: "default", type: providerType,
  });
  const type = "bridgetest:index/objectResource:ObjectResource";
  const urn = `urn:pulumi:dev::p::${type}::o`;
  const checked = await call("Check", { urn, name: "o", type, olds: toStruct({}), news: toStruct({ name: "debugged", secret: secret("hush") }), randomSeed: Buffer.alloc(32, 1) });
  const created = await call("Create", { urn, name: "o", type, properties: checked["inputs"], timeout: 60 });
  const id = created["id"] as string;
  expect(id).toMatch(/^obj-/);
  expect(readdirSync(stateDir)).toContain(`${id}.json`);
  await call("Delete", { urn, name: "o", type, id, properties: created["properties"], timeout: 60 });
  expect(readdirSync(stateDir)).not.toContain(`${id}.json`);
  return id;
}

describe("reattach to a provider running in debug mode", () => {
  it("bridgetest -debug prints a reattach line for protocol 6 on a unix socket", () => {
    expect(bridgetest.key).toBe("registry.terraform.io/bridge/bridgetest");
    expect(bridgetest.entry).toMatchObject({ Protocol: "grpc", ProtocolVersion: 6, Pid: bridgetest.pid, Addr: { Network: "unix" } });
  });

  it("TF_REATTACH_PROVIDERS: a registry address is attached to, with no download and no launch; the provider outlives our shutdown", async () => {
    setEnv({ TF_REATTACH_PROVIDERS: bridgetest.reattach, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache });
    const before = providerChildren();
    const logsBefore = sink.logs.length;
    const p = await inProcessPlugin(sink.address);
    try {
      const res = await p.call("Parameterize", { args: { args: ["registry.terraform.io/bridge/bridgetest"] } });
      // No registry tells a version, and no exact one was asked for: 0.0.0, as the reference reports.
      expect(res).toEqual({ name: "bridgetest", version: "0.0.0" });
      const schema = JSON.parse(String((await p.call("GetSchema", {}))["schema"])) as { resources: Record<string, unknown>; parameterization: { parameter: string } };
      expect(Object.keys(schema.resources)).toContain("bridgetest:index/objectResource:ObjectResource");
      expect(JSON.parse(Buffer.from(schema.parameterization.parameter, "base64").toString())).toEqual({
        remote: { url: "registry.terraform.io/bridge/bridgetest", version: "0.0.0" },
      });
      await objectLifecycle(p.call);
      expect(providerChildren()).toEqual(before);
      expect(readdirSync(scratch)).not.toContain("plugin-cache");
      const said = sink.logs.slice(logsBefore).filter((l) => /attaching to the running provider/.test(l.message));
      expect(said.map((l) => l.severity)).toEqual(["INFO"]);
      expect(said[0]!.message).toContain(`pid ${bridgetest.pid}`);
      expect(said[0]!.message).toContain("from TF_REATTACH_PROVIDERS; it is not downloaded, started or stopped here");
    } finally {
      await p.close();
    }
    expect(processAlive(bridgetest.pid)).toBe(true);
  });

  it("PULUMI_BRIDGE_REATTACH_PROVIDERS: a local path is attached to by its provider type, even with no file there; an SDK's value bytes too", async () => {
    setEnv({ PULUMI_BRIDGE_REATTACH_PROVIDERS: bridgetest.reattach });
    const missing = join(scratch, "elsewhere", "terraform-provider-bridgetest");
    for (const request of [{ args: { args: [missing] } }, { value: { name: "bridgetest", version: "0.0.0", value: Buffer.from(JSON.stringify({ local: { path: missing } })) } }]) {
      const p = await inProcessPlugin(sink.address);
      try {
        expect(await p.call("Parameterize", request)).toEqual({ name: "bridgetest", version: "0.0.0" });
        await objectLifecycle(p.call);
      } finally {
        await p.close();
      }
      expect(processAlive(bridgetest.pid)).toBe(true);
    }
  });

  it("an SDK pinned to a registry version keeps that version while attached, and a bare address matches the provider's own", async () => {
    // The debug provider announces registry.terraform.io; the key's bare form resolves to the default registry, the same providers.
    setEnv({ PULUMI_BRIDGE_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": bridgetest.entry }), PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache });
    const p = await inProcessPlugin(sink.address);
    try {
      const value = Buffer.from(JSON.stringify({ remote: { url: "registry.opentofu.org/bridge/bridgetest", version: "1.2.3" } }));
      expect(await p.call("Parameterize", { value: { name: "bridgetest", version: "1.2.3", value } })).toEqual({ name: "bridgetest", version: "1.2.3" });
    } finally {
      await p.close();
    }
  });

  it("protocol 5: random -debug is attached to through tfplugin5", async () => {
    expect(random.entry.ProtocolVersion).toBe(5);
    setEnv({ TF_REATTACH_PROVIDERS: random.reattach, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache });
    const before = providerChildren();
    const p = await inProcessPlugin(sink.address);
    try {
      expect(await p.call("Parameterize", { args: { args: ["hashicorp/random", "3.7.2"] } })).toEqual({ name: "random", version: "3.7.2" });
      const type = "random:index/id:Id";
      const urn = `urn:pulumi:dev::p::${type}::r`;
      await p.call("Configure", { args: toStruct({}), acceptSecrets: true, urn: "urn:pulumi:dev::p::pulumi:providers:random::default", name: "default", type: "pulumi:providers:random" });
      const checked = await p.call("Check", { urn, name: "r", type, olds: toStruct({}), news: toStruct({ byteLength: 4 }), randomSeed: Buffer.alloc(32, 2) });
      const created = await p.call("Create", { urn, name: "r", type, properties: checked["inputs"], timeout: 60 });
      expect((fromStruct(created["properties"] as Msg) as Record<string, Json>)["hex"]).toMatch(/^[0-9a-f]{8}$/);
      await p.call("Delete", { urn, name: "r", type, id: created["id"], properties: created["properties"], timeout: 60 });
      expect(providerChildren()).toEqual(before);
    } finally {
      await p.close();
    }
    expect(processAlive(random.pid)).toBe(true);
  });

  it("an entry for another provider changes nothing: bridgetest is launched as usual, and stopped with us", async () => {
    setEnv({ TF_REATTACH_PROVIDERS: random.reattach, PULUMI_BRIDGE_REATTACH_PROVIDERS: JSON.stringify({ "acme/bridgetestx": bridgetest.entry }) });
    const before = providerChildren();
    const p = await inProcessPlugin(sink.address);
    let launched: number[] = [];
    try {
      await p.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
      launched = providerChildren().filter((pid) => !before.includes(pid));
      expect(launched).toHaveLength(1);
      expect(launched[0]).not.toBe(bridgetest.pid);
    } finally {
      await p.close();
    }
    expect(await waitGone(launched[0]!)).toBe(true);
    expect(processAlive(bridgetest.pid)).toBe(true);
  });

  it("malformed variables fail Parameterize naming the variable and what is wrong", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TF_REATTACH_PROVIDERS: "{not json" }, /^TF_REATTACH_PROVIDERS is not valid JSON \(.*\)\. Expected JSON such as \{"registry\.terraform\.io\/hashicorp\/random"/],
      [{ PULUMI_BRIDGE_REATTACH_PROVIDERS: "[1]" }, /^PULUMI_BRIDGE_REATTACH_PROVIDERS must be a JSON object keyed by provider address/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bad key!": bridgetest.entry }) }, /^TF_REATTACH_PROVIDERS has a key that is not a provider address: invalid provider type "bad key!"/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": { ...bridgetest.entry, Protocol: "netrpc" } }) }, /entry "bridge\/bridgetest" has Protocol "netrpc"; only "grpc" providers can be attached/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": { ...bridgetest.entry, ProtocolVersion: 4 } }) }, /has ProtocolVersion 4; Terraform plugin protocol 5 or 6 is supported/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": { ...bridgetest.entry, Addr: { Network: "pipe", String: "x" } } }) }, /needs "Addr": \{"Network": "unix" or "tcp"/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": bridgetest.entry, "x/bridgetest": bridgetest.entry }) }, /has 2 entries for the local provider type "bridgetest" \(bridge\/bridgetest, x\/bridgetest\); keep one/],
      [{ TF_REATTACH_PROVIDERS: JSON.stringify({ "bridge/bridgetest": { ...bridgetest.entry, Addr: { Network: "unix", String: join(scratch, "gone.sock") } } }) }, /names the socket .*gone\.sock, which does not exist; start the provider in debug mode again/],
    ];
    for (const [env, message] of cases) {
      setEnv(env);
      const p = await inProcessPlugin(sink.address);
      try {
        const e = await failure(p.call, "Parameterize", { args: { args: [peerPath("bridgetest")] } });
        expect(e.code, String(message)).toBe(grpc.status.FAILED_PRECONDITION);
        expect(e.details).toMatch(message);
      } finally {
        await p.close();
      }
    }
  });
});
