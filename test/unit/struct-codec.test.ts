// The Struct writer against protobufjs: the same bytes for any Struct, and the same messages for the replies that carry Structs.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import protobuf from "protobufjs";
import { encodeMessage, protoRoot } from "../../src/wire/proto.js";
import { encodeStructField } from "../../src/wire/struct-codec.js";
import { propertyMapToStruct } from "../../src/server/struct.js";
import { SECRET_SIG, SIG_KEY } from "../../src/bridge/property-value.js";

const root = protoRoot(["pulumi/provider.proto"]);
const Struct = root.lookupType("google.protobuf.Struct");
const CreateResponse = root.lookupType("pulumirpc.CreateResponse");
const CheckResponse = root.lookupType("pulumirpc.CheckResponse");
const DiffRequest = root.lookupType("pulumirpc.DiffRequest");
const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true, oneofs: true };

/** What protobufjs writes for the Struct as field `n` of a message. */
function protobufjsField(n: number, s: object): Buffer {
  const w = protobuf.Writer.create();
  w.uint32((n << 3) | 2).fork();
  Struct.encode(Struct.fromObject(s), w);
  return Buffer.from(w.ldelim().finish());
}

type Shape = Record<string, unknown>;
const { value: valueArb } = fc.letrec<{ value: Shape; struct: Shape }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant({ nullValue: "NULL_VALUE", kind: "nullValue" }),
    fc.constant({ nullValue: 0 }),
    fc.double().map((numberValue) => ({ numberValue, kind: "numberValue" })),
    fc.string({ unit: "binary" }).map((stringValue) => ({ stringValue, kind: "stringValue" })),
    fc.string({ minLength: 200, maxLength: 20_000 }).map((stringValue) => ({ stringValue })),
    fc.boolean().map((boolValue) => ({ boolValue, kind: "boolValue" })),
    tie("struct").map((structValue) => ({ structValue, kind: "structValue" })),
    fc.array(tie("value"), { maxLength: 5 }).map((values) => ({ listValue: { values }, kind: "listValue" })),
  ),
  struct: fc.dictionary(fc.string({ unit: "binary", maxLength: 20 }), tie("value"), { maxKeys: 6 }).map((fields) => ({ fields })),
}));
const structArb = fc.dictionary(fc.string({ unit: "binary", maxLength: 20 }), valueArb, { maxKeys: 8 }).map((fields) => ({ fields }));

describe("encodeStructField", () => {
  it("writes the bytes protobufjs writes, for any Struct (nesting, empty lists and structs, non-ASCII keys and strings, NaN and -0)", () => {
    fc.assert(
      fc.property(structArb, fc.integer({ min: 1, max: 4000 }), (s, n) => {
        expect(encodeStructField(n, s).equals(protobufjsField(n, s))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("writes a Struct of 100,000 fields, whose lengths need 3-byte varints", () => {
    const fields: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) fields[`k${i}`] = { stringValue: "é".repeat(i % 50) };
    const s = { fields };
    const ours = encodeStructField(3, s);
    expect(ours.length).toBeGreaterThan(0x200000);
    expect(ours.equals(protobufjsField(3, s))).toBe(true);
  });

  it("reads only the oneof members a protobufjs message object holds itself, not the defaults its prototype gives", () => {
    const decoded = Struct.decode(Struct.encode(Struct.fromObject({ fields: { a: { numberValue: 0 }, b: { stringValue: "" }, c: { listValue: { values: [{ boolValue: false }] } } } })).finish());
    expect(encodeStructField(1, decoded).equals(protobufjsField(1, Struct.toObject(decoded, TO_OBJECT)))).toBe(true);
  });

  it("writes a Value with no member, or several, as protobufjs does: empty, or every member in field order", () => {
    const s = { fields: { none: {}, nulls: { nullValue: null, kind: "stringValue", stringValue: "x" }, two: { listValue: { values: [] }, numberValue: 1, stringValue: "é" } } };
    expect(encodeStructField(2, s).equals(protobufjsField(2, s))).toBe(true);
  });

  it("refuses what protobufjs refuses: a field that is not a Value, a list that is not an array", () => {
    expect(() => encodeStructField(1, { fields: { a: "text" } })).toThrow(/Struct\.fields: object expected/);
    expect(() => encodeStructField(1, { fields: { a: { listValue: { values: "no" } } } })).toThrow(/ListValue\.values: array expected/);
    expect(() => encodeStructField(1, { fields: { a: { structValue: 3 } } })).toThrow(/structValue: object expected/);
  });
});

describe("encodeMessage with Struct fields", () => {
  const viaProtobufjs = (type: protobuf.Type, value: object): Buffer => Buffer.from(type.encode(type.fromObject(value)).finish());
  const properties = propertyMapToStruct({
    id: "c1",
    ports: [{ internal: 80, external: null }],
    labels: { a: "b" },
    password: { [SIG_KEY]: SECRET_SIG, value: "hunter2" },
    empty: [],
  });

  it.each([
    ["CreateResponse", CreateResponse, { id: "c1", properties }],
    ["CheckResponse (a Struct, then a repeated field)", CheckResponse, { inputs: properties, failures: [{ property: "ports", reason: "bad" }] }],
    // Fields before, between and after two Structs, a third Struct absent, unknown keys and oneof names ignored.
    ["DiffRequest", DiffRequest, { id: "x", urn: "urn:pulumi:s::p::t::n", olds: properties, news: { fields: {} }, ignoreChanges: ["a", "b"], name: "n", notAField: 1 }],
    ["DiffRequest without Structs", DiffRequest, { id: "x", urn: "u", ignoreChanges: ["a"] }],
    ["an empty CheckResponse", CheckResponse, {}],
  ] as const)("writes %s byte for byte as protobufjs does", (_name, type, value) => {
    expect(encodeMessage(type, value).equals(viaProtobufjs(type, value))).toBe(true);
  });

  it("leaves a protobufjs message object to protobufjs", () => {
    const message = CreateResponse.fromObject({ id: "c1", properties });
    expect(encodeMessage(CreateResponse, message).equals(viaProtobufjs(CreateResponse, message))).toBe(true);
  });
});
