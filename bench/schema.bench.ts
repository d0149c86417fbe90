// Schema benchmark: translate an AWS-sized provider (≥1,500 resources, ≥600 data sources, built from the real peers'
// schemas) into a Pulumi package schema; prints time, output size and peak RSS, and the cost of a second, cached call.
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import type { Block, ProviderSchema, Schema } from "../src/terraform/types.js";
import { buildProviderModel, renderPackageSchema } from "../src/schema-translate/index.js";
import { peerPath, pins } from "../test/support/peers.js";
import { loadProtos, serviceOf } from "../src/wire/proto.js";
import { withCachedSchemaEncoding } from "../src/server/plugin.js";
import { peakRssKiB } from "../src/server/rss.js";
import { report } from "./report.js";

const RESOURCES = Number(process.env["BENCH_RESOURCES"] ?? 1_600);
const DATA_SOURCES = Number(process.env["BENCH_DATA_SOURCES"] ?? 650);
const MERGE = 4; // real schemas merged into each synthetic one, for AWS-like widths (~40+ attributes)

const real: Schema[] = [];
for (const name of Object.keys(pins)) {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(name) });
  const s = await p.getProviderSchema();
  await p.close();
  real.push(...s.resources.values(), ...s.dataSources.values());
}

/** Merges several real blocks into one, prefixing names so they stay distinct. */
function merged(start: number): Schema {
  const block: Block = { attributes: [], blockTypes: [], description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "" };
  for (let j = 0; j < MERGE; j++) {
    const src = real[(start + j) % real.length]!.block;
    block.description += src.description;
    block.attributes.push(...src.attributes.filter((a) => a.name !== "id" || j === 0).map((a) => (a.name === "id" ? a : { ...a, name: `p${j}_${a.name}` })));
    block.blockTypes.push(...src.blockTypes.map((b) => ({ ...b, typeName: `p${j}_${b.typeName}` })));
  }
  return { version: 0, block };
}

const big: ProviderSchema = {
  provider: { version: 0, block: real[0]!.block },
  resources: new Map(Array.from({ length: RESOURCES }, (_, i) => [`big_resource_${i}`, merged(i)])),
  dataSources: new Map(Array.from({ length: DATA_SOURCES }, (_, i) => [`big_data_${i}`, merged(i + 7)])),
  ephemeralResources: new Map(),
  actions: new Map(),
  functions: new Map(),
  serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false },
  diagnostics: [],
};
const attrs = [...big.resources.values()].reduce((n, s) => n + s.block.attributes.length + s.block.blockTypes.length, 0);

const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
const model = buildProviderModel(big, { packageName: "big", packageVersion: "1.0.0" });
const t1 = performance.now();
const rendered = renderPackageSchema(model, {
  bridgeVersion: "0.1.0",
  parameter: Buffer.from('{"local":{"path":"/x"}}'),
  source: { kind: "local", path: "/x", type: "x" },
});
const t2 = performance.now();
const json = JSON.stringify(rendered);
const t3 = performance.now();
// GetSchema's wire encoding, as the plugin server does it: the first call encodes, a second reuses the bytes.
const provider = serviceOf(loadProtos(["pulumi/provider.proto"]), "pulumirpc.ResourceProvider");
const serialize = withCachedSchemaEncoding(provider)["GetSchema"]!.responseSerialize;
const response = { schema: json };
const t4 = performance.now();
const first = serialize(response);
const t5 = performance.now();
const again = serialize(response);
const t6 = performance.now();
const peakRss = peakRssKiB() / 1024; // KiB → MiB

console.log(`schema benchmark: ${RESOURCES} resources (${attrs} top-level attributes/blocks), ${DATA_SOURCES} data sources, ${model.types.size} nested types`);
console.log(`  build model         ${(t1 - t0).toFixed(0)} ms`);
console.log(`  render schema       ${(t2 - t1).toFixed(0)} ms`);
console.log(`  JSON.stringify      ${(t3 - t2).toFixed(0)} ms (${(json.length / 1e6).toFixed(1)} MB)`);
console.log(`  total               ${(t3 - t0).toFixed(0)} ms   (target < 2000 ms: ratio ${((t3 - t0) / 2000).toFixed(2)})`);
console.log(`  first GetSchema encode ${(t5 - t4).toFixed(1)} ms (${first.length} bytes)`);
console.log(`  second GetSchema    ${(t6 - t5).toFixed(3)} ms (${again.length} bytes; target < 50 ms)`);
console.log(`  peak RSS            ${peakRss.toFixed(0)} MiB (process start ${(rssBefore / 2 ** 20).toFixed(0)} MiB; target < 500 MiB: ratio ${(peakRss / 500).toFixed(2)})`);
report({ scenario: `translate ${RESOURCES} resources + ${DATA_SOURCES} data sources to JSON`, bridge: t3 - t0, unit: "ms", target: "< 2000 ms" });
report({ scenario: "second GetSchema (encode, cached)", bridge: t6 - t5, unit: "ms", target: "< 50 ms" });
report({ scenario: "schema translation peak RSS", bridge: peakRss, unit: "MiB", target: "< 500 MiB" });
