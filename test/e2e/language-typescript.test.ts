// A TypeScript project through the real Node.js language host, laid out as `pulumi new typescript` lays it out:
// `pulumi package add terraform-provider <peer>` (random, tls, time, local, and random again from the fake loopback
// registry as `regrandom`) makes the CLI ask pulumi-language-nodejs to generate sdks/<name> and link it as a `file:`
// dependency; then `pulumi up` of index.ts (no Automation API), a no-change preview, refresh (ids kept), a replace
// through a `keepers` value from stack config, `pulumi import`, destroy (the file terraform-provider-local wrote is
// gone). Bad input from TypeScript is a check failure in camelCase; without the Node.js host, `package add` says so.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPlugin, type ExportedResource } from "../support/e2e.js";
import { hostsMissing, languageSandbox, typescriptProject } from "../support/languages.js";
import { OUR_STACK, isSecretEnvelope, removeScratch, scratch, type PreviewJson } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { PULUMI_NODE_SDK } from "../support/pulumi-tools.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

const PEERS = ["random", "tls", "time", "local"] as const;
const timingReport = new Timings("language-typescript");
const { timed } = timingReport;


/** The program: every kind of thing a TypeScript user writes against these SDKs. */
const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as local from "@pulumi/local";
import * as random from "@pulumi/random";
import * as regrandom from "@pulumi/regrandom";
import * as time from "@pulumi/time";
import * as tls from "@pulumi/tls";

const config = new pulumi.Config();
const filePath = config.require("filePath");
const keeper = config.require("keeper");
const suffixLength = config.requireNumber("suffixLength");

const key = new tls.PrivateKey("key", { algorithm: "ECDSA", ecdsaCurve: "P256" });
const cert = new tls.SelfSignedCert("cert", {
    privateKeyPem: key.privateKeyPem,
    validityPeriodHours: 24,
    allowedUses: ["digital_signature", "server_auth"],
    dnsNames: ["example.test"],
    subjects: [{ commonName: "example.test", organization: "ACME Test", streetAddresses: ["1 Main St"] }],
});
const csr = new tls.CertRequest("csr", {
    privateKeyPem: key.privateKeyPem,
    subjects: [{ commonName: "csr.example.test", country: "NZ" }],
});

// A data source, both forms.
const viaOutput = tls.getPublicKeyOutput({ privateKeyPem: key.privateKeyPem });
const viaPromise = key.privateKeyPem.apply((pem) => tls.getPublicKey({ privateKeyPem: pem }));

// A provider function.
const parsed = time.rfc3339Parse("2024-02-29T12:34:56Z");

const password = new random.Password("password", { length: 20, minUpper: 2, special: false, keepers: { keeper } });
const explicit = new random.Provider("explicit");
const pet = new random.Pet("pet", { length: 2, keepers: { keeper } }, { provider: explicit });
const suffix = new random.String("suffix", { length: suffixLength, special: false, upper: false }, { ignoreChanges: ["length"] });
const regPet = new regrandom.Pet("regpet", { length: 2, separator: "_" });

const file = new local.File("file", {
    filename: filePath,
    content: pulumi.interpolate` + "`pet=${pet.id}\\nsuffix=${suffix.result}\\nregpet=${regPet.id}\\n${cert.certPem}`" + String.raw`,
}, { dependsOn: [cert, csr], customTimeouts: { create: "2m", delete: "2m" } });

export const passwordResult = password.result;
export const petName = pet.id;
export const regPetName = regPet.id;
export const suffixResult = suffix.result;
export const certSubjects = cert.subjects;
export const csrPem = csr.certRequestPem;
export const publicKeysAgree = pulumi.unsecret(
    pulumi.all([key.publicKeyOpenssh, viaOutput.publicKeyOpenssh, viaPromise.publicKeyOpenssh]).apply(([a, b, c]) => a === b && b === c && a.startsWith("ecdsa-")),
);
export const parsedYear = parsed.then((r) => r.year);
export const parsedWeekday = parsed.then((r) => r.weekdayName);
export const parsedUnix = time.rfc3339ParseOutput("2024-02-29T12:34:56Z").unix;
export const filename = file.filename;
`;

/**
 * Bad input from TypeScript, past the SDK's types: wrong types cast through `any`. (An unknown property cast through
 * `any` never leaves the SDK: its constructor copies only the properties it knows; see RAW_PROGRAM.)
 */
const BAD_PROGRAM = `import * as random from "@pulumi/random";

