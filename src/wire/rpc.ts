// gRPC over node:http2, the subset this plugin speaks: unary and server-streaming calls as client and as server, with status, deadlines and cancellation.
//
// Why not @grpc/grpc-js: it costs 16 ms of every start-up to load and about 0.15 ms of CPU per call in channel,
// picker, filter and retry machinery (bench/transport.bench.ts), and the plugin needs none of it: it talks to one
// provider process over one connection and answers one engine. What gRPC puts on HTTP/2 is small and specified
// (grpc/grpc doc/PROTOCOL-HTTP2.md): a 5-byte prefix per message (compressed flag, big-endian length), `application/grpc`
// headers, and `grpc-status`/`grpc-message` in the trailers, or in the headers of a trailers-only reply.
import type http2 from "node:http2";
import type net from "node:net";
import type tls from "node:tls";
import { gunzipSync } from "node:zlib";
import { boundText, MAX_STATUS_MESSAGE_BYTES } from "./bound.js";
import { MAX_TIMER_MS } from "../setting.js";

/**
 * node:http2 and node:tls are loaded at the first connection or listen, not with this module: loading them costs ~9 ms
 * and Node cannot put them in a V8 startup snapshot, which the packaged plugin is built from (scripts/package.sh).
 */
const builtin = {
  http2: (): typeof http2 => process.getBuiltinModule("node:http2"),
  net: (): typeof net => process.getBuiltinModule("node:net"),
  tls: (): typeof tls => process.getBuiltinModule("node:tls"),
};

/** gRPC status codes (the wire values). */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type StatusCode = (typeof Status)[keyof typeof Status];

const STATUS_NAMES: Record<number, string> = Object.fromEntries(Object.entries(Status).map(([k, v]) => [v, k]));

/** Custom metadata of a reply: `-bin` keys carry bytes (base64 on the wire), the others ASCII text. */
export type Metadata = Record<string, string | Buffer>;

/** A call that ended with a status other than OK, on either side. */
export class CallError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    readonly metadata: Metadata = {},
  ) {
    super(`${code} ${STATUS_NAMES[code] ?? "UNKNOWN"}: ${details}`);
    this.name = "CallError";
  }
}

/**
 * One RPC with its message codecs; the field names are those of a grpc-js MethodDefinition, so a test can hand a
 * service of these to grpc-js as an independent peer.
 */
export interface Method<Req = unknown, Res = unknown> {
  readonly path: string;
  readonly originalName: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  requestSerialize(value: object): Buffer;
  requestDeserialize(bytes: Buffer): Req;
  responseSerialize(value: object): Buffer;
  responseDeserialize(bytes: Buffer): Res;
}

/** The RPCs of one service by name (`GetProviderSchema`, ...). */
export type Service = Readonly<Record<string, Method>>;

// HTTP/2 error codes (RFC 9113 section 7), as http2.constants names them.
const NGHTTP2_INTERNAL_ERROR = 0x2;
const NGHTTP2_REFUSED_STREAM = 0x7;
const NGHTTP2_CANCEL = 0x8;
const NGHTTP2_ENHANCE_YOUR_CALM = 0xb;
const NGHTTP2_INADEQUATE_SECURITY = 0xc;

/** What we let ourselves send in one header block: our status messages are cut far below this (bound.ts). */
const HEADER_LIST_BYTES = 16 * 1024 * 1024;
/**
 * The header list we accept, announced as SETTINGS_MAX_HEADER_LIST_SIZE. nghttp2, under node:http2, cannot decode a
 * header field over 64 KiB: it ends the connection with COMPRESSION_ERROR, and node:http2 then stops reading and
 * reports nothing, so every call on it waits forever. Announcing at most that much makes a gRPC server (grpc-go, the
 * providers' and the engine's) refuse to send a larger reply, e.g. a huge grpc-message: it resets the stream instead.
 */
export const RECEIVE_HEADER_LIST_BYTES = 64 * 1024;
/** Per-stream and per-connection receive windows: a 40 MB schema in a few round trips rather than hundreds. */
const STREAM_WINDOW = 8 * 1024 * 1024;
const SESSION_WINDOW = 64 * 1024 * 1024;
/** Node's session memory cap (in megabytes) would refuse streams while a large reply is buffered. */
const SESSION_MEMORY_MB = 1024 * 1024;
const USER_AGENT = "terraform-provider-bridge-ts";

