// Checks that our hand-written Terraform plugin protocol (tfplugin5 / tfplugin6)
// and go-plugin definitions load with the gRPC toolchain and carry the
// published service, RPC and field-number facts the bridge depends on.
import { describe, it, expect } from "vitest";
import { fileURLToPath } from "node:url";
import path from "node:path";
import * as protoLoader from "@grpc/proto-loader";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";

const PROTO_ROOT = fileURLToPath(new URL("../../proto/", import.meta.url));

const FILES = {
  tfplugin5: path.join(PROTO_ROOT, "tfplugin5", "tfplugin5.proto"),
  tfplugin6: path.join(PROTO_ROOT, "tfplugin6", "tfplugin6.proto"),
  controller: path.join(PROTO_ROOT, "go-plugin", "grpc_controller.proto"),
  stdio: path.join(PROTO_ROOT, "go-plugin", "grpc_stdio.proto"),
  broker: path.join(PROTO_ROOT, "go-plugin", "grpc_broker.proto"),
} as const;

const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [
    PROTO_ROOT,
    path.join(PROTO_ROOT, "tfplugin5"),
    path.join(PROTO_ROOT, "tfplugin6"),
    path.join(PROTO_ROOT, "go-plugin"),
  ],
};

/** Loads one proto file through proto-loader + grpc-js and returns the method names of `serviceName`. */
function serviceMethods(file: string, serviceName: string): string[] {
  const definition = protoLoader.loadSync(file, LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition);
  let node: unknown = loaded;
  for (const part of serviceName.split(".")) {
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  expect(node, `service ${serviceName} should exist`).toBeTypeOf("function");
  const ctor = node as grpc.ServiceClientConstructor;
  expect(ctor.service).toBeDefined();
  return Object.keys(ctor.service);
}

/** Loads a file with protobufjs reflection so that field ids are visible. */
function reflect(file: string): protobuf.Root {
  const root = new protobuf.Root();
  root.loadSync(file, { keepCase: true });
  root.resolveAll();
  return root;
}

/** Maps field name -> field number for a fully-qualified message type. */
function fieldIds(root: protobuf.Root, typeName: string): Record<string, number> {
  const type = root.lookupType(typeName);
  return Object.fromEntries(type.fieldsArray.map((f) => [f.name, f.id]));
}

// RPCs present under the same name in both major versions.
const SHARED_RPCS = [
  "GetMetadata",
  "PlanResourceChange",
  "ApplyResourceChange",
  "ReadResource",
  "ImportResourceState",
  "UpgradeResourceState",
  "ReadDataSource",
  "CallFunction",
  "GetFunctions",
  "MoveResourceState",
  "GetResourceIdentitySchemas",
  "UpgradeResourceIdentity",
  "OpenEphemeralResource",
  "RenewEphemeralResource",
  "CloseEphemeralResource",
  "ListResource",
  "InvokeAction",
];

describe("go-plugin protocol definitions", () => {
  it("defines plugin.GRPCController with Shutdown", () => {
    expect(serviceMethods(FILES.controller, "plugin.GRPCController")).toEqual(["Shutdown"]);
  });

  it("defines plugin.GRPCStdio with a server-streaming StreamStdio", () => {
    expect(serviceMethods(FILES.stdio, "plugin.GRPCStdio")).toEqual(["StreamStdio"]);
    const method = reflect(FILES.stdio).lookupService("plugin.GRPCStdio").methods["StreamStdio"];
    expect(method?.responseStream).toBe(true);
    expect(method?.requestStream).toBeFalsy();
    const root = reflect(FILES.stdio);
    expect(fieldIds(root, "plugin.StdioData")).toEqual({ channel: 1, data: 2 });
    expect(root.lookupEnum("plugin.StdioData.Channel").values).toEqual({ INVALID: 0, STDOUT: 1, STDERR: 2 });
  });

  it("defines plugin.GRPCBroker with a bidirectional StartStream", () => {
    expect(serviceMethods(FILES.broker, "plugin.GRPCBroker")).toEqual(["StartStream"]);
    const root = reflect(FILES.broker);
    const method = root.lookupService("plugin.GRPCBroker").methods["StartStream"];
    expect(method?.requestStream).toBe(true);
    expect(method?.responseStream).toBe(true);
    expect(fieldIds(root, "plugin.ConnInfo")).toEqual({ service_id: 1, network: 2, address: 3, knock: 4 });
    expect(fieldIds(root, "plugin.ConnInfo.Knock")).toEqual({ knock: 1, ack: 2, error: 3 });
  });
});

describe.each([
  {
    pkg: "tfplugin5",
    file: FILES.tfplugin5,
    // Protocol 5 keeps its older RPC names for schema, configure, validation and stop.
    rpcs: ["GetSchema", "Configure", "Stop", "PrepareProviderConfig", "ValidateResourceTypeConfig", "ValidateDataSourceConfig"],
    absent: ["GetProviderSchema", "ConfigureProvider", "StopProvider", "ValidateResourceConfig", "ValidateProviderConfig"],
    writeOnly: 10,
    attributeDeprecationMessage: 11,
  },
  {
    pkg: "tfplugin6",
    file: FILES.tfplugin6,
    rpcs: [
      "GetProviderSchema",
      "ConfigureProvider",
      "StopProvider",
      "ValidateProviderConfig",
      "ValidateResourceConfig",
      "ValidateDataResourceConfig",
      "ReadStateBytes",
      "WriteStateBytes",
    ],
    absent: ["GetSchema", "Configure", "Stop", "PrepareProviderConfig", "ValidateResourceTypeConfig"],
    writeOnly: 11,
    attributeDeprecationMessage: 12,
  },
])("$pkg protocol definition", ({ pkg, file, rpcs, absent, writeOnly, attributeDeprecationMessage }) => {
  const root = reflect(file);

  it(`defines ${pkg}.Provider with the expected RPCs`, () => {
    const methods = serviceMethods(file, `${pkg}.Provider`);
    for (const name of [...SHARED_RPCS, ...rpcs]) expect(methods, name).toContain(name);
    for (const name of absent) expect(methods, name).not.toContain(name);
  });

  it("streams ListResource and InvokeAction responses", () => {
    const methods = root.lookupService(`${pkg}.Provider`).methods;
    expect(methods["ListResource"]?.responseStream).toBe(true);
    expect(methods["InvokeAction"]?.responseStream).toBe(true);
    expect(methods["PlanResourceChange"]?.responseStream).toBeFalsy();
  });

  it("numbers DynamicValue and Diagnostic fields as published", () => {
    expect(fieldIds(root, `${pkg}.DynamicValue`)).toEqual({ msgpack: 1, json: 2 });
    expect(fieldIds(root, `${pkg}.Diagnostic`)).toEqual({ severity: 1, summary: 2, detail: 3, attribute: 4 });
    expect(fieldIds(root, `${pkg}.AttributePath.Step`)).toEqual({
      attribute_name: 1,
      element_key_string: 2,
      element_key_int: 3,
    });
  });

  it("numbers Schema.Attribute fields as published", () => {
    const ids = fieldIds(root, `${pkg}.Schema.Attribute`);
    expect(ids).toMatchObject({
      name: 1,
      type: 2,
      description: 3,
      required: 4,
      optional: 5,
      computed: 6,
      sensitive: 7,
      description_kind: 8,
      deprecated: 9,
      write_only: writeOnly,
      deprecation_message: attributeDeprecationMessage,
    });
    if (pkg === "tfplugin6") expect(ids["nested_type"]).toBe(10);
    else expect(ids["nested_type"]).toBeUndefined();
  });

  it("numbers Schema.Block and ClientCapabilities fields as published (Terraform 1.16's additions in protocol 6 only)", () => {
    const six = pkg === "tfplugin6";
    expect(fieldIds(root, `${pkg}.Schema.Block`)).toEqual({
      version: 1,
      attributes: 2,
      block_types: 3,
      description: 4,
      description_kind: 5,
      deprecated: 6,
      deprecation_message: 7,
      ...(six ? { computed: 8 } : {}),
    });
    expect(fieldIds(root, `${pkg}.ClientCapabilities`)).toEqual({
      deferral_allowed: 1,
      write_only_attributes_allowed: 2,
      ...(six ? { store_planned_private: 3, computed_blocks_allowed: 4 } : {}),
    });
  });

  it("numbers PlanResourceChange fields as published", () => {
    expect(fieldIds(root, `${pkg}.PlanResourceChange.Request`)).toEqual({
      type_name: 1,
      prior_state: 2,
      proposed_new_state: 3,
      config: 4,
      prior_private: 5,
      provider_meta: 6,
      client_capabilities: 7,
      prior_identity: 8,
      // Terraform 1.16's store_planned_private, protocol 6 only.
      ...(pkg === "tfplugin6" ? { planned_private: 9 } : {}),
    });
    expect(fieldIds(root, `${pkg}.PlanResourceChange.Response`)).toEqual({
      planned_state: 1,
      requires_replace: 2,
      planned_private: 3,
      diagnostics: 4,
      legacy_type_system: 5,
      deferred: 6,
      planned_identity: 7,
    });
  });

  it("numbers ApplyResourceChange fields as published", () => {
    expect(fieldIds(root, `${pkg}.ApplyResourceChange.Request`)).toEqual({
      type_name: 1,
      prior_state: 2,
      planned_state: 3,
      config: 4,
      planned_private: 5,
      provider_meta: 6,
      planned_identity: 7,
    });
    expect(fieldIds(root, `${pkg}.ApplyResourceChange.Response`)).toEqual({
      new_state: 1,
      private: 2,
      diagnostics: 3,
      legacy_type_system: 4,
      new_identity: 5,
    });
  });

  it("numbers ReadResource, ImportResourceState and GetProviderSchema fields as published", () => {
    expect(fieldIds(root, `${pkg}.ReadResource.Request`)).toEqual({
      type_name: 1,
      current_state: 2,
      private: 3,
      provider_meta: 4,
      client_capabilities: 5,
      current_identity: 6,
    });
    expect(fieldIds(root, `${pkg}.ImportResourceState.ImportedResource`)).toEqual({
      type_name: 1,
      state: 2,
      private: 3,
      identity: 4,
    });
    expect(fieldIds(root, `${pkg}.GetProviderSchema.Response`)).toMatchObject({
      provider: 1,
      resource_schemas: 2,
      data_source_schemas: 3,
      diagnostics: 4,
      provider_meta: 5,
      server_capabilities: 6,
      functions: 7,
      ephemeral_resource_schemas: 8,
      list_resource_schemas: 9,
      action_schemas: 11,
    });
  });

  it("keeps enum values as published", () => {
    expect(root.lookupEnum(`${pkg}.StringKind`).values).toEqual({ PLAIN: 0, MARKDOWN: 1 });
    expect(root.lookupEnum(`${pkg}.Diagnostic.Severity`).values).toEqual({ INVALID: 0, ERROR: 1, WARNING: 2 });
    expect(root.lookupEnum(`${pkg}.Schema.NestedBlock.NestingMode`).values).toEqual({
      INVALID: 0,
      SINGLE: 1,
      LIST: 2,
      SET: 3,
      MAP: 4,
      GROUP: 5,
    });
    expect(root.lookupEnum(`${pkg}.Deferred.Reason`).values).toEqual({
      UNKNOWN: 0,
      RESOURCE_CONFIG_UNKNOWN: 1,
      PROVIDER_CONFIG_UNKNOWN: 2,
      ABSENT_PREREQ: 3,
    });
  });

  it("round-trips a DynamicValue through the generated codec", () => {
    const type = root.lookupType(`${pkg}.DynamicValue`);
    const bytes = type.encode(type.create({ msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) })).finish();
    // Field 1, wire type 2 (length-delimited) => tag byte 0x0a.
    expect(bytes[0]).toBe(0x0a);
    const decoded = type.toObject(type.decode(bytes), { bytes: Array }) as { msgpack?: number[] };
    expect(decoded.msgpack).toEqual([0x81, 0xa1, 0x61, 0x01]);
  });
});
