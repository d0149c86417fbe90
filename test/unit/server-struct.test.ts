// google.protobuf.Struct ⇄ property values: plain data, every special signature object, unknowns, and real wire round trips.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ARCHIVE_SIG,
  ASSET_SIG,
  AssetOrArchive,
  COMPUTED,
  OUTPUT_VALUE_SIG,
  OutputValue,
  RESOURCE_REFERENCE_SIG,
  SECRET_SIG,
  SIG_KEY,
  ResourceReference,
  Secret,
  type PropertyMap,
  type PropertyValue,
} from "../../src/bridge/property-value.js";
import { grpcClientConstructor } from "../support/grpc-peer.js";
import type { StructIn } from "../../src/wire/google.protobuf.gen.js";
import {
  StructDecodeError,
  UNKNOWN_STRING,
  propertyMapToStruct,
  structToPropertyMap,
  type PbStruct,
} from "../../src/server/struct.js";

const ResourceProvider = grpcClientConstructor(["pulumi/provider.proto"], "pulumirpc.ResourceProvider");
const checkDef = ResourceProvider.service["Check"]!;

/** Through real protobuf bytes, as the engine's messages arrive: serialize a CheckRequest, parse it back. */
function overTheWire(s: StructIn): PbStruct {
  const bytes = checkDef.requestSerialize({ urn: "u", news: s });
  return (checkDef.requestDeserialize(bytes) as { news: PbStruct }).news;
}

const roundTrip = (m: PropertyMap): PropertyMap => structToPropertyMap(overTheWire(propertyMapToStruct(m)));

/** A Struct written the way the engine writes it (plain JSON-ish objects), then sent over the wire. */
function engineStruct(obj: Record<string, unknown>): PbStruct {
  const value = (v: unknown): unknown => {
    if (v === null) return { nullValue: "NULL_VALUE" };
    if (typeof v === "string") return { stringValue: v };
    if (typeof v === "number") return { numberValue: v };
    if (typeof v === "boolean") return { boolValue: v };
    if (Array.isArray(v)) return { listValue: { values: v.map(value) } };
    return { structValue: { fields: Object.fromEntries(Object.entries(v as object).map(([k, e]) => [k, value(e)])) } };
  };
  return overTheWire({ fields: Object.fromEntries(Object.entries(obj).map(([k, e]) => [k, value(e)])) } as PbStruct);
}

