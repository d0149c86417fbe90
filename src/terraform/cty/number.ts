// Exact cty number handling: parsing, rounding and printing numbers the way go-cty's math/big.Float does, since its wire bytes depend on them.

/*
 * go-cty keeps numbers as big.Float values whose precision depends on where
 * they came from: 53 bits from a float64, 64 from an int64, 512 when parsed
 * from text. Which of msgpack's int/float64/string forms go-cty writes, and the
 * decimal text it writes (shortest digits that identify the value *at its own
 * precision*), follow from that. The CtyValue model maps these as:
 *   - a JS number is the exact float64 value (go-cty's NumberFloatVal),
 *   - a BigNum is a decimal parsed at 512 bits (go-cty's ParseNumberVal).
 * This module reproduces big.Float's parsing (including its rounding steps),
 * its shortest-digit printing and its %g printing with BigInt arithmetic.
 */

/** A finite binary float: (-1)^neg × mant × 2^exp, carried at `prec` bits of precision. */
export interface BinFloat {
  neg: boolean;
  mant: bigint;
  exp: number;
  prec: number;
}

/** Decimal digits with the point before the first digit: value = 0.digits × 10^dexp; no leading or trailing zeros. */
interface Digits {
  digits: string;
  dexp: number;
}

/** Text precision go-cty parses numbers at. */
export const PARSE_PREC = 512;

/** Refuse decimal exponents beyond this: printing such a number would take megabytes, and go-cty's own output would be no use either. */
const MAX_DECIMAL_EXPONENT = 10_000;
const MAX_DIGITS = 20_000;

/** Raised for text that is not a number; callers turn it into a CtyError with a path. */
export class NumberSyntaxError extends Error {}

export function bitLength(n: bigint): number {
  if (n === 0n) return 0;
  if (n < 0n) n = -n;
  const hex = n.toString(16);
  const top = parseInt(hex[0]!, 16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(top));
}

function trailingZeroBits(n: bigint): number {
  if (n === 0n) return 0;
  let count = 0;
  while ((n & 0xffffffffn) === 0n) {
    n >>= 32n;
    count += 32;
  }
  let low = Number(n & 0xffffffffn);
  while ((low & 1) === 0) {
    low >>>= 1;
    count++;
  }
  return count;
}

/** Rounds mant × 2^exp to `prec` bits, nearest-even; `sticky` says the true value is a little above mant × 2^exp. */
function roundToPrec(neg: boolean, mant: bigint, exp: number, prec: number, sticky = false): BinFloat {
  const len = bitLength(mant);
  if (len <= prec) return { neg, mant, exp, prec };
  const shift = len - prec;
  const bShift = BigInt(shift);
  let q = mant >> bShift;
  const rem = mant & ((1n << bShift) - 1n);
  const half = 1n << (bShift - 1n);
  if (rem > half || (rem === half && (sticky || (q & 1n) === 1n))) q += 1n;
  let e = exp + shift;
  if (bitLength(q) > prec) {
    q >>= 1n;
    e += 1;
  }
  return { neg, mant: q, exp: e, prec };
}

function mulRound(x: BinFloat, y: BinFloat, prec: number): BinFloat {
  return roundToPrec(x.neg !== y.neg, x.mant * y.mant, x.exp + y.exp, prec);
}

/** (a × 2^ea) / (b × 2^eb), correctly rounded to `prec` bits like big.Float.Quo. */
function quoRound(neg: boolean, a: bigint, ea: number, b: bigint, eb: number, prec: number): BinFloat {
  const s = Math.max(0, prec + 2 + bitLength(b) - bitLength(a));
  const num = a << BigInt(s);
  const q = num / b;
  const r = num % b;
  return roundToPrec(neg, q, ea - eb - s, prec, r !== 0n);
}

const POW5_TABLE_MAX = 27; // the largest power of five big.Float keeps in a uint64 table
const POW5_PREC = PARSE_PREC + 64; // big.Float computes the power at 64 extra bits

