// The Terraform provider model of this project: schemas, diagnostics and call shapes shared by protocol 5 and 6, free of protobuf.
import type { Path } from "./path.js";
import type { CtyType, CtyValue } from "./cty/index.js";

export type StringKind = "plain" | "markdown";

export interface Schema {
  version: number;
  block: Block;
}

export interface Block {
  attributes: Attribute[];
  blockTypes: NestedBlock[];
  description: string;
  descriptionKind: StringKind;
  deprecated: boolean;
  /** Protocol 6.10+/5.10+ carry a message; older providers only the flag. */
  deprecationMessage: string;
  /**
   * Protocol 6 (Terraform 1.16's `Block.computed`, on a nested block's block): the provider may fill the block in when
   * the configuration leaves it empty; every attribute and nested block inside is computed too. Absent means false.
   */
  computed?: boolean;
}

export interface Attribute {
  name: string;
  /** The attribute's cty type; absent when `nestedType` describes it instead (protocol 6 nested attributes). */
  type?: CtyType;
  nestedType?: NestedAttributeObject;
  description: string;
  descriptionKind: StringKind;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated: boolean;
  deprecationMessage: string;
  writeOnly: boolean;
}

export type NestingMode = "single" | "list" | "set" | "map" | "group";

export interface NestedAttributeObject {
  attributes: Attribute[];
  nesting: Exclude<NestingMode, "group">;
}

export interface NestedBlock {
  typeName: string;
  block: Block;
  nesting: NestingMode;
  minItems: number;
  maxItems: number;
}

export interface FunctionParameter {
  name: string;
  type: CtyType;
  allowNullValue: boolean;
  allowUnknownValues: boolean;
  description: string;
  descriptionKind: StringKind;
}

export interface FunctionSignature {
  parameters: FunctionParameter[];
  variadicParameter?: FunctionParameter;
  returnType: CtyType;
  summary: string;
  description: string;
  descriptionKind: StringKind;
  deprecationMessage: string;
}

export interface ServerCapabilities {
  planDestroy: boolean;
  getProviderSchemaOptional: boolean;
  moveResourceState: boolean;
  /** Protocol 5.10+/6.10+: the provider writes the configuration for an imported state itself (GenerateResourceConfig). */
  generateResourceConfig: boolean;
}

export interface ProviderSchema {
  provider: Schema;
  providerMeta?: Schema;
  resources: Map<string, Schema>;
  dataSources: Map<string, Schema>;
  ephemeralResources: Map<string, Schema>;
  /** Terraform 1.14 actions (protocol 5.10+/6.10+ `action_schemas`), by action type. */
  actions: Map<string, Schema>;
  /** List resources' configuration schemas (protocol 5.10+/6.10+), by the managed resource type each lists. */
  listResources?: Map<string, Schema>;
  functions: Map<string, FunctionSignature>;
  serverCapabilities: ServerCapabilities;
  diagnostics: Diagnostic[];
}

/**
 * A managed resource type's identity schema (protocol 5.9+/6.9+): the attributes that name one remote object, versioned
 * apart from the state schema. The identity value is an object of these attributes.
 */
export interface IdentitySchema {
  version: number;
  attributes: IdentityAttribute[];
}

export interface IdentityAttribute {
  name: string;
  type: CtyType;
  requiredForImport: boolean;
  optionalForImport: boolean;
  description: string;
}

export type { PathStep } from "./path.js";
/** A Terraform attribute path: attribute steps hold Terraform names. */
export type AttributePath = Path;

export interface Diagnostic {
  severity: "error" | "warning";
  summary: string;
  detail: string;
  attribute?: AttributePath;
}

export interface FunctionError {
  text: string;
  argument?: number;
}

/** The provider may defer an operation (protocol 6.5+/5.5+); we surface the reason. */
export type DeferredReason = "unknown" | "resource_config_unknown" | "provider_config_unknown" | "absent_prereq";

export interface PlanRequest {
  typeName: string;
  priorState: CtyValue;
  proposedNewState: CtyValue;
  config: CtyValue;
  priorPrivate?: Uint8Array;
  providerMeta?: CtyValue;
  /** Resources with an identity schema only: the stored identity (null when none is stored yet). */
  priorIdentity?: CtyValue;
  /**
   * Protocol 6 (`store_planned_private`): the planned_private of the earlier plan of the same change, sent with the plan
   * that precedes its apply, as Terraform 1.16 sends a saved plan's private data with its apply-time plan.
   */
  plannedPrivate?: Uint8Array;
}

