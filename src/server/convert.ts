// pulumirpc request/response messages (as src/proto.ts decodes them) ⇄ the plain requests and results of ResourceOps.
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
  DiffResult,
  InvokeRequest,
  InvokeResult,
  PropertyDiffKind,
  ReadRequest,
  ReadResult,
  UpdateRequest,
  UpdateResult,
} from "./ops.js";
import { propertyMapToStruct, structToPropertyMap, type PbStruct } from "./struct.js";

/** A decoded protobuf message as src/proto.ts gives it: fields by their proto names, defaults filled in. */
export type Pb = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const bool = (v: unknown): boolean => v === true;
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((e): e is string => typeof e === "string") : []);
const struct = (v: unknown, label: string) => structToPropertyMap(v as PbStruct | null | undefined, label);
const optStr = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function strMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, e] of Object.entries((v as Record<string, unknown> | null) ?? {})) if (typeof e === "string") out[k] = e;
  return out;
}

/** map<string, {urns: [...]}> as sent for dependencies. */
function urnsMap(v: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, e] of Object.entries((v as Record<string, unknown> | null) ?? {})) out[k] = strs((e as Pb | null)?.["urns"]);
  return out;
}

function toUrnsMap(m: Record<string, string[]>): Record<string, { urns: string[] }> {
  const out: Record<string, { urns: string[] }> = {};
  for (const [k, urns] of Object.entries(m)) out[k] = { urns };
  return out;
}

const failures = (f: CheckFailure[]): Pb[] => f.map((x) => ({ property: x.property, reason: x.reason }));

const AUTONAMING_MODES = { PROPOSE: "propose", ENFORCE: "enforce", DISABLE: "disable" } as const;

export function decodeCheck(r: Pb): CheckRequest {
  const req: CheckRequest = {
    urn: str(r["urn"]),
    name: str(r["name"]),
    type: str(r["type"]),
    olds: struct(r["olds"], "olds"),
    news: struct(r["news"], "news"),
    randomSeed: r["randomSeed"] instanceof Uint8Array ? r["randomSeed"] : new Uint8Array(),
    oldOutputs: struct(r["old_outputs"], "old_outputs"),
  };
  const autonaming = r["autonaming"] as Pb | null | undefined;
  if (autonaming) {
    const mode = AUTONAMING_MODES[str(autonaming["mode"]) as keyof typeof AUTONAMING_MODES] ?? "propose";
    req.autonaming = { proposedName: str(autonaming["proposed_name"]), mode };
  }
  return req;
}

export const encodeCheck = (res: CheckResult): Pb => ({ inputs: propertyMapToStruct(res.inputs), failures: failures(res.failures) });

export function decodeDiff(r: Pb): DiffRequest {
  return {
    id: str(r["id"]),
    urn: str(r["urn"]),
    name: str(r["name"]),
    type: str(r["type"]),
    olds: struct(r["olds"], "olds"),
    news: struct(r["news"], "news"),
    oldInputs: struct(r["old_inputs"], "old_inputs"),
    ignoreChanges: strs(r["ignoreChanges"]),
  };
}

const DIFF_CHANGES = { unknown: "DIFF_UNKNOWN", none: "DIFF_NONE", some: "DIFF_SOME" } as const;
const DIFF_KINDS: Record<PropertyDiffKind, string> = {
  add: "ADD",
  "add-replace": "ADD_REPLACE",
  delete: "DELETE",
  "delete-replace": "DELETE_REPLACE",
  update: "UPDATE",
  "update-replace": "UPDATE_REPLACE",
};

export function encodeDiff(res: DiffResult): Pb {
  const detailed: Record<string, Pb> = {};
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

export function decodeConfigure(r: Pb): ConfigureRequest {
  const req: ConfigureRequest = {
    args: struct(r["args"], "args"),
    acceptSecrets: bool(r["acceptSecrets"]),
    acceptResources: bool(r["acceptResources"]),
    sendsOldInputs: bool(r["sends_old_inputs"]),
    sendsOldInputsToDelete: bool(r["sends_old_inputs_to_delete"]),
  };
  for (const key of ["id", "urn", "name", "type"] as const) {
    const v = optStr(r[key]);
    if (v !== undefined && v !== "") req[key] = v;
  }
  return req;
}

export const encodeConfigure = (res: ConfigureResult): Pb => ({
  acceptSecrets: res.acceptSecrets,
  supportsPreview: res.supportsPreview,
  acceptResources: res.acceptResources,
  acceptOutputs: res.acceptOutputs,
  supports_autonaming_configuration: res.supportsAutonamingConfiguration,
});

const step = (r: Pb) => ({ urn: str(r["urn"]), name: str(r["name"]), type: str(r["type"]), timeout: num(r["timeout"]) });

export const decodeCreate = (r: Pb): CreateRequest => ({ ...step(r), properties: struct(r["properties"], "properties"), preview: bool(r["preview"]) });

export const encodeCreate = (res: CreateResult): Pb => ({
  id: res.id,
  properties: propertyMapToStruct(res.properties),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeRead = (r: Pb): ReadRequest => ({
  ...step(r),
  id: str(r["id"]),
  properties: struct(r["properties"], "properties"),
  inputs: struct(r["inputs"], "inputs"),
});

export const encodeRead = (res: ReadResult): Pb => ({
  id: res.id,
  properties: propertyMapToStruct(res.properties),
  inputs: propertyMapToStruct(res.inputs),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeUpdate = (r: Pb): UpdateRequest => ({
  ...step(r),
  id: str(r["id"]),
  olds: struct(r["olds"], "olds"),
  news: struct(r["news"], "news"),
  oldInputs: struct(r["old_inputs"], "old_inputs"),
  ignoreChanges: strs(r["ignoreChanges"]),
  preview: bool(r["preview"]),
});

export const encodeUpdate = (res: UpdateResult): Pb => ({
  properties: propertyMapToStruct(res.properties),
  refresh_before_update: res.refreshBeforeUpdate ?? false,
});

export const decodeDelete = (r: Pb): DeleteRequest => ({
  ...step(r),
  id: str(r["id"]),
  properties: struct(r["properties"], "properties"),
  oldInputs: struct(r["old_inputs"], "old_inputs"),
});

export const encodeEmpty = (): Pb => ({});

export const decodeInvoke = (r: Pb): InvokeRequest => ({ token: str(r["tok"]), args: struct(r["args"], "args"), preview: bool(r["preview"]) });

export const encodeInvoke = (res: InvokeResult): Pb => ({
  return: res.return === undefined ? null : propertyMapToStruct(res.return),
  failures: failures(res.failures),
});

export const decodeCall = (r: Pb): CallRequest => ({
  token: str(r["tok"]),
  args: struct(r["args"], "args"),
  argDependencies: urnsMap(r["argDependencies"]),
  project: str(r["project"]),
  stack: str(r["stack"]),
  config: strMap(r["config"]),
  configSecretKeys: strs(r["configSecretKeys"]),
  dryRun: bool(r["dryRun"]),
  parallel: num(r["parallel"]),
  monitorEndpoint: str(r["monitorEndpoint"]),
  organization: str(r["organization"]),
  acceptsOutputValues: bool(r["accepts_output_values"]),
});

export const encodeCall = (res: CallResult): Pb => ({
  return: res.return === undefined ? null : propertyMapToStruct(res.return),
  returnDependencies: toUrnsMap(res.returnDependencies),
  failures: failures(res.failures),
});
