// google.protobuf.Struct written straight from the plain shape src/wire/proto.ts decodes it into, byte for byte as protobufjs writes it.
//
// protobufjs turns a Struct into message objects (fromObject) and then into a list of write operations, one or more per
// value, before it makes the bytes; for a Docker container's state that was 11% of the plugin's CPU over `pulumi up`,
// most of it the engine's replies (Create, Check, Read, Update carry one or two Structs each). Here one pass measures
// every nested message and string, and a second writes them into one buffer.

/** A Value in the plain shape: the oneof member that is set (others absent or null); `kind`, which names it, is not read. */
interface ValueShape {
  nullValue?: unknown;
  numberValue?: unknown;
  stringValue?: unknown;
  boolValue?: unknown;
  structValue?: StructShape | null;
  listValue?: { values?: readonly ValueShape[] | null } | null;
}
interface StructShape {
  fields?: Readonly<Record<string, ValueShape>> | null;
}

// Tags: field number << 3 | wire type (0 varint, 1 fixed64, 2 length-delimited).
const TAG_FIELD1_BYTES = 0x0a; // Struct.fields entry, ListValue.values element, map entry key
const TAG_ENTRY_VALUE = 0x12;
const TAG_NULL = 0x08;
const TAG_NUMBER = 0x11;
const TAG_STRING = 0x1a;
const TAG_BOOL = 0x20;
const TAG_STRUCT = 0x2a;
const TAG_LIST = 0x32;

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** NullValue is an enum with one member, NULL_VALUE = 0: protobufjs's fromObject takes its name or a number, and drops anything else. */
function hasNull(v: unknown): boolean {
  return v === "NULL_VALUE" || (typeof v === "number" && v >= 0);
}

function nullNumber(v: unknown): number {
  return typeof v === "number" ? v >>> 0 : 0;
}

/**
 * A oneof member of `v` if set: an own property, not null. Own, because a protobufjs message object inherits every
 * member's default (0, "", false) from its prototype; protobufjs writes only the own ones too.
 */
function member<K extends keyof ValueShape>(v: ValueShape, key: K): NonNullable<ValueShape[K]> | undefined {
  const x = Object.hasOwn(v, key) ? v[key] : undefined;
  return x === null ? undefined : (x as NonNullable<ValueShape[K]> | undefined);
}

/** Several members set: an invalid Value, written as protobufjs writes it (every member, in field order). */
const SEVERAL = "*";

/**
 * The one oneof member set in `v` ("" for none, SEVERAL for more), found by walking its keys: the six shapes of Value
 * would make a read of each member by name a megamorphic lookup, the largest cost of writing a Struct.
 */
function memberKey(v: ValueShape): string {
  let found = "";
  for (const key in v) {
    if (key === "kind" || !Object.hasOwn(v, key) || (v as Record<string, unknown>)[key] == null) continue;
    if (found !== "") return SEVERAL;
    found = key;
  }
  return found;
}

function wrongShape(where: string): TypeError {
  return new TypeError(`${where}: object expected`);
}

/**
 * Measures, recording in `sizes` (in the order the writer will want them) the byte length of every nested message and
 * every string; returns the encoded size of the Struct's fields.
 */
class Measure {
  readonly sizes: number[] = [];

  struct(s: StructShape): number {
    const fields = s.fields;
    if (fields == null) return 0;
    if (typeof fields !== "object") throw wrongShape(".google.protobuf.Struct.fields");
    let total = 0;
    for (const key in fields) {
      // Typed as the wire layer's callers build it; checked as protobufjs's fromObject checks it.
      const value: unknown = fields[key];
      if (typeof value !== "object" || value === null) throw wrongShape(".google.protobuf.Struct.fields");
      const entrySlot = this.sizes.length;
      this.sizes.push(0);
      const keyBytes = Buffer.byteLength(key, "utf8");
      this.sizes.push(keyBytes);
      const valueSlot = this.sizes.length;
      this.sizes.push(0);
      const valueBytes = this.value(value as ValueShape);
      this.sizes[valueSlot] = valueBytes;
      const entry = 1 + varintSize(keyBytes) + keyBytes + 1 + varintSize(valueBytes) + valueBytes;
      this.sizes[entrySlot] = entry;
      total += 1 + varintSize(entry) + entry;
    }
    return total;
  }

  value(v: ValueShape): number {
    const key = memberKey(v);
    switch (key) {
      case "":
        return 0;
      case "nullValue":
        return hasNull(v.nullValue) ? 1 + varintSize(nullNumber(v.nullValue)) : 0;
      case "numberValue":
        return 9;
      case "stringValue":
        return this.string(v.stringValue);
      case "boolValue":
        return 2;
      case "structValue":
        return this.structValue(v.structValue);
      case "listValue":
        return this.listValue(v.listValue);
      case SEVERAL:
        return this.several(v);
      default:
        return 0;
    }
  }

  private several(v: ValueShape): number {
    let total = 0;
    if (hasNull(member(v, "nullValue"))) total += 1 + varintSize(nullNumber(v.nullValue));
    if (member(v, "numberValue") !== undefined) total += 9;
    if (member(v, "stringValue") !== undefined) total += this.string(v.stringValue);
    if (member(v, "boolValue") !== undefined) total += 2;
    if (member(v, "structValue") !== undefined) total += this.structValue(v.structValue);
    if (member(v, "listValue") !== undefined) total += this.listValue(v.listValue);
    return total;
  }

  private string(text: unknown): number {
    const n = Buffer.byteLength(String(text), "utf8");
    this.sizes.push(n);
    return 1 + varintSize(n) + n;
  }

