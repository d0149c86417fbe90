// The cty type a Terraform schema implies for the values it describes, computed as Terraform core does.
import { attributeRecord, CtyDynamic, list, map, object, objectOwning, set, type CtyType } from "./cty/index.js";
import type { Attribute, Block, IdentitySchema, NestedAttributeObject } from "./types.js";

/** True when the type has a dynamic part anywhere, which changes how Terraform types list and map blocks. */
export function hasDynamicTypes(t: CtyType): boolean {
  switch (t.kind) {
    case "dynamic":
      return true;
    case "list":
    case "set":
    case "map":
      return hasDynamicTypes(t.element);
    case "tuple":
      return t.elements.some(hasDynamicTypes);
    case "object":
      return Object.values(t.attributes).some(hasDynamicTypes);
    default:
      return false;
  }
}

export function attributeType(a: Attribute): CtyType {
  if (a.nestedType !== undefined) return nestedObjectType(a.nestedType);
  if (a.type === undefined) throw new Error(`attribute ${a.name} has neither a type nor a nested type`);
  return a.type;
}

function nestedObjectType(o: NestedAttributeObject): CtyType {
  // Asked for at every level of a translation or conversion over nested attributes: kept, as blocks' types are.
  const known = nestedImplied.get(o);
  if (known !== undefined) return known;
  const t = spellNestedObjectType(o);
  nestedImplied.set(o, t);
  return t;
}

const nestedImplied = new WeakMap<NestedAttributeObject, CtyType>();

function spellNestedObjectType(o: NestedAttributeObject): CtyType {
  const attrs = attributeRecord();
  const optional: string[] = [];
  for (const a of o.attributes) {
    attrs[a.name] = attributeType(a);
    if (a.optional || a.computed) optional.push(a.name);
  }
  const obj = objectOwning(attrs, optional.length > 0 ? optional.sort() : undefined);
  switch (o.nesting) {
    case "single":
      return obj;
    case "list":
      return list(obj);
    case "set":
      return set(obj);
    case "map":
      return map(obj);
  }
}

const implied = new WeakMap<Block, CtyType>();

/**
 * The object type of a block. List blocks and map blocks whose contents have dynamic parts become fully dynamic,
 * because Terraform decodes those as tuples or objects whose exact type only the value knows.
 */
export function impliedType(block: Block): CtyType {
  const hit = implied.get(block);
  if (hit !== undefined) return hit;
  const attrs = attributeRecord();
  for (const a of block.attributes) attrs[a.name] = attributeType(a);
  for (const nb of block.blockTypes) {
    const inner = impliedType(nb.block);
    switch (nb.nesting) {
      case "single":
      case "group":
        attrs[nb.typeName] = inner;
        break;
      case "list":
        attrs[nb.typeName] = hasDynamicTypes(inner) ? CtyDynamic : list(inner);
        break;
      case "set":
        attrs[nb.typeName] = set(inner);
        break;
      case "map":
        attrs[nb.typeName] = hasDynamicTypes(inner) ? CtyDynamic : map(inner);
        break;
    }
  }
  const t = objectOwning(attrs);
  implied.set(block, t);
  return t;
}

/** The object type of a resource's identity: one attribute per identity attribute (Terraform's IdentitySchema.ImpliedType). */
export function identityType(schema: IdentitySchema): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const a of schema.attributes) attrs[a.name] = a.type;
  return object(attrs);
}
