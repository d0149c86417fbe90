// Unit tests for the cty type model and value helpers: type JSON, equality, names, BigNum, unknowns, dynamic values and prototype-safe objects.

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
  isUnknown,
  list,
  map,
  object,
  parseType,
  parseTypeBytes,
  rawEquals,
  set,
  tuple,
  typeEquals,
  typeJsonText,
  typeString,
  typeToJson,
  UNKNOWN,
  Unknown,
  wholeContainsUnknown,
  type CtyValue,
} from "../../src/terraform/cty/index.js";
import { hex } from "./cty-support.js";

describe("types", () => {
  const nested = object({ b: list(object({ a: CtyString })), a: map(set(CtyNumber)), t: tuple([CtyBool, CtyDynamic]) }, ["t"]);

  it("round-trip through their JSON form", () => {
    const json = typeToJson(nested);
    expect(JSON.parse(JSON.stringify(json))).toEqual([
      "object",
      { a: ["map", ["set", "number"]], b: ["list", ["object", { a: "string" }]], t: ["tuple", ["bool", "dynamic"]] },
      ["t"],
    ]);
    expect(typeEquals(parseType(json), nested)).toBe(true);
    expect(typeEquals(parseTypeBytes(new TextEncoder().encode(JSON.stringify(json))), nested)).toBe(true);
    expect(typeEquals(parseTypeBytes('"dynamic"'), CtyDynamic)).toBe(true);
  });

  it("write the exact bytes go-cty writes (sorted by UTF-8 bytes, HTML-escaped)", () => {
    expect(typeJsonText(nested)).toBe('["object",{"a":["map",["set","number"]],"b":["list",["object",{"a":"string"}]],"t":["tuple",["bool","dynamic"]]},["t"]]');
    expect(typeJsonText(object({ "\uffff": CtyString, "😀": CtyString, "<&>": CtyBool, Z: CtyNumber }))).toBe(
      '["object",{"\\u003c\\u0026\\u003e":"bool","Z":"number","\uffff":"string","😀":"string"}]',
    );
    expect(typeJsonText(tuple([]))).toBe('["tuple",[]]');
    expect(typeJsonText(object({}))).toBe('["object",{}]');
  });

  it("have friendly names in Terraform's syntax", () => {
    expect(typeString(list(object({ a: CtyString })))).toBe("list(object({a=string}))");
    expect(typeString(nested)).toBe("object({a=map(set(number)),b=list(object({a=string})),t=optional(tuple([bool,dynamic]))})");
    expect(typeString(object({ "a b": CtyString }))).toBe('object({"a b"=string})');
  });

  it("compare structurally, optional attributes included", () => {
    expect(typeEquals(list(CtyString), list(CtyString))).toBe(true);
    expect(typeEquals(list(CtyString), set(CtyString))).toBe(false);
    expect(typeEquals(object({ a: CtyString }), object({ a: CtyString }, ["a"]))).toBe(false);
    expect(typeEquals(object({ a: CtyString, b: CtyBool }), object({ b: CtyBool, a: CtyString }))).toBe(true);
    expect(typeEquals(tuple([CtyString]), tuple([CtyString, CtyString]))).toBe(false);
  });

  it("reject invalid descriptions with CtyError", () => {
    for (const bad of ["strng", ["list"], ["list", "string", "x"], ["object", []], ["tuple", "string"], ["nope", "string"], 5, null, ["object", { a: "string" }, ["b"]]]) {
      expect(() => parseType(bad), JSON.stringify(bad)).toThrow(CtyError);
    }
    expect(() => parseTypeBytes("{")).toThrow(CtyError);
    expect(() => object({ a: CtyString }, ["b"])).toThrow('optional attribute "b" is not an attribute of the object type');
  });

  it("keep attribute names like constructor and __proto__ as plain attributes", () => {
    const t = parseType(JSON.parse('["object",{"__proto__":"string","constructor":"number"}]'));
    expect(typeString(t)).toBe("object({__proto__=string,constructor=number})");
  });
});

