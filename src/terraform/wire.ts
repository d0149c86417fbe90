// The protobuf seam of the Terraform client: tfplugin5/tfplugin6 messages to and from this project's types, nowhere else.
import { decodeJson, decodeMsgpack, encodeMsgpack, parseTypeBytes, type CtyType, type CtyValue } from "./cty/index.js";
import type {
  Attribute,
  AttributePath,
  Block,
  DeferredReason,
  Diagnostic,
  FunctionError,
  FunctionParameter,
  FunctionSignature,
  NestedAttributeObject,
  NestedBlock,
  NestingMode,
  ProviderSchema,
  Schema,
  StringKind,
} from "./types.js";

// Message shapes as src/proto.ts delivers them (keepCase, longs as strings, enums as names; defaults on, except for
// the schema responses, decoded lean: every schema field below is optional and defaulted here).
export interface PbDynamicValue { msgpack?: Buffer | Uint8Array; json?: Buffer | Uint8Array }
export interface PbStep { attribute_name?: string; element_key_string?: string; element_key_int?: string | number; selector?: string }
export interface PbAttributePath { steps?: PbStep[] }
export interface PbDiagnostic { severity?: string; summary?: string; detail?: string; attribute?: PbAttributePath | null }
interface PbAttribute {
  name: string; type?: Buffer; nested_type?: PbObject | null; description?: string; description_kind?: string;
  required?: boolean; optional?: boolean; computed?: boolean; sensitive?: boolean; deprecated?: boolean; write_only?: boolean;
  deprecation_message?: string;
}
interface PbObject { attributes?: PbAttribute[]; nesting?: string }
interface PbBlock {
  attributes?: PbAttribute[]; block_types?: PbNestedBlock[]; description?: string; description_kind?: string; deprecated?: boolean;
  deprecation_message?: string;
}
interface PbNestedBlock { type_name: string; block?: PbBlock | null; nesting?: string; min_items?: string | number; max_items?: string | number }
interface PbSchema { version?: string | number; block?: PbBlock | null }
interface PbParameter {
  name?: string; type?: Buffer; allow_null_value?: boolean; allow_unknown_values?: boolean; description?: string; description_kind?: string;
}
export interface PbFunction {
  parameters?: PbParameter[]; variadic_parameter?: PbParameter | null; return?: { type?: Buffer } | null;
  summary?: string; description?: string; description_kind?: string; deprecation_message?: string;
}
export interface PbGetProviderSchemaResponse {
  provider?: PbSchema | null;
  resource_schemas?: Record<string, PbSchema>;
  data_source_schemas?: Record<string, PbSchema>;
  ephemeral_resource_schemas?: Record<string, PbSchema>;
  functions?: Record<string, PbFunction>;
  diagnostics?: PbDiagnostic[];
  provider_meta?: PbSchema | null;
  server_capabilities?: { plan_destroy?: boolean; get_provider_schema_optional?: boolean; move_resource_state?: boolean } | null;
}
export interface PbFunctionError { text?: string; function_argument?: string | number | null }
export interface PbDeferred { reason?: string }
export interface PbTimestamp { seconds?: string | number; nanos?: number }

const emptyBlock: PbBlock = {};

function kind(k: string | undefined): StringKind {
  return k === "MARKDOWN" ? "markdown" : "plain";
}

function toInt(v: string | number | undefined | null): number {
  return v === undefined || v === null ? 0 : Number(v);
}

function attributeFromPb(a: PbAttribute): Attribute {
  const nested = a.nested_type ?? undefined;
  const hasType = a.type !== undefined && a.type.length > 0;
  return {
    name: a.name,
    type: hasType ? parseTypeBytes(a.type!) : undefined,
    nestedType: nested !== undefined && !hasType ? objectFromPb(nested) : undefined,
    description: a.description ?? "",
    descriptionKind: kind(a.description_kind),
    required: a.required ?? false,
    optional: a.optional ?? false,
    computed: a.computed ?? false,
    sensitive: a.sensitive ?? false,
    deprecated: a.deprecated ?? false,
    deprecationMessage: a.deprecation_message ?? "",
    writeOnly: a.write_only ?? false,
  };
}

function objectFromPb(o: PbObject): NestedAttributeObject {
  const nesting = (o.nesting ?? "SINGLE").toLowerCase();
  if (nesting !== "single" && nesting !== "list" && nesting !== "set" && nesting !== "map") {
    throw new Error(`the provider schema has a nested attribute object with nesting mode ${o.nesting}`);
  }
  return { attributes: (o.attributes ?? []).map(attributeFromPb), nesting };
}

function blockFromPb(b: PbBlock): Block {
  return {
    attributes: (b.attributes ?? []).map(attributeFromPb),
    blockTypes: (b.block_types ?? []).map(nestedBlockFromPb),
    description: b.description ?? "",
    descriptionKind: kind(b.description_kind),
    deprecated: b.deprecated ?? false,
    deprecationMessage: b.deprecation_message ?? "",
  };
}

