// The converter mapping (GetMapping key `terraform`): the reference bridge's MarshalProviderInfo, computed from the model and the Terraform schema.
import { typeToJson, type CtyType } from "../terraform/cty/index.js";
import { attributeType } from "../terraform/schema.js";
import type { Attribute, Block, FunctionParameter, FunctionSignature, NestedBlock, ProviderSchema } from "../terraform/types.js";
import type { PropertyModel, ProviderModel } from "./model.js";
import { resourcePrefix } from "./names.js";

/**
 * The keys a converter asks for: `terraform` by pulumi-converter-terraform, `tf` by the prototype converter before it;
 * the reference answers both alike and every other key with nothing.
 */
export const MAPPING_KEYS: ReadonlySet<string> = new Set(["terraform", "tf"]);

/**
 * How the reference's shim numbers value types (tfshim.ValueType). Its schema shim reports every number as a float and
 * every set as a list; a tuple is a type it does not know (0).
 */
const ValueType = { invalid: 0, bool: 1, float: 3, string: 4, list: 5, map: 6, dynamic: 8 } as const;

/** One attribute or block as the reference's shim marshals it (MarshallableSchemaShim); omitted fields are Go zero values. */
export interface ShimSchema {
  type: number;
  optional?: true;
  required?: true;
  computed?: true;
  element?: ShimElement;
  maxItems?: number;
  minItems?: number;
  deprecated?: string;
  sensitive?: true;
}

/** An element is a schema (collections of values) or a resource (objects); an object without attributes is `{}`. */
export interface ShimElement {
  schema?: ShimSchema;
  resource?: ShimResource;
}

export type ShimResource = Record<string, ShimSchema>;

export interface ShimFunctionParameter {
  name?: string;
  /** The cty type in Terraform's JSON type notation. */
  type: unknown;
  allowNullValue?: true;
  description?: string;
}

export interface ShimFunction {
  parameters?: ShimFunctionParameter[];
  variadicParameter?: ShimFunctionParameter;
  return: unknown;
  summary?: string;
  description?: string;
  deprecationMessage?: string;
}

/**
 * A field's Pulumi-side information (MarshallableSchema). The reference's struct tag for the type token lacks its
 * comma (`json:"typeomitempty"`), so the key is spelled that way and written even when empty; converters read it so.
 */
export interface FieldInfo {
  name: string;
  typeomitempty: string;
  default?: { autonamed: true; isFunc: true };
}

/** What the reference's GetMapping data holds (MarshallableProvider); empty maps are left out as its `omitempty` does. */
export interface ProviderMapping {
  provider: {
    schema?: ShimResource;
    resources?: Record<string, ShimResource>;
    dataSources?: Record<string, ShimResource>;
    functions?: Record<string, ShimFunction>;
  };
  name: string;
  version: string;
  resources?: Record<string, { tok: string; fields: Record<string, FieldInfo>; idFields: null }>;
  dataSources?: Record<string, { tok: string; fields: Record<string, FieldInfo> }>;
  functions?: Record<string, { tok: string }>;
}

/** GetMapping's `provider` and GetMappings' one entry: the Terraform provider the mapping is for. */
export function mappedProviderName(model: ProviderModel, schema: ProviderSchema): string {
  return resourcePrefix(schema.resources.keys()) || model.name;
}

/**
 * The mapping `pulumi convert --from terraform` reads: the Terraform schema of every resource, data source and function
 * the provider has (filters do not apply to this half, as in the reference), and the tokens and renamed or autonamed
 * fields of those the package maps.
 */
export function providerMapping(model: ProviderModel, schema: ProviderSchema): ProviderMapping {
  const provider: ProviderMapping["provider"] = {};
  setIfAny(provider, "schema", blockResource(schema.provider.block));
  setIfAny(provider, "resources", mapEntries(schema.resources, (s) => blockResource(s.block)));
  setIfAny(provider, "dataSources", mapEntries(schema.dataSources, (s) => blockResource(s.block)));
  setIfAny(provider, "functions", mapEntries(schema.functions, shimFunction));

  const out: ProviderMapping = { provider, name: model.name, version: model.version };
  setIfAny(out, "resources", mapEntries(model.resources, (r) => ({ tok: r.token, fields: fieldInfos(r.properties), idFields: null })));
  // The reference applies its field fixups (id, urn, pulumi) and autonaming to resources only.
  setIfAny(out, "dataSources", mapEntries(model.dataSources, (d) => ({ tok: d.token, fields: {} })));
  setIfAny(out, "functions", mapEntries(model.functions, (f) => ({ tok: f.token })));
  return out;
}

function mapEntries<V, R>(m: ReadonlyMap<string, V>, f: (v: V) => R): Record<string, R> {
  const out: Record<string, R> = {};
  for (const k of [...m.keys()].sort()) out[k] = f(m.get(k)!);
  return out;
}

function setIfAny<T extends object, K extends keyof T>(target: T, key: K, value: T[K] & object): void {
  if (Object.keys(value).length > 0) target[key] = value;
}

function fieldInfos(properties: readonly PropertyModel[]): Record<string, FieldInfo> {
  const fields: Record<string, FieldInfo> = {};
  for (const p of properties) {
    if (p.autonamed === true) fields[p.tfName] = { name: p.name, typeomitempty: "", default: { autonamed: true, isFunc: true } };
    else if (p.renamed === true) fields[p.tfName] = { name: p.name, typeomitempty: "" };
  }
  return fields;
}