const bad = new random.Password("bad", { length: "long" as any, minUpper: "lots" as any, notAProperty: true } as any);
export const id = bad.id;
`;

/** An unknown property reaches the provider only past the SDK: a raw CustomResource with the SDK's type token. */
const RAW_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

class RawPassword extends pulumi.CustomResource {
    constructor(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
        super("random:index/password:Password", name, props, opts);
    }
}
const provider = new random.Provider("rawprov");
const raw = new RawPassword("raw", { length: 12, minUpper: "lots" as any, notAProperty: true }, { provider });
export const id = raw.id;
`;

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let project: string;
let env: NodeJS.ProcessEnv;
let outFile: string;

const pulumi = (args: string[], timeoutMs = 600_000): Promise<RunResult> => runPulumi(args, { cwd: project, env, timeoutMs });
const ok = async (args: string[], timeoutMs?: number): Promise<RunResult> => expectSuccess(await pulumi(args, timeoutMs), `pulumi ${args.join(" ")} in ${project}`);

interface Exported {
  text: string;
  resources: ExportedResource[];
}
async function exported(): Promise<Exported> {
  const text = (await ok(["stack", "export"])).stdout;
  return { text, resources: (JSON.parse(text) as { deployment: { resources?: ExportedResource[] } }).deployment.resources ?? [] };
}
const named = (resources: ExportedResource[], name: string): ExportedResource | undefined =>
  resources.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
/** name → id of every custom resource, providers included. */
const ids = (resources: ExportedResource[]): Record<string, string | undefined> =>
  Object.fromEntries(resources.filter((r) => r.custom === true).map((r) => [r.urn.split("::").pop()!, r.id]));
async function outputs(showSecrets = false): Promise<Record<string, unknown>> {
  return JSON.parse((await ok(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])])).stdout) as Record<string, unknown>;
}

