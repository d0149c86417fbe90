// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as renderJava writes it, compiles with javac (through Maven, as a Pulumi Java project builds) against
// the Java SDK `pulumi package gen-sdk --language java` generates from the same full-docs schema, with com.pulumi:pulumi
// 1.36.1 from Maven Central and the two libraries generated SDKs list (jsr305, gson), as language-java.test.ts pins
// them. Per peer one Maven project holds the SDK's sources and each example as a package of its own
// (`generated_program_<n>`, the program's `package generated_program;` renamed), so one javac run checks them all.
// Prints per peer: examples found, converted, compiling.
//
// The upstream examples are few and simple (a resource or two, rarely a reference), so each peer's project also holds a
// program of our own written to reach what they do not: references through the SDK's Optionals (nested blocks, list
// indexes, map keys, data source and ephemeral results), Outputs inside lists, maps, templates and jsonencode, provider
// functions given Outputs, config of each type, depends_on, an explicit provider. It must convert and compile too.
// An example Java cannot express (renderJava's ConversionError: a provider function's plain result, which Java SDKs
// type as Output<Void>) is left out of Java's chooser; the figure line counts and names those.
// And a program made from the model: every resource, data source and ephemeral resource with every input set (nested
// objects to any depth) and every string its results reach (through lists, maps and nested objects) trimmed, which
// compiles only if each setter and getter is named as the SDK names it and each Optional is where the SDK has one.
// Random and tls also compile the repeated-resources program (LOOP_PROGRAM: count, for_each over a map and a set,
// references to instances by index and key), which the upstream examples have no case of, and random a program of
// the loop constructs only Java writes (LOOP_CONSTRUCTS).
//
// Maven's downloads stay in ~/.m2: once the artifacts are there, Maven runs offline (`-o`).
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderJava } from "../../src/schema-translate/examples/java.js";
import { convertExample, exampleProgram } from "../../src/schema-translate/examples/index.js";
import { ConversionError, type ObjectValue, type PathStep, type Program, type ProgramNode, type Value } from "../../src/schema-translate/examples/program.js";
import type { ProviderModel } from "../../src/schema-translate/index.js";
import type { PropertyModel, TypeModel } from "../../src/schema-translate/model.js";
import { EXAMPLE_PEERS, LOOP_PROGRAM, peerExamples, peerModel, peerSchemaFile, type PeerExample } from "../support/examples.js";
import { hostsMissing, javaHost, javaHostMissing } from "../support/languages.js";
import { removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { spawnAsync } from "../support/processes.js";
import { expectSuccess, runPulumi } from "../support/pulumi.js";

const JAVA_SDK = "1.36.1";
const DEPENDENCIES = [
  ["com.pulumi", "pulumi", JAVA_SDK],
  ["com.google.code.findbugs", "jsr305", "3.0.2"],
  ["com.google.code.gson", "gson", "2.8.9"],
] as const;
const COMPILER_PLUGIN = "3.5.1";
const M2 = join(homedir(), ".m2", "repository");

/** Per peer, HCL reaching the constructs the upstream examples leave out. */
const CONSTRUCTS: Record<(typeof EXAMPLE_PEERS)[number], string> = {
  random: `
variable "len" {
  type = number
}
variable "wanted" {
  type    = bool
  default = true
}
resource "random_id" "i" {
  byte_length = 8
  keepers     = { a = "b" }
}
resource "random_integer" "n" {
  min = 1
  max = 5
}
resource "random_string" "s" {
  length    = 10
  min_lower = random_integer.n.result
  special   = var.wanted
}
resource "random_pet" "p" {
  keepers = {
    id    = random_id.i.hex
    plain = "x"
    n     = var.len
  }
  length = var.len
  prefix = random_string.s.result
}
resource "random_shuffle" "sh" {
  input        = ["a", random_pet.p.id, random_id.i.b64_std]
  result_count = random_integer.n.result
  depends_on   = [random_pet.p]
}
ephemeral "random_password" "pw" {
  length = random_integer.n.result
}
output "first" {
  value = random_shuffle.sh.result[0]
}
output "pw" {
  value = ephemeral.random_password.pw.result
}
output "keeper" {
  value = random_pet.p.keepers["id"]
}
`,
  tls: `
variable "org" {
  default = "ACME"
}
variable "hours" {
  type    = number
  default = 12
}
provider "tls" {
  proxy {
    url = "http://proxy"
  }
}
resource "tls_private_key" "ca" {
  algorithm = "RSA"
  rsa_bits  = 4096
}
resource "tls_self_signed_cert" "ca" {
  private_key_pem       = tls_private_key.ca.private_key_pem
  is_ca_certificate     = true
  validity_period_hours = var.hours
  allowed_uses          = ["cert_signing", tls_private_key.ca.algorithm, "web-\${tls_private_key.ca.id}"]
  dns_names             = [tls_private_key.ca.public_key_fingerprint_md5]
  subject {
    common_name    = "ca-\${var.org}"
    organization   = var.org
    street_address = ["a", tls_private_key.ca.algorithm]
  }
}
data "tls_certificate" "site" {
  url          = "https://example.com"
  verify_chain = true
}
resource "tls_cert_request" "req" {
  private_key_pem = trimspace(tls_private_key.ca.private_key_pem)
  subject {
    common_name  = tls_self_signed_cert.ca.subject[0].common_name
    organization = jsonencode({ a = tls_self_signed_cert.ca.cert_pem, b = [1, 2.5, true], c = { d = var.hours } })
    country      = data.tls_certificate.site.certificates[0].serial_number
  }
  depends_on = [tls_self_signed_cert.ca, data.tls_certificate.site]
}
data "tls_public_key" "pub" {
  private_key_pem = tls_private_key.ca.private_key_pem
}
ephemeral "tls_private_key" "eph" {
  algorithm = "ECDSA"
}
resource "tls_cert_request" "wo" {
  private_key_pem_wo         = ephemeral.tls_private_key.eph.private_key_pem
  private_key_pem_wo_version = 1
}
output "all_certs" {
  value = data.tls_certificate.site.certificates
}
output "fingerprints" {
  value = "\${data.tls_public_key.pub.public_key_fingerprint_sha256} / \${tls_self_signed_cert.ca.validity_end_time}"
}
output "subject_cn" {
  value = tls_self_signed_cert.ca.subject[0].common_name
}
output "dns0" {
  value = tls_self_signed_cert.ca.dns_names[0]
}
output "hours" {
  value = var.hours
}
`,
  time: `
resource "time_static" "t" {}
resource "time_offset" "o" {
  base_rfc3339 = time_static.t.rfc3339
  offset_days  = 7
  triggers     = { t = time_static.t.id }
}
resource "time_sleep" "s" {
  create_duration = "30s"
  depends_on      = [time_offset.o]
}
output "year" {
  value = time_offset.o.year
}
output "parsed" {
  value = provider::time::rfc3339_parse(time_static.t.rfc3339)
}
output "duration" {
  value = provider::time::duration_parse("\${time_offset.o.offset_days}h")
}
`,
  local: `
resource "local_file" "f" {
  filename        = "\${path.module}/out.txt"
  content         = jsonencode([1, [2, 3], null])
  file_permission = "0644"
}
data "local_file" "r" {
  filename = local_file.f.filename
}
resource "local_sensitive_file" "g" {
  filename = "g.txt"
  content  = file(local_file.f.filename)
}
output "content" {
  value = data.local_file.r.content
}
`,
  http: `
data "http" "h" {
  url = "https://example.com"
  request_headers = {
    Accept = "application/json"
  }
  retry {
    attempts = 2
  }
}
output "status" {
  value = data.http.h.status_code
}
output "content_type" {
  value = data.http.h.response_headers["Content-Type"]
}
output "decoded" {
  value = jsondecode(data.http.h.response_body)
}
`,
};

/**
 * Repeated resources as only Java writes them: a lambda reading the index (then of an effectively final copy), the index
 * and a map's values converted where they go, a for_each over values of several types (strings, as Terraform makes
 * them), depends_on a repeated resource alone and with another (a List<Resource> built from them).
 */
const LOOP_CONSTRUCTS = `
resource "random_id" "base" {
  byte_length = 4
}
resource "random_pet" "counted" {
  count   = 2
  length  = count.index
  keepers = { id = random_id.base.hex, n = count.index }
  prefix  = "p-\${count.index}-\${random_id.base.hex}"
}
resource "random_string" "mixed" {
  for_each   = { a = "x", b = 1 }
  length     = 3
  keepers    = { v = each.value, k = each.key, pet = random_pet.counted[1].id }
  depends_on = [random_pet.counted, random_id.base]
}
resource "random_integer" "keyed" {
  for_each   = { small = 5, big = 50 }
  min        = 1
  max        = each.value
  keepers    = { max = each.value }
  depends_on = [random_string.mixed]
}
output "b" {
  value = random_string.mixed.b.result
}
output "big" {
  value = random_integer.keyed["big"].result
}
`;

/** A value of the type: one item in a list, one key in a map, every input of an object. */
function sample(t: TypeModel, depth: number): Value {
  switch (t.kind) {
    case "string":
    case "any":
      return { kind: "string", value: "x", type: t };
    case "number":
      return { kind: "number", value: 1, type: t };
    case "boolean":
      return { kind: "bool", value: true, type: t };
    case "array":
      return { kind: "list", items: [sample(t.items, depth + 1)], type: t };
    case "map":
      return { kind: "map", entries: [{ key: "k", value: sample(t.values, depth + 1) }], type: t };
    case "object":
      return { ...inputs(t.ref.properties, depth + 1), objectType: t.ref, type: t };
  }
}

const inputs = (props: readonly PropertyModel[], depth: number): ObjectValue => ({
  kind: "object",
  properties: depth > 5 ? [] : props.filter((p) => p.input).map((p) => ({ tfName: p.tfName, name: p.name, value: sample(p.type, depth) })),
});

/** `trimspace` of every string a node's results reach, through the first item of lists and a key of maps. */
function trimmed(node: string, props: readonly PropertyModel[], path: PathStep[] = [], depth = 0): Value[] {
  return props.flatMap((p) => {
    let steps: PathStep[] = [...path, { kind: "property", tfName: p.tfName, name: p.name }];
    let t = p.type;
    if (t.kind === "array") [steps, t] = [[...steps, { kind: "index", index: 0 }], t.items];
    else if (t.kind === "map") [steps, t] = [[...steps, { kind: "key", key: "k" }], t.values];
    if (t.kind === "string") return [{ kind: "call", fn: "trimspace", args: [{ kind: "ref", node, path: steps }] } satisfies Value];
    return t.kind === "object" && depth < 4 ? trimmed(node, t.ref.properties, steps, depth + 1) : [];
  });
}

/** Every resource, data source and ephemeral resource of the model with every input set, and every string of theirs read. */
function everyPropertyProgram(model: ProviderModel): Program {
  const nodes: ProgramNode[] = [{ kind: "provider", name: model.name, variable: "provider", pkg: model.name, args: inputs(model.config, 0), properties: model.config }];
  const reads: Value[] = [];
  for (const r of model.resources.values()) {
    const variable = `resource${nodes.length}`;
    nodes.push({ kind: "resource", name: variable, variable, entity: { pkg: model.name, token: r.token, properties: r.properties, foreign: false }, args: inputs(r.properties, 0), dependsOn: [] });
    reads.push(...trimmed(variable, r.properties));
  }
  for (const [role, functions] of [["dataSource", model.dataSources], ["ephemeral", model.ephemeralResources]] as const) {
    for (const d of functions.values()) {
      const variable = `invoke${nodes.length}`;
      nodes.push({ kind: "invoke", role, name: variable, variable, entity: { pkg: model.name, token: d.token, properties: d.properties, foreign: false }, args: inputs(d.properties, 0) });
      reads.push(...trimmed(variable, d.properties));
    }
  }
  return { pkg: model.name, config: [], nodes, outputs: reads.map((value, i) => ({ name: `read${i}`, value })), otherProviders: [], goImports: {} };
}

/** A rendered program in a package of its own. */
function writeProgram(project: string, pkg: string, code: string): void {
  const dir = join(project, "src", "main", "java", pkg);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "App.java"), code.replace(/^package generated_program;/m, `package ${pkg};`));
}

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