  private structValue(struct: unknown): number {
    if (typeof struct !== "object" || struct === null) throw wrongShape(".google.protobuf.Value.structValue");
    const slot = this.sizes.length;
    this.sizes.push(0);
    const n = this.struct(struct);
    this.sizes[slot] = n;
    return 1 + varintSize(n) + n;
  }

  private listValue(list: unknown): number {
    if (typeof list !== "object" || list === null) throw wrongShape(".google.protobuf.Value.listValue");
    const slot = this.sizes.length;
    this.sizes.push(0);
    const n = this.list((list as { values?: readonly ValueShape[] | null }).values);
    this.sizes[slot] = n;
    return 1 + varintSize(n) + n;
  }

  private list(values: readonly ValueShape[] | null | undefined): number {
    if (values == null) return 0;
    if (!Array.isArray(values)) throw new TypeError(".google.protobuf.ListValue.values: array expected");
    let total = 0;
    for (const element of values) {
      if (typeof element !== "object" || element === null) throw wrongShape(".google.protobuf.ListValue.values");
      const slot = this.sizes.length;
      this.sizes.push(0);
      const n = this.value(element);
      this.sizes[slot] = n;
      total += 1 + varintSize(n) + n;
    }
    return total;
  }
}

/** Writes what Measure measured, taking the recorded sizes in the same order. */
class Write {
  private pos = 0;
  private next = 0;

  constructor(
    private readonly buf: Buffer,
    private readonly sizes: readonly number[],
  ) {}

  get written(): number {
    return this.pos;
  }

  varint(n: number): void {
    const buf = this.buf;
    while (n > 0x7f) {
      buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    buf[this.pos++] = n;
  }

  private string(text: string, bytes: number): void {
    this.varint(bytes);
    // A short ASCII string (as long in bytes as in characters) is copied here; a call into Buffer.write costs more.
    if (bytes === text.length && bytes <= 64) {
      const buf = this.buf;
      let pos = this.pos;
      for (let i = 0; i < bytes; i++) buf[pos++] = text.charCodeAt(i);
      this.pos = pos;
      return;
    }
    this.pos += this.buf.write(text, this.pos, bytes, "utf8");
  }

  struct(s: StructShape): void {
    const fields = s.fields;
    if (fields == null) return;
    for (const key in fields) {
      this.buf[this.pos++] = TAG_FIELD1_BYTES;
      this.varint(this.sizes[this.next++]!);
      this.buf[this.pos++] = TAG_FIELD1_BYTES;
      this.string(key, this.sizes[this.next++]!);
      this.buf[this.pos++] = TAG_ENTRY_VALUE;
      this.varint(this.sizes[this.next++]!);
      this.value(fields[key]!);
    }
  }

  private value(v: ValueShape): void {
    const key = memberKey(v);
    switch (key) {
      case "nullValue":
        return this.nullValue(v.nullValue);
      case "numberValue":
        return this.numberValue(v.numberValue);
      case "stringValue":
        return this.stringValue(v.stringValue);
      case "boolValue":
        return this.boolValue(v.boolValue);
      case "structValue":
        return this.structValue(v.structValue!);
      case "listValue":
        return this.listValue(v.listValue!);
      case SEVERAL:
        if (member(v, "nullValue") !== undefined) this.nullValue(v.nullValue);
        if (member(v, "numberValue") !== undefined) this.numberValue(v.numberValue);
        if (member(v, "stringValue") !== undefined) this.stringValue(v.stringValue);
        if (member(v, "boolValue") !== undefined) this.boolValue(v.boolValue);
        if (member(v, "structValue") !== undefined) this.structValue(v.structValue!);
        if (member(v, "listValue") !== undefined) this.listValue(v.listValue!);
    }
  }

  private nullValue(x: unknown): void {
    if (!hasNull(x)) return;
    this.buf[this.pos++] = TAG_NULL;
    this.varint(nullNumber(x));
  }

  private numberValue(x: unknown): void {
    this.buf[this.pos++] = TAG_NUMBER;
    this.buf.writeDoubleLE(Number(x), this.pos);
    this.pos += 8;
  }

  private stringValue(x: unknown): void {
    this.buf[this.pos++] = TAG_STRING;
    this.string(String(x), this.sizes[this.next++]!);
  }

  private boolValue(x: unknown): void {
    this.buf[this.pos++] = TAG_BOOL;
    this.buf[this.pos++] = x ? 1 : 0;
  }

  private structValue(struct: StructShape): void {
    this.buf[this.pos++] = TAG_STRUCT;
    this.varint(this.sizes[this.next++]!);
    this.struct(struct);
  }

  private listValue(list: { values?: readonly ValueShape[] | null }): void {
    this.buf[this.pos++] = TAG_LIST;
    this.varint(this.sizes[this.next++]!);
    for (const element of list.values ?? []) {
      this.buf[this.pos++] = TAG_FIELD1_BYTES;
      this.varint(this.sizes[this.next++]!);
      this.value(element);
    }
  }
}

/**
 * The Struct as a field of its enclosing message: the field's tag, the Struct's length and its bytes. Throws TypeError
 * for a shape protobufjs's fromObject refuses too.
 */
export function encodeStructField(fieldNumber: number, given: unknown): Buffer {
  if (typeof given !== "object" || given === null) throw wrongShape(".google.protobuf.Struct");
  const s = given as StructShape;
  const measure = new Measure();
  const body = measure.struct(s);
  const tag = (fieldNumber << 3) | 2;
  const buf = Buffer.allocUnsafe(varintSize(tag) + varintSize(body) + body);
  const out = new Write(buf, measure.sizes);
  out.varint(tag);
  out.varint(body);
  out.struct(s);
  if (out.written !== buf.length) throw new Error(`google.protobuf.Struct: wrote ${out.written} bytes where ${buf.length} were measured`);
  return buf;
}
