// cty values to and from go-cty's JSON encoding (cty/json), the form of raw state and DynamicValue.json; numbers keep their full precision.

import { attrStep, CtyError, indexStep, keyStep, rethrowUnder } from "./errors.js";
import { decodeNumberText, doubleText, NumberSyntaxError } from "./number.js";
import { canonicalSet, commonType, type SetCache } from "./set.js";
import { compareUtf8, goJsonString } from "./strings.js";
import { objectInfo, parseType, typeEquals, typeJsonText, typeString, type CtyObjectType, type CtyType } from "./type.js";
import { JsonReader } from "./json-reader.js";
import { BigNum, Dynamic, impliedType, isRecord, Unknown, type CtyRecord, type CtyValue } from "./value.js";

export { CtyError } from "./errors.js";

// ---------------------------------------------------------------- encoding

/** Encodes a value as go-cty's json.Marshal does; unknown values cannot be encoded and raise CtyError. */
export function encodeJson(value: CtyValue, type: CtyType): string {
  return enc(value, type, new Map());
}

function enc(v: CtyValue | undefined, t: CtyType, cache: SetCache): string {
  if (v === null || v === undefined) return "null";
  if (v instanceof Unknown) throw new CtyError("unknown values cannot be encoded as JSON");
  if (t.kind === "dynamic") return encDynamic(v, cache);
  if (v instanceof Dynamic) {
    if (!typeEquals(v.type, t)) throw mismatch(t, v);
    return enc(v.value, t, cache);
  }
  switch (t.kind) {
    case "string":
      if (typeof v !== "string") throw mismatch(t, v);
      return goJsonString(v);
    case "number":
      if (typeof v === "number") {
        if (!Number.isFinite(v)) throw new CtyError(Number.isNaN(v) ? "NaN is not a cty number" : "infinity cannot be encoded as JSON");
        return doubleText(v);
      }
      if (v instanceof BigNum) return v.text;
      throw mismatch(t, v);
    case "bool":
      if (typeof v !== "boolean") throw mismatch(t, v);
      return v ? "true" : "false";
    case "list":
    case "set":
    case "tuple": {
      if (!Array.isArray(v)) throw mismatch(t, v);
      if (t.kind === "list" && t.element.kind === "dynamic") commonType(v);
      if (t.kind === "tuple" && v.length !== t.elements.length) {
        throw new CtyError(`expected a tuple of ${t.elements.length} elements`, `got ${v.length}`);
      }
      const elems = t.kind === "set" ? canonicalSet(v, t.element, cache) : v;
      let out = "[";
      let i = 0;
      try {
        for (; i < elems.length; i++) {
          if (i > 0) out += ",";
          out += enc(elems[i], t.kind === "tuple" ? t.elements[i]! : t.element, cache);
        }
      } catch (e) {
        rethrowUnder(e, indexStep(i));
      }
      return out + "]";
    }
    case "map": {
      if (!isRecord(v)) throw mismatch(t, v);
      if (t.element.kind === "dynamic") commonType(Object.values(v));
      const keys = Object.keys(v).sort(compareUtf8);
      let out = "{";
      let k = "";
      try {
        for (let i = 0; i < keys.length; i++) {
          k = keys[i]!;
          if (i > 0) out += ",";
          out += goJsonString(k) + ":" + enc(v[k], t.element, cache);
        }
      } catch (e) {
        rethrowUnder(e, keyStep(k));
      }
      return out + "}";
    }
    case "object":
      if (!isRecord(v)) throw mismatch(t, v);
      return encObject(v, t, cache);
  }
}

interface JsonObjectPlan {
  names: string[];
  /** `"name":` for each attribute, escaped as Go escapes it. */
  keys: string[];
  inherited: boolean[];
}

const plans = new WeakMap<object, JsonObjectPlan>();

