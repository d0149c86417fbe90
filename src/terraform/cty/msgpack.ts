// cty values to and from msgpack, byte for byte as go-cty's cty/msgpack package writes and reads them (the form Terraform's plugin protocol uses).

import { attrStep, CtyError, indexStep, keyStep, rethrowUnder } from "./errors.js";
import { canonicalSet, commonType, type SetCache } from "./set.js";
import { compareUtf8 } from "./strings.js";
import { objectInfo, parseTypeBytes, typeEquals, typeJsonText, typeString, type CtyObjectType, type CtyType } from "./type.js";
import { decodeUnknown, encodeUnknown } from "./unknown.js";
import { BigNum, Dynamic, impliedType, isRecord, Unknown, type CtyRecord, type CtyValue } from "./value.js";
import { kindMismatch, readArrayHeader, readMapHeader, readNumber, readString, Reader, writeCtyNumber, Writer } from "./wire.js";

const utf8 = new TextEncoder();

// ---------------------------------------------------------------- writing

/** A scratch writer reused across calls so small encodes do not allocate a buffer each time. */
let scratch: Writer | undefined;

/** Encodes a value of the given type as go-cty's msgpack.Marshal does. */
export function encodeMsgpack(value: CtyValue, type: CtyType): Uint8Array {
  const w = scratch ?? new Writer(4096);
  scratch = undefined; // a nested call (none today) gets its own writer
  w.pos = 0;
  try {
    encodeValue(w, value, type, new Map());
    return w.result();
  } finally {
    if (w.buf.length <= 1 << 20) scratch = w;
  }
}

function encodeValue(w: Writer, v: CtyValue | undefined, t: CtyType, cache: SetCache): void {
  if (v === null || v === undefined) return w.nil();
  if (typeof v === "object" && !Array.isArray(v)) {
    if (v instanceof Unknown) return encodeUnknown(w, v, t);
    if (t.kind === "dynamic") return encodeDynamic(w, v, cache);
    if (v instanceof Dynamic) {
      if (!typeEquals(v.type, t)) throw mismatch(t, v);
      return encodeValue(w, v.value, t, cache);
    }
  } else if (t.kind === "dynamic") return encodeDynamic(w, v, cache);
  switch (t.kind) {
    case "string":
      if (typeof v !== "string") throw mismatch(t, v);
      return w.str(v);
    case "number":
      if (typeof v === "number" || v instanceof BigNum) return writeCtyNumber(w, v);
      throw mismatch(t, v);
    case "bool":
      if (typeof v !== "boolean") throw mismatch(t, v);
      return w.byte(v ? 0xc3 : 0xc2);
    case "list":
    case "set": {
      if (!Array.isArray(v)) throw mismatch(t, v);
      if (t.kind === "list" && t.element.kind === "dynamic") commonType(v);
      const elems = t.kind === "set" ? canonicalSet(v, t.element, cache) : v;
      w.arrayHeader(elems.length);
      let i = 0;
      try {
        for (; i < elems.length; i++) encodeValue(w, elems[i], t.element, cache);
      } catch (e) {
        rethrowUnder(e, indexStep(i));
      }
      return;
    }
    case "tuple": {
      if (!Array.isArray(v)) throw mismatch(t, v);
      if (v.length !== t.elements.length) throw new CtyError(`expected a tuple of ${t.elements.length} elements`, `got ${v.length}`);
      w.arrayHeader(v.length);
      let i = 0;
      try {
        for (; i < v.length; i++) encodeValue(w, v[i], t.elements[i]!, cache);
      } catch (e) {
        rethrowUnder(e, indexStep(i));
      }
      return;
    }
    case "map": {
      if (!isRecord(v)) throw mismatch(t, v);
      if (t.element.kind === "dynamic") commonType(Object.values(v));
      const keys = Object.keys(v).sort(compareUtf8);
      w.mapHeader(keys.length);
      let k = "";
      try {
        for (k of keys) {
          w.str(k);
          encodeValue(w, v[k], t.element, cache);
        }
      } catch (e) {
        rethrowUnder(e, keyStep(k));
      }
      return;
    }
    case "object":
      if (!isRecord(v)) throw mismatch(t, v);
      return encodeObject(w, v, t, cache);
  }
}

interface ObjectPlan {
  names: string[];
  types: CtyType[];
  /** Each attribute name already encoded as a msgpack str. */
  keys: Uint8Array[];
  /** Names that a plain object inherits from Object.prototype, which need an own-property check. */
  inherited: boolean[];
  lookup: Map<string, CtyType>;
}

