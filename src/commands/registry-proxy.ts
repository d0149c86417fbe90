// The loopback stand-in for the provider registries that `convert`'s first step gives Pulumi's Terraform converter: a
// CONNECT proxy on 127.0.0.1 that terminates TLS for the registry hosts (with a CA made for this run alone) and answers
// the two questions the converter asks there, service discovery and a provider's version listing, from what this
// plugin's own installer can install (src/acquire: the Terraform CLI configuration's mirrors, the caches, the
// registry itself). It forwards nothing: any other host, or any other path, is refused.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { rootCertificates } from "node:tls";
import { join } from "node:path";
import { DEFAULT_REGISTRY_HOST, formatAddress, normalizeRegistryHost, type ProviderAddress } from "../acquire/address.js";
import { makeCertificate } from "../x509.js";
import { USER_PROXY_ENV, userProxyValue } from "./user-proxy.js";

/** The hosts Pulumi's converter asks without being told: the default host of its provider addresses, and Terraform's. */
export const PUBLIC_REGISTRY_HOSTS = [DEFAULT_REGISTRY_HOST, "registry.terraform.io"];

/** Where Go looks for the system's CA bundle on Linux and the BSDs, in its order (crypto/x509's certFiles). */
const SYSTEM_BUNDLES = [
  "/etc/ssl/certs/ca-certificates.crt",
  "/etc/pki/tls/certs/ca-bundle.crt",
  "/etc/ssl/ca-bundle.pem",
  "/etc/pki/tls/cacert.pem",
  "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
  "/etc/ssl/cert.pem",
];

/** What the proxy saw, for the step's log: each question with its answer, and each refusal. */
export type ProxyEvent = { kind: "answered"; host: string; path: string; status: number; versions?: number } | { kind: "refused"; target: string; why: string };

export interface RegistryProxyOptions {
  /** The hosts whose TLS it terminates (lowercase, no port): every other CONNECT is refused. */
  hosts: readonly string[];
  /** A provider's installable versions, newest first (empty: none); a throw is told to the converter as a 404 with its message. */
  versions: (address: ProviderAddress) => Promise<string[]>;
  /** The environment whose CA bundle the converter would otherwise trust (SSL_CERT_FILE), kept beside this run's CA. */
  env: NodeJS.ProcessEnv;
  onEvent?: (e: ProxyEvent) => void;
}

export interface RegistryProxy {
  /**
   * HTTPS_PROXY, HTTP_PROXY (lower case too), an empty NO_PROXY, and SSL_CERT_FILE: the system's roots and this run's
   * CA; and the user's own values, which this plugin, started by the CLI under the converter, puts back (user-proxy.ts).
   */
  env: Record<string, string>;
  /** The folder holding the CA bundle; removed by stop(). */
  dir: string;
  /** Closes the servers and every connection, and removes the CA: synchronous, so an interrupt's undo step can call it. */
  stop(): void;
}

/**
 * The registry hosts named in the project's provider sources (`source = "host/namespace/type"`, in every `.tf` file of
 * `dir` and its module folders, `.terraform` aside) besides the public ones the converter asks for bare names.
 */
export function registryHosts(dir: string): string[] {
  const hosts = new Set(PUBLIC_REGISTRY_HOSTS);
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && !e.name.startsWith(".")) walk(join(d, e.name));
      else if (e.isFile() && e.name.endsWith(".tf")) {
        for (const m of readFileSync(join(d, e.name), "utf8").matchAll(/\bsource\s*=\s*"([^"/\s]+)\/[^"/\s]+\/[^"/\s]+"/g)) {
          // Only a hostname holds a dot; a module's `namespace/name/provider` has none in its first part.
          const host = m[1]!.includes(".") ? normalizeRegistryHost(m[1]!) : undefined;
          if (typeof host === "string" && !host.includes(":")) hosts.add(host);
        }
      }
    }
  };
  walk(dir);
  return [...hosts].sort();
}

