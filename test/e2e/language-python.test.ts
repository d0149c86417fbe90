// A Python project through the real Python language host, laid out as `pulumi new python` lays it out (pip, a `venv`
// virtualenv, requirements.txt with pulumi==PULUMI_PYTHON_SDK, __main__.py); `pulumi install` makes the virtualenv. Then
// `pulumi package add terraform-provider <peer>` (random, tls, time, local, and random again from the fake loopback
// registry as `regrandom`) makes the CLI ask pulumi-language-python to generate sdks/<name>, list it in requirements.txt
// and pip-install it into the virtualenv; then `pulumi up` of __main__.py, a no-change preview, refresh (ids kept), a
// replace through a `keepers` value from stack config, `pulumi import`, destroy (the file terraform-provider-local wrote
// is gone). Bad input from Python is a check failure; without the Python host, `package add` and `preview` say so.
// Last, on a stack of its own, an explicit httpapi provider with a setting of every Terraform kind (the generated
// Provider class JSON-encodes each non-string one): httpapi's getSettings echoes them as Configure received them.
// pip's cache lives in ~/.cache/pulumi-tf-bridge-ts/pip, so reruns download nothing.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPlugin, type ExportedResource } from "../support/e2e.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { OUR_STACK, filesContaining, isSecretEnvelope, removeScratch, scratch, type PreviewJson } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { PULUMI_PYTHON_SDK } from "../support/python.js";
import { EXPLICIT_ECHO, ROUTE_SECRET, SETTINGS_ENDPOINT, expectStoredExplicitProvider } from "../support/provider-settings.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

const PEERS = ["random", "tls", "time", "local"] as const;
const PIP_CACHE = join(homedir(), ".cache/pulumi-tf-bridge-ts/pip");
const timingReport = new Timings("language-python");
const { timed } = timingReport;


const PULUMI_YAML = (name: string): string =>
  `name: ${name}\ndescription: A Python program using Terraform providers\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n`;

/** The files `pulumi new python` writes (with pulumi pinned to PULUMI_PYTHON_SDK). */
function layOutProject(dir: string, name: string, program: string): void {
  writeFileSync(join(dir, "Pulumi.yaml"), PULUMI_YAML(name));
  writeFileSync(join(dir, "requirements.txt"), `pulumi==${PULUMI_PYTHON_SDK}\n`);
  writeFileSync(join(dir, ".gitignore"), "*.pyc\nvenv/\n");
  writeFileSync(join(dir, "__main__.py"), program);
}

