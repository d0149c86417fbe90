// Mirrors as Sources: the provider network mirror protocol (index.json, <version>.json, archives verified by
// authentication.ts's mirror chain) and filesystem mirrors in Terraform's packed and unpacked layouts.
import { cp, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ProviderAddress } from "./address.js";
import { mirrorAuthentication, unsignedRefused } from "./authentication.js";
import { hostDirName } from "./cache.js";
import { comparisonHost } from "./credentials.js";
import { HttpFailure, type Http } from "./http.js";
import { redactUrl } from "./redact.js";
import { documentUrl, progressReporter, RegistryProtocolError, unpackArchive, type AvailableVersion, type InstallContext, type Source } from "./source.js";
import { isExactVersion } from "./version.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export class NetworkMirrorSource implements Source {
  readonly description: string;

  constructor(
    private readonly baseUrl: string,
    private readonly http: Http,
  ) {
    this.description = `network mirror ${redactUrl(baseUrl)}`;
  }

  /** `<base><host>/<namespace>/<type>/`, the host in its ASCII comparison form as Terraform writes it. */
  private providerUrl(a: ProviderAddress): URL {
    return new URL(`${comparisonHost(a.host) ?? a.host}/${a.namespace}/${a.type}/`, this.baseUrl);
  }

  async versions(a: ProviderAddress): Promise<AvailableVersion[] | undefined> {
    const url = new URL("index.json", this.providerUrl(a));
    let json: unknown;
    try {
      ({ json } = await this.http.getJson(url, `listing versions of ${a.namespace}/${a.type} on ${this.description}`));
    } catch (e) {
      if (e instanceof HttpFailure && e.status === 404) return undefined;
      throw e;
    }
    if (!isObject(json) || !isObject(json["versions"])) throw new RegistryProtocolError(`${redactUrl(url)} has no "versions" object`);
    return Object.keys(json["versions"]).map((version) => ({ version }));
  }

  async install(a: ProviderAddress, version: string, dest: string, scratch: string, ctx: InstallContext): Promise<string> {
    if (ctx.enforceSignature) throw unsignedRefused(`${a.namespace}/${a.type} ${version} from ${this.description}`, "a network mirror carries no signatures, only hashes");
    const url = new URL(`${version}.json`, this.providerUrl(a));
    let json: unknown;
    let final: URL;
    try {
      ({ json, url: final } = await this.http.getJson(url, `the packages of ${a.type} ${version} on ${this.description}`));
    } catch (e) {
      if (e instanceof HttpFailure && e.status === 404) throw new RegistryProtocolError(`${this.description} has no ${a.namespace}/${a.type} ${version}`);
      throw e;
    }
    const archives = isObject(json) && isObject(json["archives"]) ? json["archives"] : undefined;
    if (archives === undefined) throw new RegistryProtocolError(`${redactUrl(url)} has no "archives" object`);
    const entry = archives[ctx.platform];
    if (!isObject(entry) || typeof entry["url"] !== "string") {
      throw new RegistryProtocolError(`${this.description} has no package of ${a.namespace}/${a.type} ${version} for ${ctx.platform}`);
    }
    const hashes = Array.isArray(entry["hashes"]) ? entry["hashes"].filter((h): h is string => typeof h === "string") : [];
    const archiveUrl = documentUrl(entry["url"], final, `the archive url for ${ctx.platform}`, this.description);
    const archive = join(scratch, "package.zip");
    const label = `Downloading terraform-provider-${a.type} ${version} (${ctx.platform}) from ${archiveUrl.host}`;
    ctx.events.status(`${label}…`);
    const got = await this.http.download(archiveUrl, archive, `downloading ${a.type} ${version}`, progressReporter(label, ctx.events.status));
    let unpacked: Promise<string> | undefined;
    const [note] = await mirrorAuthentication(ctx.events)({
      what: `the package of ${a.type} ${version} from ${this.description}`,
      short: `${a.type} ${version}`,
      mirror: this.description,
      hashes,
      sha256: got.sha256,
      unpack: () => (unpacked ??= unpackArchive(archive, dest, ctx, `the archive ${redactUrl(archiveUrl)}`, this.description).then(() => dest)),
    });
    return note!;
  }
}

