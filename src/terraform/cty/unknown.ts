// Unknown values on the msgpack wire: go-cty's plain unknown (extension 0) and its refined unknown (extension 12 carrying a small map of refinements).

import { CtyError } from "./errors.js";
import { compareNumbers } from "./number.js";
import { wirePrefix } from "./strings.js";
import { isCollectionType, typeString, type CtyType } from "./type.js";
import { BigNum, numberKey, UNKNOWN, Unknown, type CtyRecord, type CtyValue, type Refinement } from "./value.js";
import { readArrayHeader, readMapHeader, readNumber, readString, Reader, skipValue, writeCtyNumber, Writer } from "./wire.js";

/** Extension type go-cty uses for an unknown with refinements; any other short extension is a plain unknown. */
const EXT_REFINED_UNKNOWN = 0x0c;
/** go-cty rejects refinement payloads larger than this as abusive. */
const MAX_REFINEMENT_BYTES = 1024;

/** The integer keys of go-cty's refinement map. */
const enum Refn {
  Nullness = 1,
  StringPrefix = 2,
  NumberMin = 3,
  NumberMax = 4,
  LengthMin = 5,
  LengthMax = 6,
}

/** Writes an unknown as go-cty does: bare extension 0 unless it has refinements that apply to its type. */
export function encodeUnknown(w: Writer, u: Unknown, t: CtyType): void {
  const r = u.refinement;
  // A wholly unknown value, and any unknown of dynamic type (go-cty cannot refine those): fixext1 type 0.
  if (r === undefined || t.kind === "dynamic") return w.raw(PLAIN_UNKNOWN);
  const body = new Writer(64);
  let count = 0;
  if (r.notNull === true) {
    body.int(Refn.Nullness);
    body.byte(0xc2); // "is null": false
    count++;
  }
  if (r.stringPrefix !== undefined && r.stringPrefix !== "") {
    if (t.kind !== "string") throw new CtyError(`a string prefix refinement does not apply to ${typeString(t)}`);
    const prefix = wirePrefix(r.stringPrefix);
    if (prefix !== "") {
      body.int(Refn.StringPrefix);
      body.str(prefix);
      count++;
    }
  }
  if (r.numberLower !== undefined || r.numberUpper !== undefined) {
    if (t.kind !== "number") throw new CtyError(`number bounds do not apply to ${typeString(t)}`);
    count += encodeBound(body, Refn.NumberMin, r.numberLower, -Infinity);
    count += encodeBound(body, Refn.NumberMax, r.numberUpper, Infinity);
  }
  if (r.lengthLower !== undefined || r.lengthUpper !== undefined) {
    if (!isCollectionType(t)) throw new CtyError(`length bounds do not apply to ${typeString(t)}`);
    for (const [key, len] of [[Refn.LengthMin, r.lengthLower], [Refn.LengthMax, r.lengthUpper]] as const) {
      if (len === undefined || (key === Refn.LengthMin && len === 0)) continue;
      if (!Number.isSafeInteger(len) || len < 0) throw new CtyError("a length bound must be a non-negative integer", `got ${String(len)}`);
      body.int(key);
      body.int(len);
      count++;
    }
  }
  if (count === 0) return w.raw(PLAIN_UNKNOWN);
  const head = new Writer(8);
  head.mapHeader(count);
  w.extHeader(EXT_REFINED_UNKNOWN, head.pos + body.pos);
  w.raw(head.buf.subarray(0, head.pos));
  w.raw(body.buf.subarray(0, body.pos));
}

const PLAIN_UNKNOWN = new Uint8Array([0xd4, 0x00, 0x00]);

function encodeBound(w: Writer, key: Refn, bound: Refinement["numberLower"], unbounded: number): number {
  if (bound === undefined || bound.value === unbounded) return 0;
  const { value, inclusive } = bound;
  if (typeof value !== "number" && !(value instanceof BigNum)) throw new CtyError("a number bound must be a number or BigNum");
  w.int(key);
  w.arrayHeader(2);
  writeCtyNumber(w, value);
  w.byte(inclusive ? 0xc3 : 0xc2);
  return 1;
}

