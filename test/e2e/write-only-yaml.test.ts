// Write-only inputs through the real Pulumi CLI (bridgetest's writeOnlySecret and tls's privateKeyPemWo fed from an
// ephemeral key reach the provider, yet appear nowhere in the stack's state, its export or the backend's files), and
// what a provider that defers a plan gets: a failed preview naming the resource and the reason.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { filesContaining, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

/** Written into the program only; any copy of it outside the program is a leak. */
const WRITE_ONLY = `wo-${process.pid}-never-stored`;

const program = (version: number): string =>
  [
    "variables:",
    "  key:",
    "    fn::invoke:",
    "      function: tls:ephemeral/getPrivateKey:getPrivateKey",
    "      arguments:",
    "        algorithm: ECDSA",
    "resources:",
    "  obj:",
    "    type: bridgetest:index/objectResource:ObjectResource",
    "    properties:",
    "      name: wo",
    `      writeOnlySecret: ${WRITE_ONLY}`,
    `      writeOnlyVersion: ${version}`,
    "  csr:",
    "    type: tls:index/certRequest:CertRequest",
    "    properties:",
    "      privateKeyPemWo: ${key.privateKeyPem}",
    `      privateKeyPemWoVersion: ${version}`,
    "      subjects:",
    "        - commonName: write-only.example",
    "outputs:",
    "  seen: ${obj.writeOnlySeen}",
    "  revision: ${obj.revision}",
    "  csrPem: ${csr.certRequestPem}",
  ].join("\n");

describe("write-only inputs (YAML)", () => {
  it("reach the provider, are in no state, export or backend file, and only their version companion drives an update", async () => {
    const stateDir = scratch("tfbridge-wo-state-");
    const s = await YamlScenario.create(sandbox, "wo-yaml", ["bridgetest", "tls"], { BRIDGETEST_STATE_DIR: stateDir });
    s.program(program(1));
    await s.up();
    const first = await s.outputs(true);
    expect(first["seen"]).toBe(true);
    expect(first["csrPem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);

    const leaks = async (): Promise<void> => {
      const deployment = await s.deployment(true);
      const exported = JSON.stringify(deployment);
      expect(exported).not.toContain(WRITE_ONLY);
      expect(exported).not.toContain("PRIVATE KEY");
      for (const [name, property] of [["obj", "writeOnlySecret"], ["csr", "privateKeyPemWo"]] as const) {
        const r = deployment.resources?.find((x) => x.urn.endsWith(`::${name}`));
        expect(Object.keys(r?.inputs ?? {}), name).not.toContain(property);
        // A sensitive attribute's output is a secret even when null: with --show-secrets, plaintext "null".
        const out = r?.outputs?.[property] as { plaintext?: string } | null | undefined;
        expect(out === null || out === undefined || out.plaintext === "null", `${name}.${property}: ${JSON.stringify(out)}`).toBe(true);
      }
      expect(filesContaining(sandbox.backend, WRITE_ONLY)).toEqual([]);
      expect(filesContaining(sandbox.backend, "PRIVATE KEY")).toEqual([]);
      expect(filesContaining(stateDir, WRITE_ONLY)).toEqual([]);
    };
    await leaks();

    // The ephemeral key is new on every run, but nothing of it is stored to compare: no change until the version moves.
    const unchanged = await s.preview();
    expect(YamlScenario.op(unchanged, "obj")).toBe("same");
    expect(YamlScenario.op(unchanged, "csr")).toBe("same");

    s.program(program(2));
    const bumped = await s.preview();
    expect(YamlScenario.op(bumped, "obj")).toBe("update");
    expect(YamlScenario.op(bumped, "csr")).toBe("replace");
    await s.up();
    const second = await s.outputs(true);
    expect(second).toMatchObject({ seen: true, revision: 2 });
    expect(second["csrPem"]).not.toBe(first["csrPem"]);
    await leaks();

    await s.ok(["destroy", "--yes"]);
  }, 600_000);
});

describe("write-only values inside a nested attribute and a block (YAML)", () => {
  const NESTED = `nested-wo-${process.pid}-never-stored`;
  const BLOCK = `block-wo-${process.pid}-never-stored`;
  const login = (version: number): string =>
    [
      "resources:",
      "  login:",
      "    type: bridgetest:index/login:Login",
      "    properties:",
      "      name: nested-wo",
      `      version: ${version}`,
      "      credentials:",
      "        user: alice",
      `        password: ${NESTED}`,
      "      tokens:",
      "        - label: first",
      `          secret: ${BLOCK}`,
      "outputs:",
      "  seen: ${login.seens}",
      "  user: ${login.credentials.user}",
    ].join("\n");

  it("reach the provider where they are, and are in no state, export, backend file or log", async () => {
    const s = await YamlScenario.create(sandbox, "wo-nested-yaml", ["bridgetest"]);
    s.program(login(1));
    const up = await s.up();
    expect(await s.outputs(true)).toMatchObject({ seen: ["credentials.password", "token[0].secret"], user: "alice" });
    const check = async (): Promise<void> => {
      const deployment = await s.deployment(true);
      const exported = JSON.stringify(deployment);
      for (const secret of [NESTED, BLOCK]) {
        expect(exported).not.toContain(secret);
        expect(filesContaining(sandbox.backend, secret)).toEqual([]);
      }
      const r = deployment.resources?.find((x) => x.urn.endsWith("::login"));
      // The inputs keep the nested objects, each with its write-only value null.
      expect(JSON.stringify(r?.inputs)).toContain("alice");
      expect(JSON.stringify(r?.inputs)).toContain("first");
    };
    await check();
    for (const secret of [NESTED, BLOCK]) expect(up.stdout + up.stderr).not.toContain(secret);
    // Nothing stored to compare: no change until the version moves, then the values reach the provider again.
    expect(YamlScenario.op(await s.preview(), "login")).toBe("same");
    s.program(login(2));
    await s.up();
    expect((await s.outputs(true))["seen"]).toEqual(["credentials.password", "token[0].secret"]);
    await check();
    await s.ok(["destroy", "--yes"]);
  }, 600_000);
});

describe("deferred plans (YAML)", () => {
  it("a provider that defers its plan fails the preview with the resource and the reason, and nothing is created", async () => {
    const stateDir = scratch("tfbridge-defer-state-");
    const s = await YamlScenario.create(sandbox, "defer-yaml", ["bridgetest"], { BRIDGETEST_STATE_DIR: stateDir, BRIDGETEST_DEFER: "plan:absent_prereq" });
    s.program(["resources:", "  obj:", "    type: bridgetest:index/objectResource:ObjectResource", "    properties:", "      name: deferred"].join("\n"));
    const r = await s.pulumi(["preview"]);
    expect(r.code).not.toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toContain("bridgetest:index:ObjectResource (obj):");
    expect(out).toContain("planning bridgetest_object failed: the provider deferred the change (a prerequisite is absent)");
    expect(readdirSync(stateDir)).toEqual([]);
  }, 600_000);
});
