// Writes .zip archives byte by byte (deflate or stored, Unix modes), so tests can build real provider packages and
// also the malformed ones no packaging tool would produce (entries named ../escape, absolute paths, symlinks, wrong
// CRC-32s, duplicate names).
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Unix st_mode, e.g. 0o100755 for an executable, 0o120777 for a symlink (data is then the link target). */
  mode?: number;
  /** Already deflated data (deflateRawSync(data)), to reuse one compression for several archives. */
  deflated?: Buffer;
  /** Store uncompressed. */
  stored?: boolean;
  /** The CRC-32 the headers record instead of the data's own: a damaged archive whose sizes still agree. */
  crc?: number;
}

/** Compresses once; pass the result as `deflated` for every archive that carries the same bytes. */
export function deflate(data: Buffer): Buffer {
  return deflateRawSync(data, { level: 6 });
}

export function buildZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // 2024-01-01 00:00 in DOS format; fixed so archives (and their checksums) are reproducible.
  const dosTime = 0;
  const dosDate = ((2024 - 1980) << 9) | (1 << 5) | 1;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const method = e.stored ? 0 : 8;
    const body = e.stored ? e.data : (e.deflated ?? deflate(e.data));
    const crc = e.crc ?? crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so external attributes carry st_mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE((((e.mode ?? 0o100644) & 0xffff) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * The entry as it reads after one byte of its stored bytes in the archive flipped on the way, headers intact. For a
 * deflated entry, the first byte of the compressed stream whose flip still inflates to the same length (so only the
 * CRC-32 can tell); for a stored one, a byte in the middle of the data.
 */
export function withFlippedByte(e: ZipEntry): ZipEntry {
  if (e.stored) {
    const data = Buffer.from(e.data);
    data[data.length >> 1] = data[data.length >> 1]! ^ 0x01;
    return { ...e, data, crc: crc32(e.data) };
  }
  const body = e.deflated ?? deflate(e.data);
  for (let i = body.length >> 1; i < body.length; i++) {
    const flipped = Buffer.from(body);
    flipped[i] = flipped[i]! ^ 0x01;
    let out: Buffer;
    try {
      out = inflateRawSync(flipped);
    } catch {
      continue;
    }
    if (out.length === e.data.length && !out.equals(e.data)) return { ...e, deflated: flipped };
  }
  throw new Error(`no single flipped byte of ${e.name}'s compressed data inflates to the same length`);
}
