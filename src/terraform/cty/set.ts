// Set semantics as go-cty has them: equal elements collapse, and elements are ordered the way go-cty iterates (and so encodes) them.

import { CtyError } from "./errors.js";
import { compareNumbers, gText10Decimal, gText10Double } from "./number.js";
import { compareUtf8, goQuote, sortUtf8 } from "./strings.js";
import { objectInfo, typeEquals, typeString, type CtyType } from "./type.js";
import { BigNum, Dynamic, impliedType, numberKey, Unknown, wholeContainsUnknown, type CtyRecord, type CtyValue } from "./value.js";

/*
 * go-cty iterates a set by sorting its hash buckets and then stable-sorting the
 * elements: known values first (strings by bytes, numbers by value, false before
 * true, anything else by the bytes of its set hash), then unknowns, then the null.
 * Elements that compare equal under that order always share a hash bucket, so
 * ties keep insertion order, which a stable sort here reproduces.
 */

/** Memo of sets already put in order, shared across one encode or decode so nested sets are sorted once. */
export type SetCache = Map<readonly CtyValue[], CtyValue[]>;

interface Entry {
  value: CtyValue;
  /** 0 known, 1 unknown, 2 null */
  rank: number;
  key: string | number | boolean | BigNum;
  index: number;
}

/**
 * The elements of a set value in go-cty's order, with equal known elements
 * collapsed to the first. Returns the input array itself when nothing changes.
 */
export function canonicalSet(elems: readonly CtyValue[], ety: CtyType, cache?: SetCache): CtyValue[] {
  // Sets of primitives are cheap to check and never hashed, so only nested sets are memoized.
  if (ety.kind === "string") {
    if (stringsAscending(elems)) return elems as CtyValue[];
    return orderSet(elems, ety, undefined);
  }
  if (ety.kind === "number" || ety.kind === "bool") return orderSet(elems, ety, undefined);
  const hit = cache?.get(elems);
  if (hit !== undefined) return hit;
  const out = orderSet(elems, ety, cache);
  cache?.set(elems, out);
  return out;
}

/** The common case on decode: strings already in go-cty's order with no duplicates. */
function stringsAscending(elems: readonly CtyValue[]): boolean {
  let prev = elems[0];
  if (typeof prev !== "string") return elems.length === 0;
  for (let i = 1; i < elems.length; i++) {
    const cur = elems[i];
    if (typeof cur !== "string" || compareUtf8(prev, cur) >= 0) return false;
    prev = cur;
  }
  return true;
}

function orderSet(elems: readonly CtyValue[], ety: CtyType, cache: SetCache | undefined): CtyValue[] {
  if (elems.length === 0) return elems as CtyValue[];
  if (ety.kind === "number" && numbersAscending(elems)) return elems as CtyValue[];
  let t = ety;
  let unwrap = false;
  if (ety.kind === "dynamic") {
    t = commonType(elems);
    unwrap = true;
  }
  if (elems.length === 1) return elems as CtyValue[];
  const entries: Entry[] = new Array<Entry>(elems.length);
  let sorted = true;
  let prev: Entry | undefined;
  for (let i = 0; i < elems.length; i++) {
    let v = elems[i];
    if (v === undefined) v = null;
    let inner = v;
    if (inner instanceof Dynamic && (unwrap || typeEquals(inner.type, t))) inner = inner.value;
    const rank = inner === null ? 2 : inner instanceof Unknown ? 1 : 0;
    const e: Entry = { value: v, rank, key: rank === 0 ? sortKey(inner, t, cache) : 0, index: i };
    entries[i] = e;
    if (prev !== undefined && sorted) {
      // Unknowns tie with each other and stay put; any other tie may be a duplicate.
      const c = compareEntries(prev, e, t);
      if (c > 0 || (c === 0 && e.rank !== 1)) sorted = false;
    }
    prev = e;
  }
  if (sorted) return elems as CtyValue[];
  entries.sort((a, b) => compareEntries(a, b, t) || a.index - b.index);
  const out: CtyValue[] = [];
  let last: Entry | undefined;
  for (const e of entries) {
    if (last !== undefined && e.rank === last.rank && e.rank !== 1 && compareEntries(last, e, t) === 0) {
      // Equal known values, or a second null: go-cty's set holds it once.
      if (e.rank === 2 || isSameKnownValue(last.value, e.value, t)) continue;
    }
    out.push(e.value);
    last = e;
  }
  return out;
}

function numbersAscending(elems: readonly CtyValue[]): boolean {
  let prev = elems[0];
  if (typeof prev !== "number") return false;
  for (let i = 1; i < elems.length; i++) {
    const cur = elems[i];
    if (typeof cur !== "number" || !(prev < cur)) return false;
    prev = cur;
  }
  return true;
}

function isSameKnownValue(a: CtyValue, b: CtyValue, t: CtyType): boolean {
  if (t.kind === "string" || t.kind === "number" || t.kind === "bool") return true; // keys compared equal
  // Only wholly-known values can be equal; an unknown anywhere makes go-cty's Equals unknown.
  if (wholeContainsUnknown(a) || wholeContainsUnknown(b)) return false;
  return knownEquals(a, b, t);
}

