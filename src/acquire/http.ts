// HTTP for registries and mirrors over Node's fetch: per-host bearer tokens (never sent to another host, also not
// across redirects), timeouts, retries with backoff, streamed downloads with progress, SHA-256 and a size limit, and
// failures sorted by what they mean, each saying what to do.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { comparisonHost, tokenEnvVarName } from "./credentials.js";
import {
  CLIENT_TIMEOUT_ENV,
  DEFAULT_SETTINGS,
  DISCOVERY_RETRY_ENV,
  DOWNLOAD_IDLE_TIMEOUT_ENV,
  DOWNLOAD_RETRY_ENV,
  MAX_ARCHIVE_BYTES_ENV,
  MAX_METADATA_BYTES_ENV,
} from "./settings.js";
import { raiseWaitAdvice } from "../setting.js";
import { VERSION } from "../version.js";
import { proxiedFetch, proxyFor, withoutUserinfo, type ProxySettings } from "./proxy.js";
import { redactText, redactUrl } from "./redact.js";

/**
 * `unreachable`: no answer (refused, DNS, timeout, reset, 502/503/504) — the only kind that allows falling back to
 * the cache; `tls`: the certificate is not trusted; `http`: an answer with an error status; `transfer`: a body cut
 * short or stalled; `protocol`: an answer we cannot use (bad JSON, missing fields, a redirect loop); `too-large`: an
 * archive or a metadata document over its size limit.
 */
/** "12.3 MiB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

export type HttpFailureKind = "unreachable" | "tls" | "http" | "transfer" | "protocol" | "too-large";

interface FailureOptions {
  cause?: unknown;
  /** Worth asking again: no answer, a 5xx or 429, a body cut short. */
  retryable?: boolean;
  /** From a Retry-After header. */
  retryAfterMs?: number;
  /** What the user can do, appended after the attempts. */
  advice?: string;
}

