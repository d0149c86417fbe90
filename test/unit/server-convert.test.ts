// Table tests of every pulumirpc converter (src/server/messages.ts): nil, zero and per-field cases, through real bytes.
import { describe, expect, it } from "vitest";
import { Secret } from "../../src/bridge/property-value.js";
import * as convert from "../../src/server/messages.js";
import type * as ops from "../../src/server/ops.js";
import { loadProtos, serviceOf } from "../../src/wire/proto.js";
import { propertyMapToStruct } from "../../src/server/struct.js";
import type * as pb from "../../src/wire/pulumirpc.gen.js";

type Rp = pb.ResourceProviderMethods;
const service = serviceOf(loadProtos(["pulumi/provider.proto"]), "pulumirpc.ResourceProvider");

/** A request as the engine sends it: encoded, then decoded the way the server decodes it. */
function request<M extends keyof Rp>(method: M, message: Rp[M]["requestIn"]): Rp[M]["request"] {
  const def = service[method]!;
  return def.requestDeserialize(def.requestSerialize(message)) as Rp[M]["request"];
}

/** A response as the engine receives it: what the converter produced, encoded and decoded. */
function response<M extends keyof Rp>(method: M, message: Rp[M]["responseIn"]): Rp[M]["response"] {
  const def = service[method]!;
  return def.responseDeserialize(def.responseSerialize(message)) as Rp[M]["response"];
}

const struct = (m: Record<string, unknown>) => propertyMapToStruct(m as never);

interface DecodeCase<M extends keyof Rp, Out> {
  name: string;
  wire: Rp[M]["requestIn"];
  want: Partial<Out>;
}

/** Runs a decoder's table: every case expects the zero decoding with its own fields changed. */
function decodeTable<M extends keyof Rp, Out>(method: M, decode: (r: Rp[M]["request"]) => Out, zero: Out, cases: DecodeCase<M, Out>[]): void {
  describe(`decode ${method}`, () => {
    it("zero: an empty request decodes to the zero request", () => {
      expect(decode(request(method, {}))).toEqual(zero);
    });
    for (const c of cases) {
      it(c.name, () => {
        expect(decode(request(method, c.wire))).toEqual({ ...zero, ...c.want });
      });
    }
  });
}

interface EncodeCase<M extends keyof Rp, In> {
  name: string;
  result: In;
  want: Partial<Rp[M]["response"]>;
}

function encodeTable<M extends keyof Rp, In>(method: M, encode: (r: In) => Rp[M]["responseIn"], cases: EncodeCase<M, In>[]): void {
  describe(`encode ${method}`, () => {
    const zero = response(method, {});
    for (const c of cases) {
      it(c.name, () => {
        expect(response(method, encode(c.result))).toEqual({ ...zero, ...c.want });
      });
    }
  });
}

const props = { a: "x", n: 1, s: new Secret("p") };
const propsStruct = struct(props);

decodeTable("Check", convert.decodeCheck, { urn: "", name: "", type: "", olds: {}, news: {}, randomSeed: Buffer.alloc(0), oldOutputs: {} }, [
  { name: "nil: absent Structs are empty property maps", wire: { olds: null, news: null, old_outputs: null }, want: {} },
  { name: "urn", wire: { urn: "urn:pulumi:s::p::t::n" }, want: { urn: "urn:pulumi:s::p::t::n" } },
  { name: "name", wire: { name: "n" }, want: { name: "n" } },
  { name: "type", wire: { type: "random:index:RandomPet" }, want: { type: "random:index:RandomPet" } },
  { name: "olds", wire: { olds: propsStruct }, want: { olds: props } },
  { name: "news", wire: { news: propsStruct }, want: { news: props } },
  { name: "randomSeed", wire: { randomSeed: Buffer.from([1, 2]) }, want: { randomSeed: Buffer.from([1, 2]) } },
  { name: "old_outputs", wire: { old_outputs: propsStruct }, want: { oldOutputs: props } },
  { name: "autonaming, zero", wire: { autonaming: {} }, want: { autonaming: { proposedName: "", mode: "propose" } } },
  {
    name: "autonaming, every field",
    wire: { autonaming: { proposed_name: "pet-1", mode: "ENFORCE" } },
    want: { autonaming: { proposedName: "pet-1", mode: "enforce" } },
  },
  { name: "autonaming DISABLE", wire: { autonaming: { mode: "DISABLE" } }, want: { autonaming: { proposedName: "", mode: "disable" } } },
]);

