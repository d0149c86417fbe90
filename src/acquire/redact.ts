// How URLs appear in messages and log lines: the one place that keeps a password (or a lone user name, which is
// often a token) in a proxy or mirror URL from being shown. Every message that names a URL goes through it.

const MASK = "***";

/**
 * A URL for display, as Go's URL.Redacted() shows it: `http://alice:***@host:port/`. A user name without a password
 * is masked whole (`https://***@host/`), since `https://<token>@host/` is a common way to pass a token. A string that
 * is not a URL keeps nothing between `//` (or its start) and its last `@`.
 */
export function redactUrl(url: URL | string): string {
  let u: URL;
  try {
    u = typeof url === "string" ? new URL(url) : new URL(url.href);
  } catch {
    return maskUserinfo(String(url));
  }
  // `user:pass@host` parses as an opaque URL of scheme `user:`: no host, so the userinfo is found by position.
  if (u.username === "" && u.password === "") return u.host === "" && u.href.includes("@") ? maskUserinfo(String(url)) : u.href;
  if (u.password !== "") u.password = MASK;
  else u.username = MASK;
  return u.href;
}

/** Userinfo masked by position alone: what cannot be parsed may still hold a password, which may itself hold `@` or `/`. */
function maskUserinfo(s: string): string {
  const slashes = s.indexOf("//");
  const start = slashes >= 0 ? slashes + 2 : 0;
  const at = s.lastIndexOf("@");
  if (at < start) return s;
  return `${s.slice(0, start)}${MASK}${s.slice(at)}`;
}

/**
 * Text that may quote a URL nobody passed through redactUrl (an error from undici or Node, a message built
 * elsewhere): every `scheme://user:password@` in it becomes `scheme://user:***@`, and `scheme://user@` becomes
 * `scheme://***@`. Already redacted text comes back unchanged.
 */
export function redactText(text: string): string {
  // By hand, not by regular expression: the text may be a provider's or a server's, of any length, and a pattern
  // that backtracks over a long run of letters would take quadratic time. Each character is looked at a bounded
  // number of times.
  let out = "";
  let copied = 0;
  for (let sep = text.indexOf("://"); sep >= 0; sep = text.indexOf("://", sep + 3)) {
    let start = sep;
    while (start > 0 && sep - start < 32 && /[a-z0-9+.-]/i.test(text[start - 1]!)) start--;
    // A scheme begins with a letter: "9https://" is the scheme "https".
    while (start < sep && !/[a-z]/i.test(text[start]!)) start++;
    if (start === sep) continue;
    const from = sep + 3;
    let end = from;
    while (end < text.length && !/[\s/?#]/.test(text[end]!)) end++;
    // Within the authority only: it ends at the next "/" (or space), so authorities never overlap.
    const authority = text.slice(from, end);
    const at = authority.lastIndexOf("@");
    if (at < 0) continue;
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(":");
    out += text.slice(copied, from) + (colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}` : MASK);
    copied = from + at;
  }
  return out + text.slice(copied);
}
