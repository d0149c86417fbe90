// Resource lifecycle through the real Pulumi CLI with YAML programs, for terraform-provider-time and -tls (protocol 5):
// create, update in place, replace (and a dependent replaced with it), import, provider functions and data sources,
// secrets, destroy; with assertions on the preview's detailed diff, the outputs and the state.
import { X509Certificate, createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { importedResources, isSecretEnvelope, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

describe("time (YAML)", () => {
  const program = (o: { trigger: string; days: number; extra?: string }): string =>
    [
      "variables:",
      "  parsed:",
      "    fn::invoke:",
      "      function: time:index/rfc3339Parse:rfc3339Parse",
      "      arguments:",
      '        timestamp: "2024-03-04T05:06:07Z"',
      "resources:",
      "  stamp:",
      "    type: time:index/static:Static",
      "    properties:",
      "      triggers:",
      `        t: ${o.trigger}`,
      "  later:",
      "    type: time:index/offset:Offset",
      "    properties:",
      '      baseRfc3339: "2024-01-01T00:00:00Z"',
      `      offsetDays: ${o.days}`,
      o.extra ?? "",
      "outputs:",
      "  later: ${later.rfc3339}",
      "  laterDay: ${later.day}",
      "  stampYear: ${stamp.year}",
      "  parsed: ${parsed}",
      "  parsedYear: ${parsed.year}",
    ].join("\n");

  it("creates, updates an offset in place, replaces on triggers, calls rfc3339Parse, imports a time_static, destroys", async () => {
    const s = await YamlScenario.create(sandbox, "lc-time", ["time"]);
    s.program(program({ trigger: "a", days: 1 }));
    await s.up();
    const out = await s.outputs();
    expect(out["later"]).toBe("2024-01-02T00:00:00Z");
    expect(out["laterDay"]).toBe(2);
    expect(out["stampYear"]).toBe(new Date().getUTCFullYear());
    // A provider function with an object return: its fields, as the schema's return type promises.
    expect(out["parsed"]).toMatchObject({ year: 2024, month: 3, day: 4, hour: 5, minute: 6, second: 7, monthName: "March", weekdayName: "Monday" });
    // YAML reads a field of the returned object: the schema spells the return out as the function's outputs.
    expect(out["parsedYear"]).toBe(2024);
    await s.ok(["preview", "--expect-no-changes"]);

    // offset_days is updated in place: the offset is recomputed, the resource keeps its id.
    s.program(program({ trigger: "a", days: 3 }));
    const updating = YamlScenario.step(await s.preview(), "later");
    expect(updating?.op).toBe("update");
    expect(updating?.detailedDiff).toEqual({ offsetDays: { kind: "update", inputDiff: false } });
    const idBefore = (await s.resource("later"))?.id;
    await s.up();
    expect((await s.resource("later"))?.id).toBe(idBefore);
    expect(await s.outputs()).toMatchObject({ later: "2024-01-04T00:00:00Z", laterDay: 4 });

    // triggers force a new time_static.
    s.program(program({ trigger: "b", days: 3 }));
    const replacing = YamlScenario.step(await s.preview(), "stamp");
    expect(replacing?.op).toBe("replace");
    // rfc3339 is optional+computed: the plan leaves it unknown for the new object, so it is reported as changing too.
    expect(replacing?.detailedDiff).toEqual({
      'triggers["t"]': { kind: "update-replace", inputDiff: false },
      rfc3339: { kind: "update-replace", inputDiff: false },
    });
    await s.up();
    expect((await s.resource("stamp"))?.inputs?.["triggers"]).toEqual({ t: "b" });
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);

    // time_static imports by its RFC 3339 value; the generated code reproduces it without changes.
    const gen = join(s.dir, "imported.yaml");
    await s.ok(["import", "time:index/static:Static", "fixed", "2020-02-12T06:36:13Z", "--yes", "--protect=false", "--out", gen]);
    const fixed = await s.resource("fixed");
    expect(fixed?.id).toBe("2020-02-12T06:36:13Z");
    expect(fixed?.outputs).toMatchObject({ year: 2020, month: 2, day: 12, unix: 1581489373 });
    const code = readFileSync(gen, "utf8");
    expect(code).toContain("2020-02-12T06:36:13Z");
    s.program(program({ trigger: "b", days: 3, extra: importedResources(code) }));
    await s.ok(["preview", "--expect-no-changes"]);

    await s.ok(["destroy", "--yes"]);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});

describe("tls (YAML)", () => {
  const program = (o: { algorithm: string; renewal: number }): string =>
    [
      "resources:",
      "  key:",
      "    type: tls:index/privateKey:PrivateKey",
      "    properties:",
      `      algorithm: ${o.algorithm}`,
      "  cert:",
      "    type: tls:index/selfSignedCert:SelfSignedCert",
      "    properties:",
      "      privateKeyPem: ${key.privateKeyPem}",
      "      validityPeriodHours: 24",
      `      earlyRenewalHours: ${o.renewal}`,
      "      allowedUses: [digital_signature, server_auth]",
      "      dnsNames: [example.com]",
      "      subjects:",
      "        - commonName: example.com",
      "          organization: Example Org",
      "variables:",
      "  pub:",
      "    fn::invoke:",
      "      function: tls:index/getPublicKey:getPublicKey",
      "      arguments:",
      "        privateKeyPem: ${key.privateKeyPem}",
      "outputs:",
      "  keyPem: ${key.privateKeyPem}",
      "  publicFromKey: ${key.publicKeyPem}",
      "  publicFromData: ${pub.publicKeyPem}",
      "  cert: ${cert.certPem}",
    ].join("\n");

  it("creates a key and a certificate, keeps the key secret, updates in place, replaces the key and the certificate with it", async () => {
    const s = await YamlScenario.create(sandbox, "lc-tls", ["tls"]);
    s.program(program({ algorithm: "ECDSA", renewal: 1 }));
    await s.up();

    const out = await s.outputs();
    expect(out["keyPem"]).toBe("[secret]");
    // The data source read a secret argument, so its result is secret as well.
    expect(out["publicFromData"]).toBe("[secret]");
    const plain = await s.outputs(true);
    expect(plain["publicFromData"]).toBe(plain["publicFromKey"]);
    expect(plain["publicFromKey"]).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const cert = new X509Certificate(out["cert"] as string);
    expect(cert.subject).toMatch(/CN=example\.com/);
    expect(cert.subjectAltName).toBe("DNS:example.com");
    const key = await s.resource("key");
    expect(isSecretEnvelope(key?.outputs?.["privateKeyPem"])).toBe(true);
    // The certificate's input carries the key; it stays secret there too.
    expect(isSecretEnvelope((await s.resource("cert"))?.inputs?.["privateKeyPem"])).toBe(true);
    expect(await s.exportText()).not.toContain((plain["keyPem"] as string).split("\n")[1]);
    await s.ok(["preview", "--expect-no-changes"]);

    // early_renewal_hours changes in place: same certificate.
    s.program(program({ algorithm: "ECDSA", renewal: 2 }));
    const updating = YamlScenario.step(await s.preview(), "cert");
    expect(updating?.op).toBe("update");
    expect(updating?.detailedDiff).toEqual({ earlyRenewalHours: { kind: "update", inputDiff: false } });
    await s.up();
    expect((await s.outputs())["cert"]).toBe(out["cert"]);

    // A new algorithm replaces the key; the certificate, whose key input changes, is replaced with it.
    s.program(program({ algorithm: "ED25519", renewal: 2 }));
    const preview = await s.preview();
    const keyStep = YamlScenario.step(preview, "key");
    expect(keyStep?.op).toBe("replace");
    expect(keyStep?.detailedDiff).toMatchObject({ algorithm: { kind: "update-replace" } });
    expect(YamlScenario.step(preview, "cert")?.op).toBe("replace");
    await s.up();
    const out2 = await s.outputs(true);
    expect(out2["keyPem"]).not.toBe(plain["keyPem"]);
    const cert2 = new X509Certificate(out2["cert"] as string);
    expect(cert2.publicKey.asymmetricKeyType).toBe("ed25519");
    expect(cert2.publicKey.export({ type: "spki", format: "pem" })).toBe(createPublicKey(out2["keyPem"] as string).export({ type: "spki", format: "pem" }));

    await s.ok(["destroy", "--yes"]);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});

describe("several bridged packages in one project (YAML)", () => {
  it("deploy and shut down cleanly: every plugin acknowledges Cancel and exits promptly", async () => {
    // The engine closes its provider plugins one after another, within one 5 s budget for their Cancel calls: a plugin
    // that lingered after Cancel (waiting for the engine to hang up) made the last ones look crashed.
    const s = await YamlScenario.create(sandbox, "lc-many", ["random", "local", "time", "tls"]);
    const dir = s.dir;
    s.program(
      [
        "resources:",
        "  pet:",
        "    type: random:index/pet:Pet",
        "  file:",
        "    type: local:index/file:File",
        "    properties:",
        `      filename: ${dir}/many.txt`,
        "      content: ${pet.id}",
        "  stamp:",
        "    type: time:index/static:Static",
        "  key:",
        "    type: tls:index/privateKey:PrivateKey",
        "    properties:",
        "      algorithm: ED25519",
      ].join("\n"),
    );
    for (const args of [["up", "--yes"], ["preview", "--expect-no-changes"], ["destroy", "--yes"]]) {
      const r = await s.ok(args);
      expect(r.stdout + r.stderr, args.join(" ")).not.toMatch(/exited prematurely/);
    }
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});
