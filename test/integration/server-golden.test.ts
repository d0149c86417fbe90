// One golden file per gRPC method the engine calls: the request and the plugin's answer, for a bridgetest lifecycle
// served in this process (test/golden/grpc/<Method>.json; UPDATE_GOLDENS=1 rewrites them, then review the diff).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, inProcessPlugin, type Call, type Msg } from "../support/in-process-plugin.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { fromValue, toStruct, type Json } from "../support/reference-ops.js";

const GOLDEN_DIR = join(repoRoot, "test/golden/grpc");
const UPDATE = process.env["UPDATE_GOLDENS"] === "1";
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-grpc-golden-"));
const stateDir = join(scratch, "state");

type Exchange = { request: Json; response: Json } | { request: Json; error: { code: string; details: string } };
const exchanges = new Map<string, Exchange>();

/** Replaces what differs between runs (the scratch dir, the peer's path, the provider's random ids) with placeholders. */
function stable(text: string, ids: Map<string, string>): string {
  return text
    .replaceAll(stateDir, "<state-dir>")
    .replaceAll(peerPath("bridgetest"), "<bridgetest>")
    .replace(/\b(obj|named|fail)-[0-9a-f]{12}\b/g, (id) => {
      if (!ids.has(id)) ids.set(id, `<id-${ids.size + 1}>`);
      return ids.get(id)!;
    });
}

/** A google.protobuf.Value as JSON, in either object form: decoded (`kind` names the field) or as built by toValue. */
function valueJson(v: Msg): Json {
  if (typeof v["kind"] === "string") return fromValue(v);
  if ("structValue" in v) return structJson(v["structValue"] as Msg);
  if ("listValue" in v) return ((v["listValue"] as Msg)["values"] as Msg[]).map(valueJson);
  for (const k of ["stringValue", "numberValue", "boolValue"]) if (k in v) return v[k] as Json;
  return null;
}

function structJson(s: Msg): Json {
  const fields = (s["fields"] as Record<string, Msg> | undefined) ?? {};
  return Object.fromEntries(Object.keys(fields).sort().map((k) => [k, valueJson(fields[k]!)]));
}

/** A message as JSON: Structs decoded, bytes as base64 (the parameter value as the JSON it is), defaults dropped. */
function messageJson(m: unknown, key = ""): Json {
  if (m === null || m === undefined) return null;
  if (Buffer.isBuffer(m)) return key === "value" ? (JSON.parse(m.toString("utf8")) as Json) : m.toString("base64");
  if (Array.isArray(m)) return m.map((x) => messageJson(x));
  if (typeof m !== "object") return m as Json;
  const o = m as Msg;
  if ("fields" in o && Object.keys(o).length === 1) return structJson(o);
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(o).sort()) {
    const x = messageJson(o[k], k);
    if (x === null || x === "" || x === false || x === 0 || (Array.isArray(x) && x.length === 0)) continue;
    out[k] = x;
  }
  return out;
}

function responseJson(method: string, res: Msg): Json {
  const out = messageJson(res) as { [k: string]: Json };
  // The schema has its own goldens (test/golden/*.schema.json); here, what the engine reads first.
  if (method === "GetSchema") {
    const schema = JSON.parse(res["schema"] as string) as { name: string; version: string; resources: object; functions: object; parameterization: { baseProvider: Json } };
    out["schema"] = {
      name: schema.name,
      version: schema.version,
      baseProvider: schema.parameterization.baseProvider,
      resources: Object.keys(schema.resources).sort(),
      functions: Object.keys(schema.functions).sort(),
    };
  }
  // The whole mapping is compared with the reference's (reference-mapping.test.ts); here, the tokens a converter maps to.
  if (method === "GetMapping") {
    type Toks = Record<string, { tok: string }> | undefined;
    const data = JSON.parse(Buffer.from(res["data"] as Uint8Array).toString("utf8")) as { name: string; version: string; resources: Toks; dataSources: Toks; functions: Toks };
    const toks = (m: Toks): Json => Object.fromEntries(Object.keys(m ?? {}).sort().map((k) => [k, m![k]!.tok]));
    out["data"] = { name: data.name, version: data.version, resources: toks(data.resources), dataSources: toks(data.dataSources), functions: toks(data.functions) };
  }
  return out;
}

const ids = new Map<string, string>();

