// The cty type model: constructors, the JSON form Terraform schemas and go-cty use for types, equality, and friendly names.

import { memoizeString } from "../../memo.js";
import { CtyError } from "./errors.js";
import { index, key, type Path } from "../path.js";
import { goJsonString, sortUtf8 } from "./strings.js";

export type CtyType =
  | { kind: "string" }
  | { kind: "number" }
  | { kind: "bool" }
  | { kind: "dynamic" }
  | { kind: "list"; element: CtyType }
  | { kind: "set"; element: CtyType }
  | { kind: "map"; element: CtyType }
  | { kind: "tuple"; elements: CtyType[] }
  | { kind: "object"; attributes: Record<string, CtyType>; optional?: string[] };

export type CtyObjectType = Extract<CtyType, { kind: "object" }>;
export type CtyTupleType = Extract<CtyType, { kind: "tuple" }>;
export type CtyCollectionType = Extract<CtyType, { kind: "list" | "set" | "map" }>;

export const CtyString: CtyType = Object.freeze({ kind: "string" });
export const CtyNumber: CtyType = Object.freeze({ kind: "number" });
export const CtyBool: CtyType = Object.freeze({ kind: "bool" });
export const CtyDynamic: CtyType = Object.freeze({ kind: "dynamic" });

export function list(element: CtyType): CtyType {
  return { kind: "list", element };
}

export function set(element: CtyType): CtyType {
  return { kind: "set", element };
}

export function map(element: CtyType): CtyType {
  return { kind: "map", element };
}

export function tuple(elements: CtyType[]): CtyType {
  return { kind: "tuple", elements };
}

/** An object type; `optional` names attributes a caller may leave out (only type conversion cares, never the wire). */
export function object(attributes: Record<string, CtyType>, optional?: string[]): CtyType {
  // A null-prototype copy keeps attribute names like "constructor" from resolving to Object.prototype.
  const attrs = attributeRecord();
  for (const name of Object.keys(attributes)) attrs[name] = attributes[name]!;
  return objectOwning(attrs, optional);
}

/** An empty null-prototype record of attribute types, for objectOwning. */
export function attributeRecord(): Record<string, CtyType> {
  return Object.create(null) as Record<string, CtyType>;
}

/**
 * `object` over a record from attributeRecord that the caller gives up: no copy, for the schema's implied types, which
 * a giant provider makes tens of thousands of.
 */
export function objectOwning(attrs: Record<string, CtyType>, optional?: string[]): CtyType {
  if (optional !== undefined && optional.length > 0) {
    for (const name of optional) {
      if (!Object.hasOwn(attrs, name)) throw new CtyError(`optional attribute ${JSON.stringify(name)} is not an attribute of the object type`);
    }
    return { kind: "object", attributes: attrs, optional: sortUtf8([...new Set(optional)]) };
  }
  return { kind: "object", attributes: attrs };
}

export function isCollectionType(t: CtyType): t is CtyCollectionType {
  return t.kind === "list" || t.kind === "set" || t.kind === "map";
}

export function isPrimitiveType(t: CtyType): boolean {
  return t.kind === "string" || t.kind === "number" || t.kind === "bool";
}

interface ObjectInfo {
  /** Attribute names in the order go-cty writes them (UTF-8 byte order). */
  names: string[];
  types: Map<string, CtyType>;
  /** Position of each name in `names`. */
  index: Map<string, number>;
  /** Attribute types in `names` order. */
  typeList: CtyType[];
}

const objectInfos = new WeakMap<object, ObjectInfo>();

/** Attribute names sorted as go-cty writes them, and a lookup that never reaches into prototypes. */
export function objectInfo(t: CtyObjectType): ObjectInfo {
  let info = objectInfos.get(t);
  if (info === undefined) {
    const names = sortUtf8(Object.keys(t.attributes));
    const types = new Map<string, CtyType>();
    const index = new Map<string, number>();
    names.forEach((n, i) => {
      types.set(n, t.attributes[n]!);
      index.set(n, i);
    });
    info = { names, types, index, typeList: names.map((n) => t.attributes[n]!) };
    objectInfos.set(t, info);
  }
  return info;
}

/**
 * Twice TF_BRIDGE_MAX_SCHEMA_DEPTH's highest value (1,000): a type nested deeper than that setting is left out of the
 * package with its resource by the schema translation; failing here instead would fail the provider's whole schema.
 * Still far from what the recursion below and JSON.parse can take.
 */
const MAX_TYPE_DEPTH = 2_000;

/**
 * A CtyType from the already-parsed JSON form of a cty type: `"string"`,
 * `["list","string"]`, `["object",{"a":"string"},["a"]]`, `"dynamic"` and so on.
 */
export function parseType(json: unknown): CtyType {
  return parseTypeAt(json, 0, []);
}

