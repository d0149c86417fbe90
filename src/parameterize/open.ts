// Opening a package: Parameterize, the provider model of its schema, and the hints the bridge's messages give; the one
// sequence the server (Parameterize) and the `adopt` command run before they make a bridge.
import type { BridgeHints } from "../bridge/types.js";
import { buildProviderModel, type ModelOptions, type ProviderModel } from "../schema-translate/index.js";
import { newerReleaseHint } from "./hints.js";
import { parameterize, terraformAddress, type ParameterizeInput, type ParameterizeOptions, type Parameterized } from "./index.js";

export interface OpenedPackage {
  /** The launched provider and its schema; the caller owns the provider process and must close it. */
  parameterized: Parameterized;
  model: ProviderModel;
  hints: BridgeHints;
}

export interface OpenOptions extends ParameterizeOptions {
  /**
   * Build each resource's properties when first used: for a program's run, which never renders the schema, or (a
   * function of the parameterized package) when the rendered schema is already at hand.
   */
  lazy?: boolean | ((p: Parameterized) => boolean);
}

/** The model options of a parameterized package: its name, version and the entities its selection keeps. */
export function packageOptions(p: Pick<Parameterized, "name" | "version" | "selection">): ModelOptions {
  return { packageName: p.name, packageVersion: p.version, includes: p.selection.includes, excludes: p.selection.excludes };
}

/** What the bridge's messages tell the user about the package: how to go back to a newer release, its Terraform address. */
export function bridgeHints(p: Pick<Parameterized, "name" | "version" | "origin" | "selection">): BridgeHints {
  return { newerRelease: newerReleaseHint(p), providerAddress: terraformAddress(p.origin) };
}

/**
 * Parameterizes, then builds the provider model (its warnings go where Parameterize's do). The provider is closed when
 * the model cannot be built; otherwise the caller owns it.
 */
export async function openPackage(input: ParameterizeInput, options: OpenOptions = {}): Promise<OpenedPackage> {
  const parameterized = await parameterize(input, options);
  try {
    const lazy = typeof options.lazy === "function" ? options.lazy(parameterized) : options.lazy === true;
    const model = buildProviderModel(parameterized.schema, { ...packageOptions(parameterized), ...(options.warn !== undefined ? { warn: options.warn } : {}), ...(lazy ? { lazy: true } : {}) });
    return { parameterized, model, hints: bridgeHints(parameterized) };
  } catch (e) {
    await parameterized.provider.close().catch(() => undefined);
    throw e;
  }
}
