// Unpacking provider .zip archives with yauzl into a directory: every entry is checked before anything is written
// (no escaping paths, links, duplicates, over-long names, or more entries or bytes than the limits), and every file's
// CRC-32 is verified as it is written, as Go's zip reader (Terraform's) does and yauzl does not.
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { crc32 } from "node:zlib";
import yauzl from "yauzl";

export class UnsafeArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeArchiveError";
  }
}

/** The archive would unpack to more than the limit; `limit` is that limit in bytes. */
export class ArchiveTooLargeError extends UnsafeArchiveError {
  constructor(readonly limit: number) {
    super(`the archive unpacks to more than ${limit} bytes`);
    this.name = "ArchiveTooLargeError";
  }
}

/** The archive holds more entries than the limit. */
export class TooManyEntriesError extends UnsafeArchiveError {
  constructor(
    readonly entries: number,
    readonly limit: number,
  ) {
    super(`the archive holds ${entries} entries, more than the limit of ${limit}`);
    this.name = "TooManyEntriesError";
  }
}

/** An entry's data does not match the CRC-32 its headers record: the archive was damaged. */
export class CorruptArchiveError extends UnsafeArchiveError {
  constructor(
    readonly entry: string,
    message: string,
  ) {
    super(message);
    this.name = "CorruptArchiveError";
  }
}

export interface ExtractOptions {
  /** Refuse archives that unpack to more than this many bytes (a zip bomb guard). Default 4 GiB. */
  maxBytes?: number;
  /** Refuse archives with more entries than this (an inode exhaustion guard). Default 10,000. */
  maxEntries?: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

/** Linux and macOS refuse a path component longer than this many bytes (NAME_MAX) and a path longer than PATH_MAX. */
const NAME_MAX = 255;
const PATH_MAX = 4095;

/** macOS and Windows file systems ignore case by default ("A" and "a" are one file there), and macOS's also Unicode normalization. */
const CASE_INSENSITIVE = process.platform === "darwin" || process.platform === "win32";

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((res, rej) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) =>
      err ? rej(err) : res(zip),
    ),
  );
}

/** yauzl's own file-name checks fire before we see the entry; these are their messages. */
const YAUZL_UNSAFE = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/;

/** Every entry of the central directory, in order; yauzl's refusals of unsafe names become UnsafeArchiveError. */
function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((done, fail) => {
    const entries: yauzl.Entry[] = [];
    zip.on("error", (e: unknown) => {
      const m = e instanceof Error ? YAUZL_UNSAFE.exec(e.message) : null;
      fail(m ? new UnsafeArchiveError(`entry "${m[2]}" would be written outside the target directory (${m[1]})`) : e);
    });
    zip.on("end", () => done(entries));
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.readEntry();
  });
}

interface Planned {
  entry: yauzl.Entry;
  /** Absolute path to write. */
  target: string;
  /** Path below the destination, with "/" separators. */
  rel: string;
  dir: boolean;
  mode: number;
}

/**
 * Checks every entry before anything is written: where it would land, what kind of file it is, that no two entries
 * are the same path or a file and a directory of one name, that names fit the file system, and the size total.
 */
