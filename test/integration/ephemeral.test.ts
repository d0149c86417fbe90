// Terraform ephemeral resources served as functions, against the real random and tls providers: the RPC sequence
// (validate, open, renew when asked, close), secret results, failures naming the property, close after late failures.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { BridgeError } from "../../src/bridge/types.js";
import { Secret } from "../../src/bridge/property-value.js";
import { UNKNOWN, type CtyValue } from "../../src/terraform/cty/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { CallRecorder, RecordingProvider } from "../../src/terraform/recording.js";
import type { TerraformProvider } from "../../src/terraform/types.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { peerPath } from "../support/peers.js";
import { closedAfterEach } from "../support/launched.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-ephemeral-"));
const launched = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Overrides = Partial<{ [K in keyof TerraformProvider]: TerraformProvider[K] }>;

/** The provider with every call's method name logged, and some calls replaced to inject faults. */
function spied(inner: TerraformProvider, calls: string[], overrides: Overrides = {}): TerraformProvider {
  return new Proxy(inner, {
    get(target, key, receiver) {
      const own = (overrides as Record<PropertyKey, unknown>)[key];
      const value = own ?? Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(own !== undefined ? overrides : target, args);
      };
    },
  });
}

async function bridgeFor(name: string, overrides: Overrides = {}, wrap?: (tf: TerraformProvider) => TerraformProvider): Promise<{ b: TerraformBridge; calls: string[]; logs: string[] }> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(name) });
  launched.push(tf);
  const calls: string[] = [];
  const inner: TerraformProvider = wrap === undefined ? tf : wrap(tf);
  const provider = spied(inner, calls, overrides);
  const schema = await provider.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: name, packageVersion: "1.0.0" });
  const logs: string[] = [];
  const b = new TerraformBridge(provider, schema, model, (sev, msg) => logs.push(`${sev}: ${msg}`));
  await b.configure({});
  calls.length = 0;
  return { b, calls, logs };
}

const ephemeralCalls = (calls: string[]) => calls.filter((c) => /Ephemeral/.test(c));

