// The secret canary sweep: failure paths run through the real Pulumi CLI with planted secrets (program secrets, sensitive
// provider settings given plain, TF_TOKEN_<host>, proxy and network-mirror passwords), and no canary may turn up in
// what the user or an operator sees: the CLI's output at -v=9 --logtostderr --logflow (but for Pulumi's own RPC
// tracing), the PULUMI_TF_DEBUG_GRPC recording, `pulumi stack export`, or any file under the backend or Pulumi home.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { filesContaining, pulumisOwn, scratch, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { runPulumi, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";

const sandbox = e2eSandbox();
const VERBOSE = ["-v=9", "--logtostderr", "--logflow"];

/** A value found nowhere unless leaked: its purpose and random hex. */
const canary = (what: string): string => `${what}-canary-${randomBytes(6).toString("hex")}`;

/** Where each canary turned up: lines of output outside Pulumi's own RPC tracing, and files. Empty when none leaked. */
function leaks(canaries: Record<string, string>, outputs: Record<string, string>, dirs: string[]): string[] {
  const found: string[] = [];
  for (const [what, value] of Object.entries(canaries)) {
    for (const [where, text] of Object.entries(outputs)) {
      for (const line of text.split("\n")) {
        const at = line.indexOf(value);
        if (at >= 0 && !pulumisOwn(line)) found.push(`${what} in ${where}: …${line.slice(Math.max(0, at - 200), at + value.length + 60)}…`);
      }
    }
    for (const dir of dirs) if (existsSync(dir)) for (const f of filesContaining(dir, value)) found.push(`${what} in the file ${f}`);
  }
  return found;
}

const output = (r: RunResult): string => `${r.stdout}\n${r.stderr}`;

/** A failed `pulumi up` at the most verbose logging; the test fails if it succeeded. */
async function failingUp(s: YamlScenario): Promise<RunResult> {
  const r = await s.pulumi(["up", "--yes", "--skip-preview", ...VERBOSE], 600_000);
  expect(r.code, output(r).slice(-3000)).not.toBe(0);
  return r;
}

describe("failures of a deployment with planted secrets", () => {
  const c = {
    programSecret: canary("program"),
    apiToken: canary("api-token"),
    algorithm: canary("algorithm"),
    failingValue: canary("failing-value"),
  };
  let s: YamlScenario;
  let recording: string;
  let stateDir: string;
  const outputs: Record<string, string> = {};

  beforeAll(async () => {
    stateDir = scratch("tfbridge-canary-state-");
    recording = join(scratch("tfbridge-canary-rec-"), "calls.jsonl");
    s = await YamlScenario.create(sandbox, "secret-canary", ["bridgetest", "tls"], { TF_LOG: "TRACE", PULUMI_TF_DEBUG_GRPC: recording });
  }, 1_200_000);

  const provider = (extra: string[] = []): string[] => [
    "  prov:",
    "    type: pulumi:providers:bridgetest",
    "    properties:",
    `      stateDir: ${stateDir}`,
    // Sensitive in bridgetest's schema, and given plain: the bridge must keep it secret without being told.
    `      apiToken: ${c.apiToken}`,
    ...extra,
  ];

  // Pulumi YAML type-checks a program against the schema before anything runs (quoting the program's line); a value
  // read from bridgetest's dynamicValue output is typed Any, so a wrong type reaches the bridge's Check as it would from
  // any SDK, and a secret one stays secret all the way (an invoke's arguments reach the provider unwrapped).
  const holder = (name: string, value: string[], providerName = "prov"): string[] => [
    `  ${name}:`,
    "    type: bridgetest:index/objectResource:ObjectResource",
    "    properties:",
    `      name: ${name}`,
    "      dynamicValue:",
    ...value.map((l) => `        ${l}`),
    "    options:",
    `      provider: \${${providerName}}`,
  ];

  it("a check failure on a secret of the wrong type says [secret]", async () => {
    s.program(
      [
        "resources:",
        ...provider(),
        ...holder("notANumber", ["fn::secret: " + c.programSecret]),
        "  obj:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: canary-object",
        "      numberValue: ${notANumber.dynamicValue}",
        "    options:",
        "      provider: ${prov}",
      ].join("\n"),
    );
    const r = await failingUp(s);
    outputs["up with a wrong type"] = output(r);
    expect(output(r)).toMatch(/resource 'obj' has a problem: numberValue: expected a number, got a string \(\[secret\]\)/);
  }, 900_000);

  it("a provider's own check failure that quotes a secret it refused says [secret] instead", async () => {
    // tls validates `algorithm` itself, and its message quotes the value it refused.
    s.program(["resources:", "  key:", "    type: tls:index/privateKey:PrivateKey", "    properties:", "      algorithm:", `        fn::secret: ${c.algorithm}`].join("\n"));
    const r = await failingUp(s);
    outputs["up with a value the provider refuses"] = output(r);
    expect(output(r)).toMatch(/resource 'key' has a problem: algorithm: Invalid Attribute Value Match: .*, got: "\[secret\]"/);
  }, 900_000);

  it("a provider configuration failure beside a sensitive setting names the setting at fault, not the secret", async () => {
    s.program(
      [
        "resources:",
        "  good:",
        "    type: pulumi:providers:bridgetest",
        "    properties:",
        `      stateDir: ${stateDir}`,
        ...holder("aList", ["- not-a-string"], "good"),
        ...provider(["      failOn: ${aList.dynamicValue}"]),
        "  obj:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: canary-object",
        "    options:",
        "      provider: ${prov}",
      ].join("\n"),
    );
    const r = await failingUp(s);
    outputs["up with a provider config failure"] = output(r);
    expect(output(r)).toMatch(/resource 'prov': property failOn value .* has a problem: expected a string, got a list/);
  }, 900_000);

  it("a create that fails part-way with secret inputs keeps them secret in the partial state", async () => {
    s.program(
      [
        "resources:",
        ...provider(),
        "  broken:",
        "    type: bridgetest:index/failing:Failing",
        "    properties:",
        "      name: canary-failing",
        "      fail: true",
        "      value:",
        `        fn::secret: ${c.failingValue}`,
        "    options:",
        "      provider: ${prov}",
      ].join("\n"),
    );
    const r = await failingUp(s);
    outputs["up with a failing create"] = output(r);
    expect(output(r)).toMatch(/bridgetest: deliberate create failure/);
    // The partial state is stored (that is what makes it a partial failure, not a lost object).
    const exported = await s.exportText();
    expect(exported).toMatch(/bridgetest:index\/failing:Failing/);
    outputs["stack export"] = exported;
  }, 900_000);

  it("no canary anywhere: CLI output, the call recording, the stack export, the backend and the Pulumi home", async () => {
    expect(Object.keys(outputs).length, "the failure paths above ran").toBe(5);
    const recorded = existsSync(recording) ? readFileSync(recording, "utf8") : "";
    // A sweep that looks at nothing proves nothing: the recording has the calls, the output the plugin's and
    // provider's log lines.
    expect(recorded).toMatch(/"method":"ApplyResourceChange"/);
    expect(Object.values(outputs).join("\n")).toMatch(/tf_rpc=ValidateResourceConfig/);
    expect(leaks(c, { ...outputs, "the recording": recorded }, [sandbox.backend, sandbox.home])).toEqual([]);
  }, 300_000);
});

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `pulumi package add terraform-provider ARGS` in a fresh YAML project, expected to fail; its output. */
async function failingPackageAdd(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const dir = scratch("tfbridge-canary-add-");
  writeFileSync(join(dir, "Pulumi.yaml"), "name: canary-add\nruntime: yaml\n");
  const r = await runPulumi([...VERBOSE, "package", "add", "terraform-provider", ...args], { cwd: dir, env, timeoutMs: 600_000 });
  expect(r.code, output(r).slice(-3000)).not.toBe(0);
  return output(r);
}

