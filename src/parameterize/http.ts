// HTTP for registries and mirrors over Node's fetch: per-host bearer tokens (never sent to another host, also not
// across redirects), timeouts, streamed downloads with progress and SHA-256, and failures sorted by what they mean.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { comparisonHost, tokenEnvVarName } from "./credentials.js";
import { VERSION } from "../version.js";

/**
 * `unreachable`: no answer (refused, DNS, timeout, reset, 502/503/504) — the only kind that allows falling back to
 * the cache; `tls`: the certificate is not trusted; `http`: an answer with an error status; `transfer`: a body cut
 * short; `protocol`: an answer we cannot use (bad JSON, missing fields).
 */
export type HttpFailureKind = "unreachable" | "tls" | "http" | "transfer" | "protocol";

export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    readonly url: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "HttpFailure";
  }
}

function causeCode(e: unknown): { code?: string; message: string } {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && cur instanceof Error; depth++) {
    const code = (cur as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code !== "") return { code, message: cur.message };
    if (cur.name === "TimeoutError" || cur.name === "AbortError") return { code: "ETIMEDOUT", message: "timed out" };
    if (cur.cause === undefined) return { message: cur.message };
    cur = cur.cause;
  }
  return { message: String(cur) };
}

/** Sorts a fetch() rejection into unreachable or TLS trouble, with a message that says what to do. */
export function classifyFetchError(e: unknown, url: URL): HttpFailure {
  const { code, message } = causeCode(e);
  if (code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) {
    return new HttpFailure(
      "tls",
      `cannot verify the TLS certificate of ${url.host} (${code}: ${message}). If it uses a private CA, add the CA certificate ` +
        `with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the pulumi command`,
      url.href,
      undefined,
      { cause: e },
    );
  }
  // Every other rejection means no HTTP answer came back: the host is unreachable from here, for now.
  return new HttpFailure("unreachable", `cannot reach ${url.host} (${code ?? "network error"}: ${message})`, url.href, undefined, { cause: e });
}

export interface HttpOptions {
  /** The bearer token for a host (comparison form), if any. */
  tokenFor: (host: string) => string | undefined;
  /** For metadata requests (JSON, checksums, signatures). */
  timeoutMs?: number;
  /** A download fails when no byte arrives for this long. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
}

const MAX_REDIRECTS = 10;
const USER_AGENT = `pulumi-terraform-provider-ts/${VERSION} (+registry client)`;

export class Http {
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: HttpOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /** GET with redirects followed by hand, so each hop gets the token of its own host and no other. */
  async get(url: URL, signal: AbortSignal, accept = "application/json"): Promise<{ response: Response; url: URL }> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const headers: Record<string, string> = { "user-agent": USER_AGENT, accept };
      const host = comparisonHost(current.host);
      const token = host !== undefined && current.protocol === "https:" ? this.options.tokenFor(host) : undefined;
      if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
      let response: Response;
      try {
        response = await fetch(current, { headers, redirect: "manual", signal });
      } catch (e) {
        throw classifyFetchError(e, current);
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        current = new URL(location, current);
        if (current.protocol !== "https:" && current.protocol !== "http:") {
          throw new HttpFailure("protocol", `${url.href} redirects to an unsupported URL ${current.href}`, url.href);
        }
        continue;
      }
      return { response, url: current };
    }
    throw new HttpFailure("protocol", `${url.href}: more than ${MAX_REDIRECTS} redirects`, url.href);
  }

  private statusFailure(response: Response, url: URL, what: string): HttpFailure {
    const status = response.status;
    let hint = "";
    if (status === 401 || status === 403) {
      const host = comparisonHost(url.host) ?? url.host;
      const had = this.options.tokenFor(host) !== undefined;
      hint = had
        ? `; the token given for ${host} was refused`
        : `; ${host} needs credentials: set ${tokenEnvVarName(host)}=<token> or add credentials "${host}" { token = "…" } to the Terraform CLI configuration (~/.terraformrc or TF_CLI_CONFIG_FILE)`;
    }
    const kind: HttpFailureKind = status === 502 || status === 503 || status === 504 ? "unreachable" : "http";
    return new HttpFailure(kind, `${what}: ${url.href} answered ${status} ${response.statusText}${hint}`, url.href, status);
  }

  /** Fetches and parses JSON; a non-2xx answer throws HttpFailure with its status (404s are for the caller to word). */
  async getJson(url: URL, what: string): Promise<{ json: unknown; url: URL }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const { response, url: final } = await this.get(url, signal);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw this.statusFailure(response, final, what);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      throw new HttpFailure("transfer", `${what}: reading ${final.href} failed: ${causeCode(e).message}`, final.href, undefined, { cause: e });
    }
    try {
      return { json: JSON.parse(text), url: final };
    } catch (e) {
      throw new HttpFailure("protocol", `${what}: ${final.href} did not return JSON (${(e as Error).message})`, final.href, undefined, { cause: e });
    }
  }

  /** Small files: checksums and signatures. */
  async getBytes(url: URL, what: string): Promise<Uint8Array> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const { response, url: final } = await this.get(url, signal, "*/*");
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw this.statusFailure(response, final, what);
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (e) {
      throw new HttpFailure("transfer", `${what}: reading ${final.href} failed: ${causeCode(e).message}`, final.href, undefined, { cause: e });
    }
  }

  /**
   * Streams a file to `dest` (which must not exist), hashing as it goes. Fails when the body stops early or stalls
   * for idleTimeoutMs; the caller removes `dest` on failure.
   */
  async download(url: URL, dest: string, what: string, onProgress?: (received: number, total: number | undefined) => void): Promise<DownloadResult> {
    const controller = new AbortController();
    let idle = setTimeout(() => controller.abort(new Error(`no data for ${this.idleTimeoutMs / 1000} s`)), this.timeoutMs);
    const resetIdle = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(new Error(`no data for ${this.idleTimeoutMs / 1000} s`)), this.idleTimeoutMs);
    };
    const out = createWriteStream(dest, { flags: "wx", mode: 0o600 });
    const closed = once(out, "close").catch(() => undefined);
    try {
      const { response, url: final } = await this.get(url, controller.signal, "*/*");
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => undefined);
        throw this.statusFailure(response, final, what);
      }
      const header = response.headers.get("content-length");
      const total = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
      const hash = createHash("sha256");
      let received = 0;
      resetIdle();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          resetIdle();
          hash.update(chunk);
          received += chunk.length;
          if (!out.write(chunk)) await once(out, "drain");
          onProgress?.(received, total);
        }
      } catch (e) {
        throw new HttpFailure(
          "transfer",
          `${what}: the download from ${final.host} was cut off after ${received}${total !== undefined ? ` of ${total}` : ""} bytes (${causeCode(e).message})`,
          final.href,
          undefined,
          { cause: e },
        );
      }
      if (total !== undefined && received !== total) {
        throw new HttpFailure("transfer", `${what}: the download from ${final.host} ended after ${received} of ${total} bytes`, final.href);
      }
      out.end();
      await closed;
      return { bytes: received, sha256: hash.digest("hex") };
    } finally {
      clearTimeout(idle);
      if (!out.closed) {
        out.destroy();
        await closed;
      }
    }
  }
}