export interface PlanResult {
  plannedState: CtyValue;
  requiresReplace: AttributePath[];
  plannedPrivate: Uint8Array;
  diagnostics: Diagnostic[];
  legacyTypeSystem: boolean;
  deferred?: DeferredReason;
  /** Present when the provider answered with one. */
  plannedIdentity?: CtyValue;
}

export interface ApplyRequest {
  typeName: string;
  priorState: CtyValue;
  plannedState: CtyValue;
  config: CtyValue;
  plannedPrivate?: Uint8Array;
  providerMeta?: CtyValue;
  /** Resources with an identity schema only: the plan's identity (the prior one for a delete). */
  plannedIdentity?: CtyValue;
}

export interface ApplyResult {
  newState: CtyValue;
  private: Uint8Array;
  diagnostics: Diagnostic[];
  legacyTypeSystem: boolean;
  newIdentity?: CtyValue;
}

export interface ReadRequest {
  typeName: string;
  currentState: CtyValue;
  private?: Uint8Array;
  providerMeta?: CtyValue;
  /** Resources with an identity schema only: the stored identity (null when none is stored yet). */
  currentIdentity?: CtyValue;
}

export interface ReadResult {
  newState: CtyValue;
  private: Uint8Array;
  diagnostics: Diagnostic[];
  deferred?: DeferredReason;
  newIdentity?: CtyValue;
}

export interface ImportedResource {
  typeName: string;
  state: CtyValue;
  private: Uint8Array;
  identity?: CtyValue;
}

export interface GenerateConfigResult {
  config: CtyValue;
  diagnostics: Diagnostic[];
}

export interface ImportResult {
  imported: ImportedResource[];
  diagnostics: Diagnostic[];
  deferred?: DeferredReason;
}

export interface UpgradeRequest {
  typeName: string;
  /** The schema version the stored state was written with. */
  version: number;
  /** The stored state as cty JSON (what Terraform keeps in its state file). */
  rawStateJson: Uint8Array | string;
}

export interface UpgradeResult {
  upgradedState: CtyValue;
  diagnostics: Diagnostic[];
}

/** Terraform's MoveResourceState: another resource type's stored state, for the target type to take over. */
export interface MoveRequest {
  /** The source resource's provider, as Terraform addresses it (`registry.terraform.io/hashicorp/random`). */
  sourceProviderAddress: string;
  sourceTypeName: string;
  /** The schema version the source state was written with. */
  sourceSchemaVersion: number;
  /** The source state as cty JSON (what Terraform keeps in its state file). */
  sourceStateJson: string;
  sourcePrivate: Uint8Array;
  /** The source's identity as cty JSON with its identity schema version, when one is stored. */
  sourceIdentity?: { json: string; version: number };
  targetTypeName: string;
}

export interface MoveResult {
  targetState: CtyValue;
  targetPrivate: Uint8Array;
  targetIdentity?: CtyValue;
  diagnostics: Diagnostic[];
}

export interface UpgradeIdentityRequest {
  typeName: string;
  /** The identity schema version the stored identity was written with. */
  version: number;
  /** The stored identity as cty JSON. */
  rawIdentityJson: Uint8Array | string;
}

export interface UpgradeIdentityResult {
  upgradedIdentity: CtyValue;
  diagnostics: Diagnostic[];
}

export interface ReadDataSourceRequest {
  typeName: string;
  config: CtyValue;
  providerMeta?: CtyValue;
}

export interface ReadDataSourceResult {
  state: CtyValue;
  diagnostics: Diagnostic[];
  deferred?: DeferredReason;
}

export interface CallFunctionResult {
  result: CtyValue;
  error?: FunctionError;
}

export interface OpenEphemeralResult {
  result: CtyValue;
  private: Uint8Array;
  /** When the provider wants RenewEphemeralResource called; absent when the value never needs renewing. */
  renewAt?: Date;
  diagnostics: Diagnostic[];
  deferred?: DeferredReason;
}

export interface RenewEphemeralResult {
  private: Uint8Array;
  renewAt?: Date;
  diagnostics: Diagnostic[];
}

/** PlanAction's answer: whether the action may run as configured, or was deferred. */
export interface PlanActionResult {
  diagnostics: Diagnostic[];
  deferred?: DeferredReason;
}

export interface ConfigureOptions {
  /** The Terraform version reported to the provider; some providers gate features on it. */
  terraformVersion?: string;
}

