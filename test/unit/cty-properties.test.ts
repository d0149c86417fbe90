// Property-based tests for the cty codec: random types and conforming values survive msgpack and JSON, and random bytes never crash or hang the decoders.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BigNum,
  CtyBool,
  CtyDynamic,
  CtyError,
  CtyNumber,
  CtyString,
  decodeJson,
  decodeMsgpack,
  Dynamic,
  encodeJson,
  encodeMsgpack,
  impliedType,
  list,
  map,
  object,
  rawEquals,
  set,
  tuple,
  typeString,
  UNKNOWN,
  Unknown,
  wholeContainsUnknown,
  type CtyType,
  type CtyValue,
  type Refinement,
} from "../../src/terraform/cty/index.js";
import { binFromDouble, doubleText, shortestText } from "../../src/terraform/cty/number.js";
import { canonicalSet } from "../../src/terraform/cty/set.js";
import { objectInfo } from "../../src/terraform/cty/type.js";
import { show } from "./cty-support.js";

const NAMES = ["a", "b", "id", "name", "Z", "é", "__proto__", "constructor", "x-y", "", "😀"];

function arbType(depth: number): fc.Arbitrary<CtyType> {
  const leaf = fc.constantFrom(CtyString, CtyNumber, CtyBool, CtyString, CtyNumber, CtyDynamic);
  if (depth <= 0) return leaf;
  const sub = arbType(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: sub.map(list) },
    { weight: 1, arbitrary: sub.map(set) },
    { weight: 1, arbitrary: sub.map(map) },
    { weight: 1, arbitrary: fc.array(sub, { maxLength: 3 }).map(tuple) },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.constantFrom(...NAMES), sub, { maxKeys: 4 }).map((attrs) => object(attrs)),
    },
  );
}

/** Concrete (non-dynamic at the top) types for the contents of a Dynamic. */
const arbConcreteType: fc.Arbitrary<CtyType> = arbType(2).filter((t) => t.kind !== "dynamic");

interface ValueOptions {
  /** Only numbers whose JSON text parses back to the same representation. */
  jsonExact: boolean;
  unknowns: boolean;
}

const arbString = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 6 }), fc.constantFrom("", "a", "é", "😀", "\uffff", "<&>", "\u2028", "__proto__"));

const arbDecimalText = fc
  .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -30, max: 30 }))
  .map(([m, e]) => `${m}e${e}`);

function arbNumber(o: ValueOptions): fc.Arbitrary<CtyValue> {
  if (o.jsonExact) {
    return fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      // Binary fractions with short decimals print and parse back exactly.
      fc.tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 12 })).map(([k, m]) => k / 2 ** m),
      arbDecimalText.map((t) => canonicalNumber(new BigNum(t))),
    );
  }
  return fc.oneof(
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: false }).filter((d) => !Number.isInteger(d) || Math.abs(d) < 2 ** 63),
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((b) => canonicalNumber(new BigNum(b.toString()))),
    arbDecimalText.map((t) => canonicalNumber(new BigNum(t))),
  );
}

/** The representation decoding gives a number (a BigNum that a JS number holds exactly becomes one). */
function canonicalNumber(b: BigNum): number | BigNum {
  const v = decodeJson(b.text, CtyNumber);
  return v as number | BigNum;
}

function arbRefinement(t: CtyType): fc.Arbitrary<Refinement | undefined> {
  const notNull = fc.boolean();
  switch (t.kind) {
    case "dynamic":
      return fc.constant(undefined);
    case "string":
      return fc.record({ notNull, stringPrefix: arbString.map((s) => s.normalize("NFC")) }, { requiredKeys: [] });
    case "number":
      return fc
        .tuple(notNull, fc.option(fc.integer({ min: -100, max: 100 })), fc.option(fc.integer({ min: 1, max: 100 })), fc.boolean(), fc.boolean())
        .map(([nn, lo, span, li, ui]) => {
          const r: Refinement = {};
          if (nn) r.notNull = true;
          if (lo !== null) r.numberLower = { value: lo, inclusive: li };
          if (span !== null) r.numberUpper = { value: (lo ?? 0) + span + 0.5, inclusive: ui };
          return r;
        });
    case "list":
    case "set":
    case "map":
      return fc.tuple(notNull, fc.option(fc.integer({ min: 1, max: 5 })), fc.option(fc.integer({ min: 1, max: 5 }))).map(([nn, lo, span]) => {
        const r: Refinement = {};
        if (nn) r.notNull = true;
        if (lo !== null) r.lengthLower = lo;
        if (span !== null) r.lengthUpper = (lo ?? 0) + span;
        return r;
      });
    default:
      return fc.option(fc.record({ notNull: fc.constant(true) }), { nil: undefined });
  }
}