describe.skipIf(hostsMissing())("a TypeScript project through the real Node.js language host", () => {
  beforeAll(async () => {
    sandbox = languageSandbox(); // packages and installs the plugin; the first run on a machine builds the CLI (minutes)
    reg = await FakeRegistry.start({
      providers: { "hashicorp/random": [{ version: "3.6.0" }, { version: "3.7.2" }, { version: "4.0.0" }] },
      binaries: { random: peerPath("random") },
      token: "ts-token",
    });
    const work = scratch("tfbridge-lang-ts-");
    // The token comes from a `credentials` block of the Terraform CLI configuration (language-go.test.ts gives it as a
    // TF_TOKEN_<host> variable instead).
    const rc = join(work, "e2e.tfrc");
    writeFileSync(rc, `credentials "${reg.host}" {\n  token = "ts-token"\n}\n`);
    env = { ...sandbox.env };
    for (const k of Object.keys(env)) if (k.startsWith("TF_TOKEN_")) delete env[k];
    // The engine passes its environment to the plugin: the test CA, the CLI configuration, an isolated cache.
    Object.assign(env, {
      NODE_EXTRA_CA_CERTS: reg.caFile,
      TF_CLI_CONFIG_FILE: rc,
      PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
    });
    project = join(work, "project");
    execFileSync("mkdir", ["-p", project]);
    outFile = join(work, "written-by-local.txt");
    typescriptProject(project, "tfbridge-lang-ts", PROGRAM);
    await timed("npm install (project)", async () => {
      await execAsync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project, env });
    });
  }, 1_200_000);

  afterAll(async () => {
    if (project !== undefined) await pulumi(["destroy", "--yes"]).catch(() => undefined);
    await reg?.stop();
    sandbox?.cleanup();
    removeScratch();
    timingReport.report();
  });

  it("`pulumi package add terraform-provider <path>` for random, tls, time and local: the Node.js host generates sdks/<name> and links it", async () => {
    for (const peer of PEERS) {
      const r = await timed(`package add ${peer}`, () => ok(["package", "add", "terraform-provider", peerPath(peer)]));
      expect(r.stdout + r.stderr).toMatch(new RegExp(`Added package ${peer}`));
      expect(r.stdout).toContain(`import * as ${peer} from "@pulumi/${peer}"`);
      expect(r.stdout + r.stderr).not.toMatch(OUR_STACK);
      const sdk = JSON.parse(readFileSync(join(project, "sdks", peer, "package.json"), "utf8")) as { name: string; pulumi: Record<string, any> };
      expect(sdk.name).toBe(`@pulumi/${peer}`);
      expect(sdk.pulumi).toMatchObject({ resource: true, name: "terraform-provider", parameterization: { name: peer, version: "0.0.0" } });
      expect(JSON.parse(Buffer.from(sdk.pulumi["parameterization"]["value"], "base64").toString())).toEqual({ local: { path: peerPath(peer) } });
      // Compiled and linked: the program resolves @pulumi/<peer> to the SDK folder.
      expect(existsSync(join(project, "sdks", peer, "bin", "index.js"))).toBe(true);
      expect(existsSync(join(project, "node_modules", "@pulumi", peer, "bin", "index.d.ts"))).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    for (const peer of PEERS) expect(pkg.dependencies[`@pulumi/${peer}`]).toBe(`file:sdks/${peer}`);
    expect(pkg.dependencies["@pulumi/pulumi"]).toBe(PULUMI_NODE_SDK);
  }, 600_000);

  it("`pulumi package add terraform-provider -- 127.0.0.1:<port>/hashicorp/random \"~> 3.0\" --package-name regrandom` from the fake registry", async () => {
    const address = `${reg.host}/hashicorp/random`;
    const r = await timed("package add regrandom (registry)", () => ok(["package", "add", "terraform-provider", "--", address, "~> 3.0", "--package-name", "regrandom"]));
    expect(r.stdout + r.stderr).toMatch(/Added package regrandom/);
    const sdk = JSON.parse(readFileSync(join(project, "sdks", "regrandom", "package.json"), "utf8")) as { name: string; pulumi: Record<string, any> };
    expect(sdk.name).toBe("@pulumi/regrandom");
    expect(sdk.pulumi["parameterization"]).toMatchObject({ name: "regrandom", version: "3.7.2" });
    expect(JSON.parse(Buffer.from(sdk.pulumi["parameterization"]["value"], "base64").toString())).toEqual({
      // The package's lock hash is pinned in the value (docs/using.md "Lock hashes").
      remote: { url: address, version: "3.7.2", hashes: [expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/), expect.stringMatching(/^zh:[0-9a-f]{64}$/)] },
      providerName: "regrandom",
    });
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["@pulumi/regrandom"]).toBe("file:sdks/regrandom");
    expect(reg.count(/^\/files\/hashicorp\/random\/3\.7\.2\/.*\.zip$/)).toBe(1);
  }, 600_000);

  it("index.ts type-checks against the generated SDKs (tsc --noEmit, strict)", () => {
    execFileSync(join(project, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", project], { cwd: project, stdio: ["ignore", "inherit", "inherit"] });
  }, 120_000);

  let first: Exported;

  it("`pulumi up` of index.ts: tls key, cert and CSR with subjects, a secret password, both data source forms, a function, an explicit provider, a real file", async () => {
    await ok(["stack", "init", "dev"]);
    await ok(["config", "set", "filePath", outFile]);
    await ok(["config", "set", "keeper", "one"]);
    await ok(["config", "set", "suffixLength", "8"]);
    const up = await timed("up", () => ok(["up", "--yes"]));
    expect(up.stdout + up.stderr).not.toMatch(OUR_STACK);

    const out = await outputs();
    expect(out["passwordResult"]).toBe("[secret]");
    expect(out["petName"]).toMatch(/^[a-z]+-[a-z]+$/);
    expect(out["regPetName"]).toMatch(/^[a-z]+_[a-z]+$/);
    expect(out["suffixResult"]).toMatch(/^[a-z0-9]{8}$/);
    expect(out["publicKeysAgree"]).toBe(true);
    expect(out["parsedYear"]).toBe(2024);
    expect(out["parsedWeekday"]).toBe("Thursday");
    expect(out["parsedUnix"]).toBe(1709210096);
    expect(out["certSubjects"]).toEqual([expect.objectContaining({ commonName: "example.test", organization: "ACME Test", streetAddresses: ["1 Main St"] })]);
    expect(out["csrPem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(out["filename"]).toBe(outFile);

    const content = readFileSync(outFile, "utf8");
    expect(content).toContain(`pet=${String(out["petName"])}\n`);
    expect(content).toContain(`regpet=${String(out["regPetName"])}\n`);
    expect(content).toContain("-----BEGIN CERTIFICATE-----");

    const secret = (await outputs(true))["passwordResult"];
    expect(secret).toMatch(/^[A-Za-z0-9]{20}$/);
    first = await exported();
    expect(first.text).not.toContain(String(secret));
    const password = named(first.resources, "password")!;
    expect(password.type).toBe("random:index/password:Password");
    expect(isSecretEnvelope(password.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(password.outputs?.["bcryptHash"])).toBe(true);
    // The explicit provider instance, and the default providers for the rest.
    const explicit = named(first.resources, "explicit")!;
    expect(explicit.type).toBe("pulumi:providers:random");
    expect(named(first.resources, "pet")!.provider).toBe(`${explicit.urn}::${explicit.id}`);
    expect(named(first.resources, "password")!.provider).toMatch(/::pulumi:providers:random::default/);
    expect(named(first.resources, "regpet")!.type).toBe("regrandom:index/pet:Pet");
    expect((named(first.resources, "file") as ExportedResource & { dependencies?: string[] }).dependencies).toEqual(
      expect.arrayContaining([named(first.resources, "cert")!.urn, named(first.resources, "csr")!.urn]),
    );
    expect(isSecretEnvelope(named(first.resources, "key")!.outputs?.["privateKeyPem"])).toBe(true);
  }, 600_000);

  it("`pulumi preview --expect-no-changes`, then `pulumi refresh` keeps every id and still nothing to change", async () => {
    await timed("preview (no changes)", () => ok(["preview", "--expect-no-changes"]));
    await timed("refresh", () => ok(["refresh", "--yes"]));
    const after = await exported();
    expect(ids(after.resources)).toEqual(ids(first.resources));
    expect(after.text).not.toContain(String((await outputs(true))["passwordResult"]));
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("a new `keepers` value from stack config replaces the password and the pet; ignoreChanges keeps the suffix", async () => {
    const before = await outputs(true);
    await ok(["config", "set", "keeper", "two"]);
    await ok(["config", "set", "suffixLength", "12"]);
    const preview = JSON.parse((await ok(["preview", "--json"])).stdout) as PreviewJson;
    const op = (name: string): string => preview.steps?.find((s) => s.urn.endsWith(`::${name}`))?.op ?? "same";
    expect(op("password")).toBe("replace");
    expect(op("pet")).toBe("replace");
    expect(op("suffix")).toBe("same");
    expect(op("key")).toBe("same");
    const step = preview.steps?.find((s) => s.urn.endsWith("::password"));
    expect(step?.replaceReasons).toEqual(expect.arrayContaining([expect.stringMatching(/^keepers/)]));
    await timed("up (replace)", () => ok(["up", "--yes"]));
    const after = await outputs(true);
    expect(after["passwordResult"]).not.toBe(before["passwordResult"]);
    expect(after["petName"]).not.toBe(before["petName"]);
    expect(after["suffixResult"]).toBe(before["suffixResult"]);
    expect(readFileSync(outFile, "utf8")).toContain(`pet=${String(after["petName"])}\n`);
    const state = await exported();
    expect(named(state.resources, "suffix")!.inputs?.["length"]).toBe(8);
    expect(named(state.resources, "key")!.id).toBe(named(first.resources, "key")!.id);
  }, 600_000);

  it("`pulumi import random:index/integer:Integer imp 15,1,50` adopts an integer into the stack", async () => {
    const r = await timed("import", () => ok(["import", "random:index/integer:Integer", "imp", "15,1,50", "--yes", "--protect=false"]));
    expect(r.stdout + r.stderr).not.toMatch(OUR_STACK);
    const imp = named((await exported()).resources, "imp");
    expect(imp?.type).toBe("random:index/integer:Integer");
    expect(imp?.id).toBe("15"); // terraform-provider-random keeps the result as the id
    expect(imp?.outputs).toMatchObject({ result: 15, min: 1, max: 50 });
    // The code `pulumi import` generates for the project's language, from the parameterized package.
    expect(r.stdout).toMatch(/new random\.Integer\("imp"/);
  }, 600_000);

  it("`pulumi destroy` removes everything, and terraform-provider-local deletes the file", async () => {
    expect(existsSync(outFile)).toBe(true);
    await timed("destroy", () => ok(["destroy", "--yes"]));
    expect(existsSync(outFile)).toBe(false);
    expect((await exported()).resources.filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);

  it("a wrong type and an unknown property, cast through `any`, are check failures naming the properties in camelCase", async () => {
    const good = readFileSync(join(project, "index.ts"), "utf8");
    const preview = async (program: string): Promise<string> => {
      writeFileSync(join(project, "index.ts"), program);
      const r = await pulumi(["preview"]);
      const text = r.stdout + r.stderr;
      expect(r.code, text).not.toBe(0);
      expect(text).not.toMatch(OUR_STACK);
      expect(text).not.toMatch(/min_upper|not_a_property/);
      console.log(`[language-typescript] check failures:\n${text.split("\n").filter((l) => /^\s+error: /.test(l)).join("\n")}`);
      return text;
    };
    try {
      const typed = await timed("preview (bad input, SDK)", () => preview(BAD_PROGRAM));
      expect(typed).toMatch(/random:index:Password \(bad\)/);
      expect(typed).toMatch(/property length value \{long\} has a problem: expected a number, got a string/);
      expect(typed).toMatch(/property minUpper value \{lots\} has a problem: expected a number, got a string/);
      const raw = await timed("preview (bad input, raw resource)", () => preview(RAW_PROGRAM));
      expect(raw).toMatch(/random:index:Password \(raw\)/);
      expect(raw).toMatch(/notAProperty/);
      expect(raw).toMatch(/property minUpper value \{lots\} has a problem/);
    } finally {
      writeFileSync(join(project, "index.ts"), good);
    }
  }, 600_000);

  it("without pulumi-language-nodejs on PATH, `pulumi package add` fails naming it", async () => {
    const bare = pulumiSandbox();
    try {
      installPlugin(bare);
      const dir = scratch("tfbridge-lang-ts-nohost-");
      for (const f of ["Pulumi.yaml", "package.json", "tsconfig.json"]) cpSync(join(project, f), join(dir, f));
      writeFileSync(join(dir, "index.ts"), "export const nothing = 1;\n");
      // The fresh project as `pulumi new` left it: only @pulumi/pulumi.
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "nohost", main: "index.ts", dependencies: { "@pulumi/pulumi": PULUMI_NODE_SDK } }));
      const r = await timed("package add without the host", () => runPulumi(["package", "add", "terraform-provider", peerPath("random")], { cwd: dir, env: bare.env }));
      const text = r.stdout + r.stderr;
      console.log(`[language-typescript] package add without pulumi-language-nodejs exited ${r.code}:\n${text}`);
      expect(r.code, text).not.toBe(0);
      expect(text).toMatch(/pulumi-language-nodejs/);
      expect(text).not.toMatch(OUR_STACK);
      expect(existsSync(join(dir, "sdks", "random", "package.json"))).toBe(false);
    } finally {
      bare.cleanup();
    }
  }, 600_000);
});