describe("BigNum", () => {
  it("holds the canonical decimal text go-cty prints", () => {
    const cases: [string, string][] = [
      ["1e3", "1000"],
      ["0.10", "0.1"],
      ["+5", "5"],
      ["-0.0", "-0"],
      ["007.500", "7.5"],
      ["1e-3", "0.001"],
      [".5", "0.5"],
      ["5.", "5"],
      ["12345678901234567890", "12345678901234567890"],
      ["1e400", "1" + "0".repeat(400)],
      ["1p4", "16"],
    ];
    for (const [input, text] of cases) expect(new BigNum(input).text, input).toBe(text);
  });

  it("rounds like go-cty's 512-bit parse for very long decimals", () => {
    const pi = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196";
    expect(new BigNum(pi).text).toBe(
      // what go-cty v1.19.0 printed for it (test/vectors/cty)
      "3.1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679821480865132823066470938446095505822317253594081284811",
    );
  });

  it("decodes back as a JS number when one holds it exactly and re-encodes the same", () => {
    expect(decodeMsgpack(encodeMsgpack(new BigNum("0.5"), CtyNumber), CtyNumber)).toBe(0.5);
    expect(decodeMsgpack(encodeMsgpack(new BigNum("42"), CtyNumber), CtyNumber)).toBe(42);
    const tenth = decodeMsgpack(encodeMsgpack(new BigNum("0.1"), CtyNumber), CtyNumber);
    expect(tenth).toBeInstanceOf(BigNum);
    expect(String(tenth)).toBe("0.1");
    expect(hex(encodeMsgpack(new BigNum("9223372036854775807"), CtyNumber))).toBe("cf7fffffffffffffff");
    expect(hex(encodeMsgpack(new BigNum("9223372036854775808"), CtyNumber))).toBe("b339323233333732303336383534373735383038");
  });

  it("keeps JS floats and decimals apart, as go-cty does", () => {
    // the float64 nearest 0.1 travels as float64; the decimal 0.1 as text
    expect(hex(encodeMsgpack(0.1, CtyNumber))).toBe("cb3fb999999999999a");
    expect(hex(encodeMsgpack(new BigNum("0.1"), CtyNumber))).toBe("a3302e31");
    expect(decodeJson("0.1", CtyNumber)).toEqual(new BigNum("0.1"));
    expect(encodeJson(0.1, CtyNumber)).toBe("0.1");
    expect(rawEquals(0.1, new BigNum("0.1"))).toBe(false);
    expect(rawEquals(0.5, new BigNum("0.5"))).toBe(true);
  });

  it("survives JSON with all its digits", () => {
    const text = '{"n":123456789012345678901234567890.5,"m":9007199254740993}';
    const t = object({ n: CtyNumber, m: CtyNumber });
    const v = decodeJson(text, t) as Record<string, CtyValue>;
    expect(v.n).toEqual(new BigNum("123456789012345678901234567890.5"));
    expect(v.m).toEqual(new BigNum("9007199254740993"));
    expect(encodeJson(v, t)).toBe('{"m":9007199254740993,"n":123456789012345678901234567890.5}');
  });
});

