// A FAKE of the Terraform provider registry (and of a provider network mirror), for tests only. No real registry is
// reachable from these machines, and a real one cannot be made to serve a corrupted archive, a bad signature or a
// download cut off half-way; this one can. Everything it serves is otherwise real: HTTPS on 127.0.0.1 with a CA
// generated at start, zip archives of the real provider binaries built by scripts/build-peers.sh, SHA256SUMS signed
// by an OpenPGP key generated at start, and the JSON documents of the registry and network mirror protocols.
import { createHash, webcrypto, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import * as openpgp from "openpgp";
import { buildZip, deflate, type ZipEntry } from "./registry-zip.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** What can go wrong with one version, on purpose. */
export type Fault =
  | "bad-checksum" // the archive served is not the one SHA256SUMS and `shasum` describe
  | "bad-signature" // the signature is by the listed key, but over other bytes than the SHA256SUMS served
  | "unknown-key" // SHA256SUMS is signed by a key the registry does not list
  | "expired-key" // the listed key expired two days ago, and the signature was made after that (now)
  | "expired-key-signed-before" // the listed key has expired since, but the signature was made while it was valid
  | "cut-off" // the archive download stops half-way (the connection is destroyed)
  | "truncated" // the archive file itself is cut in half, and served whole with a Content-Length that agrees
  | "zip-slip" // a correctly signed archive whose entries include ../ paths
  | "no-keys" // the registry lists no signing keys
  | "redirect-loop" // the archive's URL redirects to another that redirects back, forever
  | "oversized" // the archive carries `oversizeBytes` of extra stored data, so a lowered size limit refuses it
  | "oversized-chunked"; // the same, served without Content-Length, so only counting the bytes as they come finds out

/**
 * A fault on requests whose path matches, for the first `times` of them (every one when unset); the first rule that
 * matches and has turns left applies. Rules cover the metadata documents and archives of registry and mirror alike.
 */
export interface FaultRule {
  path: RegExp;
  times?: number;
  /** Answer this status instead (e.g. 503), with a Retry-After header when `retryAfterSeconds` is set. */
  status?: number;
  retryAfterSeconds?: number;
  /** Wait this long before answering at all (beyond the client's timeout, a "slow" server). */
  delayMs?: number;
  /** Archives only: send the headers and half of the body, then nothing for this long, then drop the connection. */
  stallMs?: number;
}

export interface FakeVersion {
  version: string;
  /** The file packaged as this version's provider; default the type's entry in `binaries`. */
  binary?: string;
  /** Default ["5.0"]. */
  protocols?: string[];
  /** Default: the current platform only. */
  platforms?: string[];
  fault?: Fault;
  /**
   * The archive's entries, made from the provider's executable entry (default: that entry alone): hostile archives
   * (wrong CRC-32s, duplicate entries) that are nonetheless correctly listed and signed.
   */
  entries?: (exe: ZipEntry) => ZipEntry[];
}

export interface FakeRegistryOptions {
  /** "namespace/type" → versions. */
  providers: Record<string, FakeVersion[]>;
  /** Binary to package for each type: type → path (e.g. peerPath("random")). */
  binaries: Record<string, string>;
  /** When set, /v1/ and /files/ answer 401 without `Authorization: Bearer <token>`. */
  token?: string;
  /** Pause between 64 KiB chunks of archive downloads, to make concurrent downloads overlap. */
  chunkDelayMs?: number;
  /** Extra bytes in "oversized" archives; default 4 MiB. */
  oversizeBytes?: number;
  /** Faults on requests by path; also settable later through `rules`. */
  rules?: FaultRule[];
  /**
   * Serve download_url as /redirect/files/… on this host, which redirects to the same file at https://localhost:<port>
   * — another host as far as credentials go (the token is required only on 127.0.0.1).
   */
  redirectDownloadsToLocalhost?: boolean;
  /** false: the network mirror lists archives without hashes (the protocol allows it), so nothing checks them. */
  mirrorHashes?: boolean;
  /**
   * A test's own answer for some requests (a hostile document, a demand for credentials), asked before anything
   * else: true when it answered, false to let the registry answer as usual.
   */
  respond?: (path: string, req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /**
   * Other names the certificate is valid for (e.g. `registry.terraform.io`), for a client that reaches this server
   * under a public registry's name through test/support/host-tunnel.ts.
   */
  hostnames?: string[];
}

export const CURRENT_PLATFORM = `${process.platform === "win32" ? "windows" : process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;

interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** A throwaway CA and a server certificate for 127.0.0.1, localhost and `hostnames` signed by it. */
export async function makeTestCa(hostnames: readonly string[] = []): Promise<TlsMaterial> {
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
  const caKeys = (await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
  const leafKeys = (await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const serial = (): string => "01" + randomBytes(15).toString("hex");
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: "CN=terraform-provider test registry CA",
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 2 * 24 * 3600_000),
    keys: caKeys,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: "CN=127.0.0.1",
    issuer: ca.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 2 * 24 * 3600_000),
    signingKey: caKeys.privateKey,
    publicKey: leafKeys.publicKey,
    signingAlgorithm: alg,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: "ip", value: "127.0.0.1" },
        { type: "dns", value: "localhost" },
        ...hostnames.map((value) => ({ type: "dns" as const, value })),
      ]),
    ],
  });
  return {
    caPem: ca.toString("pem"),
    certPem: leaf.toString("pem"),
    keyPem: pem("PRIVATE KEY", await webcrypto.subtle.exportKey("pkcs8", leafKeys.privateKey)),
  };
}

interface Built {
  filename: string;
  zip: Buffer;
  served: Buffer;
  sha256: string;
  sums: Buffer;
  signature: Uint8Array;
  /** h1: of the unpacked package, computed here independently of the code under test. */
  h1: string;
}

const sha256 = (b: Buffer | Uint8Array): string => createHash("sha256").update(b).digest("hex");

export class FakeRegistry {
  readonly hits: string[] = [];
  /** Turns each rule has taken. */
  private ruleTurns = new Map<FaultRule, number>();
  /** Paths requested, with the Authorization header each carried. */
  readonly auth: { path: string; host: string; authorization?: string }[] = [];
  private readonly built = new Map<string, Promise<Built>>();
  private readonly deflated = new Map<string, Buffer>();

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly caFile: string,
    private readonly dir: string,
    private readonly options: FakeRegistryOptions,
    private readonly key: openpgp.PrivateKey,
    readonly publicKeyArmored: string,
    private readonly evilKey: openpgp.PrivateKey,
    private readonly expiredKey: openpgp.PrivateKey,
    private readonly expiredKeyRenewed: openpgp.PrivateKey,
    private readonly expiredKeyBorn: Date,
  ) {}

  static async start(options: FakeRegistryOptions): Promise<FakeRegistry> {
    const tls = await makeTestCa(options.hostnames);
    const dir = mkdtempSync(join(tmpdir(), "tfbridge-fake-registry-"));
    const caFile = join(dir, "ca.pem");
    writeFileSync(caFile, tls.caPem);
    const gen = async (name: string) =>
      (await openpgp.generateKey({ type: "ecc", curve: "ed25519Legacy", userIDs: [{ name, email: "registry@example.test" }], format: "object" })).privateKey;
    const key = await gen("Test Registry");
    const evilKey = await gen("Someone Else");
    // A key valid for one day from three days ago; its twin is the same key material re-certified without expiry,
    // the only way openpgp.js will make a signature dated after the listed key expired.
    const expiredKeyBorn = new Date(Date.now() - 3 * 24 * 3600_000);
    const expiredUser = [{ name: "Expired Registry Key", email: "registry@example.test" }];
    const expiredKey = (
      await openpgp.generateKey({ type: "ecc", curve: "ed25519Legacy", userIDs: expiredUser, keyExpirationTime: 24 * 3600, date: expiredKeyBorn, format: "object" })
    ).privateKey;
    const expiredKeyRenewed = (await openpgp.reformatKey({ privateKey: expiredKey, userIDs: expiredUser, keyExpirationTime: 0, date: expiredKeyBorn, format: "object" }))
      .privateKey;
    let self: FakeRegistry | undefined;
    const server = createServer({ key: tls.keyPem, cert: tls.certPem }, (req, res) => {
      void self!.handle(req, res).catch((e: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(e));
        } else res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    self = new FakeRegistry(server, `127.0.0.1:${port}`, caFile, dir, options, key, key.toPublic().armor(), evilKey, expiredKey, expiredKeyRenewed, expiredKeyBorn);
    return self;
  }

  /** Requests whose path matches. */
  count(re: RegExp): number {
    return this.hits.filter((h) => re.test(h)).length;
  }

  setVersions(provider: string, versions: FakeVersion[]): void {
    this.options.providers[provider] = versions;
  }

  set token(t: string | undefined) {
    this.options.token = t;
  }

  set respond(fn: FakeRegistryOptions["respond"]) {
    this.options.respond = fn;
  }

  /** Replaces the fault rules (and forgets the turns the old ones took). */
  set rules(rules: FaultRule[]) {
    this.options.rules = rules;
    this.ruleTurns.clear();
  }

  /** The armored public key listed for a version with this fault. */
  private listedKey(fault: Fault | undefined): { keyId: string; armored: string } {
    const k = fault === "expired-key" || fault === "expired-key-signed-before" ? this.expiredKey : this.key;
    return { keyId: k.getKeyID().toHex().toUpperCase(), armored: k.toPublic().armor() };
  }

  /** The id of the expired key and when it expired, for tests to look for in messages. */
  get expired(): { keyId: string; at: Date } {
    return { keyId: this.expiredKey.getKeyID().toHex().toUpperCase(), at: new Date(this.expiredKeyBorn.getTime() + 24 * 3600_000) };
  }

  private takeRule(path: string): FaultRule | undefined {
    for (const rule of this.options.rules ?? []) {
      if (!rule.path.test(path)) continue;
      const used = this.ruleTurns.get(rule) ?? 0;
      if (rule.times !== undefined && used >= rule.times) continue;
      this.ruleTurns.set(rule, used + 1);
      return rule;
    }
    return undefined;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private find(ns: string, type: string, version: string): FakeVersion | undefined {
    return this.options.providers[`${ns}/${type}`]?.find((v) => v.version === version);
  }

  /** The archive and its signed checksums for one version (current platform), built once. */
  build(ns: string, type: string, v: FakeVersion): Promise<Built> {
    const id = `${ns}/${type}/${v.version}/${v.fault ?? ""}/${v.binary ?? ""}`;
    let b = this.built.get(id);
    if (!b) {
      b = this.buildNow(type, v);
      this.built.set(id, b);
    }
    return b;
  }

  private async buildNow(type: string, v: FakeVersion): Promise<Built> {
    const binaryPath = v.binary ?? this.options.binaries[type];
    if (binaryPath === undefined) throw new Error(`no binary for provider type ${type}`);
    const binary = readFileSync(binaryPath);
    let deflated = this.deflated.get(binaryPath);
    if (!deflated) {
      deflated = deflate(binary);
      this.deflated.set(binaryPath, deflated);
    }
    const exe = `terraform-provider-${type}_v${v.version}`;
    const exeEntry: ZipEntry = { name: exe, data: binary, deflated, mode: 0o100755 };
    const entries: ZipEntry[] = v.entries ? v.entries(exeEntry) : [exeEntry];
    if (v.fault === "zip-slip") entries.unshift({ name: "../escaped-by-zip-slip", data: Buffer.from("pwned\n"), mode: 0o100644 });
    if (v.fault === "oversized" || v.fault === "oversized-chunked") {
      entries.push({ name: "padding.bin", data: randomBytes(this.options.oversizeBytes ?? 4 * 1024 * 1024), stored: true, mode: 0o100644 });
    }
    const filename = `terraform-provider-${type}_${v.version}_${CURRENT_PLATFORM}.zip`;
    const zip = buildZip(entries);
    let served = Buffer.from(zip);
    if (v.fault === "bad-checksum") served[served.length >> 1] = served[served.length >> 1]! ^ 0xff;
    if (v.fault === "truncated") served = served.subarray(0, served.length >> 1);
    const sums = Buffer.from(`${sha256(zip)}  ${filename}\n${"0".repeat(64)}  terraform-provider-${type}_${v.version}_windows_arm64.zip\n`);
    const signingKey =
      v.fault === "unknown-key" ? this.evilKey : v.fault === "expired-key" ? this.expiredKeyRenewed : v.fault === "expired-key-signed-before" ? this.expiredKey : this.key;
    const signed = v.fault === "bad-signature" ? Buffer.concat([sums, Buffer.from("# altered\n")]) : sums;
    // While the expired key was valid: an hour after it was made.
    const date = v.fault === "expired-key-signed-before" ? new Date(this.expiredKeyBorn.getTime() + 3600_000) : undefined;
    const signature = await openpgp.sign({ message: await openpgp.createMessage({ binary: signed }), signingKeys: signingKey, detached: true, format: "binary", date });
    const summary = `${sha256(binary)}  ${exe}\n`;
    const h1 = "h1:" + createHash("sha256").update(summary).digest("base64");
    return { filename, zip, served, sha256: sha256(zip), sums, signature: signature as Uint8Array, h1 };
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "https://x").pathname;
    this.hits.push(path);
    this.auth.push({ path, host: req.headers.host ?? "", authorization: req.headers.authorization });
    if (this.options.respond !== undefined && (await this.options.respond(path, req, res))) return;
    const rule = this.takeRule(path);
    if (rule?.delayMs !== undefined && rule.stallMs === undefined) await pause(res, rule.delayMs);
    if (res.destroyed) return;
    if (rule?.status !== undefined) {
      res.writeHead(rule.status, { "content-type": "application/json", ...(rule.retryAfterSeconds !== undefined ? { "retry-after": String(rule.retryAfterSeconds) } : {}) });
      return void res.end(JSON.stringify({ errors: [`fault rule: ${rule.status}`] }));
    }
    // Two URLs that redirect to each other.
    const loop = /^\/loop\/(a|b)(\/.*)$/.exec(path);
    if (loop) {
      res.writeHead(302, { location: `/loop/${loop[1] === "a" ? "b" : "a"}${loop[2]}` });
      return void res.end();
    }
    if (path === "/.well-known/terraform.json") return this.json(res, 200, { "providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/" });
    const onLocalhost = (req.headers.host ?? "").startsWith("localhost:");
    if (this.options.token !== undefined && !onLocalhost && /^\/(v1|files|mirror|redirect)\//.test(path) && req.headers.authorization !== `Bearer ${this.options.token}`) {
      return this.json(res, 401, { errors: ["not authorized"] });
    }
    if (path.startsWith("/redirect/")) {
      res.writeHead(302, { location: `https://localhost:${this.host.split(":")[1]}${path.slice("/redirect".length)}` });
      return void res.end();
    }
    let m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (m) {
      const versions = this.options.providers[`${m[1]}/${m[2]}`];
      if (!versions) return this.json(res, 404, { errors: ["Not Found"] });
      return this.json(res, 200, {
        id: `${m[1]}/${m[2]}`,
        versions: versions.map((v) => ({
          version: v.version,
          protocols: v.protocols ?? ["5.0"],
          platforms: (v.platforms ?? [CURRENT_PLATFORM]).map((p) => ({ os: p.split("_")[0], arch: p.split("_")[1] })),
        })),
        warnings: null,
      });
    }
    m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/([^/]+)\/download\/([^/]+)\/([^/]+)$/.exec(path);
    if (m) {
      const [, ns, type, version, os, arch] = m as unknown as [string, string, string, string, string, string];
      const v = this.find(ns, type, version);
      if (!v || !(v.platforms ?? [CURRENT_PLATFORM]).includes(`${os}_${arch}`) || `${os}_${arch}` !== CURRENT_PLATFORM) {
        return this.json(res, 404, { errors: ["Not Found"] });
      }
      const b = await this.build(ns, type, v);
      const files = `/files/${ns}/${type}/${version}`;
      return this.json(res, 200, {
        protocols: v.protocols ?? ["5.0"],
        os,
        arch,
        filename: b.filename,
        // Relative to this document, as the protocol allows.
        download_url:
          v.fault === "redirect-loop"
            ? `/loop/a/files/${ns}/${type}/${version}/${b.filename}`
            : this.options.redirectDownloadsToLocalhost
              ? `/redirect/files/${ns}/${type}/${version}/${b.filename}`
              : `../../../../../../../files/${ns}/${type}/${version}/${b.filename}`,
        shasums_url: `https://${this.host}${files}/SHA256SUMS`,
        shasums_signature_url: `${files}/SHA256SUMS.sig`,
        shasum: b.sha256,
        signing_keys: {
          gpg_public_keys:
            v.fault === "no-keys"
              ? []
              : [{ key_id: this.listedKey(v.fault).keyId, ascii_armor: this.listedKey(v.fault).armored, trust_signature: "", source: "Test", source_url: null }],
        },
      });
    }
    m = /^\/files\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (m) {
      const [, ns, type, version, file] = m as unknown as [string, string, string, string, string];
      const v = this.find(ns, type, version);
      if (!v) return this.json(res, 404, { errors: ["Not Found"] });
      const b = await this.build(ns, type, v);
      if (file === "SHA256SUMS") {
        res.writeHead(200, { "content-type": "text/plain" });
        return void res.end(b.sums);
      }
      if (file === "SHA256SUMS.sig") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        return void res.end(Buffer.from(b.signature));
      }
      if (file === b.filename) {
        return this.sendArchive(res, b.served, { cutOff: v.fault === "cut-off", chunked: v.fault === "oversized-chunked", stallMs: rule?.stallMs });
      }
      return this.json(res, 404, { errors: ["Not Found"] });
    }
    // Network mirror protocol: /mirror/<host>/<namespace>/<type>/index.json and /<version>.json
    m = /^\/mirror\/([^/]+)\/([^/]+)\/([^/]+)\/(index|[^/]+)\.json$/.exec(path);
    if (m) {
      const [, , ns, type, what] = m as unknown as [string, string, string, string, string];
      const versions = this.options.providers[`${ns}/${type}`];
      if (!versions) return this.json(res, 404, { errors: ["Not Found"] });
      if (what === "index") return this.json(res, 200, { versions: Object.fromEntries(versions.map((v) => [v.version, {}])) });
      const v = versions.find((x) => x.version === what);
      if (!v) return this.json(res, 404, { errors: ["Not Found"] });
      const b = await this.build(ns, type, v);
      // h1 for even versions' last digit, zh otherwise: both hash schemes get exercised.
      const hashes = Number(v.version.split(".").pop()) % 2 === 0 ? [b.h1] : [`zh:${b.sha256}`];
      const url = `${v.fault === "redirect-loop" ? "/loop/a" : ""}/files/${ns}/${type}/${v.version}/${b.filename}`;
      return this.json(res, 200, { archives: { [CURRENT_PLATFORM]: this.options.mirrorHashes === false ? { url } : { url, hashes } } });
    }
    return this.json(res, 404, { errors: ["Not Found"] });
  }

  private async sendArchive(res: ServerResponse, data: Buffer, how: { cutOff: boolean; chunked: boolean; stallMs: number | undefined }): Promise<void> {
    res.writeHead(200, { "content-type": "application/zip", ...(how.chunked ? {} : { "content-length": String(data.length) }) });
    const chunk = 64 * 1024;
    const stopAt = how.cutOff || how.stallMs !== undefined ? data.length >> 1 : data.length;
    for (let off = 0; off < stopAt; off += chunk) {
      const piece = data.subarray(off, Math.min(off + chunk, stopAt));
      if (!res.write(piece)) await new Promise<void>((r) => res.once("drain", () => r()));
      if (this.options.chunkDelayMs) await new Promise((r) => setTimeout(r, this.options.chunkDelayMs));
      if (res.destroyed) return;
    }
    if (how.stallMs !== undefined) {
      // Silence with the connection open: only the client's idle timer can tell.
      await pause(res, how.stallMs);
      res.socket?.destroy();
      return;
    }
    if (how.cutOff) {
      // Let the half already written reach the client, then drop the connection mid-body.
      await new Promise((r) => setTimeout(r, 50));
      res.socket?.destroy();
      return;
    }
    res.end();
  }
}

/** Waits `ms`, or less when the client hangs up, so a stopped server leaves no timers behind. */
function pause(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once("close", done);
    function done(): void {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    }
  });
}
