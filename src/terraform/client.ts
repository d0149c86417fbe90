// One client over tfplugin5 and tfplugin6: launches a provider and exposes its RPCs as TerraformProvider, with cty values in and out.
import type { CtyType, CtyValue } from "./cty/index.js";
import { errorDiagnostics, formatDiagnostics } from "./diagnostics.js";
import { ProviderCallError, ProviderCrashedError, TerraformProviderError } from "./errors.js";
import { KnownSecrets } from "./known-secrets.js";
import { DEFAULT_PROTOCOL_VERSIONS, GO_PLUGIN_PROTO, goPluginProtos, launchProvider, type LaunchedProvider, type LaunchOptions, type ProviderLogEntry } from "./launch.js";
import { AttachedProvider, attachProvider, type ReattachTarget } from "./reattach.js";
import { SCHEMA_TIMEOUT_ENV, schemaTimeoutMs } from "./settings.js";
import { raiseWaitAdvice } from "../setting.js";
import { identityType, impliedType } from "./schema.js";
import { listEventFromPb, pullStream } from "./list.js";
import type {
  ApplyRequest,
  ApplyResult,
  CallFunctionResult,
  ConfigureOptions,
  Diagnostic,
  GenerateConfigResult,
  IdentitySchema,
  ImportResult,
  ListResourceRequest,
  ListResourceStream,
  MoveRequest,
  MoveResult,
  PlanRequest,
  PlanResult,
  OpenEphemeralResult,
  PlanActionResult,
  ProviderSchema,
  ReadDataSourceRequest,
  ReadDataSourceResult,
  ReadRequest,
  ReadResult,
  RenewEphemeralResult,
  Schema,
  TerraformProvider,
  UpgradeIdentityRequest,
  UpgradeIdentityResult,
  UpgradeRequest,
  UpgradeResult,
} from "./types.js";
import {
  deferredFromPb,
  diagnosticsFromPb,
  fromDynamic,
  functionErrorFromPb,
  identityFromPb,
  identitySchemasFromPb,
  identityToPb,
  pathFromPb,
  providerSchemaFromPb,
  timestampFromPb,
  toDynamic,
  type PbResourceIdentityData,
} from "./wire.js";
import { loadProtos, prepareCodecs, serviceOf, type Services } from "../wire/proto.js";
import { CallError, Status, type ClientCall, type Method, type Service } from "../wire/rpc.js";
import { boundText, MAX_DIAGNOSTIC_CHARS } from "../wire/bound.js";
import { method as typedMethod, type Lean } from "../wire/shape.js";
import type * as tf6 from "../wire/tfplugin6.gen.js";

/** The Terraform version we report to providers; recent enough that none refuses features. */
export const REPORTED_TERRAFORM_VERSION = "1.12.0";

/** RPC names differ between the protocols for the same operation; everything else lines up. */
export const methods = {
  5: {
    getSchema: "GetSchema",
    validateProvider: "PrepareProviderConfig",
    configure: "Configure",
    validateResource: "ValidateResourceTypeConfig",
    validateDataSource: "ValidateDataSourceConfig",
    stop: "Stop",
  },
  6: {
    getSchema: "GetProviderSchema",
    validateProvider: "ValidateProviderConfig",
    configure: "ConfigureProvider",
    validateResource: "ValidateResourceConfig",
    validateDataSource: "ValidateDataResourceConfig",
    stop: "StopProvider",
  },
} as const;

/** The generated table of tfplugin6's RPCs, by which every call is typed. */
type Tf = tf6.ProviderMethods;

/** tfplugin5's names for the RPCs tfplugin6 renamed. */
const TF5_NAMES: Partial<Record<keyof Tf, string>> = Object.fromEntries(
  (Object.keys(methods[6]) as (keyof (typeof methods)[6])[]).map((k) => [methods[6][k], methods[5][k]]),
);

/**
 * What the bridge tells every provider it handles (protocol 5 has only the first two fields and drops the others):
 * computed blocks as Terraform 1.16 plans them (src/terraform/values.ts, emptiedComputedBlocks), and a plan's private data
 * sent back with the plan that precedes its apply (src/bridge/plan-memo.ts). docs/resources.md says what each means.
 */
const clientCapabilities: tf6.ClientCapabilitiesIn = {
  deferral_allowed: false,
  write_only_attributes_allowed: true,
  store_planned_private: true,
  computed_blocks_allowed: true,
};

/** The tfplugin definitions of a protocol version, loaded once per process. wire.ts defaults every absent schema field
 * itself (providerSchemaFromPb), so the schema decodes lean. */
