// google.protobuf.Struct (as src/wire/proto.ts decodes it, oneofs on) ⇄ Pulumi property values, special signature objects included.
import {
  AssetOrArchive,
  COMPUTED,
  Computed,
  OutputValue,
  ResourceReference,
  Secret,
  isPropertyMap,
  ARCHIVE_SIG,
  ASSET_SIG,
  OUTPUT_VALUE_SIG,
  RESOURCE_REFERENCE_SIG,
  SECRET_SIG,
  SIG_KEY,
  type PropertyMap,
  type PropertyValue,
} from "../bridge/property-value.js";
import { attribute, formatPath, index, type Path, type PathStep } from "../terraform/path.js";
import type * as google_protobuf from "../wire/google.protobuf.gen.js";
import type { Lean } from "../wire/shape.js";


/** The unknown we send, and the one the engine sends for untyped unknowns. */
export const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/**
 * The engine also marks unknowns whose type it knows with type-specific sentinels (bool, number, array, asset,
 * archive, object). All of them are simply "unknown" to us: the Terraform type comes from the schema, not the wire.
 */
const UNKNOWN_SENTINELS: ReadonlySet<string> = new Set([
  UNKNOWN_STRING,
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/**
 * google.protobuf.Value and Struct as src/wire/proto.ts decodes them (`kind` names the oneof member that is set), typed by
 * the generated types; read as Lean so that a message built without the `kind` virtual field decodes too.
 */
export type PbValue = Lean<google_protobuf.Value>;
export type PbStruct = Lean<google_protobuf.Struct>;

/** A Struct the engine sent that does not follow the property value conventions; `path` is where, from the request's field. */
export class StructDecodeError extends Error {
  readonly path: Path = [];

  constructor(readonly problem: string) {
    super(problem);
    this.name = "StructDecodeError";
  }

  /** Prefixes a step as the error unwinds; decoding keeps no path on the happy path. */
  under(step: PathStep): this {
    (this as { path: Path }).path = [step, ...this.path];
    let at = formatPath(this.path);
    if (at.length > 120) at = `${at.slice(0, 120)}…`;
    this.message = `${this.problem} (at ${at})`;
    return this;
  }
}

function under(e: unknown, step: PathStep): unknown {
  return e instanceof StructDecodeError ? e.under(step) : e;
}

/** Decodes `v` as element `step` of its container, naming the step in any decode error. */
function inside<T>(step: string | number, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    throw under(e, typeof step === "number" ? index(step) : attribute(step));
  }
}

/**
 * How deep a property value may nest. Deeper values are refused with their path rather than left to overflow the
 * stack of every recursive step after decoding; no Terraform schema nests anywhere near this.
 */
export const MAX_VALUE_DEPTH = 512;

function checkDepth(depth: number): void {
  if (depth > MAX_VALUE_DEPTH) throw new StructDecodeError(`the value is nested more than ${MAX_VALUE_DEPTH} levels deep`);
}

/** Plain JSON as it sits inside assets and archives, which we carry without interpreting. */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// Assigning "__proto__" on a plain object would change its prototype instead of adding a key.
function put<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Which member of the Value oneof is set; tolerant of messages built without the `kind` virtual field. */
function kindOf(v: PbValue): string | undefined {
  if (v.kind !== undefined) return v.kind;
  for (const k of ["nullValue", "numberValue", "stringValue", "boolValue", "structValue", "listValue"] as const) {
    if (v[k] !== undefined) return k;
  }
  return undefined;
}

function plainJson(v: PbValue, depth = 0): Json {
  checkDepth(depth);
  switch (kindOf(v)) {
    case "nullValue":
    case undefined:
      return null;
    case "numberValue":
      return v.numberValue ?? 0;
    case "stringValue":
      return v.stringValue ?? "";
    case "boolValue":
      return v.boolValue ?? false;
    case "listValue":
      return (v.listValue?.values ?? []).map((e, i) => inside(i, () => plainJson(e, depth + 1)));
    case "structValue": {
      const out: { [k: string]: Json } = {};
      for (const [k, e] of Object.entries(v.structValue?.fields ?? {})) put(out, k, inside(k, () => plainJson(e, depth + 1)));
      return out;
    }
    default:
      throw new StructDecodeError(`unsupported google.protobuf.Value kind ${String(v.kind)}`);
  }
}

/**
 * Decodes a Struct into a property map; an absent Struct is an empty map. `field` names the request field it came
 * from (`news`), for the path in errors.
 */
export function structToPropertyMap(s: PbStruct | null | undefined, field?: string): PropertyMap {
  if (field === undefined) return structFields(s, 0);
  return inside(field, () => structFields(s, 0));
}

function structFields(s: PbStruct | null | undefined, depth: number): PropertyMap {
  const out: PropertyMap = {};
  for (const [k, v] of Object.entries(s?.fields ?? {})) put(out, k, inside(k, () => valueToProperty(v, depth + 1)));
  return out;
}

/** Decodes one google.protobuf.Value into a property value. */
export function valueToProperty(v: PbValue, depth = 0): PropertyValue {
  checkDepth(depth);
  switch (kindOf(v)) {
    case "nullValue":
    case undefined:
      return null;
    case "numberValue":
      return v.numberValue ?? 0;
    case "boolValue":
      return v.boolValue ?? false;
    case "stringValue": {
      const s = v.stringValue ?? "";
      return UNKNOWN_SENTINELS.has(s) ? COMPUTED : s;
    }
    case "listValue":
      return (v.listValue?.values ?? []).map((e, i) => inside(i, () => valueToProperty(e, depth + 1)));
    case "structValue":
      return specialOrMap(v.structValue ?? {}, depth);
    default:
      throw new StructDecodeError(`unsupported google.protobuf.Value kind ${String(v.kind)}`);
  }
}

function specialOrMap(s: PbStruct, depth: number): PropertyValue {
  const fields = s.fields ?? {};
  const sigField = Object.prototype.hasOwnProperty.call(fields, SIG_KEY) ? fields[SIG_KEY] : undefined;
  if (sigField === undefined) return structFields(s, depth);
  if (kindOf(sigField) !== "stringValue") throw new StructDecodeError("malformed special value: its signature is not a string");
  const field = (name: string): PbValue | undefined =>
    Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
  const sig = sigField.stringValue;
  switch (sig) {
    case SECRET_SIG: {
      const value = field("value");
      if (value === undefined) throw new StructDecodeError("malformed secret: it has no value");
      return new Secret(inside("value", () => valueToProperty(value, depth + 1)));
    }
    case OUTPUT_VALUE_SIG: {
      const value = field("value");
      const secret = field("secret");
      if (secret !== undefined && kindOf(secret) !== "boolValue") {
        throw new StructDecodeError("malformed output value: secret is not a bool");
      }
      const deps = field("dependencies");
      const dependencies: string[] = [];
      if (deps !== undefined) {
        if (kindOf(deps) !== "listValue") throw new StructDecodeError("malformed output value: dependencies is not a list");
        for (const d of deps.listValue?.values ?? []) {
          if (kindOf(d) !== "stringValue") throw new StructDecodeError("malformed output value: a dependency is not a string");
          dependencies.push(d.stringValue ?? "");
        }
      }
      // An output without a value is unknown; a value that is itself the unknown sentinel is unknown too.
      let decoded = value === undefined ? undefined : inside("value", () => valueToProperty(value, depth + 1));
      if (decoded instanceof Computed) decoded = undefined;
      return new OutputValue(decoded, secret?.boolValue ?? false, dependencies);
    }
    case RESOURCE_REFERENCE_SIG: {
      const urn = field("urn");
      if (urn === undefined || kindOf(urn) !== "stringValue") {
        throw new StructDecodeError("malformed resource reference: urn is missing or not a string");
      }
      const version = field("packageVersion");
      if (version !== undefined && kindOf(version) !== "stringValue") {
        throw new StructDecodeError("malformed resource reference: packageVersion is not a string");
      }
      // name and type are not kept: the engine derives both from the URN when they are absent.
      return new ResourceReference(urn.stringValue ?? "", referenceId(field("id"), depth + 1), version?.stringValue ?? "");
    }
    case ASSET_SIG:
    case ARCHIVE_SIG: {
      const carried: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(fields)) if (k !== SIG_KEY) put(carried, k, inside(k, () => plainJson(e, depth + 1)));
      return new AssetOrArchive(sig === ASSET_SIG ? "asset" : "archive", carried);
    }
    default:
      throw new StructDecodeError(`unrecognized signature ${JSON.stringify(sig)} in a special value`);
  }
}

