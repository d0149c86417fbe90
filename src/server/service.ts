// The pulumirpc.ResourceProvider service: Parameterize, GetSchema, plugin housekeeping, and dispatch of resource RPCs to ResourceOps.
import { describe, HelpRequested, type ParameterizeInput, type Parameterized } from "../parameterize/index.js";
import { openPackage, packageOptions } from "../parameterize/open.js";
import { hasRenderedSchema, readRenderedSchema, writeRenderedSchema } from "./rendered-schema.js";
import { cacheRoot } from "../acquire/cache.js";
import { MAPPING_KEYS, buildProviderModel, mappedProviderName, providerMapping, renderPackageSchema, type ProviderModel } from "../schema-translate/index.js";
import { pluginDownloadURL } from "../release.js";
import { VERSION } from "../version.js";
import { shadowedWarning } from "./installed-plugins.js";
import * as messages from "./messages.js";
import { forwardProviderLog, slowStatus, type Logger } from "./log.js";
import { noResourceOps, type ResourceOps, type ResourceOpsFactory } from "./ops.js";
import { RpcError, toStatus } from "./status.js";
import { Status, type Handler } from "../wire/rpc.js";
import type * as pb from "../wire/pulumirpc.gen.js";

/** The generated table of pulumirpc.ResourceProvider's RPCs, by which every handler is typed. */
type Rp = pb.ResourceProviderMethods;

export interface ProviderServiceOptions {
  /** Where our diagnostics go; replaceable (Attach gives a new engine address). */
  logger: () => Logger;
  /** Builds the bridge's operations once the provider is parameterized. */
  opsFactory?: ResourceOpsFactory;
  /** -v=N from the engine: how chatty provider log forwarding is. */
  verbosity?: number;
  /** Directory relative local provider paths are resolved against. */
  cwd?: string;
  /** The engine's Attach: log to this engine from now on. */
  onAttach?: (engineAddress: string) => void;
}

/** A parameterized provider: the launched Terraform provider, its model, operations and (lazily) its schema. */
interface Active {
  parameterized: Parameterized;
  model: ProviderModel;
  ops: ResourceOps;
  /** The GetSchema response, kept as one object so its wire encoding is computed once (see plugin.ts). */
  schemaResponse?: Promise<pb.GetSchemaResponseIn>;
  /** The converter mapping, encoded once: `pulumi convert` asks for it per Terraform provider of the program. */
  mapping?: { provider: string; data: Buffer };
}

const NOT_PARAMETERIZED =
  "this provider is not parameterized yet: it needs a Terraform provider first. Add one with " +
  "`pulumi package add terraform-provider <provider>` (e.g. hashicorp/random or ./terraform-provider-random), " +
  "or use an SDK generated that way";

