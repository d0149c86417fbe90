// What a recorded call shows and hides, shape by shape: a fake provider, a real recorder, the lines it writes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BigNum, CtyString, Unknown, type CtyValue } from "../../src/terraform/cty/index.js";
import { CallRecorder, RecordedSecrets, RecordingProvider } from "../../src/terraform/recording.js";
import type { Attribute, Block, ProviderSchema, TerraformProvider } from "../../src/terraform/types.js";
import { toTfObject } from "../../src/bridge/property-cty.js";
import { Secret } from "../../src/bridge/property-value.js";
import type { PropertyModel } from "../../src/schema-translate/model.js";

const dir = mkdtempSync(join(tmpdir(), "tfbridge-recording-unit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const attr = (name: string, more: Partial<Attribute> = {}): Attribute => ({
  name, type: CtyString, description: "", descriptionKind: "plain", required: false, optional: true, computed: false,
  sensitive: false, deprecated: false, deprecationMessage: "", writeOnly: false, ...more,
});
const block = (attributes: Attribute[], blockTypes: Block["blockTypes"] = []): Block => ({
  attributes, blockTypes, description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "",
});

const resource = block(
  [
    attr("plain"),
    attr("password", { sensitive: true }),
    attr("wo", { writeOnly: true }),
    attr("count", { type: { kind: "number" } }),
    attr("nested", { type: undefined, nestedType: { nesting: "list", attributes: [attr("k"), attr("token", { sensitive: true })] } }),
  ],
  [{ typeName: "rule", nesting: "set", minItems: 0, maxItems: 0, block: block([attr("port"), attr("key", { sensitive: true })]) }],
);

const schema: ProviderSchema = {
  provider: { version: 0, block: block([attr("endpoint"), attr("token", { sensitive: true })]) },
  resources: new Map([["x_thing", { version: 0, block: resource }]]),
  dataSources: new Map(),
  ephemeralResources: new Map(),
  actions: new Map([["x_act", { version: 0, block: block([attr("steps"), attr("token", { writeOnly: true })]) }]]),
  functions: new Map(),
  serverCapabilities: { planDestroy: true, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false },
  diagnostics: [],
};

/** A provider that answers plan with the proposed state and a diagnostic repeating what it was given. */
function fakeProvider(): TerraformProvider {
  const fetched = Promise.resolve(schema);
  return {
    protocolVersion: 6,
    getProviderSchema: () => fetched,
    validateProviderConfig: async () => [],
    configureProvider: async () => [],
    validateResourceConfig: async () => [],
    planResourceChange: async (req) => ({
      plannedState: req.proposedNewState,
      requiresReplace: [[{ attribute: "plain" }]],
      plannedPrivate: Buffer.from("xyz"),
      diagnostics: [{ severity: "warning", summary: "echo", detail: `got ${JSON.stringify(req.config)}` }],
      legacyTypeSystem: false,
    }),
    applyResourceChange: async () => { throw new Error("boom: apply failed for password hunter2-long"); },
    readResource: async () => { throw new Error("unused"); },
    importResourceState: async () => { throw new Error("unused"); },
    upgradeResourceState: async () => { throw new Error("unused"); },
    generateResourceConfig: async () => { throw new Error("unused"); },
    moveResourceState: async () => { throw new Error("unused"); },
    getResourceIdentitySchemas: async () => new Map(),
    upgradeResourceIdentity: async () => { throw new Error("unused"); },
    validateDataSourceConfig: async () => [],
    readDataSource: async () => { throw new Error("unused"); },
    callFunction: async (_name, args) => ({ result: args[0] ?? null }),
    validateEphemeralResourceConfig: async () => [],
    openEphemeralResource: async () => { throw new Error("unused"); },
    renewEphemeralResource: async () => { throw new Error("unused"); },
    closeEphemeralResource: async () => [],
    validateActionConfig: async () => [],
    planAction: async () => ({ diagnostics: [] }),
    invokeAction: async (_type, config, onProgress) => {
      onProgress(`ran with ${JSON.stringify(config)}`);
      return [{ severity: "warning", summary: "done", detail: "" }];
    },
    stopProvider: async () => undefined,
    close: async () => undefined,
  };
}

const stringProperty = (name: string): PropertyModel =>
  ({ name, tfName: name, type: { kind: "string" }, tfType: { kind: "string" }, input: true, output: true, required: false, computed: false, secret: false, writeOnly: false, maxItemsOne: false, description: "" }) as PropertyModel;

type Line = { method: string; request: Record<string, unknown>; response?: Record<string, unknown>; error?: string };

