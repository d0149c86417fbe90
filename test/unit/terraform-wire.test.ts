// Table tests of every tfplugin converter (src/terraform/wire.ts): nil, zero and per-field cases, through real bytes.
import { describe, expect, it } from "vitest";
import { CtyNumber, CtyString, object, type CtyValue } from "../../src/terraform/cty/index.js";
import {
  deferredFromPb,
  diagnosticsFromPb,
  fromDynamic,
  functionErrorFromPb,
  functionFromPb,
  identityFromPb,
  identitySchemasFromPb,
  identityToPb,
  pathFromPb,
  providerSchemaFromPb,
  schemaFromPb,
  timestampFromPb,
  toDynamic,
} from "../../src/terraform/wire.js";
import { encodeMessage, protoRoot } from "../../src/wire/proto.js";
import type { Lean } from "../../src/wire/shape.js";
import type * as tf6 from "../../src/wire/tfplugin6.gen.js";
import type * as tf5 from "../../src/wire/tfplugin5.gen.js";

const tf6Root = protoRoot(["tfplugin6/tfplugin6.proto"]);
const tf5Root = protoRoot(["tfplugin5/tfplugin5.proto"]);

/** A message as a provider sends it: encoded, then decoded as src/wire/proto.ts decodes (lean: without defaults). */
function wire<T>(root: typeof tf6Root, type: string, message: object, lean = false): T {
  const t = root.lookupType(type);
  return t.toObject(t.decode(encodeMessage(t, message)), { longs: String, enums: String, defaults: !lean, oneofs: true }) as T;
}
const tf6Msg = <T>(type: string, message: object, lean = false) => wire<Lean<T>>(tf6Root, `tfplugin6.${type}`, message, lean);

const str = Buffer.from('"string"');
const num = Buffer.from('"number"');

describe("pathFromPb", () => {
  const cases: [string, tf6.AttributePathIn | null | undefined, ReturnType<typeof pathFromPb>][] = [
    ["nil", null, undefined],
    ["absent", undefined, undefined],
    ["zero: no steps", {}, undefined],
    ["attribute_name", { steps: [{ attribute_name: "tags" }] }, [{ attribute: "tags" }]],
    ["element_key_string", { steps: [{ element_key_string: "k" }] }, [{ key: "k" }]],
    ["element_key_int (int64 as a string)", { steps: [{ element_key_int: 3 }] }, [{ index: 3 }]],
    ["element_key_int zero", { steps: [{ element_key_int: 0 }] }, [{ index: 0 }]],
    ["mixed", { steps: [{ attribute_name: "a" }, { element_key_int: 1 }, { attribute_name: "b" }] }, [{ attribute: "a" }, { index: 1 }, { attribute: "b" }]],
  ];
  for (const [name, message, want] of cases) {
    it(name, () => {
      const decoded = message ? tf6Msg<tf6.AttributePath>("AttributePath", message) : message;
      expect(pathFromPb(decoded)).toEqual(want);
    });
  }
});

describe("diagnosticsFromPb", () => {
  const cases: [string, tf6.DiagnosticIn[] | undefined, ReturnType<typeof diagnosticsFromPb>][] = [
    ["nil", undefined, []],
    ["zero diagnostic: an error without text", [{}], [{ severity: "error", summary: "", detail: "" }]],
    ["severity WARNING", [{ severity: "WARNING" }], [{ severity: "warning", summary: "", detail: "" }]],
    ["severity ERROR", [{ severity: "ERROR" }], [{ severity: "error", summary: "", detail: "" }]],
    ["summary", [{ summary: "s" }], [{ severity: "error", summary: "s", detail: "" }]],
    ["detail", [{ detail: "d" }], [{ severity: "error", summary: "", detail: "d" }]],
    ["attribute", [{ attribute: { steps: [{ attribute_name: "x" }] } }], [{ severity: "error", summary: "", detail: "", attribute: [{ attribute: "x" }] }]],
  ];
  for (const [name, ds, want] of cases) {
    it(name, () => {
      const decoded = ds === undefined ? undefined : tf6Msg<tf6.ValidateResourceConfig_Response>("ValidateResourceConfig.Response", { diagnostics: ds }).diagnostics;
      expect(diagnosticsFromPb(decoded)).toEqual(want);
    });
  }
});

