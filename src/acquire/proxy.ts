// Which proxy a download goes through: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms), as
// Terraform's Go HTTP client reads them, and the dispatcher that sends a request through it.
import { redactUrl } from "./redact.js";

export interface ProxySettings {
  /** For https URLs, and where it came from (for messages). */
  https?: { url: string; from: string };
  /** For http URLs. */
  http?: { url: string; from: string };
  /** NO_PROXY entries, lower case: `*`, host names (with or without a leading dot: the domain and its subdomains), IP addresses, CIDR ranges, each with an optional `:port`. */
  noProxy: string[];
  noProxyFrom?: string;
}

/** Upper case first, as Go's httpproxy.FromEnvironment reads them; an empty value counts as unset. */
function firstSet(env: NodeJS.ProcessEnv, ...names: string[]): { value: string; from: string } | undefined {
  for (const name of names) {
    const v = env[name]?.trim();
    if (v !== undefined && v !== "") return { value: v, from: name };
  }
  return undefined;
}

/** A proxy URL as Go accepts it: a bare `host:port` means http://host:port. */
function proxyUrl(value: string, from: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new Error(`${from}=${redactUrl(value)} is not a proxy URL; set it to http://host:port (or unset it)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new Error(`${from}=${redactUrl(value)}: the proxy must be an http:// or https:// URL (SOCKS is not supported); set it to http://host:port`);
  }
  return u.href;
}

/** The proxy settings of an environment, or undefined when no proxy is set. */
export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const https = firstSet(env, "HTTPS_PROXY", "https_proxy");
  const http = firstSet(env, "HTTP_PROXY", "http_proxy");
  if (https === undefined && http === undefined) return undefined;
  const no = firstSet(env, "NO_PROXY", "no_proxy");
  return {
    ...(https !== undefined ? { https: { url: proxyUrl(https.value, https.from), from: https.from } } : {}),
    ...(http !== undefined ? { http: { url: proxyUrl(http.value, http.from), from: http.from } } : {}),
    noProxy: (no?.value ?? "").split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== ""),
    ...(no !== undefined ? { noProxyFrom: no.from } : {}),
  };
}

function ipv4(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

/** Whether a NO_PROXY entry covers a host (lower case, without brackets) and port. */
function bypasses(entry: string, host: string, port: string): boolean {
  if (entry === "*") return true;
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry);
  if (cidr) {
    const net = ipv4(cidr[1]!);
    const ip = ipv4(host);
    const bits = Number(cidr[2]);
    if (net === undefined || ip === undefined || bits > 32) return false;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((net & mask) >>> 0) === ((ip & mask) >>> 0);
  }
  let name = entry;
  const withPort = /^(.*):(\d+)$/.exec(entry);
  if (withPort && !entry.includes("]") && withPort[1]!.split(":").length === 1) {
    if (withPort[2] !== port) return false;
    name = withPort[1]!;
  }
  name = name.replace(/^\[|\]$/g, "");
  if (name.startsWith("*.")) name = name.slice(1);
  if (name.startsWith(".")) return host.endsWith(name) || host === name.slice(1);
  return host === name || host.endsWith(`.${name}`);
}

/**
 * The proxy for a URL, or undefined for a direct connection. Unlike Go's client, loopback addresses and `localhost`
 * are proxied too unless NO_PROXY names them (as curl does): a proxy that must not see them is told so in NO_PROXY.
 */
export function proxyFor(url: URL, settings: ProxySettings | undefined): { url: string; from: string } | undefined {
  if (settings === undefined) return undefined;
  const chosen = url.protocol === "https:" ? settings.https : url.protocol === "http:" ? settings.http : undefined;
  if (chosen === undefined) return undefined;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return settings.noProxy.some((e) => bypasses(e, host, port)) ? undefined : chosen;
}

/** As Go's url.User: `%40` is `@`; a stray `%` that escapes nothing stays as written. */
function percentDecoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The URL to request and, when it carries a user name or password, the Basic authorization they make. */
export function withoutUserinfo(url: URL): { request: URL; basic?: string } {
  if (url.username === "" && url.password === "") return { request: url };
  const request = new URL(url.href);
  request.username = "";
  request.password = "";
  const pair = `${percentDecoded(url.username)}:${percentDecoded(url.password)}`;
  return { request, basic: `Basic ${Buffer.from(pair).toString("base64")}` };
}

type Dispatcher = import("undici").Dispatcher;
const agents = new Map<string, Promise<Dispatcher>>();

/** One undici ProxyAgent per proxy URL, loaded only when a proxy is in use (it stays out of every other start). */
export function proxyDispatcher(proxy: string): Promise<Dispatcher> {
  let agent = agents.get(proxy);
  if (agent === undefined) {
    // Credentials as Go sends them (a user alone too, with an empty password), not left to undici, which drops a
    // user without a password and throws on a stray `%`.
    const { request, basic } = withoutUserinfo(new URL(proxy));
    agent = import("undici").then(({ ProxyAgent }) => new ProxyAgent({ uri: request.href, ...(basic !== undefined ? { token: basic } : {}) }));
    agents.set(proxy, agent);
  }
  return agent;
}

/** undici's fetch: Node's own fetch takes a dispatcher only from the undici it bundles, which may be another version. */
export async function proxiedFetch(input: URL, init: RequestInit, proxy: string): Promise<Response> {
  const [{ fetch }, dispatcher] = await Promise.all([import("undici"), proxyDispatcher(proxy)]);
  return (await fetch(input, { ...(init as object), dispatcher } as Parameters<typeof fetch>[1])) as unknown as Response;
}