/** A reference's id: absent for components, "" or an unknown for a resource whose id is not known yet. */
function referenceId(id: PbValue | undefined, depth: number): PropertyValue | undefined {
  if (id === undefined) return undefined;
  const decoded = inside("id", () => valueToProperty(id, depth));
  if (decoded === "" || decoded instanceof Computed) return COMPUTED;
  if (typeof decoded === "string") return decoded;
  if (decoded instanceof OutputValue) {
    if (!decoded.known) return COMPUTED;
    if (typeof decoded.value === "string") return decoded.value;
  }
  throw new StructDecodeError("malformed resource reference: id is not a string");
}

function jsonToValue(v: unknown): google_protobuf.ValueIn {
  if (v === null || v === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(jsonToValue) } };
  const fields: Record<string, google_protobuf.ValueIn> = {};
  for (const [k, e] of Object.entries(v)) put(fields, k, jsonToValue(e));
  return { structValue: { fields } };
}

function special(sig: string, fields: Record<string, google_protobuf.ValueIn>): google_protobuf.ValueIn {
  return { structValue: { fields: { [SIG_KEY]: { stringValue: sig }, ...fields } } };
}

/** Encodes a property map as a Struct; undefined entries (not a property value, but easy to produce) are dropped. */
export function propertyMapToStruct(m: { readonly [k: string]: PropertyValue | undefined }): google_protobuf.StructIn {
  const fields: Record<string, google_protobuf.ValueIn> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined) continue;
    put(fields, k, propertyToValue(v));
  }
  return { fields };
}

