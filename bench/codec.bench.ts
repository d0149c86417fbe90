// Throughput of the cty codec on a large, Terraform-state-like value: msgpack and JSON, encode and decode (run with `npx tsx bench/codec.bench.ts`).

import {
  BigNum,
  CtyBool,
  CtyNumber,
  CtyString,
  decodeJson,
  decodeMsgpack,
  encodeJson,
  encodeMsgpack,
  list,
  map,
  object,
  set,
  type CtyType,
  type CtyValue,
} from "../src/terraform/cty/index.js";

/** An object with 200 attributes, one of them a list of 1,000 nested objects with maps and sets. */
function buildFixture(): { type: CtyType; value: CtyValue } {
  const item = object({
    id: CtyString,
    name: CtyString,
    count: CtyNumber,
    ratio: CtyNumber,
    enabled: CtyBool,
    tags: map(CtyString),
    labels: set(CtyString),
    ports: set(CtyNumber),
    spec: object({ cpu: CtyNumber, memory: CtyString, zones: list(CtyString) }),
  });
  const attrs: Record<string, CtyType> = { items: list(item), settings: map(CtyString), members: set(CtyString), big: CtyNumber };
  const value: Record<string, CtyValue> = {};
  for (let i = 0; i < 196; i++) {
    const name = `attribute_${String(i).padStart(3, "0")}`;
    switch (i % 4) {
      case 0:
        attrs[name] = CtyString;
        value[name] = `value of ${name} with some text`;
        break;
      case 1:
        attrs[name] = CtyNumber;
        value[name] = i * 1013;
        break;
      case 2:
        attrs[name] = CtyBool;
        value[name] = i % 3 === 0;
        break;
      default:
        attrs[name] = CtyNumber;
        value[name] = i / 7;
    }
  }
  value.settings = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`setting-${i}`, `v${i}`]));
  value.members = Array.from({ length: 100 }, (_, i) => `user-${(i * 7919) % 1000}@example.com`);
  value.big = new BigNum("123456789012345678901234567890.5");
  value.items = Array.from({ length: 1000 }, (_, i) => ({
    id: `item-${i}`,
    name: `A fairly ordinary resource name number ${i}`,
    count: i,
    ratio: i / 3,
    enabled: i % 2 === 0,
    tags: { env: i % 3 === 0 ? "prod" : "dev", team: `team-${i % 17}`, owner: "platform", cost_center: `cc-${i % 5}`, "app.kubernetes.io/name": "svc" },
    labels: [`l-${i % 11}`, `l-${i % 13}`, `l-${i % 7}`, "common"],
    ports: [443, 80, 8000 + (i % 100)],
    spec: { cpu: (i % 8) + 0.5, memory: `${(i % 16) + 1}Gi`, zones: ["us-east-1a", "us-east-1b"] },
  }));
  return { type: object(attrs), value };
}

interface Row {
  name: string;
  opsPerSec: number;
  mbPerSec: number;
  msPerOp: number;
}

/** Median ops/s over several timed runs of at least `minMs` each, after a warm-up. */
function measure(name: string, bytes: number, op: () => void, runs = 7, minMs = 300): Row {
  for (let i = 0; i < 5; i++) op();
  const rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    let n = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    do {
      op();
      n++;
      elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    } while (elapsed < minMs);
    rates.push((n * 1000) / elapsed);
  }
  rates.sort((a, b) => a - b);
  const ops = rates[Math.floor(rates.length / 2)]!;
  return { name, opsPerSec: ops, mbPerSec: (ops * bytes) / 1e6, msPerOp: 1000 / ops };
}

function main(): void {
  const { type, value } = buildFixture();
  const mp = encodeMsgpack(value, type);
  const js = encodeJson(value, type);
  const jsBytes = Buffer.byteLength(js);
  let sink = 0;
  const rows: Row[] = [
    measure("msgpack encode", mp.length, () => (sink += encodeMsgpack(value, type).length)),
    measure("msgpack decode", mp.length, () => (sink += decodeMsgpack(mp, type) === null ? 0 : 1)),
    measure("msgpack encode+decode", mp.length, () => (sink += decodeMsgpack(encodeMsgpack(value, type), type) === null ? 0 : 1)),
    measure("json encode", jsBytes, () => (sink += encodeJson(value, type).length)),
    measure("json decode", jsBytes, () => (sink += decodeJson(js, type) === null ? 0 : 1)),
    measure("json encode+decode", jsBytes, () => (sink += decodeJson(encodeJson(value, type), type) === null ? 0 : 1)),
  ];
  console.log(`cty codec: object with 200 attributes incl. a list of 1,000 nested objects (maps, sets); node ${process.version}`);
  console.log(`payload: msgpack ${(mp.length / 1024).toFixed(1)} KiB, JSON ${(jsBytes / 1024).toFixed(1)} KiB; median of 7 runs`);
  console.log("");
  console.log(`${"operation".padEnd(24)}${"ops/s".padStart(10)}${"ms/op".padStart(10)}${"MB/s".padStart(10)}`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(24)}${r.opsPerSec.toFixed(1).padStart(10)}${r.msPerOp.toFixed(2).padStart(10)}${r.mbPerSec.toFixed(1).padStart(10)}`);
  }
  if (sink === -1) console.log(""); // keeps the results alive
}

main();