function sessionSettings(): http2.Settings {
  return { enablePush: false, initialWindowSize: STREAM_WINDOW, maxHeaderListSize: RECEIVE_HEADER_LIST_BYTES };
}

// ---- framing ----------------------------------------------------------------------------------------------------

const EMPTY = Buffer.alloc(0);
/** Below this, prefix and message go out as one buffer (one DATA frame); above it, copying would cost more. */
const COALESCE_BYTES = 64 * 1024;

function writeMessage(stream: http2.Http2Stream, payload: Buffer, end: boolean): void {
  const prefix = Buffer.allocUnsafe(5);
  prefix[0] = 0;
  prefix.writeUInt32BE(payload.length, 1);
  if (payload.length < COALESCE_BYTES) {
    const out = Buffer.concat([prefix, payload]);
    if (end) stream.end(out);
    else stream.write(out);
    return;
  }
  stream.write(prefix);
  if (end) stream.end(payload);
  else stream.write(payload);
}

/** Splits a stream of DATA chunks into length-prefixed messages. */
export class MessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private need = -1;
  private compressed = false;

  constructor(
    private readonly maxBytes: number,
    /** The stream's grpc-encoding; only gzip (and identity) are understood. */
    private readonly encoding: string | undefined,
    /** The setting that holds maxBytes, named in the error. */
    private readonly setting?: string,
  ) {}

  /** The complete messages `chunk` finishes; throws CallError on an oversized or undecodable message. */
  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Buffer[] = [];
    for (;;) {
      if (this.need < 0) {
        if (this.buffered < 5) break;
        const head = this.take(5);
        this.compressed = head[0] !== 0;
        this.need = head.readUInt32BE(1);
        if (this.need > this.maxBytes) {
          const where = this.setting === undefined ? "" : ` set by ${this.setting}; raise it if such messages are expected`;
          throw new CallError(Status.RESOURCE_EXHAUSTED, `received a message of ${this.need} bytes, more than the limit of ${this.maxBytes}${where}`);
        }
      }
      if (this.buffered < this.need) break;
      const body = this.take(this.need);
      this.need = -1;
      out.push(this.compressed ? this.inflate(body) : body);
    }
    return out;
  }

  /** True when a message was started and not finished. */
  get partial(): boolean {
    return this.buffered > 0 || this.need >= 0;
  }

  private inflate(body: Buffer): Buffer {
    if (this.encoding !== "gzip") {
      throw new CallError(Status.INTERNAL, `received a compressed message with grpc-encoding ${this.encoding ?? "(none)"}; only gzip is understood`);
    }
    return gunzipSync(body, { maxOutputLength: this.maxBytes });
  }

  private take(n: number): Buffer {
    if (n === 0) return EMPTY;
    const first = this.chunks[0]!;
    if (first.length >= n) {
      this.buffered -= n;
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let offset = 0;
    while (offset < n) {
      const c = this.chunks[0]!;
      const k = Math.min(c.length, n - offset);
      c.copy(out, offset, 0, k);
      offset += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    this.buffered -= n;
    return out;
  }
}

// ---- status in headers -----------------------------------------------------------------------------------------

/** grpc-message: printable ASCII except '%' as is, everything else percent-encoded UTF-8. */
export function encodeStatusMessage(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length && plain; i++) {
    const c = text.charCodeAt(i);
    plain = c >= 0x20 && c <= 0x7e && c !== 0x25;
  }
  // HTTP/2 refuses a field value that starts or ends with a space, so edge spaces are escaped too.
  if (plain && !text.startsWith(" ") && !text.endsWith(" ")) return text;
  const bytes = Buffer.from(text, "utf8");
  let out = "";
  bytes.forEach((b, i) => {
    const edge = b === 0x20 && (i === 0 || i === bytes.length - 1);
    out += b >= 0x20 && b <= 0x7e && b !== 0x25 && !edge ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  });
  return out;
}

/**
 * The grpc-message header for `text`, cut with a marker so that it takes at most `maxBytes`: a message built from a
 * provider's output could otherwise outgrow what a client accepts in a header.
 */