function nestedBlockFromPb(nb: PbNestedBlock): NestedBlock {
  const nesting = (nb.nesting ?? "").toLowerCase() as NestingMode;
  if (!["single", "list", "set", "map", "group"].includes(nesting)) {
    throw new Error(`the provider schema has block ${nb.type_name} with nesting mode ${nb.nesting}`);
  }
  return {
    typeName: nb.type_name,
    block: blockFromPb(nb.block ?? emptyBlock),
    nesting,
    minItems: toInt(nb.min_items),
    maxItems: toInt(nb.max_items),
  };
}

export function schemaFromPb(s: PbSchema | null | undefined): Schema {
  return { version: toInt(s?.version), block: blockFromPb(s?.block ?? emptyBlock) };
}

function parameterFromPb(p: PbParameter): FunctionParameter {
  return {
    name: p.name ?? "",
    type: parseTypeBytes(p.type ?? Buffer.from('"dynamic"')),
    allowNullValue: p.allow_null_value ?? false,
    allowUnknownValues: p.allow_unknown_values ?? false,
    description: p.description ?? "",
    descriptionKind: kind(p.description_kind),
  };
}

export function functionFromPb(f: PbFunction): FunctionSignature {
  return {
    parameters: (f.parameters ?? []).map(parameterFromPb),
    variadicParameter: f.variadic_parameter ? parameterFromPb(f.variadic_parameter) : undefined,
    returnType: parseTypeBytes(f.return?.type ?? Buffer.from('"dynamic"')),
    summary: f.summary ?? "",
    description: f.description ?? "",
    descriptionKind: kind(f.description_kind),
    deprecationMessage: f.deprecation_message ?? "",
  };
}

function schemaMap(m: Record<string, PbSchema> | undefined): Map<string, Schema> {
  return new Map(Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, schemaFromPb(v)]));
}

export function providerSchemaFromPb(r: PbGetProviderSchemaResponse): ProviderSchema {
  const caps = r.server_capabilities ?? {};
  return {
    provider: schemaFromPb(r.provider),
    providerMeta: r.provider_meta ? schemaFromPb(r.provider_meta) : undefined,
    resources: schemaMap(r.resource_schemas),
    dataSources: schemaMap(r.data_source_schemas),
    ephemeralResources: schemaMap(r.ephemeral_resource_schemas),
    functions: new Map(Object.entries(r.functions ?? {}).map(([k, v]) => [k, functionFromPb(v)])),
    serverCapabilities: {
      planDestroy: caps.plan_destroy ?? false,
      getProviderSchemaOptional: caps.get_provider_schema_optional ?? false,
      moveResourceState: caps.move_resource_state ?? false,
    },
    diagnostics: diagnosticsFromPb(r.diagnostics),
  };
}

export function pathFromPb(p: PbAttributePath | null | undefined): AttributePath | undefined {
  if (!p || !p.steps || p.steps.length === 0) return undefined;
  return p.steps.map((s) => {
    switch (s.selector) {
      case "attribute_name":
        return { attribute: s.attribute_name ?? "" };
      case "element_key_string":
        return { key: s.element_key_string ?? "" };
      default:
        return { index: Number(s.element_key_int ?? 0) };
    }
  });
}

export function diagnosticsFromPb(ds: PbDiagnostic[] | undefined): Diagnostic[] {
  return (ds ?? []).map((d) => {
    const attribute = pathFromPb(d.attribute);
    return {
      severity: d.severity === "WARNING" ? "warning" : "error",
      summary: d.summary ?? "",
      detail: d.detail ?? "",
      ...(attribute ? { attribute } : {}),
    };
  });
}

export function functionErrorFromPb(e: PbFunctionError | null | undefined): FunctionError | undefined {
  if (!e) return undefined;
  const arg = e.function_argument;
  return { text: e.text ?? "", ...(arg !== undefined && arg !== null ? { argument: Number(arg) } : {}) };
}

export function deferredFromPb(d: PbDeferred | null | undefined): DeferredReason | undefined {
  if (!d) return undefined;
  return (d.reason ?? "UNKNOWN").toLowerCase() as DeferredReason;
}

/** An absent or zero Timestamp means "no time": providers leave renew_at unset when nothing needs renewing. */
export function timestampFromPb(t: PbTimestamp | null | undefined): Date | undefined {
  if (!t) return undefined;
  const ms = Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
  return ms === 0 ? undefined : new Date(ms);
}

export function toDynamic(value: CtyValue, type: CtyType): PbDynamicValue {
  return { msgpack: Buffer.from(encodeMsgpack(value, type)) };
}

/** An absent DynamicValue means null; providers may answer in msgpack or, rarely, JSON. */
export function fromDynamic(dv: PbDynamicValue | null | undefined, type: CtyType): CtyValue {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) return decodeMsgpack(dv.msgpack, type);
  if (dv.json && dv.json.length > 0) return decodeJson(Buffer.from(dv.json), type);
  return null;
}