function tfpluginProtos(version: 5 | 6): Services {
  return loadProtos([`tfplugin${version}/tfplugin${version}.proto`], { leanResponses: ["GetProviderSchema", "GetSchema"] });
}

/** A small provider schema with every kind of member, for preloadProtocols to run through the code every launch runs. */
function sampleSchemaResponse(): object {
  const type = (t: unknown): Buffer => Buffer.from(JSON.stringify(t));
  const block = {
    attributes: [
      { name: "id", type: type("string"), computed: true },
      { name: "count", type: type("number"), optional: true },
      { name: "enabled", type: type("bool"), optional: true, sensitive: true },
      { name: "tags", type: type(["map", "string"]), optional: true },
      { name: "rules", type: type(["list", ["object", { port: "number", cidrs: ["set", "string"] }]]), optional: true, description: "The rules." },
    ],
    block_types: [{ type_name: "timeouts", nesting: "SINGLE", block: { attributes: [{ name: "create", type: type("string"), optional: true }] } }],
  };
  return {
    provider: { block: { attributes: [{ name: "endpoint", type: type("string"), optional: true }] } },
    resource_schemas: { sample_thing: { version: 1, block } },
    data_source_schemas: { sample_thing: { block } },
  };
}

/**
 * Loads both protocols' definitions and generates the codecs of the calls every launch makes, then runs a small schema
 * through the schema call's codec and conversion, for a process that keeps what it loaded and compiled: the packaged
 * plugin's startup snapshot (src/server/snapshot.ts). Returns that schema, for the caller to model.
 */
export function preloadProtocols(): ProviderSchema {
  goPluginProtos();
  // Every launch streams the provider's stdio (its request encoded as soon as the handshake is read) and stops it.
  prepareCodecs(GO_PLUGIN_PROTO, "plugin.GRPCStdio", ["StreamStdio"]);
  prepareCodecs(GO_PLUGIN_PROTO, "plugin.GRPCController", ["Shutdown"]);
  let schema: ProviderSchema | undefined;
  for (const version of [5, 6] as const) {
    const rpc = version === 5 ? "GetSchema" : "GetProviderSchema";
    prepareCodecs([`tfplugin${version}/tfplugin${version}.proto`], `tfplugin${version}.Provider`, [rpc]);
    const m = typedMethod<Lean<tf6.GetProviderSchema_Response>>(serviceOf(tfpluginProtos(version), `tfplugin${version}.Provider`), rpc)!;
    schema = providerSchemaFromPb(m.responseDeserialize(m.responseSerialize(sampleSchemaResponse())));
  }
  return schema!;
}

/** The RPCs that do work a stop must end; refused once stopProvider was called (closing an ephemeral resource is not). */
const AFTER_STOP_REFUSED: ReadonlySet<string> = new Set([
  "PlanResourceChange",
  "ApplyResourceChange",
  "ReadResource",
  "ImportResourceState",
  "MoveResourceState",
  "ReadDataSource",
  "OpenEphemeralResource",
  "RenewEphemeralResource",
  "CallFunction",
  "PlanAction",
  "InvokeAction",
  "ListResource",
]);

/** A provider's log line with the secrets handed to it replaced: SDKs log the diagnostics they return, quotes and all. */
function scrubbedLogEntry(e: ProviderLogEntry, secrets: KnownSecrets): ProviderLogEntry {
  return {
    ...e,
    message: secrets.scrubString(e.message),
    ...(e.fields !== undefined ? { fields: secrets.scrubData(e.fields) as Record<string, unknown> } : {}),
  };
}

/** How long after a failed call we wait to see whether the process died, to report a crash rather than a transport error. */
const CRASH_SETTLE_MS = 1_000;

export class GrpcTerraformProvider implements TerraformProvider {
  private readonly service: Service;
  private schema: Promise<ProviderSchema> | undefined;
  private identitySchemas: Promise<Map<string, IdentitySchema>> | undefined;
  /** Calls sent and not yet answered. */
  private readonly open = new Set<ClientCall>();

  private constructor(
    readonly process: LaunchedProvider | AttachedProvider,
    /** How long the schema calls may take; none for a provider under a debugger, which may sit at a breakpoint. */
    private readonly schemaTimeoutMs: number | undefined,
    /** The secrets handed to the provider; its diagnostics, function errors, log lines and crash output are scrubbed of them. */
    readonly secretSink: KnownSecrets = new KnownSecrets(),
  ) {
    // A provider that dies with several calls open fails them when its connection closes; a child it left holding the
    // socket open would keep them waiting. Once the exit is known, what is still open is cut, and call() reports the
    // crash for it like for the others.
    void process.exited.then(() => setTimeout(() => [...this.open].forEach((c) => c.cancel()), CRASH_SETTLE_MS).unref());
    this.service = serviceOf(tfpluginProtos(process.protocolVersion), `tfplugin${process.protocolVersion}.Provider`);
  }

