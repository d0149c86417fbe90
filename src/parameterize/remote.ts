// Acquisition of a provider from a registry by address and version constraint: the single place registry download plugs in.
import { formatAddress, type ProviderAddress } from "./address.js";
import type { VersionConstraint } from "./constraint.js";
import { ParameterizeError } from "./errors.js";

export interface RemoteBinary {
  /** Absolute path of the downloaded, verified, cached binary. */
  path: string;
  /** The exact version the constraint resolved to; value bytes pin it. */
  version: string;
}

export interface AcquireOptions {
  /** Progress for the user (ephemeral status lines). */
  status?: (message: string) => void;
}

/**
 * Resolves the constraint against the registry and returns a cached, verified binary. Not available yet: a later
 * issue implements the registry protocol here; every caller already goes through this function.
 */
export async function acquireRemote(
  address: ProviderAddress,
  constraint: VersionConstraint,
  _options: AcquireOptions = {},
): Promise<RemoteBinary> {
  const what = formatAddress(address) + (constraint.raw !== "" ? ` (${constraint.raw})` : "");
  throw new ParameterizeError(
    "failed-precondition",
    `downloading ${what} from a registry is not available yet in this version of terraform-provider. ` +
      `Download or build the provider binary and pass its path instead, e.g. ` +
      `pulumi package add terraform-provider ./terraform-provider-${address.type}`,
  );
}