describe("functionErrorFromPb", () => {
  const cases: [string, tf6.FunctionErrorIn | null, ReturnType<typeof functionErrorFromPb>][] = [
    ["nil", null, undefined],
    ["zero", {}, { text: "" }],
    ["text", { text: "bad" }, { text: "bad" }],
    ["function_argument (proto3 optional int64)", { function_argument: 2 }, { text: "", argument: 2 }],
    ["function_argument zero, set", { function_argument: 0 }, { text: "", argument: 0 }],
  ];
  for (const [name, message, want] of cases) {
    it(name, () => {
      const decoded = message === null ? null : tf6Msg<tf6.FunctionError>("FunctionError", message);
      expect(functionErrorFromPb(decoded)).toEqual(want);
    });
  }
});

describe("deferredFromPb", () => {
  const cases: [string, tf6.DeferredIn | null, ReturnType<typeof deferredFromPb>][] = [
    ["nil", null, undefined],
    ["zero", {}, "unknown"],
    ["RESOURCE_CONFIG_UNKNOWN", { reason: "RESOURCE_CONFIG_UNKNOWN" }, "resource_config_unknown"],
    ["PROVIDER_CONFIG_UNKNOWN", { reason: "PROVIDER_CONFIG_UNKNOWN" }, "provider_config_unknown"],
    ["ABSENT_PREREQ", { reason: "ABSENT_PREREQ" }, "absent_prereq"],
  ];
  for (const [name, message, want] of cases) {
    it(name, () => expect(deferredFromPb(message === null ? null : tf6Msg<tf6.Deferred>("Deferred", message))).toEqual(want));
  }
});

describe("timestampFromPb", () => {
  const T = tf6Root.lookupType("google.protobuf.Timestamp");
  const decode = (m: object) => T.toObject(T.decode(encodeMessage(T, m)), { longs: String, defaults: true }) as Lean<import("../../src/wire/google.protobuf.gen.js").Timestamp>;
  const cases: [string, object | null, Date | undefined][] = [
    ["nil", null, undefined],
    ["zero: no time", {}, undefined],
    ["seconds", { seconds: 1_700_000_000 }, new Date(1_700_000_000_000)],
    ["nanos", { seconds: 1, nanos: 500_000_000 }, new Date(1_500)],
  ];
  for (const [name, message, want] of cases) it(name, () => expect(timestampFromPb(message === null ? null : decode(message))).toEqual(want));
});

describe("toDynamic / fromDynamic", () => {
  const t = object({ a: CtyString, n: CtyNumber });
  it("nil decodes to null", () => expect(fromDynamic(null, t)).toBeNull());
  it("zero (neither msgpack nor json) decodes to null", () => expect(fromDynamic(tf6Msg<tf6.DynamicValue>("DynamicValue", {}), t)).toBeNull());
  it("msgpack round-trips", () => {
    const v: CtyValue = { a: "x", n: 1 };
    expect(fromDynamic(tf6Msg<tf6.DynamicValue>("DynamicValue", toDynamic(v, t)), t)).toEqual({ a: "x", n: 1 });
  });
  it("json decodes", () => {
    expect(fromDynamic(tf6Msg<tf6.DynamicValue>("DynamicValue", { json: Buffer.from('{"a":"y","n":2}') }), t)).toEqual({ a: "y", n: 2 });
  });
});

describe("identityToPb / identityFromPb", () => {
  const t = object({ id: CtyString });
  it("nil value or type: no identity sent", () => {
    expect(identityToPb(undefined, t)).toBeUndefined();
    expect(identityToPb({ id: "x" }, undefined)).toBeUndefined();
  });
  it("nil, zero and type-less responses: no identity", () => {
    expect(identityFromPb(null, t)).toBeUndefined();
    expect(identityFromPb(tf6Msg<tf6.ResourceIdentityData>("ResourceIdentityData", {}), t)).toBeUndefined();
    expect(identityFromPb(tf6Msg<tf6.ResourceIdentityData>("ResourceIdentityData", identityToPb({ id: "x" }, t)!), undefined)).toBeUndefined();
  });
  it("identity_data round-trips", () => {
    expect(identityFromPb(tf6Msg<tf6.ResourceIdentityData>("ResourceIdentityData", identityToPb({ id: "x" }, t)!), t)).toEqual({ id: "x" });
  });
});