decodeTable("Diff", convert.decodeDiff, { id: "", urn: "", name: "", type: "", olds: {}, news: {}, oldInputs: {}, ignoreChanges: [] }, [
  { name: "nil", wire: { olds: null, news: null, old_inputs: null }, want: {} },
  { name: "id", wire: { id: "i-1" }, want: { id: "i-1" } },
  { name: "urn", wire: { urn: "u" }, want: { urn: "u" } },
  { name: "name", wire: { name: "n" }, want: { name: "n" } },
  { name: "type", wire: { type: "t" }, want: { type: "t" } },
  { name: "olds", wire: { olds: propsStruct }, want: { olds: props } },
  { name: "news", wire: { news: propsStruct }, want: { news: props } },
  { name: "old_inputs", wire: { old_inputs: propsStruct }, want: { oldInputs: props } },
  { name: "ignoreChanges", wire: { ignoreChanges: ["a", "b.c"] }, want: { ignoreChanges: ["a", "b.c"] } },
]);

decodeTable(
  "Configure",
  convert.decodeConfigure,
  { args: {}, acceptSecrets: false, acceptResources: false, sendsOldInputs: false, sendsOldInputsToDelete: false },
  [
    { name: "nil", wire: { args: null }, want: {} },
    { name: "args", wire: { args: propsStruct }, want: { args: props } },
    { name: "acceptSecrets", wire: { acceptSecrets: true }, want: { acceptSecrets: true } },
    { name: "acceptResources", wire: { acceptResources: true }, want: { acceptResources: true } },
    { name: "sends_old_inputs", wire: { sends_old_inputs: true }, want: { sendsOldInputs: true } },
    { name: "sends_old_inputs_to_delete", wire: { sends_old_inputs_to_delete: true }, want: { sendsOldInputsToDelete: true } },
    { name: "id", wire: { id: "i" }, want: { id: "i" } },
    { name: "urn", wire: { urn: "u" }, want: { urn: "u" } },
    { name: "name", wire: { name: "n" }, want: { name: "n" } },
    { name: "type", wire: { type: "t" }, want: { type: "t" } },
    { name: "optional fields sent empty are not sent", wire: { id: "", urn: "", name: "", type: "" }, want: {} },
  ],
);

const step = { urn: "", name: "", type: "", timeout: 0 };
/** The fields every step request (Create, Read, Update, Delete) has. */
const stepCases: { name: string; wire: { urn?: string; name?: string; type?: string; timeout?: number }; want: Partial<typeof step> }[] = [
  { name: "urn", wire: { urn: "u" }, want: { urn: "u" } },
  { name: "name", wire: { name: "n" }, want: { name: "n" } },
  { name: "type", wire: { type: "t" }, want: { type: "t" } },
  { name: "timeout", wire: { timeout: 90 }, want: { timeout: 90 } },
];

decodeTable<"Create", ops.CreateRequest>("Create", convert.decodeCreate, { ...step, properties: {}, preview: false }, [
  ...stepCases,
  { name: "nil", wire: { properties: null }, want: {} },
  { name: "properties", wire: { properties: propsStruct }, want: { properties: props } },
  { name: "preview", wire: { preview: true }, want: { preview: true } },
]);

decodeTable<"Read", ops.ReadRequest>("Read", convert.decodeRead, { ...step, id: "", properties: {}, inputs: {} }, [
  ...stepCases,
  { name: "nil", wire: { properties: null, inputs: null }, want: {} },
  { name: "id", wire: { id: "i" }, want: { id: "i" } },
  { name: "properties", wire: { properties: propsStruct }, want: { properties: props } },
  { name: "inputs", wire: { inputs: propsStruct }, want: { inputs: props } },
]);

decodeTable<"Update", ops.UpdateRequest>("Update", convert.decodeUpdate, { ...step, id: "", olds: {}, news: {}, oldInputs: {}, ignoreChanges: [], preview: false }, [
  ...stepCases,
  { name: "nil", wire: { olds: null, news: null, old_inputs: null }, want: {} },
  { name: "id", wire: { id: "i" }, want: { id: "i" } },
  { name: "olds", wire: { olds: propsStruct }, want: { olds: props } },
  { name: "news", wire: { news: propsStruct }, want: { news: props } },
  { name: "old_inputs", wire: { old_inputs: propsStruct }, want: { oldInputs: props } },
  { name: "ignoreChanges", wire: { ignoreChanges: ["x"] }, want: { ignoreChanges: ["x"] } },
  { name: "preview", wire: { preview: true }, want: { preview: true } },
]);

decodeTable<"Delete", ops.DeleteRequest>("Delete", convert.decodeDelete, { ...step, id: "", properties: {}, oldInputs: {} }, [
  ...stepCases,
  { name: "nil", wire: { properties: null, old_inputs: null }, want: {} },
  { name: "id", wire: { id: "i" }, want: { id: "i" } },
  { name: "properties", wire: { properties: propsStruct }, want: { properties: props } },
  { name: "old_inputs", wire: { old_inputs: propsStruct }, want: { oldInputs: props } },
]);

