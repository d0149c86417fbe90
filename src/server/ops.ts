// The resource operations the server dispatches to, as plain typed requests and results: the seam to src/bridge.
import type { PropertyMap } from "../bridge/property-value.js";
import type { ProviderModel } from "../schema-translate/model.js";
import type { ProviderSchema, TerraformProvider } from "../terraform/types.js";
import type { Logger } from "./log.js";

// Validation problems and kinds of property change are the bridge's own types; the seam reuses them.
import type { Autonaming, BridgeHints, CheckFailure, CheckResult } from "../bridge/types.js";
import type { DiffKind as PropertyDiffKind } from "../bridge/diff.js";
export type { CheckFailure, CheckResult, PropertyDiffKind };

export interface CheckRequest {
  urn: string;
  name: string;
  type: string;
  olds: PropertyMap;
  news: PropertyMap;
  /** Seed for deterministic random names; empty when the engine sends none. */
  randomSeed: Uint8Array;
  autonaming?: Autonaming;
  oldOutputs: PropertyMap;
}


export interface DiffRequest {
  id: string;
  urn: string;
  name: string;
  type: string;
  /** Old outputs. */
  olds: PropertyMap;
  /** New checked inputs. */
  news: PropertyMap;
  oldInputs: PropertyMap;
  ignoreChanges: string[];
}

/** The engine-facing answer to Diff/DiffConfig (the bridge's DiffResult, or the engine's own comparison for "unknown"). */
export interface DiffResponse {
  /** "unknown" leaves the decision to the engine's own comparison of inputs. */
  changes: "unknown" | "none" | "some";
  replaces: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Top-level keys that changed. */
  diffs: string[];
  /** Keyed by property path; when present, the engine shows exactly these. */
  detailedDiff?: Record<string, { kind: PropertyDiffKind; inputDiff: boolean }>;
}

export interface ConfigureRequest {
  args: PropertyMap;
  acceptSecrets: boolean;
  acceptResources: boolean;
  sendsOldInputs: boolean;
  sendsOldInputsToDelete: boolean;
  /** Set when the engine configures an explicit provider resource (configure_with_urn). */
  id?: string;
  urn?: string;
  name?: string;
  type?: string;
}

export interface ConfigureResult {
  acceptSecrets: boolean;
  supportsPreview: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
  supportsAutonamingConfiguration: boolean;
}

/** Status-reporting details the engine gives to long-running operations. */
interface StepContext {
  urn: string;
  name: string;
  type: string;
  /** Seconds; 0 when the program set no custom timeout. */
  timeout: number;
}

export interface CreateRequest extends StepContext {
  properties: PropertyMap;
  preview: boolean;
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
  refreshBeforeUpdate?: boolean;
}

export interface ReadRequest extends StepContext {
  id: string;
  /** Current outputs (empty on import). */
  properties: PropertyMap;
  inputs: PropertyMap;
}

export interface ReadResult {
  /** Empty when the resource no longer exists. */
  id: string;
  properties: PropertyMap;
  inputs: PropertyMap;
  refreshBeforeUpdate?: boolean;
}

export interface UpdateRequest extends StepContext {
  id: string;
  olds: PropertyMap;
  news: PropertyMap;
  oldInputs: PropertyMap;
  ignoreChanges: string[];
  preview: boolean;
}

export interface UpdateResult {
  properties: PropertyMap;
  refreshBeforeUpdate?: boolean;
}

export interface DeleteRequest extends StepContext {
  id: string;
  properties: PropertyMap;
  oldInputs: PropertyMap;
}

export interface ListRequest {
  token: string;
  query: PropertyMap;
  limit: number;
  pageSize: number;
  continuationToken: string;
}

/** One page of a List stream: results then the next page's token ("" at the end), or "computed" for an unknown query. */
export type ListResult = { results: { id: string; name: string }[]; continuationToken: string } | "computed";

export interface InvokeRequest {
  token: string;
  args: PropertyMap;
  preview: boolean;
}

export interface InvokeResult {
  /** Undefined when failures prevented a result. */
  return?: PropertyMap;
  failures: CheckFailure[];
}

export interface CallRequest {
  token: string;
  args: PropertyMap;
  argDependencies: Record<string, string[]>;
  project: string;
  stack: string;
  config: Record<string, string>;
  configSecretKeys: string[];
  dryRun: boolean;
  parallel: number;
  monitorEndpoint: string;
  organization: string;
  acceptsOutputValues: boolean;
}

export interface CallResult {
  return?: PropertyMap;
  returnDependencies: Record<string, string[]>;
  failures: CheckFailure[];
}

/**
 * A Create/Update/Read that got partway: the engine records `id` and `properties` as the resource's state
 * (a partial failure) and fails the step with `reasons`. Bridge code throws this instead of a plain error.
 */
export class ResourceInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: PropertyMap,
    readonly reasons: string[],
    readonly inputs?: PropertyMap,
    readonly refreshBeforeUpdate = false,
  ) {
    super(message);
    this.name = "ResourceInitError";
  }
}

/**
 * What the server calls for each resource-level RPC, with decoded property values. A method left undefined answers
 * UNIMPLEMENTED naming the RPC, so the bridge can land one operation at a time.
 */
export interface ResourceOps {
  checkConfig?(req: CheckRequest): Promise<CheckResult>;
  diffConfig?(req: DiffRequest): Promise<DiffResponse>;
  configure?(req: ConfigureRequest): Promise<ConfigureResult>;
  check?(req: CheckRequest): Promise<CheckResult>;
  diff?(req: DiffRequest): Promise<DiffResponse>;
  create?(req: CreateRequest): Promise<CreateResult>;
  read?(req: ReadRequest): Promise<ReadResult>;
  update?(req: UpdateRequest): Promise<UpdateResult>;
  delete?(req: DeleteRequest): Promise<void>;
  invoke?(req: InvokeRequest): Promise<InvokeResult>;
  /** `cancelled` turns true when the engine abandons the stream. */
  list?(req: ListRequest, cancelled: () => boolean): Promise<ListResult>;
  call?(req: CallRequest): Promise<CallResult>;
  /** Asks in-flight operations to stop (the engine's Cancel); the server closes the provider afterwards. */
  cancel?(): Promise<void>;
}

/** Everything the bridge gets once Parameterize has launched the Terraform provider and built the model. */
export interface ProviderContext {
  provider: TerraformProvider;
  schema: ProviderSchema;
  model: ProviderModel;
  log: Logger;
  /** What the bridge's messages tell the user about the package (src/parameterize/open.ts). */
  hints?: BridgeHints;
}

/** Builds the operations for one parameterized provider; the server calls it once, right after Parameterize. */
export type ResourceOpsFactory = (context: ProviderContext) => ResourceOps;

/** No operations yet: every resource RPC answers UNIMPLEMENTED until src/bridge provides a factory. */
export const noResourceOps: ResourceOpsFactory = () => ({});
