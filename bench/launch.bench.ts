// Launch benchmark: process start → handshake → schema received, per real provider; medians over repeated runs.
import { GrpcTerraformProvider } from "../src/terraform/client.js";
import { launchProvider } from "../src/terraform/launch.js";
import { peerPath, pins } from "../test/support/peers.js";
import { median } from "./report.js";

const runs = Number(process.env["BENCH_RUNS"] ?? 10);


const rows: string[][] = [["provider", "proto", "handshake ms", "schema ms", "resources", "data sources", "schema share"]];
for (const name of Object.keys(pins)) {
  const handshake: number[] = [];
  const schema: number[] = [];
  let counts = [0, 0];
  let proto = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const launched = await launchProvider({ path: peerPath(name) });
    const t1 = performance.now();
    await launched.shutdown();
    const t2 = performance.now();
    const client = await GrpcTerraformProvider.launch({ path: peerPath(name) });
    const s = await client.getProviderSchema();
    const t3 = performance.now();
    await client.close();
    handshake.push(t1 - t0);
    schema.push(t3 - t2);
    counts = [s.resources.size, s.dataSources.size];
    proto = client.protocolVersion;
  }
  const h = median(handshake);
  const sc = median(schema);
  rows.push([name, String(proto), h.toFixed(1), sc.toFixed(1), String(counts[0]), String(counts[1]), `${(((sc - h) / sc) * 100).toFixed(0)}% after handshake`]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`launch benchmark: median of ${runs} runs per provider (start → handshake; start → schema received)`);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join("  "));
