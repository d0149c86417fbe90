// The generated wire types (src/wire/*.gen.ts): current with proto/, and describing what src/wire/proto.ts really decodes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { DESCRIPTOR_SETS, generate, PROTO_FILES } from "../../scripts/gen-wire-types.js";
import { loadProtos, protoRoot } from "../../src/wire/proto.js";
import type { Lean } from "../../src/wire/shape.js";
import { DESCRIPTORS } from "../../src/wire/descriptors.gen.js";
import type * as tf5 from "../../src/wire/tfplugin5.gen.js";
import type * as tf6 from "../../src/wire/tfplugin6.gen.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("generated wire types", () => {
  it("are current: scripts/gen-wire-types.ts produces exactly the committed src/wire/*.gen.ts", () => {
    const files = generate();
    expect([...files.keys()].sort()).toEqual(
      ["descriptors", "google.protobuf", "google.rpc", "plugin", "pulumirpc", "tfplugin5", "tfplugin6"].map((p) => `src/wire/${p}.gen.ts`),
    );
    for (const [path, text] of files) {
      // On failure: run `npx tsx scripts/gen-wire-types.ts` and commit the result.
      expect(readFileSync(join(root, path), "utf8"), path).toBe(text);
    }
  });

  // Every request and response of every RPC, decoded from an empty message as src/wire/proto.ts decodes it: the fields
  // present are exactly those the generated decoded type declares required, with the generator's default shapes.
  const services = Object.entries(loadProtos(PROTO_FILES));
  const reflection = protoRoot(PROTO_FILES);

  it("covers every service of proto/", () => {
    expect(services.map(([n]) => n).sort()).toEqual([
      "plugin.GRPCBroker",
      "plugin.GRPCController",
      "plugin.GRPCStdio",
      "pulumirpc.Engine",
      "pulumirpc.ResourceProvider",
      "tfplugin5.Provider",
      "tfplugin5.Provisioner",
      "tfplugin6.Provider",
    ]);
  });

  for (const [serviceName, def] of services) {
    it(`${serviceName}: decoded messages carry exactly the non-oneof fields, defaulted as generated`, () => {
      const svc = reflection.lookupService(serviceName);
      for (const m of svc.methodsArray) {
        m.resolve();
        const method = def[m.name]!;
        for (const [type, decoded] of [
          [m.resolvedRequestType!, method.requestDeserialize(method.requestSerialize({}))],
          [m.resolvedResponseType!, method.responseDeserialize(method.responseSerialize({}))],
        ] as const) {
          const expected: Record<string, unknown> = {};
          for (const f of type.fieldsArray) {
            if (f.partOf) continue;
            if (f instanceof protobuf.MapField) expected[f.name] = {};
            else if (f.repeated) expected[f.name] = [];
            else if (f.resolvedType instanceof protobuf.Type) expected[f.name] = null;
            else if (f.resolvedType instanceof protobuf.Enum) expected[f.name] = Object.keys(f.resolvedType.values)[0];
            else if (["int64", "uint64", "sint64", "fixed64", "sfixed64"].includes(f.type)) expected[f.name] = "0";
            else if (f.type === "bytes") expected[f.name] = Buffer.alloc(0);
            else if (f.type === "string") expected[f.name] = "";
            else if (f.type === "bool") expected[f.name] = false;
            else expected[f.name] = 0;
          }
          expect(decoded, `${type.fullName}`).toEqual(expected);
        }
      }
    });
  }

  it("types a set oneof member and the oneof's name, as decoded", () => {
    const Step = reflection.lookupType("tfplugin6.AttributePath.Step");
    const decoded = Step.toObject(Step.decode(Step.encode(Step.fromObject({ element_key_int: 7 })).finish()), {
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const typed: tf6.AttributePath_Step = { element_key_int: "7", selector: "element_key_int" };
    expect(decoded).toEqual(typed);
  });

  it("lets the client read every tfplugin5 response it uses as the tfplugin6 one (compile-time)", () => {
    // Each line fails to compile if tfplugin5's decoded message does not fit the Lean tfplugin6 type the client reads.
    type Fits<A, B> = A extends B ? true : false;
    const fits: true[] = [
      true satisfies Fits<tf5.GetProviderSchema_Response, Lean<tf6.GetProviderSchema_Response>>,
      true satisfies Fits<tf5.PrepareProviderConfig_Response, Lean<tf6.ValidateProviderConfig_Response>>,
      true satisfies Fits<tf5.Configure_Response, Lean<tf6.ConfigureProvider_Response>>,
      true satisfies Fits<tf5.ValidateResourceTypeConfig_Response, Lean<tf6.ValidateResourceConfig_Response>>,
      true satisfies Fits<tf5.ValidateDataSourceConfig_Response, Lean<tf6.ValidateDataResourceConfig_Response>>,
      true satisfies Fits<tf5.PlanResourceChange_Response, Lean<tf6.PlanResourceChange_Response>>,
      true satisfies Fits<tf5.ApplyResourceChange_Response, Lean<tf6.ApplyResourceChange_Response>>,
      true satisfies Fits<tf5.ReadResource_Response, Lean<tf6.ReadResource_Response>>,
      true satisfies Fits<tf5.ImportResourceState_Response, Lean<tf6.ImportResourceState_Response>>,
      true satisfies Fits<tf5.UpgradeResourceState_Response, Lean<tf6.UpgradeResourceState_Response>>,
      true satisfies Fits<tf5.UpgradeResourceIdentity_Response, Lean<tf6.UpgradeResourceIdentity_Response>>,
      true satisfies Fits<tf5.GetResourceIdentitySchemas_Response, Lean<tf6.GetResourceIdentitySchemas_Response>>,
      true satisfies Fits<tf5.ReadDataSource_Response, Lean<tf6.ReadDataSource_Response>>,
      true satisfies Fits<tf5.CallFunction_Response, Lean<tf6.CallFunction_Response>>,
      true satisfies Fits<tf5.OpenEphemeralResource_Response, Lean<tf6.OpenEphemeralResource_Response>>,
      true satisfies Fits<tf5.RenewEphemeralResource_Response, Lean<tf6.RenewEphemeralResource_Response>>,
      true satisfies Fits<tf5.CloseEphemeralResource_Response, Lean<tf6.CloseEphemeralResource_Response>>,
      true satisfies Fits<tf5.Stop_Response, Lean<tf6.StopProvider_Response>>,
    ];
    expect(fits).toHaveLength(18);
  });

  it("makes a misspelled field a compile error (compile-time)", () => {
    // @ts-expect-error old_input is not a field of pulumirpc.DiffRequest (old_inputs is)
    const misspelled: import("../../src/wire/pulumirpc.gen.js").DiffRequestIn = { old_input: null };
    expect(misspelled).toBeDefined();
  });
});