/** The program: every kind of thing a Python user writes against these SDKs. */
const PROGRAM = `"""A Python Pulumi program using Terraform providers through terraform-provider."""
import pulumi
import pulumi_local as local
import pulumi_random as random
import pulumi_regrandom as regrandom
import pulumi_time as time
import pulumi_tls as tls

config = pulumi.Config()
file_path = config.require("filePath")
keeper = config.require("keeper")
suffix_length = config.require_int("suffixLength")

key = tls.PrivateKey("key", algorithm="ECDSA", ecdsa_curve="P256")
cert = tls.SelfSignedCert(
    "cert",
    private_key_pem=key.private_key_pem,
    validity_period_hours=24,
    allowed_uses=["digital_signature", "server_auth"],
    dns_names=["example.test"],
    subjects=[tls.SelfSignedCertSubjectArgs(common_name="example.test", organization="ACME Test", street_addresses=["1 Main St"])],
)
csr = tls.CertRequest(
    "csr",
    private_key_pem=key.private_key_pem,
    subjects=[{"common_name": "csr.example.test", "country": "NZ"}],
)

# A data source, both forms: the Output form, and the plain form called inside an apply.
via_output = tls.get_public_key_output(private_key_pem=key.private_key_pem)
via_plain = key.private_key_pem.apply(lambda pem: tls.get_public_key(private_key_pem=pem).public_key_openssh)

# A provider function, both forms.
parsed = time.rfc3339_parse(timestamp="2024-02-29T12:34:56Z")
parsed_output = time.rfc3339_parse_output(timestamp="2024-02-29T12:34:56Z")

password = random.Password("password", length=20, min_upper=2, special=False, keepers={"keeper": keeper})
explicit = random.Provider("explicit")
pet = random.Pet("pet", length=2, keepers={"keeper": keeper}, opts=pulumi.ResourceOptions(provider=explicit))
suffix = random.String("suffix", length=suffix_length, special=False, upper=False, opts=pulumi.ResourceOptions(ignore_changes=["length", "override_special"]))
reg_pet = regrandom.Pet("regpet", length=2, separator="_")

file = local.File(
    "file",
    filename=file_path,
    content=pulumi.Output.concat("pet=", pet.id, "\\nsuffix=", suffix.result, "\\nregpet=", reg_pet.id, "\\n", cert.cert_pem),
    opts=pulumi.ResourceOptions(depends_on=[cert, csr], custom_timeouts=pulumi.CustomTimeouts(create="2m", delete="2m")),
)

pulumi.export("password_result", password.result)
pulumi.export("pet_name", pet.id)
pulumi.export("reg_pet_name", reg_pet.id)
pulumi.export("suffix_result", suffix.result)
pulumi.export("cert_subjects", cert.subjects)
pulumi.export("csr_pem", csr.cert_request_pem)
pulumi.export(
    "public_keys_agree",
    pulumi.Output.unsecret(
        pulumi.Output.all(key.public_key_openssh, via_output.public_key_openssh, via_plain).apply(
            lambda keys: keys[0] == keys[1] == keys[2] and keys[0].startswith("ecdsa-")
        )
    ),
)
pulumi.export("parsed_year", parsed.year)
pulumi.export("parsed_weekday", parsed.weekday_name)
pulumi.export("parsed_unix", parsed_output.unix)
pulumi.export("filename", file.filename)
`;

/** Bad input through the SDK: wrong types (Python checks none at run time; they go to the provider). */
/**
 * Ephemeral resources as Python functions (both forms) and an ephemeral value fed into a write-only input: the private
 * key exists only inside `pulumi up`; the CSR made from it is stored, the key nowhere.
 */
const EPHEMERAL_PROGRAM = `import pulumi
import pulumi_random as random
import pulumi_tls as tls

config = pulumi.Config()
pw = random.ephemeral.get_password_output(length=24, special=False)
plain = random.ephemeral.get_password(length=24, special=False)
key = tls.ephemeral.get_private_key_output(algorithm="ECDSA")
csr = tls.CertRequest(
    "wo-csr",
    private_key_pem_wo=key.private_key_pem,
    private_key_pem_wo_version=config.require_int("woVersion"),
    subjects=[{"common_name": "wo.example.test"}],
)
pulumi.export("password", pw.result)
pulumi.export("plainLength", len(plain.result))
pulumi.export("csrPem", csr.cert_request_pem)
`;

const BAD_PROGRAM = `import pulumi
import pulumi_random as random

bad = random.Password("bad", length="long", min_upper="lots")
pulumi.export("id", bad.id)
`;

/** An unknown keyword argument never leaves the SDK: the generated constructor has no **kwargs to take it. */
const UNKNOWN_KWARG_PROGRAM = `import pulumi
import pulumi_random as random

bad = random.Password("unknown", length=12, **{"not_a_property": True})
pulumi.export("id", bad.id)
`;

/**
 * An unknown property reaches the provider only past the SDK: a raw CustomResource with the SDK's type token. The
 * Python SDK translates nothing for it, so the keys go on the wire as written: one camelCase, one snake_case.
 */
const RAW_PROGRAM = `import pulumi
import pulumi_random as random

class RawPassword(pulumi.CustomResource):
    def __init__(self, name, props, opts=None):
        super().__init__("random:index/password:Password", name, props, opts)

provider = random.Provider("rawprov")
raw = RawPassword("raw", {"length": 12, "minUpper": "lots", "notAProperty": True, "min_lower": 2}, pulumi.ResourceOptions(provider=provider))
pulumi.export("id", raw.id)
`;