describe("failures of a registry install with a token set", () => {
  const right = canary("right-token");
  let reg: FakeRegistry;
  beforeAll(async () => {
    reg = await FakeRegistry.start({
      providers: { "hashicorp/random": [{ version: "3.7.2", fault: "bad-checksum" }] },
      binaries: { random: peerPath("random") },
      token: right,
    });
  }, 120_000);
  afterAll(async () => reg?.stop());

  it("a refused TF_TOKEN_<host> and a download that fails verification show neither token", async () => {
    const wrong = canary("wrong-token");
    const base: NodeJS.ProcessEnv = { ...sandbox.env, NODE_EXTRA_CA_CERTS: reg.caFile, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: scratch("tfbridge-canary-cache-") };
    for (const k of Object.keys(base)) if (k.startsWith("TF_TOKEN_")) delete base[k];
    const tokenVar = `TF_TOKEN_${reg.host.replace(/\./g, "_")}`;
    const refused = await failingPackageAdd([`${reg.host}/hashicorp/random`, "3.7.2"], { ...base, [tokenVar]: wrong });
    expect(refused).toMatch(/401|unauthori[sz]ed|token/i);
    const unverified = await failingPackageAdd([`${reg.host}/hashicorp/random`, "3.7.2"], { ...base, [tokenVar]: right });
    expect(unverified).toMatch(/checksum|SHA256SUMS|sha256/i);
    // The right token did reach the registry, so the second failure is past authentication.
    expect(reg.auth.some((a) => a.authorization === `Bearer ${right}`)).toBe(true);
    expect(leaks({ wrong, right }, { "the refused install": refused, "the unverified install": unverified }, [sandbox.backend, sandbox.home])).toEqual([]);
  }, 900_000);
});

// These two hold src/acquire to its redaction of proxy and mirror URLs (`http://alice:***@host:port/`).
describe("failures through a proxy and a network mirror with passwords in their URLs", () => {
  it("an unreachable HTTPS_PROXY with a password: the message names the proxy, with the password hidden", async () => {
    const password = canary("proxy-password");
    const port = await closedPort();
    const env = { ...sandbox.env, HTTPS_PROXY: `http://alice:${password}@127.0.0.1:${port}/`, https_proxy: "", NO_PROXY: "", no_proxy: "" };
    const out = await failingPackageAdd(["registry.opentofu.org/hashicorp/random", "3.7.2"], env);
    expect(leaks({ password }, { "the install through the proxy": out }, [sandbox.backend, sandbox.home])).toEqual([]);
    expect(out).toMatch(new RegExp(`alice:\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
  }, 900_000);

  it("an unreachable network_mirror with userinfo in its URL: the password is hidden", async () => {
    const password = canary("mirror-password");
    const port = await closedPort();
    const rc = join(scratch("tfbridge-canary-rc-"), "mirror.tfrc");
    writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "https://bob:${password}@127.0.0.1:${port}/mirror/"\n  }\n}\n`);
    const out = await failingPackageAdd(["hashicorp/random", "3.7.2"], { ...sandbox.env, TF_CLI_CONFIG_FILE: rc });
    expect(leaks({ password }, { "the install from the mirror": out }, [sandbox.backend, sandbox.home])).toEqual([]);
    expect(out).toMatch(new RegExp(`bob:\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
  }, 900_000);
});
