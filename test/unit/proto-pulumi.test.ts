// Checks that our hand-written Pulumi plugin protocol (proto/pulumi/*.proto) loads
// with the gRPC toolchain, exposes the ResourceProvider and Engine services, and
// carries the published field numbers the bridge relies on.
import { describe, it, expect } from "vitest";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import path from "node:path";
import * as protoLoader from "@grpc/proto-loader";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";

const PROTO_ROOT = fileURLToPath(new URL("../../proto/", import.meta.url));
const PROVIDER_PROTO = path.join(PROTO_ROOT, "pulumi", "provider.proto");
const ENGINE_PROTO = path.join(PROTO_ROOT, "pulumi", "engine.proto");

const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/** Loads one proto file through proto-loader + grpc-js and returns the service constructor. */
function loadService(file: string, serviceName: string): grpc.ServiceClientConstructor {
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(file, LOADER_OPTIONS));
  let node: unknown = loaded;
  for (const part of serviceName.split(".")) {
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  expect(node, `service ${serviceName} should exist`).toBeTypeOf("function");
  const ctor = node as grpc.ServiceClientConstructor;
  expect(ctor.service).toBeDefined();
  return ctor;
}

/**
 * Loads files with protobufjs reflection. Imports such as "pulumi/plugin.proto" are
 * resolved against PROTO_ROOT, as proto-loader's includeDirs does; well-known
 * google/protobuf types come from protobufjs's bundled copies.
 */
function reflect(...files: string[]): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (path.isAbsolute(target)) return target;
    const fromRoot = path.join(PROTO_ROOT, target);
    return fs.existsSync(fromRoot) ? fromRoot : protobuf.util.path.resolve(origin, target);
  };
  root.loadSync(files, { keepCase: true });
  root.resolveAll();
  return root;
}

/** Maps field name -> field number for a fully-qualified message type. */
function fieldIds(root: protobuf.Root, typeName: string): Record<string, number> {
  const type = root.lookupType(typeName);
  return Object.fromEntries(type.fieldsArray.map((f) => [f.name, f.id]));
}

const PROVIDER_RPCS = [
  "Handshake",
  "Parameterize",
  "GetSchema",
  "CheckConfig",
  "DiffConfig",
  "Configure",
  "Invoke",
  "Call",
  "Check",
  "Diff",
  "Create",
  "Read",
  "List",
  "Update",
  "Delete",
  "Construct",
  "Cancel",
  "GetPluginInfo",
  "Attach",
  "GetMapping",
  "GetMappings",
];