export function boundedStatusMessage(text: string, maxBytes = MAX_STATUS_MESSAGE_BYTES): string {
  // Each character takes at least one byte, so this first cut loses nothing that would fit.
  const first = encodeStatusMessage(boundText(text, maxBytes));
  if (first.length <= maxBytes) return first;
  // Escaped characters take up to 9 bytes: the most characters whose encoding (with the marker) fits.
  let lo = 0;
  let hi = Math.min(text.length, maxBytes);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (encodeStatusMessage(boundText(text, mid)).length <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return encodeStatusMessage(boundText(text, lo));
}

export function decodeStatusMessage(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed escape: the spec says to keep the text as received.
    return text;
  }
}

/** Headers that are gRPC's or HTTP/2's own, never metadata. */
function isReserved(key: string): boolean {
  return key.startsWith(":") || key.startsWith("grpc-") || key === "content-type" || key === "te" || key === "user-agent" || key === "date";
}

function metadataToHeaders(metadata: Metadata): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(metadata)) {
    out[key] = key.endsWith("-bin") ? (Buffer.isBuffer(value) ? value : Buffer.from(value)).toString("base64") : String(value);
  }
  return out;
}

function headersToMetadata(headers: http2.IncomingHttpHeaders): Metadata {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || (isReserved(key) && key !== "grpc-status-details-bin")) continue;
    const text = Array.isArray(value) ? value.join(",") : value;
    out[key] = key.endsWith("-bin") ? Buffer.from(text, "base64") : text;
  }
  return out;
}

/**
 * The status of every call that succeeds, made once: an Error captures a stack trace when it is made, and making one
 * per answered call was the plugin's largest cost after garbage collection under a Docker stack (a CPU profile).
 */
const OK_STATUS = new CallError(Status.OK, "");

function statusFrom(headers: http2.IncomingHttpHeaders): CallError | undefined {
  const raw = headers["grpc-status"];
  if (raw === undefined) return undefined;
  if (raw === "0") return OK_STATUS;
  const code = Number(raw);
  // A peer's message travels on in ours (a provider's error in the one we send the engine): it is cut here already.
  const message = boundText(decodeStatusMessage(String(headers["grpc-message"] ?? "")), MAX_STATUS_MESSAGE_BYTES);
  if (!Number.isInteger(code)) return new CallError(Status.UNKNOWN, `the peer sent an invalid grpc-status "${String(raw)}"`);
  return new CallError(code, message, headersToMetadata(headers));
}

/** gRPC's mapping for a reply that is not HTTP 200 and carries no grpc-status. */
function statusOfHttp(status: number): number {
  switch (status) {
    case 400:
      return Status.INTERNAL;
    case 401:
      return Status.UNAUTHENTICATED;
    case 403:
      return Status.PERMISSION_DENIED;
    case 404:
      return Status.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return Status.UNAVAILABLE;
    default:
      return Status.UNKNOWN;
  }
}

/** gRPC's mapping for a stream reset without a status. */
function statusOfReset(code: number): number {
  if (code === NGHTTP2_CANCEL) return Status.CANCELLED;
  if (code === NGHTTP2_REFUSED_STREAM) return Status.UNAVAILABLE;
  if (code === NGHTTP2_ENHANCE_YOUR_CALM) return Status.RESOURCE_EXHAUSTED;
  if (code === NGHTTP2_INADEQUATE_SECURITY) return Status.PERMISSION_DENIED;
  return Status.INTERNAL;
}

/** What a reset without a status most likely means, for the codes a server resets a reply with that it will not send. */
function resetHint(code: number): string {
  if (code === NGHTTP2_INTERNAL_ERROR) {
    return `; a gRPC server resets a reply this way when its headers would exceed the ${RECEIVE_HEADER_LIST_BYTES / 1024} KiB this client accepts, e.g. an error message larger than that`;
  }
  if (code === NGHTTP2_ENHANCE_YOUR_CALM) return `; the reply's headers were over the ${RECEIVE_HEADER_LIST_BYTES / 1024} KiB (or 128 fields) this client accepts`;
  return "";
}

/**
 * grpc-timeout: at most 8 digits and a unit, and at most the longest a timer waits: a peer on Node (grpc-js) sets its
 * deadline timer from it as it is, and a longer one would fire there at once.
 */
function encodeTimeout(ms: number): string {
  const whole = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));
  return whole < 1e8 ? `${whole}m` : `${Math.floor(whole / 1000)}S`;
}

const TIMEOUT_UNITS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };

/** grpc-timeout in milliseconds, at most the longest a timer waits (8 digits of hours would overflow it and fire at once). */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d{1,8})([HMSmun])$/.exec(value);
  return m === null ? undefined : Math.min(MAX_TIMER_MS, Number(m[1]) * TIMEOUT_UNITS[m[2]!]!);
}