/** Encodes one property value as a google.protobuf.Value, special values as signature objects. */
export function propertyToValue(v: PropertyValue | undefined): google_protobuf.ValueIn {
  if (v === null || v === undefined) return { nullValue: "NULL_VALUE" };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(propertyToValue) } };
  if (v instanceof Computed) return { stringValue: UNKNOWN_STRING };
  if (v instanceof Secret) return special(SECRET_SIG, { value: propertyToValue(v.value) });
  if (v instanceof OutputValue) {
    const fields: Record<string, google_protobuf.ValueIn> = {};
    if (v.value !== undefined) fields["value"] = propertyToValue(v.value);
    if (v.secret) fields["secret"] = { boolValue: true };
    if (v.dependencies.length > 0) fields["dependencies"] = { listValue: { values: v.dependencies.map((d) => ({ stringValue: d })) } };
    return special(OUTPUT_VALUE_SIG, fields);
  }
  if (v instanceof ResourceReference) {
    const fields: Record<string, google_protobuf.ValueIn> = { urn: { stringValue: v.urn } };
    // The engine reads an empty id as "not known yet", which is how it writes one itself.
    if (v.id !== undefined) fields["id"] = v.id instanceof Computed ? { stringValue: "" } : propertyToValue(v.id);
    if (v.packageVersion !== "") fields["packageVersion"] = { stringValue: v.packageVersion };
    return special(RESOURCE_REFERENCE_SIG, fields);
  }
  if (v instanceof AssetOrArchive) {
    const fields: Record<string, google_protobuf.ValueIn> = {};
    for (const [k, e] of Object.entries(v.fields)) if (k !== SIG_KEY) put(fields, k, jsonToValue(e));
    return special(v.kind === "asset" ? ASSET_SIG : ARCHIVE_SIG, fields);
  }
  if (isPropertyMap(v)) return { structValue: propertyMapToStruct(v) };
  throw new TypeError(`not a property value: ${Object.prototype.toString.call(v)}`);
}
