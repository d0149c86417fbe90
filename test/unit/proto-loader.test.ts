// src/wire/proto.ts loads the wire definitions with protobufjs directly (no reflection descriptors). Everything else in the
// project was written against @grpc/proto-loader's message shapes; this checks, service by service, that both loaders
// produce the same method paths and streaming flags, and the same bytes and decoded objects for messages that use the
// shapes the code relies on: bytes, 64-bit integers, enums, oneofs, maps, Struct values and defaults.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
import { generatedConstructor, loadProtos, messageConstructor, protoDir, protoRoot, serviceOf } from "../../src/wire/proto.js";

const FILES = {
  "pulumirpc.ResourceProvider": "pulumi/provider.proto",
  "pulumirpc.Engine": "pulumi/engine.proto",
  "tfplugin5.Provider": "tfplugin5/tfplugin5.proto",
  "tfplugin6.Provider": "tfplugin6/tfplugin6.proto",
  "plugin.GRPCController": "go-plugin/grpc_controller.proto",
  "plugin.GRPCStdio": "go-plugin/grpc_stdio.proto",
} as const;

function protoLoaderService(name: string, file: string): grpc.ServiceDefinition {
  const definition = protoLoader.loadSync(join(protoDir(), file), {
    keepCase: true, longs: String, enums: String, defaults: true, oneofs: true, includeDirs: [protoDir()],
  });
  let node: unknown = grpc.loadPackageDefinition(definition);
  for (const part of name.split(".")) node = (node as Record<string, unknown>)[part];
  return (node as grpc.ServiceClientConstructor).service;
}

const services = Object.entries(FILES).map(([name, file]) => ({
  name,
  ours: serviceOf(loadProtos([file]), name),
  theirs: protoLoaderService(name, file),
}));

/** Serializes `value` with one loader, checks the other gives the same bytes, and decodes with both. */
function roundTrip(service: string, method: string, side: "request" | "response", value: object): { ours: object; theirs: object } {
  const s = services.find((x) => x.name === service)!;
  const ours = s.ours[method]!;
  const theirs = s.theirs[method]!;
  const [serO, desO, serT, desT] = side === "request"
    ? [ours.requestSerialize, ours.requestDeserialize, theirs.requestSerialize, theirs.requestDeserialize]
    : [ours.responseSerialize, ours.responseDeserialize, theirs.responseSerialize, theirs.responseDeserialize];
  const bytes = serO(value);
  expect(Buffer.isBuffer(bytes)).toBe(true);
  expect(bytes.equals(serT(value))).toBe(true);
  return { ours: desO(bytes) as object, theirs: desT(bytes) as object };
}

describe("protobufjs service loading matches @grpc/proto-loader", () => {
  it.each(services.map((s) => [s.name, s]))("%s has the same methods, paths and streaming", (_name, s) => {
    expect(Object.keys(s.ours).sort()).toEqual(Object.keys(s.theirs).sort());
    for (const [m, def] of Object.entries(s.theirs)) {
      const mine = s.ours[m]!;
      expect([mine.path, mine.requestStream, mine.responseStream, mine.originalName]).toEqual([def.path, def.requestStream, def.responseStream, def.originalName]);
    }
  });

  it("decodes Struct values, bytes and nested messages alike (pulumirpc CheckRequest)", () => {
    const request = {
      urn: "urn:pulumi:s::p::random:index/id:Id::r",
      olds: { fields: {} },
      news: { fields: { byteLength: { numberValue: 8 }, keepers: { structValue: { fields: { a: { stringValue: "x" }, b: { boolValue: true }, n: { nullValue: "NULL_VALUE" } } } }, list: { listValue: { values: [{ numberValue: 1 }] } } } },
      randomSeed: Buffer.from([1, 2, 3]),
      name: "r",
      type: "random:index/id:Id",
      autonaming: { proposed_name: "r-1234567", mode: "ENFORCE" },
    };
    const { ours, theirs } = roundTrip("pulumirpc.ResourceProvider", "Check", "request", request);
    expect(ours).toEqual(theirs);
    expect((ours as { news: unknown }).news).toMatchObject(request.news);
    expect((ours as { autonaming: { mode: string } }).autonaming.mode).toBe("ENFORCE");
    expect((ours as { randomSeed: Buffer }).randomSeed.equals(request.randomSeed)).toBe(true);
  });

  it("fills defaults, names enums and oneofs alike (tfplugin6 GetProviderSchema response and diagnostics)", () => {
    const response = {
      provider: { version: "3", block: { attributes: [{ name: "a", type: Buffer.from('"string"'), optional: true }] } },
      resource_schemas: { x_thing: { version: "1", block: { block_types: [{ type_name: "t", nesting: "LIST", block: {} }] } } },
      diagnostics: [{ severity: "WARNING", summary: "s", attribute: { steps: [{ attribute_name: "a" }, { element_key_int: "7" }] } }],
      server_capabilities: { plan_destroy: true },
    };
    const { ours, theirs } = roundTrip("tfplugin6.Provider", "GetProviderSchema", "response", response);
    expect(ours).toEqual(theirs);
    const decoded = ours as { provider: { version: string }; diagnostics: Array<{ severity: string; attribute: { steps: Array<{ selector?: string }> } }> };
    expect(decoded.provider.version).toBe("3");
    expect(decoded.diagnostics[0]!.severity).toBe("WARNING");
    expect(decoded.diagnostics[0]!.attribute.steps.map((s) => s.selector)).toEqual(["attribute_name", "element_key_int"]);
  });

  it("decodes a message with a repeated oneof and msgpack bytes alike (tfplugin5 PlanResourceChange)", () => {
    const response = {
      planned_state: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) },
      requires_replace: [{ steps: [{ attribute_name: "keepers" }, { element_key_string: "k" }] }],
      planned_private: Buffer.from("{}"),
      legacy_type_system: true,
    };
    const { ours, theirs } = roundTrip("tfplugin5.Provider", "PlanResourceChange", "response", response);
    expect(ours).toEqual(theirs);
  });
});