describe("schemaFromPb", () => {
  const zeroBlock = { attributes: [], blockTypes: [], description: "", descriptionKind: "plain", deprecated: false, deprecationMessage: "" };
  const zeroAttr = {
    name: "",
    type: undefined,
    nestedType: undefined,
    description: "",
    descriptionKind: "plain",
    required: false,
    optional: false,
    computed: false,
    sensitive: false,
    deprecated: false,
    deprecationMessage: "",
    writeOnly: false,
  };
  const attr = (a: tf6.Schema_AttributeIn) => schemaFromPb(tf6Msg<tf6.Schema>("Schema", { block: { attributes: [a] } }, true)).block.attributes[0];
  it("nil: version 0, empty block", () => expect(schemaFromPb(null)).toEqual({ version: 0, block: zeroBlock }));
  it("zero", () => expect(schemaFromPb(tf6Msg<tf6.Schema>("Schema", {}, true))).toEqual({ version: 0, block: zeroBlock }));
  it("version (int64)", () => expect(schemaFromPb(tf6Msg<tf6.Schema>("Schema", { version: 3 }, true)).version).toBe(3));
  it("block description, kind, deprecation", () => {
    const b = schemaFromPb(tf6Msg<tf6.Schema>("Schema", { block: { description: "d", description_kind: "MARKDOWN", deprecated: true, deprecation_message: "m" } }, true)).block;
    expect(b).toEqual({ ...zeroBlock, description: "d", descriptionKind: "markdown", deprecated: true, deprecationMessage: "m" });
  });
  const attrCases: [string, tf6.Schema_AttributeIn, object][] = [
    ["zero attribute", {}, {}],
    ["name", { name: "n" }, { name: "n" }],
    ["type", { type: str }, { type: CtyString }],
    ["description", { description: "d" }, { description: "d" }],
    ["description_kind", { description_kind: "MARKDOWN" }, { descriptionKind: "markdown" }],
    ["required", { required: true }, { required: true }],
    ["optional", { optional: true }, { optional: true }],
    ["computed", { computed: true }, { computed: true }],
    ["sensitive", { sensitive: true }, { sensitive: true }],
    ["deprecated", { deprecated: true }, { deprecated: true }],
    ["deprecation_message", { deprecation_message: "m" }, { deprecationMessage: "m" }],
    ["write_only", { write_only: true }, { writeOnly: true }],
    [
      "nested_type",
      { nested_type: { nesting: "LIST", attributes: [{ name: "x", type: num }] } },
      { nestedType: { nesting: "list", attributes: [{ ...zeroAttr, name: "x", type: CtyNumber }] } },
    ],
  ];
  for (const [name, a, want] of attrCases) it(`attribute ${name}`, () => expect(attr(a)).toEqual({ ...zeroAttr, ...want }));
  it("nested block: every field", () => {
    const s = schemaFromPb(tf6Msg<tf6.Schema>("Schema", { block: { block_types: [{ type_name: "rule", nesting: "SET", min_items: 1, max_items: 5, block: {} }] } }, true));
    expect(s.block.blockTypes).toEqual([{ typeName: "rule", nesting: "set", minItems: 1, maxItems: 5, block: zeroBlock }]);
  });
  it("nested block without a nesting mode is refused, naming the block", () => {
    expect(() => schemaFromPb(tf6Msg<tf6.Schema>("Schema", { block: { block_types: [{ type_name: "rule" }] } }, true))).toThrow(/block rule with nesting mode/);
  });
});