function valueType(t: CtyType): number {
  switch (t.kind) {
    case "bool":
      return ValueType.bool;
    case "number":
      return ValueType.float;
    case "string":
      return ValueType.string;
    case "list":
    case "set":
      return ValueType.list;
    case "map":
    case "object":
      return ValueType.map;
    case "dynamic":
      return ValueType.dynamic;
    case "tuple":
      return ValueType.invalid;
  }
}

interface SchemaFacts {
  type: number;
  optional?: boolean;
  required?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  maxItems?: number;
  minItems?: number;
  element?: ShimElement;
}

/** Go's `omitempty`: false, 0 and absent fields are not written. */
function shimSchema(f: SchemaFacts): ShimSchema {
  const out: ShimSchema = { type: f.type };
  if (f.optional === true) out.optional = true;
  if (f.required === true) out.required = true;
  if (f.computed === true) out.computed = true;
  if (f.element !== undefined) out.element = f.element;
  if (f.maxItems !== undefined && f.maxItems !== 0) out.maxItems = f.maxItems;
  if (f.minItems !== undefined && f.minItems !== 0) out.minItems = f.minItems;
  // The shim sees only the protocol's flag, so any message is the reference's generic one.
  if (f.deprecated === true) out.deprecated = "Deprecated";
  if (f.sensitive === true) out.sensitive = true;
  return out;
}

function resourceElement(r: ShimResource): ShimElement {
  return Object.keys(r).length > 0 ? { resource: r } : {};
}

function blockResource(block: Block): ShimResource {
  const out: ShimResource = {};
  for (const a of block.attributes) out[a.name] = attributeSchema(a);
  for (const nb of block.blockTypes) out[nb.typeName] = blockSchema(nb);
  return out;
}

/**
 * A nested block: an object (single, group, and each value of a map) is a map whose element is a resource, a list or
 * set a list of it. Blocks are never computed nor sensitive, and required exactly when they need an element.
 */
function blockSchema(nb: NestedBlock): ShimSchema {
  const element: ShimElement =
    nb.nesting === "map" ? { schema: blockSchema({ ...nb, nesting: "single" }) } : resourceElement(blockResource(nb.block));
  return shimSchema({
    type: nb.nesting === "list" || nb.nesting === "set" ? ValueType.list : ValueType.map,
    optional: nb.minItems === 0,
    required: nb.minItems > 0,
    maxItems: nb.maxItems,
    minItems: nb.minItems,
    deprecated: nb.block.deprecated,
    element,
  });
}

/**
 * An attribute carries its own flags and never MaxItems or MinItems. A map of nested objects has as element the same
 * attribute again as a single object (flags and all), as the reference's shim unwraps one level at a time.
 */
function attributeSchema(a: Attribute): ShimSchema {
  let element: ShimElement | undefined;
  const nested = a.nestedType;
  if (nested === undefined) {
    element = ctyElement(attributeType(a));
  } else if (nested.nesting === "map") {
    element = { schema: attributeSchema({ ...a, nestedType: { ...nested, nesting: "single" } }) };
  } else {
    const r: ShimResource = {};
    for (const inner of nested.attributes) r[inner.name] = attributeSchema(inner);
    element = resourceElement(r);
  }
  return shimSchema({
    type: valueType(attributeType(a)),
    optional: a.optional,
    required: a.required,
    computed: a.computed,
    sensitive: a.sensitive,
    deprecated: a.deprecated,
    element,
  });
}

/**
 * The element of a plain type: a collection's element type (never optional), an object's attributes (each optional
 * when the type marks it so, or all of them when it marks none), nothing for primitives, dynamic and tuples.
 */
function ctyElement(t: CtyType): ShimElement | undefined {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return { schema: ctySchema(t.element, false) };
    case "object": {
      const optional = t.optional ?? [];
      const r: ShimResource = {};
      for (const [name, at] of Object.entries(t.attributes)) r[name] = ctySchema(at, optional.length === 0 || optional.includes(name));
      return resourceElement(r);
    }
    default:
      return undefined;
  }
}

function ctySchema(t: CtyType, optional: boolean): ShimSchema {
  return shimSchema({ type: valueType(t), optional, element: ctyElement(t) });
}

function shimFunction(f: FunctionSignature): ShimFunction {
  const out: ShimFunction = { return: typeToJson(f.returnType) };
  if (f.parameters.length > 0) out.parameters = f.parameters.map(shimParameter);
  if (f.variadicParameter !== undefined) out.variadicParameter = shimParameter(f.variadicParameter);
  if (f.summary !== "") out.summary = f.summary;
  if (f.description !== "") out.description = f.description;
  if (f.deprecationMessage !== "") out.deprecationMessage = f.deprecationMessage;
  return out;
}

function shimParameter(p: FunctionParameter): ShimFunctionParameter {
  const out: ShimFunctionParameter = { type: typeToJson(p.type) };
  if (p.name !== "") out.name = p.name;
  if (p.allowNullValue) out.allowNullValue = true;
  if (p.description !== "") out.description = p.description;
  return out;
}
