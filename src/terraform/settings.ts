// The environment variables that bound how long a launched provider may take to answer, read and checked in one place
// so that a bad value fails with the variable's name instead of silently falling back.
import { TerraformProviderError } from "./errors.js";

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

/** The schema deadline in milliseconds: TF_BRIDGE_SCHEMA_TIMEOUT in seconds (fractions allowed), or the default. */
export function schemaTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[SCHEMA_TIMEOUT_ENV]?.trim();
  if (raw === undefined || raw === "") return DEFAULT_SCHEMA_TIMEOUT_MS;
  if (/^\d+(\.\d+)?$/.test(raw) && Number(raw) > 0) return Math.round(Number(raw) * 1000);
  throw new SettingError(
    `${SCHEMA_TIMEOUT_ENV}=${JSON.stringify(env[SCHEMA_TIMEOUT_ENV])} is not a number of seconds above 0; set it to one or unset it (default ${DEFAULT_SCHEMA_TIMEOUT_MS / 1000})`,
  );
}
