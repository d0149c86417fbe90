// Bad input for the cty codec: malformed bytes and wrongly-shaped JS values fail fast with a CtyError that names the problem and where it is.

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
  list,
  map,
  object,
  set,
  tuple,
  Unknown,
  type CtyValue,
} from "../../src/terraform/cty/index.js";
import { formatPath } from "../../src/terraform/path.js";
import { unhex } from "./cty-support.js";

function ctyError(f: () => unknown): CtyError {
  try {
    f();
  } catch (e) {
    if (e instanceof CtyError) return e;
    throw new Error(`expected a CtyError, got ${String(e)}`);
  }
  throw new Error("expected a CtyError, but nothing was thrown");
}

const T = object({ name: CtyString, tags: map(CtyNumber), items: list(object({ id: CtyString, on: CtyBool })) });
const good: CtyValue = { name: "x", tags: { a: 1, b: 2 }, items: [{ id: "i1", on: true }, { id: "i2", on: false }] };

describe("encoding a JS value of the wrong shape", () => {
  it("names the expected type, the path and what was found", () => {
    const e = ctyError(() => encodeMsgpack({ name: "x", tags: { a: "1" }, items: [] }, T));
    expect(e.message).toBe('expected number at tags["a"], got string');
    expect(formatPath(e.path)).toBe('tags["a"]');
    expect(ctyError(() => encodeJson({ name: "x", tags: { a: "1" }, items: [] }, T)).message).toBe('expected number at tags["a"], got string');
  });

  it("reports list indexes and nested attributes", () => {
    const e = ctyError(() => encodeMsgpack({ name: "x", tags: {}, items: [{ id: "a", on: true }, { id: 7, on: true }] }, T));
    expect(e.message).toBe("expected string at items[1].id, got number");
  });

  it("rejects attributes the object type does not have", () => {
    const e = ctyError(() => encodeMsgpack({ name: "x", extra: 1 }, T));
    expect(e.message).toMatch(/^unsupported attribute "extra", the object type has attributes items, name, tags$/);
    expect(() => encodeJson({ name: "x", extra: 1 }, T)).toThrow(/unsupported attribute "extra"/);
  });

  it("treats missing and undefined attributes as null", () => {
    const partial = { name: undefined, tags: null } as unknown as CtyValue;
    const v = decodeMsgpack(encodeMsgpack(partial, T), T);
    expect(v).toEqual(Object.assign(Object.create(null), { name: null, tags: null, items: null }));
  });

  it("rejects arrays for objects, objects for lists, and class instances", () => {
    expect(ctyError(() => encodeMsgpack([], T)).message).toMatch(/^expected object\(\{.*\}\), got an array$/);
    expect(ctyError(() => encodeMsgpack({}, list(CtyString))).message).toBe("expected list(string), got an object");
    expect(ctyError(() => encodeMsgpack(new Date() as unknown as CtyValue, map(CtyString))).message).toBe("expected map(string), got an instance of Date");
  });

  it("rejects NaN, and Infinity in JSON only", () => {
    expect(ctyError(() => encodeMsgpack(NaN, CtyNumber)).message).toBe("NaN is not a cty number");
    expect(ctyError(() => encodeJson(Infinity, CtyNumber)).message).toBe("infinity cannot be encoded as JSON");
    expect(encodeMsgpack(Infinity, CtyNumber)).toEqual(unhex("cb7ff0000000000000"));
  });

  it("refuses self-referencing values instead of overflowing the stack", () => {
    const loop: Record<string, CtyValue> = {};
    loop.a = [loop];
    const t = object({ a: list(CtyDynamic) });
    const e = ctyError(() => encodeMsgpack(loop, t));
    expect(e.message).toMatch(/^value is nested too deeply at a/);
    // Only the outermost steps are kept.
    expect(e.path.length).toBeLessThanOrEqual(64);
    expect(e.message.length).toBeLessThan(400);
    expect(() => encodeJson(loop, t)).toThrow(/nested too deeply/);
  });

  it("checks tuple lengths", () => {
    expect(ctyError(() => encodeMsgpack(["a"], tuple([CtyString, CtyNumber]))).message).toBe("expected a tuple of 2 elements, got 1");
  });

  it("refuses unknowns in JSON, with the path", () => {
    expect(ctyError(() => encodeJson({ name: new Unknown(), tags: null, items: null }, T)).message).toBe("unknown values cannot be encoded as JSON at name");
  });

  it("refuses refinements that do not fit the type", () => {
    expect(ctyError(() => encodeMsgpack(new Unknown({ stringPrefix: "x" }), CtyNumber)).message).toBe("a string prefix refinement does not apply to number");
    expect(ctyError(() => encodeMsgpack(new Unknown({ lengthLower: 1 }), CtyString)).message).toBe("length bounds do not apply to string");
    expect(ctyError(() => encodeMsgpack(new Unknown({ numberLower: { value: 1, inclusive: true } }), list(CtyString))).message).toBe("number bounds do not apply to list(string)");
  });

  it("refuses a Dynamic whose type is not the slot's type", () => {
    expect(ctyError(() => encodeMsgpack(new Dynamic(CtyString, "x"), CtyNumber)).message).toBe("expected number, got a value of type string");
    expect(encodeMsgpack(new Dynamic(CtyString, "x"), CtyString)).toEqual(encodeMsgpack("x", CtyString));
  });

  it("refuses collections of dynamic whose elements differ in type (go-cty cannot build them)", () => {
    for (const t of [list(CtyDynamic), set(CtyDynamic)]) {
      expect(ctyError(() => encodeMsgpack(["a", 1], t)).message).toBe("elements of a collection must all have the same type, got string and number");
    }
    expect(() => encodeMsgpack({ a: "x", b: true }, map(CtyDynamic))).toThrow(/must all have the same type/);
    // nulls and unknowns have no type of their own, so they mix with anything
    expect(() => encodeMsgpack(["a", null, new Unknown(), new Dynamic(CtyString, "b")], list(CtyDynamic))).not.toThrow();
  });
});