const dependency = ([group, artifact, version]: readonly string[]): string =>
  `        <dependency>\n            <groupId>${group}</groupId>\n            <artifactId>${artifact}</artifactId>\n            <version>${version}</version>\n        </dependency>\n`;

/** A Maven project compiling src/main/java at Java 11, the level of the pom `pulumi new java` writes. */
const POM = (peer: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>com.pulumi</groupId>
    <artifactId>examples-${peer}</artifactId>
    <version>0.0.0</version>
    <properties>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    </properties>
    <dependencies>
${DEPENDENCIES.map(dependency).join("")}    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>${COMPILER_PLUGIN}</version>
                <configuration>
                    <source>11</source>
                    <target>11</target>
                    <compilerArgs><arg>-Xmaxerrs</arg><arg>10000</arg></compilerArgs>
                </configuration>
            </plugin>
        </plugins>
    </build>
</project>
`;

/** Whether ~/.m2 holds what the project needs, so Maven can run offline. */
function mavenCached(): boolean {
  const jar = ([group, artifact, version]: readonly string[]): string => join(M2, ...group!.split("."), artifact!, version!, `${artifact}-${version}.jar`);
  return DEPENDENCIES.every((d) => existsSync(jar(d))) && existsSync(jar(["org.apache.maven.plugins", "maven-compiler-plugin", COMPILER_PLUGIN]));
}

/** `pulumi package gen-sdk <schema> --language java`: the generated sources' folder (src/main). */
async function javaSdk(peer: (typeof EXAMPLE_PEERS)[number], dir: string): Promise<string> {
  const host = javaHost();
  if ("missing" in host) throw new Error(host.missing);
  const env = withLanguageHosts({ ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" });
  env["PATH"] = `${host.dir}:${env["PATH"] ?? ""}`;
  const out = join(dir, "gen");
  const args = ["package", "gen-sdk", await peerSchemaFile(peer), "--language", "java", "--out", out];
  expectSuccess(await runPulumi(args, { cwd: dir, env }), `pulumi ${args.join(" ")}`);
  const main = join(out, "java", "src", "main");
  expect(existsSync(join(main, "java", "com", "pulumi", peer, "Provider.java")), `${peer}'s Java SDK`).toBe(true);
  return main;
}