  /**
   * Launches the binary and returns a client for it. The protocol definitions are loaded while the provider process
   * starts, as the provider says which protocol it speaks only in its handshake: protocol 5 first (every SDKv2
   * provider and many framework ones speak it), then the others only if the handshake has not arrived by then.
   * `schemaTimeoutMs` defaults to TF_BRIDGE_SCHEMA_TIMEOUT, read before anything starts so a bad value fails first.
   */
  static async launch(options: LaunchOptions & { schemaTimeoutMs?: number; secrets?: KnownSecrets }): Promise<GrpcTerraformProvider> {
    const timeoutMs = options.schemaTimeoutMs ?? schemaTimeoutMs();
    let handshakeDone = false;
    const [first, ...rest] = [...(options.protocolVersions ?? DEFAULT_PROTOCOL_VERSIONS)].sort((a, b) => a - b);
    const whileStarting = (): void => {
      options.whileStarting?.();
      if (first !== undefined) tfpluginProtos(first);
      setImmediate(() => {
        if (!handshakeDone) for (const version of rest) tfpluginProtos(version);
      });
    };
    const secrets = options.secrets ?? new KnownSecrets();
    const onLog = options.onLog;
    const scrubbed = onLog && ((e: ProviderLogEntry): void => onLog(scrubbedLogEntry(e, secrets)));
    try {
      return new GrpcTerraformProvider(await launchProvider({ ...options, whileStarting, ...(scrubbed ? { onLog: scrubbed } : {}) }), timeoutMs, secrets);
    } finally {
      handshakeDone = true;
    }
  }

  /** Connects to a provider already serving in debug mode (TF_REATTACH_PROVIDERS); close() leaves it running. */
  static async attach(name: string, target: ReattachTarget): Promise<GrpcTerraformProvider> {
    return new GrpcTerraformProvider(await attachProvider(name, target), undefined);
  }

  get protocolVersion(): 5 | 6 {
    return this.process.protocolVersion;
  }

  /** Set by stopProvider: work RPCs are refused from then on. */
  private stopped = false;

  /** Calls an RPC by its tfplugin6 name (the tfplugin5 name when the provider speaks 5), typed by the generated types. */
  private call<M extends keyof Tf>(rpc: M, request: Tf[M]["requestIn"], timeoutMs?: number): Promise<Lean<Tf[M]["response"]>> {
    return this.send(rpc, (m: Method<unknown, Lean<Tf[M]["response"]>>) => this.process.channel.unary(m, request, timeoutMs === undefined ? {} : { deadline: Date.now() + timeoutMs }), timeoutMs);
  }

  /**
   * Calls a server-streaming RPC, handing each message to `onMessage`; resolves when the stream ends OK. `onCall` gets
   * the call once it is sent, for a reader that may stop early to cancel it.
   */
  private stream<M extends keyof Tf>(rpc: M, request: Tf[M]["requestIn"], onMessage: (message: Lean<Tf[M]["response"]>) => void, onCall?: (call: ClientCall) => void): Promise<void> {
    return this.send(rpc, (m: Method<unknown, Lean<Tf[M]["response"]>>) => {
      let call: ClientCall | undefined;
      const ended = new Promise<void>((resolve, reject) => {
        call = this.process.channel.serverStream(m, request, onMessage, (err) => (err === undefined ? resolve() : reject(err)));
      });
      onCall?.(call!);
      return Object.assign(ended, { cancel: () => call!.cancel() });
    });
  }