describe("functionFromPb", () => {
  const zero = { parameters: [], variadicParameter: undefined, returnType: undefined, summary: "", description: "", descriptionKind: "plain", deprecationMessage: "" };
  it("zero: dynamic return", () => {
    const f = functionFromPb(tf6Msg<tf6.Function>("Function", {}, true));
    expect({ ...f, returnType: undefined }).toEqual(zero);
    expect(f.returnType).toEqual(functionFromPb({}).returnType);
  });
  const cases: [string, tf6.FunctionIn, object][] = [
    ["return", { return: { type: str } }, { returnType: CtyString }],
    ["summary", { summary: "s" }, { summary: "s" }],
    ["description", { description: "d", description_kind: "MARKDOWN" }, { description: "d", descriptionKind: "markdown" }],
    ["deprecation_message", { deprecation_message: "m" }, { deprecationMessage: "m" }],
    [
      "parameters, every field",
      { parameters: [{ name: "p", type: num, allow_null_value: true, allow_unknown_values: true, description: "d", description_kind: "MARKDOWN" }] },
      { parameters: [{ name: "p", type: CtyNumber, allowNullValue: true, allowUnknownValues: true, description: "d", descriptionKind: "markdown" }] },
    ],
    [
      "variadic_parameter",
      { variadic_parameter: { name: "rest", type: str } },
      { variadicParameter: { name: "rest", type: CtyString, allowNullValue: false, allowUnknownValues: false, description: "", descriptionKind: "plain" } },
    ],
  ];
  for (const [name, message, want] of cases) {
    it(name, () => {
      const f = functionFromPb(tf6Msg<tf6.Function>("Function", { return: { type: str }, ...message }, true));
      expect(f).toEqual({ ...zero, returnType: CtyString, ...want });
    });
  }
});

describe("providerSchemaFromPb", () => {
  it("zero: empty maps, no capabilities, no diagnostics", () => {
    const s = providerSchemaFromPb(tf6Msg<tf6.GetProviderSchema_Response>("GetProviderSchema.Response", {}, true));
    expect(s.providerMeta).toBeUndefined();
    expect([s.resources.size, s.dataSources.size, s.ephemeralResources.size, s.functions.size, s.diagnostics.length]).toEqual([0, 0, 0, 0, 0]);
    expect(s.serverCapabilities).toEqual({ planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false, generateResourceConfig: false });
  });
  it("every field", () => {
    const s = providerSchemaFromPb(
      tf6Msg<tf6.GetProviderSchema_Response>(
        "GetProviderSchema.Response",
        {
          provider: { version: 1 },
          provider_meta: { version: 2 },
          resource_schemas: { b_res: { version: 3 }, a_res: {} },
          data_source_schemas: { d: {} },
          ephemeral_resource_schemas: { e: {} },
          functions: { f: { return: { type: str } } },
          diagnostics: [{ severity: "WARNING", summary: "w" }],
          server_capabilities: { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: true, generate_resource_config: true },
        },
        true,
      ),
    );
    expect(s.provider.version).toBe(1);
    expect(s.providerMeta?.version).toBe(2);
    expect([...s.resources.keys()]).toEqual(["a_res", "b_res"]);
    expect(s.resources.get("b_res")?.version).toBe(3);
    expect([...s.dataSources.keys(), ...s.ephemeralResources.keys(), ...s.functions.keys()]).toEqual(["d", "e", "f"]);
    expect(s.diagnostics).toEqual([{ severity: "warning", summary: "w", detail: "" }]);
    expect(s.serverCapabilities).toEqual({ planDestroy: true, getProviderSchemaOptional: true, moveResourceState: true, generateResourceConfig: true });
  });
  it("reads a tfplugin5 response the same way", () => {
    const r = wire<tf5.GetProviderSchema_Response>(tf5Root, "tfplugin5.GetProviderSchema.Response", { resource_schemas: { r: { version: 4 } } }, true);
    expect(providerSchemaFromPb(r).resources.get("r")?.version).toBe(4);
  });
});

describe("identitySchemasFromPb", () => {
  it("zero: none", () => {
    expect(identitySchemasFromPb(tf6Msg<tf6.GetResourceIdentitySchemas_Response>("GetResourceIdentitySchemas.Response", {})).size).toBe(0);
  });
  it("every field, names sorted", () => {
    const m = identitySchemasFromPb(
      tf6Msg<tf6.GetResourceIdentitySchemas_Response>("GetResourceIdentitySchemas.Response", {
        identity_schemas: {
          z: { version: 2, identity_attributes: [{ name: "id", type: str, required_for_import: true, optional_for_import: false, description: "d" }] },
          a: {},
        },
      }),
    );
    expect([...m.keys()]).toEqual(["a", "z"]);
    expect(m.get("a")).toEqual({ version: 0, attributes: [] });
    expect(m.get("z")).toEqual({ version: 2, attributes: [{ name: "id", type: CtyString, requiredForImport: true, optionalForImport: false, description: "d" }] });
  });
});
