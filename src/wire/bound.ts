// Cuts text that comes from outside (a provider's output, its diagnostics, an error built from them) to a size every
// reader of it can carry: the start is kept, which names what failed, and the end, which holds the provider's reason,
// and a marker between them says how much was left out.

/**
 * The most a gRPC status message we send may take on the wire (percent-encoded, so up to 9 bytes a character).
 * grpc-go, the engine's client, takes 16 MiB of headers, but gRPC's protocol document suggests clients accept 8 KiB,
 * and node:http2 gives up on a header value of a few hundred KiB; 32 KiB keeps a long error with several diagnostics
 * whole and stays far below every limit.
 */
export const MAX_STATUS_MESSAGE_BYTES = 32 * 1024;

/** The most one diagnostic's summary or detail keeps; a detail is the provider's free text, often an API's answer. */
export const MAX_DIAGNOSTIC_CHARS = 16 * 1024;

/** The most one log message to the engine keeps. */
export const MAX_LOG_MESSAGE_CHARS = 32 * 1024;

/** The share of a cut text kept from its start; the rest is kept from its end. */
const HEAD_SHARE = 3 / 4;

/**
 * `text` if it fits in `max` characters, else its first three quarters of `max` and its last quarter with
 * ` … [N characters not shown] … ` between them. An error built around a huge value (an id of megabytes, a path
 * holding it) keeps what failed and why, wherever the value sits.
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.ceil(max * HEAD_SHARE);
  let tail = text.length - (max - head);
  // Never split a surrogate pair: half of one is not text.
  if (isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (tail < text.length && isLowSurrogate(text.charCodeAt(tail))) tail++;
  return `${text.slice(0, head)} … [${tail - head} characters not shown] … ${text.slice(tail)}`;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