/** 5^n as big.Float's parser computes it: exact up to 5^27, then by rounded repeated squaring. */
function pow5(n: number): BinFloat {
  if (n <= POW5_TABLE_MAX) return { neg: false, mant: 5n ** BigInt(n), exp: 0, prec: POW5_PREC };
  let z: BinFloat = { neg: false, mant: 5n ** BigInt(POW5_TABLE_MAX), exp: 0, prec: POW5_PREC };
  let f: BinFloat = { neg: false, mant: 5n, exp: 0, prec: POW5_PREC };
  let k = n - POW5_TABLE_MAX;
  while (k > 0) {
    if (k & 1) z = mulRound(z, f, POW5_PREC);
    f = mulRound(f, f, POW5_PREC);
    k = Math.floor(k / 2);
  }
  return z;
}

/** A number's text split up as big.ParseFloat(s, 10, ...) reads it. */
interface ParsedText {
  neg: boolean;
  inf: boolean;
  intDigits: string;
  fracDigits: string;
  /** 10 for e/E exponents, 2 for p/P. */
  expBase: 10 | 2;
  exp: number;
}

const NUMBER_TEXT = /^([+-]?)(?:(inf|Inf)|(\d*)(?:\.(\d*))?(?:([eEpP])([+-]?\d+))?)$/;

/** Splits number text per math/big's grammar (sign, digits, optional point, e/p exponent, or Inf); throws NumberSyntaxError. */
export function parseNumberText(text: string): ParsedText {
  const m = NUMBER_TEXT.exec(text);
  if (m === null) throw new NumberSyntaxError(`${JSON.stringify(abbreviate(text))} is not a number`);
  const neg = m[1] === "-";
  if (m[2] !== undefined) return { neg, inf: true, intDigits: "", fracDigits: "", expBase: 10, exp: 0 };
  const intDigits = m[3] ?? "";
  const fracDigits = m[4] ?? "";
  if (intDigits === "" && fracDigits === "") throw new NumberSyntaxError(`${JSON.stringify(abbreviate(text))} is not a number`);
  const exp = m[6] === undefined ? 0 : Number(m[6]);
  if (!Number.isFinite(exp) || Math.abs(exp) > 1e9) throw new NumberSyntaxError(`the exponent of ${abbreviate(text)} is out of range`);
  return { neg, inf: false, intDigits, fracDigits, expBase: m[5] === "p" || m[5] === "P" ? 2 : 10, exp };
}

function abbreviate(s: string): string {
  return s.length > 40 ? s.slice(0, 37) + "..." : s;
}

/** The value go-cty's ParseNumberVal gives: big.ParseFloat at 512 bits, reproducing its two rounding steps. */
export function parseToBinFloat(p: ParsedText): BinFloat {
  let digits = p.intDigits + p.fracDigits;
  let i = 0;
  while (i < digits.length && digits.charCodeAt(i) === 0x30) i++;
  digits = digits.slice(i);
  if (digits === "") return { neg: p.neg, mant: 0n, exp: 0, prec: PARSE_PREC };
  const f = p.fracDigits.length;
  const e5 = p.expBase === 10 ? p.exp - f : -f;
  const e2 = p.expBase === 10 ? p.exp - f : p.exp - f;
  checkMagnitude(digits.length, e5, e2);
  const d = BigInt(digits);
  if (e5 === 0) return roundToPrec(p.neg, d, e2, PARSE_PREC);
  const p5 = pow5(Math.abs(e5));
  if (e5 < 0) return quoRound(p.neg, d, e2, p5.mant, p5.exp, PARSE_PREC);
  return roundToPrec(p.neg, d * p5.mant, e2 + p5.exp, PARSE_PREC);
}