/**
 * Each example as src/main/java/generated_program_<i>/App.java, headed by where it comes from; returns those Java cannot
 * express (renderJava's ConversionError, which leaves Java out of the example's chooser) with the reason.
 */
function writeExamples(project: string, examples: PeerExample[]): string[] {
  const leftOut: string[] = [];
  examples.forEach((e, i) => {
    if (!e.conversion.ok) throw new Error(`${e.page} #${e.index} was not converted`);
    let code: string;
    try {
      code = renderJava(e.conversion.program);
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      leftOut.push(`${e.page} #${e.index}: ${err.message}`);
      return;
    }
    const dir = join(project, "src", "main", "java", `generated_program_${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "App.java"), `// ${e.page} #${e.index}\n${code.replace(/^package generated_program;/m, `package generated_program_${i};`)}`);
  });
  return leftOut;
}

describe.skipIf(hostsMissing() || javaHostMissing()).each(EXAMPLE_PEERS)("%s examples in Java", (peer) => {
  it("compile with javac against the generated SDK", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const dir = scratch(`tfbridge-examples-java-${peer}-`);
    const project = join(dir, "project");
    mkdirSync(project);
    cpSync(await javaSdk(peer, dir), join(project, "src", "main"), { recursive: true });
    const leftOut = writeExamples(project, compilable);
    const rendered = compilable.length - leftOut.length;
    const model = await peerModel(peer);
    writeProgram(project, "constructs", renderJava(exampleProgram(CONSTRUCTS[peer], model)));
    writeProgram(project, "every", renderJava(everyPropertyProgram(model)));
    const loops = LOOP_PROGRAM[peer];
    if (loops !== undefined) {
      const c = convertExample(loops, model);
      expect(c.ok && c.code.java !== undefined, c.ok ? c.skipped.map((s) => `${s.language}: ${s.reason}`).join("; ") : c.reason).toBe(true);
      if (c.ok && c.code.java !== undefined) writeProgram(project, "loops", c.code.java);
    }
    const loopConstructs = peer === "random";
    if (loopConstructs) writeProgram(project, "loopconstructs", renderJava(exampleProgram(LOOP_CONSTRUCTS, model)));
    writeFileSync(join(project, "pom.xml"), POM(peer));

    const mvn = (offline: boolean): Promise<{ status: number | null; stdout: string; stderr: string }> =>
      spawnAsync("mvn", ["-q", "--batch-mode", "--no-transfer-progress", ...(offline ? ["-o"] : []), "compile"], { cwd: project, env: process.env });
    let compiled = await mvn(mavenCached());
    // A cache missing something Maven needs (a plugin's own dependency): once more online, which fills it.
    if (compiled.status !== 0 && /offline mode|Cannot access .* in offline/i.test(compiled.stdout)) compiled = await mvn(false);
    const output = `${compiled.stdout}${compiled.stderr}`;
    const failed = new Set([...output.matchAll(/generated_program_(\d+)\/App\.java/g)].map((m) => m[1]!));
    const verdict = (pkg: string): string => (new RegExp(`/${pkg}/App\\.java`).test(output) ? "failing" : "compiling");
    figures.push(
      `[examples-java] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}${leftOut.length > 0 ? `, ${leftOut.length} left out of Java` : ""}), compiling ${rendered - failed.size}; constructs program ${verdict("constructs")}, every-property program ${verdict("every")}${loops !== undefined ? `, repeated-resources program ${verdict("loops")}` : ""}${loopConstructs ? `, loop-constructs program ${verdict("loopconstructs")}` : ""}`,
      ...leftOut.map((l) => `  left out of Java: ${l}`),
    );
    expect(compiled.status === 0 ? "" : output, `${peer}'s examples in Java (project in ${project})`).toBe("");
    expect(rendered - failed.size).toBe(rendered);
    expect(rendered).toBeGreaterThan(0);
    const classes = join(project, "target", "classes");
    expect(readdirSync(classes).filter((d) => d.startsWith("generated_program_") && existsSync(join(classes, d, "App.class"))).length, "examples compiled").toBe(rendered);
    for (const pkg of ["constructs", "every", ...(loops !== undefined ? ["loops"] : []), ...(loopConstructs ? ["loopconstructs"] : [])]) expect(existsSync(join(classes, pkg, "App.class")), `${pkg} compiled`).toBe(true);
  }, 900_000);
});
