// Proof by running: every upstream example of the real peers (random, tls, time, local, http) that uses only the peer
// itself, as the plugin renders it in Pulumi YAML, passes `pulumi preview` in a project using the peer as `pulumi
// package add` writes it (one stack per peer, the examples one after another). The files examples read are made by
// the tls provider in a stack of its own; HTTPS requests go through a local proxy that answers every request with a
// certificate of that stack's CA, since this machine has no network. Prints per peer: found, converted, compiling (previews passing).
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { TLSSocket } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { renderYaml } from "../../src/schema-translate/examples/yaml.js";
import { ConversionError, type Program, type Value } from "../../src/schema-translate/examples/program.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { exampleProgram } from "../../src/schema-translate/examples/index.js";
import { EXAMPLE_PEERS, peerExamples, peerModel, type ExamplePeer } from "../support/examples.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";

/**
 * For each peer, a program with what the upstream examples leave out and YAML has to spell carefully: an explicit
 * provider, depends_on (on a data source too), config with and without defaults, strings YAML would read as something
 * else, `$` in text and keys, multi-line text, templates holding Outputs and builtins (fn::join), fn::readFile,
 * fn::toJSON with Outputs, a number or bool where a string is wanted, provider functions' plain and object results.
 * Converted against the peer's schema as the examples are, previewed after them, and not counted in the figures.
 */
const CONSTRUCTS: Record<ExamplePeer, string> = {
  random: `
variable "keeper" {}
variable "len" {
  type = number
}
variable "special" {
  type    = bool
  default = false
}
provider "random" {}
resource "random_pet" "pet" {
  keepers = {
    k            = var.keeper
    "with space" = "v: w"
    "$dollar"    = "a$b"
    "on"         = "true"
  }
  length    = var.len
  separator = "-"
  prefix    = "# not a comment"
}
resource "random_password" "pw" {
  length           = random_pet.pet.length
  special          = var.special
  override_special = "!#$%&*()-_=+[]{}<>:?"
  keepers          = random_pet.pet.keepers
}
resource "random_shuffle" "s" {
  input        = [random_pet.pet.id, "b", var.keeper, "true", "1h", "null", "", "'q'"]
  result_count = 1
  depends_on   = [random_password.pw]
}
output "first" {
  value = random_shuffle.s.result[0]
}
output "k" {
  value = random_pet.pet.keepers["with space"]
}
output "msg" {
  value = "len \${var.len} pet \${random_pet.pet.id} costs $5"
}
output "multi" {
  value = "line 1\\n  line \${random_pet.pet.id}\\n"
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
  rsa_bits  = 2048
}
data "tls_public_key" "pub" {
  private_key_pem = tls_private_key.key.private_key_pem
}
resource "tls_self_signed_cert" "cert" {
  private_key_pem       = file("key.pem")
  validity_period_hours = var.hours
  is_ca_certificate     = var.ca
  allowed_uses          = ["key_encipherment", "digital_signature", "server_auth"]
  dns_names             = ["\${var.org}.example.com", "x-\${tls_private_key.key.id}"]
  subject {
    common_name    = "\${var.org} \${var.hours}"
    organization   = jsonencode({ a = var.org, b = [1, 2], c = tls_private_key.key.id })
    street_address = ["line: one", "# two", file("street.txt")]
  }
  depends_on = [data.tls_public_key.pub, tls_private_key.key]
}
resource "tls_cert_request" "csr" {
  private_key_pem = tls_private_key.key.private_key_pem
  subject {
    common_name   = tls_self_signed_cert.cert.subject[0].common_name
    serial_number = "\${tls_self_signed_cert.cert.validity_period_hours}"
  }
}
output "fingerprint" {
  value = data.tls_public_key.pub.public_key_fingerprint_md5
}
output "both" {
  value = "\${tls_self_signed_cert.cert.cert_pem}\${tls_cert_request.csr.cert_request_pem}"
}
output "with_file" {
  value = "key: \${file("key.pem")}"
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
output "duration" {
  value = provider::time::duration_parse("1h30m")
}
`,
  local: `
resource "local_file" "f" {
  filename        = "out.txt"
  content         = "a\\nb\\n\\"c\\" $x"
  file_permission = "0644"
}
data "local_file" "r" {
  filename = "Pulumi.yaml"
}
resource "local_file" "flag" {
  filename = "flag.txt"
  content  = provider::local::direxists("/tmp")
}
output "content" {
  value = "\${local_file.f.filename}: \${data.local_file.r.content}"
}
output "encoded" {
  value = jsonencode({ name = local_file.f.filename, list = [1, "two", true] })
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
  value = data.http.x.response_body
}
`,
};