/**
 * An explicit httpapi provider with a setting of every Terraform kind: the generated Provider class JSON-encodes every
 * input that is not a string (`pulumi.Output.from_input(x).apply(pulumi.runtime.to_json)`), the routes with the secret
 * inside as one secret JSON string; getSettings, invoked with that provider, echoes what its Configure received.
 */
const SETTINGS_PROGRAM = `import pulumi
import pulumi_httpapi as httpapi

explicit = httpapi.Provider(
    "explicit",
    endpoint="${SETTINGS_ENDPOINT}",
    max_retries=7,
    trace=True,
    backoff_seconds=0.25,
    default_headers={"x-team": "green"},
    allowed_ids=["b", "c"],
    fallback_urls=["http://127.0.0.1:11"],
    client=httpapi.ProviderClientArgs(name="c2", weight=4),
    routes=[httpapi.ProviderRouteArgs(path="/b", secret=pulumi.Output.secret("${ROUTE_SECRET}"))],
)
pulumi.export("fromExplicit", httpapi.get_settings_output(opts=pulumi.InvokeOptions(provider=explicit)).json)
`;

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let project: string;
let env: NodeJS.ProcessEnv;
let outFile: string;

const pulumi = (args: string[], timeoutMs = 600_000): Promise<RunResult> => runPulumi(args, { cwd: project, env, timeoutMs });
const ok = async (args: string[], timeoutMs?: number): Promise<RunResult> => expectSuccess(await pulumi(args, timeoutMs), `pulumi ${args.join(" ")} in ${project}`);

