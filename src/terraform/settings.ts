// The environment variables that bound how long a launched provider may take to answer, read and checked in one place
// so that a bad value fails with the variable's name instead of silently falling back.
import { TerraformProviderError } from "./errors.js";
import { positiveWhole, readSetting, secondsAsMs } from "../setting.js";

/** Seconds a launched provider may take to answer GetProviderSchema (and GetResourceIdentitySchemas). */
export const SCHEMA_TIMEOUT_ENV = "TF_BRIDGE_SCHEMA_TIMEOUT";

/**
 * Five minutes. The largest providers build their schema in seconds (aws, azurerm: 2–10 s on a loaded machine), and a
 * cold start on a slow CI runner or under emulation can take ten times that; no provider that answers at all needs
 * minutes, and a hung one is then reported instead of waited on forever.
 */
export const DEFAULT_SCHEMA_TIMEOUT_MS = 300_000;

/** A setting holds a value that is not what it must be. */
export class SettingError extends TerraformProviderError {}
const refuse = (message: string): SettingError => new SettingError(message);

/** The schema deadline in milliseconds: TF_BRIDGE_SCHEMA_TIMEOUT in seconds (fractions allowed), or the default. */
export function schemaTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return readSetting(env, { name: SCHEMA_TIMEOUT_ENV, fallback: DEFAULT_SCHEMA_TIMEOUT_MS, shown: DEFAULT_SCHEMA_TIMEOUT_MS / 1000, what: "a number of seconds above 0", parse: secondsAsMs }, refuse);
}

/** The largest message a provider's reply may carry, in bytes. */
export const MAX_PROVIDER_MESSAGE_ENV = "TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES";

/**
 * 256 MiB. The largest reply is GetProviderSchema's: tens of megabytes for the largest providers (aws's schema is about
 * 40 MB as protobuf), so this leaves a sixfold margin, while a provider that announces gigabytes is refused from the
 * message's 5-byte length prefix before any of it is buffered. Decoding 256 MiB of protobuf already costs gigabytes.
 */
export const DEFAULT_MAX_PROVIDER_MESSAGE_BYTES = 256 * 1024 * 1024;

/** A gRPC message's length prefix holds at most this. */
const MAX_GRPC_MESSAGE_BYTES = 2 ** 32 - 1;

/** The reply size limit: TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES in bytes, or the default. */
export function maxProviderMessageBytes(env: NodeJS.ProcessEnv = process.env): number {
  const parse = (raw: string): number | undefined => {
    const n = positiveWhole(raw);
    return n === undefined ? undefined : Math.min(n, MAX_GRPC_MESSAGE_BYTES);
  };
  const shown = `${DEFAULT_MAX_PROVIDER_MESSAGE_BYTES}, 256 MiB`;
  return readSetting(env, { name: MAX_PROVIDER_MESSAGE_ENV, fallback: DEFAULT_MAX_PROVIDER_MESSAGE_BYTES, shown, what: "a whole number of bytes above 0", parse }, refuse);
}

/** Seconds a launched provider may take to acknowledge an HTTP/2 PING while calls wait on its quiet connection. */
export const PING_TIMEOUT_ENV = "TF_BRIDGE_PROVIDER_PING_TIMEOUT";

/**
 * Thirty seconds. A live provider acknowledges a PING from its connection's reader at once, even while its handlers
 * work for an hour; a connection dropped by mistake fails the calls on it, so the margin is wide, and a connection that
 * cannot carry anything any more is still noticed within about half a minute instead of never.
 */
export const DEFAULT_PING_TIMEOUT_MS = 30_000;

/** The PING deadline in milliseconds: TF_BRIDGE_PROVIDER_PING_TIMEOUT in seconds (fractions allowed), or the default. */
export function pingTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return readSetting(env, { name: PING_TIMEOUT_ENV, fallback: DEFAULT_PING_TIMEOUT_MS, shown: DEFAULT_PING_TIMEOUT_MS / 1000, what: "a number of seconds above 0", parse: secondsAsMs }, refuse);
}
