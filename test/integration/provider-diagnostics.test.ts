// Where a Terraform provider's warnings and log lines reach the engine, through the plugin's gRPC against real
// providers: each warning diagnostic once, as a warning about the resource (or provider) whose call returned it; the
// provider's log lines, the framework's copy of each diagnostic among them, as debug messages about no resource.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { engineLogSink, inProcessPlugin, type LogEntry, type Msg } from "../support/in-process-plugin.js";
import { peerPath } from "../support/peers.js";
import { toStruct } from "../support/reference-ops.js";

let sink: Awaited<ReturnType<typeof engineLogSink>>;
beforeAll(async () => {
  sink = await engineLogSink();
});
afterAll(() => sink?.close());

/** Polls until `ready` holds for what the engine was told (the plugin logs after it answers, the provider's stderr later still). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`the engine was never told ${what}; it was told:\n${sink.logs.map((l) => `${l.severity} ${l.urn} ${l.message}`).join("\n")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const warnings = (logs: readonly LogEntry[]): { urn: string; message: string }[] => logs.filter((l) => l.severity === "WARNING").map((l) => ({ urn: l.urn, message: l.message }));

describe("a deprecated attribute set (random_string's number)", () => {
  it("is one warning, about the resource; the provider's log of it is a debug message", async () => {
    sink.logs.length = 0;
    const p = await inProcessPlugin(sink.address);
    try {
      await p.call("Parameterize", { args: { args: [peerPath("random")] } });
      const type = "random:index/string:String";
      const urn = `urn:pulumi:dev::p::${type}::s`;
      const res = await p.call("Check", { urn, name: "s", type, olds: toStruct({}), news: toStruct({ length: 8, number: true }), randomSeed: Buffer.alloc(32, 1) });
      expect(res["failures"] ?? []).toEqual([]);
      const logged = (l: LogEntry): boolean => l.message.includes("Response contains warning diagnostic");
      await until(() => sink.logs.some(logged), "the provider's log line of the warning");
      await until(() => sink.logs.some((l) => l.message.includes("Attribute Deprecated") && !logged(l)), "the warning");
      expect(warnings(sink.logs)).toEqual([{ urn, message: expect.stringMatching(/^random_string: Attribute Deprecated: \*\*NOTE\*\*: This is deprecated, use `numeric` instead\. \(at number\)$/) }]);
      const line = sink.logs.filter(logged);
      expect(line).toHaveLength(1);
      expect(line[0]).toMatchObject({ severity: "DEBUG", urn: "" });
      expect(line[0]!.message).toContain("tf_rpc=ValidateResourceTypeConfig");
    } finally {
      await p.close();
    }
  });
});

describe("warnings of every resource operation (bridgetest, BRIDGETEST_WARN)", () => {
  const POINTS = ["configure", "validate", "plan", "create", "update", "read", "delete"];
  const scratch = mkdtempSync(join(tmpdir(), "tfbridge-provider-diagnostics-"));
  const saved = { warn: process.env["BRIDGETEST_WARN"], dir: process.env["BRIDGETEST_STATE_DIR"] };
  afterEach(() => {
    for (const [key, value] of [["BRIDGETEST_WARN", saved.warn], ["BRIDGETEST_STATE_DIR", saved.dir]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("each is a warning about the resource or provider whose call returned it, once; the provider's log lines are debug", async () => {
    // The in-process plugin's providers inherit this process's environment when Parameterize launches them.
    process.env["BRIDGETEST_WARN"] = POINTS.join(",");
    process.env["BRIDGETEST_STATE_DIR"] = scratch;
    sink.logs.length = 0;
    const p = await inProcessPlugin(sink.address);
    /** Runs one call; returns what it answered, after the engine was told its warnings and the provider's lines for them. */
    const step = async (method: string, request: Msg, urn: string, points: string[]): Promise<Msg> => {
      const mark = sink.logs.length;
      const res = await p.call(method, request);
      const since = (): LogEntry[] => sink.logs.slice(mark);
      for (const point of points) {
        await until(() => since().some((l) => l.message.endsWith(`bridgetest: logged in ${point}`)), `the provider's log line of ${method}'s ${point}`);
        // The provider's own debug line about the diagnostic quotes it too, and may arrive first: wait for the warning.
        await until(() => since().some((l) => l.severity === "WARNING" && l.message.includes(`bridgetest: warning in ${point}`)), `${method}'s warning of ${point}`);
      }
      expect(warnings(since()), method).toEqual(points.map((point) => ({ urn, message: `bridgetest_object: bridgetest: warning in ${point}: asked for by BRIDGETEST_WARN` })));
      return res;
    };
    try {
      await p.call("Parameterize", { args: { args: [peerPath("bridgetest")] } });
      const providerType = "pulumi:providers:bridgetest";
      const providerUrn = `urn:pulumi:dev::p::${providerType}::default`;
      await p.call("CheckConfig", { urn: providerUrn, name: "default", type: providerType, olds: toStruct({}), news: toStruct({}) });
      const mark = sink.logs.length;
      await p.call("Configure", { args: toStruct({}), acceptSecrets: true, acceptResources: true, urn: providerUrn, name: "default", type: providerType });
      await until(() => sink.logs.slice(mark).some((l) => l.message.endsWith("bridgetest: logged in configure")), "the provider's log line of Configure");
      await until(() => sink.logs.slice(mark).some((l) => l.severity === "WARNING" && l.message.includes("bridgetest: warning in configure")), "Configure's warning");
      expect(warnings(sink.logs.slice(mark))).toEqual([{ urn: providerUrn, message: "provider configuration: bridgetest: warning in configure: asked for by BRIDGETEST_WARN" }]);

      const type = "bridgetest:index/objectResource:ObjectResource";
      const urn = `urn:pulumi:dev::p::${type}::o`;
      const base = { urn, name: "o", type };
      const checked = await step("Check", { ...base, olds: toStruct({}), news: toStruct({ name: "w", numberValue: 1 }), randomSeed: Buffer.alloc(32, 7) }, urn, ["validate"]);
      const created = await step("Create", { ...base, properties: checked["inputs"], timeout: 60 }, urn, ["plan", "create"]);
      const checked2 = await step("Check", { ...base, olds: checked["inputs"], news: toStruct({ name: "w", numberValue: 2 }), randomSeed: Buffer.alloc(32, 7) }, urn, ["validate"]);
      const diffRequest = { ...base, id: created["id"], olds: created["properties"], news: checked2["inputs"], oldInputs: checked["inputs"] };
      await step("Diff", diffRequest, urn, ["plan"]);
      // Update applies the plan Diff made (src/bridge/plan-memo.ts): the provider plans no second time.
      const updated = await step("Update", { ...diffRequest, timeout: 60 }, urn, ["update"]);
      await step("Read", { ...base, id: created["id"], properties: updated["properties"], inputs: checked2["inputs"] }, urn, ["read"]);
      await step("Delete", { ...base, id: created["id"], properties: updated["properties"], oldInputs: checked2["inputs"], timeout: 60 }, urn, ["delete"]);

      const lines = sink.logs.filter((l) => /bridgetest: logged in |Response contains warning diagnostic/.test(l.message));
      expect(lines.length).toBeGreaterThanOrEqual(2 * POINTS.length);
      for (const line of lines) expect(line, line.message).toMatchObject({ severity: "DEBUG", urn: "" });
    } finally {
      await p.close();
    }
  });
});
