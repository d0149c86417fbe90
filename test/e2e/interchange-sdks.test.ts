// Users switching from the reference bridge (Pulumi's Go pulumi-terraform-provider) keep what it generated: the
// Pulumi.yaml `packages:` entries and sdks/<name>/ package declarations `pulumi package add` wrote, and Node.js SDKs
// generated from its schema, which embed its parameter value. One sandbox has the reference installed as the
// `terraform-provider` v0.1.0 plugin while those are made, then ours in its place, which must run them: a YAML program
// with random and tls (a data source through fn::invoke), and a TypeScript program (Automation API, inline program)
// with random, tls, tls's getPublicKey data source and time's rfc3339Parse provider function.
import { X509Certificate } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { yamlProject, type ExportedResource, type YamlProject } from "../support/e2e.js";
import { decodeValue, installReference, nodeSdkFromSchema, packageSchemaText, switchToOurs, type SdkPulumiSection } from "../support/interchange-sdk.js";
import { isSecretEnvelope, removeScratch, scratch, typescriptProgram } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { pulumiSandbox, type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
/** The YAML project whose `packages:` and sdks/ the reference's `pulumi package add` wrote. */
let yaml: YamlProject;
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
  yaml = yamlProject(scratch("tfbridge-interchange-yaml-"), "interchange-yaml", "", sandbox.env);
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

    yaml.setProgram(program);
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

/** The driver: `node bin/index.js <preview|up|state|destroy> <phase>`; prints one JSON line. */
const SOURCE = String.raw`
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, type EngineEvent } from "@pulumi/pulumi/automation";
import * as random from "@pulumi/random";
import * as tls from "@pulumi/tls";
import * as time from "@pulumi/time";

const [op, phase] = process.argv.slice(2);

const program = async (): Promise<Record<string, unknown>> => {
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
  const out: Record<string, unknown> = {
    pet: pet.id,
    pw: pw.result,
    publicFromKey: key.publicKeyPem,
    publicFromData: pub.publicKeyPem,
    cert: cert.certPem,
    parsedYear: parsed.year,
    parsedMonth: parsed.monthName,
  };
  if (phase === "uris") {
    // A property the reference's schema names with pulumi/inflector's plural rules: uri -> uris.
    const withUris = new tls.SelfSignedCert("certUris", {
      privateKeyPem: key.privateKeyPem,
      validityPeriodHours: 24,
      allowedUses: ["digital_signature"],
      subjects: [{ commonName: "uris.example" }],
      uris: ["spiffe://example.org/interchange"],
    });
    out["urisCert"] = withUris.certPem;
    out["uris"] = withUris.uris;
  }
  return out;
};

async function main(): Promise<void> {
  const stack = await LocalWorkspace.createOrSelectStack({ stackName: "dev", projectName: "interchange-ts", program });
  const diagnostics: string[] = [];
  const onEvent = (e: EngineEvent): void => {
    if (e.diagnosticEvent) diagnostics.push(e.diagnosticEvent.message);
  };
  try {
    switch (op) {
      case "preview": {
        const r = await stack.preview({ onEvent, debug: true });
        console.log(JSON.stringify({ changes: r.changeSummary, diagnostics }));
        break;
      }
      case "up": {
        const r = await stack.up({ onEvent });
        console.log(JSON.stringify({ changes: r.summary.resourceChanges, outputs: r.outputs }));
        break;
      }
      case "destroy": {
        const r = await stack.destroy({ onEvent });
        console.log(JSON.stringify({ changes: r.summary.resourceChanges }));
        break;
      }
      case "state": {
        const d = await stack.exportStack();
        console.log(JSON.stringify({ resources: d.deployment.resources ?? [] }));
        break;
      }
    }
  } catch (e) {
    console.log(JSON.stringify({ error: String((e as Error).message ?? e), diagnostics }));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

interface RunOutput {
  changes?: Record<string, number>;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
  diagnostics?: string[];
  resources?: ExportedResource[];
  error?: string;
}

describe("a TypeScript program with Node.js SDKs generated from the reference's schemas, run by our plugin", () => {
  let program: ReturnType<typeof typescriptProgram>;
  let sdks: Record<string, { dir: string; pulumi: SdkPulumiSection }>;
  let env: NodeJS.ProcessEnv;
  const run = async (...args: string[]): Promise<RunOutput> => (await program.run(args, env)) as RunOutput;
  const ok = async (...args: string[]): Promise<RunOutput> => {
    const r = await run(...args);
    if (r.error !== undefined) throw new Error(`${args.join(" ")} failed:\n${r.error}`);
    return r;
  };

  beforeAll(() => {
    sdks = Object.fromEntries(TS_PEERS.map((peer) => [peer, nodeSdkFromSchema(peer, referenceSchemas[peer]!)]));
    program = typescriptProgram(SOURCE, Object.fromEntries(TS_PEERS.map((peer) => [`@pulumi/${peer}`, sdks[peer]!.dir])));
    // The Automation API's own workspace: a project folder of its own, the sandbox's home and backend.
    env = { ...sandbox.env };
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

  it("previews (our plugin parses each SDK's value), creates, reads a data source, calls a function, previews no changes, destroys", async () => {
    const preview = await ok("preview", "main");
    expect(preview.changes).toMatchObject({ create: 5 });
    // Our plugin's own debug line: it parsed the SDK's value bytes into the Terraform provider's path.
    const lines = (preview.diagnostics ?? []).join("\n");
    for (const peer of TS_PEERS) expect(lines).toContain(`parameterized as ${peer} 0.0.0 (local ${peerPath(peer)})`);

    const created = await ok("up", "main");
    expect(created.changes).toMatchObject({ create: 5 });
    const out = created.outputs!;
    expect(out["pet"]).toMatchObject({ secret: false });
    expect(out["pet"]!.value).toMatch(/^[a-z]+_[a-z]+$/);
    expect(out["pw"]).toMatchObject({ secret: true });
    expect(out["pw"]!.value).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(out["publicFromKey"]!.value).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // The data source read a secret argument, so its result is secret; it is the key's public half.
    expect(out["publicFromData"]).toEqual({ value: out["publicFromKey"]!.value, secret: true });
    // time's provider function, read through the reference SDK's typed result.
    expect(out["parsedYear"]).toEqual({ value: 2024, secret: false });
    expect(out["parsedMonth"]).toEqual({ value: "March", secret: false });
    const cert = new X509Certificate(out["cert"]!.value as string);
    expect(cert.subject).toContain(`CN=${out["pet"]!.value as string}`);
    expect(cert.subject).toContain("O=Interchange TS");
    expect(cert.publicKey.asymmetricKeyType).toBe("ed25519");

    // The state: secrets are envelopes; each default provider carries the SDK's (the reference's) value bytes.
    const state = (await ok("state", "main")).resources!;
    const byName = (name: string): ExportedResource | undefined => state.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
    expect(isSecretEnvelope(byName("pw")?.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(byName("key")?.outputs?.["privateKeyPem"])).toBe(true);
    for (const peer of ["random", "tls"] as const) {
      const provider = state.find((r) => r.type === `pulumi:providers:${peer}`);
      expect(provider?.inputs?.["__internal"], peer).toEqual({ name: "terraform-provider", version: VERSION, parameterization: sdks[peer]!.pulumi.parameterization!.value });
    }
    const stored = readFileSync(join(sandbox.backend, ".pulumi", "stacks", "interchange-ts", "dev.json"), "utf8");
    expect(stored).not.toContain(out["pw"]!.value as string);
    expect(stored).not.toContain("PRIVATE KEY");

    expect((await ok("preview", "main")).changes).toEqual({ same: 5 });

    const destroyed = await ok("destroy", "main");
    expect(destroyed.changes).toMatchObject({ delete: 5 });
  }, 300_000);

  it("accepts the reference SDK's property names: SelfSignedCert `uris` (inflector plural of uri)", async () => {
    try {
      const created = await ok("up", "uris");
      expect(created.outputs?.["uris"]?.value).toEqual(["spiffe://example.org/interchange"]);
      const cert = new X509Certificate(created.outputs!["urisCert"]!.value as string);
      expect(cert.subjectAltName).toBe("URI:spiffe://example.org/interchange");
    } finally {
      const destroyed = await run("destroy", "uris");
      expect(destroyed.error).toBeUndefined();
    }
  }, 300_000);
});
