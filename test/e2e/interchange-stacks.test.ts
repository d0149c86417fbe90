// Stacks carried both ways between the reference bridge (Pulumi's Go pulumi-terraform-provider) and our plugin, through
// the real Pulumi CLI. For each peer and direction, one YAML project in its own sandbox:
//   1. the FIRST plugin is the sandbox's `terraform-provider` at our version: it answers `pulumi package add` (the sdks/<peer>
//      declaration with its value bytes) and deploys the program (`pulumi up`);
//   2. the SECOND plugin replaces it (same name and version: see test/support/interchange.ts for how the engine is made
//      to run the other binary) and takes the stack over: `preview --expect-no-changes` (a --debug run proves which
//      plugin served it), `refresh --yes` keeps every resource id and every stack output of the first up, another
//      `preview --expect-no-changes`, an update that replaces some resources (and only those), `destroy`, and the real
//      objects are gone (local files, bridgetest's object files).
// bridgetest's resource is `bridgetest:index/object:Object` in the reference's schema and
// `bridgetest:index/objectResource:ObjectResource` in ours, which lists the old token as a schema alias. A YAML
// program names the token of the schema at hand, so the program changes with the plugin:
//   - reference → ours: the schema alias alone must carry the stack over (Pulumi YAML v1.32 adds a type alias for every
//     alias of the resource's schema): no `aliases` option, no replacement;
//   - ours → reference: the reference's schema has no alias to our token, so the program adds
//     `options: {aliases: [{type: bridgetest:index/objectResource:ObjectResource}]}` (what a user would have to do),
//     and an `up` must apply it before anything else: the reference serves neither a refresh nor the delete half of a
//     replacement for objects whose state still has our token (see the extra step below).
import { X509Certificate } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExportedResource } from "../support/e2e.js";
import { interchangeSandbox, otherPlugin, servedBy, usePlugin, type PluginKind } from "../support/interchange.js";
import { removeScratch, scratch, YamlScenario, type PreviewJson } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

/** What a program is written for. */
interface ProgramContext {
  /** A scratch directory for the real objects (local files, bridgetest's state_dir). */
  dir: string;
  /** The plugin that runs the program now (its schema's tokens). */
  plugin: PluginKind;
  /** The plugin that made the stack. */
  first: PluginKind;
  /** 1 for the first up and the take-over, 2 for the replacing update. */
  version: 1 | 2;
}

interface PeerCase {
  peer: string;
  program(c: ProgramContext): string;
  /** Stack configuration set before the first up (a key may start with `--path `). */
  config?(c: ProgramContext): Record<string, string>;
  /** Secret values that must never appear in `pulumi stack export` (without --show-secrets). */
  secrets: string[];
  /** Resources the version 2 program replaces; every other resource must stay as it is. */
  replaced: string[];
  /** Checks of the real objects and outputs after the first up (1), after the replacing update (2), after destroy. */
  check(phase: 1 | 2 | "destroyed", c: ProgramContext, out: Record<string, unknown>): void;
}

const lines = (...l: (string | false)[]): string => l.filter((x): x is string => x !== false).join("\n");

const random: PeerCase = {
  peer: "random",
  program: (c) => {
    const k = c.version === 1 ? "one" : "two";
    return lines(
      "resources:",
      "  pet:",
      "    type: random:index/pet:Pet",
      "    properties:",
      "      length: 3",
      '      separator: "_"',
      "      prefix: itc",
      "      keepers:",
      `        k: ${k}`,
      "        fixed: x",
      "  str:",
      "    type: random:index/string:String",
      "    properties:",
      "      length: 20",
      "      special: false",
      "      minUpper: 3",
      "      minNumeric: 3",
      "      keepers:",
      `        k: ${k}`,
      "  int:",
      "    type: random:index/integer:Integer",
      "    properties:",
      "      min: 1",
      "      max: 1000000",
      "      seed: interchange",
      "      keepers:",
      "        fixed: x",
      "outputs:",
      "  pet: ${pet.id}",
      "  str: ${str.result}",
      "  int: ${int.result}",
      "  intId: ${int.id}",
    );
  },
  secrets: [],
  replaced: ["pet", "str"],
  check: (phase, _c, out) => {
    if (phase === "destroyed") return;
    expect(out["pet"]).toMatch(/^itc_[a-z]+_[a-z]+_[a-z]+$/);
    expect(out["str"]).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((out["str"] as string).replace(/[^A-Z]/g, "").length).toBeGreaterThanOrEqual(3);
    expect(out["int"]).toBeGreaterThanOrEqual(1);
    expect(out["intId"]).toBe(String(out["int"]));
  },
};