describe("Struct → property values", () => {
  it("decodes plain values, nested lists and maps", () => {
    const m = structToPropertyMap(engineStruct({ s: "x", n: 1.5, b: false, z: null, l: [1, "a", [true]], o: { k: { deep: "v" } } }));
    expect(m).toEqual({ s: "x", n: 1.5, b: false, z: null, l: [1, "a", [true]], o: { k: { deep: "v" } } });
  });

  it("decodes an absent Struct as an empty map", () => {
    expect(structToPropertyMap(undefined)).toEqual({});
    expect(structToPropertyMap(null)).toEqual({});
  });

  it("decodes the unknown sentinel, and the engine's typed unknown sentinels, as Computed", () => {
    const m = structToPropertyMap(
      engineStruct({ a: UNKNOWN_STRING, b: "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", c: "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", d: ["6a19a0b0-7e62-4c92-b797-7f8e31da9cc2"] }),
    );
    expect(m["a"]).toBe(COMPUTED);
    expect(m["b"]).toBe(COMPUTED);
    expect(m["c"]).toBe(COMPUTED);
    expect(m["d"]).toEqual([COMPUTED]);
  });

  it("decodes secrets, including nested and secret unknowns", () => {
    const m = structToPropertyMap(
      engineStruct({ p: { [SIG_KEY]: SECRET_SIG, value: { inner: { [SIG_KEY]: SECRET_SIG, value: UNKNOWN_STRING } } } }),
    );
    expect(m["p"]).toBeInstanceOf(Secret);
    const inner = ((m["p"] as Secret).value as PropertyMap)["inner"] as Secret;
    expect(inner).toBeInstanceOf(Secret);
    expect(inner.value).toBe(COMPUTED);
  });

  it("decodes output values: known, unknown, secret, with dependencies", () => {
    const m = structToPropertyMap(
      engineStruct({
        known: { [SIG_KEY]: OUTPUT_VALUE_SIG, value: 3, dependencies: ["urn:a", "urn:b"] },
        unknown: { [SIG_KEY]: OUTPUT_VALUE_SIG, secret: true },
        sentinel: { [SIG_KEY]: OUTPUT_VALUE_SIG, value: UNKNOWN_STRING },
      }),
    );
    expect(m["known"]).toEqual(new OutputValue(3, false, ["urn:a", "urn:b"]));
    expect(m["unknown"]).toEqual(new OutputValue(undefined, true, []));
    expect((m["unknown"] as OutputValue).known).toBe(false);
    expect((m["sentinel"] as OutputValue).known).toBe(false);
  });

  it("decodes resource references with, without and with an unknown id", () => {
    const urn = "urn:pulumi:dev::p::random:index/pet:Pet::a";
    const m = structToPropertyMap(
      engineStruct({
        custom: { [SIG_KEY]: RESOURCE_REFERENCE_SIG, urn, id: "pet-1", packageVersion: "0.0.0", name: "a", type: "random:index/pet:Pet" },
        component: { [SIG_KEY]: RESOURCE_REFERENCE_SIG, urn },
        pending: { [SIG_KEY]: RESOURCE_REFERENCE_SIG, urn, id: "" },
        pendingSentinel: { [SIG_KEY]: RESOURCE_REFERENCE_SIG, urn, id: UNKNOWN_STRING },
      }),
    );
    expect(m["custom"]).toEqual(new ResourceReference(urn, "pet-1", "0.0.0"));
    expect(m["component"]).toEqual(new ResourceReference(urn, undefined, ""));
    expect((m["pending"] as ResourceReference).id).toBe(COMPUTED);
    expect((m["pendingSentinel"] as ResourceReference).id).toBe(COMPUTED);
  });

  it("carries assets and archives (nested assets included) without interpreting them", () => {
    const asset = { [SIG_KEY]: ASSET_SIG, hash: "abc", text: "hello" };
    const m = structToPropertyMap(
      engineStruct({ a: asset, z: { [SIG_KEY]: ARCHIVE_SIG, assets: { "f.txt": asset, dir: { [SIG_KEY]: ARCHIVE_SIG, path: "./d" } } } }),
    );
    expect(m["a"]).toEqual(new AssetOrArchive("asset", { hash: "abc", text: "hello" }));
    expect(m["z"]).toBeInstanceOf(AssetOrArchive);
    expect((m["z"] as AssetOrArchive).kind).toBe("archive");
    expect(((m["z"] as AssetOrArchive).fields["assets"] as Record<string, unknown>)["f.txt"]).toEqual(asset);
  });

  it("rejects malformed special objects with the path of the offending value", () => {
    const bad = (obj: Record<string, unknown>): string => {
      try {
        structToPropertyMap(engineStruct(obj), "news");
      } catch (e) {
        expect(e).toBeInstanceOf(StructDecodeError);
        return (e as Error).message;
      }
      throw new Error("did not throw");
    };
    expect(bad({ a: { b: { [SIG_KEY]: SECRET_SIG } } })).toMatch(/secret: it has no value \(at news\.a\.b\)/);
    expect(bad({ x: [{ [SIG_KEY]: "nope" }] })).toMatch(/unrecognized signature "nope".*news\.x\[0\]/);
    expect(bad({ r: { [SIG_KEY]: RESOURCE_REFERENCE_SIG } })).toMatch(/urn is missing/);
    expect(bad({ o: { [SIG_KEY]: OUTPUT_VALUE_SIG, secret: "yes" } })).toMatch(/secret is not a bool/);
    expect(bad({ o: { [SIG_KEY]: OUTPUT_VALUE_SIG, dependencies: [1] } })).toMatch(/dependency is not a string/);
  });

  it("keeps a __proto__ key as data", () => {
    const m = structToPropertyMap(overTheWire({ fields: JSON.parse('{"__proto__": {"stringValue": "x"}}') }));
    expect(Object.keys(m)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });
});

describe("property values → Struct", () => {
  it("writes special values with the signatures the engine reads", () => {
    const s = propertyMapToStruct({
      u: COMPUTED,
      s: new Secret("pw"),
      o: new OutputValue(undefined, true, ["urn:x"]),
      r: new ResourceReference("urn:r", COMPUTED, "1.2.3"),
    });
    const f = s.fields!;
    expect(f["u"]).toEqual({ stringValue: UNKNOWN_STRING });
    expect(f["s"]!.structValue!.fields![SIG_KEY]).toEqual({ stringValue: SECRET_SIG });
    expect(Object.keys(f["o"]!.structValue!.fields!).sort()).toEqual([SIG_KEY, "dependencies", "secret"].sort());
    // An unknown reference id is written as "", as the engine writes it.
    expect(f["r"]!.structValue!.fields!["id"]).toEqual({ stringValue: "" });
  });

  it("drops undefined entries instead of failing", () => {
    expect(propertyMapToStruct({ a: 1, b: undefined as unknown as PropertyValue }).fields).toEqual({ a: { numberValue: 1 } });
  });
});

describe("round trips through protobuf bytes", () => {
  const leaf: fc.Arbitrary<PropertyValue> = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.string().filter((s) => s !== UNKNOWN_STRING),
    fc.constant(COMPUTED),
  );
  const value: fc.Arbitrary<PropertyValue> = fc.letrec<{ v: PropertyValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie("v"), { maxKeys: 4 }),
      tie("v").map((v) => new Secret(v)),
      fc.tuple(fc.option(tie("v"), { nil: undefined }), fc.boolean(), fc.array(fc.string({ minLength: 1 }), { maxLength: 2 })).map(
        ([v, secret, deps]) => new OutputValue(v instanceof Object && v === COMPUTED ? undefined : v, secret, deps),
      ),
      fc.tuple(fc.string({ minLength: 1 }), fc.option(fc.oneof(fc.string({ minLength: 1 }).filter((s) => s !== UNKNOWN_STRING), fc.constant(COMPUTED)), { nil: undefined }), fc.string()).map(
        ([urn, id, version]) => new ResourceReference(urn, id, version),
      ),
      fc.record({ hash: fc.string(), text: fc.string() }).map((f) => new AssetOrArchive("asset", f)),
    ),
  })).v;

  it("decode(encode(v)) == v for every property value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 5 }), (m) => {
        expect(roundTrip(m)).toEqual(m);
      }),
      { numRuns: 300 },
    );
  });
});