describe("pulumi provider protocol (proto/pulumi)", () => {
  it("exposes every pulumirpc.ResourceProvider RPC through proto-loader and grpc-js", () => {
    const ctor = loadService(PROVIDER_PROTO, "pulumirpc.ResourceProvider");
    const methods = Object.keys(ctor.service);
    expect(methods.sort()).toEqual([...PROVIDER_RPCS].sort());

    const svc = ctor.service;
    expect(svc.Create?.path).toBe("/pulumirpc.ResourceProvider/Create");
    expect(svc.GetPluginInfo?.path).toBe("/pulumirpc.ResourceProvider/GetPluginInfo");
    // List is the only streaming RPC (server streaming).
    expect(svc.List?.responseStream).toBe(true);
    expect(svc.List?.requestStream).toBe(false);
    for (const name of PROVIDER_RPCS.filter((n) => n !== "List")) {
      expect(svc[name]?.responseStream, name).toBe(false);
      expect(svc[name]?.requestStream, name).toBe(false);
    }
  });

  it("exposes pulumirpc.Engine with Log and the LogSeverity enum", () => {
    const ctor = loadService(ENGINE_PROTO, "pulumirpc.Engine");
    expect(Object.keys(ctor.service).sort()).toEqual(
      ["GetRootResource", "Log", "RequirePulumiVersion", "SetRootResource", "StartDebugging"].sort(),
    );
    expect(ctor.service.Log?.path).toBe("/pulumirpc.Engine/Log");

    const root = reflect(ENGINE_PROTO);
    expect(root.lookupEnum("pulumirpc.LogSeverity").values).toEqual({
      DEBUG: 0,
      INFO: 1,
      WARNING: 2,
      ERROR: 3,
    });
    expect(fieldIds(root, "pulumirpc.LogRequest")).toEqual({
      severity: 1,
      message: 2,
      urn: 3,
      streamId: 4,
      ephemeral: 5,
    });
  });

  describe("published field numbers", () => {
    const root = reflect(PROVIDER_PROTO);

    it("ParameterizeRequest and its nested parameter kinds", () => {
      expect(fieldIds(root, "pulumirpc.ParameterizeRequest")).toEqual({ args: 1, value: 2 });
      expect(root.lookupType("pulumirpc.ParameterizeRequest").oneofs.parameters?.oneof).toEqual([
        "args",
        "value",
      ]);
      expect(fieldIds(root, "pulumirpc.ParameterizeRequest.ParametersArgs")).toEqual({ args: 1 });
      expect(fieldIds(root, "pulumirpc.ParameterizeRequest.ParametersValue")).toEqual({
        name: 1,
        version: 2,
        value: 3,
      });
      expect(fieldIds(root, "pulumirpc.ParameterizeResponse")).toEqual({ name: 1, version: 2 });
    });

    it("GetSchemaRequest", () => {
      expect(fieldIds(root, "pulumirpc.GetSchemaRequest")).toEqual({
        version: 1,
        subpackage_name: 2,
        subpackage_version: 3,
      });
    });

    it("ErrorResourceInitFailed", () => {
      const fields = root.lookupType("pulumirpc.ErrorResourceInitFailed").fields;
      expect(fields.id?.id).toBe(1);
      expect(fields.properties?.id).toBe(2);
      expect(fields.reasons?.id).toBe(3);
      expect(fields.inputs?.id).toBe(4);
      expect(fields.refresh_before_update?.id).toBe(5);
      expect(fields.properties?.resolvedType?.fullName).toBe(".google.protobuf.Struct");
      expect(fields.reasons?.repeated).toBe(true);
    });

    it("CheckRequest autonaming", () => {
      const fields = root.lookupType("pulumirpc.CheckRequest").fields;
      expect(fields.autonaming?.id).toBe(8);
      expect(fields.autonaming?.resolvedType?.fullName).toBe(".pulumirpc.CheckRequest.AutonamingOptions");
      expect(fieldIds(root, "pulumirpc.CheckRequest.AutonamingOptions")).toEqual({ proposed_name: 1, mode: 2 });
      expect(root.lookupEnum("pulumirpc.CheckRequest.AutonamingOptions.Mode").values).toEqual({
        PROPOSE: 0,
        ENFORCE: 1,
        DISABLE: 2,
      });
      expect(fields.randomSeed?.id).toBe(5);
    });

    it("ConfigureResponse capability flags", () => {
      expect(fieldIds(root, "pulumirpc.ConfigureResponse")).toEqual({
        acceptSecrets: 1,
        supportsPreview: 2,
        acceptResources: 3,
        acceptOutputs: 4,
        supports_autonaming_configuration: 5,
      });
    });

    it("handshake and diff shapes", () => {
      const hs = fieldIds(root, "pulumirpc.ProviderHandshakeRequest");
      expect(hs.engine_address).toBe(1);
      expect(hs.configure_with_urn).toBe(4);
      expect(fieldIds(root, "pulumirpc.ProviderHandshakeResponse")).toMatchObject({
        accept_secrets: 1,
        accept_resources: 2,
        accept_outputs: 3,
        supports_autonaming_configuration: 4,
      });
      // Field 5 (pulumi_version_range) was retired; check the raw list, since protobufjs's
      // isReservedId treats a single reserved number as an empty range.
      expect(root.lookupType("pulumirpc.ProviderHandshakeResponse").reserved).toEqual([[5, 5], "pulumi_version_range"]);
      expect(root.lookupEnum("pulumirpc.DiffResponse.DiffChanges").values).toEqual({
        DIFF_UNKNOWN: 0,
        DIFF_NONE: 1,
        DIFF_SOME: 2,
      });
      expect(root.lookupEnum("pulumirpc.PropertyDiff.Kind").values.UPDATE_REPLACE).toBe(5);
    });

    it("imported messages resolve", () => {
      expect(fieldIds(root, "pulumirpc.PluginInfo")).toEqual({ version: 1 });
      expect(fieldIds(root, "pulumirpc.PluginAttach")).toEqual({ address: 1 });
      const aliases = root.lookupType("pulumirpc.ConstructRequest").fields.aliases;
      expect(aliases?.resolvedType?.fullName).toBe(".pulumirpc.Alias");
    });
  });

  it("round-trips an ErrorResourceInitFailed carrying google.protobuf.Struct values", () => {
    const definition = protoLoader.loadSync(PROVIDER_PROTO, LOADER_OPTIONS);
    const entry = definition["pulumirpc.ErrorResourceInitFailed"] as protoLoader.MessageTypeDefinition<object, object>;
    expect(entry.format).toBe("Protocol Buffer 3 DescriptorProto");

    const root = reflect(PROVIDER_PROTO);
    const Failed = root.lookupType("pulumirpc.ErrorResourceInitFailed");
    const Struct = root.lookupType("google.protobuf.Struct");

    const properties = Struct.fromObject({
      fields: {
        name: { stringValue: "bucket-1" },
        size: { numberValue: 3 },
        tags: { structValue: { fields: { env: { stringValue: "dev" } } } },
        ready: { boolValue: false },
        gone: { nullValue: "NULL_VALUE" },
      },
    });
    const message = Failed.create({
      id: "i-123",
      properties,
      reasons: ["timed out waiting for readiness"],
      inputs: Struct.fromObject({ fields: { name: { stringValue: "bucket-1" } } }),
      refresh_before_update: true,
    });
    expect(Failed.verify(message)).toBeNull();

    const bytes = Failed.encode(message).finish();
    const decoded = Failed.toObject(Failed.decode(bytes), {
      enums: String,
      longs: String,
      defaults: true,
    });
    expect(decoded.id).toBe("i-123");
    expect(decoded.reasons).toEqual(["timed out waiting for readiness"]);
    expect(decoded.refresh_before_update).toBe(true);
    expect(decoded.properties.fields.name.stringValue).toBe("bucket-1");
    expect(decoded.properties.fields.size.numberValue).toBe(3);
    expect(decoded.properties.fields.tags.structValue.fields.env.stringValue).toBe("dev");
    expect(decoded.properties.fields.gone.nullValue).toBe("NULL_VALUE");
    expect(decoded.inputs.fields.name.stringValue).toBe("bucket-1");

    // proto-loader's descriptor (what grpc-js serves) agrees on the numbers...
    const Loaded = grpc.loadPackageDefinition(definition).pulumirpc as Record<string, unknown>;
    const loadedType = Loaded.ErrorResourceInitFailed as { type?: { field?: Array<{ name: string; number: number }> } };
    const numbers = Object.fromEntries((loadedType.type?.field ?? []).map((f) => [f.name, f.number]));
    expect(numbers).toEqual({ id: 1, properties: 2, reasons: 3, inputs: 4, refresh_before_update: 5 });

    // ...and its serializers carry a Struct through an RPC response (Create), proving the imports resolve there too.
    const create = loadService(PROVIDER_PROTO, "pulumirpc.ResourceProvider").service.Create!;
    const wire = create.responseSerialize({ id: "i-123", properties: properties.toJSON(), refresh_before_update: true });
    const back = create.responseDeserialize(wire) as {
      id: string;
      refresh_before_update: boolean;
      properties: { fields: Record<string, { stringValue?: string; kind?: string }> };
    };
    expect(back.id).toBe("i-123");
    expect(back.refresh_before_update).toBe(true);
    expect(back.properties.fields.name?.stringValue).toBe("bucket-1");
    expect(back.properties.fields.name?.kind).toBe("stringValue");
  });
});
