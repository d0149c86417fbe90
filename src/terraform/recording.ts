// Records every call made to a Terraform provider as one JSON line in the file PULUMI_TF_DEBUG_GRPC names, secrets redacted, for bug reports.
import { closeSync, openSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { BigNum, Dynamic, isRecord, isUnknown, type CtyValue } from "./cty/index.js";
import { methods } from "./client.js";
import { TerraformProviderError } from "./errors.js";
import { KnownSecrets } from "./known-secrets.js";
import type {
  ApplyRequest,
  ApplyResult,
  Attribute,
  Block,
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
  NestedAttributeObject,
  OpenEphemeralResult,
  PlanActionResult,
  PlanRequest,
  PlanResult,
  ProviderSchema,
  ReadDataSourceRequest,
  ReadDataSourceResult,
  ReadRequest,
  ReadResult,
  RenewEphemeralResult,
  SecretSink,
  TerraformProvider,
  UpgradeIdentityRequest,
  UpgradeIdentityResult,
  UpgradeRequest,
  UpgradeResult,
} from "./types.js";

/**
 * The reference bridge reads the same variable for the same purpose (its own format: protobuf text, unredacted);
 * the engine's PULUMI_DEBUG_GRPC records the engine's side, not this one.
 */
export const RECORD_VARIABLE = "PULUMI_TF_DEBUG_GRPC";

export const REDACTED = "<redacted>";
const UNKNOWN_TEXT = "<unknown>";
type Json = null | boolean | number | string | Redacted | Json[] | { [key: string]: Json };

// ---- Secrets known by value ----

/**
 * The provider's known secrets (KnownSecrets) for one recording session (a CallRecorder), with what a record hides:
 * every secret seen is scrubbed from every record, as `<redacted>`.
 */
export class RecordedSecrets extends KnownSecrets {
  /** Remembers what a record hides (its Redacted values), and nothing else of it. */
  noteHidden(v: Json): void {
    if (v instanceof Redacted) this.note(v.value);
    else if (Array.isArray(v)) for (const x of v) this.noteHidden(x);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) this.noteHidden(x);
  }

  protected override hidden(v: unknown): boolean {
    return v instanceof Redacted;
  }

  /** The record with every remembered secret replaced, in values and in keys, and every redacted value hidden. */
  scrub(v: Json): Json {
    return this.scrubData(v, REDACTED) as Json;
  }
}

/** A value the schema says to hide: written as REDACTED, and remembered by the session in case it turns up elsewhere. */
class Redacted {
  constructor(readonly value: Json) {}
}

// ---- Values by schema ----

/** A value shown as it is: unknowns marked, big numbers exact. */
function plain(v: CtyValue | undefined): Json {
  if (v === null || v === undefined) return null;
  if (typeof v !== "object") return v;
  if (isUnknown(v)) return UNKNOWN_TEXT;
  if (v instanceof BigNum) return String(Number(v.text)) === v.text ? Number(v.text) : v.text;
  if (v instanceof Dynamic) return plain(v.value);
  if (Array.isArray(v)) return v.map(plain);
  const out: { [key: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  return out;
}

/** A sensitive value: whether it is set shows, the value does not (and is remembered, should it turn up elsewhere). */
function redact(v: CtyValue | undefined): Json {
  if (v === null || v === undefined) return null;
  if (isUnknown(v)) return UNKNOWN_TEXT;
  return new Redacted(plain(v));
}

/** Applies `each` to the object(s) a nesting mode holds; anything shaped otherwise is redacted whole. */
function nested(v: CtyValue | undefined, nesting: string, each: (x: CtyValue) => Json): Json {
  if (v === null || v === undefined) return null;
  if (isUnknown(v)) return UNKNOWN_TEXT;
  if (nesting === "single" || nesting === "group") return each(v);
  if ((nesting === "list" || nesting === "set") && Array.isArray(v)) return v.map(each);
  if (nesting === "map" && isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, each(x)]));
  return redact(v);
}

function attributeValue(a: Attribute, v: CtyValue | undefined, all: boolean): Json {
  if (all || a.sensitive || a.writeOnly) return redact(v);
  if (a.nestedType !== undefined) return nestedAttributes(a.nestedType, v, all);
  return plain(v);
}