function parseTypeAt(json: unknown, depth: number, path: Path): CtyType {
  if (depth > MAX_TYPE_DEPTH) throw new CtyError("type description is nested too deeply", "", path);
  if (typeof json === "string") {
    switch (json) {
      case "string": return CtyString;
      case "number": return CtyNumber;
      case "bool": return CtyBool;
      case "dynamic": return CtyDynamic;
      default: throw new CtyError(`invalid primitive type name ${JSON.stringify(json)}`, "", path);
    }
  }
  if (!Array.isArray(json) || json.length < 2 || typeof json[0] !== "string") {
    throw new CtyError("invalid type description", `got ${describeJson(json)}`, path);
  }
  const kind: string = json[0];
  switch (kind) {
    case "list":
    case "set":
    case "map": {
      if (json.length !== 2) throw new CtyError(`a ${kind} type description must have exactly one element type`, "", path);
      const element = parseTypeAt(json[1], depth + 1, [...path, index(1)]);
      return { kind, element };
    }
    case "tuple": {
      const elems: unknown = json[1];
      if (json.length !== 2 || !Array.isArray(elems)) throw new CtyError("a tuple type description must be [\"tuple\", [types...]]", "", path);
      return tuple(elems.map((e, i) => parseTypeAt(e, depth + 1, [...path, index(1), index(i)])));
    }
    case "object": {
      const attrsJson: unknown = json[1];
      if (json.length > 3 || typeof attrsJson !== "object" || attrsJson === null || Array.isArray(attrsJson)) {
        throw new CtyError("an object type description must be [\"object\", {attributes}, [optional]?]", "", path);
      }
      const attrs: Record<string, CtyType> = Object.create(null) as Record<string, CtyType>;
      for (const [name, at] of Object.entries(attrsJson)) attrs[name] = parseTypeAt(at, depth + 1, [...path, index(1), key(name)]);
      let optional: string[] | undefined;
      if (json.length === 3) {
        const opt: unknown = json[2];
        if (!Array.isArray(opt) || !opt.every((o): o is string => typeof o === "string")) {
          throw new CtyError("optional attributes of an object type must be a list of names", "", path);
        }
        optional = opt;
      }
      try {
        return object(attrs, optional);
      } catch (e) {
        if (e instanceof CtyError) throw new CtyError(e.problem, "", path);
        throw e;
      }
    }
    default:
      throw new CtyError(`invalid complex type kind name ${JSON.stringify(kind)}`, "", path);
  }
}

function describeJson(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : JSON.stringify(v);
}

const utf8 = new TextDecoder();

// A provider's schema spells the same few types (`"string"`, `["list","string"]`…) tens of thousands of times.
const parseTypeText = memoizeString(parseTypeOnce, 10_000);

/** A CtyType from the JSON bytes a Terraform schema carries for an attribute type. */
export function parseTypeBytes(bytes: Uint8Array | string): CtyType {
  return parseTypeText(typeof bytes === "string" ? bytes : utf8.decode(bytes));
}

function parseTypeOnce(text: string): CtyType {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CtyError("invalid type description", e instanceof Error ? e.message : String(e));
  }
  return parseType(json);
}

/** The JSON form of a type (as parseType reads it); object attributes come out in UTF-8 byte order. */
export function typeToJson(t: CtyType): unknown {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return t.kind;
    case "list":
    case "set":
    case "map":
      return [t.kind, typeToJson(t.element)];
    case "tuple":
      return ["tuple", t.elements.map(typeToJson)];
    case "object": {
      const attrs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const name of objectInfo(t).names) attrs[name] = typeToJson(t.attributes[name]!);
      return t.optional !== undefined && t.optional.length > 0 ? ["object", attrs, sortUtf8([...t.optional])] : ["object", attrs];
    }
  }
}

const typeJsonTexts = new WeakMap<object, string>();

/** The exact bytes go-cty's Type.MarshalJSON writes, which go into msgpack and JSON dynamic values. */
export function typeJsonText(t: CtyType): string {
  let text = typeJsonTexts.get(t);
  if (text !== undefined) return text;
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      text = `"${t.kind}"`;
      break;
    case "list":
    case "set":
    case "map":
      text = `["${t.kind}",${typeJsonText(t.element)}]`;
      break;
    case "tuple":
      text = `["tuple",[${t.elements.map(typeJsonText).join(",")}]]`;
      break;
    case "object": {
      const attrs = objectInfo(t).names.map((n) => `${goJsonString(n)}:${typeJsonText(t.attributes[n]!)}`);
      text = `["object",{${attrs.join(",")}}`;
      if (t.optional !== undefined && t.optional.length > 0) text += `,[${sortUtf8([...t.optional]).map(goJsonString).join(",")}]`;
      text += "]";
      break;
    }
  }
  typeJsonTexts.set(t, text);
  return text;
}

/** Structural type equality, as cty's Type.Equals (optional attributes included). */
export function typeEquals(a: CtyType, b: CtyType): boolean {
  if (a === b) return true;
  switch (a.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return a.kind === b.kind;
    case "list":
    case "set":
    case "map":
      return b.kind === a.kind && typeEquals(a.element, (b as CtyCollectionType).element);
    case "tuple": {
      if (b.kind !== "tuple" || a.elements.length !== b.elements.length) return false;
      return a.elements.every((e, i) => typeEquals(e, b.elements[i]!));
    }
    case "object": {
      if (b.kind !== "object") return false;
      const an = objectInfo(a).names;
      const bi = objectInfo(b);
      if (an.length !== bi.names.length) return false;
      for (const n of an) {
        const bt = bi.types.get(n);
        if (bt === undefined || !typeEquals(a.attributes[n]!, bt)) return false;
      }
      const ao = a.optional ?? [];
      const bo = b.optional ?? [];
      if (ao.length !== bo.length) return false;
      const bs = new Set(bo);
      return ao.every((o) => bs.has(o));
    }
  }
}

const HCL_IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A friendly name in Terraform's type-constraint syntax, e.g. `list(object({a=string}))`. */
export function typeString(t: CtyType): string {
  switch (t.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return t.kind;
    case "list":
    case "set":
    case "map":
      return `${t.kind}(${typeString(t.element)})`;
    case "tuple":
      return `tuple([${t.elements.map(typeString).join(",")}])`;
    case "object": {
      const optional = new Set(t.optional ?? []);
      const attrs = objectInfo(t).names.map((n) => {
        const key = HCL_IDENT.test(n) ? n : JSON.stringify(n);
        const at = typeString(t.attributes[n]!);
        return `${key}=${optional.has(n) ? `optional(${at})` : at}`;
      });
      return `object({${attrs.join(",")}})`;
    }
  }
}
