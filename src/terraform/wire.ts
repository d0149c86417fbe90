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
  IdentitySchema,
  NestedAttributeObject,
  NestedBlock,
  NestingMode,
  ProviderSchema,
  Schema,
  StringKind,
} from "./types.js";
import { boundText, MAX_DIAGNOSTIC_CHARS } from "../wire/bound.js";
import type * as google_protobuf from "../wire/google.protobuf.gen.js";
import type { Lean } from "../wire/shape.js";
import type * as tf6 from "../wire/tfplugin6.gen.js";

// Messages as src/wire/proto.ts decodes them, typed by the generated tfplugin6 types (src/wire/tfplugin6.gen.ts). Every
// response is read as Lean: the schema responses decode without defaults, and a tfplugin5 provider's messages lack
// the fields tfplugin6 added (their names are otherwise the same; test/unit/wire-types.test.ts checks this).
export type PbDynamicValue = Lean<tf6.DynamicValue>;
export type PbAttributePath = Lean<tf6.AttributePath>;
export type PbDiagnostic = Lean<tf6.Diagnostic>;
type PbAttribute = Lean<tf6.Schema_Attribute>;
type PbObject = Lean<tf6.Schema_Object>;
type PbBlock = Lean<tf6.Schema_Block>;
type PbNestedBlock = Lean<tf6.Schema_NestedBlock>;
type PbSchema = Lean<tf6.Schema>;
type PbParameter = Lean<tf6.Function_Parameter>;
export type PbFunction = Lean<tf6.Function>;
export type PbGetProviderSchemaResponse = Lean<tf6.GetProviderSchema_Response>;
export type PbGetResourceIdentitySchemasResponse = Lean<tf6.GetResourceIdentitySchemas_Response>;
export type PbResourceIdentityData = Lean<tf6.ResourceIdentityData>;
export type PbFunctionError = Lean<tf6.FunctionError>;
export type PbDeferred = Lean<tf6.Deferred>;
export type PbTimestamp = Lean<google_protobuf.Timestamp>;

const emptyBlock: PbBlock = {};

function kind(k: string | undefined): StringKind {
  return k === "MARKDOWN" ? "markdown" : "plain";
}

function toInt(v: string | number | undefined | null): number {
  return v === undefined || v === null ? 0 : Number(v);
}

function attributeFromPb(a: PbAttribute): Attribute {
  const nested = a.nested_type ?? undefined;
  const type = a.type !== undefined && a.type.length > 0 ? a.type : undefined;
  return {
    name: a.name ?? "",
    type: type !== undefined ? parseTypeBytes(type) : undefined,
    nestedType: nested !== undefined && type === undefined ? objectFromPb(nested) : undefined,
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
    ...(b.computed === true ? { computed: true } : {}),
  };
}

const BLOCK_NESTING: Record<tf6.Schema_NestedBlock_NestingMode, NestingMode | undefined> = {
  INVALID: undefined,
  SINGLE: "single",
  LIST: "list",
  SET: "set",
  MAP: "map",
  GROUP: "group",
};

function nestedBlockFromPb(nb: PbNestedBlock): NestedBlock {
  const nesting = nb.nesting === undefined ? undefined : BLOCK_NESTING[nb.nesting];
  if (nesting === undefined) {
    throw new Error(`the provider schema has block ${nb.type_name} with nesting mode ${nb.nesting}`);
  }
  return {
    typeName: nb.type_name ?? "",
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
    actions: schemaMap(Object.fromEntries(Object.entries(r.action_schemas ?? {}).map(([k, v]) => [k, v.schema ?? {}]))),
    listResources: schemaMap(r.list_resource_schemas),
    functions: new Map(Object.entries(r.functions ?? {}).map(([k, v]) => [k, functionFromPb(v)])),
    serverCapabilities: {
      planDestroy: caps.plan_destroy ?? false,
      getProviderSchemaOptional: caps.get_provider_schema_optional ?? false,
      moveResourceState: caps.move_resource_state ?? false,
      generateResourceConfig: caps.generate_resource_config ?? false,
    },
    diagnostics: diagnosticsFromPb(r.diagnostics),
  };
}

