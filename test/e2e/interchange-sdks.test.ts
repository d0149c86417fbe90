// Users switching from the reference bridge (Pulumi's Go pulumi-terraform-provider) keep what it generated: the
// Pulumi.yaml `packages:` entries and sdks/<name>/ package declarations `pulumi package add` wrote, and Node.js SDKs
// generated from its schema, which embed its parameter value. One sandbox has the reference installed as the
// `terraform-provider` plugin (at our version) while those are made, then ours in its place, which must run them: a YAML program
// with random and tls (a data source through fn::invoke), and a TypeScript project run with `pulumi up` through the
// Node.js language host with random, tls, tls's getPublicKey data source and time's rfc3339Parse provider function.
import { X509Certificate } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { type ExportedResource } from "../support/e2e.js";
import { decodeValue, installReference, nodeSdkFromSchema, packageSchemaText, switchToOurs, type SdkPulumiSection } from "../support/interchange-sdk.js";
import { hostsMissing } from "../support/languages.js";
import { isSecretEnvelope, removeScratch, scratch, TypeScriptScenario, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { pulumiSandbox, type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
/** The YAML project whose `packages:` and sdks/ the reference's `pulumi package add` wrote. */
let yaml: YamlScenario;
/** Schemas the reference gave to `pulumi package get-schema`. */
const referenceSchemas: Record<string, string> = {};

const TS_PEERS = ["random", "tls", "time"] as const;
const YAML_PEERS = ["random", "tls"] as const;

/** The reference's value bytes for a local Terraform provider: `{"local":{"path":<absolute path>}}`. */
const localValue = (peer: string): unknown => ({ local: { path: peerPath(peer) } });

beforeAll(async () => {
  sandbox = pulumiSandbox(); // the first run builds the Pulumi CLI (minutes)
  // The reference's turn: it answers `package add` and `get-schema`.
  installReference(sandbox);
  yaml = YamlScenario.inline(scratch("tfbridge-interchange-yaml-"), "interchange-yaml", "", sandbox.env);
  for (const peer of YAML_PEERS) await yaml.ok(["package", "add", "terraform-provider", peerPath(peer)]);
  for (const peer of TS_PEERS) referenceSchemas[peer] = await packageSchemaText(sandbox, peer);
  // Ours from here on.
  switchToOurs(sandbox);
}, 1_200_000);

afterAll(() => {
  sandbox?.cleanup();
  removeScratch();
});

describe("what the reference made", () => {
  it("is the reference's: its schema spells tls's uri list `uris`, its value bytes name the provider by path", () => {
    const tls = JSON.parse(referenceSchemas["tls"]!) as {
      resources: Record<string, { inputProperties: Record<string, unknown> }>;
      parameterization: { baseProvider: { name: string; version: string }; parameter: string };
    };
    expect(Object.keys(tls.resources["tls:index/selfSignedCert:SelfSignedCert"]!.inputProperties)).toContain("uris");
    expect(tls.parameterization.baseProvider).toEqual({ name: "terraform-provider", version: VERSION });
    expect(decodeValue(tls.parameterization.parameter)).toEqual(localValue("tls"));
  });
});

describe("a YAML project whose packages the reference added, run by our plugin", () => {
  const program = [
    "resources:",
    "  pet:",
    "    type: random:index/pet:Pet",
    "    properties:",
    "      length: 3",
    "  pw:",
    "    type: random:index/password:Password",
    "    properties:",
    "      length: 24",
    "  key:",
    "    type: tls:index/privateKey:PrivateKey",
    "    properties:",
    "      algorithm: ECDSA",
    "  cert:",
    "    type: tls:index/selfSignedCert:SelfSignedCert",
    "    properties:",
    "      privateKeyPem: ${key.privateKeyPem}",
    "      validityPeriodHours: 24",
    "      allowedUses: [digital_signature, server_auth]",
    "      dnsNames: [example.com]",
    "      subjects:",
    "        - commonName: ${pet.id}",
    "          organization: Interchange YAML",
    "variables:",
    "  pub:",
    "    fn::invoke:",
    "      function: tls:index/getPublicKey:getPublicKey",
    "      arguments:",
    "        privateKeyPem: ${key.privateKeyPem}",
    "outputs:",
    "  pet: ${pet.id}",
    "  pw: ${pw.result}",
    "  publicFromKey: ${key.publicKeyPem}",
    "  publicFromData: ${pub.publicKeyPem}",
    "  cert: ${cert.certPem}",
  ].join("\n");

  it("has the reference's packages entries and value bytes, and our plugin deploys, previews no changes and destroys", async () => {
    // What the reference's `package add` wrote: the entry with the path as its parameter, and the package declaration
    // (sdks/<name>/<name>-0.0.0.yaml) with its value bytes. Pulumi YAML registers the package from the declaration
    // (ResourceMonitor.RegisterPackage with those bytes, as `-v=9` shows), so the engine parameterizes with the value.
    const pulumiYaml = readFileSync(join(yaml.dir, "Pulumi.yaml"), "utf8");
    const values: Record<string, string> = {};
    for (const peer of YAML_PEERS) {
      expect(pulumiYaml).toContain(`  ${peer}:\n    source: terraform-provider\n    version: ${VERSION}\n    parameters:\n      - ${peerPath(peer)}\n`);
      const files = readdirSync(join(yaml.dir, "sdks", peer));
      expect(files).toEqual([`${peer}-0.0.0.yaml`]);
      const declaration = readFileSync(join(yaml.dir, "sdks", peer, files[0]!), "utf8");
      expect(declaration).toMatch(new RegExp(`^name: terraform-provider\\nversion: ${VERSION.replace(/\./g, "\\.")}\\n`, "m"));
      expect(declaration).toMatch(new RegExp(`parameterization:\\n\\s+name: ${peer}\\n\\s+version: 0\\.0\\.0\\n`));
      const value = /^\s+value: (\S+)$/m.exec(declaration)?.[1];
      expect(value, declaration).toBeDefined();
      expect(decodeValue(value!)).toEqual(localValue(peer));
      values[peer] = value!;
    }

    yaml.program(program);
    await yaml.ok(["stack", "init", "dev"]);
    await yaml.ok(["up", "--yes"]);

    const out = JSON.parse((await yaml.ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(out["pet"]).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    expect(out["pw"]).toBe("[secret]");
    // The data source read a secret argument, so its result is secret as well.
    expect(out["publicFromData"]).toBe("[secret]");
    const plain = JSON.parse((await yaml.ok(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<string, unknown>;
    expect(plain["pw"]).toMatch(/^.{24}$/);
    expect(plain["publicFromKey"]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(plain["publicFromData"]).toBe(plain["publicFromKey"]);
    const cert = new X509Certificate(out["cert"] as string);
    expect(cert.subject).toContain(`CN=${out["pet"] as string}`);
    expect(cert.subject).toContain("O=Interchange YAML");
    expect(cert.subjectAltName).toBe("DNS:example.com");

    // The export: secrets stay secret; each default provider carries the reference's value bytes as its parameterization.
    const exported = (await yaml.ok(["stack", "export"])).stdout;
    expect(exported).not.toContain(plain["pw"] as string);
    expect(exported).not.toContain("PRIVATE KEY");
    const resources = (JSON.parse(exported) as { deployment: { resources: ExportedResource[] } }).deployment.resources;
    const byName = (name: string): ExportedResource | undefined => resources.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
    expect(isSecretEnvelope(byName("pw")?.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(byName("key")?.outputs?.["privateKeyPem"])).toBe(true);
    expect(isSecretEnvelope(byName("cert")?.inputs?.["privateKeyPem"])).toBe(true);
    for (const peer of YAML_PEERS) {
      const provider = resources.find((r) => r.type === `pulumi:providers:${peer}`);
      expect(provider?.inputs?.["__internal"], peer).toEqual({ name: "terraform-provider", version: VERSION, parameterization: values[peer] });
      expect(byName(peer === "random" ? "pet" : "key")?.provider).toMatch(new RegExp(`^urn:pulumi:dev::interchange-yaml::pulumi:providers:${peer}::`));
    }

    // Our plugin parsed those bytes: its own debug line names the Terraform provider's path it launched.
    const preview = await yaml.ok(["preview", "--expect-no-changes", "--debug"]);
    for (const peer of YAML_PEERS) expect(preview.stdout + preview.stderr).toContain(`parameterized as ${peer} 0.0.0 (local ${peerPath(peer)})`);

    await yaml.ok(["destroy", "--yes"]);
    const left = (JSON.parse((await yaml.ok(["stack", "export"])).stdout) as { deployment: { resources?: ExportedResource[] } }).deployment.resources ?? [];
    expect(left.filter((r) => r.custom === true && !r.type.startsWith("pulumi:providers:"))).toEqual([]);
  }, 300_000);
});

/** index.ts; the stack's `phase` (main, uris) says whether it also declares a certificate with `uris`. */
const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import * as tls from "@pulumi/tls";
import * as time from "@pulumi/time";

const phase = new pulumi.Config().require("phase");

const pet = new random.Pet("pet", { length: 2, separator: "_" });
const pw = new random.Password("pw", { length: 20, special: false });
const key = new tls.PrivateKey("key", { algorithm: "ED25519" });
const cert = new tls.SelfSignedCert("cert", {
    privateKeyPem: key.privateKeyPem,
    validityPeriodHours: 24,
    allowedUses: ["digital_signature", "server_auth"],
    dnsNames: ["example.com"],
    subjects: [{ commonName: pet.id, organization: "Interchange TS" }],
});
const pub = tls.getPublicKeyOutput({ privateKeyPem: key.privateKeyPem });
const parsed = time.rfc3339ParseOutput("2024-03-04T05:06:07Z");

// A property the reference's schema names with pulumi/inflector's plural rules: uri -> uris.
const withUris = phase === "uris"
    ? new tls.SelfSignedCert("certUris", {
          privateKeyPem: key.privateKeyPem,
          validityPeriodHours: 24,
          allowedUses: ["digital_signature"],
          subjects: [{ commonName: "uris.example" }],
          uris: ["spiffe://example.org/interchange"],
      })
    : undefined;

export const petName = pet.id;
export const password = pw.result;
export const publicFromKey = key.publicKeyPem;
export const publicFromData = pub.publicKeyPem;
export const certPem = cert.certPem;
export const parsedYear = parsed.year;
export const parsedMonth = parsed.monthName;
export const urisCert = withUris?.certPem;
export const uris = withUris?.uris;
`;

describe.skipIf(hostsMissing())("a TypeScript project with Node.js SDKs generated from the reference's schemas, run by our plugin", () => {
  let project: TypeScriptScenario;
  let sdks: Record<string, { dir: string; pulumi: SdkPulumiSection }>;

  beforeAll(async () => {
    sdks = {};
    for (const peer of TS_PEERS) sdks[peer] = await nodeSdkFromSchema(peer, referenceSchemas[peer]!);
    project = await TypeScriptScenario.create(sandbox, "interchange-ts", PROGRAM, Object.fromEntries(TS_PEERS.map((peer) => [`@pulumi/${peer}`, sdks[peer]!.dir])));
    await project.config("phase", "main");
  }, 600_000);

  it("embeds the reference's parameter value in each SDK's package.json", () => {
    for (const peer of TS_PEERS) {
      const { pulumi } = sdks[peer]!;
      expect(pulumi).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION });
      expect(pulumi.parameterization?.name).toBe(peer);
      expect(pulumi.parameterization?.version).toBe("0.0.0");
      // The bytes are the reference's JSON form, exactly as its schema gave them.
      expect(decodeValue(pulumi.parameterization!.value)).toEqual(localValue(peer));
      expect(pulumi.parameterization!.value).toBe((JSON.parse(referenceSchemas[peer]!) as { parameterization: { parameter: string } }).parameterization.parameter);
      // The compiled package the program loads reads the same package.json.
      expect((JSON.parse(readFileSync(join(sdks[peer]!.dir, "package.json"), "utf8")) as { pulumi: SdkPulumiSection }).pulumi).toEqual(pulumi);
    }
  });

  it("index.ts type-checks against the reference's SDKs (tsc --noEmit, strict)", async () => {
    await project.typeCheck();
  }, 120_000);

  it("`pulumi preview` (our plugin parses each SDK's value), `up` (a data source, a function), no changes, `destroy`", async () => {
    expect((await project.preview()).changeSummary).toMatchObject({ create: 5 });
    // Our plugin's own debug line (which `preview --json` leaves out): it parsed the SDK's value bytes into the
    // Terraform provider's path.
    const debug = await project.ok(["preview", "--debug"]);
    for (const peer of TS_PEERS) expect(debug.stdout + debug.stderr).toContain(`parameterized as ${peer} 0.0.0 (local ${peerPath(peer)})`);

    expect(await project.changes("up")).toMatchObject({ create: 5 });
    const out = await project.outputs();
    const plain = await project.outputs(true);
    expect(out["petName"]).toMatch(/^[a-z]+_[a-z]+$/);
    expect(out["password"]).toBe("[secret]");
    expect(plain["password"]).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(plain["publicFromKey"]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // The data source read a secret argument, so its result is secret; it is the key's public half.
    expect(out["publicFromData"]).toBe("[secret]");
    expect(plain["publicFromData"]).toBe(plain["publicFromKey"]);
    // time's provider function, read through the reference SDK's typed result.
    expect(out["parsedYear"]).toBe(2024);
    expect(out["parsedMonth"]).toBe("March");
    expect(out).not.toHaveProperty("uris");
    const cert = new X509Certificate(plain["certPem"] as string);
    expect(cert.subject).toContain(`CN=${out["petName"] as string}`);
    expect(cert.subject).toContain("O=Interchange TS");
    expect(cert.publicKey.asymmetricKeyType).toBe("ed25519");

    // The state: secrets are envelopes; each default provider carries the SDK's (the reference's) value bytes.
    const state = (await project.deployment()).resources ?? [];
    const byName = (name: string): ExportedResource | undefined => state.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
    expect(isSecretEnvelope(byName("pw")?.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(byName("key")?.outputs?.["privateKeyPem"])).toBe(true);
    for (const peer of ["random", "tls"] as const) {
      const provider = state.find((r) => r.type === `pulumi:providers:${peer}`);
      expect(provider?.inputs?.["__internal"], peer).toEqual({ name: "terraform-provider", version: VERSION, parameterization: sdks[peer]!.pulumi.parameterization!.value });
    }
    const stored = readFileSync(join(sandbox.backend, ".pulumi", "stacks", "interchange-ts", "dev.json"), "utf8");
    expect(stored).not.toContain(plain["password"] as string);
    expect(stored).not.toContain("PRIVATE KEY");

    expect((await project.preview()).changeSummary).toEqual({ same: 5 });

    expect(await project.changes("destroy")).toMatchObject({ delete: 5 });
    expect(await project.resourceNames()).toEqual([]);
  }, 300_000);

  it("accepts the reference SDK's property names: SelfSignedCert `uris` (inflector plural of uri)", async () => {
    await project.config("phase", "uris");
    let destroyed: Record<string, number> | undefined;
    try {
      await project.changes("up");
      const plain = await project.outputs(true);
      expect(plain["uris"]).toEqual(["spiffe://example.org/interchange"]);
      const cert = new X509Certificate(plain["urisCert"] as string);
      expect(cert.subjectAltName).toBe("URI:spiffe://example.org/interchange");
    } finally {
      destroyed = await project.changes("destroy");
    }
    expect(destroyed).toMatchObject({ delete: 6 });
  }, 300_000);
});