describe("message constructors (src/wire/proto.ts builds them from closures, not generated source)", () => {
  const root = protoRoot(["tfplugin6/tfplugin6.proto"]);
  const types: protobuf.Type[] = [];
  const walk = (ns: protobuf.NamespaceBase): void => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Type) types.push(child);
      if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) walk(child);
    }
  };
  walk(root);

  it("covers every tfplugin6 message, maps and repeated fields among them", () => {
    expect(types.length).toBeGreaterThan(100);
    expect(types.some((t) => t.fieldsArray.some((f) => f.map))).toBe(true);
    expect(types.some((t) => t.fieldsArray.some((f) => f.repeated))).toBe(true);
  });

  it("builds what protobufjs's generated constructor builds, with and without properties", () => {
    let compared = 0;
    for (const type of types) {
      const Ours = messageConstructor(type) as unknown as new (p?: object) => object;
      const Theirs = generatedConstructor(type)() as unknown as new (p?: object) => object;
      // Every field set, every other one to null (left out by both), plus a key protobufjs refuses to copy.
      const props: Record<string, unknown> = {};
      type.fieldsArray.forEach((f, i) => (props[f.name] = i % 2 === 0 ? `v${i}` : null));
      Object.defineProperty(props, "__proto__", { value: "x", enumerable: true });
      const expected: Record<string, unknown> = {};
      for (const f of type.fieldsArray) if (f.map) expected[f.name] = {}; else if (f.repeated) expected[f.name] = [];
      expect({ ...new Ours() }, type.fullName).toEqual(expected);
      expect({ ...new Ours(props) }, type.fullName).toEqual({ ...expected, ...Object.fromEntries(Object.entries(props).filter(([k, v]) => v !== null && k !== "__proto__")) });
      // protobufjs names its generated function after the message, so for a message called Object (tfplugin6.Schema.Object)
      // `Object.keys` inside it is the constructor itself and copying properties throws; ours has no such name clash.
      if (type.name === "Object") continue;
      for (const args of [[], [{}], [props]] as const) expect({ ...new Ours(...args) }, type.fullName).toEqual({ ...new Theirs(...args) });
      compared++;
    }
    expect(compared).toBe(types.length - types.filter((t) => t.name === "Object").length);
  });

  it("is what the loaded types use", () => {
    const type = root.lookupType("tfplugin6.Schema.Block");
    const block = type.create({ version: 3 }) as unknown as Record<string, unknown>;
    expect(block).toMatchObject({ version: 3, attributes: [], block_types: [] });
    expect(type.toObject(type.decode(type.encode(block).finish()), { longs: String, arrays: true })).toEqual({ version: "3", attributes: [], block_types: [] });
  });
});