/** Identity schemas by resource type, names sorted like every other schema map. */
export function identitySchemasFromPb(r: PbGetResourceIdentitySchemasResponse): Map<string, IdentitySchema> {
  const entries = Object.entries(r.identity_schemas ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(
    entries.map(([k, v]) => [
      k,
      {
        version: toInt(v.version),
        attributes: (v.identity_attributes ?? []).map((a) => ({
          name: a.name ?? "",
          type: parseTypeBytes(a.type ?? Buffer.from('"dynamic"')),
          requiredForImport: a.required_for_import ?? false,
          optionalForImport: a.optional_for_import ?? false,
          description: a.description ?? "",
        })),
      },
    ]),
  );
}

/** An identity for a request: absent stays absent, so a resource without identity sends exactly what it did before. */
export function identityToPb(value: CtyValue | undefined, type: CtyType | undefined): tf6.ResourceIdentityDataIn | undefined {
  return value === undefined || type === undefined ? undefined : { identity_data: toDynamic(value, type) };
}

/** An identity in a response: undefined when the provider sent none (or the resource has no identity schema). */
export function identityFromPb(d: PbResourceIdentityData | null | undefined, type: CtyType | undefined): CtyValue | undefined {
  if (!d || !d.identity_data || type === undefined) return undefined;
  const v = fromDynamic(d.identity_data, type);
  return v === null ? undefined : v;
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

/** A provider's diagnostics, each text cut to a size a message to the engine can carry. */
export function diagnosticsFromPb(ds: PbDiagnostic[] | undefined): Diagnostic[] {
  return (ds ?? []).map((d) => {
    const attribute = pathFromPb(d.attribute);
    return {
      severity: d.severity === "WARNING" ? "warning" : "error",
      summary: boundText(d.summary ?? "", MAX_DIAGNOSTIC_CHARS),
      detail: boundText(d.detail ?? "", MAX_DIAGNOSTIC_CHARS),
      ...(attribute ? { attribute } : {}),
    };
  });
}

export function functionErrorFromPb(e: PbFunctionError | null | undefined): FunctionError | undefined {
  if (!e) return undefined;
  const arg = e.function_argument;
  return { text: boundText(e.text ?? "", MAX_DIAGNOSTIC_CHARS), ...(arg !== undefined ? { argument: Number(arg) } : {}) };
}

// A reason newer than our definitions decodes as its number, which no key names.
const DEFERRED_REASONS: Partial<Record<string, DeferredReason>> = {
  UNKNOWN: "unknown",
  RESOURCE_CONFIG_UNKNOWN: "resource_config_unknown",
  PROVIDER_CONFIG_UNKNOWN: "provider_config_unknown",
  ABSENT_PREREQ: "absent_prereq",
};

export function deferredFromPb(d: PbDeferred | null | undefined): DeferredReason | undefined {
  if (!d) return undefined;
  return DEFERRED_REASONS[d.reason ?? "UNKNOWN"] ?? "unknown";
}

/** An absent or zero Timestamp means "no time": providers leave renew_at unset when nothing needs renewing. */
export function timestampFromPb(t: PbTimestamp | null | undefined): Date | undefined {
  if (!t) return undefined;
  const ms = Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
  return ms === 0 ? undefined : new Date(ms);
}

export function toDynamic(value: CtyValue, type: CtyType): tf6.DynamicValueIn {
  return { msgpack: Buffer.from(encodeMsgpack(value, type)) };
}

/** An absent DynamicValue means null; providers may answer in msgpack or, rarely, JSON. */
export function fromDynamic(dv: PbDynamicValue | null | undefined, type: CtyType): CtyValue {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length > 0) return decodeMsgpack(dv.msgpack, type);
  if (dv.json && dv.json.length > 0) return decodeJson(Buffer.from(dv.json), type);
  return null;
}
