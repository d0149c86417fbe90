// Unpacking provider .zip archives with yauzl into a directory, refusing any entry that would land outside it.
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
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

export interface ExtractOptions {
  /** Refuse archives that unpack to more than this many bytes (a zip bomb guard). Default 4 GiB. */
  maxBytes?: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((res, rej) =>
    yauzl.open(path, { lazyEntries: true, autoClose: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }, (err, zip) =>
      err ? rej(err) : res(zip),
    ),
  );
}

/** yauzl's own file-name checks fire before we see the entry; these are their messages. */
const YAUZL_UNSAFE = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/;

/**
 * Extracts every entry of `archive` into `dest` (which must exist). An entry whose path is absolute, contains
 * `..`, or resolves outside `dest`, and any symbolic link, fails the whole extraction with UnsafeArchiveError.
 * File modes come from the archive's Unix attributes (0644 when it has none).
 */
export async function extractZip(archive: string, dest: string, options: ExtractOptions = {}): Promise<string[]> {
  const maxBytes = options.maxBytes ?? 4 * 1024 ** 3;
  const root = resolve(dest);
  const written: string[] = [];
  let total = 0;
  const zip = await openZip(archive);
  await new Promise<void>((done, fail) => {
    let finished = false;
    const stop = (e: unknown): void => {
      if (finished) return;
      finished = true;
      zip.close();
      const m = e instanceof Error ? YAUZL_UNSAFE.exec(e.message) : null;
      fail(m ? new UnsafeArchiveError(`entry "${m[2]}" would be written outside the target directory (${m[1]})`) : e);
    };
    zip.on("error", stop);
    zip.on("end", () => {
      if (!finished) {
        finished = true;
        done();
      }
    });
    zip.on("entry", (entry: yauzl.Entry) => {
      void (async () => {
        const name = entry.fileName;
        const target = resolve(root, name);
        const rel = relative(root, target);
        if (isAbsolute(name) || name.split(/[\\/]/).includes("..") || rel.startsWith("..") || isAbsolute(rel)) {
          throw new UnsafeArchiveError(`entry "${name}" would be written outside the target directory`);
        }
        const madeByUnix = entry.versionMadeBy >> 8 === 3;
        const mode = madeByUnix ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
        if ((mode & S_IFMT) === S_IFLNK) throw new UnsafeArchiveError(`entry "${name}" is a symbolic link, which provider packages must not contain`);
        if (name.endsWith("/") || (mode & S_IFMT) === S_IFDIR) {
          if (rel !== "") await mkdir(target, { recursive: true });
          zip.readEntry();
          return;
        }
        if (!target.startsWith(root + sep)) throw new UnsafeArchiveError(`entry "${name}" would be written outside the target directory`);
        total += entry.uncompressedSize;
        if (total > maxBytes) throw new ArchiveTooLargeError(maxBytes);
        await mkdir(dirname(target), { recursive: true });
        const stream = await new Promise<NodeJS.ReadableStream>((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s))));
        let seen = 0;
        const guard = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            seen += chunk.length;
            cb(seen > entry.uncompressedSize ? new UnsafeArchiveError(`entry "${name}" is larger than its header says`) : null, chunk);
          },
        });
        const perm = mode & 0o777 || 0o644;
        await pipeline(stream, guard, createWriteStream(target, { flags: "wx", mode: perm }));
        written.push(rel.split(sep).join("/"));
        zip.readEntry();
      })().catch(stop);
    });
    zip.readEntry();
  });
  return written;
}