function checkMagnitude(digitCount: number, e5: number, e2: number): void {
  const decimalExponent = digitCount + e5 + Math.ceil((e2 - e5) * Math.LOG10E * Math.LN2);
  if (digitCount > MAX_DIGITS || Math.abs(decimalExponent) > MAX_DECIMAL_EXPONENT || Math.abs(e5) > MAX_DECIMAL_EXPONENT + MAX_DIGITS) {
    throw new NumberSyntaxError(`numbers beyond 1e±${MAX_DECIMAL_EXPONENT} are not supported`);
  }
}

const f64 = new DataView(new ArrayBuffer(8));

/** The exact value of a finite float64, at the 53-bit precision go-cty's NumberFloatVal gives it. */
export function binFromDouble(n: number): BinFloat {
  f64.setFloat64(0, n);
  const hi = f64.getUint32(0);
  const lo = f64.getUint32(4);
  const neg = hi >>> 31 === 1;
  const bexp = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (bexp === 0) return { neg, mant: frac, exp: -1074, prec: 53 };
  return { neg, mant: frac | (1n << 52n), exp: bexp - 1075, prec: 53 };
}

/** The exact decimal digits of mant × 2^exp. */
function exactDigits(mant: bigint, exp: number): Digits {
  if (mant === 0n) return { digits: "", dexp: 0 };
  let s: string;
  let dexp: number;
  if (exp >= 0) {
    s = (mant << BigInt(exp)).toString();
    dexp = s.length;
  } else {
    let k = -exp;
    const tz = Math.min(trailingZeroBits(mant), k);
    mant >>= BigInt(tz);
    k -= tz;
    s = (mant * 5n ** BigInt(k)).toString();
    dexp = s.length - k;
  }
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x30) end--;
  return { digits: s.slice(0, end), dexp };
}

function roundUpAt(d: Digits, n: number): Digits {
  let i = n;
  while (i > 0 && d.digits.charCodeAt(i - 1) === 0x39) i--;
  if (i === 0) return { digits: "1", dexp: d.dexp + 1 };
  return { digits: d.digits.slice(0, i - 1) + String.fromCharCode(d.digits.charCodeAt(i - 1) + 1), dexp: d.dexp };
}

function roundDownAt(d: Digits, n: number): Digits {
  let end = n;
  while (end > 0 && d.digits.charCodeAt(end - 1) === 0x30) end--;
  return end === 0 ? { digits: "", dexp: 0 } : { digits: d.digits.slice(0, end), dexp: d.dexp };
}

/** Rounds to n digits, nearest-even on an exact tie (big's decimal.round). */
function roundAt(d: Digits, n: number): Digits {
  if (n < 0 || n >= d.digits.length) return d;
  const c = d.digits.charCodeAt(n);
  let up: boolean;
  if (c === 0x35 && n + 1 === d.digits.length) up = n > 0 && (d.digits.charCodeAt(n - 1) - 0x30) % 2 === 1;
  else up = c >= 0x35;
  return up ? roundUpAt(d, n) : roundDownAt(d, n);
}

function digitAt(d: Digits, i: number): number {
  return i >= 0 && i < d.digits.length ? d.digits.charCodeAt(i) : 0x30;
}

/**
 * The fewest digits that still identify x at its precision, by big.Float's rule:
 * bounds half an ulp either side (of the ulp of x's own binade, even at a power of
 * two), compared digit by digit at equal indexes.
 */
function shortestDigits(x: BinFloat): Digits {
  const d = exactDigits(x.mant, x.exp);
  if (d.digits === "") return d;
  const s = bitLength(x.mant) - (x.prec + 1);
  const m = s < 0 ? x.mant << BigInt(-s) : x.mant >> BigInt(s);
  const e = x.exp + s;
  const lower = exactDigits(m - 1n, e);
  const upper = exactDigits(m + 1n, e);
  const inclusive = (m & 2n) === 0n;
  for (let i = 0; i < d.digits.length; i++) {
    const l = digitAt(lower, i);
    const u = digitAt(upper, i);
    const c = d.digits.charCodeAt(i);
    const okDown = l !== c || (inclusive && i + 1 === lower.digits.length);
    const okUp = c !== u && (inclusive || c + 1 < u || i + 1 < upper.digits.length);
    if (okDown && okUp) return roundAt(d, i + 1);
    if (okDown) return roundDownAt(d, i + 1);
    if (okUp) return roundUpAt(d, i + 1);
  }
  return d;
}

