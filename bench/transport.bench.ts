// What the gRPC transport itself costs per provider call: the same unary call (ValidateResourceTypeConfig of a complete
// random_id configuration) sent to the same Terraform provider process through the plugin's own transport
// (src/wire/rpc.ts), through @grpc/grpc-js (which the plugin used before), and as a bare HTTP/2 request from
// node:http2 (the 5-byte gRPC frame, grpc-status from the trailers: the floor). All run in plaintext (the provider is
// started without PLUGIN_CLIENT_CERT), so the difference is the library, not TLS. Medians
// of latency, and this process's CPU per call. `BENCH_CALLS` (default 3,000), `BENCH_ROUNDS` (default 3). Not part of
// `npm run bench`'s default set: `BENCHES=transport npm run bench`.
import { spawn } from "node:child_process";
import * as http2 from "node:http2";
import * as net from "node:net";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import { encodeMessage, loadProtos, protoRoot, serviceOf } from "../src/wire/proto.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, parseHandshake, providerLogEnv } from "../src/terraform/launch.js";
import { impliedType } from "../src/terraform/schema.js";
import { completeObject } from "../src/terraform/values.js";
import { providerSchemaFromPb, toDynamic } from "../src/terraform/wire.js";
import { Channel } from "../src/wire/rpc.js";
import { grpcClientConstructor } from "../test/support/grpc-peer.js";
import type * as tf5 from "../src/wire/tfplugin5.gen.js";
import { peerPath } from "../test/support/peers.js";
import { median } from "./report.js";

const CALLS = Number(process.env["BENCH_CALLS"] ?? 3_000);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
const FILE = "tfplugin5/tfplugin5.proto";

const child = spawn(peerPath("random"), [], {
  stdio: ["ignore", "pipe", "ignore"],
  // The provider's logging as the plugin sets it (warnings and errors only, unless TF_LOG says otherwise).
  env: { ...process.env, ...providerLogEnv(process.env), [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5" },
});
try {
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  const socket = parseHandshake(line, [5]).address;

  const service = serviceOf(loadProtos([FILE], { leanResponses: ["GetSchema"] }), "tfplugin5.Provider");
  const channel = new Channel(`unix://${socket}`);
  const ours = <Res>(method: string, request: object): Promise<Res> => channel.unary(service[method]!, request) as Promise<Res>;
  const Stub = grpcClientConstructor([FILE], "tfplugin5.Provider");
  const stub = new Stub(`unix://${socket}`, grpc.credentials.createInsecure(), { "grpc.enable_channelz": 0, "grpc.enable_retries": 0 });
  const grpcJs = (method: string, request: object): Promise<object> =>
    new Promise((resolve, reject) =>
      (stub as unknown as Record<string, (req: object, cb: (err: Error | null, res?: object) => void) => void>)[method]!.call(stub, request, (err, res) => (err ? reject(err) : resolve(res!))),
    );

  // tfplugin5 calls it GetSchema; its answer has the shape of tfplugin6's GetProviderSchema.
  const schema = providerSchemaFromPb(await ours("GetSchema", {}));
  const block = schema.resources.get("random_id")!.block;
  const request: tf5.ValidateResourceTypeConfig_RequestIn = { type_name: "random_id", config: toDynamic(completeObject(block, { byte_length: 8 }), impliedType(block)) };

  const root = protoRoot([FILE]);
  const requestType = root.lookupType("tfplugin5.ValidateResourceTypeConfig.Request");
  const responseType = root.lookupType("tfplugin5.ValidateResourceTypeConfig.Response");
  const session = http2.connect("http://localhost", { createConnection: () => net.connect(socket) });
  const bare = (): Promise<object> =>
    new Promise((resolve, reject) => {
      const body = encodeMessage(requestType, request);
      const frame = Buffer.allocUnsafe(5 + body.length);
      frame[0] = 0; // not compressed
      frame.writeUInt32BE(body.length, 1);
      body.copy(frame, 5);
      const stream = session.request({ ":method": "POST", ":path": "/tfplugin5.Provider/ValidateResourceTypeConfig", "content-type": "application/grpc", te: "trailers" });
      const chunks: Buffer[] = [];
      let status: string | undefined;
      stream.on("response", (headers) => {
        if (headers["grpc-status"] !== undefined) status = String(headers["grpc-status"]); // a trailers-only answer
      });
      stream.on("trailers", (trailers) => (status = String(trailers["grpc-status"])));
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", reject);
      stream.on("end", () => {
        if (status !== "0") return reject(new Error(`grpc-status ${status}`));
        const all = Buffer.concat(chunks);
        resolve(responseType.toObject(responseType.decode(all.subarray(5, 5 + all.readUInt32BE(1))), { longs: String, enums: String, defaults: true, oneofs: true }));
      });
      stream.end(frame);
    });

  const clients = {
    "src/wire/rpc.ts": () => ours<object>("ValidateResourceTypeConfig", request),
    "@grpc/grpc-js": () => grpcJs("ValidateResourceTypeConfig", request),
    "node:http2 (bare)": bare,
  };
  // Both must get the same answer: a valid configuration, no diagnostics.
  for (const call of Object.values(clients)) {
    const answer = (await call()) as { diagnostics?: unknown[] };
    if ((answer.diagnostics ?? []).length !== 0) throw new Error(`the provider rejected the configuration: ${JSON.stringify(answer.diagnostics)}`);
  }
  const latency: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (const name of Object.keys(clients)) for (let i = 0; i < 300; i++) await clients[name as keyof typeof clients](); // JIT and connection warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(clients)) {
      const times: number[] = [];
      const before = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
      const used = process.cpuUsage(before);
      (latency[name] ??= []).push(median(times));
      (cpu[name] ??= []).push((used.user + used.system) / 1000 / CALLS);
    }
  }
  console.log(`one unary provider call (ValidateResourceTypeConfig, random_id), plaintext; medians of ${ROUNDS} rounds of ${CALLS} calls`);
  console.log("client               latency ms   client CPU ms per call");
  for (const name of Object.keys(clients)) console.log(`${name.padEnd(20)} ${median(latency[name]!).toFixed(3).padStart(10)}   ${median(cpu[name]!).toFixed(3).padStart(22)}`);
  session.close();
  channel.close();
  stub.close();
} finally {
  child.kill();
}
