// A small JSON tokenizer for the type-directed cty JSON decoder: it keeps number tokens as text, so no precision is lost before the codec decides.

import { CtyError } from "./errors.js";

const MAX_DEPTH = 1000;

/** A cursor over JSON text with just the operations the type-directed decoder needs. */
export class JsonReader {
  pos = 0;
  depth = 0;
  constructor(readonly s: string) {}

  ws(): number {
    const s = this.s;
    let p = this.pos;
    let c = s.charCodeAt(p);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++p);
    this.pos = p;
    return c; // NaN at end of input
  }

  fail(what: string): CtyError {
    if (this.pos >= this.s.length) return new CtyError(`malformed JSON: input ends early while reading ${what}`);
    const ch = this.s[this.pos]!;
    return new CtyError(`malformed JSON: unexpected ${JSON.stringify(ch)} at offset ${this.pos} while reading ${what}`);
  }

  expect(code: number, what: string): void {
    if (this.ws() !== code) throw this.fail(what);
    this.pos++;
  }

  literal(word: string): void {
    if (!this.s.startsWith(word, this.pos)) throw this.fail("a literal");
    this.pos += word.length;
  }

  /** A string literal starting at the opening quote. */
  str(): string {
    const s = this.s;
    let p = this.pos + 1;
    const start = p;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return s.slice(start, p);
      }
      if (c === 0x5c || c < 0x20 || Number.isNaN(c)) break;
      p++;
    }
    let out = s.slice(start, p);
    for (;;) {
      const c = s.charCodeAt(p);
      if (Number.isNaN(c)) {
        this.pos = p;
        throw this.fail("a string");
      }
      if (c === 0x22) {
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = p;
        throw this.fail("a string (control characters must be escaped)");
      }
      if (c !== 0x5c) {
        out += s[p];
        p++;
        continue;
      }
      const e = s[p + 1];
      p += 2;
      switch (e) {
        case '"': out += '"'; break;
        case "\\": out += "\\"; break;
        case "/": out += "/"; break;
        case "b": out += "\b"; break;
        case "f": out += "\f"; break;
        case "n": out += "\n"; break;
        case "r": out += "\r"; break;
        case "t": out += "\t"; break;
        case "u": {
          const hi = this.hex4(p);
          p += 4;
          if (hi >= 0xd800 && hi <= 0xdbff && s[p] === "\\" && s[p + 1] === "u") {
            const lo = this.hex4(p + 2);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              out += String.fromCharCode(hi, lo);
              p += 6;
              break;
            }
          }
          // Go decodes a lone surrogate escape as U+FFFD.
          out += hi >= 0xd800 && hi <= 0xdfff ? "\ufffd" : String.fromCharCode(hi);
          break;
        }
        default:
          this.pos = p - 1;
          throw this.fail("a string escape");
      }
    }
  }

  private hex4(p: number): number {
    const h = this.s.slice(p, p + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) {
      this.pos = p;
      throw this.fail("a \\u escape");
    }
    return parseInt(h, 16);
  }

  /** The text of a number token, checked against JSON's grammar. */
  numberToken(): string {
    const s = this.s;
    const start = this.pos;
    let p = start;
    if (s.charCodeAt(p) === 0x2d) p++;
    if (s.charCodeAt(p) === 0x30) p++;
    else p = this.digits(p, "a number");
    if (s.charCodeAt(p) === 0x2e) p = this.digits(p + 1, "a number");
    const e = s.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      const sign = s.charCodeAt(p);
      if (sign === 0x2b || sign === 0x2d) p++;
      p = this.digits(p, "a number");
    }
    this.pos = p;
    return s.slice(start, p);
  }

  /** The end of a run of at least one digit starting at p. */
  private digits(p: number, what: string): number {
    const s = this.s;
    const from = p;
    let c = s.charCodeAt(p);
    while (c >= 0x30 && c <= 0x39) c = s.charCodeAt(++p);
    if (p === from) {
      this.pos = p;
      throw this.fail(what);
    }
    return p;
  }

  /** Skips any JSON value (a dynamic value's body is read after its type). */
  skip(): void {
    const c = this.ws();
    if (c === 0x22) return void this.str();
    if (c === 0x7b || c === 0x5b) {
      if (++this.depth > MAX_DEPTH) throw new CtyError("malformed JSON: nested too deeply");
      this.pos++;
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (this.ws() === close) {
        this.pos++;
        this.depth--;
        return;
      }
      for (;;) {
        if (c === 0x7b) {
          if (this.ws() !== 0x22) throw this.fail("an object key");
          this.str();
          this.expect(0x3a, "an object");
        }
        this.skip();
        const d = this.ws();
        this.pos++;
        if (d === close) break;
        if (d !== 0x2c) {
          this.pos--;
          throw this.fail(c === 0x7b ? "an object" : "an array");
        }
      }
      this.depth--;
      return;
    }
    if (c === 0x74) return this.literal("true");
    if (c === 0x66) return this.literal("false");
    if (c === 0x6e) return this.literal("null");
    this.numberToken();
  }

  /** Reads `[` elements `]`, calling each for every element. */
  array(what: string, each: (i: number) => void): void {
    if (this.ws() !== 0x5b) throw this.mismatch(what);
    this.enter();
    this.pos++;
    if (this.ws() === 0x5d) {
      this.pos++;
      this.depth--;
      return;
    }
    for (let i = 0; ; i++) {
      each(i);
      const d = this.ws();
      if (d === 0x5d) break;
      if (d !== 0x2c) throw this.fail(what);
      this.pos++;
    }
    this.pos++;
    this.depth--;
  }

  /** Reads `{` key: value `}`, calling each with every key positioned at its value. */
  object(what: string, each: (key: string) => void): void {
    if (this.ws() !== 0x7b) throw this.mismatch(what);
    this.enter();
    this.pos++;
    if (this.ws() === 0x7d) {
      this.pos++;
      this.depth--;
      return;
    }
    for (;;) {
      if (this.ws() !== 0x22) throw this.fail(`${what} key`);
      const key = this.str();
      this.expect(0x3a, what);
      each(key);
      const d = this.ws();
      if (d === 0x7d) break;
      if (d !== 0x2c) throw this.fail(what);
      this.pos++;
    }
    this.pos++;
    this.depth--;
  }

  /**
   * Opens an array or object (`code` is its opening bracket); false when it is
   * empty and already closed. Loops call next() after each element.
   */
  open(code: number, what: string): boolean {
    if (this.ws() !== code) throw this.mismatch(what);
    this.enter();
    this.pos++;
    if (this.ws() === code + 2) {
      this.pos++;
      this.depth--;
      return false;
    }
    return true;
  }

  /** After an element: true if a comma follows, false once `close` ends the container. */
  next(close: number, what: string): boolean {
    const d = this.ws();
    this.pos++;
    if (d === 0x2c) return true;
    if (d === close) {
      this.depth--;
      return false;
    }
    this.pos--;
    throw this.fail(what);
  }

  /** An object key and its colon, leaving the position at the value. */
  key(what: string): string {
    if (this.ws() !== 0x22) throw this.fail(`${what} key`);
    const k = this.str();
    this.expect(0x3a, what);
    return k;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw new CtyError("malformed JSON: nested too deeply");
  }

  mismatch(what: string): CtyError {
    const c = this.ws();
    let got: string;
    if (c === 0x22) got = "string";
    else if (c === 0x7b) got = "object";
    else if (c === 0x5b) got = "array";
    else if (c === 0x74 || c === 0x66) got = "bool";
    else if (c === 0x6e) got = "null";
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) got = "number";
    else return this.fail(what);
    return new CtyError(`expected ${what}`, `got JSON ${got}`);
  }
}
