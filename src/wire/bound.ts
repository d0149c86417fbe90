// Cuts text that comes from outside (a provider's output, its diagnostics, an error built from them) to a size every
// reader of it can carry: the start is kept, and a marker says how much was left out.

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

/** `text` if it fits in `max` characters, else its first characters and ` … [N more characters not shown]`. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = max;
  // Never split a surrogate pair: half of one is not text.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return `${text.slice(0, keep)} … [${text.length - keep} more characters not shown]`;
}