// ---- client -----------------------------------------------------------------------------------------------------

export interface ChannelOptions {
  /** TLS with the peer's certificate as the only trusted root and ours for client authentication (go-plugin AutoMTLS). */
  tls?: { ca: string; cert: string; key: string; servername: string };
  /** The largest reply message accepted, and the setting that holds it; a larger one is refused from its length prefix. */
  maxReceive?: { bytes: number; setting: string };
  /**
   * While calls wait on a connection that has gone quiet, ask the peer for a PING ack; without one within `timeoutMs`
   * (held by `setting`) the connection is dropped and its calls fail. Off for a peer that may sit at a breakpoint.
   */
  liveness?: { timeoutMs: number; setting: string };
}

/** Quiet this long, a waiting connection is probed. */
const PROBE_AFTER_MS = 2_000;
/**
 * grpc-go counts a PING that comes less than 5 minutes after the previous one, with nothing sent by the server in
 * between, as a strike, and closes the connection at the third (its default keepalive enforcement, go-plugin's too).
 */
const PROBE_SPACING_MS = 6 * 60_000;

/**
 * Notices a connection that can no longer carry anything. nghttp2 cannot decode a header field over 64 KiB: it sends
 * GOAWAY and stops, and node:http2 stops reading and reports nothing (nodejs/node#41582), so the calls on it would
 * wait forever. A gRPC server heeds the limit we announce; this covers a peer that does not, and one wedged otherwise.
 */
class Liveness {
  private waiting = 0;
  private heardAt = Date.now();
  /** When the last probe went out, and whether the peer has sent anything since (which clears grpc-go's strikes). */
  private probedAt = -Infinity;
  private heardSinceProbe = true;
  private probing = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly session: http2.ClientHttp2Session,
    private readonly options: NonNullable<ChannelOptions["liveness"]>,
    /** Drops the connection, with the error its calls will report. */
    private readonly drop: (err: Error) => void,
  ) {
    session.once("close", () => clearInterval(this.timer));
  }

  /** A call started (+1) or ended (-1) on the connection. */
  busy(delta: 1 | -1): void {
    this.waiting += delta;
    if (this.waiting > 0 && this.timer === undefined) {
      this.heardAt = Date.now();
      this.timer = setInterval(() => this.check(), PROBE_AFTER_MS / 2).unref();
    } else if (this.waiting === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** The peer sent headers or data. */
  heard(): void {
    this.heardAt = Date.now();
    this.heardSinceProbe = true;
  }

  private check(): void {
    const now = Date.now();
    if (this.probing || this.session.destroyed || now - this.heardAt < PROBE_AFTER_MS) return;
    if (!this.heardSinceProbe && now - this.probedAt < PROBE_SPACING_MS) return;
    this.probing = true;
    this.probedAt = now;
    this.heardSinceProbe = false;
    const { timeoutMs, setting } = this.options;
    const deadline = setTimeout(() => {
      this.drop(
        new Error(
          `the connection stopped answering: no reply to an HTTP/2 PING within ${timeoutMs / 1000} s (${setting}). ` +
            `A peer that sends a header field over 64 KiB (e.g. a huge error message), ignoring the ${RECEIVE_HEADER_LIST_BYTES / 1024} KiB limit this client announces, leaves a connection so`,
        ),
      );
    }, timeoutMs).unref();
    try {
      this.session.ping((err) => {
        clearTimeout(deadline);
        this.probing = false;
        if (err === null) this.heardAt = Date.now();
      });
    } catch {
      // A connection already closing: its calls end with it.
      clearTimeout(deadline);
      this.probing = false;
    }
  }
}

export interface CallOptions {
  /** Absolute time (ms since the epoch) after which the call fails with DEADLINE_EXCEEDED. */
  deadline?: number;
}

/** A call in flight; cancel() ends it with CANCELLED and resets its stream. */
export interface ClientCall {
  cancel(): void;
}

/** Where a target string points: `unix:///path`, `unix:/path` or `host:port`. */
function parseTarget(target: string): { path: string } | { host: string; port: number } {
  if (target.startsWith("unix://")) return { path: target.slice("unix://".length) };
  if (target.startsWith("unix:")) return { path: target.slice("unix:".length) };
  const m = /^\[?([^\]]*)\]?:(\d+)$/.exec(target);
  if (m === null) throw new CallError(Status.UNAVAILABLE, `cannot connect to "${target}": expected unix:///path or host:port`);
  return { host: m[1]!, port: Number(m[2]) };
}

