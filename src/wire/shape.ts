// The one place generated wire types meet grpc-js's untyped calls: lean decoding's type, and a typed unary call.
import * as grpc from "@grpc/grpc-js";

/**
 * A message decoded without defaults (src/proto.ts LoadOptions.leanResponses), or one that may come from an older
 * protocol revision lacking some fields: every field may be absent, at every depth.
 */
export type Lean<T> = T extends Buffer | string | number | boolean | null | undefined
  ? T
  : T extends readonly (infer E)[]
    ? Lean<E>[]
    : string extends keyof T
      ? { [key: string]: Lean<T[keyof T]> }
      : { [K in keyof T]?: Lean<T[K]> };

/** A generated service table (`tfplugin6.ProviderMethods`, ...): request and response types of each RPC. */
export type MethodTable = Record<string, { request: unknown; requestIn: unknown; response: unknown; responseIn: unknown }>;

type UnaryFn = (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: unknown) => void) => grpc.ClientUnaryCall;

/**
 * Calls the unary RPC `wireName` on a client made by src/proto.ts and hands its response over as `Res`. The only
 * conversion from grpc-js's `unknown`: src/proto.ts decodes every response with the protobufjs Type generated types
 * are made from (scripts/gen-wire-types.ts, kept current by test/unit/wire-types.test.ts), so the value has that shape.
 * The RPC must exist (hasUnary).
 */
export function hasUnary(stub: grpc.Client, wireName: string): boolean {
  return typeof (stub as unknown as Record<string, unknown>)[wireName] === "function";
}

export function callUnary<Res>(
  stub: grpc.Client,
  wireName: string,
  request: object,
  callback: (err: grpc.ServiceError | null, res: Res) => void,
  options: grpc.CallOptions = {},
): grpc.ClientUnaryCall {
  const fn = (stub as unknown as Record<string, UnaryFn>)[wireName]!;
  return fn.call(stub, request, new grpc.Metadata(), options, (err, res) => callback(err, res as Res));
}

type ServerStreamFn = (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

/** Calls the server-streaming RPC `wireName`; its messages are `Res` for the same reason as callUnary's response. */
export function callServerStream<Res>(stub: grpc.Client, wireName: string, request: object): grpc.ClientReadableStream<Res> {
  const fn = (stub as unknown as Record<string, ServerStreamFn>)[wireName]!;
  return fn.call(stub, request, new grpc.Metadata(), {}) as grpc.ClientReadableStream<Res>;
}