const localFile = (c: ProgramContext): string => join(c.dir, "sub", "hello.txt");
const localSecret = (c: ProgramContext): string => join(c.dir, "secret.txt");

const local: PeerCase = {
  peer: "local",
  program: (c) =>
    lines(
      "resources:",
      "  hello:",
      "    type: local:index/file:File",
      "    properties:",
      `      filename: ${localFile(c)}`,
      `      content: "hello from version ${c.version}"`,
      '      filePermission: "0640"',
      '      directoryPermission: "0750"',
      // The reference replaces create-before-delete, and deleting the old local_file removes the new one written at
      // the same path: the program asks for delete-before-replace itself (ours would choose it for `filename`).
      "    options:",
      "      deleteBeforeReplace: true",
      "  secret:",
      "    type: local:index/sensitiveFile:SensitiveFile",
      "    properties:",
      `      filename: ${localSecret(c)}`,
      "      content: s3cret-content",
      "outputs:",
      "  helloId: ${hello.id}",
      "  helloSha256: ${hello.contentSha256}",
      "  secretId: ${secret.id}",
    ),
  secrets: ["s3cret-content"],
  replaced: ["hello"],
  check: (phase, c, out) => {
    if (phase === "destroyed") {
      expect(existsSync(localFile(c)), localFile(c)).toBe(false);
      expect(existsSync(localSecret(c)), localSecret(c)).toBe(false);
      return;
    }
    expect(readFileSync(localFile(c), "utf8")).toBe(`hello from version ${phase}`);
    expect(statSync(localFile(c)).mode & 0o777).toBe(0o640);
    expect(readFileSync(localSecret(c), "utf8")).toBe("s3cret-content");
    expect(out["helloSha256"]).toMatch(/^[0-9a-f]{64}$/);
  },
};