/**
 * One HTTP/2 connection to one server, made on the first call and again on the next call after it is lost. Idle, it
 * does not keep the process alive.
 */
export class Channel {
  private session: http2.ClientHttp2Session | undefined;
  private liveness: Liveness | undefined;
  private sessionError: Error | undefined;
  private active = 0;
  private closed = false;

  constructor(
    readonly target: string,
    private readonly options: ChannelOptions = {},
  ) {}

  /** Calls a unary RPC. */
  unary<Res>(method: Method<unknown, Res>, request: object, options: CallOptions = {}): Promise<Res> & ClientCall {
    let call: ClientCall | undefined;
    const promise = new Promise<Res>((resolve, reject) => {
      let response: Res | undefined;
      let received = false;
      call = this.start(method, request, options, (bytes) => {
        if (received) throw new CallError(Status.UNIMPLEMENTED, `${method.path} answered a unary call with more than one message`);
        received = true;
        response = decodeWith(method, bytes);
      }, (err) => {
        if (err !== undefined) reject(err);
        else if (!received) reject(new CallError(Status.UNIMPLEMENTED, `${method.path} ended without a response message`));
        else resolve(response!);
      });
    });
    return Object.assign(promise, { cancel: () => call!.cancel() });
  }

  /** Calls a server-streaming RPC: `onMessage` for each message, then `onEnd` once (undefined when it ended OK). */
  serverStream<Res>(method: Method<unknown, Res>, request: object, onMessage: (message: Res) => void, onEnd: (err: CallError | undefined) => void): ClientCall {
    return this.start(method, request, {}, (bytes) => onMessage(decodeWith(method, bytes)), onEnd);
  }