export class HttpFailure extends Error {
  /** The URL asked for, as messages show it (redactUrl). */
  readonly url: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly advice: string | undefined;
  /** The message without the advice. */
  readonly detail: string;

  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    url: URL | string,
    readonly status?: number,
    options: FailureOptions = {},
  ) {
    // Every HTTP failure's text passes here, so no URL in it (ours or one quoted by undici) shows a password.
    const detail = redactText(message);
    const advice = options.advice === undefined ? undefined : redactText(options.advice);
    super(advice === undefined ? detail : `${detail}: ${advice}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HttpFailure";
    this.url = redactUrl(url);
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.advice = advice;
    this.detail = detail;
  }

  /** The same failure after `attempts` tries, with the advice that fits having retried. */
  afterAttempts(attempts: number, advice?: string): HttpFailure {
    return new HttpFailure(this.kind, `${this.detail} (${attempts} attempt${attempts === 1 ? "" : "s"})`, this.url, this.status, { cause: this.cause, advice: advice ?? this.advice });
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
export function classifyFetchError(e: unknown, url: URL, proxy?: { url: string; from: string }): HttpFailure {
  const { code, message } = causeCode(e);
  if (proxy !== undefined) {
    // Through a proxy, every failure to get an answer is the proxy's or the way through it: say which proxy.
    const refused = /Proxy response \((\d+)\)/.exec(message);
    const what = refused ? `the proxy ${redactUrl(proxy.url)} (${proxy.from}) refused to connect to ${url.host} (HTTP ${refused[1]})` : `cannot reach ${url.host} through the proxy ${redactUrl(proxy.url)} (${proxy.from}; ${code ?? "network error"}: ${message})`;
    return new HttpFailure("unreachable", what, url.href, undefined, {
      cause: e,
      retryable: !refused,
      advice: `check that the proxy is running and allows CONNECT to ${url.host}, or list the host in NO_PROXY to connect directly`,
    });
  }
  if (code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) {
    return new HttpFailure("tls", `cannot verify the TLS certificate of ${url.host} (${code}: ${message})`, url.href, undefined, {
      cause: e,
      advice: `if it uses a private CA, add the CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the pulumi command`,
    });
  }
  // Every other rejection means no HTTP answer came back: the host is unreachable from here, for now.
  return new HttpFailure("unreachable", `cannot reach ${url.host} (${code ?? "network error"}: ${message})`, url.href, undefined, {
    cause: e,
    retryable: true,
    advice: `check the network and the host name, or try again later`,
  });
}

export interface HttpOptions {
  /** The bearer token for a host (comparison form), if any. */
  tokenFor: (host: string) => string | undefined;
  /** For metadata requests (JSON, checksums, signatures), and for a download's headers. */
  timeoutMs?: number;
  /** A download fails when no byte arrives for this long. */
  idleTimeoutMs?: number;
  /** Retries of a metadata request after the first attempt. */
  metadataRetries?: number;
  /** Retries of a download after the first attempt. */
  downloadRetries?: number;
  /** Downloads larger than this are refused. */
  maxArchiveBytes?: number;
  /** Metadata documents (JSON, SHA256SUMS, signatures) larger than this are refused, before they are read whole. */
  maxMetadataBytes?: number;
  /** Told before each retry, so a user watching knows why nothing moves. */
  onRetry?: (message: string) => void;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as read by proxySettings; undefined: every request goes direct. */
  proxy?: ProxySettings;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
}

const MAX_REDIRECTS = 10;
const USER_AGENT = `pulumi-terraform-provider-ts/${VERSION} (+registry client)`;
/** As go-retryablehttp (Terraform's client): 1 s, 2 s, 4 s, … up to 30 s, and Retry-After up to the same cap. */
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30_000;

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The wait before attempt `failed + 1`; a little jitter so that processes failing together do not retry together. */
export function backoffMs(failed: number, retryAfterMs?: number): number {
  const exp = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (failed - 1));
  const base = Math.max(exp, Math.min(retryAfterMs ?? 0, BACKOFF_MAX_MS));
  return Math.round(base * (1 + Math.random() * 0.2));
}

function retryAfter(response: Response): number | undefined {
  const h = response.headers.get("retry-after");
  if (h === null) return undefined;
  if (/^\d+$/.test(h.trim())) return Number(h.trim()) * 1000;
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export class Http {
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly metadataRetries: number;
  private readonly downloadRetries: number;
  private readonly maxArchiveBytes: number;
  private readonly maxMetadataBytes: number;

  constructor(private readonly options: HttpOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SETTINGS.timeoutMs;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SETTINGS.idleTimeoutMs;
    this.metadataRetries = options.metadataRetries ?? DEFAULT_SETTINGS.metadataRetries;
    this.downloadRetries = options.downloadRetries ?? DEFAULT_SETTINGS.downloadRetries;
    this.maxArchiveBytes = options.maxArchiveBytes ?? DEFAULT_SETTINGS.maxArchiveBytes;
    this.maxMetadataBytes = options.maxMetadataBytes ?? DEFAULT_SETTINGS.maxMetadataBytes;
  }

  /**
   * Runs `attempt` until it succeeds, fails for good, or has failed `retries + 1` times; the last failure says how
   * many attempts were made and which variable allows more.
   */
  private async withRetries<T>(retries: number, retryEnv: string, attempt: (n: number) => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt(n);
      } catch (e) {
        if (!(e instanceof HttpFailure) || !e.retryable) throw e;
        if (n > retries) {
          // A failing server may recover within more attempts; a timeout or a cut-off has its own advice.
          throw e.afterAttempts(n, e.status !== undefined ? `${e.advice}, or raise ${retryEnv} (now ${retries}) to retry more often` : e.advice);
        }
        const wait = backoffMs(n, e.retryAfterMs);
        this.options.onRetry?.(`${e.detail}; trying again in ${seconds(wait)} (attempt ${n + 1} of ${retries + 1})`);
        await sleep(wait);
      }
    }
  }

  private timeoutFailure(url: URL, what: string, waited: number, envName: string, during: string): HttpFailure {
    return new HttpFailure("unreachable", `${what}: ${url.host} ${during} within ${seconds(waited)} (${redactUrl(url)})`, url.href, undefined, {
      retryable: true,
      advice: `if ${url.host} is only slow, ${raiseWaitAdvice(envName, waited)}; otherwise check the network, or try again later`,
    });
  }

  /** GET with redirects followed by hand, so each hop gets the token of its own host and no other. */
  async get(url: URL, signal: AbortSignal, accept = "application/json", what = `fetching ${redactUrl(url)}`): Promise<{ response: Response; url: URL }> {
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      // fetch() would fail as if the network were down (and be retried); the URL itself is the trouble.
      throw new HttpFailure("protocol", `${what}: ${redactUrl(url)} is not an http or https URL`, url);
    }
    let current = url;
    const chain: string[] = [redactUrl(url)];
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const headers: Record<string, string> = { "user-agent": USER_AGENT, accept };
      const host = comparisonHost(current.host);
      const token = host !== undefined && current.protocol === "https:" ? this.options.tokenFor(host) : undefined;
      if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
      // fetch() refuses a URL with userinfo; Go's client (Terraform's) sends it as Basic credentials to that URL's
      // host. A relative redirect keeps it (new URL() copies it from the base); one to another host does not.
      const { request, basic } = withoutUserinfo(current);
      if (basic !== undefined && token === undefined) headers["authorization"] = basic;
      const proxy = proxyFor(current, this.options.proxy);
      let response: Response;
      try {
        response = proxy === undefined ? await fetch(request, { headers, redirect: "manual", signal }) : await proxiedFetch(request, { headers, redirect: "manual", signal }, proxy.url);
      } catch (e) {
        if (signal.aborted) throw this.abortFailure(signal, current, what);
        throw classifyFetchError(e, current, proxy);
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        current = new URL(location, current);
        if (current.protocol !== "https:" && current.protocol !== "http:") {
          throw new HttpFailure("protocol", `${what}: ${redactUrl(url)} redirects to an unsupported URL ${redactUrl(current)}`, url.href);
        }
        const seen = chain.indexOf(redactUrl(current));
        chain.push(redactUrl(current));
        if (seen >= 0) {
          throw new HttpFailure("protocol", `${what}: ${url.host} redirects in a loop: ${chain.slice(seen).join(" → ")}`, url.href, undefined, {
            advice: `the server is misconfigured; tell its operator, or install from another source (a network_mirror or filesystem_mirror)`,
          });
        }
        continue;
      }
      return { response, url: current };
    }
    throw new HttpFailure("protocol", `${what}: ${redactUrl(url)} redirects more than ${MAX_REDIRECTS} times (${chain.slice(0, 4).join(" → ")} → …)`, url.href, undefined, {
      advice: `the server is misconfigured; tell its operator, or install from another source (a network_mirror or filesystem_mirror)`,
    });
  }

  /** A request our own timer aborted: the reason says which wait ran out. */
  private abortFailure(signal: AbortSignal, url: URL, what: string): HttpFailure {
    const reason: unknown = signal.reason;
    if (reason instanceof HttpFailure) return reason;
    return this.timeoutFailure(url, what, this.timeoutMs, CLIENT_TIMEOUT_ENV, "did not answer");
  }

  private statusFailure(response: Response, url: URL, what: string): HttpFailure {
    const status = response.status;
    let advice: string | undefined;
    if (status === 401 || status === 403) {
      const host = comparisonHost(url.host) ?? url.host;
      const had = this.options.tokenFor(host) !== undefined;
      advice = had
        ? `the token given for ${host} was refused`
        : `${host} needs credentials: set ${tokenEnvVarName(host)}=<token> or add credentials "${host}" { token = "…" } to the Terraform CLI configuration (~/.terraformrc or TF_CLI_CONFIG_FILE)`;
    }
    // As go-retryablehttp: every 5xx but 501 (which will not change), and 429.
    const retryable = (status >= 500 && status !== 501) || status === 429;
    if (retryable) advice = status === 429 ? `the server asks for fewer requests; try again later` : `the server is failing; try again later`;
    const kind: HttpFailureKind = status === 502 || status === 503 || status === 504 ? "unreachable" : "http";
    return new HttpFailure(kind, `${what}: ${redactUrl(url)} answered ${status} ${response.statusText}`, url.href, status, {
      retryable,
      retryAfterMs: retryable ? retryAfter(response) : undefined,
      advice,
    });
  }

  /** A metadata GET with its whole-request timeout and retries; `read` consumes the body within the same timeout. */
  private async metadata<T>(url: URL, what: string, accept: string, read: (response: Response, final: URL) => Promise<T>): Promise<T> {
    return this.withRetries(this.metadataRetries, DISCOVERY_RETRY_ENV, async () => {
      const signal = AbortSignal.timeout(this.timeoutMs);
      const { response, url: final } = await this.get(url, signal, accept, what);
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw this.statusFailure(response, final, what);
      }
      try {
        return await read(response, final);
      } catch (e) {
        if (e instanceof HttpFailure) throw e;
        if (signal.aborted) throw this.abortFailure(signal, final, what);
        throw new HttpFailure("transfer", `${what}: reading ${redactUrl(final)} failed: ${causeCode(e).message}`, final.href, undefined, {
          cause: e,
          retryable: true,
          advice: `try again later`,
        });
      }
    });
  }

  /** Fetches and parses JSON; a non-2xx answer throws HttpFailure with its status (404s are for the caller to word). */
  async getJson(url: URL, what: string): Promise<{ json: unknown; url: URL }> {
    return this.metadata(url, what, "application/json", async (response, final) => {
      const text = new TextDecoder().decode(await this.readCapped(response, final, what));
      try {
        return { json: JSON.parse(text) as unknown, url: final };
      } catch (e) {
        throw new HttpFailure("protocol", `${what}: ${redactUrl(final)} did not return JSON (${(e as Error).message})`, final.href, undefined, { cause: e });
      }
    });
  }

  /** Small files: checksums and signatures. */
  async getBytes(url: URL, what: string): Promise<Uint8Array> {
    return this.metadata(url, what, "*/*", (response, final) => this.readCapped(response, final, what));
  }

  /**
   * A metadata body, read while counting: refused on a Content-Length over the limit before a byte is read, and as
   * soon as the bytes that arrive pass it (a chunked answer announces no size), so no more than the limit is held.
   */
  private async readCapped(response: Response, url: URL, what: string): Promise<Uint8Array> {
    const limit = this.maxMetadataBytes;
    const header = response.headers.get("content-length");
    if (header !== null && /^\d+$/.test(header) && Number(header) > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw this.metadataTooLarge(url, what, Number(header));
    }
    if (response.body === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let received = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.length;
      if (received > limit) {
        await reader.cancel().catch(() => undefined);
        // A compressed answer (fetch decompresses it) announces the size it has on the wire, not the one it unpacks to.
        const encoding = response.headers.get("content-encoding");
        throw this.metadataTooLarge(url, what, undefined, header !== null && encoding !== null ? `(it announced ${header} bytes, ${encoding}-compressed)` : undefined);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, received);
  }

  private metadataTooLarge(url: URL, what: string, size: number | undefined, counted?: string): HttpFailure {
    return this.tooLarge(url, what, size, this.maxMetadataBytes, `if the document really is that large, raise ${MAX_METADATA_BYTES_ENV} (bytes, now ${this.maxMetadataBytes})`, counted);
  }

  /** `size` is what the server announced; without it, the limit was crossed while counting. */
  private tooLarge(
    url: URL,
    what: string,
    size: number | undefined,
    max = this.maxArchiveBytes,
    advice = `if the provider really is that large, raise ${MAX_ARCHIVE_BYTES_ENV} (bytes, now ${this.maxArchiveBytes})`,
    counted = "(it did not announce a size)",
  ): HttpFailure {
    // Exact counts where rounding would make the size and the limit read the same.
    const exact = size !== undefined && formatBytes(size) === formatBytes(max);
    const limit = exact ? `${max} bytes` : formatBytes(max);
    const detail = size !== undefined ? `is ${exact ? `${size} bytes` : formatBytes(size)}, more than the limit of ${limit}` : `sent more than the limit of ${limit} ${counted}`;
    return new HttpFailure("too-large", `${what}: ${redactUrl(url)} ${detail}`, url, undefined, { advice });
  }

  /**
   * Streams a file to `dest` (which must not exist), hashing as it goes, retrying when the server is unreachable or
   * failing, or the body is cut off or stalls for idleTimeoutMs. A disk that fills up fails at once with the file
   * system's error (its `code` says ENOSPC, EDQUOT or EFBIG). The caller removes `dest` on failure.
   */
  async download(url: URL, dest: string, what: string, onProgress?: (received: number, total: number | undefined) => void): Promise<DownloadResult> {
    return this.withRetries(this.downloadRetries, DOWNLOAD_RETRY_ENV, (n) => this.downloadOnce(url, dest, what, n === 1 ? "wx" : "w", onProgress));
  }

  private async downloadOnce(
    url: URL,
    dest: string,
    what: string,
    flags: string,
    onProgress?: (received: number, total: number | undefined) => void,
  ): Promise<DownloadResult> {
    const controller = new AbortController();
    let target = url;
    let received = 0;
    const stall = (): HttpFailure =>
      received === 0
        ? this.timeoutFailure(target, what, this.timeoutMs, CLIENT_TIMEOUT_ENV, "did not answer")
        : new HttpFailure("transfer", `${what}: the download from ${target.host} stalled after ${received} bytes: no data for ${seconds(this.idleTimeoutMs)}`, target.href, undefined, {
            retryable: true,
            advice: `if the connection to ${target.host} is only slow, ${raiseWaitAdvice(DOWNLOAD_IDLE_TIMEOUT_ENV, this.idleTimeoutMs)}; otherwise try again later`,
          });
    let timer = setTimeout(() => controller.abort(stall()), this.timeoutMs);
    const resetIdle = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(stall()), this.idleTimeoutMs);
    };
    const out = createWriteStream(dest, { flags, mode: 0o600 });
    let writeError: Error | undefined;
    out.on("error", (e) => (writeError ??= e));
    const closed = new Promise<void>((r) => out.once("close", () => r()));
    try {
      const { response, url: final } = await this.get(url, controller.signal, "*/*", what);
      target = final;
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => undefined);
        throw this.statusFailure(response, final, what);
      }
      const header = response.headers.get("content-length");
      const total = header !== null && /^\d+$/.test(header) ? Number(header) : undefined;
      if (total !== undefined && total > this.maxArchiveBytes) {
        await response.body.cancel().catch(() => undefined);
        throw this.tooLarge(final, what, total);
      }
      const hash = createHash("sha256");
      resetIdle();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          resetIdle();
          received += chunk.length;
          if (received > this.maxArchiveBytes) {
            controller.abort();
            throw this.tooLarge(final, what, undefined);
          }
          hash.update(chunk);
          if (writeError) throw writeError;
          if (!out.write(chunk)) await once(out, "drain");
          onProgress?.(received, total);
        }
      } catch (e) {
        if (writeError) throw writeError;
        if (e instanceof HttpFailure) throw e;
        if (controller.signal.aborted) throw this.abortFailure(controller.signal, final, what);
        throw new HttpFailure(
          "transfer",
          `${what}: the download from ${final.host} was cut off after ${received}${total !== undefined ? ` of ${total}` : ""} bytes (${causeCode(e).message})`,
          final.href,
          undefined,
          { cause: e, retryable: true, advice: cutOffAdvice(final) },
        );
      }
      if (total !== undefined && received !== total) {
        throw new HttpFailure("transfer", `${what}: the download from ${final.host} ended after ${received} of ${total} bytes`, final.href, undefined, {
          retryable: true,
          advice: cutOffAdvice(final),
        });
      }
      out.end();
      await closed;
      if (writeError) throw writeError;
      return { bytes: received, sha256: hash.digest("hex") };
    } finally {
      clearTimeout(timer);
      if (!out.closed) {
        out.destroy();
        await closed;
      }
    }
  }
}

function cutOffAdvice(url: URL): string {
  return `try again; if it keeps happening, something between here and ${url.host} (a proxy?) cuts long downloads: install from a network_mirror or filesystem_mirror`;
}