const objectPlans = new WeakMap<object, ObjectPlan>();

function objectPlan(t: CtyObjectType): ObjectPlan {
  let plan = objectPlans.get(t);
  if (plan === undefined) {
    const info = objectInfo(t);
    const keyWriter = new Writer(64);
    const keys = info.names.map((n) => {
      keyWriter.pos = 0;
      keyWriter.str(n);
      return keyWriter.result();
    });
    plan = {
      names: info.names,
      types: info.names.map((n) => info.types.get(n)!),
      keys,
      inherited: info.names.map((n) => n in Object.prototype),
      lookup: info.types,
    };
    objectPlans.set(t, plan);
  }
  return plan;
}

function encodeObject(w: Writer, v: CtyRecord, t: CtyObjectType, cache: SetCache): void {
  const plan = objectPlan(t);
  for (const k in v) {
    if (!plan.lookup.has(k) && v[k] !== undefined) {
      throw new CtyError(`unsupported attribute ${JSON.stringify(k)}`, `the object type has ${describeAttrs(plan.names)}`);
    }
  }
  const n = plan.names.length;
  w.mapHeader(n);
  let i = 0;
  try {
    for (; i < n; i++) {
      w.raw(plan.keys[i]!);
      const name = plan.names[i]!;
      const x = plan.inherited[i] && !Object.hasOwn(v, name) ? undefined : v[name];
      encodeValue(w, x, plan.types[i]!, cache);
    }
  } catch (e) {
    rethrowUnder(e, attrStep(plan.names[i]!));
  }
}

function describeAttrs(names: string[]): string {
  if (names.length === 0) return "no attributes";
  const shown = names.slice(0, 8).join(", ");
  return `attributes ${shown}${names.length > 8 ? ", ..." : ""}`;
}

/** A value in a dynamic slot: [type JSON as bin, value], except null and unknown, which go-cty writes bare. */
function encodeDynamic(w: Writer, v: Exclude<CtyValue, null>, cache: SetCache): void {
  if (v instanceof Unknown) return encodeUnknown(w, v, { kind: "dynamic" });
  let t: CtyType;
  let inner: CtyValue;
  if (v instanceof Dynamic) {
    if (v.type.kind === "dynamic") return encodeValue(w, v.value, v.type, cache);
    t = v.type;
    inner = v.value;
  } else {
    t = impliedType(v);
    inner = v;
  }
  w.arrayHeader(2);
  w.bin(typeJsonBytes(t));
  encodeValue(w, inner, t, cache);
}

const typeJsonBytesCache = new WeakMap<object, Uint8Array>();

function typeJsonBytes(t: CtyType): Uint8Array {
  let b = typeJsonBytesCache.get(t);
  if (b === undefined) {
    b = utf8.encode(typeJsonText(t));
    typeJsonBytesCache.set(t, b);
  }
  return b;
}

function mismatch(t: CtyType, v: CtyValue): CtyError {
  return new CtyError(`expected ${typeString(t)}`, `got ${describeJs(v)}`);
}

function describeJs(v: CtyValue | undefined): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "an array";
  if (v instanceof BigNum) return "number";
  if (v instanceof Dynamic) return `a value of type ${typeString(v.type)}`;
  if (v instanceof Unknown) return "an unknown";
  switch (typeof v) {
    case "boolean": return "bool";
    // An object without a prototype has no constructor, whatever its type says.
    case "object": return isRecord(v) ? "an object" : `an instance of ${(Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? "a class"}`;
    default: return typeof v;
  }
}

// ---------------------------------------------------------------- reading

/** Decodes go-cty msgpack for a value of the given type; the whole input must be that one value. */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): CtyValue {
  const r = new Reader(bytes);
  let v: CtyValue;
  try {
    v = decodeValue(r, type, new Map());
  } catch (e) {
    if (e instanceof CtyError) throw e;
    if (e instanceof RangeError) throw new CtyError("malformed msgpack: value is nested too deeply");
    throw e;
  }
  if (r.pos !== bytes.length) {
    const extra = bytes.length - r.pos;
    throw new CtyError(`malformed msgpack: ${extra} unexpected byte${extra === 1 ? "" : "s"} after the value (at offset ${r.pos})`);
  }
  return v;
}