/** The CA bundle Go would read (the user's SSL_CERT_FILE, else the system's), else Node's own copy of the public roots. */
function systemRoots(env: NodeJS.ProcessEnv): string {
  for (const file of [env["SSL_CERT_FILE"], ...SYSTEM_BUNDLES]) {
    if (file === undefined || file === "" || !existsSync(file)) continue;
    try {
      return readFileSync(file, "utf8");
    } catch {
      // Unreadable: the next one.
    }
  }
  return rootCertificates.join("\n");
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const PLATFORM = { os: process.platform === "win32" ? "windows" : process.platform, arch: process.arch === "x64" ? "amd64" : process.arch };

/** Starts the proxy; its CA (its key only in memory) and bundle live in a new folder of `tmp`. */
export async function startRegistryProxy(tmp: string, options: RegistryProxyOptions): Promise<RegistryProxy> {
  const hosts = new Set(options.hosts.map((h) => h.toLowerCase()));
  const event = options.onEvent ?? (() => undefined);
  const dir = mkdtempSync(join(tmp, "pulumi-tf-convert-registry-"));
  const day = 24 * 3600_000;
  const ca = makeCertificate({ commonName: "pulumi-tf-bridge convert registry stand-in CA", dnsNames: [], ca: true, usage: [], validMs: day });
  const leaf = makeCertificate({ commonName: [...hosts][0] ?? "localhost", dnsNames: [...hosts], ca: false, usage: ["serverAuth"], validMs: day, issuer: ca });
  const bundle = join(dir, "ca-bundle.pem");
  writeFileSync(bundle, `${systemRoots(options.env).trimEnd()}\n${ca.certPem}`, { mode: 0o600 });

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = (req.headers.host ?? "").replace(/:443$/, "").toLowerCase();
    const path = (req.url ?? "").split("?")[0]!;
    const done = (status: number, body: unknown, versions?: number): void => {
      json(res, status, body);
      event({ kind: "answered", host, path, status, ...(versions !== undefined ? { versions } : {}) });
    };
    if (req.method !== "GET" || !hosts.has(host)) return done(404, { errors: ["Not Found"] });
    if (path === "/.well-known/terraform.json") return done(200, { "providers.v1": "/v1/providers/" });
    const m = /^\/v1\/providers\/([^/]+)\/([^/]+)\/versions$/.exec(path);
    if (!m) return done(404, { errors: ["Not Found"] });
    const address: ProviderAddress = { host, namespace: decodeURIComponent(m[1]!).toLowerCase(), type: decodeURIComponent(m[2]!).toLowerCase() };
    let versions: string[];
    try {
      versions = await options.versions(address);
    } catch (e) {
      return done(404, { errors: [`${formatAddress(address)}: ${(e as Error).message}`] }, 0);
    }
    // Terraform's registry protocol: a provider with no version is one the registry does not know.
    if (versions.length === 0) return done(404, { errors: [`${formatAddress(address)}: the plugin's installer has no version of it`] }, 0);
    done(200, { versions: versions.map((version) => ({ version, protocols: ["5.0", "6.0"], platforms: [PLATFORM] })) }, versions.length);
  };

  const tlsSockets = new Set<Socket>();
  const registry = createHttpsServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
    answer(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { errors: [(e as Error).message] });
      else res.destroy();
    });
  });
  const proxy = createHttpServer((req, res) => {
    event({ kind: "refused", target: req.headers.host ?? "?", why: "a plain HTTP request" });
    res.writeHead(403, { "content-type": "text/plain" });
    res.end("only the provider registries' version questions are answered here, over CONNECT\n");
  });
  proxy.on("connect", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = req.url ?? "";
    const m = /^([^:\s]+):(\d+)$/.exec(target);
    const host = m?.[1]?.toLowerCase();
    if (host === undefined || m![2] !== "443" || !hosts.has(host)) {
      event({ kind: "refused", target, why: "not a provider registry of this project" });
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${target}: convert answers only the provider registries' version questions, and passes nothing to the network\n`);
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) socket.unshift(head);
    tlsSockets.add(socket);
    socket.once("close", () => tlsSockets.delete(socket));
    registry.emit("connection", socket);
  });
  proxy.on("clientError", (_e, socket: Socket) => socket.destroy());
  await new Promise<void>((ok, fail) => {
    proxy.once("error", fail);
    proxy.listen(0, "127.0.0.1", ok);
  });
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  let stopped = false;
  return {
    env: { HTTPS_PROXY: url, https_proxy: url, HTTP_PROXY: url, http_proxy: url, NO_PROXY: "", no_proxy: "", SSL_CERT_FILE: bundle, [USER_PROXY_ENV]: userProxyValue(options.env) },
    dir,
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const s of tlsSockets) s.destroy();
      proxy.closeAllConnections();
      proxy.close();
      registry.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
