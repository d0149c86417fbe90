// Shared helpers for the cty codec tests: strict value comparison and the Go vector file's value descriptions.

import { readFileSync } from "node:fs";
import { BigNum, Dynamic, parseType, Unknown, UNKNOWN, type CtyValue, type Refinement } from "../../src/terraform/cty/index.js";

/**
 * Representation equality stricter than rawEquals: a JS number and a BigNum are
 * different even when equal in value, and -0 differs from 0. Returns a
 * description of the first difference, or undefined.
 */
export function diff(a: CtyValue | undefined, b: CtyValue | undefined, path = "$"): string | undefined {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === "number" || typeof b === "number") {
    return typeof a === "number" && typeof b === "number" && (Object.is(a, b) || (a === b && a !== 0)) ? undefined : `${path}: ${show(a)} != ${show(b)}`;
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b ? undefined : `${path}: ${show(a)} != ${show(b)}`;
  if (a instanceof BigNum || b instanceof BigNum) {
    return a instanceof BigNum && b instanceof BigNum && a.text === b.text ? undefined : `${path}: ${show(a)} != ${show(b)}`;
  }
  if (a instanceof Unknown || b instanceof Unknown) {
    if (!(a instanceof Unknown && b instanceof Unknown)) return `${path}: ${show(a)} != ${show(b)}`;
    return JSON.stringify(normRef(a.refinement)) === JSON.stringify(normRef(b.refinement)) ? undefined : `${path}: refinement ${JSON.stringify(normRef(a.refinement))} != ${JSON.stringify(normRef(b.refinement))}`;
  }
  if (a instanceof Dynamic || b instanceof Dynamic) {
    if (!(a instanceof Dynamic && b instanceof Dynamic)) return `${path}: ${show(a)} != ${show(b)}`;
    if (JSON.stringify(a.type) !== JSON.stringify(b.type)) return `${path}: dynamic type ${JSON.stringify(a.type)} != ${JSON.stringify(b.type)}`;
    return diff(a.value, b.value, `${path}.value`);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: ${show(a)} != ${show(b)}`;
    if (a.length !== b.length) return `${path}: length ${a.length} != ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const ra = a as Record<string, CtyValue>;
  const rb = b as Record<string, CtyValue>;
  const ka = Object.keys(ra).sort();
  const kb = Object.keys(rb).sort();
  if (JSON.stringify(ka) !== JSON.stringify(kb)) return `${path}: keys ${JSON.stringify(ka)} != ${JSON.stringify(kb)}`;
  for (const k of ka) {
    const d = diff(ra[k], rb[k], `${path}.${k}`);
    if (d !== undefined) return d;
  }
  return undefined;
}

function normRef(r: Refinement | undefined): unknown {
  if (r === undefined) return {};
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r).sort()) {
    const v = (r as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (typeof v === "object" && v !== null && "value" in v) {
      const b = v as { value: CtyValue; inclusive: boolean };
      out[k] = { value: show(b.value), inclusive: b.inclusive };
    } else out[k] = v;
  }
  return out;
}

export function show(v: CtyValue | undefined): string {
  if (v === undefined) return "undefined";
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : `number ${v}`;
  if (v instanceof BigNum) return `BigNum(${v.text})`;
  if (v instanceof Unknown) return `Unknown(${JSON.stringify(v.refinement ?? {})})`;
  if (v instanceof Dynamic) return `Dynamic(${JSON.stringify(v.type)}, ${show(v.value)})`;
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof BigNum ? `BigNum(${x.text})` : x instanceof Unknown ? "Unknown" : x));
}

type Desc = null | boolean | string | Desc[] | { $: string; [k: string]: unknown };

/** The CtyValue a description from the Go vector generator stands for. */
export function fromDesc(d: unknown): CtyValue {
  const x = d as Desc;
  if (x === null || typeof x === "boolean" || typeof x === "string") return x;
  if (Array.isArray(x)) return x.map(fromDesc);
  switch (x.$) {
    case "num": {
      const text = x.v as string;
      if (x.js === "number") return text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : Number(text);
      return new BigNum(text);
    }
    case "unknown": {
      const r = x.refinement as Record<string, unknown> | undefined;
      if (r === undefined) return UNKNOWN;
      const ref: Refinement = {};
      if (r.notNull === true) ref.notNull = true;
      if (typeof r.stringPrefix === "string") ref.stringPrefix = r.stringPrefix;
      for (const k of ["numberLower", "numberUpper"] as const) {
        const b = r[k] as { value: unknown; inclusive: boolean } | undefined;
        if (b !== undefined) ref[k] = { value: fromDesc(b.value) as number | BigNum, inclusive: b.inclusive };
      }
      if (typeof r.lengthLower === "number") ref.lengthLower = r.lengthLower;
      if (typeof r.lengthUpper === "number") ref.lengthUpper = r.lengthUpper;
      return new Unknown(ref);
    }
    case "dyn":
      return new Dynamic(parseType(x.type), fromDesc(x.value));
    case "map":
    case "obj": {
      const out = Object.create(null) as Record<string, CtyValue>;
      for (const [k, v] of Object.entries(x.v as Record<string, unknown>)) out[k] = fromDesc(v);
      return out;
    }
  }
  throw new Error(`bad description ${JSON.stringify(d)}`);
}

export interface DecodeCase {
  name: string;
  type: unknown;
  input: string;
  value: unknown;
  error?: string;
  reencoded?: string;
}

export interface VectorFile {
  goCty: string;
  go: string;
  cases: { name: string; type: unknown; value: unknown; msgpack: string; json?: string; jsonError?: string; jsonDecoded?: unknown }[];
  msgpackDecode: DecodeCase[];
  jsonDecode: DecodeCase[];
}

export function loadVectors(): VectorFile {
  return JSON.parse(readFileSync(new URL("../vectors/cty/vectors.json", import.meta.url), "utf8")) as VectorFile;
}

export function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

export function unhex(h: string): Uint8Array {
  return new Uint8Array(Buffer.from(h, "hex"));
}
