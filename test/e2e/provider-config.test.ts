// Provider configuration as Pulumi really sends it, through the real CLI: stack configuration (plain, --path, --secret),
// which the engine passes as strings, and explicit providers from YAML (values as they are) and TypeScript (the
// Node.js SDK JSON-encodes every non-string input). httpapi's settings are one of each Terraform kind and its
// httpapi_settings data source echoes what Configure received; tls's `proxy` block is the issue's own case.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { hostsMissing } from "../support/languages.js";
import { isSecretEnvelope, nodeSdk, TypeScriptScenario, YamlScenario, type Deployment } from "../support/lifecycle.js";
import { EXPLICIT_ECHO, expectStoredExplicitProvider, SETTINGS_ENDPOINT } from "../support/provider-settings.js";

const sandbox = e2eSandbox();

const ENDPOINT = SETTINGS_ENDPOINT;

/** What httpapi_settings echoes for the settings below: Terraform's names, Go's JSON (keys sorted), secrets as lengths. */
const FROM_STACK = {
  allowed_ids: ["a"],
  backoff_seconds: 1.5,
  client: [{ name: "c1", weight: 3 }],
  default_headers: { "x-team": "blue" },
  fallback_urls: ["http://127.0.0.1:10"],
  max_retries: 5,
  route: [{ path: "/a", secret_length: 6 }],
  trace: true,
};
const EXPLICIT = EXPLICIT_ECHO;

/** The stored inputs of the provider resource named `name` (`default_…` for the default provider). */
function providerInputs(d: Deployment, name: RegExp): Record<string, unknown> {
  const p = d.resources?.find((r) => r.type.startsWith("pulumi:providers:") && name.test(r.urn.split("::").pop()!));
  expect(p, JSON.stringify(d.resources?.map((r) => r.urn))).toBeDefined();
  return (p as { inputs?: Record<string, unknown> }).inputs ?? {};
}

/** Every way a user sets httpapi's stack configuration: plain, `--path` into lists, maps and blocks, `--secret --path`. */
async function setStackConfig(s: YamlScenario | TypeScriptScenario): Promise<void> {
  const sets: string[][] = [
    ["httpapi:endpoint", ENDPOINT],
    ["httpapi:maxRetries", "5"],
    ["httpapi:trace", "true"],
    ["httpapi:backoffSeconds", "1.5"],
    ["--path", "httpapi:defaultHeaders.x-team", "blue"],
    ["--path", "httpapi:allowedIds[0]", "a"],
    ["--path", "httpapi:fallbackUrls[0]", "http://127.0.0.1:10"],
    ["--path", "httpapi:client.name", "c1"],
    ["--path", "httpapi:client.weight", "3"],
    ["--path", "httpapi:routes[0].path", "/a"],
    ["--secret", "--path", "httpapi:routes[0].secret", "s3cr3t"],
  ];
  for (const args of sets) await s.ok(["config", "set", ...args]);
}