const sandbox = e2eSandbox();
const figures: string[] = [];
const servers: Server[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  for (const s of servers) s.close();
});

/** Keys, a certificate request and certificates, made by the tls provider: what the examples' files hold. */
interface Material {
  caKey: string;
  caCert: string;
  key: string;
  keyOpenssh: string;
  csr: string;
  serverCert: string;
}

const MATERIAL_PROGRAM = `resources:
  caKey:
    type: tls:index/privateKey:PrivateKey
    properties:
      algorithm: ECDSA
      ecdsaCurve: P256
  caCert:
    type: tls:index/selfSignedCert:SelfSignedCert
    properties:
      privateKeyPem: \${caKey.privateKeyPem}
      isCaCertificate: true
      validityPeriodHours: 48
      allowedUses: [cert_signing, crl_signing, digital_signature]
      subjects:
        - commonName: Examples CA
  key:
    type: tls:index/privateKey:PrivateKey
    properties:
      algorithm: RSA
      rsaBits: 2048
  csr:
    type: tls:index/certRequest:CertRequest
    properties:
      privateKeyPem: \${key.privateKeyPem}
      dnsNames: [example.com, checkpoint-api.hashicorp.com]
      subjects:
        - commonName: example.com
  serverCert:
    type: tls:index/locallySignedCert:LocallySignedCert
    properties:
      certRequestPem: \${csr.certRequestPem}
      caPrivateKeyPem: \${caKey.privateKeyPem}
      caCertPem: \${caCert.certPem}
      validityPeriodHours: 48
      allowedUses: [digital_signature, key_encipherment, server_auth]
outputs:
  caKey: \${caKey.privateKeyPem}
  caCert: \${caCert.certPem}
  key: \${key.privateKeyPem}
  keyOpenssh: \${key.privateKeyOpenssh}
  csr: \${csr.certRequestPem}
  serverCert: \${serverCert.certPem}
`;

let material: Promise<Material> | undefined;

/** Made once: `pulumi up` of MATERIAL_PROGRAM, its outputs read, the stack destroyed. */
function keyMaterial(): Promise<Material> {
  material ??= (async () => {
    const s = await YamlScenario.create(sandbox, "examples-yaml-material", ["tls"]);
    s.program(MATERIAL_PROGRAM);
    await s.up();
    const out = (await s.outputs(true)) as unknown as Material;
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    return out;
  })();
  return material;
}

/** What a file an example reads should hold, by its name: a key, a request, a certificate, else some text. */
function fileContent(path: string, m: Material): string {
  const name = path.split("/").pop()!.toLowerCase();
  if (/ca_?private_?key|ca_key/.test(name)) return m.caKey;
  if (/ca_?cert/.test(name)) return m.caCert;
  if (/request|csr/.test(name)) return m.csr;
  if (/^id_|openssh|rfc4716/.test(name)) return m.keyOpenssh;
  if (/key/.test(name)) return m.key;
  if (/\.(pem|crt)$|cert/.test(name)) return m.serverCert + m.caCert;
  return "example content\n";
}

/** Every literal path a program reads with `file(...)`. */
function filesRead(p: Program): string[] {
  const out: string[] = [];
  const walk = (v: Value): void => {
    switch (v.kind) {
      case "call":
        if (v.fn === "file" && v.args[0]?.kind === "string") out.push(v.args[0].value);
        v.args.forEach(walk);
        break;
      case "list":
        v.items.forEach(walk);
        break;
      case "map":
        v.entries.forEach((e) => walk(e.value));
        break;
      case "object":
        v.properties.forEach((e) => walk(e.value));
        break;
      case "template":
        v.parts.forEach((part) => typeof part !== "string" && walk(part));
        break;
      default:
    }
  };
  for (const n of p.nodes) walk(n.args);
  for (const o of p.outputs) walk(o.value);
  return out;
}

/**
 * An HTTP(S) proxy standing in for the network: CONNECT is answered by a TLS server with the material's certificate
 * (for example.com and checkpoint-api.hashicorp.com, signed by its CA, which SSL_CERT_FILE makes trusted), and every
 * request with `200 {}`.
 */
