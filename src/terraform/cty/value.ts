// The JS shape of cty values: unknowns and their refinements, big numbers, dynamically-typed values, and helpers over them.

import { CtyError } from "./errors.js";
import { canonicalDecimal, compareNumbers, NumberSyntaxError } from "./number.js";
import { CtyBool, CtyDynamic, CtyNumber, CtyString, object, tuple, typeEquals, type CtyType } from "./type.js";

/**
 * What is known about an unknown value (go-cty's refinements). Only those fitting
 * the value's type are meaningful: `stringPrefix` for strings, number bounds for
 * numbers, length bounds for lists, sets and maps; `notNull` for any type but dynamic.
 */
export interface Refinement {
  notNull?: boolean;
  stringPrefix?: string;
  numberLower?: { value: number | BigNum; inclusive: boolean };
  numberUpper?: { value: number | BigNum; inclusive: boolean };
  lengthLower?: number;
  lengthUpper?: number;
}

/** A value that is not known yet (during plan), optionally with what is known about it. */
export class Unknown {
  constructor(readonly refinement?: Refinement) {}
}

/** The unknown with no refinements; decoding returns this instance for every plain unknown. */
export const UNKNOWN: Unknown = new Unknown();

export function isUnknown(v: unknown): v is Unknown {
  return v instanceof Unknown;
}

/**
 * A cty number that a JS number would not hold exactly: integers beyond 2^53 and
 * decimals that are not binary fractions (the decimal 0.1 that Terraform parsed,
 * as opposed to the float64 nearest to it). `text` is canonical: the plain decimal
 * go-cty prints for the number (no exponent, no redundant zeros).
 */
export class BigNum {
  readonly text: string;

  constructor(text: string) {
    try {
      this.text = canonicalDecimal(text);
    } catch (e) {
      if (e instanceof NumberSyntaxError) throw new CtyError(`invalid number: ${e.message}`);
      throw e;
    }
  }

  /** The nearest JS number (precision may be lost). */
  toNumber(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/** A value in a slot of dynamic type, together with the concrete type it has there. */
export class Dynamic {
  constructor(
    readonly type: CtyType,
    readonly value: CtyValue,
  ) {}
}

/**
 * A cty value. Lists, sets and tuples are arrays; maps and objects are plain
 * objects (decoders build them with a null prototype, so keys like "__proto__" are
 * plain keys); null is null. An object attribute that is missing or undefined is null.
 */
export type CtyValue = null | boolean | string | number | BigNum | Unknown | Dynamic | CtyValue[] | { [key: string]: CtyValue };

/** A map or object value. */
export type CtyRecord = { [key: string]: CtyValue };

/** True for the plain objects that stand for maps and objects (not arrays, not the classes above). */
export function isRecord(v: unknown): v is CtyRecord {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

/** Whether an unknown sits anywhere inside the value. */
export function wholeContainsUnknown(v: CtyValue): boolean {
  if (v === null || typeof v !== "object") return false;
  if (v instanceof Unknown) return true;
  if (v instanceof Dynamic) return wholeContainsUnknown(v.value);
  if (v instanceof BigNum) return false;
  if (Array.isArray(v)) {
    for (const e of v) if (wholeContainsUnknown(e)) return true;
    return false;
  }
  for (const k in v) if (wholeContainsUnknown(v[k]!)) return true;
  return false;
}

/** A JS value that is a cty number. */
export function isNumberValue(v: unknown): v is number | BigNum {
  return typeof v === "number" || v instanceof BigNum;
}

/** The number as compareNumbers takes it. */
export function numberKey(v: number | BigNum): number | string {
  return typeof v === "number" ? v : v.text;
}

/**
 * The type a plain JS value implies when it goes into a dynamic slot: strings,
 * numbers and bools as themselves, arrays as tuples, objects as objects; null and
 * unknowns carry no type (dynamic), and a Dynamic brings its own.
 */
export function impliedType(v: CtyValue | undefined): CtyType {
  if (v === null || v === undefined) return CtyDynamic;
  switch (typeof v) {
    case "string": return CtyString;
    case "boolean": return CtyBool;
    case "number": return CtyNumber;
  }
  if (v instanceof Unknown) return CtyDynamic;
  if (v instanceof BigNum) return CtyNumber;
  if (v instanceof Dynamic) return v.type;
  if (Array.isArray(v)) return tuple(v.map(impliedType));
  const attrs: Record<string, CtyType> = {};
  for (const k of Object.keys(v)) attrs[k] = impliedType(v[k]);
  return object(attrs);
}

/**
 * Representation equality (go-cty's RawEquals): same shape, numbers equal in value
 * whether JS number or BigNum, unknowns equal when their refinements are,
 * Dynamic equal when type and value are. Object prototypes do not matter.
 */
export function rawEquals(a: CtyValue | undefined, b: CtyValue | undefined): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (isNumberValue(a) || isNumberValue(b)) {
    if (!isNumberValue(a) || !isNumberValue(b)) return false;
    if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
    return compareNumbers(numberKey(a), numberKey(b)) === 0;
  }
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (a instanceof Unknown || b instanceof Unknown) {
    return a instanceof Unknown && b instanceof Unknown && refinementEquals(a.refinement, b.refinement);
  }
  if (a instanceof Dynamic || b instanceof Dynamic) {
    return a instanceof Dynamic && b instanceof Dynamic && typeEquals(a.type, b.type) && rawEquals(a.value, b.value);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!rawEquals(a[i], b[i])) return false;
    return true;
  }
  const ra = a as CtyRecord;
  const rb = b as CtyRecord;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(rb, k) || !rawEquals(ra[k], rb[k])) return false;
  }
  return true;
}

function refinementEquals(a: Refinement | undefined, b: Refinement | undefined): boolean {
  const x = normalizeRefinement(a);
  const y = normalizeRefinement(b);
  if (x.notNull !== y.notNull || x.stringPrefix !== y.stringPrefix) return false;
  if (x.lengthLower !== y.lengthLower || x.lengthUpper !== y.lengthUpper) return false;
  return boundEquals(x.numberLower, y.numberLower) && boundEquals(x.numberUpper, y.numberUpper);
}

function boundEquals(a: Refinement["numberLower"], b: Refinement["numberLower"]): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.inclusive === b.inclusive && compareNumbers(numberKey(a.value), numberKey(b.value)) === 0;
}

/** A refinement with the no-op parts dropped, so equal refinements compare equal. */
function normalizeRefinement(r: Refinement | undefined): Refinement {
  const out: Refinement = {};
  if (r === undefined) return out;
  if (r.notNull === true) out.notNull = true;
  if (r.stringPrefix !== undefined && r.stringPrefix !== "") out.stringPrefix = r.stringPrefix;
  if (r.numberLower !== undefined && r.numberLower.value !== -Infinity) out.numberLower = r.numberLower;
  if (r.numberUpper !== undefined && r.numberUpper.value !== Infinity) out.numberUpper = r.numberUpper;
  if (r.lengthLower !== undefined && r.lengthLower > 0) out.lengthLower = r.lengthLower;
  if (r.lengthUpper !== undefined) out.lengthUpper = r.lengthUpper;
  return out;
}