describe("pre-built descriptors (src/wire/descriptors.gen.ts)", () => {
  // Every proto file set src/ loads (in a loadProtos/protoRoot call, or a *_PROTO constant handed to one), read from
  // its source: a set missing from DESCRIPTOR_SETS would silently fall back to parsing .proto text at every start.
  const loaded = new Set<string>();
  for (const file of readdirSync(join(root, "src"), { recursive: true }) as string[]) {
    if (!file.endsWith(".ts") || file.endsWith(".gen.ts")) continue;
    const text = readFileSync(join(root, "src", file), "utf8");
    for (const m of text.matchAll(/(?:(?:loadProtos|protoRoot)\(|_PROTO = )\[([^\]]*)\]/g)) {
      const items = [...m[1]!.matchAll(/["`]([^"`]+)["`]/g)].map((x) => x[1]!);
      for (const v of items.some((i) => i.includes("${")) ? ["5", "6"] : [""]) {
        loaded.add(items.map((i) => i.replace(/\$\{[^}]+\}/g, v)).join("\n"));
      }
    }
  }

  it("cover every proto file set src/ loads", () => {
    expect(loaded.size).toBeGreaterThanOrEqual(6);
    for (const key of loaded) expect(Object.keys(DESCRIPTORS), key).toContain(key);
  });

  it("build the same Root as parsing the .proto files", () => {
    for (const files of DESCRIPTOR_SETS) {
      const parsed = new protobuf.Root();
      parsed.resolvePath = (_origin, target) => (target.startsWith("/") ? target : join(root, "proto", target));
      parsed.loadSync(files.map((f) => join(root, "proto", f)), { keepCase: true });
      parsed.resolveAll();
      expect(protoRoot(files).toJSON(), files.join(", ")).toEqual(parsed.toJSON());
    }
  });
});
