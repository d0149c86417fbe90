// Ephemeral resources and write-only inputs from a TypeScript program run by the real Node.js language host with
// generated SDKs: random's and tls's ephemeral functions in both forms, an ephemeral key fed into tls's write-only
// privateKeyPemWo and a value into bridgetest's writeOnlySecret; neither is in the stack's export or any backend file,
// every opened ephemeral resource is closed, and only the version companions drive a change.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { filesContaining, nodeSdk, removeScratch, scratch, TypeScriptScenario } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let project: TypeScriptScenario;

/** Written into the stack config only; any copy of it in the backend other than the encrypted config is a leak. */
const WRITE_ONLY = `wo-ts-${process.pid}-never-stored`;

const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import * as tls from "@pulumi/tls";
import * as bt from "@pulumi/bridgetest";

const config = new pulumi.Config();
const version = config.requireNumber("woVersion");
const pw = random.ephemeral.getPasswordOutput({ length: 24, special: false });
const key = tls.ephemeral.getPrivateKeyOutput({ algorithm: "ECDSA" });
const csr = new tls.CertRequest("csr", {
    privateKeyPemWo: key.privateKeyPem,
    privateKeyPemWoVersion: version,
    subjects: [{ commonName: "wo.example.test" }],
});
const prov = new bt.Provider("prov", { stateDir: config.require("stateDir") });
const obj = new bt.ObjectResource("obj", {
    name: "wo-ts",
    writeOnlySecret: config.requireSecret("woSecret"),
    writeOnlyVersion: version,
}, { provider: prov });

export const password = pw.result;
export const plainLength = random.ephemeral.getPassword({ length: 24, special: false }).then((r) => r.result.length);
export const csrPem = csr.certRequestPem;
export const seen = obj.writeOnlySeen;
export const revision = obj.revision;
`;

interface Line { method: string; request?: { typeName?: string } }

describe.skipIf(hostsMissing())("ephemeral resources and write-only inputs from a TypeScript project (generated SDKs, Node.js language host)", () => {
  beforeAll(async () => {
    sandbox = languageSandbox();
    const sdks = Object.fromEntries(
      await Promise.all(["random", "tls", "bridgetest"].map(async (peer) => [`@pulumi/${peer}`, await nodeSdk(sandbox, peer)] as const)),
    );
    project = await TypeScriptScenario.create(sandbox, "eph-wo-ts", PROGRAM, sdks);
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  it("index.ts type-checks against the generated SDKs (ephemeral functions under `ephemeral`, write-only inputs)", async () => {
    await project.typeCheck();
  }, 120_000);

  it("up: results secret, write-only values stored nowhere, every open closed; only the version moves them", async () => {
    const stateDir = scratch("tfbridge-eph-wo-ts-state-");
    const recording = join(scratch("tfbridge-eph-wo-ts-rec-"), "calls.jsonl");
    project.env["PULUMI_TF_DEBUG_GRPC"] = recording;
    await project.config("stateDir", stateDir);
    await project.config("woVersion", "1");
    await project.ok(["config", "set", "--secret", "woSecret", WRITE_ONLY]);
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(await project.resourceNames()).toEqual(["csr", "obj"]);

    const plain = await project.outputs(true);
    expect(plain["password"]).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(plain["plainLength"]).toBe(24);
    expect(plain["csrPem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(plain).toMatchObject({ seen: true, revision: 1 });
    expect((await project.outputs())["password"], "the output form keeps the ephemeral result secret").toBe("[secret]");

    const stored = async (): Promise<void> => {
      const text = (await project.ok(["stack", "export", "--show-secrets"])).stdout;
      expect(text).not.toContain(WRITE_ONLY);
      expect(text).not.toContain("PRIVATE KEY");
      const deployment = JSON.parse(text) as { deployment: { resources?: { urn: string; inputs?: Record<string, unknown> }[] } };
      for (const [name, property] of [["obj", "writeOnlySecret"], ["csr", "privateKeyPemWo"]] as const) {
        const r = deployment.deployment.resources?.find((x) => x.urn.endsWith(`::${name}`));
        expect(Object.keys(r?.inputs ?? {}), name).not.toContain(property);
      }
      // The stack config holds the secret encrypted (Pulumi.dev.yaml in the project, not in the backend).
      expect(filesContaining(sandbox.backend, WRITE_ONLY)).toEqual([]);
      expect(filesContaining(sandbox.backend, "PRIVATE KEY")).toEqual([]);
      expect(filesContaining(stateDir, WRITE_ONLY)).toEqual([]);
    };
    await stored();

    // Every ephemeral resource opened (two passwords, one key per program run) was closed, in the same plugin process.
    const lines = readFileSync(recording, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    const opens = lines.filter((l) => l.method === "OpenEphemeralResource").length;
    expect(opens).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.method === "CloseEphemeralResource").length).toBe(opens);
    expect(readFileSync(recording, "utf8")).not.toContain(WRITE_ONLY);

    await project.ok(["preview", "--expect-no-changes"]);
    await project.config("woVersion", "2");
    const bumped = await project.preview();
    expect(TypeScriptScenario.step(bumped, "obj")?.op).toBe("update");
    expect(TypeScriptScenario.step(bumped, "csr")?.op).toBe("replace");
    await project.ok(["up", "--yes", "--skip-preview"]);
    const second = await project.outputs(true);
    expect(second).toMatchObject({ seen: true, revision: 2 });
    expect(second["csrPem"]).not.toBe(plain["csrPem"]);
    await stored();

    await project.ok(["destroy", "--yes"]);
  }, 600_000);
});
