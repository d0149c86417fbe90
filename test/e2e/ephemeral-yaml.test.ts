// Ephemeral resources through the real Pulumi CLI: a YAML program invokes random's and tls's ephemeral functions,
// uses the results as outputs and as a resource input; state holds them only as secrets, and every open is closed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { isSecretEnvelope, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const program = [
  "variables:",
  "  pw:",
  "    fn::invoke:",
  "      function: random:ephemeral/getPassword:getPassword",
  "      arguments:",
  "        length: 20",
  "        special: false",
  "  key:",
  "    fn::invoke:",
  "      function: tls:ephemeral/getPrivateKey:getPrivateKey",
  "      arguments:",
  "        algorithm: ED25519",
  "resources:",
  "  keeper:",
  "    type: random:index/string:String",
  "    properties:",
  "      length: 4",
  "      keepers:",
  "        pw: ${pw.result}",
  "outputs:",
  "  password: ${pw.result}",
  "  length: ${pw.length}",
  "  publicKeyPem: ${key.publicKeyPem}",
].join("\n");

interface Record_ { pid: number; provider: string; method: string; request?: { typeName?: string } }

describe("ephemeral resources (YAML)", () => {
  it("fn::invoke of random:ephemeral/getPassword and tls:ephemeral/getPrivateKey: results secret in state, every open closed", async () => {
    const recording = join(scratch("tfbridge-ephemeral-rec-"), "calls.jsonl");
    const s = await YamlScenario.create(sandbox, "eph-yaml", ["random", "tls"], { PULUMI_TF_DEBUG_GRPC: recording });
    s.program(program);
    await s.up();

    const plain = await s.outputs(true);
    const password = plain["password"] as string;
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(plain["length"]).toBe(20);
    expect(plain["publicKeyPem"]).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    // In state, each output and the resource input made from the password are secrets, and the value is nowhere.
    const deployment = await s.deployment();
    const stack = deployment.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
    for (const name of ["password", "length", "publicKeyPem"]) expect(isSecretEnvelope(stack?.outputs?.[name]), name).toBe(true);
    const keeper = await s.resource("keeper");
    expect(isSecretEnvelope((keeper?.inputs?.["keepers"] as Record<string, unknown> | undefined)?.["pw"]) || isSecretEnvelope(keeper?.inputs?.["keepers"])).toBe(true);
    const text = await s.exportText();
    expect(text).not.toContain(password);
    expect(text).not.toContain((plain["publicKeyPem"] as string).split("\n")[1]!);

    // Every open, in whichever plugin process made it, was closed by the same process.
    const records = readFileSync(recording, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record_);
    const ephemeral = records.filter((r) => /EphemeralResource$/.test(r.method));
    const opens = ephemeral.filter((r) => r.method === "OpenEphemeralResource").map((r) => `${r.pid} ${r.request?.typeName}`).sort();
    const closes = ephemeral.filter((r) => r.method === "CloseEphemeralResource").map((r) => `${r.pid} ${r.request?.typeName}`).sort();
    expect(opens.filter((o) => o.endsWith("random_password")).length).toBeGreaterThan(0);
    expect(opens.filter((o) => o.endsWith("tls_private_key")).length).toBeGreaterThan(0);
    expect(closes).toEqual(opens);
    expect(readFileSync(recording, "utf8")).not.toContain(password);

    // Each run opens anew: another password, so the resource keyed on it is replaced.
    await s.up();
    expect((await s.outputs(true))["password"]).not.toBe(password);

    await s.ok(["destroy", "--yes"]);
    expect(await s.resourceNames()).toEqual([]);
  }, 600_000);
});