describe("decoding malformed msgpack", () => {
  const bytes = encodeMsgpack(good, T);

  it("reports truncated input at every cut", () => {
    for (let cut = 0; cut < bytes.length; cut++) {
      const e = ctyError(() => decodeMsgpack(bytes.subarray(0, cut), T));
      expect(e.message).toMatch(/malformed msgpack: input ends early|malformed msgpack: (array|map) of \d+ (elements|entries) in \d+ remaining bytes/);
    }
    // attributes go out in byte order (items, name, tags), so the last byte is inside tags["b"]
    expect(ctyError(() => decodeMsgpack(bytes.subarray(0, bytes.length - 1), T)).message).toBe(
      'malformed msgpack: input ends early (needed 1 more byte at offset 48) at tags["b"]',
    );
  });

  it("reports extra trailing bytes", () => {
    const padded = new Uint8Array([...bytes, 0xc0]);
    expect(ctyError(() => decodeMsgpack(padded, T)).message).toBe(`malformed msgpack: 1 unexpected byte after the value (at offset ${bytes.length})`);
  });

  it("reports a string where a number is expected", () => {
    expect(ctyError(() => decodeMsgpack(unhex("a178"), CtyNumber)).message).toBe('expected number, "x" is not a number');
    // a decimal string is how go-cty writes big numbers, so it is accepted
    expect(decodeMsgpack(unhex("a3312e35"), CtyNumber)).toBe(1.5);
  });

  it("reports the wrong msgpack kind with the path", () => {
    const bad = encodeMsgpack({ name: "x", tags: { a: 1 }, items: ["not an object"] }, object({ name: CtyString, tags: map(CtyNumber), items: list(CtyString) }));
    expect(ctyError(() => decodeMsgpack(bad, T)).message).toBe("expected object at items[0], got msgpack string");
    expect(ctyError(() => decodeMsgpack(unhex("c3"), CtyString)).message).toBe("expected string, got msgpack bool");
  });

  it("reports an extension type go-cty does not define", () => {
    expect(ctyError(() => decodeMsgpack(unhex("d60500000000"), CtyString)).message).toBe("malformed msgpack: unsupported extension type 0x05 with 4 bytes");
  });

  it("reports bad refinements", () => {
    expect(ctyError(() => decodeMsgpack(unhex("c7040c8102a161"), CtyNumber)).message).toBe(
      "malformed msgpack: invalid unknown-value refinements: a string prefix refinement does not apply to number",
    );
    const huge = new Uint8Array([0xc8, 0x04, 0x01, 0x0c, ...new Array<number>(1025).fill(0)]);
    expect(ctyError(() => decodeMsgpack(huge, CtyString)).message).toMatch(/refinements of 1025 bytes exceed 1024/);
  });

  it("reports objects with the wrong attributes", () => {
    const O = object({ a: CtyNumber, b: CtyNumber });
    expect(ctyError(() => decodeMsgpack(unhex("81a16101"), O)).message).toBe("expected an object with 2 attributes, got 1");
    expect(ctyError(() => decodeMsgpack(unhex("82a17a01a16101"), O)).message).toBe("unsupported attribute at z, the object type has attributes a, b");
    expect(ctyError(() => decodeMsgpack(unhex("82a16101a16102"), O)).message).toBe("duplicate attribute at a");
  });

  it("refuses lying length headers without allocating or hanging", () => {
    const start = Date.now();
    expect(ctyError(() => decodeMsgpack(unhex("ddffffffff"), list(CtyString))).message).toBe("malformed msgpack: array of 4294967295 elements in 0 remaining bytes");
    expect(ctyError(() => decodeMsgpack(unhex("dbffffffff61"), CtyString)).message).toMatch(/input ends early/);
    expect(ctyError(() => decodeMsgpack(unhex("dfffffffff"), map(CtyString))).message).toMatch(/map of 4294967295 entries/);
    expect(Date.now() - start).toBeLessThan(500);
  });

  it("refuses a dynamic value with a broken or absurd type", () => {
    const withType = (json: string): Uint8Array => {
      const tb = new TextEncoder().encode(json);
      return new Uint8Array([0x92, 0xc6, ...[24, 16, 8, 0].map((s) => (tb.length >>> s) & 0xff), ...tb, 0xc0]);
    };
    expect(ctyError(() => decodeMsgpack(withType('"strin"'), CtyDynamic)).message).toBe('invalid primitive type name "strin"');
    expect(ctyError(() => decodeMsgpack(withType("{"), CtyDynamic)).message).toMatch(/^invalid type description/);
    const deep = '["list",'.repeat(100_000) + '"string"' + "]".repeat(100_000);
    expect(ctyError(() => decodeMsgpack(withType(deep), CtyDynamic)).message).toMatch(/nested too deeply/);
  });

  it("refuses dynamic values nested without end", () => {
    // ["dynamic", ["dynamic", ...]]: each level is a valid dynamic value of dynamic type
    const level = [0x92, 0xc4, 0x09, ...new TextEncoder().encode('"dynamic"')];
    const bytes = new Uint8Array(level.length * 50_000 + 1);
    for (let i = 0; i < 50_000; i++) bytes.set(level, i * level.length);
    bytes[bytes.length - 1] = 0xc0;
    expect(ctyError(() => decodeMsgpack(bytes, CtyDynamic)).message).toMatch(/nested too deeply/);
  });

  it("refuses a number too large to print", () => {
    const text = new TextEncoder().encode("1e999999999");
    const start = Date.now();
    expect(ctyError(() => decodeMsgpack(new Uint8Array([0xab, ...text]), CtyNumber)).message).toMatch(/^expected number, numbers beyond/);
    expect(Date.now() - start).toBeLessThan(500);
  });

  it("refuses collections of dynamic whose elements differ in type", () => {
    // ["string","a"] and ["number",1] in one list(dynamic)
    const bytes = unhex("9292c40822737472696e6722a16192c408226e756d6265722201");
    expect(ctyError(() => decodeMsgpack(bytes, list(CtyDynamic))).message).toBe("elements of a collection must all have the same type, got string and number");
  });
});

