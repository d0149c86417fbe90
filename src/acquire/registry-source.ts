// The provider registry protocol as a Source (the `direct` installation method): service discovery, the version
// list, a version's download metadata and package, verified by authentication.ts's registry chain.
import { join } from "node:path";
import type { ProviderAddress } from "./address.js";
import { HttpFailure, type Http } from "./http.js";
import { redactUrl } from "./redact.js";
import { registryAuthentication } from "./authentication.js";
import { documentUrl, progressReporter, protocolsSupported, RegistryProtocolError, unpackArchive, type AvailableVersion, type InstallContext, type Source } from "./source.js";
import { hashZh } from "./verify.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export { RegistryProtocolError };

/** Where a host serves `providers.v1`, from `https://<host>/.well-known/terraform.json`. */
export async function discoverProvidersApi(http: Http, host: string): Promise<URL> {
  const wellKnown = new URL(`https://${host}/.well-known/terraform.json`);
  let json: unknown;
  let url: URL;
  try {
    ({ json, url } = await http.getJson(wellKnown, `service discovery for ${host}`));
  } catch (e) {
    if (e instanceof HttpFailure && e.status === 404) {
      throw new RegistryProtocolError(`${host} is not a Terraform registry: ${redactUrl(wellKnown)} does not exist`);
    }
    throw e;
  }
  const v1 = isObject(json) ? json["providers.v1"] : undefined;
  if (typeof v1 !== "string" || v1 === "") {
    throw new RegistryProtocolError(`${host} does not offer a provider registry: its ${redactUrl(wellKnown)} has no "providers.v1" service`);
  }
  const base = new URL(v1, url);
  if (base.protocol !== "https:") throw new RegistryProtocolError(`${host} announces its provider registry at ${redactUrl(base)}, which is not https`);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return base;
}

interface DownloadMeta {
  filename: string;
  downloadUrl: URL;
  shasumsUrl: URL;
  signatureUrl: URL;
  shasum: string;
  protocols?: string[];
  keys: string[];
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
}

export class RegistrySource implements Source {
  readonly description: string;
  private base: Promise<URL> | undefined;

  constructor(
    readonly host: string,
    private readonly http: Http,
  ) {
    this.description = `the registry at ${host}`;
  }

  private api(): Promise<URL> {
    this.base ??= discoverProvidersApi(this.http, this.host);
    this.base.catch(() => (this.base = undefined));
    return this.base;
  }

  async versions(a: ProviderAddress, ctx: InstallContext): Promise<AvailableVersion[] | undefined> {
    const url = new URL(`${a.namespace}/${a.type}/versions`, await this.api());
    let json: unknown;
    try {
      ({ json } = await this.http.getJson(url, `listing versions of ${a.namespace}/${a.type}`));
    } catch (e) {
      if (e instanceof HttpFailure && e.status === 404) return undefined;
      throw e;
    }
    if (!isObject(json) || !Array.isArray(json["versions"])) throw new RegistryProtocolError(`${redactUrl(url)} returned no "versions" list`);
    for (const w of stringList(json["warnings"]) ?? []) ctx.events.warn(`${this.host}: ${w}`);
    const out: AvailableVersion[] = [];
    for (const v of json["versions"]) {
      if (!isObject(v) || typeof v["version"] !== "string") continue;
      const entry: AvailableVersion = { version: v["version"] };
      const protocols = stringList(v["protocols"]);
      if (protocols !== undefined) entry.protocols = protocols;
      if (Array.isArray(v["platforms"])) {
        entry.platforms = v["platforms"].filter(isObject).map((p) => `${String(p["os"])}_${String(p["arch"])}`);
      }
      out.push(entry);
    }
    return out;
  }

