// pulumirpc request/response messages (as src/wire/proto.ts decodes them) ⇄ the plain requests and results of ResourceOps.
import type {
  CallRequest,
  CallResult,
  CheckFailure,
  CheckRequest,
  CheckResult,
  ConfigureRequest,
  ConfigureResult,
  CreateRequest,
  CreateResult,
  DeleteRequest,
  DiffRequest,
  DiffResponse,
  InvokeRequest,
  InvokeResult,
  ListRequest,
  ListResult,
  PropertyDiffKind,
  ReadRequest,
  ReadResult,
  UpdateRequest,
  UpdateResult,
} from "./ops.js";
import { RpcError } from "./status.js";
import { propertyMapToStruct, structToPropertyMap } from "./struct.js";
import { Status } from "../wire/rpc.js";
import type * as google_protobuf from "../wire/google.protobuf.gen.js";
import type * as pb from "../wire/pulumirpc.gen.js";

// One converter per message, typed by the generated pulumirpc types (src/wire/pulumirpc.gen.ts): requests as
// src/wire/proto.ts decodes them (defaults filled in), responses in the shape it encodes. An absent Struct decodes to an
// empty property map, labelled by its field for errors.

function urnsMap(m: Record<string, pb.CallRequest_ArgumentDependencies>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, e] of Object.entries(m)) out[k] = [...e.urns];
  return out;
}

function toUrnsMap(m: Record<string, string[]>): Record<string, pb.CallResponse_ReturnDependenciesIn> {
  const out: Record<string, pb.CallResponse_ReturnDependenciesIn> = {};
  for (const [k, urns] of Object.entries(m)) out[k] = { urns };
  return out;
}

const failures = (f: CheckFailure[]): pb.CheckFailureIn[] => f.map((x) => ({ property: x.property, reason: x.reason }));

// An enum value newer than our definitions decodes as its number, which no key names.
const AUTONAMING_MODES: Partial<Record<string, "propose" | "enforce" | "disable">> = {
  PROPOSE: "propose",
  ENFORCE: "enforce",
  DISABLE: "disable",
};

export function decodeCheck(r: pb.CheckRequest): CheckRequest {
  const req: CheckRequest = {
    urn: r.urn,
    name: r.name,
    type: r.type,
    olds: structToPropertyMap(r.olds, "olds"),
    news: structToPropertyMap(r.news, "news"),
    randomSeed: r.randomSeed,
    oldOutputs: structToPropertyMap(r.old_outputs, "old_outputs"),
  };
  if (r.autonaming) req.autonaming = { proposedName: r.autonaming.proposed_name, mode: AUTONAMING_MODES[r.autonaming.mode] ?? "propose" };
  return req;
}

export const encodeCheck = (res: CheckResult): pb.CheckResponseIn => ({ inputs: propertyMapToStruct(res.inputs), failures: failures(res.failures) });

export function decodeDiff(r: pb.DiffRequest): DiffRequest {
  return {
    id: r.id,
    urn: r.urn,
    name: r.name,
    type: r.type,
    olds: structToPropertyMap(r.olds, "olds"),
    news: structToPropertyMap(r.news, "news"),
    oldInputs: structToPropertyMap(r.old_inputs, "old_inputs"),
    ignoreChanges: [...r.ignoreChanges],
  };
}

const DIFF_CHANGES: Record<DiffResponse["changes"], pb.DiffResponse_DiffChanges> = { unknown: "DIFF_UNKNOWN", none: "DIFF_NONE", some: "DIFF_SOME" };
const DIFF_KINDS: Record<PropertyDiffKind, pb.PropertyDiff_Kind> = {
  add: "ADD",
  "add-replace": "ADD_REPLACE",
  delete: "DELETE",
  "delete-replace": "DELETE_REPLACE",
  update: "UPDATE",
  "update-replace": "UPDATE_REPLACE",
};

export function encodeDiff(res: DiffResponse): pb.DiffResponseIn {
  const detailed: Record<string, pb.PropertyDiffIn> = {};
  for (const [path, d] of Object.entries(res.detailedDiff ?? {})) detailed[path] = { kind: DIFF_KINDS[d.kind], inputDiff: d.inputDiff };
  return {
    replaces: res.replaces,
    stables: res.stables,
    deleteBeforeReplace: res.deleteBeforeReplace,
    changes: DIFF_CHANGES[res.changes],
    diffs: res.diffs,
    detailedDiff: detailed,
    hasDetailedDiff: res.detailedDiff !== undefined,
  };
}