/** Fixed-point text with `frac` digits after the point (big's %f). */
function formatFixed(neg: boolean, d: Digits, frac: number): string {
  let out = neg ? "-" : "";
  if (d.dexp > 0) {
    const m = Math.min(d.digits.length, d.dexp);
    out += d.digits.slice(0, m) + "0".repeat(d.dexp - m);
  } else out += "0";
  if (frac > 0) {
    out += ".";
    if (d.dexp < 0) {
      const zeros = Math.min(-d.dexp, frac);
      out += "0".repeat(zeros);
      out += d.digits.slice(0, frac - zeros).padEnd(frac - zeros, "0");
    } else {
      out += d.digits.slice(d.dexp, d.dexp + frac).padEnd(frac, "0");
    }
  }
  return out;
}

/** x.Text('f', -1): what go-cty writes for a number as msgpack string or JSON. */
export function shortestText(x: BinFloat): string {
  const d = shortestDigits(x);
  return formatFixed(x.neg, d, Math.max(d.digits.length - d.dexp, 0));
}

/** x.Text('g', 10), i.e. big.Float's String(): go-cty hashes numbers in set elements with it. */
export function gText10(x: BinFloat): string {
  const d = roundAt(exactDigits(x.mant, x.exp), 10);
  const sign = x.neg ? "-" : "";
  let eprec = 10;
  if (eprec > d.digits.length && d.digits.length >= d.dexp) eprec = d.digits.length;
  const exp = d.dexp - 1;
  if (exp < -4 || exp >= eprec) {
    const prec = Math.min(10, d.digits.length);
    let out = sign + (d.digits.length > 0 ? d.digits[0]! : "0");
    if (prec - 1 > 0) out += "." + d.digits.slice(1, prec).padEnd(prec - 1, "0");
    const e = d.digits.length > 0 ? d.dexp - 1 : 0;
    const abs = Math.abs(e);
    return out + "e" + (e < 0 ? "-" : "+") + (abs < 10 ? "0" : "") + abs;
  }
  const prec = 10 > d.dexp ? d.digits.length : 10;
  return formatFixed(x.neg, d, Math.max(prec - d.dexp, 0));
}

/** Go's %g of a float64 as it sits in a go-cty set hash. */
export function gText10Double(n: number): string {
  if (n === Infinity) return "+Inf";
  if (n === -Infinity) return "-Inf";
  if (Number.isInteger(n) && Math.abs(n) < 1e10) return Object.is(n, -0) ? "-0" : String(n);
  return gText10(binFromDouble(n));
}

/**
 * What go-cty writes for a float64 value as text (JSON, or msgpack for integers
 * beyond int64): shortest digits at 53 bits, never in exponent form.
 */
export function doubleText(n: number): string {
  if (Number.isInteger(n)) {
    if (Math.abs(n) <= 2 ** 53) return Object.is(n, -0) ? "-0" : String(n);
  } else if (Math.abs(n) >= 2 ** -1022) {
    // JS prints the same shortest digits as big.Float for normal non-integers,
    // except at a power of two, where big.Float's lower bound is wider (checked
    // against the exact algorithm in the tests).
    f64.setFloat64(0, n);
    if ((f64.getUint32(0) & 0xfffff) !== 0 || f64.getUint32(4) !== 0) return fixedFromJs(n);
  }
  return shortestText(binFromDouble(n));
}