describe("decoding malformed JSON", () => {
  it("reports syntax errors with the offset", () => {
    expect(ctyError(() => decodeJson('{"name": "x",', T)).message).toBe("malformed JSON: input ends early while reading object key");
    expect(ctyError(() => decodeJson('{"name": x}', T)).message).toBe('malformed JSON: unexpected "x" at offset 9 while reading string at name');
  });

  it("reports the wrong JSON kind with the path", () => {
    expect(ctyError(() => decodeJson('{"name":"x","tags":{"a":[1]}}', T)).message).toBe('expected number at tags["a"], got JSON array');
    expect(ctyError(() => decodeJson('{"items":[{"id":"a","on":"maybe"}]}', T)).message).toBe('expected bool at items[0].on, got the string "maybe"');
  });

  it("reports trailing data, unknown attributes and bad dynamic wrappers", () => {
    expect(ctyError(() => decodeJson('"a" "b"', CtyString)).message).toBe("malformed JSON: unexpected data after the value at offset 4");
    expect(ctyError(() => decodeJson('{"nope":1}', T)).message).toBe('unsupported attribute "nope"');
    expect(ctyError(() => decodeJson('{"value":1}', CtyDynamic)).message).toBe("missing type in dynamic value");
    expect(ctyError(() => decodeJson('{"type":"number"}', CtyDynamic)).message).toBe("missing value in dynamic value");
    expect(ctyError(() => decodeJson('{"value":1,"type":"number","x":2}', CtyDynamic)).message).toBe('invalid key "x" in dynamic value');
  });

  it("refuses absurd nesting and absurd numbers quickly", () => {
    const start = Date.now();
    expect(ctyError(() => decodeJson("[".repeat(100_000), list(CtyString))).message).toMatch(/^expected string at \[0\], got JSON array$/);
    expect(ctyError(() => decodeJson('{"value":' + "[".repeat(100_000) + ',"type":"string"}', CtyDynamic)).message).toMatch(/nested too deeply/);
    expect(ctyError(() => decodeJson("1e999999999", CtyNumber)).message).toMatch(/^expected number, numbers beyond/);
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it("refuses a control character inside a string", () => {
    expect(ctyError(() => decodeJson('"a\u0001b"', CtyString)).message).toMatch(/control characters must be escaped/);
  });
});

describe("BigNum input", () => {
  it("refuses text that is not a number", () => {
    expect(ctyError(() => new BigNum("abc")).message).toBe('invalid number: "abc" is not a number');
    expect(ctyError(() => new BigNum("0x10")).message).toBe('invalid number: "0x10" is not a number');
    expect(ctyError(() => new BigNum("Inf")).message).toBe("invalid number: infinity is not a decimal");
  });
});
