// The one place generated wire types meet the transport's untyped methods: lean decoding's type, and a typed method.
import type { Method, Service } from "./rpc.js";

/**
 * A message decoded without defaults (src/wire/proto.ts LoadOptions.leanResponses), or one that may come from an older
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

/**
 * The RPC `wireName` of a service loaded by src/wire/proto.ts, with its response typed as `Res`: the only conversion from
 * the transport's `unknown`. src/wire/proto.ts decodes every response with the protobufjs Type the generated types are made
 * from (scripts/gen-wire-types.ts, kept current by test/unit/wire-types.test.ts), so the value has that shape.
 * Undefined when the service has no such RPC.
 */
export function method<Res>(service: Service, wireName: string): Method<unknown, Res> | undefined {
  return service[wireName] as Method<unknown, Res> | undefined;
}