/** JS's shortest digits for n, laid out without an exponent. */
function fixedFromJs(n: number): string {
  const s = String(n);
  const e = s.indexOf("e");
  if (e < 0) return s;
  const neg = s.charCodeAt(0) === 0x2d;
  const mant = s.slice(neg ? 1 : 0, e);
  const point = mant.indexOf(".");
  const digits = point < 0 ? mant : mant.slice(0, point) + mant.slice(point + 1);
  // mant is d[.ddd], so the point sits after one digit: value = 0.digits × 10^(exp+1)
  return formatFixed(neg, { digits, dexp: Number(s.slice(e + 1)) + 1 }, Math.max(digits.length - Number(s.slice(e + 1)) - 1, 0));
}

/**
 * The canonical text of a decimal: what go-cty prints for it after parsing it at
 * 512 bits. For ordinary decimals that is just the digits tidied up, and only
 * long or far-out numbers need the full big.Float reproduction.
 */
export function canonicalDecimal(text: string): string {
  // Text already in go-cty's form (as decoders produce) needs no work.
  if (text.length <= 150 && CANONICAL_SHORT.test(text)) return text;
  const p = parseNumberText(text);
  if (p.inf) throw new NumberSyntaxError("infinity is not a decimal");
  return canonicalFromParsed(p);
}

function canonicalFromParsed(p: ParsedText): string {
  if (p.expBase === 10) {
    const fast = tidyDecimal(p);
    if (fast !== undefined) return fast;
  }
  return shortestText(parseToBinFloat(p));
}

/**
 * The plain decimal for text whose 512-bit parse is exact enough that printing it
 * back gives the same digits: up to 150 significant digits, and a power of five
 * small enough that big.Float scales by it exactly (so one correct rounding).
 */
function tidyDecimal(p: ParsedText): string | undefined {
  const all = p.intDigits + p.fracDigits;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 0x30) start++;
  if (start === all.length) return p.neg ? "-0" : "0";
  if (Math.abs(p.exp - p.fracDigits.length) > POW5_TABLE_MAX) return undefined;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 0x30) end--;
  const digits = all.slice(start, end);
  if (digits.length > 150) return undefined;
  // value = 0.digits × 10^dexp
  const dexp = p.intDigits.length - start + p.exp;
  return formatFixed(p.neg, { digits, dexp }, Math.max(digits.length - dexp, 0));
}

const MAX_SAFE = 2 ** 53;
const SMALL_INT = /^-?(?:0|[1-9]\d{0,14})$/;
/** Plain decimals whose 512-bit parse prints back identically (few fraction digits, no exponent). */
const CANONICAL_SHORT = /^-?(?:0|[1-9]\d*)(?:\.\d{0,26}[1-9])?$/;
const SIMPLE_DECIMAL = /^(-?)(\d+)\.(\d+)$/;