describe("unknowns", () => {
  it("are recognised and found deep inside values", () => {
    expect(isUnknown(UNKNOWN)).toBe(true);
    expect(isUnknown(null)).toBe(false);
    expect(wholeContainsUnknown({ a: [1, { b: new Unknown({ notNull: true }) }] })).toBe(true);
    expect(wholeContainsUnknown(new Dynamic(CtyString, UNKNOWN))).toBe(true);
    expect(wholeContainsUnknown({ a: [1, { b: "x" }], c: new BigNum("1") })).toBe(false);
  });

  it("decode as the UNKNOWN singleton when unrefined", () => {
    expect(decodeMsgpack(encodeMsgpack(new Unknown(), CtyString), CtyString)).toBe(UNKNOWN);
    expect(decodeMsgpack(encodeMsgpack(new Unknown({}), CtyString), CtyString)).toBe(UNKNOWN);
  });

  it("carry refinements through msgpack", () => {
    const u = new Unknown({ notNull: true, numberLower: { value: new BigNum("0.1"), inclusive: false }, numberUpper: { value: 10, inclusive: true } });
    expect(rawEquals(decodeMsgpack(encodeMsgpack(u, CtyNumber), CtyNumber), u)).toBe(true);
    const l = new Unknown({ lengthLower: 1, lengthUpper: 3 });
    expect(rawEquals(decodeMsgpack(encodeMsgpack(l, set(CtyString)), set(CtyString)), l)).toBe(true);
  });

  it("drop refinements in a dynamic slot, where go-cty cannot keep them", () => {
    expect(hex(encodeMsgpack(new Unknown({ notNull: true }), CtyDynamic))).toBe("d40000");
  });

  it("truncate long string prefixes as go-cty does", () => {
    const u = new Unknown({ stringPrefix: "ab/".repeat(100) });
    const back = decodeMsgpack(encodeMsgpack(u, CtyString), CtyString) as Unknown;
    expect(back.refinement?.stringPrefix).toBe("ab/".repeat(85));
  });
});

describe("dynamic values", () => {
  it("infer a type for plain JS values", () => {
    const v: CtyValue = { a: 1, b: ["x", null, true], c: { d: new BigNum("1e30") } };
    const t = impliedType(v);
    expect(typeString(t)).toBe("object({a=number,b=tuple([string,dynamic,bool]),c=object({d=number})})");
    const back = decodeMsgpack(encodeMsgpack(v, CtyDynamic), CtyDynamic);
    expect(back).toBeInstanceOf(Dynamic);
    expect(typeEquals((back as Dynamic).type, t)).toBe(true);
    expect(rawEquals((back as Dynamic).value, v)).toBe(true);
    expect(encodeJson(v, CtyDynamic)).toBe('{"value":{"a":1,"b":["x",null,true],"c":{"d":1000000000000000000000000000000}},"type":["object",{"a":"number","b":["tuple",["string","dynamic","bool"]],"c":["object",{"d":"number"}]}]}');
  });

  it("leave null and unknown bare, but keep a typed null's type", () => {
    expect(hex(encodeMsgpack(null, CtyDynamic))).toBe("c0");
    expect(hex(encodeMsgpack(UNKNOWN, CtyDynamic))).toBe("d40000");
    const typedNull = decodeMsgpack(encodeMsgpack(new Dynamic(CtyString, null), CtyDynamic), CtyDynamic);
    expect(typedNull).toEqual(new Dynamic(CtyString, null));
    expect(decodeMsgpack(encodeMsgpack(new Dynamic(CtyDynamic, "x"), CtyDynamic), CtyDynamic)).toEqual(new Dynamic(CtyString, "x"));
  });
});

describe("objects and maps from untrusted keys", () => {
  it("decode with a null prototype so __proto__ is just a key", () => {
    const m = decodeMsgpack(encodeMsgpack(JSON.parse('{"__proto__":"x","constructor":"y"}') as CtyValue, map(CtyString)), map(CtyString)) as Record<string, CtyValue>;
    expect(Object.getPrototypeOf(m)).toBe(null);
    expect(Object.keys(m).sort()).toEqual(["__proto__", "constructor"]);
    expect(m["__proto__"]).toBe("x");
    const j = decodeJson('{"__proto__":"x"}', map(CtyString)) as Record<string, CtyValue>;
    expect(Object.keys(j)).toEqual(["__proto__"]);
  });

  it("never read inherited properties as attribute values", () => {
    const t = object({ constructor: CtyString, toString: CtyString, ["__proto__"]: CtyString });
    const v = decodeMsgpack(encodeMsgpack({}, t), t) as Record<string, CtyValue>;
    expect(v.constructor).toBe(null);
    expect(v.toString).toBe(null);
    expect(encodeJson({}, t)).toBe('{"__proto__":null,"constructor":null,"toString":null}');
  });
});
