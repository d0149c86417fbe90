// The plugin server: ResourceProvider on a free loopback port, engine logging, orderly stop; main.ts makes it an executable.
import { loadProtos, prepareCodecs, serviceOf } from "../wire/proto.js";
import { VERSION } from "../version.js";
import { parsePluginArgs } from "./plugin-args.js";
import { ENGINE_PROTO, EngineLogger, StderrLogger, type Logger } from "./log.js";
import type { ResourceOpsFactory } from "./ops.js";
import { ProviderService } from "./service.js";
import { Server, type Service } from "../wire/rpc.js";

export interface RunningPlugin {
  port: number;
  service: ProviderService;
  /** Stops serving, closes the Terraform provider; idempotent. */
  stop(reason: string): Promise<void>;
}

export interface StartOptions {
  argv: readonly string[];
  opsFactory?: ResourceOpsFactory;
}

/** The definitions the server answers with; the startup snapshot preloads these same files. */
const PROVIDER_PROTO = ["pulumi/provider.proto"] as const;

/** How long in-flight calls get to finish once we are told to stop. */
const DRAIN_MS = 2_000;
/**
 * How long closing the Terraform provider and flushing the engine log may take after that. Closing asks the provider
 * to shut down and then signals it (3 s in all, src/terraform/launch.ts); a Parameterize still launching one, or an
 * engine log that cannot be delivered, must not keep us alive: the process then exits, and its exit hook and the
 * providers' parent-death signal end every provider it started.
 */
const CLOSE_MS = 4_000;

/**
 * Loads the Pulumi definitions every start uses, with the codecs of the calls every start answers or makes, for a
 * process that keeps what it loaded: the packaged plugin's startup snapshot (src/server/snapshot.ts).
 */
export function preloadServerProtocols(): void {
  loadProtos(PROVIDER_PROTO);
  prepareCodecs(PROVIDER_PROTO, "pulumirpc.ResourceProvider", ["Parameterize", "GetPluginInfo", "Configure", "CheckConfig", "DiffConfig"]);
  loadProtos(ENGINE_PROTO);
  prepareCodecs(ENGINE_PROTO, "pulumirpc.Engine", ["Log"]);
}

/** Starts the server; printing the port is left to the caller so tests can run it in-process. */
export async function startPlugin(options: StartOptions): Promise<RunningPlugin> {
  const args = parsePluginArgs(options.argv);
  const stderr = new StderrLogger(args.logToStderr ? Math.max(args.verbosity, 1) : args.verbosity);
  let engineLogger: EngineLogger | undefined;
  const attach = (address: string): void => {
    engineLogger?.close();
    engineLogger = new EngineLogger(address, stderr);
  };
  if (args.engineAddress !== undefined) attach(args.engineAddress);
  const logger = (): Logger => engineLogger ?? stderr;
  if (args.ignored.length > 0) logger().log("debug", `ignoring unknown plugin arguments: ${args.ignored.join(" ")}`);

  const service = new ProviderService({
    logger,
    opsFactory: options.opsFactory,
    verbosity: args.verbosity,
    cwd: process.cwd(),
    onAttach: attach,
  });
  // Programs send properties of any size (file contents, say); the engine's own limit is far above gRPC's 4 MiB default.
  const server = new Server({ maxReceiveBytes: 512 * 1024 * 1024 });
  const ResourceProvider = serviceOf(loadProtos(PROVIDER_PROTO), "pulumirpc.ResourceProvider");
  server.addService(withCachedSchemaEncoding(ResourceProvider), service.handlers());
  const port = await server.listen("127.0.0.1");

  let stopping: Promise<void> | undefined;
  const stop = (reason: string): Promise<void> =>
    (stopping ??= (async () => {
      logger().log("debug", `terraform-provider ${VERSION} stopping: ${reason}`);
      const drained = server.shutdown();
      let timer: NodeJS.Timeout | undefined;
      // Calls in flight get to finish; idle connections do not hold us up (the engine waits for our exit before it
      // closes the next plugin, so a slow exit here adds up across a deployment's providers).
      await Promise.race([drained, service.whenIdle(), new Promise<void>((r) => (timer = setTimeout(r, DRAIN_MS)))]);
      clearTimeout(timer);
      server.forceShutdown();
      const closed = service.shutdown().then(() => logger().flush());
      // Past the bound nobody awaits it; its failure then has nowhere to go.
      closed.catch(() => undefined);
      await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, CLOSE_MS)))]);
      clearTimeout(timer);
      engineLogger?.close();
    })());
  return { port, service, stop };
}

/**
 * A large provider's schema is tens of megabytes; encoding it to protobuf costs about as much as a GetSchema should
 * take. The service answers every GetSchema with the same response object, so its bytes are kept per object.
 */
export function withCachedSchemaEncoding(definition: Service): Service {
  const method = definition["GetSchema"];
  if (method === undefined) return definition;
  const encoded = new WeakMap<object, Buffer>();
  const serialize = method.responseSerialize;
  return {
    ...definition,
    GetSchema: {
      ...method,
      responseSerialize: (value: object): Buffer => {
        let bytes = encoded.get(value);
        if (bytes === undefined) {
          bytes = serialize(value);
          encoded.set(value, bytes);
        }
        return bytes;
      },
    },
  };
}