export function decodeConfigure(r: pb.ConfigureRequest): ConfigureRequest {
  const req: ConfigureRequest = {
    args: structToPropertyMap(r.args, "args"),
    acceptSecrets: r.acceptSecrets,
    acceptResources: r.acceptResources,
    sendsOldInputs: r.sends_old_inputs,
    sendsOldInputsToDelete: r.sends_old_inputs_to_delete,
  };
  // Optional fields: absent and empty both mean "not sent".
  if (r.id !== undefined && r.id !== "") req.id = r.id;
  if (r.urn !== undefined && r.urn !== "") req.urn = r.urn;
  if (r.name !== undefined && r.name !== "") req.name = r.name;
  if (r.type !== undefined && r.type !== "") req.type = r.type;
  return req;
}

export const encodeConfigure = (res: ConfigureResult): pb.ConfigureResponseIn => ({
  acceptSecrets: res.acceptSecrets,
  supportsPreview: res.supportsPreview,
  acceptResources: res.acceptResources,
  acceptOutputs: res.acceptOutputs,
  supports_autonaming_configuration: res.supportsAutonamingConfiguration,
});

export const decodeCreate = (r: pb.CreateRequest): CreateRequest => ({
  urn: r.urn,
  name: r.name,
  type: r.type,
  timeout: r.timeout,
  properties: structToPropertyMap(r.properties, "properties"),
  preview: r.preview,
});

export const encodeCreate = (res: CreateResult): pb.CreateResponseIn => ({
  id: res.id,
  properties: propertyMapToStruct(res.properties),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeRead = (r: pb.ReadRequest): ReadRequest => ({
  urn: r.urn,
  name: r.name,
  type: r.type,
  timeout: r.timeout,
  id: r.id,
  properties: structToPropertyMap(r.properties, "properties"),
  inputs: structToPropertyMap(r.inputs, "inputs"),
});

export const encodeRead = (res: ReadResult): pb.ReadResponseIn => ({
  id: res.id,
  properties: propertyMapToStruct(res.properties),
  inputs: propertyMapToStruct(res.inputs),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeUpdate = (r: pb.UpdateRequest): UpdateRequest => ({
  urn: r.urn,
  name: r.name,
  type: r.type,
  timeout: r.timeout,
  id: r.id,
  olds: structToPropertyMap(r.olds, "olds"),
  news: structToPropertyMap(r.news, "news"),
  oldInputs: structToPropertyMap(r.old_inputs, "old_inputs"),
  ignoreChanges: [...r.ignoreChanges],
  preview: r.preview,
});

export const encodeUpdate = (res: UpdateResult): pb.UpdateResponseIn => ({
  properties: propertyMapToStruct(res.properties),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeDelete = (r: pb.DeleteRequest): DeleteRequest => ({
  urn: r.urn,
  name: r.name,
  type: r.type,
  timeout: r.timeout,
  id: r.id,
  properties: structToPropertyMap(r.properties, "properties"),
  oldInputs: structToPropertyMap(r.old_inputs, "old_inputs"),
});

export const encodeEmpty = (): google_protobuf.EmptyIn => ({});

/** A 64-bit count from the wire: negative is refused (as the reference does), past 2^53 is as good as unbounded. */
function count(value: string, field: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new RpcError(Status.INVALID_ARGUMENT, `List: ${field} must be 0 or more, got ${value}`);
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

export const decodeList = (r: pb.ListRequest): ListRequest => ({
  token: r.token,
  query: structToPropertyMap(r.query, "query"),
  limit: count(r.limit, "limit"),
  pageSize: count(r.page_size, "page_size"),
  continuationToken: r.continuation_token,
});

/** The stream's messages in the order the protocol asks: one Computed, or the results and then one Continuation. */
export const encodeList = (res: ListResult): pb.ListResponseIn[] =>
  res === "computed"
    ? [{ computed: {} }]
    : [...res.results.map((r) => ({ result: { id: r.id, name: r.name } })), { continuation: { continuation_token: res.continuationToken } }];

export const decodeInvoke = (r: pb.InvokeRequest): InvokeRequest => ({ token: r.tok, args: structToPropertyMap(r.args, "args"), preview: r.preview });

export const encodeInvoke = (res: InvokeResult): pb.InvokeResponseIn => ({
  return: res.return === undefined ? null : propertyMapToStruct(res.return),
  failures: failures(res.failures),
});

export const decodeCall = (r: pb.CallRequest): CallRequest => ({
  token: r.tok,
  args: structToPropertyMap(r.args, "args"),
  argDependencies: urnsMap(r.argDependencies),
  project: r.project,
  stack: r.stack,
  config: { ...r.config },
  configSecretKeys: [...r.configSecretKeys],
  dryRun: r.dryRun,
  parallel: r.parallel,
  monitorEndpoint: r.monitorEndpoint,
  organization: r.organization,
  acceptsOutputValues: r.accepts_output_values,
});

export const encodeCall = (res: CallResult): pb.CallResponseIn => ({
  return: res.return === undefined ? null : propertyMapToStruct(res.return),
  returnDependencies: toUrnsMap(res.returnDependencies),
  failures: failures(res.failures),
});