function arbValue(t: CtyType, o: ValueOptions, depth = 3): fc.Arbitrary<CtyValue> {
  const special: fc.Arbitrary<CtyValue>[] = [fc.constant(null)];
  if (o.unknowns) special.push(arbRefinement(t).map((r) => (r === undefined ? UNKNOWN : new Unknown(r))));
  return fc.oneof({ weight: 1, arbitrary: fc.oneof(...special) }, { weight: 6, arbitrary: arbKnown(t, o, depth) });
}

function arbKnown(t: CtyType, o: ValueOptions, depth: number): fc.Arbitrary<CtyValue> {
  switch (t.kind) {
    case "string":
      return arbString;
    case "number":
      return arbNumber(o);
    case "bool":
      return fc.boolean();
    case "dynamic":
      if (depth <= 0) return fc.oneof(arbString, fc.boolean());
      return arbConcreteType.chain((ct) => arbValue(ct, o, depth - 1).map((v) => new Dynamic(ct, v)));
    case "list":
    case "set":
      return elementType(t.element).chain((et) => fc.array(arbElement(et, t.element, o, depth - 1), { maxLength: 4 }));
    case "map":
      return elementType(t.element).chain((et) => fc.dictionary(arbString, arbElement(et, t.element, o, depth - 1), { maxKeys: 3, noNullPrototype: false }));
    case "tuple":
      return fc.tuple(...t.elements.map((e) => arbValue(e, o, depth - 1)));
    case "object": {
      const names = objectInfo(t).names;
      return fc.tuple(...names.map((n) => arbValue(t.attributes[n]!, o, depth - 1))).map((vals) => {
        const out = Object.create(null) as Record<string, CtyValue>;
        names.forEach((n, i) => (out[n] = vals[i]!));
        return out;
      });
    }
  }
}

/** Elements of a collection share one type, so a collection of dynamic picks one concrete type for all of them. */
function elementType(t: CtyType): fc.Arbitrary<CtyType> {
  return t.kind === "dynamic" ? arbConcreteType : fc.constant(t);
}

function arbElement(et: CtyType, declared: CtyType, o: ValueOptions, depth: number): fc.Arbitrary<CtyValue> {
  if (declared.kind !== "dynamic") return arbValue(et, o, depth);
  return fc.oneof(fc.constant(null), arbKnown(et, o, depth).map((v) => new Dynamic(et, v)));
}

/**
 * What decoding gives back for v: sets in go-cty's order, unknowns in dynamic slots unrefined. Through msgpack a
 * negative zero comes back as 0, because go-cty writes every integral number as a msgpack integer; two set elements
 * that differed only by that sign are then one, as go-cty's decoder makes them.
 */
function expectedOn(v: CtyValue, t: CtyType, wire: "msgpack" | "json"): CtyValue {
  const expected = (v: CtyValue, t: CtyType) => expectedOn(v, t, wire);
  if (v === null) return null;
  if (wire === "msgpack" && Object.is(v, -0)) return 0;
  if (v instanceof Unknown) return t.kind === "dynamic" ? UNKNOWN : v;
  if (t.kind === "dynamic") {
    if (v instanceof Dynamic) return new Dynamic(v.type, expected(v.value, v.type));
    const it = impliedType(v);
    return new Dynamic(it, expected(v, it));
  }
  switch (t.kind) {
    case "list":
    case "tuple":
      return (v as CtyValue[]).map((e, i) => expected(e, t.kind === "tuple" ? t.elements[i]! : t.element));
    case "set":
      return canonicalSet(
        (v as CtyValue[]).map((e) => expected(e, t.element)),
        t.element,
      );
    case "map":
    case "object": {
      const out = Object.create(null) as Record<string, CtyValue>;
      const r = v as Record<string, CtyValue>;
      for (const k of Object.keys(r)) out[k] = expected(r[k]!, t.kind === "map" ? t.element : t.attributes[k]!);
      return out;
    }
    default:
      return v;
  }
}

const arbTypedValue = (o: ValueOptions): fc.Arbitrary<[CtyType, CtyValue]> => arbType(3).chain((t) => arbValue(t, o).map((v): [CtyType, CtyValue] => [t, v]));

function holdsNegativeZero(v: CtyValue): boolean {
  if (Object.is(v, -0)) return true;
  if (v instanceof Dynamic) return holdsNegativeZero(v.value);
  if (Array.isArray(v)) return v.some(holdsNegativeZero);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === null) return Object.values(v as Record<string, CtyValue>).some(holdsNegativeZero);
  return false;
}

function assertRawEquals(actual: CtyValue, want: CtyValue, t: CtyType): void {
  if (!rawEquals(actual, want)) throw new Error(`${typeString(t)}: decoded ${show(actual)}, expected ${show(want)}`);
}