  /** Resolves once connected; rejects with the connection's error or after `timeoutMs`. */
  waitForReady(timeoutMs: number): Promise<void> {
    const session = this.connect();
    if (session.connecting === false && !session.destroyed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`not connected within ${timeoutMs} ms`));
      }, timeoutMs);
      const onConnect = (): void => {
        cleanup();
        resolve();
      };
      const onClose = (): void => {
        cleanup();
        reject(this.sessionError ?? new Error("the connection closed"));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        session.off("connect", onConnect);
        session.off("close", onClose);
      };
      session.once("connect", onConnect);
      session.once("close", onClose);
    });
  }

  /** Closes the connection; calls in flight may finish. */
  close(): void {
    this.closed = true;
    this.session?.close();
  }

  private connect(): http2.ClientHttp2Session {
    if (this.closed) throw new CallError(Status.UNAVAILABLE, "the channel was closed");
    const current = this.session;
    if (current !== undefined && !current.closed && !current.destroyed) return current;
    const where = parseTarget(this.target);
    const tlsOptions = this.options.tls;
    const socket = (): net.Socket =>
      tlsOptions !== undefined
        ? builtin.tls().connect({ ...where, ca: tlsOptions.ca, cert: tlsOptions.cert, key: tlsOptions.key, servername: tlsOptions.servername, ALPNProtocols: ["h2"] })
        : builtin.net().connect(where);
    const authority = tlsOptions !== undefined ? `https://${tlsOptions.servername}` : "http://localhost";
    const session = builtin.http2().connect(authority, {
      createConnection: socket,
      settings: sessionSettings(),
      maxSessionMemory: SESSION_MEMORY_MB,
      maxSendHeaderBlockLength: HEADER_LIST_BYTES,
    });
    this.session = session;
    this.liveness =
      this.options.liveness === undefined
        ? undefined
        : new Liveness(session, this.options.liveness, (err) => {
            if (this.session === session) this.sessionError = err;
            session.destroy(err);
          });
    this.sessionError = undefined;
    session.once("connect", () => session.setLocalWindowSize(SESSION_WINDOW));
    session.on("error", (e: Error) => {
      if (this.session === session) this.sessionError = e;
    });
    // After GOAWAY the connection takes no new streams; the next call makes a new one.
    session.on("goaway", () => {
      if (this.session === session) this.session = undefined;
    });
    session.on("close", () => {
      if (this.session === session) this.session = undefined;
    });
    session.unref();
    return session;
  }

  private start(method: Method, request: object, options: CallOptions, onMessage: (bytes: Buffer) => void, onEnd: (err: CallError | undefined) => void): ClientCall {
    let ended = false;
    const end = (err: CallError | undefined): void => {
      if (ended) return;
      ended = true;
      onEnd(err);
    };
    let session: http2.ClientHttp2Session;
    let payload: Buffer;
    try {
      payload = method.requestSerialize(request);
      session = this.connect();
    } catch (e) {
      const err = e instanceof CallError ? e : new CallError(Status.INTERNAL, `${method.path}: cannot send the request: ${(e as Error).message}`);
      queueMicrotask(() => end(err));
      return { cancel: () => end(new CallError(Status.CANCELLED, "Cancelled on client")) };
    }
    const headers: http2.OutgoingHttpHeaders = {
      ":method": "POST",
      ":path": method.path,
      "content-type": "application/grpc",
      te: "trailers",
      "user-agent": USER_AGENT,
    };
    let timer: NodeJS.Timeout | undefined;
    if (options.deadline !== undefined) headers["grpc-timeout"] = encodeTimeout(options.deadline - Date.now());
    const stream = session.request(headers, { endStream: false });
    if (this.active++ === 0) session.ref();
    const liveness = this.liveness;
    liveness?.busy(1);
    let status: CallError | undefined;
    let failure: CallError | undefined;
    let reader: MessageReader | undefined;
    const limit = this.options.maxReceive;
    const newReader = (encoding: string | undefined): MessageReader => new MessageReader(limit?.bytes ?? Infinity, encoding, limit?.setting);
    const finish = (err: CallError | undefined): void => {
      if (ended) return;
      clearTimeout(timer);
      if (--this.active === 0 && !session.destroyed) session.unref();
      liveness?.busy(-1);
      if (!stream.closed) stream.close(NGHTTP2_CANCEL);
      end(err);
    };
    if (options.deadline !== undefined) {
      timer = setTimeout(() => finish(new CallError(Status.DEADLINE_EXCEEDED, "Deadline exceeded")), Math.min(MAX_TIMER_MS, Math.max(0, options.deadline - Date.now())));
    }
    stream.on("response", (h) => {
      liveness?.heard();
      const httpStatus = Number(h[":status"]);
      status = statusFrom(h);
      if (status === undefined && httpStatus !== 200) {
        failure = new CallError(statusOfHttp(httpStatus), `the server answered HTTP ${httpStatus}`);
      } else if (status === undefined && !String(h["content-type"] ?? "").startsWith("application/grpc")) {
        failure = new CallError(Status.UNKNOWN, `the server answered with content-type ${String(h["content-type"])}`);
      }
      const encoding = h["grpc-encoding"];
      reader = newReader(encoding === undefined || encoding === "identity" ? undefined : String(encoding));
    });
    stream.on("data", (chunk: Buffer) => {
      liveness?.heard();
      if (ended || failure !== undefined) return;
      try {
        for (const message of (reader ??= newReader(undefined)).push(chunk)) onMessage(message);
      } catch (e) {
        failure = e instanceof CallError ? e : new CallError(Status.INTERNAL, `${method.path}: cannot decode the response: ${(e as Error).message}`);
        finish(failure);
      }
    });
    stream.on("trailers", (h) => {
      status = statusFrom(h) ?? status;
    });
    // Errors reach "close" as the missing status or the session's error.
    stream.on("error", () => undefined);
    stream.on("close", () => {
      if (failure !== undefined) return finish(failure);
      if (status !== undefined) {
        if (status.code === Status.OK && reader?.partial === true) return finish(new CallError(Status.INTERNAL, `${method.path}: the response ended inside a message`));
        return finish(status.code === Status.OK ? undefined : status);
      }
      if (session.destroyed || this.sessionError !== undefined) {
        const why = this.sessionError?.message ?? "the connection was closed";
        return finish(new CallError(Status.UNAVAILABLE, `connection lost: ${why}`));
      }
      const code = stream.rstCode;
      finish(new CallError(statusOfReset(code), `the stream was reset (HTTP/2 error code ${code}) without a status${resetHint(code)}`));
    });
    writeMessage(stream, payload, true);
    return { cancel: () => finish(new CallError(Status.CANCELLED, "Cancelled on client")) };
  }
}

