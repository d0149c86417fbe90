// The provider registry protocol (the `direct` installation method): service discovery, the version list, a
// version's download metadata, then SHA256SUMS checked against the registry's OpenPGP keys and the archive's SHA-256.
import { join } from "node:path";
import type { ProviderAddress } from "./address.js";
import { HttpFailure, type Http } from "./http.js";
import { formatBytes, progressReporter, protocolsSupported, unpackArchive, type AvailableVersion, type InstallContext, type PackageSource } from "./source.js";
import { hashZh, parseSha256Sums, SignatureError, verifyDetachedSignature, type SignatureProblem } from "./verify.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export class RegistryProtocolError extends Error {
  override name = "RegistryProtocolError";
}

/** Where a host serves `providers.v1`, from `https://<host>/.well-known/terraform.json`. */
export async function discoverProvidersApi(http: Http, host: string): Promise<URL> {
  const wellKnown = new URL(`https://${host}/.well-known/terraform.json`);
  let json: unknown;
  let url: URL;
  try {
    ({ json, url } = await http.getJson(wellKnown, `service discovery for ${host}`));
  } catch (e) {
    if (e instanceof HttpFailure && e.status === 404) {
      throw new RegistryProtocolError(`${host} is not a Terraform registry: ${wellKnown.href} does not exist`);
    }
    throw e;
  }
  const v1 = isObject(json) ? json["providers.v1"] : undefined;
  if (typeof v1 !== "string" || v1 === "") {
    throw new RegistryProtocolError(`${host} does not offer a provider registry: its ${wellKnown.href} has no "providers.v1" service`);
  }
  const base = new URL(v1, url);
  if (base.protocol !== "https:") throw new RegistryProtocolError(`${host} announces its provider registry at ${base.href}, which is not https`);
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

/** What to do about each way a signature fails; none of them is safe to ignore. */
const SIGNATURE_ADVICE: Record<SignatureProblem, (host: string) => string> = {
  "unknown-key": (host) =>
    `The registry's keys and the key that signed disagree: do not use this package; tell the operator of ${host}, or choose another version`,
  "expired-key": () =>
    `Ask the provider's publisher to sign with a current key, or choose a version signed before the key expired`,
  mismatch: (host) => `SHA256SUMS or its signature was altered: do not use this package; try again, and if it persists tell the operator of ${host}`,
  unreadable: (host) => `${host} serves a signature or key that cannot be read: tell its operator, or choose another version`,
};

export class RegistrySource implements PackageSource {
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
    if (!isObject(json) || !Array.isArray(json["versions"])) throw new RegistryProtocolError(`${url.href} returned no "versions" list`);
    for (const w of stringList(json["warnings"]) ?? []) ctx.warn(`${this.host}: ${w}`);
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
    if (!isObject(json)) throw new RegistryProtocolError(`${url.href} did not return a JSON object`);
    const str = (k: string): string => {
      const v = json[k];
      if (typeof v !== "string" || v === "") throw new RegistryProtocolError(`${url.href}: the download information lacks "${k}"`);
      return v;
    };
    const shasum = str("shasum").toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(shasum)) throw new RegistryProtocolError(`${url.href}: "shasum" is not a SHA-256 in hex`);
    const filename = str("filename");
    if (filename.includes("/") || filename.includes("\\") || filename === "." || filename === "..") {
      throw new RegistryProtocolError(`${url.href}: "filename" ${JSON.stringify(filename)} is not a plain file name`);
    }
    const signingKeys = isObject(json["signing_keys"]) ? json["signing_keys"]["gpg_public_keys"] : undefined;
    const keys = Array.isArray(signingKeys)
      ? signingKeys.filter(isObject).map((k) => k["ascii_armor"]).filter((k): k is string => typeof k === "string" && k !== "")
      : [];
    const meta: DownloadMeta = {
      filename,
      downloadUrl: new URL(str("download_url"), url),
      shasumsUrl: new URL(str("shasums_url"), url),
      signatureUrl: new URL(str("shasums_signature_url"), url),
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
    // The signature is checked before the (possibly large) archive is fetched.
    const shasums = await this.http.getBytes(meta.shasumsUrl, `SHA256SUMS of ${a.type} ${version}`);
    let verified: string;
    if (meta.keys.length === 0) {
      ctx.warn(
        `${this.host} publishes no signing keys for ${a.namespace}/${a.type} ${version}: its SHA256SUMS signature cannot be checked. ` +
          `The archive is still checked against SHA256SUMS.`,
      );
      verified = "checksum only: the registry gives no signing keys";
    } else {
      const signature = await this.http.getBytes(meta.signatureUrl, `the SHA256SUMS signature of ${a.type} ${version}`);
      try {
        const { keyId, expired } = await verifyDetachedSignature(shasums, signature, meta.keys);
        verified = `signed by key ${keyId}`;
        if (expired !== undefined) {
          const when = (d: Date): string => d.toISOString().slice(0, 10);
          ctx.warn(
            `the SHA256SUMS of ${a.namespace}/${a.type} ${version} is signed by key ${keyId}, which expired on ${when(expired.at)}; ` +
              `the signature was made${expired.signedAt !== undefined ? ` on ${when(expired.signedAt)}` : ""} while the key was valid, so it is accepted ` +
              `(as Terraform accepts it). Its publisher should sign new releases with a current key.`,
          );
          verified += `, expired ${when(expired.at)}`;
        }
      } catch (e) {
        const problem: SignatureProblem = e instanceof SignatureError ? e.problem : "mismatch";
        throw new RegistryProtocolError(
          `the SHA256SUMS of ${a.type} ${version} failed signature verification: ${(e as Error).message}. ${SIGNATURE_ADVICE[problem](this.host)}`,
          { cause: e },
        );
      }
    }
    const listed = parseSha256Sums(Buffer.from(shasums).toString("utf8")).get(meta.filename);
    if (listed === undefined) throw new RegistryProtocolError(`the signed SHA256SUMS of ${a.type} ${version} does not list ${meta.filename}`);
    if (listed !== meta.shasum) {
      throw new RegistryProtocolError(
        `checksum mismatch for ${meta.filename}: the registry says ${meta.shasum} but the signed SHA256SUMS says ${listed}. ` +
          `Do not use this package: tell the operator of ${this.host}`,
      );
    }
    const archive = join(scratch, meta.filename);
    const label = `Downloading terraform-provider-${a.type} ${version} (${ctx.platform}) from ${meta.downloadUrl.host}`;
    ctx.status(`${label}…`);
    const got = await this.http.download(meta.downloadUrl, archive, `downloading ${meta.filename}`, progressReporter(label, ctx.status));
    if (got.sha256 !== meta.shasum) {
      throw new RegistryProtocolError(
        `checksum mismatch for ${meta.filename} (${formatBytes(got.bytes)}): expected SHA-256 ${meta.shasum} (signed SHA256SUMS), got ${got.sha256}. ` +
          `The archive was altered or damaged on the way from ${meta.downloadUrl.host}: try again, and if it persists tell the operator of ${this.host}`,
      );
    }
    ctx.registryArchive?.(hashZh(got.sha256));
    ctx.status(`Unpacking ${meta.filename}…`);
    await unpackArchive(archive, dest, ctx, meta.filename, this.host);
    return verified;
  }
}

