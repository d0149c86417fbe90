// Runs Windows builds of real providers under Debian's Wine for the tests: finding wine, a prepared Wine prefix
// (cached), and a launcher script that starts a .exe through it.
// The prefix carries one file of ours, a stand-in for a Windows system DLL that Debian's Wine 8.0 lacks: Go's runtime
// (1.22 and later) loads bcryptprimitives.dll at start for ProcessPrng, Windows 10's random number source, and exits
// ("fatal error: bcryptprimitives.dll not found") without it. The stand-in holds no code: its one export forwards
// ProcessPrng to advapi32's SystemFunction036 (RtlGenRandom), which Wine has.
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { toolMissing } from "./tool-missing.js";
import { execAsync, spawnAsync } from "./processes.js";

/** Debian's wine where apt installs it, else the first on PATH, else undefined. */
export function findWine(path: string = process.env["PATH"] ?? ""): string | undefined {
  for (const dir of ["/usr/bin", ...path.split(":").filter((d) => d !== "")]) {
    if (existsSync(join(dir, "wine"))) return join(dir, "wine");
  }
  return undefined;
}

/** What to run to get Wine, printed with every skip. */
export const WINE_INSTALL = "sudo apt-get install wine64 (Debian, Ubuntu), or run bash .ci/run, which installs it";

/**
 * True, with the reason and the command to fix it printed, when Wine is not installed: the Wine tests skip.
 * In CI a missing Wine fails the run instead (.ci/run installs it).
 */
export function wineMissing(env: NodeJS.ProcessEnv = process.env, find: () => string | undefined = () => findWine(env["PATH"])): boolean {
  return toolMissing(find() === undefined ? "Wine is not installed" : undefined, { tests: "the Wine tests", install: WINE_INSTALL }, env);
}

/**
 * A Wine prefix (a Windows system directory tree) made once per Wine version under the cache, reporting Windows 10,
 * with the bcryptprimitives.dll stand-in in system32. Making one takes half a minute (wineboot).
 */
