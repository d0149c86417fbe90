// Error → gRPC status mapping, and the ErrorResourceInitFailed details a partial failure carries (decoded with protobufjs).
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { COMPUTED, Secret } from "../../src/bridge/property-value.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { protoDir } from "../../src/wire/proto.js";
import { parsePluginArgs } from "../../src/server/plugin-args.js";
import { ResourceInitError } from "../../src/server/ops.js";
import { RpcError, toStatus } from "../../src/server/status.js";
import { attribute } from "../../src/terraform/path.js";
import { StructDecodeError, structToPropertyMap, type PbStruct } from "../../src/server/struct.js";

/** The status toStatus gives, as code and message. */
function statusOf(e: unknown, method: string): { code: number; details: string } {
  const { code, details } = toStatus(e, method);
  return { code, details };
}

describe("toStatus", () => {
  it("chooses codes by the kind of failure", () => {
    expect(statusOf(new RpcError(grpc.status.NOT_FOUND, "gone"), "Read")).toEqual({ code: grpc.status.NOT_FOUND, details: "gone" });
    expect(toStatus(new ParameterizeError("failed-precondition", "later"), "Parameterize").code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(toStatus(new ParameterizeError("not-found", "x"), "Parameterize").code).toBe(grpc.status.NOT_FOUND);
    expect(statusOf(new StructDecodeError("bad").under(attribute("a")).under(attribute("news")), "Check")).toEqual({ code: grpc.status.INVALID_ARGUMENT, details: "Check: bad (at news.a)" });
    expect(statusOf(new Error("the provider said no"), "Create")).toEqual({ code: grpc.status.UNKNOWN, details: "the provider said no" });
    const bug = toStatus(new TypeError("x is undefined"), "Diff");
    expect(bug.code).toBe(grpc.status.INTERNAL);
    expect(bug.details).toMatch(/internal error in Diff \(a bug in terraform-provider\)/);
  });

  it("encodes a partial failure as google.rpc.Status with ErrorResourceInitFailed details", async () => {
    const e = new ResourceInitError("creating failed halfway", "id-1", { a: 1, s: new Secret("x"), u: COMPUTED, n: null, b: false, l: ["q"] }, ["boom", "again"], { a: 1 }, true);
    const status = toStatus(e, "Create");
    expect(status.code).toBe(grpc.status.UNKNOWN);
    const bytes = status.metadata["grpc-status-details-bin"] as Buffer;

    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (target.startsWith("google/protobuf/") ? target : join(protoDir(), target));
    await root.load(["pulumi/provider.proto"], { keepCase: true });
    // google.rpc.Status as published (status.proto), with Any spelled out: wire-identical.
    protobuf.parse(
      'syntax = "proto3"; package google.rpc; message Any { string type_url = 1; bytes value = 2; } ' +
        "message Status { int32 code = 1; string message = 2; repeated Any details = 3; }",
      root,
      { keepCase: true },
    );
    root.resolveAll();
    const decoded = root.lookupType("google.rpc.Status").decode(bytes) as unknown as { code: number; message: string; details: { type_url: string; value: Uint8Array }[] };
    expect(decoded.code).toBe(grpc.status.UNKNOWN);
    expect(decoded.message).toBe("creating failed halfway");
    expect(decoded.details[0]!.type_url).toBe("type.googleapis.com/pulumirpc.ErrorResourceInitFailed");
    const Init = root.lookupType("pulumirpc.ErrorResourceInitFailed");
    const init = Init.toObject(Init.decode(decoded.details[0]!.value), { oneofs: true, enums: String }) as {
      id: string; properties: PbStruct; reasons: string[]; inputs: PbStruct; refresh_before_update: boolean;
    };
    expect(init.id).toBe("id-1");
    expect(init.reasons).toEqual(["boom", "again"]);
    expect(init.refresh_before_update).toBe(true);
    expect(structToPropertyMap(init.properties)).toEqual({ a: 1, s: new Secret("x"), u: COMPUTED, n: null, b: false, l: ["q"] });
    expect(structToPropertyMap(init.inputs)).toEqual({ a: 1 });
  });
});

describe("the engine's command line", () => {
  it("parses the flags and the engine address in any order, ignoring the unknown", () => {
    expect(parsePluginArgs(["--logtostderr", "-v=9", "--tracing", "http://t", "127.0.0.1:555"])).toEqual({
      logToStderr: true, verbosity: 9, tracing: "http://t", engineAddress: "127.0.0.1:555", ignored: [],
    });
    expect(parsePluginArgs(["127.0.0.1:1", "--new-flag"])).toMatchObject({ engineAddress: "127.0.0.1:1", ignored: ["--new-flag"], verbosity: 0 });
    expect(parsePluginArgs([])).toEqual({ logToStderr: false, verbosity: 0, ignored: [] });
  });
});
