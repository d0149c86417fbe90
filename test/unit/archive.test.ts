// Zip extraction (src/acquire/archive.ts) against hostile archives built byte by byte: CRC-32s that do not match the
// data, duplicate entries, a file and a directory of one name, over-long names and too many entries. Each is refused
// with the entry named, and all but the CRC-32 before anything is written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CorruptArchiveError, extractZip, TooManyEntriesError, UnsafeArchiveError } from "../../src/acquire/archive.js";
import { buildZip, withFlippedByte, type ZipEntry } from "../support/registry-zip.js";

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "tfbridge-archive-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const exe: ZipEntry = { name: "terraform-provider-x_v1.0.0", data: Buffer.from(`#!/bin/sh\necho provider ${"x".repeat(200)} done\n`), mode: 0o100755 };
const license: ZipEntry = { name: "LICENSE", data: Buffer.from(`Permission is hereby granted ${"y".repeat(300)}\n`), mode: 0o100644 };

/** Extracts into a fresh directory; the error (or undefined) and what the directory holds afterwards. */
async function extract(entries: ZipEntry[], options: { maxEntries?: number } = {}): Promise<{ error: unknown; left: string[]; dest: string }> {
  const archive = join(tmp(), "p.zip");
  writeFileSync(archive, buildZip(entries));
  const dest = join(tmp(), "pkg");
  mkdirSync(dest);
  const error = await extractZip(archive, dest, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, left: readdirSync(dest, { recursive: true }).map(String).sort(), dest };
}

describe("CRC-32 of every entry", () => {
  for (const [where, entries, bad] of [
    ["a flipped byte in the deflated binary", [withFlippedByte(exe), license], exe.name],
    ["a flipped byte in the stored binary", [withFlippedByte({ ...exe, stored: true }), license], exe.name],
    ["a flipped byte in a deflated second entry", [exe, withFlippedByte(license)], license.name],
    ["a flipped byte in a stored second entry", [exe, withFlippedByte({ ...license, stored: true })], license.name],
  ] as const) {
    it(`${where}: refused as corrupt, naming the entry and both checksums`, async () => {
      const { error } = await extract([...entries]);
      expect(error).toBeInstanceOf(CorruptArchiveError);
      expect((error as CorruptArchiveError).entry).toBe(bad);
      expect((error as Error).message).toMatch(new RegExp(`^entry "${bad.replace(/\./g, "\\.")}" does not match its checksum \\(its data has CRC-32 [0-9a-f]{8}, the archive records [0-9a-f]{8}\\)$`));
    });
  }

  it("intact stored and deflated entries unpack byte for byte", async () => {
    const { error, left, dest } = await extract([exe, { ...license, stored: true }]);
    expect(error).toBeUndefined();
    expect(left).toEqual(["LICENSE", exe.name]);
    expect(readFileSync(join(dest, exe.name))).toEqual(exe.data);
    expect(readFileSync(join(dest, "LICENSE"))).toEqual(license.data);
  });
});

describe("entries that cannot all be written", () => {
  const file = (name: string): ZipEntry => ({ name, data: Buffer.from("x\n"), mode: 0o100644 });
  const dir = (name: string): ZipEntry => ({ name, data: Buffer.alloc(0), mode: 0o040755 });
  const cases: [string, ZipEntry[], RegExp][] = [
    ["the same file twice", [exe, file("LICENSE"), file("LICENSE")], /^entry "LICENSE" appears twice in the archive \(a duplicate entry\)$/],
    ["the binary twice", [exe, exe], /^entry "terraform-provider-x_v1\.0\.0" appears twice in the archive \(a duplicate entry\)$/],
    ["a file, then a directory of the same name", [exe, file("docs"), dir("docs/")], /^entry "docs\/" is a directory, but the archive also holds a file of that name$/],
    ["a directory, then a file of the same name", [exe, dir("docs/"), file("docs")], /^entry "docs" is a file, but the archive also holds a directory of that name$/],
    ["a file, then a file inside it", [exe, file("docs"), file("docs/README.md")], /^entry "docs\/README\.md" is inside "docs", which the archive also holds as a file$/],
    ["a file inside a directory, then a file of the directory's name", [exe, file("docs/README.md"), file("docs")], /^entry "docs" is a file, but the archive also holds a directory of that name$/],
    ["a name of 256 bytes", [exe, file("a".repeat(256))], /^entry "a{256}" has a name too long for the file system: "a{40}…" is 256 bytes, the most is 255$/],
    ["a name of 128 two-byte characters (256 bytes)", [exe, file("é".repeat(128))], /has a name too long for the file system: .* is 256 bytes, the most is 255$/],
    ["a path of 4,100 bytes in short parts", [exe, file(`${"d/".repeat(2050)}f`)], /^entry "(d\/)+f" has a path too long for the file system: unpacked it would be \d+ bytes, the most is 4095$/],
  ];
  for (const [what, entries, message] of cases) {
    it(`${what}: refused naming the entry, before anything is written`, async () => {
      const { error, left } = await extract(entries);
      expect(error).toBeInstanceOf(UnsafeArchiveError);
      expect((error as Error).message).toMatch(message);
      expect(left).toEqual([]);
    });
  }

  it("neighbours that are fine: a directory listed twice, a name of 255 bytes, a directory before its files", async () => {
    const { error, left } = await extract([exe, dir("docs/"), dir("docs/"), file("docs/README.md"), file("b".repeat(255))]);
    expect(error).toBeUndefined();
    expect(left).toEqual(["b".repeat(255), "docs", "docs/README.md", exe.name].sort());
  });
});

describe("the entry count limit", () => {
  const many = (n: number): ZipEntry[] => [exe, ...Array.from({ length: n - 1 }, (_, i) => ({ name: `f${i}`, data: Buffer.alloc(0), stored: true }))];

  it("refuses more entries than the limit before reading any, saying how many and the limit", async () => {
    const { error, left } = await extract(many(51), { maxEntries: 50 });
    expect(error).toBeInstanceOf(TooManyEntriesError);
    expect(error).toMatchObject({ entries: 51, limit: 50 });
    expect(left).toEqual([]);
  });

  it("takes exactly the limit", async () => {
    const { error, left } = await extract(many(50), { maxEntries: 50 });
    expect(error).toBeUndefined();
    expect(left).toHaveLength(50);
  });

  it("defaults to 10,000", async () => {
    const { error } = await extract(many(10_001));
    expect(error).toBeInstanceOf(TooManyEntriesError);
    expect((error as TooManyEntriesError).limit).toBe(10_000);
  });
});