const tls: PeerCase = {
  peer: "tls",
  // A block setting from stack configuration reaches each plugin as a JSON string; the reference stores it so, we
  // store it decoded, and each must read the other's provider state as no change.
  config: () => ({ "--path tls:proxies[0].url": "http://127.0.0.1:1" }),
  program: (c) =>
    lines(
      "resources:",
      "  key:",
      "    type: tls:index/privateKey:PrivateKey",
      "    properties:",
      ...(c.version === 1 ? ["      algorithm: ECDSA", "      ecdsaCurve: P384"] : ["      algorithm: ED25519"]),
      "  other:",
      "    type: tls:index/privateKey:PrivateKey",
      "    properties:",
      "      algorithm: ED25519",
      "  cert:",
      "    type: tls:index/selfSignedCert:SelfSignedCert",
      "    properties:",
      "      privateKeyPem: ${key.privateKeyPem}",
      "      validityPeriodHours: 48",
      "      earlyRenewalHours: 1",
      "      allowedUses: [digital_signature, server_auth]",
      "      dnsNames: [interchange.example]",
      '      ipAddresses: ["127.0.0.1"]',
      // The reference's plural (pulumi/inflector): uri -> uris.
      '      uris: ["spiffe://example.org/interchange"]',
      "      subjects:",
      "        - commonName: interchange.example",
      "          organization: Interchange Org",
      "          organizationalUnit: Stacks",
      "          country: NL",
      "variables:",
      "  pub:",
      "    fn::invoke:",
      "      function: tls:index/getPublicKey:getPublicKey",
      "      arguments:",
      "        privateKeyPem: ${key.privateKeyPem}",
      "outputs:",
      "  publicFromKey: ${key.publicKeyPem}",
      "  publicFromData: ${pub.publicKeyPem}",
      "  cert: ${cert.certPem}",
      "  otherPublic: ${other.publicKeyOpenssh}",
    ),
  secrets: ["PRIVATE KEY"],
  replaced: ["key", "cert"],
  check: (phase, _c, out) => {
    if (phase === "destroyed") return;
    expect(out["publicFromKey"]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(out["publicFromData"]).toBe(out["publicFromKey"]);
    const cert = new X509Certificate(out["cert"] as string);
    expect(cert.subject).toContain("CN=interchange.example");
    expect(cert.subject).toContain("O=Interchange Org");
    expect(cert.subject).toContain("OU=Stacks");
    expect(cert.subject).toContain("C=NL");
    expect(cert.subjectAltName).toContain("DNS:interchange.example");
    expect(cert.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(cert.subjectAltName).toContain("URI:spiffe://example.org/interchange");
    expect(cert.publicKey.asymmetricKeyType).toBe(phase === 1 ? "ec" : "ed25519");
    expect(out["otherPublic"]).toMatch(/^ssh-ed25519 /);
  },
};

const time: PeerCase = {
  peer: "time",
  program: (c) =>
    lines(
      "resources:",
      "  stamp:",
      "    type: time:index/static:Static",
      "    properties:",
      "      triggers:",
      `        t: v${c.version}`,
      "  later:",
      "    type: time:index/offset:Offset",
      "    properties:",
      '      baseRfc3339: "2024-01-01T00:00:00Z"',
      "      offsetDays: 3",
      "      offsetHours: 5",
      "      triggers:",
      `        t: v${c.version}`,
      "  rot:",
      "    type: time:index/rotating:Rotating",
      "    properties:",
      '      rfc3339: "2024-01-01T00:00:00Z"',
      "      rotationYears: 50",
      "outputs:",
      "  stamp: ${stamp.rfc3339}",
      "  stampId: ${stamp.id}",
      "  later: ${later.rfc3339}",
      "  laterDay: ${later.day}",
      "  rotation: ${rot.rotationRfc3339}",
    ),
  secrets: [],
  replaced: ["stamp", "later"],
  check: (phase, _c, out) => {
    if (phase === "destroyed") return;
    expect(out["stamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(out["stampId"]).toBe(out["stamp"]);
    expect(out["later"]).toBe("2024-01-04T05:00:00Z");
    expect(out["laterDay"]).toBe(4);
    expect(out["rotation"]).toBe("2074-01-01T00:00:00Z");
  },
};

const OBJECT_REF = "bridgetest:index/object:Object";
const OBJECT_OURS = "bridgetest:index/objectResource:ObjectResource";

const objectFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];

const bridgetest: PeerCase = {
  peer: "bridgetest",
  config: (c) => ({ "bridgetest:stateDir": join(c.dir, "objects") }),
  program: (c) => {
    const token = c.plugin === "ours" ? OBJECT_OURS : OBJECT_REF;
    // ours → reference: the reference's schema has no alias to our token; the program names it.
    const alias = c.first === "ours" && c.plugin === "reference" ? ["    options:", "      aliases:", `        - type: ${OBJECT_OURS}`] : [];
    return lines(
      "resources:",
      "  obj:",
      `    type: ${token}`,
      "    properties:",
      `      name: itc-obj-${c.version}`,
      "      numberValue: 1.5",
      "      intValue: 7",
      "      boolValue: true",
      "      listValues: [x, y]",
      "      setValues: [b, a]",
      "      mapValue:",
      "        a: b",
      "      objectValue: { a: s, b: 2, c: true }",
      "      singleNested:",
      "        key: nk",
      "        value: nv",
      "      listBlocks:",
      "        - key: k1",
      "          value: v1",
      "      secret: s3cret-value",
      ...alias,
      "  keep:",
      `    type: ${token}`,
      "    properties:",
      "      name: itc-keep",
      "      mapValue:",
      "        z: y",
      ...alias,
      "outputs:",
      "  objId: ${obj.id}",
      "  objRevision: ${obj.revision}",
      "  objOptionalComputed: ${obj.optionalComputed}",
      "  objWithDefault: ${obj.withDefault}",
      "  keepId: ${keep.id}",
    );
  },
  secrets: ["s3cret-value"],
  replaced: ["obj"],
  check: (phase, c, out) => {
    const dir = join(c.dir, "objects");
    if (phase === "destroyed") {
      expect(objectFiles(dir)).toEqual([]);
      return;
    }
    expect(out["objId"]).toMatch(/^obj-[0-9a-f]{12}$/);
    expect(out).toMatchObject({ objRevision: 1, objOptionalComputed: "provider-chose", objWithDefault: "default-value" });
    expect(objectFiles(dir)).toEqual([`${out["keepId"] as string}.json`, `${out["objId"] as string}.json`].sort());
    const stored = JSON.parse(readFileSync(join(dir, `${out["objId"] as string}.json`), "utf8")) as { state: Record<string, unknown> };
    expect(stored.state).toMatchObject({
      name: `itc-obj-${phase}`,
      number_value: 1.5,
      int_value: 7,
      bool_value: true,
      list_value: ["x", "y"],
      map_value: { a: "b" },
      object_value: { a: "s", b: 2, c: true },
      single_nested: { key: "nk", value: "nv" },
      list_block: [{ key: "k1", value: "v1" }],
      secret: "s3cret-value",
    });
  },
};

const CASES = [random, local, tls, time, bridgetest];
const DIRECTIONS: PluginKind[] = ["reference", "ours"];

afterAll(() => removeScratch());

/** Every resource id in state, providers included, keyed by URN with the type left out (bridgetest's type changes). */
function idsByName(resources: ExportedResource[]): Record<string, string | undefined> {
  const ids: Record<string, string | undefined> = {};
  for (const r of resources) {
    if (r.custom !== true) continue;
    const name = r.urn.split("::").pop()!;
    ids[r.type.startsWith("pulumi:providers:") ? `provider ${name}` : name] = r.id;
  }
  return ids;
}

/** The operations a preview plans for the resource named `name` (`preview --json` leaves unchanged resources out). */
function opsOf(preview: PreviewJson, name: string): string[] {
  return (preview.steps ?? []).filter((s) => s.urn.endsWith(`::${name}`)).map((s) => s.op);
}

const changed = (ops: string[]): string[] => ops.filter((op) => op !== "same");

/** The stack export keeps every secret of the case encrypted. */
async function expectSecretsKept(s: YamlScenario, c: PeerCase): Promise<void> {
  const text = await s.exportText();
  for (const secret of c.secrets) expect(text, secret).not.toContain(secret);
}

for (const c of CASES) {
  for (const first of DIRECTIONS) {
    const second = otherPlugin(first);
    describe.sequential(`${c.peer}: a stack made by ${first === "reference" ? "the reference" : "our plugin"}, taken over by ${second === "reference" ? "the reference" : "our plugin"}`, () => {
      let sandbox: PulumiSandbox;
      let s: YamlScenario;
      let dir: string;
      const ctx = (plugin: PluginKind, version: 1 | 2): ProgramContext => ({ dir, plugin, first, version });
      /** Ids and stack outputs right after the first up. */
      let ids: Record<string, string | undefined> = {};
      let outputs: Record<string, unknown> = {};

      beforeAll(async () => {
        // The first plugin is installed before the project is made: YamlScenario's `pulumi package add` runs on it.
        sandbox = await interchangeSandbox(first);
        dir = scratch(`tfbridge-itc-${c.peer}-objects-`);
        s = await YamlScenario.create(sandbox, `itc-${c.peer}-${first}`, [c.peer]);
        for (const [key, value] of Object.entries(c.config?.(ctx(first, 1)) ?? {})) await s.ok(["config", "set", ...key.split(" "), value]);
        s.program(c.program(ctx(first, 1)));
      }, 1_200_000);

      afterAll(async () => {
        // A failed step must not leave objects behind: destroy with whichever plugin is installed now.
        if (s !== undefined && (await s.resourceNames().catch(() => [])).length > 0) await s.pulumi(["destroy", "--yes"]);
        sandbox?.cleanup();
      }, 300_000);

      it(`up with ${first === "reference" ? "the reference" : "our plugin"}`, async () => {
        const debug = await s.ok(["up", "--yes", "--skip-preview", "--debug"]);
        expect(servedBy(debug.stdout + debug.stderr, c.peer)).toBe(first);
        const resources = (await s.deployment()).resources ?? [];
        ids = idsByName(resources);
        outputs = await s.outputs(true);
        const names = Object.keys(ids).filter((n) => !n.startsWith("provider "));
        expect(names.sort()).toEqual(expect.arrayContaining([...c.replaced].sort()));
        for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/\S/);
        // Every resource's id is also in its outputs (both bridges write it there).
        for (const r of resources.filter((x) => x.custom === true && !x.type.startsWith("pulumi:providers:"))) {
          expect(r.outputs?.["id"], r.urn).toBe(r.id);
        }
        c.check(1, ctx(first, 1), outputs);
        await expectSecretsKept(s, c);
      }, 300_000);

      it(`switched to ${second === "reference" ? "the reference" : "our plugin"}: preview --expect-no-changes`, async () => {
        await usePlugin(sandbox, second);
        s.program(c.program(ctx(second, 1)));
        const r = await s.ok(["preview", "--expect-no-changes", "--debug"]);
        // The engine ran the plugin just installed.
        expect(servedBy(r.stdout + r.stderr, c.peer)).toBe(second);
      }, 300_000);

      if (c.peer === "bridgetest" && second === "reference") {
        // The stack's objects carry our token, which the reference does not know: `refresh` (which does not run the
        // program, so no alias applies) fails with "[pf/tfbridge] unknown resource token:
        // bridgetest:index/objectResource:ObjectResource", and so does the delete half of a replacement, which the
        // engine sends with the old state's type. A user first runs an `up` that applies the alias and changes nothing.
        it("an up with the program's alias migrates the objects to the reference's token and changes nothing", async () => {
          const preview = await s.preview();
          for (const name of ["obj", "keep"]) expect(changed(opsOf(preview, name)), name).toEqual([]);
          await s.up();
          const objects = ((await s.deployment()).resources ?? []).filter((r) => r.custom === true && !r.type.startsWith("pulumi:providers:"));
          expect(objects.map((r) => r.type)).toEqual([OBJECT_REF, OBJECT_REF]);
          expect(idsByName((await s.deployment()).resources ?? [])).toEqual(ids);
        }, 300_000);
      }

      it("refresh keeps every resource id and every output of the first up", async () => {
        expect(Object.keys(ids), "ids recorded by the first up").not.toEqual([]);
        await s.ok(["refresh", "--yes"]);
        expect(idsByName((await s.deployment()).resources ?? [])).toEqual(ids);
        expect(await s.outputs(true)).toEqual(outputs);
        await expectSecretsKept(s, c);
      }, 300_000);

      it("after the refresh: preview --expect-no-changes", async () => {
        await s.ok(["preview", "--expect-no-changes"]);
      }, 300_000);

      it(`an update that replaces ${c.replaced.join(" and ")} (and nothing else)`, async () => {
        s.program(c.program(ctx(second, 2)));
        const preview = await s.preview();
        const planned: Record<string, string[]> = {};
        for (const name of Object.keys(ids)) if (!name.startsWith("provider ")) planned[name] = changed(opsOf(preview, name));
        const expected: Record<string, string[]> = {};
        for (const name of Object.keys(planned)) expected[name] = c.replaced.includes(name) ? ["replace"] : [];
        expect(planned).toEqual(expected);

        await s.up();
        const after = idsByName((await s.deployment()).resources ?? []);
        expect(Object.keys(after).sort()).toEqual(Object.keys(ids).sort());
        for (const name of Object.keys(ids)) if (!c.replaced.includes(name)) expect(after[name], name).toBe(ids[name]);
        if (c.peer === "bridgetest") {
          // The objects now carry the token of the program's schema: the alias migrated them.
          const types = ((await s.deployment()).resources ?? []).filter((r) => r.custom === true && !r.type.startsWith("pulumi:providers:")).map((r) => r.type);
          expect(types).toEqual([second === "ours" ? OBJECT_OURS : OBJECT_REF, second === "ours" ? OBJECT_OURS : OBJECT_REF]);
        }
        c.check(2, ctx(second, 2), await s.outputs(true));
        await expectSecretsKept(s, c);
        await s.ok(["preview", "--expect-no-changes"]);
      }, 300_000);

      it("destroy removes the resources and the real objects", async () => {
        await s.ok(["destroy", "--yes"]);
        expect(await s.resourceNames()).toEqual([]);
        c.check("destroyed", ctx(second, 2), {});
      }, 300_000);
    });
  }
}
