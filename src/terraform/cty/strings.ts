// String helpers that reproduce Go's byte-level behaviour: UTF-8 ordering, encoding/json escaping, strconv.Quote, and go-cty's prefix truncation.

/**
 * Orders strings as Go's `<` does, by UTF-8 bytes (which is code point order).
 * JS compares UTF-16 code units, which disagrees only where a surrogate pair meets
 * a code unit in U+E000..U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
        y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Sorts in place by UTF-8 byte order and returns the array. */
export function sortUtf8(names: string[]): string[] {
  return names.sort(compareUtf8);
}

/** The number of bytes `s` takes as UTF-8 (lone surrogates count as U+FFFD, as TextEncoder writes them). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // 4 bytes for 2 code units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

const HEX = "0123456789abcdef";
const JSON_NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

/**
 * A JSON string literal exactly as Go's encoding/json writes it (json.Marshal's
 * default HTML escaping included), which is how go-cty writes strings and type names.
 */
export function goJsonString(s: string): string {
  if (!JSON_NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22: esc = '\\"'; break;
        case 0x5c: esc = "\\\\"; break;
        case 0x08: esc = "\\b"; break;
        case 0x0c: esc = "\\f"; break;
        case 0x0a: esc = "\\n"; break;
        case 0x0d: esc = "\\r"; break;
        case 0x09: esc = "\\t"; break;
        default: esc = "\\u00" + HEX[c >> 4]! + HEX[c & 0xf]!;
      }
    } else if (c === 0x2028 || c === 0x2029) {
      esc = c === 0x2028 ? "\\u2028" : "\\u2029";
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && i + 1 < s.length && isLowSurrogate(s.charCodeAt(i + 1));
      if (pair) {
        i++;
        continue;
      }
      // A lone surrogate reaches Go as U+FFFD once the text is UTF-8, and Go writes that rune as is.
      esc = "\ufffd";
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/**
 * `s` quoted as Go's strconv.Quote (fmt's %q) does: go-cty hashes set elements
 * with it, and that hash decides the order of set elements that are not primitive.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22 || cp === 0x5c) {
      out += "\\" + ch;
    } else if (cp >= 0x20 && cp < 0x7f) {
      out += ch;
    } else if (cp >= 0x80 && PRINTABLE.test(String.fromCodePoint(cp))) {
      out += String.fromCodePoint(cp);
    } else {
      switch (cp) {
        case 0x07: out += "\\a"; break;
        case 0x08: out += "\\b"; break;
        case 0x0c: out += "\\f"; break;
        case 0x0a: out += "\\n"; break;
        case 0x0d: out += "\\r"; break;
        case 0x09: out += "\\t"; break;
        case 0x0b: out += "\\v"; break;
        default:
          if (cp < 0x20 || cp === 0x7f) out += "\\x" + HEX[cp >> 4]! + HEX[cp & 0xf]!;
          else if (cp < 0x10000) out += "\\u" + cp.toString(16).padStart(4, "0");
          else out += "\\U" + cp.toString(16).padStart(8, "0");
      }
    }
  }
  return out + '"';
}

/** go-cty keeps refinement payloads small by never writing a string prefix longer than this many bytes. */
const MAX_PREFIX_BYTES = 256;

// Made at first use: an ICU object cannot be held in a V8 startup snapshot (scripts/package.sh builds one).
let segmenter: Intl.Segmenter | undefined;

/** Characters go-cty trusts never to combine with whatever follows them. */
const CLUSTER_ENDERS = new Set("-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'");

/**
 * The string prefix go-cty would write for an unknown string: NFC-normalized and,
 * past 256 bytes, cut to 255 and then trimmed back to a point where appending more
 * text cannot change the last character (the last grapheme cluster is dropped).
 */
export function wirePrefix(prefix: string): string {
  const p = prefix.normalize("NFC");
  if (utf8Length(p) <= MAX_PREFIX_BYTES) return p;
  // Keep whole code points within 255 bytes.
  let bytes = 0;
  let end = 0;
  for (const ch of p) {
    const n = utf8Length(ch);
    if (bytes + n > MAX_PREFIX_BYTES - 1) break;
    bytes += n;
    end += ch.length;
  }
  const cut = p.slice(0, end).normalize("NFC");
  let last = -1;
  let lastSeg = "";
  for (const seg of (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(cut)) {
    last = seg.index;
    lastSeg = seg.segment;
  }
  if (last < 0) return "";
  // The cut may have split a character (or a cluster), so the last cluster goes,
  // unless it is a delimiter that nothing can combine with.
  return lastSeg.length === 1 && CLUSTER_ENDERS.has(lastSeg) ? cut : cut.slice(0, last);
}