/** Reads an extension value as go-cty does: always an unknown (or what its refinements pin down). */
export function decodeUnknown(r: Reader, t: CtyType): CtyValue {
  const c = r.u8();
  let len: number;
  switch (c) {
    case 0xd4: len = 1; break;
    case 0xd5: len = 2; break;
    case 0xd6: len = 4; break;
    case 0xd7: len = 8; break;
    case 0xd8: len = 16; break;
    case 0xc7: len = r.u8(); break;
    case 0xc8: len = r.u16(); break;
    default: len = r.u32();
  }
  const ext = r.u8();
  const body = r.take(len);
  // go-cty treats any extension of at most one byte as a wholly unknown value.
  if (len <= 1) return UNKNOWN;
  if (ext !== EXT_REFINED_UNKNOWN) {
    throw new CtyError(`malformed msgpack: unsupported extension type 0x${ext.toString(16).padStart(2, "0")} with ${len} bytes`);
  }
  if (len > MAX_REFINEMENT_BYTES) throw new CtyError(`malformed msgpack: unknown value refinements of ${len} bytes exceed ${MAX_REFINEMENT_BYTES}`);
  const br = new Reader(body);
  let entries: number;
  try {
    entries = readMapHeader(br, "refinement map");
  } catch (e) {
    throw refinementError(e);
  }
  if (t.kind === "dynamic") return UNKNOWN; // go-cty ignores refinements on a value of unknown type
  let isNull: boolean | undefined;
  const ref: Refinement = {};
  try {
    for (let i = 0; i < entries; i++) {
      const key = readNumber(br);
      if (typeof key !== "number" || !Number.isInteger(key)) throw new CtyError("refinement keys must be integers");
      switch (key) {
        case Refn.Nullness: {
          const b = br.u8();
          if (b !== 0xc2 && b !== 0xc3) throw new CtyError("the null refinement must be a bool");
          const value = b === 0xc3;
          if (isNull !== undefined && isNull !== value) throw new CtyError("conflicting null refinements");
          isNull = value;
          break;
        }
        case Refn.StringPrefix: {
          if (t.kind !== "string") throw new CtyError(`a string prefix refinement does not apply to ${typeString(t)}`);
          const p = readStringFatal(br);
          if (p !== "") ref.stringPrefix = p.normalize("NFC");
          break;
        }
        case Refn.NumberMin:
        case Refn.NumberMax: {
          if (t.kind !== "number") throw new CtyError(`number bounds do not apply to ${typeString(t)}`);
          if (readArrayHeader(br, "[number, bool] bound") !== 2) throw new CtyError("a number bound must be a [number, bool] array");
          const value = readNumber(br);
          const inc = br.u8();
          if (inc !== 0xc2 && inc !== 0xc3) throw new CtyError("a number bound must be a [number, bool] array");
          // go-cty keeps no bound at all for an infinite one.
          if (key === Refn.NumberMin && value !== -Infinity) ref.numberLower = { value, inclusive: inc === 0xc3 };
          if (key === Refn.NumberMax && value !== Infinity) ref.numberUpper = { value, inclusive: inc === 0xc3 };
          break;
        }
        case Refn.LengthMin:
        case Refn.LengthMax: {
          if (!isCollectionType(t)) throw new CtyError(`length bounds do not apply to ${typeString(t)}`);
          const n = readNumber(br);
          if (typeof n !== "number" || !Number.isInteger(n)) throw new CtyError("a length bound must be an integer");
          if (key === Refn.LengthMin) {
            if (n > 0) ref.lengthLower = n;
          } else ref.lengthUpper = n;
          break;
        }
        default:
          // Unknown keys are for future refinements: skip the value.
          skipValue(br, 0);
      }
    }
  } catch (e) {
    throw refinementError(e);
  }
  if (isNull === true) return null; // an unknown refined to null is just null
  if (isNull === false) ref.notNull = true;
  checkBounds(ref);
  return collapse(ref, t) ?? new Unknown(Object.keys(ref).length === 0 ? undefined : ref);
}

function refinementError(e: unknown): CtyError {
  const reason = e instanceof CtyError ? e.message.replace(/^malformed msgpack: /, "") : String(e);
  return new CtyError(`malformed msgpack: invalid unknown-value refinements: ${reason}`);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A string prefix refinement, which go-cty insists is valid UTF-8. */
function readStringFatal(r: Reader): string {
  const c = r.peek();
  const headerSize = c >= 0xa0 && c <= 0xbf ? 1 : c === 0xd9 || c === 0xc4 ? 2 : c === 0xda || c === 0xc5 ? 3 : 5;
  const headerEnd = r.pos + headerSize;
  const s = readString(r, "string prefix");
  try {
    strictUtf8.decode(r.bytes.subarray(headerEnd, r.pos));
  } catch {
    throw new CtyError("the string prefix is not valid UTF-8");
  }
  return s;
}

/** go-cty refuses bounds that leave no room for a value (and panics on them; we report). */
function checkBounds(ref: Refinement): void {
  const { numberLower: lo, numberUpper: hi } = ref;
  if (lo !== undefined && hi !== undefined) {
    const c = compareNumbers(numberKey(lo.value), numberKey(hi.value));
    if (c > 0 || (c === 0 && lo.inclusive !== hi.inclusive)) throw new CtyError("the number lower bound is above the upper bound");
  }
  if (ref.lengthUpper !== undefined && ref.lengthUpper < (ref.lengthLower ?? 0)) {
    throw new CtyError("the length upper bound is below the lower bound");
  }
}

/** go-cty turns a not-null unknown whose refinements pin it down into the known value. */
function collapse(ref: Refinement, t: CtyType): CtyValue | undefined {
  if (ref.notNull !== true) return undefined;
  const { numberLower: lo, numberUpper: hi } = ref;
  if (lo !== undefined && hi !== undefined && lo.inclusive && hi.inclusive) {
    if (compareNumbers(numberKey(lo.value), numberKey(hi.value)) === 0) return lo.value;
  }
  if (ref.lengthUpper !== undefined && ref.lengthUpper === (ref.lengthLower ?? 0)) {
    const n = ref.lengthUpper;
    if (n === 0) return t.kind === "map" ? (Object.create(null) as CtyRecord) : [];
    if (t.kind === "list") return new Array<CtyValue>(n).fill(UNKNOWN);
    if (t.kind === "set" && n === 1) return [UNKNOWN];
  }
  return undefined;
}