export class ProviderService {
  private active: Active | undefined;
  private pending: Promise<Active> | undefined;
  private closed = false;
  /** Calls being answered, and who waits for there to be none (an orderly stop). */
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: ProviderServiceOptions) {}

  /** The current parameterization, for messages and tests. */
  get parameterization(): Parameterized | undefined {
    return this.active?.parameterized;
  }

  /** Stops the Terraform provider; the service answers nothing useful afterwards. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const active = this.active ?? (await this.pending?.catch(() => undefined));
    this.active = undefined;
    await active?.parameterized.provider.close().catch(() => undefined);
  }

  /**
   * Resolves when no call is being answered. A stop waits for this rather than for the engine to close its
   * connections: the engine keeps them open until we have exited, and it kills its plugins one after another.
   */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private callStarted(): void {
    this.inFlight++;
  }

  private callEnded(): void {
    if (--this.inFlight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private get log(): Logger {
    return this.options.logger();
  }

  private requireActive(method: string): Active {
    if (this.active === undefined) {
      throw new RpcError(Status.FAILED_PRECONDITION, this.pending ? `${method} called while Parameterize is still running` : `${method}: ${NOT_PARAMETERIZED}`);
    }
    return this.active;
  }

  private async parameterize(request: pb.ParameterizeRequest): Promise<pb.ParameterizeResponseIn> {
    if (this.closed) throw new RpcError(Status.UNAVAILABLE, "the provider is shutting down");
    if (this.active !== undefined || this.pending !== undefined) {
      const current = this.active ? describe(this.active.parameterized) : "a parameterization that is still in progress";
      throw new RpcError(
        Status.FAILED_PRECONDITION,
        `this provider instance is already parameterized as ${current}; a provider is parameterized once (start a new instance for another Terraform provider)`,
      );
    }
    const input = engineQuirks(decodeParameterize(request));
    const log = this.log;
    if (input.kind === "args") {
      // `package add` (args) is where a higher installed version of the plugin name would have run instead.
      const shadowed = shadowedWarning(VERSION);
      if (shadowed !== undefined) log.log("warning", shadowed);
    }
    const verbosity = this.options.verbosity ?? 0;
    this.pending = (async () => {
      const status = slowStatus((m) => log.status(m));
      const { parameterized, model, hints } = await openPackage(input, {
        cwd: this.options.cwd,
        status: (m) => status.update(m),
        warn: (m) => log.log("warning", m),
        info: (m) => log.log("info", m),
        debug: (m) => log.log("debug", m),
        onProviderLog: (name) => forwardProviderLog(this.log, name, verbosity),
        // A program's run (the SDK's value) uses a few resources of the provider and never renders its schema.
        // `package add` builds the whole model only to render the schema, unless that is kept from an earlier start.
        lazy: input.kind === "value" ? true : (p) => hasRenderedSchema(p, keptLocation()),
        // A program's run configures the provider right after Parameterize.
        startProvider: input.kind === "value",
      }).finally(() => status.done());
      try {
        const ops = (this.options.opsFactory ?? noResourceOps)({ provider: parameterized.provider, schema: parameterized.schema, model, log: this.log, hints });
        return { parameterized, model, ops };
      } catch (e) {
        await parameterized.provider.close().catch(() => undefined);
        throw e;
      }
    })();
    try {
      const active = await this.pending;
      // close() may have run while Parameterize was under way; the check before the await does not hold here.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (this.closed) {
        await active.parameterized.provider.close().catch(() => undefined);
        throw new RpcError(Status.UNAVAILABLE, "the provider is shutting down");
      }
      this.active = active;
      log.log("debug", `parameterized as ${describe(active.parameterized)}`);
      // `package add` and `package get-schema` ask for the schema next: rendered while the engine's GetSchema is on
      // its way, the round trip is off their path. A program's run (the value) never asks, and docs are read only
      // when the schema is asked for.
      const p = active.parameterized;
      if (input.kind === "args" && p.docs === undefined && p.indexDoc === undefined) setImmediate(() => void this.schemaOf(active).catch(() => undefined));
      return { name: active.parameterized.name, version: active.parameterized.version };
    } catch (e) {
      // Delivered before the error, which ends `pulumi package add`.
      if (e instanceof HelpRequested) {
        log.log("info", e.usage);
        await log.flush();
      }
      throw e;
    } finally {
      this.pending = undefined;
    }
  }

  private async getSchema(request: pb.GetSchemaRequest): Promise<pb.GetSchemaResponseIn> {
    const active = this.requireActive("GetSchema");
    const { name, version } = active.parameterized;
    const wantName = request.subpackage_name;
    const wantVersion = request.subpackage_version;
    if (wantName !== "" && wantName !== name) {
      throw new RpcError(Status.INVALID_ARGUMENT, `GetSchema asked for package "${wantName}", but this provider is parameterized as ${describe(active.parameterized)}`);
    }
    if (wantVersion !== "" && wantVersion !== version) {
      throw new RpcError(Status.INVALID_ARGUMENT, `GetSchema asked for ${name} version ${wantVersion}, but this provider is parameterized as ${describe(active.parameterized)}`);
    }
    return this.schemaOf(active);
  }

  /** Rendering a large provider takes a while; the engine asks more than once per command. */
  private schemaOf(active: Active): Promise<pb.GetSchemaResponseIn> {
    active.schemaResponse ??= this.renderSchema(active).catch((e: unknown) => {
      active.schemaResponse = undefined;
      throw e;
    });
    return active.schemaResponse;
  }

  /**
   * The schema, with full docs when Parameterize asked for them. Docs are read here, not in Parameterize: a program's
   * run parameterizes from the value and never asks for the schema, so it pays nothing for them.
   */
  private async renderSchema(active: Active): Promise<pb.GetSchemaResponseIn> {
    const p = active.parameterized;
    const location = releaseLocation();
    const kept = readRenderedSchema(p, location);
    if (kept !== undefined) return { schema: kept };
    // A program's run may still be asked (`pulumi package get-schema` of an SDK's value): the package's own type names.
    let model = active.model.lazy === true ? buildProviderModel(p.schema, packageOptions(p)) : active.model;
    if (p.docs !== undefined || p.indexDoc !== undefined) {
      const docs = await import("../docs/index.js");
      const log = this.log;
      const options = { cacheRoot: cacheRoot(), warn: (m: string) => log.log("warning", m), status: (m: string) => log.status(m) };
      const source = p.docs ?? p.indexDoc?.source;
      const repo = source === undefined ? undefined : await docs.docsRepository(source, options);
      const wanted =
        p.docs !== undefined
          ? { resources: [...model.resources.keys()], dataSources: [...model.dataSources.keys()], ephemeralResources: [...model.ephemeralResources.keys()], functions: [...model.functions.keys()] }
          : { resources: [], dataSources: [], functions: [] };
      const read = source !== undefined && repo !== undefined ? docs.readDocs(source, repo, wanted, options) : undefined;
      const documented = read === undefined ? undefined : buildProviderModel(p.schema, { ...packageOptions(p), docs: read, exampleLog: (m: string) => log.log("debug", m) });
      // --indexDocOutDir alone reads only the provider's page, for _index.md; the schema keeps the short docs.
      if (p.docs !== undefined && documented !== undefined) model = documented;
      if (p.indexDoc !== undefined) {
        const { writeIndexDoc } = await import("../schema-translate/index-doc.js");
        const file = await writeIndexDoc(p.indexDoc.dir, documented ?? model, { addArgs: p.indexDoc.addArgs });
        log.log("info", `wrote ${file}`);
      }
    }
    const schema = JSON.stringify(renderPackageSchema(model, { bridgeVersion: VERSION, parameter: p.value, source: p.origin, ...(location !== undefined && { pluginDownloadURL: location }) }));
    writeRenderedSchema(p, location, schema);
    return { schema };
  }

  /**
   * The mapping of the Terraform provider we are parameterized with, once Parameterize has finished. Before that there
   * is none: the reference would describe an empty provider named after itself, which maps no Terraform provider.
   */
  private mapping(): { provider: string; data: Buffer } | undefined {
    const active = this.active;
    if (active === undefined) return undefined;
    const { model, parameterized } = active;
    active.mapping ??= { provider: mappedProviderName(model, parameterized.schema), data: Buffer.from(JSON.stringify(providerMapping(model, parameterized.schema))) };
    return active.mapping;
  }

  /** Other keys, and a provider hint naming another Terraform provider, get what the reference gives them. */
  private getMapping(request: pb.GetMappingRequest): pb.GetMappingResponseIn {
    const mapping = MAPPING_KEYS.has(request.key) ? this.mapping() : undefined;
    if (mapping === undefined) return { provider: "", data: Buffer.alloc(0) };
    if (request.provider !== "" && request.provider !== mapping.provider) throw new RpcError(Status.UNKNOWN, `unknown provider ${JSON.stringify(request.provider)}`);
    return mapping;
  }

  /**
   * The engine's Cancel (Ctrl-C, SIGTERM): StopProvider makes the Terraform provider end what it is doing, and its
   * applies in flight return at once with the state they reached: an object already made comes back with its id, which
   * the engine records. Killing the provider here instead would lose those objects (the service keeps them, the stack
   * does not), so the provider is closed only once every call in flight has its answer, as Terraform waits after its
   * first interrupt. A provider that ignores StopProvider is ended by the engine's second signal, which closes us.
   */
  private async cancel(): Promise<pb.ResourceProviderMethods["Cancel"]["responseIn"]> {
    const active = this.active;
    if (active === undefined) return {};
    await active.ops.cancel?.();
    void this.closeWhenIdle(active);
    return {};
  }

  private async closeWhenIdle(active: Active): Promise<void> {
    // This Cancel call is itself in flight until it has answered.
    await new Promise((r) => setImmediate(r));
    await this.whenIdle();
    if (this.active === active) this.active = undefined;
    this.closed = true;
    await active.parameterized.provider.close().catch(() => undefined);
  }

  /**
   * A resource RPC: decode, call the bridge's operation, encode. Wiring an operation is adding it to ResourceOps;
   * until then the RPC answers UNIMPLEMENTED naming the method.
   */
  private resource<M extends keyof Rp, Req, Res>(
    method: M,
    pick: (ops: ResourceOps) => ((req: Req) => Promise<Res>) | undefined,
    decode: (r: Rp[M]["request"]) => Req,
    encode: (res: Res) => Rp[M]["responseIn"],
  ): (request: Rp[M]["request"]) => Promise<Rp[M]["responseIn"]> {
    return async (request) => {
      const active = this.requireActive(method);
      const op = pick(active.ops);
      if (op === undefined) {
        throw new RpcError(Status.UNIMPLEMENTED, `${method} is not implemented yet by terraform-provider ${VERSION} (parameterized as ${describe(active.parameterized)})`);
      }
      return encode(await op.call(active.ops, decode(request)));
    };
  }

  /** One page of a List stream; the engine abandoning the stream shows in `call.cancelled`. */
  private async list(request: Rp["List"]["request"], call: { readonly cancelled: boolean }): Promise<Rp["List"]["responseIn"][]> {
    const active = this.requireActive("List");
    if (active.ops.list === undefined) throw new RpcError(Status.UNIMPLEMENTED, `List is not implemented by terraform-provider ${VERSION}`);
    return messages.encodeList(await active.ops.list(messages.decodeList(request), () => call.cancelled));
  }

  /** The handler table the server (src/wire/rpc.ts) serves; requests arrive decoded by the service's own types. */
  handlers(): Record<keyof Rp, Handler> {
    const unary = <M extends keyof Rp>(method: M, fn: (request: Rp[M]["request"]) => Rp[M]["responseIn"] | Promise<Rp[M]["responseIn"]>): Handler => async (request) => {
      this.callStarted();
      try {
        return await fn(request as Rp[M]["request"]);
      } catch (e) {
        const status = toStatus(e, method);
        this.log.log("debug", `${method} failed: ${status.details}`);
        throw status;
      } finally {
        this.callEnded();
      }
    };
    const unimplemented = <M extends keyof Rp>(method: M, why: string): Handler =>
      unary(method, () => {
        throw new RpcError(Status.UNIMPLEMENTED, `${method} is not implemented by terraform-provider: ${why}`);
      });

    return {
      // Without Handshake the engine falls back to the flags Configure returns, which the bridge decides.
      Handshake: unimplemented("Handshake", "capabilities are reported by Configure"),
      Parameterize: unary("Parameterize", (r) => this.parameterize(r)),
      GetSchema: unary("GetSchema", (r) => this.getSchema(r)),
      GetPluginInfo: unary("GetPluginInfo", () => ({ version: VERSION })),
      Attach: unary("Attach", (r) => {
        const address = r.address;
        if (address === "") throw new RpcError(Status.INVALID_ARGUMENT, "Attach needs the engine address");
        this.options.onAttach?.(address);
        return {};
      }),
      Cancel: unary("Cancel", () => this.cancel()),
      // Mappings serve converters (`pulumi convert --from terraform`); see docs/interchange.md.
      GetMapping: unary("GetMapping", (r) => this.getMapping(r)),
      GetMappings: unary("GetMappings", (r) => {
        const mapping = MAPPING_KEYS.has(r.key) ? this.mapping() : undefined;
        return { providers: mapping === undefined ? [] : [mapping.provider] };
      }),

      // One line per resource RPC: the ResourceOps method it calls and its converters.
      CheckConfig: unary("CheckConfig", this.resource("CheckConfig", (o) => o.checkConfig, messages.decodeCheck, messages.encodeCheck)),
      DiffConfig: unary("DiffConfig", this.resource("DiffConfig", (o) => o.diffConfig, messages.decodeDiff, messages.encodeDiff)),
      Configure: unary("Configure", this.resource("Configure", (o) => o.configure, messages.decodeConfigure, messages.encodeConfigure)),
      Check: unary("Check", this.resource("Check", (o) => o.check, messages.decodeCheck, messages.encodeCheck)),
      Diff: unary("Diff", this.resource("Diff", (o) => o.diff, messages.decodeDiff, messages.encodeDiff)),
      Create: unary("Create", this.resource("Create", (o) => o.create, messages.decodeCreate, messages.encodeCreate)),
      Read: unary("Read", this.resource("Read", (o) => o.read, messages.decodeRead, messages.encodeRead)),
      Update: unary("Update", this.resource("Update", (o) => o.update, messages.decodeUpdate, messages.encodeUpdate)),
      Delete: unary("Delete", this.resource("Delete", (o) => o.delete, messages.decodeDelete, messages.encodeEmpty)),
      Invoke: unary("Invoke", this.resource("Invoke", (o) => o.invoke, messages.decodeInvoke, messages.encodeInvoke)),
      Call: unary("Call", this.resource("Call", (o) => o.call, messages.decodeCall, messages.encodeCall)),
      Construct: unimplemented("Construct", "a Terraform provider has no component resources"),

      // Server-streaming: the handler's array is the stream (src/wire/rpc.ts); the table types one message per method.
      List: (request, call) => unary("List", async (r) => (await this.list(r, call)) as unknown as Rp["List"]["responseIn"])(request, call),
    };
  }
}