function encObject(v: CtyRecord, t: CtyObjectType, cache: SetCache): string {
  let plan = plans.get(t);
  if (plan === undefined) {
    const names = objectInfo(t).names;
    plan = { names, keys: names.map((n, i) => (i > 0 ? "," : "") + goJsonString(n) + ":"), inherited: names.map((n) => n in Object.prototype) };
    plans.set(t, plan);
  }
  const types = objectInfo(t).types;
  for (const k in v) {
    if (!types.has(k) && v[k] !== undefined) throw new CtyError(`unsupported attribute ${JSON.stringify(k)}`);
  }
  let out = "{";
  let i = 0;
  try {
    for (; i < plan.names.length; i++) {
      const name = plan.names[i]!;
      const x = plan.inherited[i] && !Object.hasOwn(v, name) ? undefined : v[name];
      out += plan.keys[i]! + enc(x, t.attributes[name]!, cache);
    }
  } catch (e) {
    rethrowUnder(e, attrStep(plan.names[i]!));
  }
  return out + "}";
}

/** `{"value":...,"type":...}`, go-cty's wrapper for a value in a dynamic slot. */
function encDynamic(v: Exclude<CtyValue, null>, cache: SetCache): string {
  let t: CtyType;
  let inner: CtyValue;
  if (v instanceof Dynamic) {
    if (v.type.kind === "dynamic") return enc(v.value, v.type, cache);
    t = v.type;
    inner = v.value;
  } else {
    t = impliedType(v);
    inner = v;
  }
  if (inner instanceof Unknown) throw new CtyError("unknown values cannot be encoded as JSON");
  return `{"value":${enc(inner, t, cache)},"type":${typeJsonText(t)}}`;
}

function mismatch(t: CtyType, v: CtyValue): CtyError {
  let got: string;
  if (Array.isArray(v)) got = "an array";
  else if (v instanceof BigNum) got = "number";
  else if (v instanceof Dynamic) got = `a value of type ${typeString(v.type)}`;
  else if (typeof v === "object" && v !== null) got = isRecord(v) ? "an object" : "an instance of a class";
  else got = typeof v === "boolean" ? "bool" : typeof v;
  return new CtyError(`expected ${typeString(t)}`, `got ${got}`);
}

// ---------------------------------------------------------------- decoding

const utf8Decoder = new TextDecoder();

/**
 * Decodes go-cty JSON for a value of the given type, with go-cty's leniencies
 * (numbers and bools given as strings, strings given as numbers or bools, missing
 * object attributes as null). Numbers a JS number cannot hold exactly come back as BigNum.
 */
export function decodeJson(text: string | Uint8Array, type: CtyType): CtyValue {
  const r = new JsonReader(typeof text === "string" ? text : utf8Decoder.decode(text));
  let v: CtyValue;
  try {
    v = dec(r, type, new Map());
  } catch (e) {
    if (e instanceof CtyError) throw e;
    if (e instanceof RangeError) throw new CtyError("malformed JSON: nested too deeply");
    throw e;
  }
  if (!Number.isNaN(r.ws())) throw new CtyError(`malformed JSON: unexpected data after the value at offset ${r.pos}`);
  return v;
}