/** How a number should travel in msgpack, following go-cty: int64, float64, or decimal text. */
export type WireNumber =
  | { kind: "int"; value: number | bigint }
  | { kind: "float"; value: number }
  | { kind: "text"; text: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The msgpack form of canonical decimal text (a BigNum), decided on its 512-bit value as go-cty does. */
export function wireFromCanonical(text: string): WireNumber {
  const point = text.indexOf(".");
  if (point < 0) {
    if (text.length < 16) return { kind: "int", value: Number(text) };
    const b = BigInt(text);
    if (b >= INT64_MIN && b <= INT64_MAX) return { kind: "int", value: b };
    return { kind: "text", text };
  }
  const exact = exactDouble(text, point);
  return exact === undefined ? { kind: "text", text } : { kind: "float", value: exact };
}

/**
 * The float64 that a non-integer canonical decimal equals exactly, if any. A
 * decimal d/10^f is a binary fraction only when 5^f divides d.
 */
function exactDouble(text: string, point: number): number | undefined {
  const neg = text.charCodeAt(0) === 0x2d;
  const f = text.length - point - 1;
  // Necessary condition, cheap: an exact d/10^f is some k/2^f, so x·2^f is whole.
  if (f < 900 && !Number.isInteger(Number(text) * 2 ** f)) return undefined;
  const d = BigInt((neg ? text.slice(1, point) : text.slice(0, point)) + text.slice(point + 1));
  const p5 = 5n ** BigInt(f);
  if (d % p5 !== 0n) return undefined;
  const q = d / p5;
  const tz = trailingZeroBits(q);
  const odd = q >> BigInt(tz);
  const e = tz - f;
  const len = bitLength(odd);
  if (len > 53 || e < -1074 || e + len > 1024) return undefined;
  return Number(text);
}

/**
 * The JS value for number text read off the wire: a JS number where it is exactly
 * the 512-bit value and re-encodes the same, otherwise a canonical decimal string
 * for the caller to wrap as BigNum.
 */
export function decodeNumberText(text: string): number | { canonical: string } {
  if (SMALL_INT.test(text)) return Number(text);
  const m = SIMPLE_DECIMAL.exec(text);
  if (m !== null && m[2]!.length + m[3]!.length <= 15) {
    // Few enough digits to be exact in a double: d/10^f is a binary fraction iff 5^f divides d.
    const d = Number(m[2]! + m[3]!);
    if (d % 5 ** m[3]!.length === 0) return Number(text);
  }
  const p = parseNumberText(text);
  if (p.inf) return p.neg ? -Infinity : Infinity;
  const canonical = canonicalFromParsed(p);
  return jsNumberFor(canonical) ?? { canonical };
}

/** A JS number that stands for canonical decimal text with no loss and the same wire bytes, if there is one. */
export function jsNumberFor(canonical: string): number | undefined {
  const point = canonical.indexOf(".");
  if (point < 0) {
    if (canonical === "-0") return -0;
    if (canonical.length <= 17) {
      const n = Number(canonical);
      if (Math.abs(n) <= MAX_SAFE && String(n) === canonical) return n;
    }
    return undefined;
  }
  return exactDouble(canonical, point);
}

/** Exact comparison of two cty numbers given as JS numbers or canonical decimal text. */
export function compareNumbers(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  const fa = toComparable(a);
  const fb = toComparable(b);
  if (fa === "inf" || fa === "-inf" || fb === "inf" || fb === "-inf") {
    const ra = fa === "inf" ? 1 : fa === "-inf" ? -1 : 0;
    const rb = fb === "inf" ? 1 : fb === "-inf" ? -1 : 0;
    return ra - rb;
  }
  // Compare num/den fractions: a = na / 10^ka, b = nb / 10^kb.
  const scale = Math.max(fa.k, fb.k);
  const x = fa.n * 10n ** BigInt(scale - fa.k);
  const y = fb.n * 10n ** BigInt(scale - fb.k);
  return x < y ? -1 : x > y ? 1 : 0;
}

function toComparable(v: number | string): { n: bigint; k: number } | "inf" | "-inf" {
  if (typeof v === "number") {
    if (v === Infinity) return "inf";
    if (v === -Infinity) return "-inf";
    const b = binFromDouble(v);
    // mant × 2^exp = mant × 5^-exp / 10^-exp for negative exp.
    const sign = b.neg ? -1n : 1n;
    if (b.exp >= 0) return { n: sign * (b.mant << BigInt(b.exp)), k: 0 };
    return { n: sign * b.mant * 5n ** BigInt(-b.exp), k: -b.exp };
  }
  const neg = v.charCodeAt(0) === 0x2d;
  const body = neg ? v.slice(1) : v;
  const point = body.indexOf(".");
  const digits = point < 0 ? body : body.slice(0, point) + body.slice(point + 1);
  const n = BigInt(digits);
  return { n: neg ? -n : n, k: point < 0 ? 0 : body.length - point - 1 };
}

/** big.Float's %g of canonical decimal text, on its 512-bit value. */
export function gText10Decimal(canonical: string): string {
  return gText10(parseToBinFloat(parseNumberText(canonical)));
}