describe("deep values", () => {
  const nested = (depth: number, lists: boolean): Record<string, unknown> => {
    let v: unknown = "bottom";
    for (let i = 0; i < depth; i++) v = lists ? [v] : { a: v };
    return { top: v };
  };

  it.each([false, true])("arrive over the wire and decode up to MAX_VALUE_DEPTH levels (lists: %s)", (lists) => {
    // The top property is level 1, so 511 more levels reach the limit exactly.
    const decoded = structToPropertyMap(engineStruct(nested(511, lists)));
    let v: PropertyValue | undefined = decoded["top"];
    let depth = 0;
    while (v !== "bottom") {
      v = Array.isArray(v) ? v[0] : (v as PropertyMap)["a"];
      depth++;
    }
    expect(depth).toBe(511);
  });

  it.each([512, 5_000])("deeper ones are refused with where, not a stack overflow (%i levels)", (depth) => {
    // Built in memory as decoded messages look: protobufjs's own limit is for messages off the wire.
    let v: unknown = { kind: "stringValue", stringValue: "bottom" };
    for (let i = 0; i < depth; i++) v = { kind: "structValue", structValue: { fields: { a: v } } };
    const s = { fields: { top: v } } as PbStruct;
    let err: unknown;
    try {
      structToPropertyMap(s);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StructDecodeError);
    expect((err as Error).message).toMatch(/^the value is nested more than 512 levels deep \(at top\.a\.a\.a/);
  });
});