function decodeWith<Res>(method: Method<unknown, Res>, bytes: Buffer): Res {
  try {
    return method.responseDeserialize(bytes);
  } catch (e) {
    throw new CallError(Status.INTERNAL, `${method.path}: cannot decode the response: ${(e as Error).message}`);
  }
}

// ---- server -----------------------------------------------------------------------------------------------------

/** Answers one call: the response message, or for a server-streaming method the messages in order. A CallError thrown
 * is sent as is; anything else thrown as UNKNOWN with its message. */
export type Handler = (request: unknown, call: { readonly cancelled: boolean }) => unknown;

export interface ServerOptions {
  /** The largest request message accepted. */
  maxReceiveBytes: number;
}

let channelWarm: Promise<void> | undefined;

/**
 * Makes one call through a TLS channel, as the first call to a provider will be made, to a loopback listener of our own
 * that reads the ClientHello and hangs up. A process's first TLS connection otherwise compiles Node's TLS and HTTP/2
 * client code and sets up OpenSSL's client context (none of which a startup snapshot can hold), all on the path of the
 * first provider launch, which Parameterize waits for. The plugin calls this while the provider process starts and
 * its own thread has nothing else to do; earlier, while the engine's first call is on its way, it delayed that call's
 * handling by more than it saved. Once per process; it settles either way and never throws.
 */
export function warmChannel(tls: NonNullable<ChannelOptions["tls"]>, method: Method, request: object): Promise<void> {
  channelWarm ??= new Promise<void>((resolve) => {
    const peers: net.Socket[] = [];
    let channel: Channel | undefined;
    let call: (Promise<unknown> & ClientCall) | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      call?.cancel();
      channel?.close();
      for (const peer of peers) peer.destroy();
      listener.close();
      resolve();
    };
    const listener = builtin.net().createServer((peer) => {
      peers.push(peer.unref());
      peer.once("data", finish).once("error", finish);
    });
    listener.once("error", finish).unref();
    listener.listen(0, "127.0.0.1", () => {
      const { port } = listener.address() as net.AddressInfo;
      try {
        channel = new Channel(`127.0.0.1:${port}`, { tls });
        call = channel.unary(method, request);
        call.then(finish, finish);
      } catch {
        finish();
      }
    });
  });
  return channelWarm;
}

/**
 * Serves services on a loopback port over cleartext HTTP/2 (the engine's plugin connections are h2c). The port is
 * opened by a plain net server and node:http2 is loaded just after, while the engine reads the port and dials:
 * connections are handed to the HTTP/2 server, which loads at the first one if it has not yet.
 */
export class Server {
  private readonly routes = new Map<string, { method: Method; handler: Handler }>();
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private readonly listener: net.Server;
  private h2: http2.Http2Server | undefined;

  constructor(private readonly options: ServerOptions) {
    this.listener = builtin.net().createServer((socket) => this.http2Server().emit("connection", socket));
  }

  private http2Server(): http2.Http2Server {
    if (this.h2 !== undefined) return this.h2;
    const server = builtin.http2().createServer({
      settings: sessionSettings(),
      maxSessionMemory: SESSION_MEMORY_MB,
      maxSendHeaderBlockLength: HEADER_LIST_BYTES,
    });
    server.on("session", (session) => {
      this.sessions.add(session);
      try {
        session.setLocalWindowSize(SESSION_WINDOW);
      } catch {
        // a connection already failing; its streams report that
      }
      session.on("error", () => undefined);
      session.once("close", () => this.sessions.delete(session));
    });
    server.on("stream", (stream, headers) => this.serve(stream, headers));
    return (this.h2 = server);
  }

  /** Adds a service; every one of its methods needs a handler. */
  addService(service: Service, handlers: Readonly<Record<string, Handler>>): void {
    for (const [name, method] of Object.entries(service)) {
      const handler = handlers[name];
      if (handler === undefined) throw new Error(`no handler for ${method.path}`);
      this.routes.set(method.path, { method, handler });
    }
  }

