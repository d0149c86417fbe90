// A Terraform provider known from the schema cache, started when a call first needs it rather than at Parameterize.
//
// `package add`, `package get-schema` and a YAML program's schema load need only the schema; a program's run needs the
// provider a moment after Parameterize, when the engine configures it. The provider starts on the first call, or
// earlier when the caller says it will be needed (`start()`), and is then checked against the cache the way Terraform
// treats a schema it already holds: a provider that declares get_provider_schema_optional is given the cached schema,
// any other is asked GetProviderSchema and must answer what was cached. A different answer (or another protocol)
// removes the entry and fails the call, saying to run again; nothing was sent to the provider by then.
import { TerraformProviderError } from "./errors.js";
import { KnownSecrets } from "./known-secrets.js";
import type { GrpcTerraformProvider } from "./client.js";
import { schemaFingerprint, serializeSchema, SCHEMA_CACHE_ENV, type CachedSchema } from "./schema-cache.js";
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
  TerraformProvider,
  UpgradeIdentityRequest,
  UpgradeIdentityResult,
  UpgradeRequest,
  UpgradeResult,
} from "./types.js";
import type { CtyValue } from "./cty/index.js";

export interface LazyStart {
  /** The binary, for messages. */
  binary: string;
  cached: CachedSchema;
  /** Starts the provider, its secrets scrubbed with the given sink. */
  launch: (secrets: KnownSecrets) => Promise<GrpcTerraformProvider>;
  /** The started provider answered otherwise than the cache: the entry must go. */
  stale: () => void;
}

export class LazyProvider implements TerraformProvider {
  readonly secretSink = new KnownSecrets();
  private started: Promise<GrpcTerraformProvider> | undefined;
  private closed = false;

  constructor(private readonly how: LazyStart) {}

  get protocolVersion(): 5 | 6 {
    return this.how.cached.protocolVersion;
  }

  /** Starts the provider now, when the caller knows it will be needed; a failure is reported by the call that needs it. */
  start(): void {
    this.provider().catch(() => undefined);
  }

  private provider(): Promise<GrpcTerraformProvider> {
    this.started ??= this.launch();
    return this.started;
  }

  private async launch(): Promise<GrpcTerraformProvider> {
    if (this.closed) throw new TerraformProviderError(`terraform-provider ${this.how.binary} was not started: the provider is shutting down`);
    let p: GrpcTerraformProvider;
    try {
      p = await this.how.launch(this.secretSink);
    } catch (e) {
      throw new TerraformProviderError(`could not start ${this.how.binary}: ${(e as Error).message}`, { cause: e });
    }
    try {
      const { cached } = this.how;
      let differs = p.protocolVersion !== cached.protocolVersion;
      if (!differs && !cached.schema.serverCapabilities.getProviderSchemaOptional) {
        differs = schemaFingerprint(serializeSchema(await p.getProviderSchema())) !== cached.fingerprint;
      } else if (!differs) {
        p.useSchema(cached.schema);
      }
      if (differs) {
        this.how.stale();
        throw new TerraformProviderError(
          `${this.how.binary} answers another schema than the one this plugin cached from it (its environment or the binary changed); ` +
            `the cached copy is removed: run the command again. A provider whose schema depends on its environment needs ${SCHEMA_CACHE_ENV}=0`,
        );
      }
      // close() may have come while the provider started: it must not outlive the plugin.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (this.closed) throw new TerraformProviderError(`terraform-provider ${this.how.binary} was started after the plugin began to shut down`);
      return p;
    } catch (e) {
      await p.close().catch(() => undefined);
      throw e;
    }
  }

  getProviderSchema(): Promise<ProviderSchema> {
    return Promise.resolve(this.how.cached.schema);
  }

  async getResourceIdentitySchemas(): Promise<Map<string, IdentitySchema>> {
    return (await this.provider()).getResourceIdentitySchemas();
  }