function dec(r: JsonReader, t: CtyType, cache: SetCache): CtyValue {
  const c = r.ws();
  if (c === 0x6e) {
    r.literal("null");
    return null;
  }
  switch (t.kind) {
    case "dynamic":
      return decDynamic(r, cache);
    case "string":
      if (c === 0x22) return r.str();
      // go-cty takes a JSON number's text, or a bool's, as a string.
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return r.numberToken();
      if (c === 0x74 || c === 0x66) {
        r.literal(c === 0x74 ? "true" : "false");
        return c === 0x74 ? "true" : "false";
      }
      throw r.mismatch("string");
    case "number": {
      let text: string;
      if (c === 0x22) text = r.str();
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) text = r.numberToken();
      else throw r.mismatch("number");
      try {
        const n = decodeNumberText(text);
        return typeof n === "number" ? n : new BigNum(n.canonical);
      } catch (e) {
        if (e instanceof NumberSyntaxError) throw new CtyError("expected number", e.message);
        throw e;
      }
    }
    case "bool": {
      if (c === 0x74 || c === 0x66) {
        r.literal(c === 0x74 ? "true" : "false");
        return c === 0x74;
      }
      if (c === 0x22) {
        const s = r.str();
        if (s === "true" || s === "1") return true;
        if (s === "false" || s === "0") return false;
        throw new CtyError("expected bool", `got the string ${JSON.stringify(s)}`);
      }
      throw r.mismatch("bool");
    }
    case "list":
    case "set": {
      const out: CtyValue[] = [];
      if (r.open(0x5b, t.kind)) {
        let i = 0;
        try {
          for (;;) {
            out.push(dec(r, t.element, cache));
            if (!r.next(0x5d, t.kind)) break;
            i++;
          }
        } catch (e) {
          rethrowUnder(e, indexStep(i));
        }
      }
      if (t.kind === "set") return canonicalSet(out, t.element, cache);
      if (t.element.kind === "dynamic") commonType(out);
      return out;
    }
    case "tuple": {
      const out: CtyValue[] = [];
      r.array("tuple", (i) => {
        const et = t.elements[i];
        if (et === undefined) throw new CtyError(`expected a tuple of ${t.elements.length} elements`, "got more");
        try {
          out.push(dec(r, et, cache));
        } catch (e) {
          rethrowUnder(e, indexStep(i));
        }
      });
      if (out.length !== t.elements.length) throw new CtyError(`expected a tuple of ${t.elements.length} elements`, `got ${out.length}`);
      return out;
    }
    case "map": {
      const out = Object.create(null) as CtyRecord;
      if (r.open(0x7b, "map")) {
        do {
          const k = r.key("map");
          try {
            out[k] = dec(r, t.element, cache);
          } catch (e) {
            rethrowUnder(e, keyStep(k));
          }
        } while (r.next(0x7d, "map"));
      }
      if (t.element.kind === "dynamic") commonType(Object.values(out));
      return out;
    }
    case "object":
      return decObject(r, t, cache);
  }
}

function decObject(r: JsonReader, t: CtyObjectType, cache: SetCache): CtyValue {
  const info = objectInfo(t);
  // Values go into slots first so the (slow, dictionary-mode) null-prototype
  // object gets each attribute once; a missing attribute is null, and a repeated one the last.
  const vals = new Array<CtyValue>(info.names.length).fill(null);
  if (r.open(0x7b, "object")) {
    do {
      const k = r.key("object");
      const i = info.index.get(k);
      if (i === undefined) throw new CtyError(`unsupported attribute ${JSON.stringify(k)}`);
      try {
        vals[i] = dec(r, info.typeList[i]!, cache);
      } catch (e) {
        rethrowUnder(e, attrStep(k));
      }
    } while (r.next(0x7d, "object"));
  }
  const out = Object.create(null) as CtyRecord;
  for (let i = 0; i < vals.length; i++) out[info.names[i]!] = vals[i]!;
  return out;
}

function decDynamic(r: JsonReader, cache: SetCache): CtyValue {
  let t: CtyType | undefined;
  let valueAt = -1;
  r.object("dynamic value ({\"value\":...,\"type\":...})", (k) => {
    if (k === "type") {
      const start = r.pos;
      r.skip();
      let json: unknown;
      try {
        json = JSON.parse(r.s.slice(start, r.pos));
      } catch {
        throw new CtyError("invalid type in dynamic value");
      }
      t = parseType(json);
    } else if (k === "value") {
      valueAt = r.pos;
      r.skip();
    } else {
      throw new CtyError(`invalid key ${JSON.stringify(k)} in dynamic value`);
    }
  });
  if (t === undefined) throw new CtyError("missing type in dynamic value");
  if (valueAt < 0) throw new CtyError("missing value in dynamic value");
  const end = r.pos;
  r.pos = valueAt;
  const v = dec(r, t, cache);
  r.pos = end;
  return t.kind === "dynamic" ? v : new Dynamic(t, v);
}
