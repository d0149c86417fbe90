// Full docs benchmark: GetSchema time and schema size of every real peer with docs through the packaged plugin, without docs
// and with --upstreamRepoPath on the pinned module sources (what --fullDocs reads once the clone is cached, examples
// converted into six languages included), and the examples' conversion alone, in process.
import { join } from "node:path";
import { convertExample } from "../src/schema-translate/examples/index.js";
import { extractPlugin } from "../test/support/e2e.js";
import { peerExamples, peerModel, type ExamplePeer } from "../test/support/examples.js";
import { peerModuleDir } from "../test/support/module-docs.js";
import { peerPath } from "../test/support/peers.js";
import { argsRequest, startPluginProcess } from "../test/support/pulumi.js";
import { median, report } from "./report.js";

const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
// Every real peer whose module ships docs (bridgetest and httpapi are ours and have none).
const PEERS: ExamplePeer[] = ["random", "tls", "time", "local", "http"];

// As `pulumi plugin install` lays the tarball out; docs code is loaded on first use, so a fresh process pays for it.
const bin = join(extractPlugin(), "pulumi-resource-terraform-provider");

/** One fresh plugin per run: GetSchema's answer is cached per process, and the first one is what users wait on. */
async function getSchema(args: string[]): Promise<{ ms: number; bytes: number }> {
  const plugin = await startPluginProcess({ bin });
  try {
    const p = await plugin.call("Parameterize", argsRequest(...args), 120_000);
    const start = performance.now();
    const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] }, 120_000);
    return { ms: performance.now() - start, bytes: Buffer.byteLength(res["schema"] as string) };
  } finally {
    await plugin.stop();
  }
}

/** Converting every HCL example of the peer once (parse, bind, six renderings), in ms; and how many converted. */
async function conversion(peer: ExamplePeer): Promise<{ ms: number; found: number; converted: number }> {
  const examples = await peerExamples(peer);
  const model = await peerModel(peer);
  const start = performance.now();
  for (const e of examples) convertExample(e.hcl, model);
  return { ms: performance.now() - start, found: examples.length, converted: examples.filter((e) => e.conversion.ok).length };
}

const rows: string[][] = [["peer", "schema bytes", "with docs", "GetSchema ms", "with docs", "examples converted", "conversion ms"]];
for (const peer of PEERS) {
  const plain: number[] = [];
  const docs: number[] = [];
  let plainBytes = 0;
  let docsBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const a = await getSchema([peerPath(peer)]);
    const b = await getSchema([peerPath(peer), "--upstreamRepoPath", peerModuleDir(peer)]);
    plain.push(a.ms);
    docs.push(b.ms);
    plainBytes = a.bytes;
    docsBytes = b.bytes;
  }
  const converting: number[] = [];
  let counts = "";
  for (let i = 0; i < RUNS; i++) {
    const c = await conversion(peer);
    converting.push(c.ms);
    counts = `${c.converted}/${c.found}`;
  }
  rows.push([peer, String(plainBytes), String(docsBytes), median(plain).toFixed(1), median(docs).toFixed(1), counts, median(converting).toFixed(1)]);
  report({ scenario: `examples converted into six languages, in process (${peer})`, bridge: median(converting), unit: "ms" });
  report({ scenario: `GetSchema, schema docs only (${peer})`, bridge: median(plain), unit: "ms" });
  report({ scenario: `GetSchema, full docs from the repository (${peer})`, bridge: median(docs), unit: "ms" });
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(`GetSchema (median of ${RUNS} fresh plugins) and schema size, without and with full docs:`);
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