  private async downloadMeta(a: ProviderAddress, version: string, platform: string): Promise<DownloadMeta> {
    const [os, arch] = platform.split("_") as [string, string];
    const url = new URL(`${a.namespace}/${a.type}/${version}/download/${os}/${arch}`, await this.api());
    let json: unknown;
    try {
      ({ json } = await this.http.getJson(url, `download information for ${a.type} ${version}`));
    } catch (e) {
      if (e instanceof HttpFailure && e.status === 404) {
        throw new RegistryProtocolError(`${this.host} has no package of ${a.namespace}/${a.type} ${version} for ${platform}`);
      }
      throw e;
    }
    if (!isObject(json)) throw new RegistryProtocolError(`${redactUrl(url)} did not return a JSON object`);
    const str = (k: string): string => {
      const v = json[k];
      if (typeof v !== "string" || v === "") throw new RegistryProtocolError(`${redactUrl(url)}: the download information lacks "${k}"`);
      return v;
    };
    const shasum = str("shasum").toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(shasum)) throw new RegistryProtocolError(`${redactUrl(url)}: "shasum" is not a SHA-256 in hex`);
    const filename = str("filename");
    if (filename.includes("/") || filename.includes("\\") || filename === "." || filename === "..") {
      throw new RegistryProtocolError(`${redactUrl(url)}: "filename" ${JSON.stringify(filename)} is not a plain file name`);
    }
    const signingKeys = isObject(json["signing_keys"]) ? json["signing_keys"]["gpg_public_keys"] : undefined;
    const keys = Array.isArray(signingKeys)
      ? signingKeys.filter(isObject).map((k) => k["ascii_armor"]).filter((k): k is string => typeof k === "string" && k !== "")
      : [];
    const meta: DownloadMeta = {
      filename,
      downloadUrl: documentUrl(str("download_url"), url, "download_url", this.description),
      shasumsUrl: documentUrl(str("shasums_url"), url, "shasums_url", this.description),
      signatureUrl: documentUrl(str("shasums_signature_url"), url, "shasums_signature_url", this.description),
      shasum,
      keys,
    };
    const protocols = stringList(json["protocols"]);
    if (protocols !== undefined) meta.protocols = protocols;
    return meta;
  }

  async install(a: ProviderAddress, version: string, dest: string, scratch: string, ctx: InstallContext): Promise<string> {
    const meta = await this.downloadMeta(a, version, ctx.platform);
    if (!protocolsSupported(meta.protocols)) {
      throw new RegistryProtocolError(
        `${a.type} ${version} speaks plugin protocol ${meta.protocols!.join(", ")}; terraform-provider speaks 5 and 6 (choose another version)`,
      );
    }
    const archive = join(scratch, meta.filename);
    const label = `Downloading terraform-provider-${a.type} ${version} (${ctx.platform}) from ${meta.downloadUrl.host}`;
    let download: Promise<{ sha256: string; bytes: number; from: string }> | undefined;
    const fetchArchive = (): Promise<{ sha256: string; bytes: number; from: string }> =>
      (download ??= (async () => {
        ctx.events.status(`${label}…`);
        const got = await this.http.download(meta.downloadUrl, archive, `downloading ${meta.filename}`, progressReporter(label, ctx.events.status));
        return { ...got, from: meta.downloadUrl.host };
      })());
    const [verified] = await registryAuthentication(ctx.events, ctx.enforceSignature)({
      address: a,
      version,
      host: this.host,
      filename: meta.filename,
      shasum: meta.shasum,
      shasums: await this.http.getBytes(meta.shasumsUrl, `SHA256SUMS of ${a.type} ${version}`),
      keys: meta.keys,
      signature: () => this.http.getBytes(meta.signatureUrl, `the SHA256SUMS signature of ${a.type} ${version}`),
      archive: fetchArchive,
      ...(ctx.signed !== undefined ? { onSigned: ctx.signed } : {}),
    });
    const got = await fetchArchive();
    ctx.registryArchive?.(hashZh(got.sha256));
    ctx.events.status(`Unpacking ${meta.filename}…`);
    await unpackArchive(archive, dest, ctx, meta.filename, this.host);
    return verified!;
  }
}

