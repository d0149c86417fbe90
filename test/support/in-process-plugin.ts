// Our plugin served from the test's own process, as main.ts serves it, with a client playing the engine and a sink for the engine's Log endpoint.
import * as grpc from "@grpc/grpc-js";
import { grpcClientConstructor } from "./grpc-peer.js";
import { bridgeOps } from "../../src/server/bridge-ops.js";
import { startPlugin, type RunningPlugin } from "../../src/server/plugin.js";

export type Msg = Record<string, unknown>;
export type Call = (method: string, request: Msg) => Promise<Msg>;

export interface LogEntry {
  severity: string;
  message: string;
  urn: string;
  ephemeral: boolean;
}

/** The engine's Log endpoint, so a test sees what the plugin tells the user. */
export async function engineLogSink(): Promise<{ address: string; logs: LogEntry[]; close(): void }> {
  const logs: LogEntry[] = [];
  const server = new grpc.Server();
  const Engine = grpcClientConstructor(["pulumi/engine.proto"], "pulumirpc.Engine");
  server.addService(Engine.service, {
    Log: (call: grpc.ServerUnaryCall<LogEntry, object>, cb: grpc.sendUnaryData<object>) => {
      logs.push(call.request);
      cb(null, {});
    },
  });
  const port = await new Promise<number>((res, rej) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  return { address: `127.0.0.1:${port}`, logs, close: () => server.forceShutdown() };
}

/**
 * The plugin in this process: it reads this process's environment (reattach and recording variables) when
 * Parameterize runs, and its Terraform providers are this process's children.
 */
export async function inProcessPlugin(engineAddress: string): Promise<{ plugin: RunningPlugin; call: Call; close(): Promise<void> }> {
  const plugin = await startPlugin({ argv: [engineAddress], opsFactory: bridgeOps });
  const ResourceProvider = grpcClientConstructor(["pulumi/provider.proto"], "pulumirpc.ResourceProvider");
  const client = new ResourceProvider(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure(), { "grpc.max_receive_message_length": -1 });
  const call: Call = (method, request) =>
    new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, Function>)[method]!;
      fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + 60_000 }, (err: Error | null, res: Msg) => (err ? reject(err) : resolve(res)));
    });
  return {
    plugin,
    call,
    close: async () => {
      client.close();
      await plugin.stop("test done");
    },
  };
}

/** The gRPC error a call fails with; throws if it succeeds. */
export async function failure(call: Call, method: string, request: Msg): Promise<grpc.ServiceError> {
  const e = await call(method, request).then(
    () => undefined,
    (x: unknown) => x as grpc.ServiceError,
  );
  if (e === undefined) throw new Error(`${method} succeeded unexpectedly`);
  return e;
}