async function record(call: Call, method: string, request: Msg): Promise<Msg | undefined> {
  let exchange: Exchange;
  let res: Msg | undefined;
  try {
    res = await call(method, request);
    exchange = { request: messageJson(request), response: responseJson(method, res) };
  } catch (e) {
    const err = e as grpc.ServiceError;
    if (typeof (e as { code?: unknown }).code !== "number") throw e;
    exchange = { request: messageJson(request), error: { code: String(err.code), details: err.details } };
  }
  exchanges.set(method, JSON.parse(stable(JSON.stringify(exchange), ids)) as Exchange);
  return res;
}

let sink: Awaited<ReturnType<typeof engineLogSink>>;

beforeAll(async () => {
  sink = await engineLogSink();
  const p = await inProcessPlugin(sink.address);
  try {
    await record(p.call, "GetPluginInfo", {});
    await record(p.call, "Parameterize", { args: { args: [peerPath("bridgetest")] } });
    await record(p.call, "GetSchema", { version: 0 });
    const providerType = "pulumi:providers:bridgetest";
    const providerUrn = `urn:pulumi:dev::p::${providerType}::default`;
    const config = toStruct({ stateDir });
    await record(p.call, "CheckConfig", { urn: providerUrn, name: "default", type: providerType, olds: toStruct({}), news: config });
    await record(p.call, "DiffConfig", { urn: providerUrn, name: "default", type: providerType, olds: config, news: toStruct({ stateDir, apiToken: "t" }), oldInputs: config });
    await record(p.call, "Configure", { args: config, acceptSecrets: true, acceptResources: true, urn: providerUrn, name: "default", type: providerType });

    const type = "bridgetest:index/objectResource:ObjectResource";
    const urn = `urn:pulumi:dev::p::${type}::o`;
    const v1 = toStruct({ name: "golden", numberValue: 1, mapValue: { a: "b" } });
    const checked = (await record(p.call, "Check", { urn, name: "o", type, olds: toStruct({}), news: v1, randomSeed: Buffer.alloc(32, 7) }))!;
    const created = (await record(p.call, "Create", { urn, name: "o", type, properties: checked["inputs"], timeout: 60 }))!;
    await record(p.call, "Read", { urn, name: "o", type, id: created["id"], properties: created["properties"], inputs: checked["inputs"] });
    const v2 = toStruct({ name: "golden", numberValue: 2, mapValue: { a: "b" } });
    const checked2 = (await p.call("Check", { urn, name: "o", type, olds: checked["inputs"], news: v2, randomSeed: Buffer.alloc(32, 7) }))!;
    await record(p.call, "Diff", { urn, name: "o", type, id: created["id"], olds: created["properties"], news: checked2["inputs"], oldInputs: checked["inputs"] });
    const updated = (await record(p.call, "Update", { urn, name: "o", type, id: created["id"], olds: created["properties"], news: checked2["inputs"], oldInputs: checked["inputs"], timeout: 60 }))!;
    await record(p.call, "Invoke", { tok: "bridgetest:index/getEcho:getEcho", args: toStruct({ input: { x: [1, "two"] } }) });
    await record(p.call, "Delete", { urn, name: "o", type, id: created["id"], properties: updated["properties"], oldInputs: checked2["inputs"], timeout: 60 });
    await record(p.call, "Call", { tok: "bridgetest:index:method", args: toStruct({}) });
    await record(p.call, "Construct", { type: "bridgetest:index:Component", name: "c" });
    await record(p.call, "GetMapping", { key: "terraform", provider: "" });
    await record(p.call, "GetMappings", { key: "terraform" });
    await record(p.call, "Cancel", {});
  } finally {
    await p.close();
  }
});

afterAll(() => {
  sink?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const METHODS = [
  "GetPluginInfo", "Parameterize", "GetSchema", "CheckConfig", "DiffConfig", "Configure", "Check", "Create", "Read", "Diff",
  "Update", "Invoke", "Delete", "Call", "Construct", "GetMapping", "GetMappings", "Cancel",
];

describe("gRPC goldens (test/golden/grpc)", () => {
  for (const method of METHODS) {
    it(method, () => {
      const got = exchanges.get(method);
      expect(got, `${method} was not called`).toBeDefined();
      const file = join(GOLDEN_DIR, `${method}.json`);
      const text = `${JSON.stringify(got, null, 2)}\n`;
      if (UPDATE) {
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(file, text);
      }
      expect(existsSync(file), `${file} is missing; run UPDATE_GOLDENS=1 npx vitest run test/integration/server-golden.test.ts`).toBe(true);
      expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, "utf8")));
    });
  }
});
