// The combiner of installation methods (Terraform's MultiSource): which methods apply to a provider by their
// include/exclude patterns, the union of the versions they offer, and the newest usable match with the earliest
// method that offers it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { DEFAULT_REGISTRY_HOST, formatAddress, type ProviderAddress } from "./address.js";
import { hostDirName } from "./cache.js";
import { impliedMirrorDirs, type CliConfig, type InstallationMethod, type ProviderPattern } from "./cliconfig.js";
import { satisfies, type VersionConstraint } from "./constraint.js";
import { comparisonHost } from "./credentials.js";
import { ParameterizeError, ProviderNotFoundError, VersionNotFoundError } from "./errors.js";
import { HttpFailure, type Http } from "./http.js";
import { FilesystemMirrorSource, NetworkMirrorSource } from "./mirror-source.js";
import { RegistrySource } from "./registry-source.js";
import { protocolsSupported, type AvailableVersion, type InstallContext, type Source } from "./source.js";
import { exactVersionProblem } from "./version.js";

export function patternMatches(p: ProviderPattern, a: ProviderAddress): boolean {
  const host = comparisonHost(a.host) ?? a.host;
  return (p.host === "*" || p.host === host) && (p.namespace === "*" || p.namespace === a.namespace) && (p.type === "*" || p.type === a.type);
}

/** Does a method apply to this provider? Exclusions win over inclusions; no include list means everything. */
export function methodApplies(m: InstallationMethod, a: ProviderAddress): boolean {
  if (m.exclude.some((p) => patternMatches(p, a))) return false;
  return m.include.length === 0 || m.include.some((p) => patternMatches(p, a));
}

/** An installation method and the source that serves it. */
export interface Selector {
  method: InstallationMethod;
  source: Source;
}

/** One source's word on one version. */
export interface Offer {
  selector: Selector;
  info: AvailableVersion;
}

export interface Resolution {
  /** Every valid version offered, each with its offers in method order. */
  offered: Map<string, Offer[]>;
  /** The newest matching version this platform can use, and the earliest method offering it usably. */
  chosen?: { version: string; from: Selector };
  /** Newer matching versions passed over, with why ("3.7.0 (no linux_amd64 package)"). */
  skipped: string[];
  /** Version strings offered that are not exact versions, quoted, as the sources sent them. */
  ignored: string[];
  /** Sources that gave no answer: only these allow falling back to the cache. */
  unreachable: { selector: Selector; error: HttpFailure }[];
  /**
   * When nothing was offered: filesystem mirrors of the configuration (applicable or not) holding the same
   * namespace/type under another host, with the full address that would find it there.
   */
  elsewhere?: { mirror: string; address: string }[];
}

const isUnreachable = (e: unknown): e is HttpFailure => e instanceof HttpFailure && e.kind === "unreachable";

/**
 * What a "not found" adds when a filesystem mirror has the provider under another host: that host's full address,
 * and for the default host why a bare name missed (a tree `terraform providers mirror` wrote is under
 * registry.terraform.io).
 */
function elsewhereHint(a: ProviderAddress, elsewhere: readonly { mirror: string; address: string }[]): string {
  if (elsewhere.length === 0) return "";
  const found = elsewhere.map((e) => `${e.mirror} has ${e.address}`).join(", ");
  const addresses = [...new Set(elsewhere.map((e) => e.address))];
  const bare = a.host === DEFAULT_REGISTRY_HOST ? ` (a bare ${a.namespace}/${a.type} means ${formatAddress(a)})` : "";
  return `; but ${found}: give the full address ${addresses.join(" or ")}${bare}`;
}

/** `"~> 3.6"`, or "the newest version" for an empty constraint, as messages quote it. */
export const describeWanted = (c: VersionConstraint): string => (c.raw === "" ? "the newest version" : `"${c.raw}"`);

export class MultiSource {
  /**
   * `selectors` in method order; `configFiles` are named when the configuration's patterns leave no method for a
   * provider.
   */
  constructor(
    readonly selectors: readonly Selector[],
    private readonly configFiles: readonly string[] = [],
  ) {}

  /**
   * The methods for this provider: the configuration's explicit ones, or Terraform's implied set (every implied
   * mirror directory that has this provider, and only if none has it, the origin registry).
   */
  static forProvider(config: CliConfig, a: ProviderAddress, env: NodeJS.ProcessEnv, home: string, http: Http): MultiSource {
    let methods: InstallationMethod[];
    if (config.installation !== undefined) {
      methods = config.installation;
    } else {
      const mirrors = impliedMirrorDirs(env, home).filter((d) => [hostDirName(a.host), a.host].some((h) => existsSync(join(d, h, a.namespace, a.type))));
      methods = mirrors.length > 0
        ? mirrors.map((path): InstallationMethod => ({ kind: "filesystem_mirror", path, include: [], exclude: [] }))
        : [{ kind: "direct", include: [], exclude: [] }];
    }
    const source = (m: InstallationMethod): Source =>
      m.kind === "direct" ? new RegistrySource(a.host, http) : m.kind === "network_mirror" ? new NetworkMirrorSource(m.url, http) : new FilesystemMirrorSource(m.path);
    return new MultiSource(
      methods.map((method) => ({ method, source: source(method) })),
      config.files,
    );
  }

  /** The selectors whose patterns admit this provider, in method order. */
  applicable(a: ProviderAddress): Selector[] {
    return this.selectors.filter((s) => methodApplies(s.method, a));
  }