export interface ListResourceRequest {
  typeName: string;
  /** The list resource's configuration, an object of its list schema's block (not the managed resource's). */
  config: CtyValue;
  /** Ask for each object's whole state too (`include_resource` in a `list` block). */
  includeResource: boolean;
  /** At most this many results; 0 means no limit (the stream is read to its end). */
  limit: number;
}

/** One result: who it is (identity), what to show, and the object when asked for; or only diagnostics. */
export interface ListResourceEvent {
  identity?: CtyValue;
  displayName: string;
  resourceObject?: CtyValue;
  diagnostics: Diagnostic[];
}

/** The events of one ListResource call, in order; ending the iteration early (break, return) cancels the call. */
export interface ListResourceStream extends AsyncIterableIterator<ListResourceEvent> {
  cancel(): void;
}

/** One client over protocol 5 and 6: what the bridge needs from a Terraform provider. */
/** Where the conversion of program values hands the secrets it unwraps, to be scrubbed from what Terraform says back. */
export interface SecretSink {
  note(v: unknown): void;
}

export interface TerraformProvider {
  readonly protocolVersion: 5 | 6;
  /**
   * The program's secrets (and sensitive values) are handed here before Terraform sees them, so that what the provider
   * says back (diagnostics, log lines, crash output) and a recording of the calls can be scrubbed of them.
   */
  readonly secretSink?: SecretSink;
  /** The schema, fetched once and cached; every value conversion uses it. */
  getProviderSchema(): Promise<ProviderSchema>;
  validateProviderConfig(config: CtyValue): Promise<Diagnostic[]>;
  configureProvider(config: CtyValue, options?: ConfigureOptions): Promise<Diagnostic[]>;
  validateResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]>;
  planResourceChange(request: PlanRequest): Promise<PlanResult>;
  applyResourceChange(request: ApplyRequest): Promise<ApplyResult>;
  readResource(request: ReadRequest): Promise<ReadResult>;
  /** By id, or by identity (then `id` is empty), as Terraform's import block allows either. */
  importResourceState(typeName: string, id: string, identity?: CtyValue): Promise<ImportResult>;
  upgradeResourceState(request: UpgradeRequest): Promise<UpgradeResult>;
  /** The configuration the provider would write for a state (only when serverCapabilities.generateResourceConfig). */
  generateResourceConfig(typeName: string, state: CtyValue): Promise<GenerateConfigResult>;
  /** Another resource type's state taken over by `targetTypeName` (Terraform's `moved` block across types). */
  moveResourceState(request: MoveRequest): Promise<MoveResult>;
  /** Identity schemas by resource type, fetched once; empty when the provider predates them (protocol < 5.9/6.9). */
  getResourceIdentitySchemas(): Promise<Map<string, IdentitySchema>>;
  upgradeResourceIdentity(request: UpgradeIdentityRequest): Promise<UpgradeIdentityResult>;
  validateDataSourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]>;
  readDataSource(request: ReadDataSourceRequest): Promise<ReadDataSourceResult>;
  callFunction(name: string, args: CtyValue[]): Promise<CallFunctionResult>;
  validateEphemeralResourceConfig(typeName: string, config: CtyValue): Promise<Diagnostic[]>;
  openEphemeralResource(typeName: string, config: CtyValue): Promise<OpenEphemeralResult>;
  renewEphemeralResource(typeName: string, privateData: Uint8Array): Promise<RenewEphemeralResult>;
  closeEphemeralResource(typeName: string, privateData: Uint8Array): Promise<Diagnostic[]>;
  validateActionConfig(actionType: string, config: CtyValue): Promise<Diagnostic[]>;
  planAction(actionType: string, config: CtyValue): Promise<PlanActionResult>;
  /**
   * Runs an action: InvokeAction's stream of progress messages, each handed to `onProgress` as it arrives, then the
   * completion's diagnostics. A stream that ends without a completion is an error.
   */
  invokeAction(actionType: string, config: CtyValue, onProgress: (message: string) => void): Promise<Diagnostic[]>;
  /** Streams a list resource's results (Terraform 1.14 `list` blocks); absent on clients that cannot. */
  listResource?(request: ListResourceRequest): Promise<ListResourceStream>;
  validateListResourceConfig?(typeName: string, config: CtyValue, includeResource: boolean, limit: number): Promise<Diagnostic[]>;
  /** Asks the provider to abort in-flight operations (Terraform sends this on interrupt). */
  stopProvider(): Promise<string | undefined>;
  /** Stops the process: controlled shutdown, then signals. */
  close(): Promise<void>;
}