  /** One call of either kind: refused after a stop or a crash, tracked while open, its failure explained. */
  private async send<M extends keyof Tf, T>(rpc: M, start: (m: Method<unknown, Lean<Tf[M]["response"]>>) => Promise<T> & ClientCall, timeoutMs?: number): Promise<T> {
    const method = this.protocolVersion === 5 ? (TF5_NAMES[rpc] ?? rpc) : rpc;
    const rpcMethod = typedMethod<Lean<Tf[M]["response"]>>(this.service, method);
    if (rpcMethod === undefined) throw new TerraformProviderError(`protocol ${this.protocolVersion} has no RPC ${method}`);
    if (this.process.exit !== undefined) throw this.crashError(method);
    if (this.stopped && AFTER_STOP_REFUSED.has(rpc)) {
      throw new ProviderCallError(`${method} was not sent: the operation was cancelled (the provider was asked to stop)`, method, Status.CANCELLED);
    }
    try {
      const c = start(rpcMethod);
      this.open.add(c);
      return await c.finally(() => this.open.delete(c));
    } catch (e) {
      const err = e instanceof CallError ? e : new CallError(Status.INTERNAL, (e as Error).message);
      if (err.code === Status.UNAVAILABLE && this.process instanceof AttachedProvider) {
        throw new ProviderCallError(`${method} failed: ${this.process.unreachable()} (${err.details})`, method, err.code, { cause: e });
      }
      // A dying provider surfaces first as a broken connection; wait briefly for the exit to report the crash.
      if (err.code === Status.UNAVAILABLE || err.code === Status.CANCELLED || err.code === Status.INTERNAL) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.process.exited, new Promise((r) => (timer = setTimeout(r, CRASH_SETTLE_MS)))]);
        clearTimeout(timer);
        // Set by the exit handler while we waited; the narrowing from the check before the call does not hold.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
        if (this.process.exit !== undefined) throw this.crashError(method);
      }
      if (err.code === Status.DEADLINE_EXCEEDED && timeoutMs !== undefined) {
        throw this.deadlineError(method, timeoutMs, e);
      }
      if (err.code === Status.UNIMPLEMENTED) {
        throw new ProviderCallError(`the provider does not implement ${method}: ${this.secretSink.scrubString(err.details)}`, method, err.code, { cause: e });
      }
      throw new ProviderCallError(`${method} failed: ${this.secretSink.scrubString(err.details)}`, method, err.code, { cause: e });
    }
  }

  private deadlineError(method: string, timeoutMs: number, cause: unknown): ProviderCallError {
    const seconds = timeoutMs / 1000;
    const stderr = this.secretSink.scrubString(this.process.recentStderr(10).trim());
    return new ProviderCallError(
      `the Terraform provider ${this.process.path} did not answer ${method} within ${seconds} s; ` +
        `it seems hung. If it is only slow, ${raiseWaitAdvice(SCHEMA_TIMEOUT_ENV, timeoutMs)}` +
        (stderr !== "" ? `; it printed:\n${stderr}` : ""),
      method,
      Status.DEADLINE_EXCEEDED,
      { cause },
    );
  }

  /** A response's diagnostics, scrubbed of the secrets handed to the provider (which providers quote back). */
  private diagnostics(pb: Parameters<typeof diagnosticsFromPb>[0]): Diagnostic[] {
    return diagnosticsFromPb(pb).map((d) => ({ ...d, summary: this.secretSink.scrubString(d.summary), detail: this.secretSink.scrubString(d.detail) }));
  }

  private crashError(method: string): ProviderCrashedError {
    const exit = this.process.exit!;
    const panicText = this.process.panicText();
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const detail = this.secretSink.scrubString(panicText ?? this.process.recentStderr(20));
    return new ProviderCrashedError(
      `the Terraform provider ${this.process.path} ${how} during ${method}` +
        (detail.trim() !== "" ? `; it printed:\n${detail}` : ""),
      exit.code,
      exit.signal,
      panicText,
    );
  }

  /**
   * Takes a schema known from an earlier start of the same binary (schema-cache.ts) as this provider's, so that the
   * conversions need no GetProviderSchema: what Terraform does for a provider that declares get_provider_schema_optional.
   */
  useSchema(schema: ProviderSchema): void {
    this.schema = Promise.resolve(schema);
  }

  getProviderSchema(): Promise<ProviderSchema> {
    if (this.schema === undefined) {
      const fetched = this.call("GetProviderSchema", {}, this.schemaTimeoutMs).then(providerSchemaFromPb);
      // A failed fetch must not poison later attempts.
      fetched.catch(() => {
        if (this.schema === fetched) this.schema = undefined;
      });
      this.schema = fetched;
    }
    return this.schema;
  }

  private async resourceSchema(typeName: string): Promise<Schema> {
    const schema = (await this.getProviderSchema()).resources.get(typeName);
    if (schema === undefined) throw new TerraformProviderError(`the provider has no resource type ${typeName}`);
    return schema;
  }

  private async dataSourceSchema(typeName: string): Promise<Schema> {
    const schema = (await this.getProviderSchema()).dataSources.get(typeName);
    if (schema === undefined) throw new TerraformProviderError(`the provider has no data source ${typeName}`);
    return schema;
  }

  private async ephemeralSchema(typeName: string): Promise<Schema> {
    const schema = (await this.getProviderSchema()).ephemeralResources.get(typeName);
    if (schema === undefined) throw new TerraformProviderError(`the provider has no ephemeral resource ${typeName}`);
    return schema;
  }

  private async providerType(): Promise<CtyType> {
    return impliedType((await this.getProviderSchema()).provider.block);
  }

  private async metaValue(meta: CtyValue | undefined): Promise<tf6.DynamicValueIn | undefined> {
    if (meta === undefined) return undefined;
    const schema = (await this.getProviderSchema()).providerMeta;
    return schema ? toDynamic(meta, impliedType(schema.block)) : undefined;
  }

  async validateProviderConfig(config: CtyValue): Promise<Diagnostic[]> {
    const t = await this.providerType();
    const res = await this.call("ValidateProviderConfig", { config: toDynamic(config, t) });
    return this.diagnostics(res.diagnostics);
  }

  async configureProvider(config: CtyValue, options?: ConfigureOptions): Promise<Diagnostic[]> {
    const t = await this.providerType();
    const res = await this.call("ConfigureProvider", {
      terraform_version: options?.terraformVersion ?? REPORTED_TERRAFORM_VERSION,
      config: toDynamic(config, t),
      client_capabilities: clientCapabilities,
    });
    return this.diagnostics(res.diagnostics);
  }

  async validateResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    const t = impliedType((await this.resourceSchema(typeName)).block);
    const res = await this.call("ValidateResourceConfig", {
      type_name: typeName,
      config: toDynamic(config, t),
      client_capabilities: clientCapabilities,
    });
    return this.diagnostics(res.diagnostics);
  }

  async planResourceChange(req: PlanRequest): Promise<PlanResult> {
    const t = impliedType((await this.resourceSchema(req.typeName)).block);
    const res = await this.call("PlanResourceChange", {
      type_name: req.typeName,
      prior_state: toDynamic(req.priorState, t),
      proposed_new_state: toDynamic(req.proposedNewState, t),
      config: toDynamic(req.config, t),
      prior_private: req.priorPrivate ?? Buffer.alloc(0),
      provider_meta: await this.metaValue(req.providerMeta),
      client_capabilities: clientCapabilities,
      prior_identity: await this.identityValue(req.typeName, req.priorIdentity),
      ...(req.plannedPrivate !== undefined ? { planned_private: req.plannedPrivate } : {}),
    });
    const deferred = deferredFromPb(res.deferred);
    const plannedIdentity = await this.identityResult(req.typeName, res.planned_identity);
    return {
      ...(plannedIdentity !== undefined ? { plannedIdentity } : {}),
      plannedState: fromDynamic(res.planned_state, t),
      requiresReplace: (res.requires_replace ?? []).map((p) => pathFromPb(p) ?? []),
      plannedPrivate: res.planned_private ?? Buffer.alloc(0),
      diagnostics: this.diagnostics(res.diagnostics),
      legacyTypeSystem: res.legacy_type_system ?? false,
      ...(deferred ? { deferred } : {}),
    };
  }

  async applyResourceChange(req: ApplyRequest): Promise<ApplyResult> {
    const t = impliedType((await this.resourceSchema(req.typeName)).block);
    const res = await this.call("ApplyResourceChange", {
      type_name: req.typeName,
      prior_state: toDynamic(req.priorState, t),
      planned_state: toDynamic(req.plannedState, t),
      config: toDynamic(req.config, t),
      planned_private: req.plannedPrivate ?? Buffer.alloc(0),
      provider_meta: await this.metaValue(req.providerMeta),
      planned_identity: await this.identityValue(req.typeName, req.plannedIdentity),
    });
    const newIdentity = await this.identityResult(req.typeName, res.new_identity);
    return {
      ...(newIdentity !== undefined ? { newIdentity } : {}),
      newState: fromDynamic(res.new_state, t),
      private: res.private ?? Buffer.alloc(0),
      diagnostics: this.diagnostics(res.diagnostics),
      legacyTypeSystem: res.legacy_type_system ?? false,
    };
  }

  async readResource(req: ReadRequest): Promise<ReadResult> {
    const t = impliedType((await this.resourceSchema(req.typeName)).block);
    const res = await this.call("ReadResource", {
      type_name: req.typeName,
      current_state: toDynamic(req.currentState, t),
      private: req.private ?? Buffer.alloc(0),
      provider_meta: await this.metaValue(req.providerMeta),
      client_capabilities: clientCapabilities,
      current_identity: await this.identityValue(req.typeName, req.currentIdentity),
    });
    const deferred = deferredFromPb(res.deferred);
    const newIdentity = await this.identityResult(req.typeName, res.new_identity);
    return {
      ...(newIdentity !== undefined ? { newIdentity } : {}),
      newState: fromDynamic(res.new_state, t),
      private: res.private ?? Buffer.alloc(0),
      diagnostics: this.diagnostics(res.diagnostics),
      ...(deferred ? { deferred } : {}),
    };
  }

  async importResourceState(typeName: string, id: string, identity?: CtyValue): Promise<ImportResult> {
    await this.resourceSchema(typeName);
    const res = await this.call("ImportResourceState", { type_name: typeName, id, client_capabilities: clientCapabilities, identity: await this.identityValue(typeName, identity) });
    const imported = [];
    for (const r of res.imported_resources ?? []) {
      const typeName = r.type_name ?? "";
      // An import may return resources of other types; each decodes with its own schema.
      const t = impliedType((await this.resourceSchema(typeName)).block);
      const importedIdentity = await this.identityResult(typeName, r.identity);
      imported.push({ typeName, state: fromDynamic(r.state, t), private: r.private ?? Buffer.alloc(0), ...(importedIdentity !== undefined ? { identity: importedIdentity } : {}) });
    }
    const deferred = deferredFromPb(res.deferred);
    return { imported, diagnostics: this.diagnostics(res.diagnostics), ...(deferred ? { deferred } : {}) };
  }

  async generateResourceConfig(typeName: string, state: CtyValue): Promise<GenerateConfigResult> {
    const t = impliedType((await this.resourceSchema(typeName)).block);
    const res = await this.call("GenerateResourceConfig", { type_name: typeName, state: toDynamic(state, t) });
    return { config: fromDynamic(res.config, t), diagnostics: this.diagnostics(res.diagnostics) };
  }

  async upgradeResourceState(req: UpgradeRequest): Promise<UpgradeResult> {
    const t = impliedType((await this.resourceSchema(req.typeName)).block);
    const json = typeof req.rawStateJson === "string" ? Buffer.from(req.rawStateJson) : req.rawStateJson;
    const res = await this.call("UpgradeResourceState", {
      type_name: req.typeName,
      version: String(req.version),
      raw_state: { json },
    });
    return { upgradedState: fromDynamic(res.upgraded_state, t), diagnostics: this.diagnostics(res.diagnostics) };
  }

  async moveResourceState(req: MoveRequest): Promise<MoveResult> {
    const t = impliedType((await this.resourceSchema(req.targetTypeName)).block);
    const res = await this.call("MoveResourceState", {
      source_provider_address: req.sourceProviderAddress,
      source_type_name: req.sourceTypeName,
      source_schema_version: String(req.sourceSchemaVersion),
      source_state: { json: Buffer.from(req.sourceStateJson) },
      target_type_name: req.targetTypeName,
      source_private: Buffer.from(req.sourcePrivate),
      ...(req.sourceIdentity !== undefined
        ? { source_identity: { json: Buffer.from(req.sourceIdentity.json) }, source_identity_schema_version: String(req.sourceIdentity.version) }
        : {}),
    });
    const targetIdentity = await this.identityResult(req.targetTypeName, res.target_identity);
    return {
      targetState: fromDynamic(res.target_state, t),
      targetPrivate: res.target_private ?? Buffer.alloc(0),
      ...(targetIdentity !== undefined ? { targetIdentity } : {}),
      diagnostics: this.diagnostics(res.diagnostics),
    };
  }

  /** Fetched once; a provider built before resource identity (protocol < 5.9/6.9) answers UNIMPLEMENTED: no identities. */
  getResourceIdentitySchemas(): Promise<Map<string, IdentitySchema>> {
    if (this.identitySchemas === undefined) {
      const fetched = this.call("GetResourceIdentitySchemas", {}, this.schemaTimeoutMs).then(
        (res) => {
          const errors = errorDiagnostics(this.diagnostics(res.diagnostics));
          if (errors.length > 0) throw new TerraformProviderError(`GetResourceIdentitySchemas failed:\n${formatDiagnostics(errors)}`);
          return identitySchemasFromPb(res);
        },
        (e: unknown) => {
          if (e instanceof ProviderCallError && e.grpcCode === Status.UNIMPLEMENTED) return new Map<string, IdentitySchema>();
          throw e;
        },
      );
      fetched.catch(() => {
        if (this.identitySchemas === fetched) this.identitySchemas = undefined;
      });
      this.identitySchemas = fetched;
    }
    return this.identitySchemas;
  }

  async upgradeResourceIdentity(req: UpgradeIdentityRequest): Promise<UpgradeIdentityResult> {
    const t = await this.identityTypeOf(req.typeName);
    if (t === undefined) throw new TerraformProviderError(`the provider has no identity schema for ${req.typeName}`);
    const json = typeof req.rawIdentityJson === "string" ? Buffer.from(req.rawIdentityJson) : req.rawIdentityJson;
    const res = await this.call("UpgradeResourceIdentity", {
      type_name: req.typeName,
      version: String(req.version),
      raw_identity: { json },
    });
    return { upgradedIdentity: identityFromPb(res.upgraded_identity, t) ?? null, diagnostics: this.diagnostics(res.diagnostics) };
  }

  private async identityTypeOf(typeName: string): Promise<CtyType | undefined> {
    const schema = (await this.getResourceIdentitySchemas()).get(typeName);
    return schema === undefined ? undefined : identityType(schema);
  }

  /** A request's identity field; absent when the caller has none, so resources without identity send what they always did. */
  private async identityValue(typeName: string, identity: CtyValue | undefined): Promise<tf6.ResourceIdentityDataIn | undefined> {
    return identity === undefined ? undefined : identityToPb(identity, await this.identityTypeOf(typeName));
  }

  /** A response's identity; the identity schemas are consulted only when the provider sent one. */
  private async identityResult(typeName: string, d: PbResourceIdentityData | null | undefined): Promise<CtyValue | undefined> {
    if (!d || !d.identity_data) return undefined;
    return identityFromPb(d, await this.identityTypeOf(typeName));
  }

  async validateDataSourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    const t = impliedType((await this.dataSourceSchema(typeName)).block);
    const res = await this.call("ValidateDataResourceConfig", {
      type_name: typeName,
      config: toDynamic(config, t),
    });
    return this.diagnostics(res.diagnostics);
  }

  async readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResult> {
    const t = impliedType((await this.dataSourceSchema(req.typeName)).block);
    const res = await this.call(
      "ReadDataSource",
      {
        type_name: req.typeName,
        config: toDynamic(req.config, t),
        provider_meta: await this.metaValue(req.providerMeta),
        client_capabilities: clientCapabilities,
      },
    );
    const deferred = deferredFromPb(res.deferred);
    return { state: fromDynamic(res.state, t), diagnostics: this.diagnostics(res.diagnostics), ...(deferred ? { deferred } : {}) };
  }

  async callFunction(name: string, args: CtyValue[]): Promise<CallFunctionResult> {
    const fn = (await this.getProviderSchema()).functions.get(name);
    if (fn === undefined) throw new TerraformProviderError(`the provider has no function ${name}`);
    const fixed = fn.parameters.length;
    if (args.length < fixed || (fn.variadicParameter === undefined && args.length > fixed)) {
      const want = fn.variadicParameter === undefined ? `${fixed}` : `at least ${fixed}`;
      throw new TerraformProviderError(`function ${name} takes ${want} argument(s), got ${args.length}`);
    }
    const encoded = args.map((a, i) => {
      const p = i < fixed ? fn.parameters[i]! : fn.variadicParameter!;
      return toDynamic(a, p.type);
    });
    const res = await this.call("CallFunction", {
      name,
      arguments: encoded,
    });
    const error = functionErrorFromPb(res.error);
    if (error !== undefined) return { result: null, error: { ...error, text: this.secretSink.scrubString(error.text) } };
    return { result: fromDynamic(res.result, fn.returnType) };
  }

  async validateEphemeralResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    const t = impliedType((await this.ephemeralSchema(typeName)).block);
    const res = await this.call("ValidateEphemeralResourceConfig", {
      type_name: typeName,
      config: toDynamic(config, t),
    });
    return this.diagnostics(res.diagnostics);
  }

  async openEphemeralResource(typeName: string, config: CtyValue): Promise<OpenEphemeralResult> {
    const t = impliedType((await this.ephemeralSchema(typeName)).block);
    const res = await this.call("OpenEphemeralResource", { type_name: typeName, config: toDynamic(config, t), client_capabilities: clientCapabilities });
    const deferred = deferredFromPb(res.deferred);
    const renewAt = timestampFromPb(res.renew_at);
    return {
      result: fromDynamic(res.result, t),
      private: res.private ?? Buffer.alloc(0),
      diagnostics: this.diagnostics(res.diagnostics),
      ...(renewAt ? { renewAt } : {}),
      ...(deferred ? { deferred } : {}),
    };
  }

  async renewEphemeralResource(typeName: string, privateData: Uint8Array): Promise<RenewEphemeralResult> {
    await this.ephemeralSchema(typeName);
    const res = await this.call("RenewEphemeralResource", {
      type_name: typeName,
      private: Buffer.from(privateData),
    });
    const renewAt = timestampFromPb(res.renew_at);
    return { private: res.private ?? Buffer.alloc(0), diagnostics: this.diagnostics(res.diagnostics), ...(renewAt ? { renewAt } : {}) };
  }

  async closeEphemeralResource(typeName: string, privateData: Uint8Array): Promise<Diagnostic[]> {
    await this.ephemeralSchema(typeName);
    const res = await this.call("CloseEphemeralResource", { type_name: typeName, private: Buffer.from(privateData) });
    return this.diagnostics(res.diagnostics);
  }

  private async actionType(actionType: string): Promise<CtyType> {
    const schema = (await this.getProviderSchema()).actions.get(actionType);
    if (schema === undefined) throw new TerraformProviderError(`the provider has no action ${actionType}`);
    return impliedType(schema.block);
  }

  async validateActionConfig(actionType: string, config: CtyValue): Promise<Diagnostic[]> {
    const t = await this.actionType(actionType);
    const res = await this.call("ValidateActionConfig", { action_type: actionType, config: toDynamic(config, t) });
    return this.diagnostics(res.diagnostics);
  }

  async planAction(actionType: string, config: CtyValue): Promise<PlanActionResult> {
    const t = await this.actionType(actionType);
    const res = await this.call("PlanAction", { action_type: actionType, config: toDynamic(config, t), client_capabilities: clientCapabilities });
    const deferred = deferredFromPb(res.deferred);
    return { diagnostics: this.diagnostics(res.diagnostics), ...(deferred ? { deferred } : {}) };
  }

  async invokeAction(actionType: string, config: CtyValue, onProgress: (message: string) => void): Promise<Diagnostic[]> {
    const t = await this.actionType(actionType);
    let completed: Diagnostic[] | undefined;
    await this.stream("InvokeAction", { action_type: actionType, config: toDynamic(config, t), client_capabilities: clientCapabilities }, (event) => {
      if (event.progress) onProgress(this.secretSink.scrubString(boundText(event.progress.message ?? "", MAX_DIAGNOSTIC_CHARS)));
      else if (event.completed) completed = this.diagnostics(event.completed.diagnostics);
    });
    if (completed === undefined) throw new ProviderCallError(`InvokeAction of ${actionType} ended without a completed event`, "InvokeAction", Status.INTERNAL);
    return completed;
  }

  private async listSchema(typeName: string): Promise<Schema> {
    const schema = (await this.getProviderSchema()).listResources?.get(typeName);
    if (schema === undefined) throw new TerraformProviderError(`the provider has no list resource ${typeName}`);
    return schema;
  }

  async validateListResourceConfig(typeName: string, config: CtyValue, includeResource: boolean, limit: number): Promise<Diagnostic[]> {
    const t = impliedType((await this.listSchema(typeName)).block);
    const res = await this.call("ValidateListResourceConfig", {
      type_name: typeName,
      config: toDynamic(config, t),
      include_resource_object: toDynamic(includeResource, { kind: "bool" }),
      limit: toDynamic(limit, { kind: "number" }),
    });
    return this.diagnostics(res.diagnostics);
  }

  /** ListResource's events as they arrive; a provider that dies mid-stream ends it with the crash. */
  async listResource(req: ListResourceRequest): Promise<ListResourceStream> {
    const t = impliedType((await this.listSchema(req.typeName)).block);
    const types = { resource: impliedType((await this.resourceSchema(req.typeName)).block), identity: await this.identityTypeOf(req.typeName) };
    const request: tf6.ListResource_RequestIn = { type_name: req.typeName, config: toDynamic(req.config, t), include_resource_object: req.includeResource, limit: String(req.limit) };
    return pullStream((push, end) => {
      let call: ClientCall | undefined;
      // send() refuses the call after a stop or a crash, tracks it while open and explains its failure, as for every RPC.
      this.stream("ListResource", request, (e) => push(listEventFromPb(e, types, (d) => this.diagnostics(d))), (c) => (call = c)).then(
        () => end(undefined),
        (err: unknown) => end(err as Error),
      );
      return () => call?.cancel();
    });
  }

  async stopProvider(): Promise<string | undefined> {
    // A provider's StopProvider cancels only the calls in flight (terraform-plugin-go makes a fresh stop context
    // after it); one sent a moment later, such as the apply of a create the engine had already begun, would run to
    // its end. Terraform starts no work after a stop, so neither does this client.
    this.stopped = true;
    const res = await this.call("StopProvider", {});
    return res.Error !== undefined && res.Error !== "" ? res.Error : undefined;
  }

  close(): Promise<void> {
    return this.process.shutdown();
  }
}

// Kept here too: callers of the client have always found them beside it.
export { errorDiagnostics, formatDiagnostics } from "./diagnostics.js";