/** Equality of wholly-known values of type t, treating a missing attribute as null. */
function knownEquals(a: CtyValue | undefined, b: CtyValue | undefined, t: CtyType): boolean {
  if (a instanceof Dynamic) {
    if (t.kind !== "dynamic" && !typeEquals(a.type, t)) return false;
    if (b instanceof Dynamic) return typeEquals(a.type, b.type) && knownEquals(a.value, b.value, a.type);
    return knownEquals(a.value, b, a.type);
  }
  if (b instanceof Dynamic) return knownEquals(b, a, t);
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (t.kind === "dynamic") return knownEquals(a, b, impliedType(a));
  switch (t.kind) {
    case "string":
    case "bool":
      return a === b;
    case "number":
      return (typeof a === "number" || a instanceof BigNum) && (typeof b === "number" || b instanceof BigNum) && compareNumbers(numberKey(a), numberKey(b)) === 0;
    case "list":
    case "tuple":
    case "set": {
      if (!Array.isArray(a) || !Array.isArray(b)) return false;
      const x = t.kind === "set" ? canonicalSet(a, t.element) : a;
      const y = t.kind === "set" ? canonicalSet(b, t.element) : b;
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) {
        const et = t.kind === "tuple" ? t.elements[i] : t.element;
        if (et === undefined || !knownEquals(x[i], y[i], et)) return false;
      }
      return true;
    }
    case "map": {
      const ra = a as CtyRecord;
      const rb = b as CtyRecord;
      const ka = Object.keys(ra);
      if (ka.length !== Object.keys(rb).length) return false;
      return ka.every((k) => Object.hasOwn(rb, k) && knownEquals(ra[k], rb[k], t.element));
    }
    case "object": {
      const ra = a as CtyRecord;
      const rb = b as CtyRecord;
      return objectInfo(t).names.every((n) => knownEquals(ownValue(ra, n), ownValue(rb, n), t.attributes[n]!));
    }
  }
}

function ownValue(r: CtyRecord, name: string): CtyValue | undefined {
  return Object.hasOwn(r, name) ? r[name] : undefined;
}

/**
 * The single concrete type shared by the known, non-null elements of a collection
 * of dynamic elements; go-cty cannot build a list, set or map whose elements differ
 * in type (it panics), so a mix is refused here.
 */
export function commonType(elems: readonly CtyValue[]): CtyType {
  let found: CtyType | undefined;
  for (const v of elems) {
    if (v === null || v instanceof Unknown) continue;
    const t = v instanceof Dynamic ? v.type : impliedType(v);
    if (found === undefined) found = t;
    else if (!typeEquals(found, t)) {
      throw new CtyError("elements of a collection must all have the same type", `got ${typeString(found)} and ${typeString(t)}`);
    }
  }
  return found ?? { kind: "dynamic" };
}

function sortKey(v: CtyValue, t: CtyType, cache: SetCache | undefined): string | number | boolean | BigNum {
  switch (t.kind) {
    case "string":
      return typeof v === "string" ? v : String(v);
    case "number":
      return typeof v === "number" || v instanceof BigNum ? v : 0;
    case "bool":
      return v === true;
    default: {
      const parts: string[] = [];
      hashInto(v, t, parts, cache);
      return parts.join("");
    }
  }
}

function compareEntries(a: Entry, b: Entry, t: CtyType): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank !== 0) return 0;
  switch (t.kind) {
    case "number":
      return compareNumbers(numberKey(a.key as number | BigNum), numberKey(b.key as number | BigNum));
    case "bool":
      return a.key === b.key ? 0 : a.key === false ? -1 : 1;
    default:
      return compareUtf8(a.key as string, b.key as string);
  }
}

/**
 * Appends go-cty's set hash text for v (what its appendSetHashBytes writes). A
 * value of the wrong shape hashes to a marker; the encoder rejects it afterwards.
 */
function hashInto(v: CtyValue | undefined, t: CtyType, out: string[], cache: SetCache | undefined): void {
  if (v === undefined || v === null) {
    out.push("~");
    return;
  }
  if (v instanceof Unknown) {
    out.push("?");
    return;
  }
  if (v instanceof Dynamic) {
    hashInto(v.value, v.type, out, cache);
    return;
  }
  if (t.kind === "dynamic") t = impliedType(v);
  switch (t.kind) {
    case "string":
      out.push(typeof v === "string" ? goQuote(v) : "!");
      return;
    case "bool":
      out.push(v === true ? "T" : "F");
      return;
    case "number":
      out.push(typeof v === "number" ? gText10Double(v) : v instanceof BigNum ? gText10Decimal(v.text) : "!");
      return;
    case "list":
    case "set": {
      if (!Array.isArray(v)) break;
      const elems = t.kind === "set" ? canonicalSet(v, t.element, cache) : v;
      out.push("[");
      for (const e of elems) {
        hashInto(e, t.element, out, cache);
        out.push(";");
      }
      out.push("]");
      return;
    }
    case "tuple": {
      if (!Array.isArray(v)) break;
      out.push("<");
      t.elements.forEach((et, i) => {
        hashInto(v[i], et, out, cache);
        out.push(";");
      });
      out.push(">");
      return;
    }
    case "map": {
      if (typeof v !== "object" || Array.isArray(v) || v instanceof BigNum) break;
      const r = v as CtyRecord;
      out.push("{");
      for (const k of sortUtf8(Object.keys(r))) {
        out.push(goQuote(k), ":");
        hashInto(r[k], t.element, out, cache);
        out.push(";");
      }
      out.push("}");
      return;
    }
    case "object": {
      if (typeof v !== "object" || Array.isArray(v) || v instanceof BigNum) break;
      const r = v as CtyRecord;
      out.push("<");
      for (const n of objectInfo(t).names) {
        hashInto(ownValue(r, n), t.attributes[n]!, out, cache);
        out.push(";");
      }
      out.push(">");
      return;
    }
  }
  out.push("!");
}