describe("cty codec properties", () => {
  it("msgpack: decode(encode(v)) equals v, and re-encoding gives the same bytes", () => {
    fc.assert(
      fc.property(arbTypedValue({ jsonExact: false, unknowns: true }), ([t, v]) => {
        const bytes = encodeMsgpack(v, t);
        const back = decodeMsgpack(bytes, t);
        assertRawEquals(back, expectedOn(v, t, "msgpack"), t);
        const again = encodeMsgpack(back, t);
        // A set whose elements differed only by a zero's sign came back with fewer elements, so fewer bytes.
        if (!holdsNegativeZero(v)) expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
        expect(Buffer.from(encodeMsgpack(decodeMsgpack(again, t), t)).equals(Buffer.from(again))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it("JSON: decode(encode(v)) equals v for values without unknowns", () => {
    fc.assert(
      fc.property(arbTypedValue({ jsonExact: true, unknowns: false }), ([t, v]) => {
        const text = encodeJson(v, t);
        const back = decodeJson(text, t);
        assertRawEquals(back, expectedOn(v, t, "json"), t);
        expect(encodeJson(back, t)).toBe(text);
      }),
      { numRuns: 1500 },
    );
  });

  it("JSON: any number's text is stable through decode and re-encode", () => {
    fc.assert(
      fc.property(arbTypedValue({ jsonExact: false, unknowns: false }), ([t, v]) => {
        let text: string;
        try {
          text = encodeJson(v, t);
        } catch (e) {
          // Infinity has no JSON form; that is the only refusal expected here.
          expect(e).toBeInstanceOf(CtyError);
          expect((e as CtyError).message).toMatch(/infinity/);
          return;
        }
        expect(encodeJson(decodeJson(text, t), t)).toBe(text);
      }),
      { numRuns: 800 },
    );
  });

  it("JSON refuses unknowns, msgpack carries them", () => {
    fc.assert(
      fc.property(arbTypedValue({ jsonExact: true, unknowns: true }), ([t, v]) => {
        if (wholeContainsUnknown(v)) expect(() => encodeJson(v, t)).toThrow(/unknown values cannot be encoded as JSON/);
        else expect(() => encodeJson(v, t)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it("msgpack and JSON agree: JSON's value encodes to the msgpack of the same value", () => {
    fc.assert(
      fc.property(arbTypedValue({ jsonExact: true, unknowns: false }), ([t, v]) => {
        const viaJson = decodeJson(encodeJson(v, t), t);
        expect(Buffer.from(encodeMsgpack(viaJson, t)).equals(Buffer.from(encodeMsgpack(v, t)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("the JS shortest-digits shortcut matches big.Float's algorithm for every double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        expect(doubleText(d)).toBe(Object.is(d, -0) ? "-0" : shortestText(binFromDouble(d)));
      }),
      { numRuns: 20000 },
    );
  });

  it("BigNum text is canonical: reparsing it changes nothing", () => {
    fc.assert(
      fc.property(fc.oneof(arbDecimalText, fc.bigInt().map(String), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)), (text) => {
        const b = new BigNum(text);
        expect(new BigNum(b.text).text).toBe(b.text);
        expect(b.text).toMatch(/^-?\d+(\.\d*[1-9])?$/);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("decoders on hostile input", () => {
  const arbMutated = arbTypedValue({ jsonExact: false, unknowns: true }).chain(([t, v]) => {
    const bytes = encodeMsgpack(v, t);
    return fc
      .tuple(fc.nat({ max: Math.max(0, bytes.length - 1) }), fc.integer({ min: 0, max: 255 }), fc.nat({ max: bytes.length }), fc.uint8Array({ maxLength: 4 }))
      .map(([at, b, cut, extra]): [CtyType, Uint8Array] => {
        const m = new Uint8Array([...bytes.slice(0, cut), ...extra]);
        if (at < m.length) m[at] = b;
        return [t, m];
      });
  });

  it("msgpack: truncated, corrupted or padded encodings decode or throw CtyError", () => {
    fc.assert(
      fc.property(arbMutated, ([t, bytes]) => {
        try {
          decodeMsgpack(bytes, t);
        } catch (e) {
          if (!(e instanceof CtyError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("msgpack: random bytes decode or throw CtyError", () => {
    fc.assert(
      fc.property(arbType(3), fc.uint8Array({ maxLength: 64 }), (t, bytes) => {
        try {
          decodeMsgpack(bytes, t);
        } catch (e) {
          if (!(e instanceof CtyError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("JSON: corrupted documents decode or throw CtyError", () => {
    const arbDoc = arbTypedValue({ jsonExact: true, unknowns: false }).chain(([t, v]) => {
      const text = encodeJson(v, t);
      return fc
        .tuple(fc.nat({ max: Math.max(0, text.length - 1) }), fc.constantFrom("", "{", "}", "[", "]", ",", ":", '"', "\\", "1e999999", "-", "null", "tru", "\u0000"), fc.nat({ max: text.length }))
        .map(([at, ins, cut]): [CtyType, string] => [t, (text.slice(0, at) + ins + text.slice(at)).slice(0, cut + ins.length)]);
    });
    fc.assert(
      fc.property(arbDoc, ([t, text]) => {
        try {
          decodeJson(text, t);
        } catch (e) {
          if (!(e instanceof CtyError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });
});