decodeTable("Invoke", convert.decodeInvoke, { token: "", args: {}, preview: false }, [
  { name: "nil", wire: { args: null }, want: {} },
  { name: "tok", wire: { tok: "random:index:getThing" }, want: { token: "random:index:getThing" } },
  { name: "args", wire: { args: propsStruct }, want: { args: props } },
  { name: "preview", wire: { preview: true }, want: { preview: true } },
]);

decodeTable(
  "Call",
  convert.decodeCall,
  {
    token: "",
    args: {},
    argDependencies: {},
    project: "",
    stack: "",
    config: {},
    configSecretKeys: [],
    dryRun: false,
    parallel: 0,
    monitorEndpoint: "",
    organization: "",
    acceptsOutputValues: false,
  },
  [
    { name: "nil", wire: { args: null }, want: {} },
    { name: "tok", wire: { tok: "pkg:index:Provider/terraformConfig" }, want: { token: "pkg:index:Provider/terraformConfig" } },
    { name: "args", wire: { args: propsStruct }, want: { args: props } },
    { name: "argDependencies", wire: { argDependencies: { a: { urns: ["u1", "u2"] }, b: {} } }, want: { argDependencies: { a: ["u1", "u2"], b: [] } } },
    { name: "project", wire: { project: "p" }, want: { project: "p" } },
    { name: "stack", wire: { stack: "s" }, want: { stack: "s" } },
    { name: "config", wire: { config: { "p:k": "v" } }, want: { config: { "p:k": "v" } } },
    { name: "configSecretKeys", wire: { configSecretKeys: ["p:k"] }, want: { configSecretKeys: ["p:k"] } },
    { name: "dryRun", wire: { dryRun: true }, want: { dryRun: true } },
    { name: "parallel", wire: { parallel: 4 }, want: { parallel: 4 } },
    { name: "monitorEndpoint", wire: { monitorEndpoint: "127.0.0.1:1" }, want: { monitorEndpoint: "127.0.0.1:1" } },
    { name: "organization", wire: { organization: "o" }, want: { organization: "o" } },
    { name: "accepts_output_values", wire: { accepts_output_values: true }, want: { acceptsOutputValues: true } },
  ],
);

const propsDecoded = response("Create", { properties: propsStruct }).properties;

encodeTable("Check", convert.encodeCheck, [
  { name: "zero", result: { inputs: {}, failures: [] }, want: { inputs: { fields: {} } } },
  { name: "inputs", result: { inputs: props, failures: [] }, want: { inputs: propsDecoded } },
  {
    name: "failures",
    result: { inputs: {}, failures: [{ property: "length", reason: "must be positive" }] },
    want: { inputs: { fields: {} }, failures: [{ property: "length", reason: "must be positive" }] },
  },
]);

const zeroDiff = { changes: "unknown", replaces: [], stables: [], deleteBeforeReplace: false, diffs: [] } as const;
encodeTable("Diff", convert.encodeDiff, [
  { name: "zero: no detailed diff", result: { ...zeroDiff, replaces: [], stables: [], diffs: [] }, want: {} },
  { name: "changes none", result: { ...zeroDiff, replaces: [], stables: [], diffs: [], changes: "none" }, want: { changes: "DIFF_NONE" } },
  { name: "changes some", result: { ...zeroDiff, replaces: [], stables: [], diffs: [], changes: "some" }, want: { changes: "DIFF_SOME" } },
  { name: "replaces", result: { ...zeroDiff, replaces: ["a"], stables: [], diffs: [] }, want: { replaces: ["a"] } },
  { name: "stables", result: { ...zeroDiff, replaces: [], stables: ["b"], diffs: [] }, want: { stables: ["b"] } },
  { name: "deleteBeforeReplace", result: { ...zeroDiff, replaces: [], stables: [], diffs: [], deleteBeforeReplace: true }, want: { deleteBeforeReplace: true } },
  { name: "diffs", result: { ...zeroDiff, replaces: [], stables: [], diffs: ["c"] }, want: { diffs: ["c"] } },
  { name: "detailedDiff, empty", result: { ...zeroDiff, replaces: [], stables: [], diffs: [], detailedDiff: {} }, want: { hasDetailedDiff: true } },
  {
    name: "detailedDiff, every kind",
    result: {
      ...zeroDiff,
      replaces: [],
      stables: [],
      diffs: [],
      detailedDiff: {
        a: { kind: "add", inputDiff: true },
        b: { kind: "add-replace", inputDiff: false },
        c: { kind: "delete", inputDiff: false },
        d: { kind: "delete-replace", inputDiff: false },
        e: { kind: "update", inputDiff: false },
        f: { kind: "update-replace", inputDiff: true },
      },
    },
    want: {
      hasDetailedDiff: true,
      detailedDiff: {
        a: { kind: "ADD", inputDiff: true },
        b: { kind: "ADD_REPLACE", inputDiff: false },
        c: { kind: "DELETE", inputDiff: false },
        d: { kind: "DELETE_REPLACE", inputDiff: false },
        e: { kind: "UPDATE", inputDiff: false },
        f: { kind: "UPDATE_REPLACE", inputDiff: true },
      },
    },
  },
]);

