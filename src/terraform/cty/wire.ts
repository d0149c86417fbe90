// msgpack at the byte level, in the exact forms go-cty's encoder (vmihailenco/msgpack) picks: the writer and reader the cty codec builds on.

import { CtyError } from "./errors.js";
import { decodeNumberText, doubleText, NumberSyntaxError, wireFromCanonical, type WireNumber } from "./number.js";
import { BigNum } from "./value.js";

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** A growable byte buffer with msgpack writers for each form go-cty emits. */
export class Writer {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size: number) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  nil(): void {
    this.byte(0xc0);
  }

  /** The smallest msgpack integer form, as vmihailenco/msgpack's EncodeInt picks it (non-negatives as unsigned). */
  int(n: number): void {
    this.ensure(9);
    const b = this.buf;
    const v = this.view;
    if (n >= 0) {
      if (n <= 0x7f) b[this.pos++] = n;
      else if (n <= 0xff) {
        b[this.pos++] = 0xcc;
        b[this.pos++] = n;
      } else if (n <= 0xffff) {
        b[this.pos++] = 0xcd;
        v.setUint16(this.pos, n);
        this.pos += 2;
      } else if (n <= 0xffffffff) {
        b[this.pos++] = 0xce;
        v.setUint32(this.pos, n);
        this.pos += 4;
      } else {
        b[this.pos++] = 0xcf;
        v.setBigUint64(this.pos, BigInt(n));
        this.pos += 8;
      }
    } else if (n >= -32) b[this.pos++] = n & 0xff;
    else if (n >= -0x80) {
      b[this.pos++] = 0xd0;
      v.setInt8(this.pos++, n);
    } else if (n >= -0x8000) {
      b[this.pos++] = 0xd1;
      v.setInt16(this.pos, n);
      this.pos += 2;
    } else if (n >= -0x80000000) {
      b[this.pos++] = 0xd2;
      v.setInt32(this.pos, n);
      this.pos += 4;
    } else {
      b[this.pos++] = 0xd3;
      v.setBigInt64(this.pos, BigInt(n));
      this.pos += 8;
    }
  }

  /** An int64-range bigint, in the same smallest form. */
  bigInt(n: bigint): void {
    if (n >= -0x80000000n && n <= 0xffffffffn) return this.int(Number(n));
    this.ensure(9);
    this.buf[this.pos++] = n >= 0n ? 0xcf : 0xd3;
    if (n >= 0n) this.view.setBigUint64(this.pos, n);
    else this.view.setBigInt64(this.pos, n);
    this.pos += 8;
  }

  float64(n: number): void {
    this.ensure(9);
    this.buf[this.pos++] = 0xcb;
    this.view.setFloat64(this.pos, n);
    this.pos += 8;
  }

  /** A str (UTF-8) with the header size chosen from its byte length. */
  str(s: string): void {
    const n = s.length;
    if (n < 32) {
      // Short strings: copy ASCII directly, which is most attribute names and values.
      this.ensure(1 + n * 3);
      const b = this.buf;
      const start = this.pos;
      let p = start + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === n) {
        b[start] = 0xa0 | n;
        this.pos = p;
        return;
      }
    }
    const max = n * 3;
    const guess = max < 32 ? 1 : max < 256 ? 2 : max < 65536 ? 3 : 5;
    this.ensure(guess + max);
    const start = this.pos;
    const written = utf8.encodeInto(s, this.buf.subarray(start + guess)).written;
    const h = written < 32 ? 1 : written < 256 ? 2 : written < 65536 ? 3 : 5;
    if (h !== guess) this.buf.copyWithin(start + h, start + guess, start + guess + written);
    this.strHeader(start, written);
    this.pos = start + h + written;
  }

  private strHeader(at: number, len: number): void {
    const b = this.buf;
    if (len < 32) b[at] = 0xa0 | len;
    else if (len < 256) {
      b[at] = 0xd9;
      b[at + 1] = len;
    } else if (len < 65536) {
      b[at] = 0xda;
      this.view.setUint16(at + 1, len);
    } else {
      b[at] = 0xdb;
      this.view.setUint32(at + 1, len);
    }
  }

  /** bin8/16/32, as go-cty writes the type JSON of a dynamic value. */
  bin(bytes: Uint8Array): void {
    const len = bytes.length;
    this.ensure(5 + len);
    if (len < 256) {
      this.buf[this.pos++] = 0xc4;
      this.buf[this.pos++] = len;
    } else if (len < 65536) {
      this.buf[this.pos++] = 0xc5;
      this.view.setUint16(this.pos, len);
      this.pos += 2;
    } else {
      this.buf[this.pos++] = 0xc6;
      this.view.setUint32(this.pos, len);
      this.pos += 4;
    }
    this.raw(bytes);
  }

  arrayHeader(n: number): void {
    this.collectionHeader(n, 0x90, 0xdc, 0xdd);
  }

  mapHeader(n: number): void {
    this.collectionHeader(n, 0x80, 0xde, 0xdf);
  }

  private collectionHeader(n: number, fix: number, c16: number, c32: number): void {
    this.ensure(5);
    if (n < 16) this.buf[this.pos++] = fix | n;
    else if (n < 65536) {
      this.buf[this.pos++] = c16;
      this.view.setUint16(this.pos, n);
      this.pos += 2;
    } else {
      this.buf[this.pos++] = c32;
      this.view.setUint32(this.pos, n);
      this.pos += 4;
    }
  }

  /** fixext for the sizes that have one, else ext8/16/32, as vmihailenco/msgpack picks. */
  extHeader(type: number, len: number): void {
    this.ensure(6);
    const fixed = len === 1 ? 0xd4 : len === 2 ? 0xd5 : len === 4 ? 0xd6 : len === 8 ? 0xd7 : len === 16 ? 0xd8 : 0;
    if (fixed !== 0) this.buf[this.pos++] = fixed;
    else if (len < 256) {
      this.buf[this.pos++] = 0xc7;
      this.buf[this.pos++] = len;
    } else if (len < 65536) {
      this.buf[this.pos++] = 0xc8;
      this.view.setUint16(this.pos, len);
      this.pos += 2;
    } else {
      this.buf[this.pos++] = 0xc9;
      this.view.setUint32(this.pos, len);
      this.pos += 4;
    }
    this.buf[this.pos++] = type;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** go-cty's float64 rule: integers in int64 range as ints, other finite values as float64, integers beyond int64 as text. */
export function jsNumberWire(n: number): WireNumber {
  if (Number.isInteger(n)) {
    if (n >= -(2 ** 63) && n < 2 ** 63) return { kind: "int", value: n };
    return { kind: "text", text: doubleText(n) };
  }
  if (Number.isNaN(n)) throw new CtyError("NaN is not a cty number");
  return { kind: "float", value: n };
}

/** Writes a number in the form already chosen for it. */
export function writeNumber(w: Writer, n: WireNumber): void {
  switch (n.kind) {
    case "int":
      if (typeof n.value === "bigint") return w.bigInt(n.value);
      if (Number.isSafeInteger(n.value)) return w.int(n.value);
      return w.bigInt(BigInt(n.value));
    case "float":
      return w.float64(n.value);
    case "text":
      return w.str(n.text);
  }
}

/** Writes a cty number (JS number or BigNum) in go-cty's form. */
export function writeCtyNumber(w: Writer, v: number | BigNum): void {
  writeNumber(w, typeof v === "number" ? jsNumberWire(v) : wireFromCanonical(v.text));
}

/** A bounds-checked cursor over msgpack bytes; running past the end is a CtyError, never a garbage read. */
export class Reader {
  readonly view: DataView;
  pos = 0;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  need(n: number): void {
    if (this.pos + n > this.bytes.length) {
      throw new CtyError(`malformed msgpack: input ends early (needed ${n} more byte${n === 1 ? "" : "s"} at offset ${this.pos})`);
    }
  }

  peek(): number {
    this.need(1);
    return this.bytes[this.pos]!;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos);
    this.pos += 4;
    return v;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const b = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

/** An array header's element count (`what` names the expected kind for the error). */
export function readArrayHeader(r: Reader, what: string): number {
  const c = r.u8();
  let n: number;
  if (c >= 0x90 && c <= 0x9f) n = c & 0x0f;
  else if (c === 0xdc) n = r.u16();
  else if (c === 0xdd) n = r.u32();
  else {
    r.pos--;
    throw kindMismatch(what, c);
  }
  // Every element takes at least a byte, so a longer count than bytes left is a lie; refuse before allocating.
  if (n > r.remaining) throw new CtyError(`malformed msgpack: array of ${n} elements in ${r.remaining} remaining bytes`);
  return n;
}

/** A map header's entry count. */
export function readMapHeader(r: Reader, what: string): number {
  const c = r.u8();
  let n: number;
  if (c >= 0x80 && c <= 0x8f) n = c & 0x0f;
  else if (c === 0xde) n = r.u16();
  else if (c === 0xdf) n = r.u32();
  else {
    r.pos--;
    throw kindMismatch(what, c);
  }
  if (n * 2 > r.remaining) throw new CtyError(`malformed msgpack: map of ${n} entries in ${r.remaining} remaining bytes`);
  return n;
}

/** A str or bin (go-cty's decoder takes either), as text; invalid UTF-8 becomes U+FFFD. */
export function readString(r: Reader, what: string): string {
  const c = r.u8();
  let len: number;
  if (c >= 0xa0 && c <= 0xbf) len = c & 0x1f;
  else if (c === 0xd9 || c === 0xc4) len = r.u8();
  else if (c === 0xda || c === 0xc5) len = r.u16();
  else if (c === 0xdb || c === 0xc6) len = r.u32();
  else {
    r.pos--;
    throw kindMismatch(what, c);
  }
  r.need(len);
  const b = r.bytes;
  const start = r.pos;
  r.pos += len;
  if (len < 24) {
    let s = "";
    for (let i = start; i < start + len; i++) {
      const ch = b[i]!;
      if (ch >= 0x80) return utf8Decoder.decode(b.subarray(start, start + len));
      s += String.fromCharCode(ch);
    }
    return s;
  }
  return utf8Decoder.decode(b.subarray(start, start + len));
}

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER) + 1n; // 2^53

function bigIntValue(b: bigint): number | BigNum {
  return b <= MAX_SAFE_BIG && b >= -MAX_SAFE_BIG ? Number(b) : new BigNum(b.toString());
}

/** A number in any form go-cty reads: any msgpack int (uint64 included), float32/64, or decimal text. */
export function readNumber(r: Reader): number | BigNum {
  const c = r.u8();
  if (c <= 0x7f) return c;
  if (c >= 0xe0) return c - 0x100;
  const v = r.view;
  let n: number;
  switch (c) {
    case 0xcc: return r.u8();
    case 0xcd: return r.u16();
    case 0xce: return r.u32();
    case 0xcf:
      r.need(8);
      n = r.pos;
      r.pos += 8;
      return bigIntValue(v.getBigUint64(n));
    case 0xd0:
      r.need(1);
      return v.getInt8(r.pos++);
    case 0xd1:
      r.need(2);
      r.pos += 2;
      return v.getInt16(r.pos - 2);
    case 0xd2:
      r.need(4);
      r.pos += 4;
      return v.getInt32(r.pos - 4);
    case 0xd3:
      r.need(8);
      r.pos += 8;
      return bigIntValue(v.getBigInt64(r.pos - 8));
    case 0xca:
      r.need(4);
      r.pos += 4;
      return v.getFloat32(r.pos - 4);
    case 0xcb:
      r.need(8);
      r.pos += 8;
      return v.getFloat64(r.pos - 8);
  }
  r.pos--;
  // go-cty writes numbers it cannot hold in an int64 or float64 as decimal text.
  const text = readString(r, "number");
  try {
    const d = decodeNumberText(text);
    return typeof d === "number" ? d : new BigNum(d.canonical);
  } catch (e) {
    if (e instanceof NumberSyntaxError) throw new CtyError("expected number", e.message);
    throw e;
  }
}

/** Skips one msgpack value of any kind (for refinement keys from the future). */
export function skipValue(r: Reader, depth: number): void {
  if (depth > 64) throw new CtyError("malformed msgpack: value is nested too deeply");
  const c = r.u8();
  if (c <= 0x7f || c >= 0xe0 || c === 0xc0 || c === 0xc2 || c === 0xc3) return;
  if (c >= 0xa0 && c <= 0xbf) return void r.take(c & 0x1f);
  if (c >= 0x90 && c <= 0x9f) {
    for (let i = 0; i < (c & 0xf); i++) skipValue(r, depth + 1);
    return;
  }
  if (c >= 0x80 && c <= 0x8f) {
    for (let i = 0; i < (c & 0xf) * 2; i++) skipValue(r, depth + 1);
    return;
  }
  switch (c) {
    case 0xcc: case 0xd0: return void r.take(1);
    case 0xcd: case 0xd1: return void r.take(2);
    case 0xce: case 0xd2: case 0xca: return void r.take(4);
    case 0xcf: case 0xd3: case 0xcb: return void r.take(8);
    case 0xd9: case 0xc4: return void r.take(r.u8());
    case 0xda: case 0xc5: return void r.take(r.u16());
    case 0xdb: case 0xc6: return void r.take(r.u32());
    case 0xd4: return void r.take(2);
    case 0xd5: return void r.take(3);
    case 0xd6: return void r.take(5);
    case 0xd7: return void r.take(9);
    case 0xd8: return void r.take(17);
    case 0xc7: return void r.take(r.u8() + 1);
    case 0xc8: return void r.take(r.u16() + 1);
    case 0xc9: return void r.take(r.u32() + 1);
    case 0xdc: case 0xdd: {
      const n = c === 0xdc ? r.u16() : r.u32();
      for (let i = 0; i < n; i++) skipValue(r, depth + 1);
      return;
    }
    case 0xde: case 0xdf: {
      const n = c === 0xde ? r.u16() : r.u32();
      for (let i = 0; i < n * 2; i++) skipValue(r, depth + 1);
      return;
    }
  }
  throw new CtyError(`malformed msgpack: invalid byte 0x${c.toString(16)}`);
}

export function kindName(c: number): string {
  if (c <= 0x7f || c >= 0xe0 || (c >= 0xcc && c <= 0xcf) || (c >= 0xd0 && c <= 0xd3)) return "integer";
  if (c >= 0x80 && c <= 0x8f) return "map";
  if (c >= 0x90 && c <= 0x9f) return "array";
  if (c >= 0xa0 && c <= 0xbf) return "string";
  switch (c) {
    case 0xc0: return "null";
    case 0xc2: case 0xc3: return "bool";
    case 0xc4: case 0xc5: case 0xc6: return "binary";
    case 0xca: case 0xcb: return "float";
    case 0xd9: case 0xda: case 0xdb: return "string";
    case 0xdc: case 0xdd: return "array";
    case 0xde: case 0xdf: return "map";
    case 0xc1: return "the reserved byte 0xc1";
  }
  return "extension";
}

export function kindMismatch(what: string, c: number): CtyError {
  return new CtyError(`expected ${what}`, `got msgpack ${kindName(c)}`);
}