describe("ephemeral resources through invoke", () => {
  it("random_password: validate, open, close; every value secret, the password as asked", async () => {
    const { b, calls } = await bridgeFor("random");
    const r = await b.invoke("random:ephemeral/getPassword:getPassword", { length: 24, special: false });
    expect(r.failures).toEqual([]);
    for (const v of Object.values(r.result)) if (v !== null) expect(v).toBeInstanceOf(Secret);
    const password = (r.result["result"] as Secret).value;
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    expect((r.result["length"] as Secret).value).toBe(24);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource", "closeEphemeralResource"]);
    // Each Invoke opens anew: an ephemeral value is never kept.
    const again = await b.invoke("random:ephemeral/getPassword:getPassword", { length: 24, special: false });
    expect((again.result["result"] as Secret).value).not.toBe(password);
  });

  it("random_bytes and tls_private_key open and close, recorded by PULUMI_TF_DEBUG_GRPC with the result redacted", async () => {
    const file = join(scratch, "calls.jsonl");
    const recorder = new CallRecorder(file);
    const { b: rb } = await bridgeFor("random", {}, (tf) => new RecordingProvider(tf, recorder, "random"));
    const bytes = await rb.invoke("random:ephemeral/getBytes:getBytes", { length: 16 });
    expect(Buffer.from((bytes.result["base64"] as Secret).value as string, "base64")).toHaveLength(16);
    expect((bytes.result["hex"] as Secret).value).toMatch(/^[0-9a-f]{32}$/);

    const { b, calls } = await bridgeFor("tls", {}, (tf) => new RecordingProvider(tf, recorder, "tls"));
    const key = await b.invoke("tls:ephemeral/getPrivateKey:getPrivateKey", { algorithm: "ECDSA", ecdsaCurve: "P256" });
    expect(key.failures).toEqual([]);
    expect((key.result["privateKeyPem"] as Secret).value).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    // Not sensitive in Terraform, secret here all the same: nothing of an ephemeral resource is meant to be stored.
    expect((key.result["publicKeyPem"] as Secret).value).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource", "closeEphemeralResource"]);
    recorder.close();

    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { provider: string; method: string; response?: Record<string, unknown> });
    const ephemeral = lines.filter((l) => /Ephemeral/.test(l.method)).map((l) => `${l.provider} ${l.method}`);
    expect(ephemeral).toEqual([
      "random ValidateEphemeralResourceConfig", "random OpenEphemeralResource", "random CloseEphemeralResource",
      "tls ValidateEphemeralResourceConfig", "tls OpenEphemeralResource", "tls CloseEphemeralResource",
    ]);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain((key.result["privateKeyPem"] as Secret).value as string);
    expect(text).not.toContain((bytes.result["hex"] as Secret).value as string);
    expect(lines.find((l) => l.method === "OpenEphemeralResource")!.response!["result"]).toBe("<redacted>");
  });

  it("bad input is a check failure naming the property, and nothing is opened", async () => {
    const { b, calls } = await bridgeFor("random");
    const T = "random:ephemeral/getPassword:getPassword";
    expect(await b.invoke(T, { length: "ten" })).toEqual({ result: {}, failures: [{ property: "length", reason: 'expected a number, got a string ("ten")' }] });
    expect((await b.invoke(T, { length: 8, colour: "red" })).failures).toEqual([{ property: "colour", reason: `${T} has no argument colour` }]);
    // The provider's own validation, at its attribute.
    const invalid = await b.invoke(T, { length: 0 });
    expect(invalid.failures.map((f) => f.property)).toEqual(["length"]);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig"]);
  });

  it("a failed open opens nothing to close; the error names the ephemeral resource", async () => {
    const { b, calls } = await bridgeFor("tls");
    // The provider accepts the configuration, then refuses to generate a key of this size at open.
    const r = b.invoke("tls:ephemeral/getPrivateKey:getPrivateKey", { algorithm: "RSA", rsaBits: 1 });
    await expect(r).rejects.toThrow(/opening ephemeral resource tls_private_key failed/);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource"]);
  });

  it("a renew_at that is due is renewed before close; a failing renew still closes, with the opened private data", async () => {
    const opened: { private?: Uint8Array } = {};
    let tfRef: TerraformProvider | undefined;
    const { b, calls } = await bridgeFor("random", {
      openEphemeralResource: async (typeName, config) => {
        const r = await tfRef!.openEphemeralResource(typeName, config);
        opened.private = Buffer.from("opened-private");
        return { ...r, private: opened.private, renewAt: new Date(Date.now() - 1_000) };
      },
      renewEphemeralResource: async () => ({ private: Buffer.from("renewed-private"), diagnostics: [{ severity: "error", summary: "lease expired", detail: "" }] }),
      closeEphemeralResource: async (_t, privateData) => {
        closedWith.push(Buffer.from(privateData).toString());
        return [];
      },
    }, (tf) => (tfRef = tf));
    const closedWith: string[] = [];
    await expect(b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 })).rejects.toThrow(/renewing ephemeral resource random_password failed:\nerror: lease expired/);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource", "renewEphemeralResource", "closeEphemeralResource"]);
    expect(closedWith).toEqual(["opened-private"]);
  });

  it("a successful renew hands its private data to close; renew_at in the future is not renewed", async () => {
    let tfRef: TerraformProvider | undefined;
    let renewAt: Date | undefined = new Date(Date.now() - 1);
    const closedWith: string[] = [];
    const { b, calls } = await bridgeFor("random", {
      openEphemeralResource: async (typeName, config) => ({ ...(await tfRef!.openEphemeralResource(typeName, config)), private: Buffer.from("p0"), ...(renewAt ? { renewAt } : {}) }),
      renewEphemeralResource: async () => ({ private: Buffer.from("p1"), renewAt: new Date(Date.now() + 3_600_000), diagnostics: [] }),
      closeEphemeralResource: async (_t, p) => (closedWith.push(Buffer.from(p).toString()), []),
    }, (tf) => (tfRef = tf));
    expect((await b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 })).failures).toEqual([]);
    renewAt = new Date(Date.now() + 3_600_000);
    expect((await b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 })).failures).toEqual([]);
    expect(ephemeralCalls(calls)).toEqual([
      "validateEphemeralResourceConfig", "openEphemeralResource", "renewEphemeralResource", "closeEphemeralResource",
      "validateEphemeralResourceConfig", "openEphemeralResource", "closeEphemeralResource",
    ]);
    expect(closedWith).toEqual(["p1", "p0"]);
  });

  it("a result with unknown values fails after open and still closes; a deferred open is an error naming the resource and closes nothing", async () => {
    let tfRef: TerraformProvider | undefined;
    let mode: "unknown" | "deferred" = "unknown";
    const { b, calls } = await bridgeFor("random", {
      openEphemeralResource: async (typeName, config) => {
        const r = await tfRef!.openEphemeralResource(typeName, config);
        return mode === "unknown" ? { ...r, result: { ...(r.result as Record<string, CtyValue>), result: UNKNOWN } } : { ...r, result: null, deferred: "provider_config_unknown" };
      },
    }, (tf) => (tfRef = tf));
    await expect(b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 })).rejects.toThrow(/opened ephemeral resource random_password with values still unknown/);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource", "closeEphemeralResource"]);
    calls.length = 0;
    mode = "deferred";
    const deferred = b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 });
    await expect(deferred).rejects.toBeInstanceOf(BridgeError);
    await expect(deferred).rejects.toThrow(/deferred opening ephemeral resource random_password \(provider_config_unknown\)/);
    expect(ephemeralCalls(calls)).toEqual(["validateEphemeralResourceConfig", "openEphemeralResource"]);
  });

  it("cancelled before its open reaches the provider (StopProvider, as the engine's Cancel sends it): nothing opens, so nothing is left to close", async () => {
    let tfRef: TerraformProvider | undefined;
    let stopped!: () => void;
    const stop = new Promise<void>((r) => (stopped = r));
    const { b, calls } = await bridgeFor("random", {
      openEphemeralResource: async (typeName, config) => {
        await stop;
        return tfRef!.openEphemeralResource(typeName, config);
      },
    }, (tf) => (tfRef = tf));
    const invoked = b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 });
    await b.cancel();
    stopped();
    // A provider's stop ends only calls in flight; the client sends no new work after it, as Terraform starts none.
    await expect(invoked).rejects.toThrow(/OpenEphemeralResource was not sent: the operation was cancelled/);
    expect(calls).toEqual(["validateEphemeralResourceConfig", "stopProvider", "openEphemeralResource"]);
  });

  it("a close that fails fails an otherwise good Invoke, naming the resource", async () => {
    const { b, logs } = await bridgeFor("random", {
      closeEphemeralResource: async () => [{ severity: "error", summary: "could not revoke", detail: "" }],
    });
    await expect(b.invoke("random:ephemeral/getPassword:getPassword", { length: 8 })).rejects.toThrow(/closing ephemeral resource random_password failed:\nerror: could not revoke/);
    expect(logs).toEqual([]);
  });
});