function isExtCode(c: number): boolean {
  return (c >= 0xd4 && c <= 0xd8) || (c >= 0xc7 && c <= 0xc9);
}

function decodeValue(r: Reader, t: CtyType, cache: SetCache): CtyValue {
  const c = r.peek();
  // go-cty reads any extension as an unknown, before looking at the type.
  if (isExtCode(c)) return decodeUnknown(r, t);
  if (t.kind === "dynamic") return decodeDynamic(r, cache);
  if (c === 0xc0) {
    r.pos++;
    return null;
  }
  switch (t.kind) {
    case "string":
      return readString(r, "string");
    case "number":
      return readNumber(r);
    case "bool":
      if (c === 0xc2 || c === 0xc3) {
        r.pos++;
        return c === 0xc3;
      }
      throw kindMismatch("bool", c);
    case "list":
    case "set": {
      const n = readArrayHeader(r, t.kind);
      const out = new Array<CtyValue>(n);
      let i = 0;
      try {
        for (; i < n; i++) out[i] = decodeValue(r, t.element, cache);
      } catch (e) {
        rethrowUnder(e, indexStep(i));
      }
      if (t.kind === "set") return canonicalSet(out, t.element, cache);
      if (t.element.kind === "dynamic") commonType(out);
      return out;
    }
    case "tuple": {
      const n = readArrayHeader(r, "tuple");
      if (n !== t.elements.length) throw new CtyError(`expected a tuple of ${t.elements.length} elements`, `got ${n}`);
      const out = new Array<CtyValue>(n);
      let i = 0;
      try {
        for (; i < n; i++) out[i] = decodeValue(r, t.elements[i]!, cache);
      } catch (e) {
        rethrowUnder(e, indexStep(i));
      }
      return out;
    }
    case "map": {
      const n = readMapHeader(r, "map");
      const out = Object.create(null) as CtyRecord;
      let key: string | undefined;
      try {
        for (let i = 0; i < n; i++) {
          key = undefined;
          key = readString(r, "string map key");
          out[key] = decodeValue(r, t.element, cache);
        }
      } catch (e) {
        rethrowUnder(e, key === undefined ? undefined : keyStep(key));
      }
      if (t.element.kind === "dynamic") commonType(Object.values(out));
      return out;
    }
    case "object":
      return decodeObject(r, t, cache);
  }
}

function decodeObject(r: Reader, t: CtyObjectType, cache: SetCache): CtyValue {
  const plan = objectPlan(t);
  const n = readMapHeader(r, "object");
  if (n !== plan.names.length) {
    throw new CtyError(`expected an object with ${plan.names.length} attribute${plan.names.length === 1 ? "" : "s"}`, `got ${n}`);
  }
  // Slots first, so the (dictionary-mode) null-prototype object is written once per attribute.
  const vals = new Array<CtyValue | undefined>(n);
  const index = objectInfo(t).index;
  let key: string | undefined;
  try {
    for (let i = 0; i < n; i++) {
      key = undefined;
      key = readString(r, "attribute name");
      const at = index.get(key);
      if (at === undefined) throw new CtyError("unsupported attribute", `the object type has ${describeAttrs(plan.names)}`);
      if (vals[at] !== undefined) throw new CtyError("duplicate attribute");
      vals[at] = decodeValue(r, plan.types[at]!, cache);
    }
  } catch (e) {
    rethrowUnder(e, key === undefined ? undefined : attrStep(key));
  }
  const out = Object.create(null) as CtyRecord;
  for (let i = 0; i < n; i++) out[plan.names[i]!] = vals[i]!;
  return out;
}

const typeCache = new Map<string, CtyType>();

function decodeDynamic(r: Reader, cache: SetCache): CtyValue {
  const c = r.peek();
  if (c === 0xc0) {
    r.pos++;
    return null;
  }
  const n = readArrayHeader(r, "dynamic value ([type, value])");
  if (n !== 2) throw new CtyError("a dynamic value must be a [type, value] array", `got ${n} elements`);
  const typeText = readString(r, "type description of a dynamic value");
  let t = typeCache.get(typeText);
  if (t === undefined) {
    t = parseTypeBytes(typeText);
    if (typeCache.size > 1000) typeCache.clear();
    typeCache.set(typeText, t);
  }
  const v = decodeValue(r, t, cache);
  // A dynamic value of dynamic type is just the inner (null, unknown or wrapped) value.
  return t.kind === "dynamic" ? v : new Dynamic(t, v);
}
