// PULUMI_TF_DEBUG_GRPC=<file>: every call the plugin (in this process) makes to bridgetest is one JSON line, and no secret
// (sensitive attributes, write-only values, provider configuration, values the program marked secret) is in the file.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, failure, inProcessPlugin, type Call } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { secret, toStruct } from "../support/reference-ops.js";

const VARIABLE = "PULUMI_TF_DEBUG_GRPC";
const saved = process.env[VARIABLE];
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-recording-"));
let sink: Awaited<ReturnType<typeof engineLogSink>>;

beforeAll(async () => {
  sink = await engineLogSink();
});
afterEach(() => {
  if (saved === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = saved;
});
afterAll(() => {
  sink?.close();
  rmSync(scratch, { recursive: true, force: true });
});

// Each secret is distinct text, so finding any of them anywhere in the file is a leak.
const API_TOKEN = "tok-7f3a9c1e-provider-config";
const SENSITIVE = "s3cret-sensitive-attribute";
const WRITE_ONLY = "wo-write-only-attribute-value";
const PROGRAM_SECRET = "pulumi-secret-in-a-plain-map";

interface Line {
  time: string;
  pid: number;
  provider: string;
  method: string;
  durationMs: number;
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
  error?: string;
}

async function lifecycle(call: Call, stateDir: string): Promise<void> {
  const providerType = "pulumi:providers:bridgetest";
  const providerUrn = `urn:pulumi:dev::p::${providerType}::default`;
  const config = { stateDir, apiToken: secret(API_TOKEN) };
  await call("CheckConfig", { urn: providerUrn, name: "default", type: providerType, olds: toStruct({}), news: toStruct(config) });
  await call("Configure", { args: toStruct(config), acceptSecrets: true, acceptResources: true, urn: providerUrn, name: "default", type: providerType });
  const type = "bridgetest:index/objectResource:ObjectResource";
  const urn = `urn:pulumi:dev::p::${type}::o`;
  const news = { name: "recorded", secret: SENSITIVE, writeOnlySecret: WRITE_ONLY, mapValue: { a: secret(PROGRAM_SECRET), b: "visible-map-value" } };
  const checked = await call("Check", { urn, name: "o", type, olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 3) });
  const created = await call("Create", { urn, name: "o", type, properties: checked["inputs"], timeout: 60 });
  await call("Read", { urn, name: "o", type, id: created["id"], properties: created["properties"], inputs: checked["inputs"] });
  await call("Delete", { urn, name: "o", type, id: created["id"], properties: created["properties"], timeout: 60 });
}

describe("recording Terraform calls", () => {
  it("one JSON line per call with method, duration and the request and response, and no secret anywhere in the file", async () => {
    const file = join(scratch, "calls.jsonl");
    process.env[VARIABLE] = file;
    const p = await inProcessPlugin(sink.address);
    try {
      await p.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
      await lifecycle(p.call, join(scratch, "state"));
    } finally {
      await p.close();
    }
    const text = readFileSync(file, "utf8");
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    // The calls the bridge makes for this sequence, in order, each recorded once (the schema only when fetched).
    expect(lines.map((l) => l.method)).toEqual([
      "GetProviderSchema",
      "ValidateProviderConfig",
      "ConfigureProvider",
      "ValidateResourceConfig",
      // Once per provider process, before the first resource call (bridgetest has identities, bridgetest_object none).
      "GetResourceIdentitySchemas",
      "PlanResourceChange",
      "ApplyResourceChange",
      // The stored state is at the provider's schema version: no UpgradeResourceState before the read or the delete.
      "ReadResource",
      "PlanResourceChange",
      "ApplyResourceChange",
    ]);
    for (const l of lines) {
      expect(l).toMatchObject({ provider: "bridgetest", pid: process.pid });
      expect(typeof l.durationMs).toBe("number");
      expect(l.durationMs).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(l.time))).toBe(false);
      expect(l.response ?? l.error).toBeDefined();
    }
    for (const leak of [API_TOKEN, SENSITIVE, WRITE_ONLY, PROGRAM_SECRET]) expect(text).not.toContain(leak);

    // Redacted where they were, so the record still says what was set.
    const configure = lines.find((l) => l.method === "ConfigureProvider")!;
    expect(configure.request["config"]).toEqual({ api_token: "<redacted>", state_dir: "<redacted>", fail_on: null });
    const apply = lines.find((l) => l.method === "ApplyResourceChange")!;
    expect(apply.request["config"]).toMatchObject({ name: "recorded", secret: "<redacted>", write_only_secret: "<redacted>", map_value: { a: "<redacted>", b: "visible-map-value" } });
    expect(apply.response!["newState"]).toMatchObject({ name: "recorded", secret: "<redacted>", write_only_secret: null, revision: 1 });
    const plan = lines.find((l) => l.method === "PlanResourceChange")!;
    expect(plan.response!["plannedState"]).toMatchObject({ id: "<unknown>", revision: "<unknown>" });
    const schema = lines[0]!;
    expect(schema.response).toMatchObject({ resourceTypes: expect.any(Number), functions: 2 });
  });

  it("TF_BRIDGE_UPGRADE_STATE=always sends a state already at the provider's schema version through UpgradeResourceState, as Terraform does", async () => {
    const file = join(scratch, "always.jsonl");
    process.env[VARIABLE] = file;
    process.env["TF_BRIDGE_UPGRADE_STATE"] = "always";
    const p = await inProcessPlugin(sink.address);
    try {
      await p.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
      await lifecycle(p.call, join(scratch, "state-always"));
    } finally {
      delete process.env["TF_BRIDGE_UPGRADE_STATE"];
      await p.close();
    }
    const methods = readFileSync(file, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as Line).method);
    expect(methods.slice(methods.indexOf("ApplyResourceChange") + 1)).toEqual([
      "UpgradeResourceState",
      "ReadResource",
      "UpgradeResourceState",
      "PlanResourceChange",
      "ApplyResourceChange",
    ]);
  });

  it("an unwritable file fails Parameterize naming the variable", async () => {
    process.env[VARIABLE] = join(scratch, "no", "such", "dir", "calls.jsonl");
    const p = await inProcessPlugin(sink.address);
    try {
      const e = await failure(p.call, "Parameterize", { args: { args: [peerPath("bridgetest")] } });
      expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(e.details).toMatch(/^PULUMI_TF_DEBUG_GRPC=.*calls\.jsonl: cannot open the file for appending \(ENOENT.*\); name a writable file or unset PULUMI_TF_DEBUG_GRPC/);
    } finally {
      await p.close();
    }
  });
});
