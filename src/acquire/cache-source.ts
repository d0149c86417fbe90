// The provider caches seen as a Source: ours (written by installPackage) and Terraform's plugin_cache_dir (only
// read: Terraform manages it and its lock file rules), searched in that order.
import { cp } from "node:fs/promises";
import { dirname } from "node:path";
import semver from "semver";
import type { ProviderAddress } from "./address.js";
import { cachedExecutable, cachedVersions } from "./cache.js";
import { satisfies, type VersionConstraint } from "./constraint.js";
import { RegistryProtocolError, type AvailableVersion, type InstallContext, type Source } from "./source.js";

export class CacheSource implements Source {
  readonly description: string;

  constructor(
    private readonly roots: readonly string[],
    private readonly platform: string,
  ) {
    this.description = `the provider cache (${roots.join(", ")})`;
  }

  /**
   * The executable of a complete cached package, first root first. Unlike install(), this is how callers use a
   * cache: the package is run where it lies, never copied.
   */
  locate(a: ProviderAddress, version: string): string | undefined {
    for (const root of this.roots) {
      const exe = cachedExecutable(root, a, version, this.platform);
      if (exe !== undefined) return exe;
    }
    return undefined;
  }

  /** The newest cached version that satisfies the constraint: what an offline acquisition can still use. */
  newestMatching(a: ProviderAddress, constraint: VersionConstraint): string | undefined {
    return this.roots.flatMap((r) => cachedVersions(r, a, this.platform)).filter((v) => satisfies(constraint, v)).sort(semver.rcompare)[0];
  }

  async versions(a: ProviderAddress): Promise<AvailableVersion[] | undefined> {
    const all = [...new Set(this.roots.flatMap((r) => cachedVersions(r, a, this.platform)))].sort(semver.rcompare);
    return all.length === 0 ? undefined : all.map((version) => ({ version, platforms: [this.platform] }));
  }

  /** Copies a cached package, e.g. from Terraform's shared cache into a directory of one's own. */
  async install(a: ProviderAddress, version: string, dest: string, _scratch: string, ctx: InstallContext): Promise<string> {
    if (ctx.platform !== this.platform) throw new RegistryProtocolError(`${this.description} is searched for ${this.platform} packages, not ${ctx.platform}`);
    const exe = this.locate(a, version);
    if (exe === undefined) throw new RegistryProtocolError(`${this.description} has no package of ${a.namespace}/${a.type} ${version} for ${ctx.platform}`);
    ctx.events.status(`Copying terraform-provider-${a.type} ${version} from ${dirname(exe)}…`);
    await cp(dirname(exe), dest, { recursive: true, preserveTimestamps: true });
    return "from the provider cache";
  }
}
