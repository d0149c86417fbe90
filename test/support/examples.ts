// The upstream examples of the real peers (random, tls, time, local, http) as the plugin converts them with full docs,
// and the schema they end up in, for the per-language compile proofs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readProviderDocs, type ProviderDocs } from "../../src/docs/repo.js";
import { buildProviderModel, renderPackageSchema, type ProviderModel } from "../../src/schema-translate/index.js";
import { convertExample, type Conversion } from "../../src/schema-translate/examples/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { peerModuleDir } from "./module-docs.js";
import { peerPath } from "./peers.js";

export const EXAMPLE_PEERS = ["random", "tls", "time", "local", "http"] as const;
export type ExamplePeer = (typeof EXAMPLE_PEERS)[number];

export interface PeerExample {
  peer: ExamplePeer;
  /** The doc page it comes from: `resources/password`, `index`. */
  page: string;
  /** Its position among the page's HCL blocks. */
  index: number;
  hcl: string;
  conversion: Conversion;
  /** Converted, and uses nothing but the peer itself (no other provider's resources), so it can compile. */
  onlyProvider: boolean;
}

interface Loaded {
  docs: ProviderDocs;
  /** The model without docs, which examples are converted against. */
  bare: ProviderModel;
  /** The model with the docs applied, for the schema. */
  model: ProviderModel;
}

const loaded = new Map<ExamplePeer, Promise<Loaded>>();

/** The peer's Terraform schema and its module source's doc pages, read once per test file. */
function load(peer: ExamplePeer): Promise<Loaded> {
  let p = loaded.get(peer);
  if (p === undefined) {
    p = (async () => {
      const provider = await GrpcTerraformProvider.launch({ path: peerPath(peer) });
      try {
        const schema = await provider.getProviderSchema();
        const bare = buildProviderModel(schema, { packageName: peer, packageVersion: "1.0.0" });
        const docs = readProviderDocs(peerModuleDir(peer), {
          resources: [...bare.resources.keys()],
          dataSources: [...bare.dataSources.keys()],
          ephemeralResources: [...bare.ephemeralResources.keys()],
          functions: [...bare.functions.keys()],
        });
        return { docs, bare, model: buildProviderModel(schema, { packageName: peer, packageVersion: "1.0.0", docs }) };
      } finally {
        await provider.close();
      }
    })();
    loaded.set(peer, p);
  }
  return p;
}

const HCL_FENCE = /^(\s*)(`{3,}|~{3,})\s*(terraform|hcl|tf)\s*\n([\s\S]*?)^\1\2\s*$/gm;

/** Every HCL block of a page's examples, in order. */
function hclBlocks(markdown: string): string[] {
  return [...markdown.matchAll(HCL_FENCE)].map((m) => m[4]!);
}

/** The peer's provider model without docs: what examples are converted against. */
export async function peerModel(peer: ExamplePeer): Promise<ProviderModel> {
  return (await load(peer)).bare;
}

/** Every HCL example in the peer's doc pages, converted as the plugin converts it. */
export async function peerExamples(peer: ExamplePeer): Promise<PeerExample[]> {
  const { docs } = await load(peer);
  const model = await peerModel(peer);
  const pages: [string, string][] = [];
  if (docs.provider !== undefined) pages.push(["index", docs.provider.examples]);
  for (const [kind, map] of [["resources", docs.resources], ["data-sources", docs.dataSources], ["ephemeral-resources", docs.ephemeralResources], ["functions", docs.functions]] as const) {
    for (const [name, page] of map) pages.push([`${kind}/${name}`, page.examples]);
  }
  const out: PeerExample[] = [];
  for (const [page, markdown] of pages) {
    hclBlocks(markdown).forEach((hcl, index) => {
      const conversion = convertExample(hcl, model);
      out.push({ peer, page, index, hcl, conversion, onlyProvider: conversion.ok && conversion.program.otherProviders.length === 0 });
    });
  }
  return out;
}

const schemaFiles = new Map<ExamplePeer, Promise<string>>();

/** The peer's Pulumi schema with full docs (the converted examples in its descriptions), written to a temp file. */
export function peerSchemaFile(peer: ExamplePeer): Promise<string> {
  let p = schemaFiles.get(peer);
  if (p === undefined) {
    p = (async () => {
      const { model } = await load(peer);
      const schema = renderPackageSchema(model, {
        bridgeVersion: "0.1.0",
        parameter: Buffer.from(JSON.stringify({ remote: { url: `registry.opentofu.org/hashicorp/${peer}`, version: "1.0.0" } })),
        source: { kind: "registry", host: "registry.opentofu.org", namespace: "hashicorp", type: peer },
      });
      const file = join(mkdtempSync(join(tmpdir(), `examples-schema-${peer}-`)), "schema.json");
      writeFileSync(file, JSON.stringify(schema, null, 2));
      return file;
    })();
    schemaFiles.set(peer, p);
  }
  return p;
}

/**
 * Repeated resources (`count` from configuration, `for_each` over a map and over `toset` of strings) and references
 * to their instances by index, key and attribute-style key: the upstream examples have none, so each language's
 * compile proof compiles this too (YAML has no loops and leaves it out).
 */
export const LOOP_PROGRAM: Partial<Record<ExamplePeer, string>> = {
  random: `
variable "pets" {
  type    = number
  default = 2
}
resource "random_pet" "pets" {
  count  = var.pets
  prefix = "p\${count.index}"
}
resource "random_string" "keyed" {
  for_each = { short = 4, long = 12 }
  length   = each.value
  special  = false
  keepers  = { pet = random_pet.pets[0].id, key = each.key }
}
resource "random_integer" "set" {
  for_each = toset(["a", "b"])
  min      = 1
  max      = 10
  keepers  = { name = each.value }
}
output "second_pet" {
  value = random_pet.pets[1].id
}
output "short" {
  value = random_string.keyed["short"].result
}
output "a" {
  value = random_integer.set.a.result
}
`,
  tls: `
resource "tls_private_key" "keys" {
  for_each  = { ec = "ECDSA", ed = "ED25519" }
  algorithm = each.value
}
resource "tls_self_signed_cert" "certs" {
  count                 = 2
  private_key_pem       = tls_private_key.keys["ec"].private_key_pem
  validity_period_hours = 12
  allowed_uses          = ["server_auth"]
  subject {
    common_name = "host\${count.index}.example.com"
  }
}
output "cert" {
  value = tls_self_signed_cert.certs[0].cert_pem
}
`,
};