async function fakeNetwork(m: Material): Promise<{ port: number; answered: () => number }> {
  let answered = 0;
  const answer = (socket: Socket | TLSSocket): void => {
    let head = "";
    socket.on("data", (d: Buffer) => {
      head += d.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      const method = head.split(" ")[0] ?? "";
      if (method === "CONNECT") {
        head = "";
        socket.removeAllListeners("data");
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        const secure = new TLSSocket(socket, { isServer: true, key: m.key, cert: m.serverCert + m.caCert });
        secure.on("error", () => secure.destroy());
        answer(secure);
        return;
      }
      answered++;
      const body = method === "HEAD" ? "" : "{}";
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n${body}`);
    });
    socket.on("error", () => socket.destroy());
  };
  const server = createServer(answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no port");
  return { port: address.port, answered: () => answered };
}

/** A value for a config variable the example leaves without a default. */
function configValue(type: "string" | "number" | "boolean"): string {
  return type === "number" ? "1" : type === "boolean" ? "true" : "example";
}

describe.each(EXAMPLE_PEERS)("%s examples in YAML", (peer) => {
  it("pass pulumi preview in a project using the peer", async () => {
    const examples = await peerExamples(peer);
    const rendered = examples.flatMap((e) => {
      if (!e.conversion.ok) return [];
      try {
        return [{ example: e, program: e.conversion.program, yaml: renderYaml(e.conversion.program) }];
      } catch (err) {
        if (err instanceof ConversionError) return [];
        throw err;
      }
    });
    const runnable = rendered.filter((r) => r.example.onlyProvider);
    const m = await keyMaterial();
    const dir = scratch(`tfbridge-examples-yaml-${peer}-`);
    const caFile = join(dir, "ca.pem");
    writeFileSync(caFile, m.caCert);
    const network = await fakeNetwork(m);
    const proxy = `http://127.0.0.1:${network.port}`;
    const s = await YamlScenario.create(sandbox, `examples-yaml-${peer}`, [peer], {
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      NO_PROXY: "localhost,127.0.0.1,::1",
      SSL_CERT_FILE: caFile,
    });
    const failures: string[] = [];
    const unreachable: string[] = [];
    const constructs = exampleProgram(CONSTRUCTS[peer], await peerModel(peer));
    const all = [...runnable, { example: { page: "constructs", index: 0 }, program: constructs, yaml: renderYaml(constructs) }];
    for (const { example, program, yaml } of all) {
      for (const path of filesRead(program)) {
        const file = join(s.dir, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, fileContent(path, m));
      }
      for (const c of program.config) if (c.default === undefined) await s.ok(["config", "set", c.name, configValue(c.type)]);
      s.program(yaml);
      const r = await s.pulumi(["preview", "--non-interactive"]);
      if (r.code === 0) continue;
      // A host the example names itself (a proxy of its own) has no address here: the program ran up to that request.
      const host = /lookup ([\w.-]+)(?: on [^\s]+)?: no such host/.exec(r.stdout + r.stderr)?.[1];
      if (host !== undefined && yaml.includes(host)) unreachable.push(`${example.page} #${example.index} (${host})`);
      else failures.push(`${example.page} #${example.index}:\n${yaml}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
    }
    const onlyPeer = examples.filter((e) => e.onlyProvider).length;
    const lacking = onlyPeer - runnable.length;
    const constructsFailed = failures.some((f) => f.startsWith("constructs #0"));
    figures.push(
      `[examples-yaml] ${peer}: found ${examples.length}, converted ${rendered.length} (${runnable.length} using only ${peer}), compiling (pulumi preview passes) ${runnable.length - failures.length + (constructsFailed ? 1 : 0) - unreachable.length}` +
        (unreachable.length > 0 ? `; ${unreachable.length} stopping at a host of their own this machine cannot resolve: ${unreachable.join(", ")}` : "") +
        (lacking > 0 ? `; ${lacking} more using only ${peer} need a builtin Pulumi YAML lacks` : "") +
        (network.answered() > 0 ? `; ${network.answered()} HTTPS requests answered by the stand-in network` : "") +
        `; the constructs program ${constructsFailed ? "FAILS" : "previews too"}`,
    );
    expect(failures.join("\n\n"), `pulumi preview of ${peer}'s examples`).toBe("");
    expect(runnable.length).toBeGreaterThan(0);
  }, 1_200_000);
});

describe("the preview check", () => {
  it("fails a YAML program with a property the schema lacks (the previews above check the programs)", async () => {
    const s = await YamlScenario.create(sandbox, "examples-yaml-control", ["random"]);
    s.program("resources:\n  pet:\n    type: random:index/pet:Pet\n    properties:\n      lenght: 2\n");
    const r = await s.pulumi(["preview", "--non-interactive"]);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/lenght/);
  }, 300_000);
});
