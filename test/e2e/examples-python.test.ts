// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as renderPython writes it, byte-compiles (`python -m py_compile`) and type-checks with `mypy --strict`
// against the Python SDK `pulumi package gen-sdk --language python` generates from the same full-docs schema, with the
// pulumi SDK from PyPI (PULUMI_PYTHON_SDK) beside it, and is laid out so that black leaves it as it is
// (`black --check`: docs read like formatted code); so does the repeated-resources program (LOOP_PROGRAM, count and
// for_each) the upstream examples have no case of. Prints per peer: examples found, converted, compiling.
//
// The checker is mypy 1.18.2 from PyPI: a real checker that reads the SDKs' annotations (both ship py.typed), so it
// checks keyword arguments, the keys and value types of nested objects given as dicts (the SDK's `...ArgsDict`
// TypedDicts), attribute names and function signatures; pure Python, so pip installs it with nothing else (pyright
// would fetch its npm package on first use). Pinned, as black 24.10.0 is, so a new release cannot change the verdict.
// mypy, black and pulumi live in one virtualenv cached in ~/.cache/pulumi-tf-bridge-ts/python-check/ (pip's cache beside it, as
// language-python.test.ts has it), so reruns download nothing.
//
// Errors inside the generated SDK are excluded (`ignore_errors` for `pulumi_<peer>.*`): Pulumi's generator writes code
// mypy faults even without --strict (`__args__ = dict()` typed by its first entry, then given other types) and much
// more with it (unannotated methods, `pulumi.get` returning Any). The example files get no such allowance.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildProviderModel } from "../../src/schema-translate/build.js";
import { convertExample } from "../../src/schema-translate/examples/index.js";
import type { PathStep, Program, Value } from "../../src/schema-translate/examples/program.js";
import { renderPython } from "../../src/schema-translate/examples/python.js";
import { pythonPackage, pythonPropertyName, tokenModule, tokenName } from "../../src/schema-translate/names.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { EXAMPLE_PEERS, LOOP_PROGRAM, peerExamples, peerModel, peerSchemaFile, type ExamplePeer, type PeerExample } from "../support/examples.js";
import { hostsMissing } from "../support/languages.js";
import { peerPath } from "../support/peers.js";
import { removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { execAsync, spawnAsync } from "../support/processes.js";
import { PULUMI_PYTHON_SDK } from "../support/python.js";
import { expectSuccess, runPulumi } from "../support/pulumi.js";

const MYPY = "1.18.2";
const BLACK = "24.10.0";
const CACHE = join(homedir(), ".cache/pulumi-tf-bridge-ts");
const PIP_CACHE = join(CACHE, "pip");

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

const pipEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_CACHE_DIR: PIP_CACHE, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  delete env["VIRTUAL_ENV"];
  delete env["PYTHONPATH"];
  return env;
};

let venv: Promise<string> | undefined;

/**
 * The Python of a virtualenv with pulumi, mypy and black, made once per machine: built beside its final place and renamed
 * into it, so an interrupted install never leaves a half-made one to be reused.
 */
