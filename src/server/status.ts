// Errors → gRPC status for the engine: codes chosen by the kind of failure, partial failures as ErrorResourceInitFailed details.
import { ParameterizeError } from "../acquire/errors.js";
import { ResourceInitError } from "./ops.js";
import { encodeMessage, protoRoot } from "../wire/proto.js";
import { boundText, MAX_STATUS_MESSAGE_BYTES } from "../wire/bound.js";
import { CallError, Status } from "../wire/rpc.js";
import { propertyMapToStruct, StructDecodeError } from "./struct.js";
import type * as rpcStatus from "../wire/google.rpc.gen.js";
import type * as pb from "../wire/pulumirpc.gen.js";
import { SchemaTranslationError } from "../schema-translate/build.js";

/** An error the server raises with a chosen status code and a message for the user. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RpcError";
  }
}

const PARAMETERIZE_CODES = {
  "invalid-argument": Status.INVALID_ARGUMENT,
  "failed-precondition": Status.FAILED_PRECONDITION,
  "not-found": Status.NOT_FOUND,
} as const;

/** Runtime type errors are our bugs; anything else the bridge throws is a failure of the operation itself. */
function isBug(e: Error): boolean {
  return e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
}

/** The status the engine gets for a failed call. */
export function toStatus(e: unknown, method: string): CallError {
  if (e instanceof RpcError) return new CallError(e.code, e.message);
  if (e instanceof ParameterizeError) return new CallError(PARAMETERIZE_CODES[e.kind], e.message);
  if (e instanceof StructDecodeError) return new CallError(Status.INVALID_ARGUMENT, `${method}: ${e.message}`);
  // The user's selection or names cannot make a package of this provider (an unknown --include token, say).
  if (e instanceof SchemaTranslationError) return new CallError(Status.INVALID_ARGUMENT, e.message);
  if (e instanceof ResourceInitError) {
    return new CallError(Status.UNKNOWN, e.message, { "grpc-status-details-bin": encodeInitFailedStatus(Status.UNKNOWN, e) });
  }
  if (e instanceof Error) {
    if (isBug(e)) return new CallError(Status.INTERNAL, `internal error in ${method} (a bug in terraform-provider): ${e.stack ?? e.message}`);
    return new CallError(Status.UNKNOWN, e.message);
  }
  return new CallError(Status.INTERNAL, `internal error in ${method}: ${String(e)}`);
}

/** Encodes google.rpc.Status{code, message, details: [Any{pulumirpc.ErrorResourceInitFailed}]}. */
export function encodeInitFailedStatus(code: number, e: ResourceInitError): Buffer {
  const root = protoRoot(["pulumi/provider.proto", "google/rpc/status.proto"]);
  const Detail = root.lookupType("pulumirpc.ErrorResourceInitFailed");
  const Status = root.lookupType("google.rpc.Status");
  const detailMessage: pb.ErrorResourceInitFailedIn = {
    id: e.id,
    properties: propertyMapToStruct(e.properties),
    reasons: e.reasons,
    ...(e.inputs === undefined ? {} : { inputs: propertyMapToStruct(e.inputs) }),
    refresh_before_update: e.refreshBeforeUpdate,
  };
  const status: rpcStatus.StatusIn = {
    code,
    // The engine shows this copy of the message too; it is cut as the grpc-message header is (src/wire/rpc.ts).
    message: boundText(e.message, MAX_STATUS_MESSAGE_BYTES),
    details: [{ type_url: "type.googleapis.com/pulumirpc.ErrorResourceInitFailed", value: encodeMessage(Detail, detailMessage) }],
  };
  return encodeMessage(Status, status);
}