/** Runs the project's virtualenv Python; returns its stdout, failing with its whole output unless it exits 0. */
function venvPython(code: string): string {
  const r = spawnSync(join(project, "venv", "bin", "python"), ["-c", code], { cwd: project, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`venv/bin/python -c ${JSON.stringify(code)} exited ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

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
/** The lines of a failed command's output that are errors, for the log. */
const errorLines = (text: string): string =>
  text
    .split("\n")
    .filter((l) => /error|Error/.test(l))
    .join("\n");

describe.skipIf(hostsMissing())("a Python project through the real Python language host", () => {
  beforeAll(async () => {
    sandbox = languageSandbox(); // packages and installs the plugin; the first run on a machine builds the CLI (minutes)
    reg = await FakeRegistry.start({
      providers: { "hashicorp/random": [{ version: "3.6.0" }, { version: "3.7.2" }, { version: "4.0.0" }] },
      binaries: { random: peerPath("random") },
      token: "py-token",
    });
    const work = scratch("tfbridge-lang-py-");
    // The token comes from a `credentials` block of the Terraform CLI configuration (language-go.test.ts gives it as a
    // TF_TOKEN_<host> variable instead).
    const rc = join(work, "e2e.tfrc");
    writeFileSync(rc, `credentials "${reg.host}" {\n  token = "py-token"\n}\n`);
    mkdirSync(PIP_CACHE, { recursive: true });
    env = { ...sandbox.env };
    for (const k of Object.keys(env)) if (k.startsWith("TF_TOKEN_") || k.startsWith("PIP_") || k === "VIRTUAL_ENV" || k === "PYTHONPATH") delete env[k];
    // The engine passes its environment to the plugin: the test CA, the CLI configuration, an isolated cache.
    Object.assign(env, {
      NODE_EXTRA_CA_CERTS: reg.caFile,
      TF_CLI_CONFIG_FILE: rc,
      PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
      PIP_CACHE_DIR: PIP_CACHE,
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
    });
    project = join(work, "project");
    mkdirSync(project);
    outFile = join(work, "written-by-local.txt");
    layOutProject(project, "tfbridge-lang-py", PROGRAM);
    // `pulumi install`: the Python host makes venv/ with python3 and pip-installs requirements.txt into it.
    await timed(`pulumi install (virtualenv, pulumi==${PULUMI_PYTHON_SDK})`, () => ok(["install"]));
    expect(venvPython("import pulumi, importlib.metadata as m; print(m.version('pulumi'))").trim()).toBe(PULUMI_PYTHON_SDK);
  }, 1_200_000);

  afterAll(async () => {
    if (project !== undefined) await pulumi(["destroy", "--yes"]).catch(() => undefined);
    await reg?.stop();
    sandbox?.cleanup();
    removeScratch();
    timingReport.report();
  });

  it("`pulumi package add terraform-provider <path>` for random, tls, time and local: the Python host generates sdks/<name>, lists it in requirements.txt and installs it", async () => {
    for (const peer of PEERS) {
      const r = await timed(`package add ${peer}`, () => ok(["package", "add", "terraform-provider", peerPath(peer)]));
      expect(r.stdout + r.stderr).toMatch(new RegExp(`Added package ${peer}`));
      expect(r.stdout).toContain(`import pulumi_${peer} as ${peer}`);
      expect(r.stdout + r.stderr).not.toMatch(OUR_STACK);
      const sdk = join(project, "sdks", peer);
      expect(existsSync(join(sdk, "pyproject.toml"))).toBe(true);
      expect(readFileSync(join(sdk, "pyproject.toml"), "utf8")).toMatch(new RegExp(`name = "pulumi_${peer}"`));
      const plugin = JSON.parse(readFileSync(join(sdk, `pulumi_${peer}`, "pulumi-plugin.json"), "utf8")) as Record<string, any>;
      expect(plugin).toMatchObject({ resource: true, name: "terraform-provider", parameterization: { name: peer, version: "0.0.0" } });
      expect(JSON.parse(Buffer.from(plugin["parameterization"]["value"], "base64").toString())).toEqual({ local: { path: peerPath(peer) } });
      // Installed into the project's virtualenv: importable, from the installed copy, with its pulumi-plugin.json.
      const where = venvPython(
        `import json, pulumi_${peer} as p, importlib.resources as r; print(p.__file__); print(json.loads(r.files("pulumi_${peer}").joinpath("pulumi-plugin.json").read_text())["parameterization"]["name"])`,
      )
        .trim()
        .split("\n");
      // A copy in the virtualenv's site-packages (requirements.txt lists the folder; pip installs it, not editable).
      expect(where[0]).toMatch(new RegExp(`^${project}/venv/lib/python3\\.\\d+/site-packages/pulumi_${peer}/__init__\\.py$`));
      expect(where[1]).toBe(peer);
    }
    const requirements = readFileSync(join(project, "requirements.txt"), "utf8");
    console.log(`[language-python] requirements.txt after package add:\n${requirements}`);
    // One plain path line per package, in the order added (pip installs the folder; not `-e`, not editable).
    expect(requirements.split("\n").filter((l) => l.trim() !== "")).toEqual([`pulumi==${PULUMI_PYTHON_SDK}`, ...PEERS.map((p) => `sdks/${p}`)]);
    const freeze = venvPython("import importlib.metadata as m; print('\\n'.join(sorted(d.metadata['Name'] + '==' + d.version for d in m.distributions())))");
    for (const peer of PEERS) expect(freeze).toMatch(new RegExp(`^pulumi[_-]${peer}==0\\.0\\.0$`, "m"));
  }, 600_000);

  it("`pulumi package add terraform-provider -- 127.0.0.1:<port>/hashicorp/random \"~> 3.0\" --provider-name regrandom` from the fake registry", async () => {
    const address = `${reg.host}/hashicorp/random`;
    const r = await timed("package add regrandom (registry)", () => ok(["package", "add", "terraform-provider", "--", address, "~> 3.0", "--provider-name", "regrandom"]));
    expect(r.stdout + r.stderr).toMatch(/Added package regrandom/);
    expect(r.stdout).toContain("import pulumi_regrandom as regrandom");
    const plugin = JSON.parse(readFileSync(join(project, "sdks", "regrandom", "pulumi_regrandom", "pulumi-plugin.json"), "utf8")) as Record<string, any>;
    expect(plugin["parameterization"]).toMatchObject({ name: "regrandom", version: "3.7.2" });
    expect(JSON.parse(Buffer.from(plugin["parameterization"]["value"], "base64").toString())).toEqual({
      // The package's lock hash is pinned in the value (docs/using.md "Lock hashes").
      remote: { url: address, version: "3.7.2", hashes: [expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/), expect.stringMatching(/^zh:[0-9a-f]{64}$/)] },
      providerName: "regrandom",
    });
    expect(readFileSync(join(project, "requirements.txt"), "utf8")).toMatch(/^sdks\/regrandom$/m);
    expect(venvPython("import pulumi_regrandom as r; print(r.Pet.__name__)").trim()).toBe("Pet");
    expect(reg.count(/^\/files\/hashicorp\/random\/3\.7\.2\/.*\.zip$/)).toBe(1);
  }, 600_000);

  it("__main__.py byte-compiles in the virtualenv, and the names it uses are there", () => {
    venvPython("import py_compile; py_compile.compile('__main__.py', doraise=True)");
    venvPython(
      [
        "import pulumi_random as random, pulumi_tls as tls, pulumi_time as time, pulumi_local as local",
        "for n in ['Password', 'Pet', 'String', 'Integer', 'Provider']: getattr(random, n)",
        "for n in ['PrivateKey', 'SelfSignedCert', 'SelfSignedCertSubjectArgs', 'CertRequest', 'get_public_key', 'get_public_key_output']: getattr(tls, n)",
        "time.rfc3339_parse; time.rfc3339_parse_output; local.File",
      ].join("\n"),
    );
  }, 120_000);

  let first: Exported;

  it("`pulumi up` of __main__.py: tls key, cert and CSR with subjects, a secret password, both data source forms, a function, an explicit provider, a real file", async () => {
    await ok(["stack", "init", "dev"]);
    await ok(["config", "set", "filePath", outFile]);
    await ok(["config", "set", "keeper", "one"]);
    await ok(["config", "set", "suffixLength", "8"]);
    const up = await timed("up", () => ok(["up", "--yes"]));
    expect(up.stdout + up.stderr).not.toMatch(OUR_STACK);

    const out = await outputs();
    console.log(`[language-python] stack outputs: ${JSON.stringify(out)}`);
    expect(out["password_result"]).toBe("[secret]");
    expect(out["pet_name"]).toMatch(/^[a-z]+-[a-z]+$/);
    expect(out["reg_pet_name"]).toMatch(/^[a-z]+_[a-z]+$/);
    expect(out["suffix_result"]).toMatch(/^[a-z0-9]{8}$/);
    expect(out["public_keys_agree"]).toBe(true);
    expect(out["parsed_year"]).toBe(2024);
    expect(out["parsed_weekday"]).toBe("Thursday");
    expect(out["parsed_unix"]).toBe(1709210096);
    // An output object exported from Python is serialized under its wire (camelCase) names, as other languages do: the
    // `pulumi` package does so from 3.269.0 on (PULUMI_PYTHON_SDK; up to 3.268 it kept the Python names).
    expect(out["cert_subjects"]).toEqual([expect.objectContaining({ commonName: "example.test", organization: "ACME Test", streetAddresses: ["1 Main St"] })]);
    expect(out["csr_pem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(out["filename"]).toBe(outFile);

    const content = readFileSync(outFile, "utf8");
    expect(content).toContain(`pet=${String(out["pet_name"])}\n`);
    expect(content).toContain(`regpet=${String(out["reg_pet_name"])}\n`);
    expect(content).toContain("-----BEGIN CERTIFICATE-----");

    const secret = (await outputs(true))["password_result"];
    expect(secret).toMatch(/^[A-Za-z0-9]{20}$/);
    first = await exported();
    expect(first.text).not.toContain(String(secret));
    const password = named(first.resources, "password")!;
    expect(password.type).toBe("random:index/password:Password");
    expect(password.inputs).toMatchObject({ length: 20, minUpper: 2, special: false }); // camelCase on the wire
    expect(isSecretEnvelope(password.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(password.outputs?.["bcryptHash"])).toBe(true);
    // The explicit provider instance, and the default providers for the rest.
    const explicit = named(first.resources, "explicit")!;
    expect(explicit.type).toBe("pulumi:providers:random");
    expect(named(first.resources, "pet")!.provider).toBe(`${explicit.urn}::${explicit.id}`);
    expect(named(first.resources, "password")!.provider).toMatch(/::pulumi:providers:random::default/);
    expect(named(first.resources, "regpet")!.type).toBe("regrandom:index/pet:Pet");
    expect(named(first.resources, "cert")!.inputs?.["subjects"]).toEqual([expect.objectContaining({ commonName: "example.test", streetAddresses: ["1 Main St"] })]);
    const file = named(first.resources, "file") as ExportedResource & { dependencies?: string[]; customTimeouts?: Record<string, number> };
    expect(file.customTimeouts).toEqual({ create: 120, delete: 120 });
    // ignore_changes in Python spelling, recorded as the wire (camelCase) names: the SDK translates them.
    expect((named(first.resources, "suffix") as ExportedResource & { ignoreChanges?: string[] }).ignoreChanges).toEqual(["length", "overrideSpecial"]);
    expect(file.dependencies).toEqual(expect.arrayContaining([named(first.resources, "cert")!.urn, named(first.resources, "csr")!.urn]));
    expect(isSecretEnvelope(named(first.resources, "key")!.outputs?.["privateKeyPem"])).toBe(true);
  }, 600_000);

  it("`pulumi preview --expect-no-changes`, then `pulumi refresh` keeps every id and still nothing to change", async () => {
    await timed("preview (no changes)", () => ok(["preview", "--expect-no-changes"]));
    await timed("refresh", () => ok(["refresh", "--yes"]));
    const after = await exported();
    expect(ids(after.resources)).toEqual(ids(first.resources));
    expect(after.text).not.toContain(String((await outputs(true))["password_result"]));
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("a new `keepers` value from stack config replaces the password and the pet; ignore_changes keeps the suffix", async () => {
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
    expect(after["password_result"]).not.toBe(before["password_result"]);
    expect(after["pet_name"]).not.toBe(before["pet_name"]);
    expect(after["suffix_result"]).toBe(before["suffix_result"]);
    expect(readFileSync(outFile, "utf8")).toContain(`pet=${String(after["pet_name"])}\n`);
    const state = await exported();
    expect(state.text).not.toContain(String(after["password_result"]));
    expect(isSecretEnvelope(named(state.resources, "password")!.outputs?.["result"])).toBe(true);
    expect(named(state.resources, "suffix")!.inputs?.["length"]).toBe(8);
    expect(named(state.resources, "key")!.id).toBe(named(first.resources, "key")!.id);
  }, 600_000);

  it("`pulumi import random:index/integer:Integer imp 15,1,50` adopts an integer into the stack and prints Python code", async () => {
    const r = await timed("import", () => ok(["import", "random:index/integer:Integer", "imp", "15,1,50", "--yes", "--protect=false"]));
    expect(r.stdout + r.stderr).not.toMatch(OUR_STACK);
    const imp = named((await exported()).resources, "imp");
    expect(imp?.type).toBe("random:index/integer:Integer");
    expect(imp?.id).toBe("15"); // terraform-provider-random keeps the result as the id
    expect(imp?.outputs).toMatchObject({ result: 15, min: 1, max: 50 });
    // The code `pulumi import` generates for the project's language, from the parameterized package.
    const code = r.stdout.slice(r.stdout.indexOf("import pulumi"));
    console.log(`[language-python] code from pulumi import:\n${code}`);
    expect(r.stdout).toMatch(/import pulumi_random as random/);
    expect(r.stdout).toMatch(/imp = random\.Integer\("imp",/);
    // Terraform numbers are `number` in the schema, so Pulumi's Python generator writes float literals.
    expect(r.stdout).toMatch(/max=float\(50\),\s+min=float\(1\)\)/);
  }, 600_000);

  it("`pulumi destroy` removes everything, and terraform-provider-local deletes the file", async () => {
    expect(existsSync(outFile)).toBe(true);
    await timed("destroy", () => ok(["destroy", "--yes"]));
    expect(existsSync(outFile)).toBe(false);
    expect((await exported()).resources.filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);

  it("bad input from Python: wrong types are check failures naming the properties; an unknown keyword is Python's TypeError; a raw resource's unknown property is a check failure", async () => {
    const good = readFileSync(join(project, "__main__.py"), "utf8");
    const preview = async (what: string, program: string): Promise<string> => {
      writeFileSync(join(project, "__main__.py"), program);
      const r = await timed(`preview (bad input, ${what})`, () => pulumi(["preview"]));
      const text = r.stdout + r.stderr;
      expect(r.code, text).not.toBe(0);
      expect(text).not.toMatch(OUR_STACK);
      console.log(`[language-python] ${what}: errors:\n${errorLines(text)}`);
      return text;
    };
    try {
      // The SDK sends min_upper as minUpper (its camelCase wire name); the provider's check names the wire name.
      const typed = await preview("SDK, wrong types", BAD_PROGRAM);
      expect(typed).toMatch(/random:index:Password \(bad\)/);
      expect(typed).toMatch(/property length value \{long\} has a problem: expected a number, got a string/);
      expect(typed).toMatch(/property minUpper value \{lots\} has a problem: expected a number, got a string/);
      const unknown = await preview("SDK, unknown keyword", UNKNOWN_KWARG_PROGRAM);
      expect(unknown).toMatch(/TypeError: .*unexpected keyword argument 'not_a_property'/);
      const raw = await preview("raw resource", RAW_PROGRAM);
      expect(raw).toMatch(/random:index:Password \(raw\)/);
      expect(raw).toMatch(/notAProperty/);
      expect(raw).toMatch(/min_lower/);
      expect(raw).toMatch(/property minUpper value \{lots\} has a problem/);
    } finally {
      writeFileSync(join(project, "__main__.py"), good);
    }
  }, 600_000);

  it("ephemeral resources and a write-only input from Python: the ephemeral key feeds tls's private_key_pem_wo, stored nowhere; its version drives the replacement", async () => {
    const good = readFileSync(join(project, "__main__.py"), "utf8");
    writeFileSync(join(project, "__main__.py"), EPHEMERAL_PROGRAM);
    try {
      await ok(["config", "set", "woVersion", "1"]);
      await timed("up (ephemeral + write-only)", () => ok(["up", "--yes", "--skip-preview"]));
      const first = await outputs(true);
      expect(first["password"]).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(first["plainLength"]).toBe(24);
      expect(first["csrPem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
      const secretOutputs = await outputs();
      expect(secretOutputs["password"], "the output form keeps the ephemeral result secret").toBe("[secret]");

      const stored = async (): Promise<void> => {
        const text = (await ok(["stack", "export", "--show-secrets"])).stdout;
        expect(text).not.toContain("PRIVATE KEY");
        const csr = named((JSON.parse(text) as { deployment: { resources?: ExportedResource[] } }).deployment.resources ?? [], "wo-csr");
        expect(Object.keys(csr?.inputs ?? {})).not.toContain("privateKeyPemWo");
        expect(filesContaining(sandbox.backend, "PRIVATE KEY")).toEqual([]);
      };
      await stored();
      expect((await ok(["preview", "--expect-no-changes"])).code).toBe(0);

      await ok(["config", "set", "woVersion", "2"]);
      await timed("up (write-only version bumped)", () => ok(["up", "--yes", "--skip-preview"]));
      const second = await outputs(true);
      expect(second["csrPem"]).not.toBe(first["csrPem"]);
      await stored();
      await ok(["destroy", "--yes"]);
    } finally {
      writeFileSync(join(project, "__main__.py"), good);
    }
  }, 600_000);

  it("without pulumi-language-python on PATH, `pulumi package add` and `pulumi preview` fail naming it", async () => {
    const bare = pulumiSandbox();
    try {
      installPlugin(bare);
      const dir = scratch("tfbridge-lang-py-nohost-");
      // The fresh project as `pulumi new` left it, virtualenv included.
      layOutProject(dir, "nohost", "import pulumi\npulumi.export('nothing', 1)\n");
      cpSync(join(project, "venv"), join(dir, "venv"), { recursive: true, verbatimSymlinks: true });
      const nohostEnv = { ...bare.env, PIP_CACHE_DIR: PIP_CACHE, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
      const which = spawnSync("sh", ["-c", "command -v pulumi-language-python || true"], { env: nohostEnv, encoding: "utf8" }).stdout.trim();
      expect(which, "pulumi-language-python must not be on the bare sandbox's PATH").toBe("");
      const add = await timed("package add without the host", () => runPulumi(["package", "add", "terraform-provider", peerPath("random")], { cwd: dir, env: nohostEnv }));
      const addText = add.stdout + add.stderr;
      console.log(`[language-python] package add without pulumi-language-python exited ${add.code}:\n${addText}`);
      expect(add.code, addText).not.toBe(0);
      expect(addText).toMatch(/pulumi-language-python/);
      expect(addText).not.toMatch(OUR_STACK);
      expect(readFileSync(join(dir, "requirements.txt"), "utf8")).toBe(`pulumi==${PULUMI_PYTHON_SDK}\n`);
      expect(existsSync(join(dir, "sdks", "random", "pyproject.toml"))).toBe(false);

      expectSuccess(await runPulumi(["stack", "init", "dev"], { cwd: dir, env: nohostEnv }), "stack init");
      const up = await runPulumi(["preview"], { cwd: dir, env: nohostEnv });
      const upText = up.stdout + up.stderr;
      console.log(`[language-python] preview without pulumi-language-python exited ${up.code}:\n${upText}`);
      expect(up.code, upText).not.toBe(0);
      expect(upText).toMatch(/pulumi-language-python/);
    } finally {
      bare.cleanup();
    }
  }, 600_000);

  it("an explicit httpapi.Provider with a setting of every kind, JSON-encoded by the SDK: getSettings echoes them decoded, the stored routes stay secret, no change on preview", async () => {
    await timed("package add httpapi", () => ok(["package", "add", "terraform-provider", peerPath("httpapi")]));
    const good = readFileSync(join(project, "__main__.py"), "utf8");
    writeFileSync(join(project, "__main__.py"), SETTINGS_PROGRAM);
    try {
      await ok(["stack", "init", "settings"]);
      await timed("up (explicit httpapi provider)", () => ok(["up", "--yes", "--skip-preview"]));
      expect(JSON.parse((await outputs())["fromExplicit"] as string)).toEqual(EXPLICIT_ECHO);
      const state = await exported();
      expectStoredExplicitProvider(state.resources, state.text);
      await timed("preview --expect-no-changes (explicit httpapi provider)", () => ok(["preview", "--expect-no-changes"]));
      await ok(["destroy", "--yes", "--skip-preview"]);
      expect((await exported()).resources.filter((r) => r.custom === true)).toEqual([]);
    } finally {
      writeFileSync(join(project, "__main__.py"), good);
      await pulumi(["stack", "select", "dev"]);
    }
  }, 600_000);
});
