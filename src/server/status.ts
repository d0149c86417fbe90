// Errors → gRPC status for the engine: codes chosen by the kind of failure, partial failures as ErrorResourceInitFailed details.
import * as grpc from "@grpc/grpc-js";
import { ParameterizeError } from "../parameterize/errors.js";
import { ResourceInitError } from "./ops.js";
import { propertyMapToStruct, StructDecodeError, type PbStruct, type PbValue } from "./struct.js";

/** An error the server raises with a chosen status code and a message for the user. */
export class RpcError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RpcError";
  }
}

const PARAMETERIZE_CODES = {
  "invalid-argument": grpc.status.INVALID_ARGUMENT,
  "failed-precondition": grpc.status.FAILED_PRECONDITION,
  "not-found": grpc.status.NOT_FOUND,
} as const;

/** Runtime type errors are our bugs; anything else the bridge throws is a failure of the operation itself. */
function isBug(e: Error): boolean {
  return e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
}

/** The status object grpc-js sends for a failed unary call. */
export function toStatus(e: unknown, method: string): Partial<grpc.StatusObject> {
  if (e instanceof RpcError) return { code: e.code, details: e.message };
  if (e instanceof ParameterizeError) return { code: PARAMETERIZE_CODES[e.kind], details: e.message };
  if (e instanceof StructDecodeError) return { code: grpc.status.INVALID_ARGUMENT, details: `${method}: ${e.message}` };
  if (e instanceof ResourceInitError) {
    const metadata = new grpc.Metadata();
    metadata.set("grpc-status-details-bin", encodeInitFailedStatus(grpc.status.UNKNOWN, e));
    return { code: grpc.status.UNKNOWN, details: e.message, metadata };
  }
  if (e instanceof Error) {
    if (isBug(e)) return { code: grpc.status.INTERNAL, details: `internal error in ${method} (a bug in terraform-provider): ${e.stack ?? e.message}` };
    return { code: grpc.status.UNKNOWN, details: e.message };
  }
  return { code: grpc.status.INTERNAL, details: `internal error in ${method}: ${String(e)}` };
}

// ---- A minimal protobuf writer: google.rpc.Status carrying one Any(pulumirpc.ErrorResourceInitFailed). ----
// No message in our loaded protos embeds these, so grpc-js has no serializer for them; the wire format is small.

class Writer {
  private readonly parts: Buffer[] = [];

  private varint(n: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(n));
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) b |= 0x80;
      bytes.push(b);
    } while (v !== 0n);
    this.parts.push(Buffer.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  /** A proto3 scalar: omitted at its default, as encoders do. */
  int(field: number, n: number): this {
    return n === 0 ? this : this.varintField(field, n);
  }

  varintField(field: number, n: number): this {
    this.tag(field, 0);
    this.varint(n);
    return this;
  }

  bool(field: number, b: boolean): this {
    return b ? this.int(field, 1) : this;
  }

  double(field: number, n: number): this {
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.parts.push(b);
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.tag(field, 2);
    this.varint(data.length);
    this.parts.push(Buffer.from(data));
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, Buffer.from(s, "utf8"));
  }

  message(field: number, w: Writer): this {
    return this.bytes(field, w.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function writeValue(v: PbValue): Writer {
  const w = new Writer();
  // Oneof members are written even at their default value, or the receiver would see no member set.
  if (v.boolValue !== undefined) return w.varintField(4, v.boolValue ? 1 : 0);
  if (v.numberValue !== undefined) return w.double(2, v.numberValue);
  if (v.stringValue !== undefined) return w.string(3, v.stringValue);
  if (v.structValue) return w.message(5, writeStruct(v.structValue));
  if (v.listValue) {
    const list = new Writer();
    for (const e of v.listValue.values ?? []) list.message(1, writeValue(e));
    return w.message(6, list);
  }
  return w.varintField(1, 0); // null_value: NULL_VALUE
}

function writeStruct(s: PbStruct): Writer {
  const w = new Writer();
  for (const [k, v] of Object.entries(s.fields ?? {})) {
    w.message(1, new Writer().string(1, k).message(2, writeValue(v)));
  }
  return w;
}

/** Encodes google.rpc.Status{code, message, details: [Any{ErrorResourceInitFailed}]}. */
export function encodeInitFailedStatus(code: number, e: ResourceInitError): Buffer {
  const detail = new Writer().string(1, e.id).message(2, writeStruct(propertyMapToStruct(e.properties)));
  for (const r of e.reasons) detail.string(3, r);
  if (e.inputs !== undefined) detail.message(4, writeStruct(propertyMapToStruct(e.inputs)));
  detail.bool(5, e.refreshBeforeUpdate);
  const any = new Writer().string(1, "type.googleapis.com/pulumirpc.ErrorResourceInitFailed").bytes(2, detail.finish());
  return new Writer().int(1, code).string(2, e.message).message(3, any).finish();
}