function plan(entries: readonly yauzl.Entry[], root: string, maxBytes: number): Planned[] {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const key = (rel: string): string => (CASE_INSENSITIVE ? rel.normalize("NFC").toLowerCase() : rel);
  let total = 0;
  const out: Planned[] = [];
  for (const entry of entries) {
    const name = entry.fileName;
    const target = resolve(root, name);
    const rel = relative(root, target);
    if (isAbsolute(name) || name.split(/[\\/]/).includes("..") || rel.startsWith("..") || isAbsolute(rel)) {
      throw new UnsafeArchiveError(`entry "${name}" would be written outside the target directory`);
    }
    const madeByUnix = entry.versionMadeBy >> 8 === 3;
    const mode = madeByUnix ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
    if ((mode & S_IFMT) === S_IFLNK) throw new UnsafeArchiveError(`entry "${name}" is a symbolic link, which provider packages must not contain`);
    const dir = name.endsWith("/") || (mode & S_IFMT) === S_IFDIR;
    if (rel === "") {
      if (dir) continue;
      throw new UnsafeArchiveError(`entry "${name}" has no file name`);
    }
    if (!dir && !target.startsWith(root + sep)) throw new UnsafeArchiveError(`entry "${name}" would be written outside the target directory`);
    const parts = rel.split(sep);
    const long = parts.find((p) => Buffer.byteLength(p) > NAME_MAX);
    if (long !== undefined) {
      throw new UnsafeArchiveError(`entry "${name}" has a name too long for the file system: "${long.slice(0, 40)}…" is ${Buffer.byteLength(long)} bytes, the most is ${NAME_MAX}`);
    }
    if (Buffer.byteLength(target) > PATH_MAX) {
      throw new UnsafeArchiveError(`entry "${name}" has a path too long for the file system: unpacked it would be ${Buffer.byteLength(target)} bytes, the most is ${PATH_MAX}`);
    }
    const k = key(parts.join("/"));
    const parents = parts.slice(0, -1).map((_, i) => key(parts.slice(0, i + 1).join("/")));
    const fileParent = parents.find((p) => files.has(p));
    if (fileParent !== undefined) throw new UnsafeArchiveError(`entry "${name}" is inside "${fileParent}", which the archive also holds as a file`);
    if (files.has(k)) {
      throw new UnsafeArchiveError(
        dir ? `entry "${name}" is a directory, but the archive also holds a file of that name` : `entry "${name}" appears twice in the archive (a duplicate entry)`,
      );
    }
    if (!dir && dirs.has(k)) throw new UnsafeArchiveError(`entry "${name}" is a file, but the archive also holds a directory of that name`);
    for (const p of parents) dirs.add(p);
    if (dir) {
      dirs.add(k);
    } else {
      files.add(k);
      total += entry.uncompressedSize;
      if (total > maxBytes) throw new ArchiveTooLargeError(maxBytes);
    }
    out.push({ entry, target, rel: parts.join("/"), dir, mode });
  }
  return out;
}

/** Passes data on while counting it against the header's size and computing its CRC-32, checked at the end. */
function checker(entry: yauzl.Entry): Transform {
  const name = entry.fileName;
  let seen = 0;
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > entry.uncompressedSize) return cb(new UnsafeArchiveError(`entry "${name}" is larger than its header says`));
      crc = crc32(chunk, crc);
      cb(null, chunk);
    },
    flush(cb) {
      if (crc >>> 0 === entry.crc32 >>> 0) return cb();
      const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, "0");
      cb(new CorruptArchiveError(name, `entry "${name}" does not match its checksum (its data has CRC-32 ${hex(crc)}, the archive records ${hex(entry.crc32)})`));
    },
  });
}

/**
 * Extracts every entry of `archive` into `dest` (which must exist). Nothing is written unless every entry passes
 * plan()'s checks; a file whose data fails its CRC-32 fails the extraction (the caller removes `dest`).
 * File modes come from the archive's Unix attributes (0644 when it has none).
 */
export async function extractZip(archive: string, dest: string, options: ExtractOptions = {}): Promise<string[]> {
  const maxBytes = options.maxBytes ?? 4 * 1024 ** 3;
  const maxEntries = options.maxEntries ?? 10_000;
  const root = resolve(dest);
  const zip = await openZip(archive);
  try {
    // The count comes from the end of the archive, so a million-entry archive is refused before its entries are read.
    if (zip.entryCount > maxEntries) throw new TooManyEntriesError(zip.entryCount, maxEntries);
    const planned = plan(await readEntries(zip), root, maxBytes);
    const written: string[] = [];
    for (const p of planned) {
      if (p.dir) {
        await mkdir(p.target, { recursive: true });
        continue;
      }
      await mkdir(dirname(p.target), { recursive: true });
      const stream = await new Promise<NodeJS.ReadableStream>((res, rej) => zip.openReadStream(p.entry, (err, s) => (err ? rej(err) : res(s))));
      await pipeline(stream, checker(p.entry), createWriteStream(p.target, { flags: "wx", mode: p.mode & 0o777 || 0o644 }));
      written.push(p.rel);
    }
    return written;
  } finally {
    zip.close();
  }
}