/**
 * The engine (v3.248, and v3.276.0 with YAML and with TypeScript SDKs of 3.259.0) loads an explicit provider resource
 * of a parameterized package (YAML `pulumi:providers:random`, `new random.Provider`) with the *base plugin's* version in
 * the value form: it copies the default provider's version over the parameterization's after setting it. The value
 * bytes name the Terraform provider exactly, so a request naming our own version is that slip, and not a package
 * version to check against.
 */
function engineQuirks(input: ParameterizeInput): ParameterizeInput {
  return input.kind === "value" && input.version === VERSION ? { ...input, version: "" } : input;
}

function decodeParameterize(r: pb.ParameterizeRequest): ParameterizeInput {
  const { args, value } = r;
  if (r.parameters === "args" || (r.parameters === undefined && args)) return { kind: "args", args: [...(args?.args ?? [])] };
  if (r.parameters === "value" || value) {
    return { kind: "value", name: value?.name ?? "", version: value?.version ?? "", value: value?.value ?? new Uint8Array() };
  }
  throw new RpcError(Status.INVALID_ARGUMENT, "Parameterize needs either args or a value");
}

/** The schema's plugin download URL; a bad TF_BRIDGE_PLUGIN_DOWNLOAD_URL fails GetSchema with the message saying why. */
function releaseLocation(): string | undefined {
  try {
    return pluginDownloadURL(process.env);
  } catch (e) {
    throw new RpcError(Status.INVALID_ARGUMENT, (e as Error).message);
  }
}

/** The download location, or undefined when it is not one: then GetSchema says why (releaseLocation), not Parameterize. */
function keptLocation(): string | undefined {
  try {
    return releaseLocation();
  } catch {
    return undefined;
  }
}

/** The package a parameterization names: what every model built for it shares. */