  /**
   * Asks every applicable source at once (saying so on the status line) and picks the newest usable match. A source that answers wrongly fails
   * the whole resolution (its answer cannot be told from "no such version"); one that cannot be reached is only
   * recorded, since the others or the cache may still do.
   */
  async resolve(a: ProviderAddress, constraint: VersionConstraint, ctx: InstallContext): Promise<Resolution> {
    const label = formatAddress(a);
    const selectors = this.applicable(a);
    if (selectors.length === 0) {
      throw new ParameterizeError(
        "failed-precondition",
        `no provider installation method applies to ${label}: the provider_installation block in ${this.configFiles.join(", ")} excludes it (or includes only other providers)`,
      );
    }
    ctx.events.status(`Resolving ${label} (${describeWanted(constraint)})…`);
    const listings = await Promise.all(
      selectors.map(async (selector) => {
        try {
          return { selector, versions: await selector.source.versions(a, ctx) };
        } catch (e) {
          return { selector, error: e as unknown };
        }
      }),
    );
    const broken = listings.find((l) => l.error !== undefined && !isUnreachable(l.error));
    if (broken !== undefined) {
      const e = broken.error;
      throw new ParameterizeError("failed-precondition", `cannot resolve ${label} from ${broken.selector.source.description}: ${(e as Error).message}`, { cause: e });
    }
    const unreachable = listings.flatMap((l) => (isUnreachable(l.error) ? [{ selector: l.selector, error: l.error }] : []));

    const offered = new Map<string, Offer[]>();
    const ignored: string[] = [];
    for (const l of listings) {
      for (const info of l.versions ?? []) {
        // As Terraform: a version string that is not one is skipped with a warning, not fatal to the whole listing.
        // Only strict versions get through, since the chosen one names a cache directory and is written into the
        // SDK's value, which must read it back.
        const problem = exactVersionProblem(info.version);
        if (problem !== undefined) {
          ignored.push(JSON.stringify(info.version));
          ctx.events.warn(`${l.selector.source.description} lists ${JSON.stringify(info.version)} as a version of ${label}, which is not an exact version (${problem}); ignoring it`);
          continue;
        }
        offered.set(info.version, [...(offered.get(info.version) ?? []), { selector: l.selector, info }]);
      }
    }
    const usable = (i: AvailableVersion): boolean => (i.platforms === undefined || i.platforms.includes(ctx.platform)) && protocolsSupported(i.protocols);
    const skipped: string[] = [];
    for (const version of [...offered.keys()].filter((v) => satisfies(constraint, v)).sort(semver.rcompare)) {
      const offers = offered.get(version)!;
      const from = offers.find((o) => usable(o.info));
      if (from !== undefined) {
        if (skipped.length > 0) ctx.events.warn(`${label}: skipped newer matching versions ${skipped.join(", ")}; using ${version}`);
        return { offered, chosen: { version, from: from.selector }, skipped, ignored, unreachable };
      }
      const info = offers.map((o) => o.info);
      skipped.push(
        info.some((i) => !protocolsSupported(i.protocols))
          ? `${version} (plugin protocol ${info.flatMap((i) => i.protocols ?? []).join(", ")}; we speak 5 and 6)`
          : `${version} (no ${ctx.platform} package)`,
      );
    }
    const elsewhere = offered.size === 0 && ignored.length === 0 ? await this.elsewhere(a) : [];
    return { offered, skipped, ignored, unreachable, ...(elsewhere.length > 0 ? { elsewhere } : {}) };
  }

  /**
   * The configuration's filesystem mirrors that hold this namespace/type under another host directory, where their
   * include/exclude patterns would admit that address.
   */
  private async elsewhere(a: ProviderAddress): Promise<{ mirror: string; address: string }[]> {
    const found = await Promise.all(
      this.selectors.map(async ({ method, source }) =>
        source instanceof FilesystemMirrorSource
          ? (await source.otherHosts(a))
              .map((host) => ({ ...a, host }))
              .filter((other) => methodApplies(method, other))
              .map((other) => ({ mirror: source.description, address: formatAddress(other) }))
          : [],
      ),
    );
    return found.flat();
  }

  /** Why a resolution chose nothing when every source answered: no source has the provider, or no version fits. */
  notFound(a: ProviderAddress, constraint: VersionConstraint, r: Resolution): ParameterizeError {
    const label = formatAddress(a);
    if (r.offered.size === 0 && r.ignored.length > 0) {
      return new VersionNotFoundError(
        [],
        `no version of ${label} can be used: every version offered is malformed (${r.ignored.slice(0, 12).join(", ")}); tell the operator of the source that versions must be written as MAJOR.MINOR.PATCH`,
      );
    }
    if (r.offered.size === 0) {
      const where = this.applicable(a).map((s) => s.source.description);
      return new ProviderNotFoundError(
        where,
        `provider ${label} not found: ${where.join(", ")} ${where.length > 1 ? "have" : "has"} no provider ${a.namespace}/${a.type}` + elsewhereHint(a, r.elsewhere ?? []),
      );
    }
    const available = [...r.offered.keys()].sort(semver.rcompare);
    const shown = available.slice(0, 12).join(", ") + (available.length > 12 ? `, … (${available.length} in all)` : "");
    const extra = r.skipped.length > 0 ? `; matching but unusable here: ${r.skipped.join(", ")}` : "";
    return new VersionNotFoundError(available, `no version of ${label} matches ${describeWanted(constraint)}; available: ${shown}${extra}`);
  }
}