function checkerPython(): Promise<string> {
  venv ??= (async () => {
    const dir = join(CACHE, "python-check", `pulumi-${PULUMI_PYTHON_SDK}-mypy-${MYPY}-black-${BLACK}`);
    const python = join(dir, "venv", "bin", "python");
    if (existsSync(python)) return python;
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `venv.tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    await execAsync("python3", ["-m", "venv", tmp], { env: pipEnv() });
    await execAsync(join(tmp, "bin", "python"), ["-m", "pip", "install", "--quiet", `pulumi==${PULUMI_PYTHON_SDK}`, `mypy==${MYPY}`, `black==${BLACK}`], { env: pipEnv() });
    // Moved whole; the virtualenv's scripts would keep the old path, so it is only ever run as `python -m`.
    if (!existsSync(python)) renameSync(tmp, join(dir, "venv"));
    else rmSync(tmp, { recursive: true, force: true });
    return python;
  })();
  return venv;
}

/** `pulumi package gen-sdk <schema> --language python`: the SDK's folder (holding the `pulumi_<peer>` package). */
async function pythonSdk(peer: ExamplePeer, dir: string): Promise<string> {
  const env = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
  const out = join(dir, "gen");
  const args = ["package", "gen-sdk", await peerSchemaFile(peer), "--language", "python", "--out", out];
  expectSuccess(await runPulumi(args, { cwd: dir, env: withLanguageHosts(env) }), `pulumi ${args.join(" ")}`);
  const sdk = join(out, "python");
  expect(existsSync(join(sdk, `pulumi_${peer}`, "py.typed")), `pulumi_${peer} is typed`).toBe(true);
  return sdk;
}

/**
 * For each peer, a program with what the upstream examples leave out: an explicit provider, depends_on (on a data
 * source, and on repeated resources, too), two for_each maps of values of different types and a count from config,
 * configuration with and without defaults, templates holding Outputs, each builtin on plain values and on Outputs, a
 * number where a string is wanted, nested blocks, provider functions' plain and object results. Written as
 * `constructs.py` beside the examples and checked with them; not counted in the figures.
 */
const CONSTRUCTS: Record<ExamplePeer, string> = {
  random: `
variable "keeper" {}
variable "len" {
  type = number
}
provider "random" {}
resource "random_pet" "pet" {
  keepers = { k = var.keeper, n = var.len }
  length  = var.len
}
resource "random_password" "pw" {
  length           = random_pet.pet.length
  special          = false
  override_special = random_pet.pet.prefix
  keepers          = random_pet.pet.keepers
}
resource "random_shuffle" "s" {
  input        = [random_pet.pet.id, "b", var.keeper]
  result_count = 1
  depends_on   = [random_password.pw]
}
resource "random_id" "ids" {
  for_each    = { a = 4, b = 8 }
  byte_length = each.value
  prefix      = each.key
  keepers     = { size = each.value, at = "\${each.key}-\${each.value}" }
}
resource "random_string" "named" {
  for_each   = { a = "x", b = "y" }
  length     = 4
  special    = false
  keepers    = { v = each.value, id = random_id.ids["a"].hex }
  depends_on = [random_id.ids]
}
resource "random_pet" "pets" {
  count      = var.len
  length     = count.index
  keepers    = { i = count.index }
  depends_on = [random_string.named, random_password.pw]
}
resource "random_uuid" "after" {
  depends_on = [random_pet.pets, random_id.ids]
}
output "first" {
  value = random_shuffle.s.result[0]
}
output "b" {
  value = random_id.ids.b.hex
}
output "k" {
  value = random_pet.pet.keepers["k"]
}
output "msg" {
  value = "len \${var.len} pet \${random_pet.pet.id}"
}
`,
  tls: `
variable "org" {
  type    = string
  default = "ACME"
}
variable "hours" {
  type    = number
  default = 12
}
variable "ca" {
  type    = bool
  default = false
}
resource "tls_private_key" "key" {
  algorithm = "RSA"
  rsa_bits  = 4096
}
data "tls_public_key" "pub" {
  private_key_pem = tls_private_key.key.private_key_pem
}
resource "tls_self_signed_cert" "cert" {
  private_key_pem       = trimspace(tls_private_key.key.private_key_pem)
  validity_period_hours = var.hours
  is_ca_certificate     = var.ca
  allowed_uses          = ["key_encipherment", "digital_signature", "server_auth"]
  dns_names             = ["\${var.org}.example.com", "x-\${tls_private_key.key.id}"]
  subject {
    common_name    = "\${var.org} \${var.hours}"
    organization   = jsonencode({ a = var.org, b = [1, 2], c = tls_private_key.key.id })
    street_address = [trimspace(file("~/street.txt"))]
  }
  depends_on = [data.tls_public_key.pub, tls_private_key.key]
}
resource "tls_cert_request" "csr" {
  private_key_pem = jsondecode(jsonencode({ pem = "x" }))
  subject {
    common_name   = tls_self_signed_cert.cert.subject[0].common_name
    serial_number = tls_self_signed_cert.cert.validity_period_hours
  }
}
output "fingerprint" {
  value = data.tls_public_key.pub.public_key_fingerprint_md5
}
output "decoded" {
  value = jsondecode(tls_cert_request.csr.cert_request_pem)
}
output "both" {
  value = "\${tls_self_signed_cert.cert.cert_pem}\${tls_cert_request.csr.cert_request_pem}"
}
`,
  time: `
resource "time_static" "s" {}
resource "time_offset" "o" {
  base_rfc3339 = time_static.s.rfc3339
  offset_days  = time_static.s.day
  triggers = {
    year = time_static.s.year
    id   = time_static.s.id
  }
}
output "parsed" {
  value = provider::time::rfc3339_parse(time_offset.o.rfc3339)
}
output "unix" {
  value = provider::time::unix_timestamp_parse(time_static.s.unix)
}
`,
  local: `
resource "local_file" "f" {
  filename        = "out.txt"
  content         = "a\\nb\\n\\"c\\""
  file_permission = "0644"
}
data "local_file" "r" {
  filename = local_file.f.filename
}
resource "local_file" "flag" {
  filename = "flag.txt"
  content  = provider::local::direxists("/tmp")
}
output "content" {
  value = trimspace(data.local_file.r.content)
}
`,
  http: `
data "http" "x" {
  url = "https://example.com"
  request_headers = {
    Accept         = "application/json"
    "X-Multi-Word" = "v"
  }
  retry {
    attempts = 3
  }
}
output "status" {
  value = data.http.x.status_code
}
output "body" {
  value = jsondecode(data.http.x.response_body)
}
`,
};

/** CONSTRUCTS[peer] in Python, converted against the peer's own schema as the examples are. */
async function constructsProgram(peer: ExamplePeer): Promise<Program> {
  const provider = await GrpcTerraformProvider.launch({ path: peerPath(peer) });
  try {
    const model = buildProviderModel(await provider.getProviderSchema(), { packageName: peer, packageVersion: "1.0.0" });
    const conversion = convertExample(CONSTRUCTS[peer], model);
    if (!conversion.ok) throw new Error(`CONSTRUCTS.${peer} was not converted: ${conversion.reason}`);
    return conversion.program;
  } finally {
    await provider.close();
  }
}

/** Every reference in a program's values. */
function refsOf(program: Program): { node: string; path: PathStep[] }[] {
  const out: { node: string; path: PathStep[] }[] = [];
  const walk = (v: Value): void => {
    if (v.kind === "ref") out.push(v);
    else if (v.kind === "list") v.items.forEach(walk);
    else if (v.kind === "map") v.entries.forEach((e) => walk(e.value));
    else if (v.kind === "object") v.properties.forEach((p) => walk(p.value));
    else if (v.kind === "template") v.parts.forEach((p) => typeof p !== "string" && walk(p));
    else if (v.kind === "call") v.args.forEach(walk);
  };
  for (const n of program.nodes) walk(n.args);
  for (const o of program.outputs) walk(o.value);
  return out;
}

/**
 * The attribute paths an example reads through Outputs, typed. Outputs lift `.attr`, `[i]` and `["key"]`, which mypy
 * sees as `Output[Any]` and cannot check, so each path is read again from the typed values behind it (a resource's
 * property types, a function's plain result) by functions never called: a misspelled step fails mypy here.
 */
function pathProbes(program: Program): string {
  const nodes = new Map(program.nodes.map((n) => [n.variable, n]));
  const probes: string[] = [];
  for (const { node, path } of refsOf(program)) {
    const n = nodes.get(node);
    if (n === undefined || n.kind === "provider" || n.entity.foreign || path.length === 0) continue;
    const module = tokenModule(n.entity.token);
    const base = [pythonPackage(n.entity.pkg).alias, ...(module === "index" ? [] : [module])].join(".");
    // A repeated resource's instance is typed as the resource is: its index or key step picks it out of a plain list or dict.
    const [first, ...rest] = n.kind === "resource" && n.loop !== undefined ? path.slice(1) : path;
    if (first?.kind !== "property") continue;
    let code =
      n.kind === "resource"
        ? `_o(${base}.${tokenName(n.entity.token)}("probe").${pythonPropertyName(first.name)})`
        : `${base}.${pythonPropertyName(tokenName(n.entity.token))}().${pythonPropertyName(first.name)}`;
    for (const step of rest) {
      if (step.kind === "property") code = `_v(${code}).${pythonPropertyName(step.name)}`;
      else if (step.kind === "index") code = `_v(${code})[${step.index}]`;
      else code = `_v(${code})[${JSON.stringify(step.key)}]`;
    }
    probes.push(`def probe${probes.length}() -> object:\n    return ${code}\n`);
  }
  if (probes.length === 0) return "";
  const imports = [...new Set(program.nodes.filter((n) => n.kind !== "provider").map((n) => pythonPackage(n.entity.pkg)))];
  return [
    "from typing import Optional, TypeVar",
    "",
    "import pulumi",
    ...imports.map((p) => `import ${p.module} as ${p.alias}`),
    "",
    'T = TypeVar("T")',
    "",
    "",
    "def _v(x: Optional[T]) -> T:",
    "    raise NotImplementedError",
    "",
    "",
    "def _o(x: pulumi.Output[T]) -> T:",
    "    raise NotImplementedError",
    "",
    "",
    probes.join("\n\n"),
  ].join("\n");
}

/**
 * Writes each example as `example<i>.py` (a module of its own, as each is its own program), and its path probes as
 * `example<i>_paths.py`; returns the file names.
 */
function writeExamples(dir: string, examples: PeerExample[]): string[] {
  return examples.flatMap((e, i) => {
    if (!e.conversion.ok) throw new Error(`${e.page} #${e.index} was not converted`);
    const file = `example${i}.py`;
    writeFileSync(join(dir, file), `# ${e.page} #${e.index}\n${renderPython(e.conversion.program)}`);
    const probes = pathProbes(e.conversion.program);
    if (probes === "") return [file];
    writeFileSync(join(dir, `example${i}_paths.py`), `# ${e.page} #${e.index}: the paths it reads through Outputs\n${probes}`);
    return [file, `example${i}_paths.py`];
  });
}