export async function winePrefix(wine: string): Promise<string> {
  const version = (await execAsync(wine, ["--version"])).stdout.trim().replace(/[^\w.-]+/g, "_");
  const cache = process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache");
  const prefix = join(cache, "pulumi-tf-bridge-ts", "wine", version);
  if (existsSync(join(prefix, ".ready"))) return prefix;
  const building = `${prefix}.tmp-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const env = { ...process.env, WINEPREFIX: building, WINEDEBUG: "-all" };
  // wineboot reports the 32-bit half missing (no wine32 here), which 64-bit programs do not need.
  await spawnAsync(wine, ["wineboot", "--init"], { env });
  if (!existsSync(join(building, "drive_c", "windows", "system32"))) throw new Error(`wineboot did not create a Wine prefix in ${building}`);
  await execAsync(wine, ["winecfg", "/v", "win10"], { env });
  writeFileSync(join(building, "drive_c", "windows", "system32", "bcryptprimitives.dll"), forwardingDll("bcryptprimitives.dll", "ProcessPrng", "advapi32.SystemFunction036"));
  // The prefix's wineserver must be gone before the directory moves.
  await spawnAsync(wineserver(wine), ["-w"], { env });
  writeFileSync(join(building, ".ready"), "");
  rmSync(prefix, { recursive: true, force: true });
  renameSync(building, prefix);
  return prefix;
}

/** The wineserver beside a wine (Debian keeps it in /usr/lib/wine). */
export function wineserver(wine: string): string {
  for (const p of ["/usr/lib/wine/wineserver", join(wine, "..", "wineserver")]) if (existsSync(p)) return p;
  return "wineserver";
}

/** A script at `dir/<name>` that runs the Windows executable under Wine, in place of the executable itself. */
export function wineLauncher(wine: string, exe: string, dir: string, name: string): string {
  const path = join(dir, name);
  // exec: the provider's pid is the launcher's, so the launcher's kill and exit checks reach the Windows process.
  writeFileSync(path, `#!/bin/sh\nexec '${wine}' '${exe}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A PE32+ DLL with no code whose one export is a forwarder ("module.Function"): Windows' and Wine's loaders resolve it
 * to the target. Layout: headers in the first 512 bytes, then one section holding the export directory.
 */
export function forwardingDll(dllName: string, exportName: string, target: string): Buffer {
  const sectionRva = 0x1000;
  const fileAlign = 0x200;
  const strings = [dllName, exportName, target].map((s) => Buffer.from(`${s}\0`, "ascii"));
  const functions = sectionRva + 40;
  const names = functions + 4;
  const ordinals = names + 4;
  const dllNameRva = ordinals + 2;
  const exportNameRva = dllNameRva + strings[0]!.length;
  const targetRva = exportNameRva + strings[1]!.length;
  // The export directory: Characteristics, TimeDateStamp and the two version halves stay 0.
  const exports = Buffer.alloc(40);
  exports.writeUInt32LE(dllNameRva, 12);
  exports.writeUInt32LE(1, 16); // ordinal base
  exports.writeUInt32LE(1, 20); // NumberOfFunctions
  exports.writeUInt32LE(1, 24); // NumberOfNames
  exports.writeUInt32LE(functions, 28);
  exports.writeUInt32LE(names, 32);
  exports.writeUInt32LE(ordinals, 36);
  const tables = Buffer.alloc(10);
  tables.writeUInt32LE(targetRva, 0); // an address inside the export directory: a forwarder string, not code
  tables.writeUInt32LE(exportNameRva, 4);
  tables.writeUInt16LE(0, 8);
  const section = Buffer.concat([exports, tables, ...strings]);
  if (section.length > fileAlign) throw new Error("the forwarded names do not fit in one file block");

  const dos = Buffer.alloc(0x40);
  dos.write("MZ", 0, "ascii");
  dos.writeUInt32LE(0x40, 0x3c); // e_lfanew: the PE header follows at once
  const coff = Buffer.alloc(24);
  coff.write("PE\0\0", 0, "ascii");
  coff.writeUInt16LE(0x8664, 4); // AMD64
  coff.writeUInt16LE(1, 6); // one section
  coff.writeUInt16LE(240, 20); // size of the PE32+ optional header
  coff.writeUInt16LE(0x2022, 22); // executable image, large-address aware, DLL
  const opt = Buffer.alloc(240);
  opt.writeUInt16LE(0x20b, 0); // PE32+
  opt.writeUInt32LE(fileAlign, 8); // SizeOfInitializedData
  opt.writeUInt32LE(sectionRva, 20); // BaseOfCode; AddressOfEntryPoint (16) stays 0: no DllMain
  opt.writeBigUInt64LE(0x180000000n, 24); // ImageBase
  opt.writeUInt32LE(0x1000, 32); // SectionAlignment
  opt.writeUInt32LE(fileAlign, 36); // FileAlignment
  opt.writeUInt16LE(6, 40); // MajorOperatingSystemVersion
  opt.writeUInt16LE(6, 48); // MajorSubsystemVersion
  opt.writeUInt32LE(sectionRva * 2, 56); // SizeOfImage: headers page + section page
  opt.writeUInt32LE(fileAlign, 60); // SizeOfHeaders
  opt.writeUInt16LE(3, 68); // Subsystem: console
  opt.writeUInt16LE(0x100, 70); // DllCharacteristics: NX compatible (no relocations, so not dynamic-base)
  opt.writeBigUInt64LE(0x100000n, 72); // stack reserve
  opt.writeBigUInt64LE(0x1000n, 80); // stack commit
  opt.writeBigUInt64LE(0x100000n, 88); // heap reserve
  opt.writeBigUInt64LE(0x1000n, 96); // heap commit
  opt.writeUInt32LE(16, 108); // NumberOfRvaAndSizes
  opt.writeUInt32LE(sectionRva, 112); // data directory 0, exports: address
  opt.writeUInt32LE(section.length, 116); // and size, which must cover the forwarder string
  const header = Buffer.alloc(40);
  header.write(".edata", 0, "ascii");
  header.writeUInt32LE(section.length, 8); // VirtualSize
  header.writeUInt32LE(sectionRva, 12);
  header.writeUInt32LE(fileAlign, 16); // SizeOfRawData
  header.writeUInt32LE(fileAlign, 20); // PointerToRawData
  header.writeUInt32LE(0x40000040, 36); // initialized data, readable
  const headers = Buffer.concat([dos, coff, opt, header]);
  return Buffer.concat([headers, Buffer.alloc(fileAlign - headers.length), section, Buffer.alloc(fileAlign - section.length)]);
}