describe("RecordingProvider", () => {
  it("redacts by schema (nested attributes, blocks, write-only, unlisted attributes), and every secret wherever it reappears", async () => {
    const file = join(dir, "calls.jsonl");
    const p = new RecordingProvider(fakeProvider(), new CallRecorder(file), "x");
    await p.getProviderSchema();
    await p.getProviderSchema(); // cached: no second record
    await p.configureProvider({ endpoint: "https://api.example", token: "cfg-token-123" });
    // What the program marked secret, whatever the schema says about the attribute.
    p.secretSink.note({ value: "program-secret" });
    const value: CtyValue = {
      plain: "program-secret",
      password: "hunter2-long",
      wo: "write-only-1",
      count: new BigNum("12345678901234567890"),
      nested: [{ k: "visible", token: "nested-tok" }],
      rule: [{ port: "80", key: "block-key" }],
      extra: "not-in-schema",
    };
    await p.planResourceChange({ typeName: "x_thing", priorState: null, proposedNewState: { ...value, plain: new Unknown() }, config: value });
    await expect(p.applyResourceChange({ typeName: "x_thing", priorState: null, plannedState: value, config: value })).rejects.toThrow(/boom/);
    await p.callFunction("f", ["abc", "program-secret"]);
    await p.close();

    const text = readFileSync(file, "utf8");
    for (const leak of ["cfg-token-123", "https://api.example", "program-secret", "hunter2-long", "write-only-1", "nested-tok", "block-key", "not-in-schema"]) {
      expect(text, leak).not.toContain(leak);
    }
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.method)).toEqual(["GetProviderSchema", "ConfigureProvider", "PlanResourceChange", "ApplyResourceChange", "CallFunction"]);
    expect(lines[1]!.request).toEqual({ config: { endpoint: "<redacted>", token: "<redacted>" } });
    const plan = lines[2]!;
    expect(plan.request["config"]).toEqual({
      plain: "<redacted>",
      password: "<redacted>",
      wo: "<redacted>",
      count: "12345678901234567890",
      nested: [{ k: "visible", token: "<redacted>" }],
      rule: [{ port: "80", key: "<redacted>" }],
      extra: "<redacted>",
    });
    expect((plan.request["proposedNewState"] as Record<string, unknown>)["plain"]).toBe("<unknown>");
    expect(plan.response).toMatchObject({ requiresReplace: [["plain"]], plannedPrivate: "<3 bytes>" });
    // The provider echoed the secrets into a diagnostic: scrubbed there too.
    const detail = (plan.response!["diagnostics"] as { detail: string }[])[0]!.detail;
    expect(detail).toContain('"password":"<redacted>"');
    expect(detail).toContain('"k":"visible"');
    expect(lines[3]!.error).toBe("boom: apply failed for password <redacted>");
    expect(lines[4]!.request).toEqual({ name: "f", arguments: ["abc", "<redacted>"] });
  });

  it("keeps each session's secrets to itself, and takes the program's from the conversion", async () => {
    const first = new RecordingProvider(fakeProvider(), new CallRecorder(join(dir, "first.jsonl")), "x");
    const second = new RecordingProvider(fakeProvider(), new CallRecorder(join(dir, "second.jsonl")), "x");
    // The conversion of a program value with a secret inside hands it to the provider's sink, and to no other.
    toTfObject([stringProperty("plain")], { plain: new Secret("only-in-first") }, first.secretSink);
    for (const p of [first, second]) {
      await p.getProviderSchema();
      await p.callFunction("f", ["only-in-first"]);
      await p.close();
    }
    expect(readFileSync(join(dir, "first.jsonl"), "utf8")).not.toContain("only-in-first");
    expect(readFileSync(join(dir, "second.jsonl"), "utf8")).toContain("only-in-first");
  });
});

describe("RecordingProvider and actions", () => {
  it("records the three action RPCs with write-only values redacted, and InvokeAction's progress in order", async () => {
    const file = join(dir, "actions.jsonl");
    const p = new RecordingProvider(fakeProvider(), new CallRecorder(file), "x");
    await p.getProviderSchema();
    const config = { steps: "2", token: "wo-action-token" };
    const seen: string[] = [];
    await p.validateActionConfig("x_act", config);
    await p.planAction("x_act", config);
    await p.invokeAction("x_act", config, (m) => seen.push(m));
    await p.close();
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("wo-action-token");
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.method)).toEqual(["GetProviderSchema", "ValidateActionConfig", "PlanAction", "InvokeAction"]);
    expect(lines[1]!.request).toEqual({ actionType: "x_act", config: { steps: "2", token: "<redacted>" } });
    // The caller gets the progress as the provider sent it; the record has the write-only value it redacted from the
    // request scrubbed from the progress as well.
    expect(seen).toEqual([`ran with ${JSON.stringify(config)}`]);
    expect(lines[3]!.response).toEqual({ progress: ['ran with {"steps":"2","token":"<redacted>"}'], diagnostics: [{ severity: "warning", summary: "done" }] });
  });
});

describe("RecordedSecrets", () => {
  it("scrubs what it was given, whole and inside longer text (4 characters or more), and nothing else", () => {
    const s = new RecordedSecrets();
    expect(s.scrub({ a: "abc", b: "xabcx", n: 42 })).toEqual({ a: "abc", b: "xabcx", n: 42 });
    s.note({ value: ["abc", "long-secret", 42, new BigNum("7.5")] });
    expect(s.scrub({ a: "abc", b: "xabcx", c: "my long-secret here", n: 42, m: 43, d: "7.5", [`k-long-secret`]: 1 })).toEqual({
      a: "<redacted>",
      b: "xabcx",
      c: "my <redacted> here",
      n: "<redacted>",
      m: 43,
      d: "<redacted>",
      "k-<redacted>": 1,
    });
  });
});