  async validateProviderConfig(config: CtyValue): Promise<Diagnostic[]> {
    return (await this.provider()).validateProviderConfig(config);
  }

  async configureProvider(config: CtyValue, options?: ConfigureOptions): Promise<Diagnostic[]> {
    return (await this.provider()).configureProvider(config, options);
  }

  async validateResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return (await this.provider()).validateResourceConfig(typeName, config);
  }

  async planResourceChange(request: PlanRequest): Promise<PlanResult> {
    return (await this.provider()).planResourceChange(request);
  }

  async applyResourceChange(request: ApplyRequest): Promise<ApplyResult> {
    return (await this.provider()).applyResourceChange(request);
  }

  async readResource(request: ReadRequest): Promise<ReadResult> {
    return (await this.provider()).readResource(request);
  }

  async importResourceState(typeName: string, id: string, identity?: CtyValue): Promise<ImportResult> {
    return (await this.provider()).importResourceState(typeName, id, identity);
  }

  async upgradeResourceState(request: UpgradeRequest): Promise<UpgradeResult> {
    return (await this.provider()).upgradeResourceState(request);
  }

  async generateResourceConfig(typeName: string, state: CtyValue): Promise<GenerateConfigResult> {
    return (await this.provider()).generateResourceConfig(typeName, state);
  }

  async moveResourceState(request: MoveRequest): Promise<MoveResult> {
    return (await this.provider()).moveResourceState(request);
  }

  async upgradeResourceIdentity(request: UpgradeIdentityRequest): Promise<UpgradeIdentityResult> {
    return (await this.provider()).upgradeResourceIdentity(request);
  }

  async validateDataSourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return (await this.provider()).validateDataSourceConfig(typeName, config);
  }

  async readDataSource(request: ReadDataSourceRequest): Promise<ReadDataSourceResult> {
    return (await this.provider()).readDataSource(request);
  }

  async callFunction(name: string, args: CtyValue[]): Promise<CallFunctionResult> {
    return (await this.provider()).callFunction(name, args);
  }

  async validateEphemeralResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]> {
    return (await this.provider()).validateEphemeralResourceConfig(typeName, config);
  }

  async openEphemeralResource(typeName: string, config: CtyValue): Promise<OpenEphemeralResult> {
    return (await this.provider()).openEphemeralResource(typeName, config);
  }

  async renewEphemeralResource(typeName: string, privateData: Uint8Array): Promise<RenewEphemeralResult> {
    return (await this.provider()).renewEphemeralResource(typeName, privateData);
  }

  async closeEphemeralResource(typeName: string, privateData: Uint8Array): Promise<Diagnostic[]> {
    return (await this.provider()).closeEphemeralResource(typeName, privateData);
  }

  async validateActionConfig(actionType: string, config: CtyValue): Promise<Diagnostic[]> {
    return (await this.provider()).validateActionConfig(actionType, config);
  }

  async planAction(actionType: string, config: CtyValue): Promise<PlanActionResult> {
    return (await this.provider()).planAction(actionType, config);
  }

  async invokeAction(actionType: string, config: CtyValue, onProgress: (message: string) => void): Promise<Diagnostic[]> {
    return (await this.provider()).invokeAction(actionType, config, onProgress);
  }

  async listResource(request: ListResourceRequest): Promise<ListResourceStream> {
    return (await this.provider()).listResource(request);
  }

  async validateListResourceConfig(typeName: string, config: CtyValue, includeResource: boolean, limit: number): Promise<Diagnostic[]> {
    return (await this.provider()).validateListResourceConfig(typeName, config, includeResource, limit);
  }

  /** Nothing to stop before the provider has started; a start under way is let finish, then stopped. */
  async stopProvider(): Promise<string | undefined> {
    if (this.started === undefined) return undefined;
    const p = await this.started.catch(() => undefined);
    return p?.stopProvider();
  }

  async close(): Promise<void> {
    this.closed = true;
    const p = await this.started?.catch(() => undefined);
    await p?.close();
  }
}