describe("provider configuration from YAML", () => {
  let s: YamlScenario;
  beforeAll(async () => {
    s = await YamlScenario.create(sandbox, "cfg-yaml", ["httpapi", "tls"]);
  }, 600_000);

  it("stack configuration of every kind reaches the provider decoded, the secret stays secret, and an explicit provider's values too", async () => {
    await setStackConfig(s);
    s.program(
      [
        "resources:",
        "  explicit:",
        "    type: pulumi:providers:httpapi",
        "    properties:",
        `      endpoint: ${ENDPOINT}`,
        "      maxRetries: 7",
        "      trace: true",
        "      backoffSeconds: 0.25",
        "      defaultHeaders: { x-team: green }",
        "      allowedIds: [b, c]",
        "      fallbackUrls: [http://127.0.0.1:11]",
        "      client: { name: c2, weight: 4 }",
        "      routes:",
        "        - path: /b",
        "          secret: hush",
        "variables:",
        "  fromStack:",
        "    fn::invoke:",
        "      function: httpapi:index/getSettings:getSettings",
        "  fromExplicit:",
        "    fn::invoke:",
        "      function: httpapi:index/getSettings:getSettings",
        "      options:",
        "        provider: ${explicit}",
        "outputs:",
        "  fromStack: ${fromStack.json}",
        "  fromExplicit: ${fromExplicit.json}",
      ].join("\n"),
    );
    await s.up();
    const out = await s.outputs();
    expect(JSON.parse(out["fromStack"] as string)).toEqual(FROM_STACK);
    expect(JSON.parse(out["fromExplicit"] as string)).toEqual(EXPLICIT);
    const d = await s.deployment();
    // The stored inputs hold the values as given, decoded; the routes (a sensitive attribute inside) are a secret.
    const stored = providerInputs(d, /^default/);
    expect(stored).toMatchObject({ maxRetries: 5, trace: true, backoffSeconds: 1.5, client: { name: "c1" }, allowedIds: ["a"], defaultHeaders: { "x-team": "blue" } });
    expect(isSecretEnvelope(stored["routes"])).toBe(true);
    // YAML sends the explicit provider's values as they are: the schema's sensitive attribute is made secret in place.
    const routes = providerInputs(d, /^explicit$/)["routes"] as Record<string, unknown>[];
    expect(isSecretEnvelope(routes[0]!["secret"])).toBe(true);
    expect(await s.exportText()).not.toMatch(/s3cr3t|hush/);
    await s.ok(["preview", "--expect-no-changes"]);
  }, 900_000);

  it("tls's proxy block from `pulumi config set --path tls:proxies[0].url` (the issue's failure)", async () => {
    await s.ok(["config", "set", "--path", "tls:proxies[0].url", "http://127.0.0.1:1"]);
    s.program(["resources:", "  key:", "    type: tls:index/privateKey:PrivateKey", "    properties:", "      algorithm: ED25519"].join("\n"));
    await s.up();
    expect(providerInputs(await s.deployment(), /^default.*/)).toHaveProperty("proxies", [{ url: "http://127.0.0.1:1" }]);
  }, 900_000);

  it("an unknown key says which and the nearest real one: the Terraform name, or a typo", async () => {
    // The engine stops at the first provider that fails its check, so each key gets a preview of its own.
    const rejects = async (key: string, program: string[], message: string): Promise<void> => {
      await s.ok(["config", "set", key, "5"]);
      s.program(program.join("\n"));
      const r = await s.pulumi(["preview"]);
      const said = (r.stdout + r.stderr).replace(/\s+/g, " ");
      expect(r.code, said).not.toBe(0);
      expect(said).toContain(message);
      await s.ok(["config", "rm", key]);
    };
    await rejects(
      "tls:proxy",
      ["resources:", "  key:", "    type: tls:index/privateKey:PrivateKey", "    properties:", "      algorithm: ED25519"],
      "`tls:proxy` is not a valid configuration key for the tls provider. Did you mean `tls:proxies`? If the key is not meant for the provider, choose a namespace other than `tls:` (`pulumi config rm tls:proxy`).",
    );
    await rejects(
      "httpapi:maxRetry",
      ["variables:", "  x:", "    fn::invoke:", "      function: httpapi:index/getSettings:getSettings", "outputs:", "  x: ${x.json}"],
      "`httpapi:maxRetry` is not a valid configuration key for the httpapi provider. Did you mean `httpapi:maxRetries`?",
    );
    await s.ok(["destroy", "--yes"]);
  }, 900_000);

  it("an explicit provider's block: a conflict names the value that was set; a misspelled key in the stack's block gets the nearest real one", async () => {
    const failing = async (proxy: string): Promise<string> => {
      s.program(
        ["resources:", "  mine:", "    type: pulumi:providers:tls", "    properties:", `      proxies: [${proxy}]`,
          "  key:", "    type: tls:index/privateKey:PrivateKey", "    properties:", "      algorithm: ED25519", "    options:", "      provider: ${mine}"].join("\n"),
      );
      const r = await s.pulumi(["preview"]);
      const said = (r.stdout + r.stderr).replace(/\s+/g, " ");
      expect(r.code, said).not.toBe(0);
      return said;
    };
    const conflict = await failing("{ url: 'http://127.0.0.1:1', fromEnv: true }");
    expect(conflict).toContain('proxies[0].url = "http://127.0.0.1:1": Invalid Attribute Combination');
    expect(conflict).not.toContain("<nil>");
    // YAML checks an explicit provider's keys against the schema before the engine runs (`Property urll does not
    // exist …`); the stack's configuration reaches the plugin as it is.
    expect(await failing("{ urll: 'http://127.0.0.1:1' }")).toContain("Property urll does not exist");
    await s.ok(["config", "set", "--path", "tls:proxies[0].urll", "http://127.0.0.1:1"]);
    s.program(["resources:", "  key:", "    type: tls:index/privateKey:PrivateKey", "    properties:", "      algorithm: ED25519"].join("\n"));
    const r = await s.pulumi(["preview"]);
    await s.ok(["config", "rm", "tls:proxies"]);
    expect(r.code).not.toBe(0);
    expect((r.stdout + r.stderr).replace(/\s+/g, " ")).toContain('proxies[0].urll = "http://127.0.0.1:1": the tls provider has no setting urll in proxies[0]; did you mean url?');
  }, 900_000);
});

describe.skipIf(hostsMissing())("provider configuration from TypeScript", () => {
  let s: TypeScriptScenario;
  beforeAll(async () => {
    const sdk = await nodeSdk(sandbox, "httpapi");
    s = await TypeScriptScenario.create(
      sandbox,
      "cfg-ts",
      String.raw`import * as pulumi from "@pulumi/pulumi";
import * as httpapi from "@pulumi/httpapi";

// The generated Provider class JSON-encodes every input that is not a string; the secret one comes from an Output.
const explicit = new httpapi.Provider("explicit", {
    endpoint: "${ENDPOINT}",
    maxRetries: 7,
    trace: true,
    backoffSeconds: 0.25,
    defaultHeaders: { "x-team": "green" },
    allowedIds: ["b", "c"],
    fallbackUrls: ["http://127.0.0.1:11"],
    client: { name: "c2", weight: 4 },
    routes: [{ path: "/b", secret: pulumi.secret("hush") }],
});

export const fromStack = httpapi.getSettingsOutput().json;
export const fromExplicit = httpapi.getSettingsOutput({}, { provider: explicit }).json;
`,
      { "@pulumi/httpapi": sdk },
    );
  }, 900_000);
  afterAll(async () => {
    await s?.pulumi(["destroy", "--yes"]);
  }, 600_000);

  it("stack configuration and an explicit provider's JSON-encoded inputs reach the provider decoded", async () => {
    await setStackConfig(s);
    await s.typeCheck();
    await s.up();
    const out = await s.outputs();
    expect(JSON.parse(out["fromStack"] as string)).toEqual(FROM_STACK);
    expect(JSON.parse(out["fromExplicit"] as string)).toEqual(EXPLICIT);
    const d = await s.deployment();
    const text = await s.exportText();
    expectStoredExplicitProvider(d.resources ?? [], text);
    // The Node.js SDK JSON-encodes the routes from a secret Output: the whole setting is the secret.
    expect(isSecretEnvelope(providerInputs(d, /^explicit$/)["routes"])).toBe(true);
    expect(text).not.toMatch(/s3cr3t|hush/);
    await s.ok(["preview", "--expect-no-changes"]);
  }, 900_000);
});