const zeroConfigure = { acceptSecrets: false, supportsPreview: false, acceptResources: false, acceptOutputs: false, supportsAutonamingConfiguration: false };
encodeTable("Configure", convert.encodeConfigure, [
  { name: "zero", result: zeroConfigure, want: {} },
  { name: "acceptSecrets", result: { ...zeroConfigure, acceptSecrets: true }, want: { acceptSecrets: true } },
  { name: "supportsPreview", result: { ...zeroConfigure, supportsPreview: true }, want: { supportsPreview: true } },
  { name: "acceptResources", result: { ...zeroConfigure, acceptResources: true }, want: { acceptResources: true } },
  { name: "acceptOutputs", result: { ...zeroConfigure, acceptOutputs: true }, want: { acceptOutputs: true } },
  {
    name: "supportsAutonamingConfiguration",
    result: { ...zeroConfigure, supportsAutonamingConfiguration: true },
    want: { supports_autonaming_configuration: true },
  },
]);

encodeTable("Create", convert.encodeCreate, [
  { name: "zero", result: { id: "", properties: {} }, want: { properties: { fields: {} } } },
  { name: "id", result: { id: "i", properties: {} }, want: { id: "i", properties: { fields: {} } } },
  { name: "properties", result: { id: "", properties: props }, want: { properties: propsDecoded } },
  { name: "refreshBeforeUpdate", result: { id: "", properties: {}, refreshBeforeUpdate: true }, want: { properties: { fields: {} }, refresh_before_update: true } },
]);

encodeTable("Read", convert.encodeRead, [
  { name: "zero", result: { id: "", properties: {}, inputs: {} }, want: { properties: { fields: {} }, inputs: { fields: {} } } },
  { name: "id", result: { id: "i", properties: {}, inputs: {} }, want: { id: "i", properties: { fields: {} }, inputs: { fields: {} } } },
  { name: "properties", result: { id: "", properties: props, inputs: {} }, want: { properties: propsDecoded, inputs: { fields: {} } } },
  { name: "inputs", result: { id: "", properties: {}, inputs: props }, want: { properties: { fields: {} }, inputs: propsDecoded } },
  {
    name: "refreshBeforeUpdate",
    result: { id: "", properties: {}, inputs: {}, refreshBeforeUpdate: true },
    want: { properties: { fields: {} }, inputs: { fields: {} }, refresh_before_update: true },
  },
]);

encodeTable("Update", convert.encodeUpdate, [
  { name: "zero", result: { properties: {} }, want: { properties: { fields: {} } } },
  { name: "properties", result: { properties: props }, want: { properties: propsDecoded } },
  { name: "refreshBeforeUpdate", result: { properties: {}, refreshBeforeUpdate: true }, want: { properties: { fields: {} }, refresh_before_update: true } },
]);

encodeTable("Delete", convert.encodeEmpty, [{ name: "zero", result: undefined, want: {} }]);

encodeTable("Invoke", convert.encodeInvoke, [
  { name: "nil: no return", result: { failures: [] }, want: {} },
  { name: "zero return", result: { return: {}, failures: [] }, want: { return: { fields: {} } } },
  { name: "return", result: { return: props, failures: [] }, want: { return: propsDecoded } },
  { name: "failures", result: { failures: [{ property: "p", reason: "r" }] }, want: { failures: [{ property: "p", reason: "r" }] } },
]);

encodeTable("Call", convert.encodeCall, [
  { name: "nil: no return", result: { returnDependencies: {}, failures: [] }, want: {} },
  { name: "return", result: { return: props, returnDependencies: {}, failures: [] }, want: { return: propsDecoded } },
  {
    name: "returnDependencies",
    result: { returnDependencies: { a: ["u1"], b: [] }, failures: [] },
    want: { returnDependencies: { a: { urns: ["u1"] }, b: { urns: [] } } },
  },
  { name: "failures", result: { returnDependencies: {}, failures: [{ property: "p", reason: "r" }] }, want: { failures: [{ property: "p", reason: "r" }] } },
]);