function nestedAttributes(t: NestedAttributeObject, v: CtyValue | undefined, all: boolean): Json {
  const object = (x: CtyValue): Json => attributes(t.attributes, [], x, all);
  return nested(v, t.nesting, object);
}

function attributes(attrs: readonly Attribute[], blocks: Block["blockTypes"], v: CtyValue | undefined, all: boolean): Json {
  if (v === null || v === undefined) return null;
  if (isUnknown(v)) return UNKNOWN_TEXT;
  if (!isRecord(v)) return redact(v);
  const out: { [key: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) {
    const a = attrs.find((c) => c.name === k);
    if (a !== undefined) {
      out[k] = attributeValue(a, x, all);
      continue;
    }
    const b = blocks.find((c) => c.typeName === k);
    // Not in the schema at all: nothing says it is harmless.
    out[k] = b === undefined ? redact(x) : nested(x, b.nesting, (o) => byBlock(b.block, o, all));
  }
  return out;
}

/** A value of a block (resource, data source, provider): sensitive and write-only attributes redacted; `all` redacts every set value. */
function byBlock(block: Block | undefined, v: CtyValue | undefined, all = false): Json {
  if (block === undefined) return redact(v);
  return attributes(block.attributes, block.blockTypes, v, all);
}

const bytes = (b: Uint8Array | undefined): Json => (b === undefined || b.length === 0 ? null : `<${b.length} bytes>`);

function diagnostics(diags: readonly Diagnostic[]): Json {
  return diags.map((d) => ({
    severity: d.severity,
    summary: d.summary,
    ...(d.detail !== "" ? { detail: d.detail } : {}),
    ...(d.attribute !== undefined ? { attribute: d.attribute.map((s) => ("attribute" in s ? s.attribute : "key" in s ? s.key : s.index)) } : {}),
  }));
}

// ---- The file ----

/** Appends records to one file; each line goes out in one write, so plugins sharing the file do not interleave. */
export class CallRecorder {
  private fd: number | undefined;

  constructor(readonly file: string) {
    try {
      // Owner-only: the records are redacted, but still describe the user's infrastructure.
      this.fd = openSync(file, "a", 0o600);
    } catch (e) {
      throw new TerraformProviderError(`${RECORD_VARIABLE}=${file}: cannot open the file for appending (${(e as Error).message}); name a writable file or unset ${RECORD_VARIABLE}`, { cause: e });
    }
  }

  /** This session's secrets: what the schema hid in earlier records and what the conversion handed over. */
  readonly secrets = new RecordedSecrets();

  write(record: { [key: string]: Json }): void {
    if (this.fd === undefined) return;
    // Hidden values are remembered before anything is written, so the same record's diagnostics cannot show them.
    this.secrets.noteHidden(record);
    try {
      writeSync(this.fd, `${JSON.stringify(this.secrets.scrub(record))}\n`);
    } catch {
      // A full disk must not fail the deployment being recorded.
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The recorder PULUMI_TF_DEBUG_GRPC asks for, or undefined when it is unset. */
export function recorderFromEnv(env: NodeJS.ProcessEnv = process.env): CallRecorder | undefined {
  const file = env[RECORD_VARIABLE];
  return file === undefined || file === "" ? undefined : new CallRecorder(file);
}

// ---- The provider, recorded ----

/**
 * Wraps a provider so that each call it makes becomes a record: RPC name, the request and the response (or error) as
 * the bridge sees them, with values rendered by the schema, and the time the call took. Only used when recording, so
 * the normal path has no wrapper at all.
 */
export class RecordingProvider implements TerraformProvider {
  private schema: ProviderSchema | undefined;
  private schemaFetch: Promise<ProviderSchema> | undefined;
  private identityFetch: Promise<Map<string, IdentitySchema>> | undefined;
  private readonly names: (typeof methods)[5] | (typeof methods)[6];

  constructor(
    readonly inner: TerraformProvider,
    private readonly recorder: CallRecorder,
    /** The provider's name in every record, for files that several providers append to. */
    private readonly label: string,
  ) {
    this.names = methods[inner.protocolVersion];
  }

  /** The program's secrets go to this session, to be scrubbed wherever they turn up in a record, and to the provider's own. */
  get secretSink(): SecretSink {
    const recorded = this.recorder.secrets;
    const inner = this.inner.secretSink;
    if (inner === undefined) return recorded;
    return {
      note: (v) => {
        recorded.note(v);
        inner.note(v);
      },
    };
  }

  get protocolVersion(): 5 | 6 {
    return this.inner.protocolVersion;
  }

  private async recorded<T>(method: string, request: () => Json, call: () => Promise<T>, response: (r: T) => Json): Promise<T> {
    const time = new Date().toISOString();
    const started = performance.now();
    try {
      const result = await call();
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      this.recorder.write({ time, pid: process.pid, provider: this.label, method, durationMs, request: request(), response: response(result) });
      return result;
    } catch (e) {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      this.recorder.write({ time, pid: process.pid, provider: this.label, method, durationMs, request: request(), error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  }

  private resource(typeName: string): Block | undefined {
    return this.schema?.resources.get(typeName)?.block;
  }

  private dataSource(typeName: string): Block | undefined {
    return this.schema?.dataSources.get(typeName)?.block;
  }

  private ephemeral(typeName: string): Block | undefined {
    return this.schema?.ephemeralResources.get(typeName)?.block;
  }

  private action(actionType: string): Block | undefined {
    return this.schema?.actions.get(actionType)?.block;
  }

  private meta(v: CtyValue | undefined): Json {
    return v === undefined ? null : byBlock(this.schema?.providerMeta?.block, v);
  }

  getProviderSchema(): Promise<ProviderSchema> {
    const fetch = this.inner.getProviderSchema();
    // The client caches the schema: only a new fetch is a call to the provider.
    if (fetch === this.schemaFetch) return fetch;
    this.schemaFetch = fetch;
    return this.recorded(this.names.getSchema, () => ({}), () => fetch, (s) => {
      this.schema = s;
      return {
        resourceTypes: s.resources.size,
        dataSources: s.dataSources.size,
        ephemeralResources: s.ephemeralResources.size,
        actions: s.actions.size,
        functions: s.functions.size,
        serverCapabilities: { ...s.serverCapabilities },
        diagnostics: diagnostics(s.diagnostics),
      };
    });
  }

  validateProviderConfig(config: CtyValue): Promise<Diagnostic[]> {
    return this.recorded(
      this.names.validateProvider,
      () => ({ config: byBlock(this.schema?.provider.block, config, true) }),
      () => this.inner.validateProviderConfig(config),
      diagnostics,
    );
  }

  configureProvider(config: CtyValue, options?: ConfigureOptions): Promise<Diagnostic[]> {
    // Every configuration value is redacted, sensitive or not: credentials often sit in attributes no one marked.
    return this.recorded(
      this.names.configure,
      () => ({ config: byBlock(this.schema?.provider.block, config, true) }),
      () => this.inner.configureProvider(config, options),
      diagnostics,
    );
  }

  validateResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return this.recorded(
      this.names.validateResource,
      () => ({ typeName, config: byBlock(this.resource(typeName), config) }),
      () => this.inner.validateResourceConfig(typeName, config),
      diagnostics,
    );
  }

  planResourceChange(req: PlanRequest): Promise<PlanResult> {
    const block = (): Block | undefined => this.resource(req.typeName);
    return this.recorded(
      "PlanResourceChange",
      () => ({
        typeName: req.typeName,
        priorState: byBlock(block(), req.priorState),
        proposedNewState: byBlock(block(), req.proposedNewState),
        config: byBlock(block(), req.config),
        priorPrivate: bytes(req.priorPrivate),
        providerMeta: this.meta(req.providerMeta),
        ...identity("priorIdentity", req.priorIdentity),
        ...(req.plannedPrivate !== undefined ? { plannedPrivate: bytes(req.plannedPrivate) } : {}),
      }),
      () => this.inner.planResourceChange(req),
      (r) => ({
        plannedState: byBlock(block(), r.plannedState),
        requiresReplace: r.requiresReplace.map((p) => p.map((s) => ("attribute" in s ? s.attribute : "key" in s ? s.key : s.index))),
        plannedPrivate: bytes(r.plannedPrivate),
        diagnostics: diagnostics(r.diagnostics),
        ...(r.deferred !== undefined ? { deferred: r.deferred } : {}),
        ...identity("plannedIdentity", r.plannedIdentity),
      }),
    );
  }

  applyResourceChange(req: ApplyRequest): Promise<ApplyResult> {
    const block = (): Block | undefined => this.resource(req.typeName);
    return this.recorded(
      "ApplyResourceChange",
      () => ({
        typeName: req.typeName,
        priorState: byBlock(block(), req.priorState),
        plannedState: byBlock(block(), req.plannedState),
        config: byBlock(block(), req.config),
        plannedPrivate: bytes(req.plannedPrivate),
        providerMeta: this.meta(req.providerMeta),
        ...identity("plannedIdentity", req.plannedIdentity),
      }),
      () => this.inner.applyResourceChange(req),
      (r) => ({ newState: byBlock(block(), r.newState), private: bytes(r.private), diagnostics: diagnostics(r.diagnostics), ...identity("newIdentity", r.newIdentity) }),
    );
  }

  readResource(req: ReadRequest): Promise<ReadResult> {
    const block = (): Block | undefined => this.resource(req.typeName);
    return this.recorded(
      "ReadResource",
      () => ({ typeName: req.typeName, currentState: byBlock(block(), req.currentState), private: bytes(req.private), providerMeta: this.meta(req.providerMeta), ...identity("currentIdentity", req.currentIdentity) }),
      () => this.inner.readResource(req),
      (r) => ({ newState: byBlock(block(), r.newState), private: bytes(r.private), diagnostics: diagnostics(r.diagnostics), ...(r.deferred !== undefined ? { deferred: r.deferred } : {}), ...identity("newIdentity", r.newIdentity) }),
    );
  }

  importResourceState(typeName: string, id: string, identityValue?: CtyValue): Promise<ImportResult> {
    return this.recorded(
      "ImportResourceState",
      () => ({ typeName, id, ...identity("identity", identityValue) }),
      () => this.inner.importResourceState(typeName, id, identityValue),
      (r) => ({
        imported: r.imported.map((i) => ({ typeName: i.typeName, state: byBlock(this.resource(i.typeName), i.state), private: bytes(i.private), ...identity("identity", i.identity) })),
        diagnostics: diagnostics(r.diagnostics),
      }),
    );
  }

  generateResourceConfig(typeName: string, state: CtyValue): Promise<GenerateConfigResult> {
    const block = (): Block | undefined => this.resource(typeName);
    return this.recorded(
      "GenerateResourceConfig",
      () => ({ typeName, state: byBlock(block(), state) }),
      () => this.inner.generateResourceConfig(typeName, state),
      (r) => ({ config: byBlock(block(), r.config), diagnostics: diagnostics(r.diagnostics) }),
    );
  }

  upgradeResourceState(req: UpgradeRequest): Promise<UpgradeResult> {
    const block = (): Block | undefined => this.resource(req.typeName);
    return this.recorded(
      "UpgradeResourceState",
      () => ({ typeName: req.typeName, version: req.version, rawState: rawState(block(), req.rawStateJson) }),
      () => this.inner.upgradeResourceState(req),
      (r) => ({ upgradedState: byBlock(block(), r.upgradedState), diagnostics: diagnostics(r.diagnostics) }),
    );
  }

  moveResourceState(req: MoveRequest): Promise<MoveResult> {
    const block = (): Block | undefined => this.resource(req.targetTypeName);
    return this.recorded(
      "MoveResourceState",
      () => ({
        sourceProviderAddress: req.sourceProviderAddress,
        sourceTypeName: req.sourceTypeName,
        sourceSchemaVersion: req.sourceSchemaVersion,
        sourceState: rawState(this.resource(req.sourceTypeName), req.sourceStateJson),
        targetTypeName: req.targetTypeName,
        ...(req.sourceIdentity !== undefined ? { sourceIdentity: rawIdentity(req.sourceIdentity.json) } : {}),
      }),
      () => this.inner.moveResourceState(req),
      (r) => ({ targetState: byBlock(block(), r.targetState), ...(r.targetIdentity !== undefined ? { targetIdentity: plain(r.targetIdentity) } : {}), diagnostics: diagnostics(r.diagnostics) }),
    );
  }

  getResourceIdentitySchemas(): Promise<Map<string, IdentitySchema>> {
    const fetch = this.inner.getResourceIdentitySchemas();
    // Cached by the client like the schema: only a new fetch is a call to the provider.
    if (fetch === this.identityFetch) return fetch;
    this.identityFetch = fetch;
    return this.recorded("GetResourceIdentitySchemas", () => ({}), () => fetch, (m) => Object.fromEntries([...m].map(([k, v]) => [k, { version: v.version, attributes: v.attributes.map((a) => a.name) }])));
  }

  upgradeResourceIdentity(req: UpgradeIdentityRequest): Promise<UpgradeIdentityResult> {
    return this.recorded(
      "UpgradeResourceIdentity",
      () => ({ typeName: req.typeName, version: req.version, rawIdentity: rawIdentity(req.rawIdentityJson) }),
      () => this.inner.upgradeResourceIdentity(req),
      (r) => ({ upgradedIdentity: plain(r.upgradedIdentity), diagnostics: diagnostics(r.diagnostics) }),
    );
  }

  validateDataSourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return this.recorded(
      this.names.validateDataSource,
      () => ({ typeName, config: byBlock(this.dataSource(typeName), config) }),
      () => this.inner.validateDataSourceConfig(typeName, config),
      diagnostics,
    );
  }

  readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResult> {
    const block = (): Block | undefined => this.dataSource(req.typeName);
    return this.recorded(
      "ReadDataSource",
      () => ({ typeName: req.typeName, config: byBlock(block(), req.config), providerMeta: this.meta(req.providerMeta) }),
      () => this.inner.readDataSource(req),
      (r) => ({ state: byBlock(block(), r.state), diagnostics: diagnostics(r.diagnostics), ...(r.deferred !== undefined ? { deferred: r.deferred } : {}) }),
    );
  }

  callFunction(name: string, args: CtyValue[]): Promise<CallFunctionResult> {
    // Functions have no sensitive marks; secrets the program passed are scrubbed by value.
    return this.recorded(
      "CallFunction",
      () => ({ name, arguments: args.map(plain) }),
      () => this.inner.callFunction(name, args),
      (r) => ({ result: plain(r.result), ...(r.error !== undefined ? { error: { text: r.error.text, ...(r.error.argument !== undefined ? { argument: r.error.argument } : {}) } } : {}) }),
    );
  }

  validateEphemeralResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return this.recorded(
      "ValidateEphemeralResourceConfig",
      () => ({ typeName, config: byBlock(this.ephemeral(typeName), config) }),
      () => this.inner.validateEphemeralResourceConfig(typeName, config),
      diagnostics,
    );
  }

  openEphemeralResource(typeName: string, config: CtyValue): Promise<OpenEphemeralResult> {
    // The whole result is redacted, not only its sensitive attributes: the bridge hands every part of it out as a secret.
    return this.recorded(
      "OpenEphemeralResource",
      () => ({ typeName, config: byBlock(this.ephemeral(typeName), config) }),
      () => this.inner.openEphemeralResource(typeName, config),
      (r) => ({
        result: r.result === null ? null : REDACTED,
        private: bytes(r.private),
        renewAt: r.renewAt === undefined ? null : r.renewAt.toISOString(),
        diagnostics: diagnostics(r.diagnostics),
        ...(r.deferred !== undefined ? { deferred: r.deferred } : {}),
      }),
    );
  }

  renewEphemeralResource(typeName: string, privateData: Uint8Array): Promise<RenewEphemeralResult> {
    return this.recorded(
      "RenewEphemeralResource",
      () => ({ typeName, private: bytes(privateData) }),
      () => this.inner.renewEphemeralResource(typeName, privateData),
      (r) => ({ private: bytes(r.private), renewAt: r.renewAt === undefined ? null : r.renewAt.toISOString(), diagnostics: diagnostics(r.diagnostics) }),
    );
  }

  closeEphemeralResource(typeName: string, privateData: Uint8Array): Promise<Diagnostic[]> {
    return this.recorded(
      "CloseEphemeralResource",
      () => ({ typeName, private: bytes(privateData) }),
      () => this.inner.closeEphemeralResource(typeName, privateData),
      diagnostics,
    );
  }

  validateActionConfig(actionType: string, config: CtyValue): Promise<Diagnostic[]> {
    return this.recorded("ValidateActionConfig", () => ({ actionType, config: byBlock(this.action(actionType), config) }), () => this.inner.validateActionConfig(actionType, config), diagnostics);
  }

  planAction(actionType: string, config: CtyValue): Promise<PlanActionResult> {
    return this.recorded(
      "PlanAction",
      () => ({ actionType, config: byBlock(this.action(actionType), config) }),
      () => this.inner.planAction(actionType, config),
      (r) => ({ diagnostics: diagnostics(r.diagnostics), ...(r.deferred !== undefined ? { deferred: r.deferred } : {}) }),
    );
  }

  /** The progress messages are recorded in order, after the call: one record per RPC, as for every other. */
  invokeAction(actionType: string, config: CtyValue, onProgress: (message: string) => void): Promise<Diagnostic[]> {
    const progress: string[] = [];
    return this.recorded(
      "InvokeAction",
      () => ({ actionType, config: byBlock(this.action(actionType), config) }),
      () => this.inner.invokeAction(actionType, config, (m) => (progress.push(m), onProgress(m))),
      (r) => ({ progress, diagnostics: diagnostics(r) }),
    );
  }

  validateListResourceConfig(typeName: string, config: CtyValue, includeResource: boolean, limit: number): Promise<Diagnostic[]> {
    const inner = this.inner;
    if (inner.validateListResourceConfig === undefined) return Promise.resolve([]);
    return this.recorded(
      "ValidateListResourceConfig",
      () => ({ typeName, config: byBlock(this.schema?.listResources?.get(typeName)?.block, config), includeResource, limit }),
      () => inner.validateListResourceConfig!(typeName, config, includeResource, limit),
      diagnostics,
    );
  }

  /** The call is recorded when its stream opens; the objects it streams are not (they may hold whole states). */
  listResource(request: ListResourceRequest): Promise<ListResourceStream> {
    const inner = this.inner;
    if (inner.listResource === undefined) return Promise.reject(new TerraformProviderError("this client does not stream list resources"));
    return this.recorded(
      "ListResource",
      () => ({ ...request, config: byBlock(this.schema?.listResources?.get(request.typeName)?.block, request.config) }),
      () => inner.listResource!(request),
      (): Json => ({ stream: "opened" }),
    );
  }

  stopProvider(): Promise<string | undefined> {
    return this.recorded(this.names.stop, () => ({}), () => this.inner.stopProvider(), (r): Json => (r === undefined ? {} : { error: r }));
  }

  async close(): Promise<void> {
    try {
      await this.inner.close();
    } finally {
      this.recorder.close();
    }
  }
}

/** Stored state as cty JSON, rendered by the current schema when it parses, else redacted whole. */
function rawState(block: Block | undefined, json: Uint8Array | string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof json === "string" ? json : Buffer.from(json).toString("utf8"));
  } catch {
    return REDACTED;
  }
  return byBlock(block, parsed as CtyValue);
}

/** An identity field of a record, left out where the call carried none. Identities have no sensitive marks; secrets the program set are scrubbed by value. */
function identity(key: string, v: CtyValue | undefined): Record<string, Json> {
  return v === undefined ? {} : { [key]: plain(v) };
}

function rawIdentity(json: Uint8Array | string): Json {
  try {
    return JSON.parse(typeof json === "string" ? json : Buffer.from(json).toString("utf8")) as Json;
  } catch {
    return REDACTED;
  }
}