  /** Listens on `host` at a free port; resolves to the port. */
  listen(host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.listener.once("error", reject);
      this.listener.listen(0, host, () => {
        this.listener.off("error", reject);
        resolve((this.listener.address() as net.AddressInfo).port);
        setImmediate(() => this.http2Server());
      });
    });
  }

  /** Takes no new connections, asks each to finish (GOAWAY) and resolves once all have closed. */
  shutdown(): Promise<void> {
    this.listener.close();
    const open = [...this.sessions].map((s) => new Promise<void>((resolve) => {
      if (s.closed || s.destroyed) return resolve();
      s.once("close", () => resolve());
      s.close();
    }));
    return Promise.all(open).then(() => undefined);
  }

  /** Drops every connection at once. */
  forceShutdown(): void {
    this.listener.close();
    for (const s of this.sessions) s.destroy();
  }

  private serve(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    stream.on("error", () => undefined);
    const contentType = String(headers["content-type"] ?? "");
    if (headers[":method"] !== "POST" || !contentType.startsWith("application/grpc")) {
      stream.respond({ ":status": headers[":method"] !== "POST" ? 405 : 415 }, { endStream: true });
      return;
    }
    const path = String(headers[":path"]);
    const route = this.routes.get(path);
    if (route === undefined) return this.fail(stream, new CallError(Status.UNIMPLEMENTED, `The server does not implement the method ${path}`));
    const encoding = headers["grpc-encoding"];
    if (encoding !== undefined && encoding !== "identity" && encoding !== "gzip") {
      return this.fail(stream, new CallError(Status.UNIMPLEMENTED, `grpc-encoding ${String(encoding)} is not supported`), { "grpc-accept-encoding": "identity,gzip" });
    }
    const call = { cancelled: false };
    let timer: NodeJS.Timeout | undefined;
    const timeout = parseTimeout(headers["grpc-timeout"] as string | undefined);
    if (timeout !== undefined) {
      timer = setTimeout(() => {
        call.cancelled = true;
        this.fail(stream, new CallError(Status.DEADLINE_EXCEEDED, "Deadline exceeded"));
      }, timeout);
    }
    stream.once("close", () => {
      clearTimeout(timer);
      call.cancelled = true;
    });
    const reader = new MessageReader(this.options.maxReceiveBytes, encoding === "gzip" ? "gzip" : undefined);
    const messages: Buffer[] = [];
    let rejected = false;
    stream.on("data", (chunk: Buffer) => {
      if (rejected) return;
      try {
        messages.push(...reader.push(chunk));
      } catch (e) {
        rejected = true;
        this.fail(stream, e instanceof CallError ? e : new CallError(Status.INTERNAL, (e as Error).message));
      }
    });
    stream.once("end", () => {
      if (rejected || call.cancelled) return;
      if (messages.length !== 1 || reader.partial) {
        return this.fail(stream, new CallError(Status.UNIMPLEMENTED, `${path} takes exactly one request message, got ${messages.length}${reader.partial ? " and part of another" : ""}`));
      }
      let request: unknown;
      try {
        request = route.method.requestDeserialize(messages[0]!);
      } catch (e) {
        return this.fail(stream, new CallError(Status.INTERNAL, `cannot decode the ${path} request: ${(e as Error).message}`));
      }
      Promise.resolve()
        .then(() => route.handler(request, call))
        .then(
          (result) => {
            if (call.cancelled || stream.closed) return;
            const out = route.method.responseStream ? (result as readonly object[]) : [result as object];
            let encoded: Buffer[];
            try {
              encoded = out.map((m) => route.method.responseSerialize(m));
            } catch (e) {
              return this.fail(stream, new CallError(Status.INTERNAL, `cannot encode the ${path} response: ${(e as Error).message}`));
            }
            clearTimeout(timer);
            stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
            stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
            encoded.forEach((bytes, i) => writeMessage(stream, bytes, i === encoded.length - 1));
            if (encoded.length === 0) stream.end();
          },
          (e: unknown) => this.fail(stream, e instanceof CallError ? e : new CallError(Status.UNKNOWN, e instanceof Error ? e.message : String(e))),
        );
    });
  }

  /** A trailers-only reply: the status in the response headers, no body. */
  private fail(stream: http2.ServerHttp2Stream, err: CallError, extra: http2.OutgoingHttpHeaders = {}): void {
    if (stream.closed || stream.destroyed) return;
    if (stream.headersSent) {
      stream.close(NGHTTP2_CANCEL);
      return;
    }
    stream.respond(
      {
        ":status": 200,
        "content-type": "application/grpc",
        ...extra,
        ...metadataToHeaders(err.metadata),
        "grpc-status": String(err.code),
        "grpc-message": boundedStatusMessage(err.details),
      },
      { endStream: true },
    );
  }
}
