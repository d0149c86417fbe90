// Hand-built Terraform provider schemas for unit tests: cty types, attributes, blocks and providers in a line each.
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute, Block, FunctionSignature, NestedAttributeObject, NestedBlock, ProviderSchema, Schema } from "../../src/terraform/types.js";

export const S: CtyType = { kind: "string" };
export const N: CtyType = { kind: "number" };
export const B: CtyType = { kind: "bool" };
export const D: CtyType = { kind: "dynamic" };
export const list = (element: CtyType): CtyType => ({ kind: "list", element });
export const set = (element: CtyType): CtyType => ({ kind: "set", element });
export const map = (element: CtyType): CtyType => ({ kind: "map", element });
export const obj = (attributes: Record<string, CtyType>, optional?: string[]): CtyType => ({ kind: "object", attributes, ...(optional ? { optional } : {}) });

export function attr(name: string, type: CtyType | undefined, flags: Partial<Attribute> = {}): Attribute {
  return {
    name, type, description: "", descriptionKind: "plain", required: false, optional: false, computed: false,
    sensitive: false, deprecated: false, deprecationMessage: "", writeOnly: false, ...flags,
  };
}
export const req = (name: string, type: CtyType, f: Partial<Attribute> = {}): Attribute => attr(name, type, { required: true, ...f });
export const opt = (name: string, type: CtyType, f: Partial<Attribute> = {}): Attribute => attr(name, type, { optional: true, ...f });
export const comp = (name: string, type: CtyType, f: Partial<Attribute> = {}): Attribute => attr(name, type, { computed: true, ...f });
export const nestedAttr = (name: string, nesting: NestedAttributeObject["nesting"], attributes: Attribute[], f: Partial<Attribute> = {}): Attribute =>
  attr(name, undefined, { optional: true, nestedType: { nesting, attributes }, ...f });

export function block(attributes: Attribute[], blockTypes: NestedBlock[] = [], extra: Partial<Block> = {}): Block {
  return { attributes, blockTypes, description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "", ...extra };
}
export const nested = (typeName: string, nesting: NestedBlock["nesting"], inner: Block, minItems = 0, maxItems = 0): NestedBlock => ({ typeName, nesting, block: inner, minItems, maxItems });
export const schemaOf = (b: Block, version = 0): Schema => ({ version, block: b });

export function provider(parts: {
  resources?: Record<string, Block>;
  dataSources?: Record<string, Block>;
  functions?: Record<string, FunctionSignature>;
  ephemeralResources?: Record<string, Block>;
  actions?: Record<string, Block>;
  config?: Block;
}): ProviderSchema {
  const schemas = (r: Record<string, Block> = {}) => new Map(Object.entries(r).map(([k, v]) => [k, schemaOf(v)]));
  return {
    provider: schemaOf(parts.config ?? block([])),
    resources: schemas(parts.resources),
    dataSources: schemas(parts.dataSources),
    ephemeralResources: schemas(parts.ephemeralResources),
    actions: schemas(parts.actions),
    functions: new Map(Object.entries(parts.functions ?? {})),
    serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false },
    diagnostics: [],
  };
}