interface FsPackage {
  packed?: string;
  unpacked?: string;
}

/**
 * A directory in Terraform's mirror layouts, packed `HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`
 * or unpacked `HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/`. Filesystem mirrors carry no checksums, so (as in Terraform)
 * their packages are trusted as they are.
 */
export class FilesystemMirrorSource implements Source {
  readonly description: string;

  constructor(private readonly path: string) {
    this.description = `filesystem mirror ${path}`;
  }

  /** Both spellings of an internationalized host may exist on disk. */
  private providerDirs(a: ProviderAddress): string[] {
    const ascii = comparisonHost(a.host) ?? a.host;
    return [...new Set([hostDirName(a.host), ascii, a.host])].map((h) => join(this.path, h, a.namespace, a.type));
  }

  /** version → platform → package location */
  private async scan(a: ProviderAddress): Promise<Map<string, Map<string, FsPackage>>> {
    const out = new Map<string, Map<string, FsPackage>>();
    const put = (version: string, platform: string, p: FsPackage): void => {
      const v = out.get(version) ?? new Map<string, FsPackage>();
      out.set(version, v);
      v.set(platform, { ...v.get(platform), ...p });
    };
    const packed = new RegExp(`^terraform-provider-${a.type}_([^_]+)_([a-z0-9]+_[a-z0-9]+)\\.zip$`);
    for (const dir of this.providerDirs(a)) {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const m = packed.exec(e.name.toLowerCase());
        if (m && isExactVersion(m[1])) {
          put(m[1]!, m[2]!, { packed: join(dir, e.name) });
          continue;
        }
        if (!isExactVersion(e.name)) continue;
        const vdir = join(dir, e.name);
        if (!(await stat(vdir).then((s) => s.isDirectory(), () => false))) continue;
        for (const p of await readdir(vdir)) {
          if (/^[a-z0-9]+_[a-z0-9]+$/.test(p) && (await stat(join(vdir, p)).then((s) => s.isDirectory(), () => false))) {
            put(e.name, p, { unpacked: join(vdir, p) });
          }
        }
      }
    }
    return out;
  }

  /**
   * The other host directories of this mirror that hold packages of `a`'s namespace/type, as they are named on disk
   * (`registry.terraform.io` in a tree `terraform providers mirror` wrote): what a "not found" names as the address
   * to give instead.
   */
  async otherHosts(a: ProviderAddress): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.path, { withFileTypes: true });
    } catch {
      return [];
    }
    const asked = comparisonHost(a.host) ?? a.host;
    const hosts: string[] = [];
    for (const e of entries.sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const host = comparisonHost(e.name);
      if (host === undefined || host === asked) continue;
      if ((await this.scan({ host: e.name, namespace: a.namespace, type: a.type })).size > 0) hosts.push(e.name);
    }
    return hosts;
  }

  async versions(a: ProviderAddress): Promise<AvailableVersion[] | undefined> {
    const found = await this.scan(a);
    if (found.size === 0) return undefined;
    return [...found].map(([version, platforms]) => ({ version, platforms: [...platforms.keys()] }));
  }

  async install(a: ProviderAddress, version: string, dest: string, _scratch: string, ctx: InstallContext): Promise<string> {
    if (ctx.enforceSignature) throw unsignedRefused(`${a.namespace}/${a.type} ${version} from ${this.description}`, "a filesystem mirror carries no signatures");
    const pkg = (await this.scan(a)).get(version)?.get(ctx.platform);
    if (pkg === undefined) throw new RegistryProtocolError(`${this.description} has no package of ${a.namespace}/${a.type} ${version} for ${ctx.platform}`);
    if (pkg.unpacked !== undefined) {
      ctx.events.status(`Copying terraform-provider-${a.type} ${version} from ${pkg.unpacked}…`);
      await cp(pkg.unpacked, dest, { recursive: true, preserveTimestamps: true, dereference: true });
    } else {
      ctx.events.status(`Unpacking ${pkg.packed}…`);
      await unpackArchive(pkg.packed!, dest, ctx, `the archive ${pkg.packed!}`, this.description);
    }
    return "from a filesystem mirror (mirrors carry no signatures)";
  }
}