describe.skipIf(hostsMissing()).each(EXAMPLE_PEERS)("%s examples in Python", (peer) => {
  it("byte-compile, pass mypy --strict against the generated SDK, and are black-formatted", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const dir = scratch(`tfbridge-examples-py-${peer}-`);
    const [python, sdk] = await Promise.all([checkerPython(), pythonSdk(peer, dir)]);
    const project = join(dir, "project");
    mkdirSync(project);
    const files = writeExamples(project, compilable);
    const constructs = await constructsProgram(peer);
    writeFileSync(join(project, "constructs.py"), renderPython(constructs));
    writeFileSync(join(project, "constructs_paths.py"), pathProbes(constructs));
    files.push("constructs.py", "constructs_paths.py");
    const loopSource = LOOP_PROGRAM[peer];
    if (loopSource !== undefined) {
      const loops = convertExample(loopSource, await peerModel(peer));
      expect(loops.ok && loops.code.python !== undefined, loops.ok ? "no Python rendering" : loops.reason).toBe(true);
      if (loops.ok) {
        writeFileSync(join(project, "loops.py"), renderPython(loops.program));
        writeFileSync(join(project, "loops_paths.py"), pathProbes(loops.program));
        files.push("loops.py", "loops_paths.py");
      }
    }
    writeFileSync(join(project, "mypy.ini"), `[mypy]\nstrict = True\nmypy_path = ${sdk}\ncache_dir = ${join(dir, "mypy-cache")}\n\n[mypy-pulumi_${peer}.*]\nignore_errors = True\n`);

    const failures: string[] = [];
    const failed = new Set<string>();
    {
      const compiled = await spawnAsync(python, ["-m", "py_compile", ...files], { cwd: project, env: pipEnv() });
      if (compiled.status !== 0) failures.push(`python -m py_compile:\n${compiled.stdout}${compiled.stderr}`);
      const checked = await spawnAsync(python, ["-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary", ...files], { cwd: project, env: pipEnv() });
      if (checked.status !== 0) failures.push(`mypy --strict:\n${checked.stdout}${checked.stderr}`);
      for (const m of `${compiled.stdout}${compiled.stderr}${checked.stdout}`.matchAll(/(example\d+|loops)(?:_paths)?\.py/g)) failed.add(m[1]!);
      const formatted = await spawnAsync(python, ["-m", "black", "--check", "--diff", "--quiet", ...files.filter((f) => !f.endsWith("_paths.py"))], { cwd: project, env: pipEnv() });
      if (formatted.status !== 0) failures.push(`black --check (the layout only; not counted against compiling):\n${formatted.stdout}${formatted.stderr}`);
    }
    const compiling = compilable.length - [...failed].filter((f) => f !== "loops").length;
    const loopFigure = loopSource === undefined ? "" : `; repeated-resources program ${failed.has("loops") ? "failing" : "compiling"}`;
    figures.push(`[examples-python] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}), compiling ${compiling}${loopFigure}`);
    expect(failures.join("\n"), `${peer}'s examples in Python (files in ${project})`).toBe("");
    expect(compiling).toBe(compilable.length);
    expect(compilable.length).toBeGreaterThan(0);
  }, 900_000);
});
