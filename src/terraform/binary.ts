// Says why a file cannot run on this machine: from its first bytes, a program for another system or processor, one
// that needs a loader or interpreter this machine lacks, an archive, or no program at all; from its path, one that
// cannot be reached (a symbolic link loop, a directory this user may not search, a file on the way).
import { closeSync, existsSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, resolve, sep } from "node:path";

/** Enough for every header read here: ELF program headers and PT_INTERP, the PE header, a fat Mach-O's table. */
const HEAD_BYTES = 8 * 1024;

const ELF_MACHINES: Record<number, string> = { 3: "386", 20: "ppc", 21: "ppc64", 22: "s390x", 40: "arm", 62: "amd64", 183: "arm64", 243: "riscv64", 258: "loong64" };
const ELF_OS: Record<number, string> = { 2: "netbsd", 6: "solaris", 9: "freebsd", 12: "openbsd" };
const MACHO_CPUS: Record<number, string> = { 7: "386", 0x01000007: "amd64", 12: "arm", 0x0100000c: "arm64", 18: "ppc", 0x01000012: "ppc64" };
const PE_MACHINES: Record<number, string> = { 0x14c: "386", 0x8664: "amd64", 0x1c0: "arm", 0x1c4: "arm", 0xaa64: "arm64" };

// Go's GOOS/GOARCH names for Node's, as src/acquire/platform.ts has them; that layer sits above this one.
const HOST_OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows", freebsd: "freebsd", openbsd: "openbsd", netbsd: "netbsd", sunos: "solaris" };
const HOST_ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm", ppc64: "ppc64le", s390x: "s390x", riscv64: "riscv64" };

export interface ExecutableKind {
  /** `linux/arm64`, `darwin/amd64+arm64`, ...; absent when the file is no program we recognise. */
  platform?: string;
  /** The program loader (ELF PT_INTERP) or script interpreter (`#!`) the file asks for. */
  interpreter?: string;
  /** What the file is, when it is not a program: "a zip archive", "text", ... */
  what?: string;
}

function readHead(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function elf(head: Buffer): ExecutableKind {
  const is64 = head[4] === 2;
  const le = head[5] !== 2;
  const u16 = (o: number): number => (le ? head.readUInt16LE(o) : head.readUInt16BE(o));
  const u32 = (o: number): number => (le ? head.readUInt32LE(o) : head.readUInt32BE(o));
  const word = (o: number): number => (is64 ? Number(le ? head.readBigUInt64LE(o) : head.readBigUInt64BE(o)) : u32(o));
  if (head.length < (is64 ? 64 : 52)) return { what: "a truncated ELF file" };
  const machine = u16(18);
  let arch = ELF_MACHINES[machine] ?? `ELF machine ${machine}`;
  if (arch === "ppc64" && le) arch = "ppc64le";
  if (machine === 8) arch = `mips${is64 ? "64" : ""}${le ? "le" : ""}`;
  const platform = `${ELF_OS[head[7]!] ?? "linux"}/${arch}`;
  // PT_INTERP names the dynamic loader; a static Go binary has none.
  const phoff = word(is64 ? 32 : 28);
  const phentsize = u16(is64 ? 54 : 42);
  const phnum = u16(is64 ? 56 : 44);
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + phentsize > head.length) break;
    if (u32(at) !== 3) continue;
    const offset = word(at + (is64 ? 8 : 4));
    const size = word(at + (is64 ? 32 : 16));
    if (offset + size > head.length) break;
    return { platform, interpreter: head.subarray(offset, offset + size).toString("latin1").replace(/\0.*$/s, "") };
  }
  return { platform };
}

function machO(head: Buffer): ExecutableKind | undefined {
  const magic = head.readUInt32BE(0);
  if (magic === 0xcafebabe) {
    // A universal binary: a table of the architectures it holds.
    const count = head.readUInt32BE(4);
    if (count === 0 || count > 16) return undefined;
    const archs = [];
    for (let i = 0; i < count && 8 + 20 * i + 4 <= head.length; i++) archs.push(MACHO_CPUS[head.readUInt32BE(8 + 20 * i)] ?? "unknown");
    return { platform: `darwin/${archs.join("+")}` };
  }
  const le = magic === 0xcefaedfe || magic === 0xcffaedfe;
  if (!le && magic !== 0xfeedface && magic !== 0xfeedfacf) return undefined;
  const cpu = le ? head.readUInt32LE(4) : head.readUInt32BE(4);
  return { platform: `darwin/${MACHO_CPUS[cpu] ?? `Mach-O CPU ${cpu}`}` };
}

function pe(head: Buffer): ExecutableKind {
  const at = head.length >= 0x40 ? head.readUInt32LE(0x3c) : -1;
  if (at < 0 || at + 6 > head.length || head.toString("latin1", at, at + 4) !== "PE\0\0") return { platform: "windows" };
  const machine = head.readUInt16LE(at + 4);
  return { platform: `windows/${PE_MACHINES[machine] ?? `PE machine 0x${machine.toString(16)}`}` };
}

/** What the file at `path` is, from its first bytes; undefined when it cannot be read. */
export function executableKind(path: string): ExecutableKind | undefined {
  const head = readHead(path);
  if (head === undefined) return undefined;
  if (head.length >= 4 && head.toString("latin1", 0, 4) === "\x7fELF") return elf(head);
  if (head.length >= 8) {
    const mach = machO(head);
    if (mach !== undefined) return mach;
  }
  if (head.length >= 2 && head.toString("latin1", 0, 2) === "MZ") return pe(head);
  if (head.length >= 2 && head.toString("latin1", 0, 2) === "#!") {
    const line = head.toString("utf8", 2, Math.max(2, head.indexOf(0x0a) < 0 ? head.length : head.indexOf(0x0a))).trim();
    return { interpreter: line.split(/\s+/)[0] ?? "", what: "a script" };
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return { what: "a zip archive" };
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { what: "a gzip archive" };
  if (head.length === 0) return { what: "an empty file" };
  const text = head.subarray(0, 512).every((b) => b === 9 || b === 10 || b === 13 || (b >= 0x20 && b < 0x7f) || b >= 0x80);
  return text ? { what: "a text file without a #! line" } : {};
}

/**
 * Why the file at `path` cannot run here, as a sentence naming what it is built for and what to get instead; undefined
 * when it looks like a program for this machine whose loader exists (the failure is then elsewhere).
 */
export function whyNotRunnable(path: string): string | undefined {
  const kind = executableKind(path);
  if (kind === undefined) return undefined;
  const here = { os: HOST_OS[process.platform] ?? process.platform, arch: HOST_ARCH[process.arch] ?? process.arch };
  const herePlatform = `${here.os}/${here.arch}`;
  const getBuild = `get the build of the provider for ${herePlatform} (the ${here.os}_${here.arch} zip of its release)`;
  if (kind.platform !== undefined) {
    if (kind.platform !== herePlatform) return `${path} is built for ${kind.platform}; this machine is ${herePlatform}: ${getBuild}`;
    if (kind.interpreter !== undefined && !existsSync(kind.interpreter)) {
      return `${path} is built for ${herePlatform} but needs the program loader ${kind.interpreter}, which this machine does not have (a build for another C library or distribution): ${getBuild}, or a statically linked one`;
    }
    return undefined;
  }
  if (kind.what === "a script") {
    if (kind.interpreter !== undefined && kind.interpreter !== "" && !existsSync(kind.interpreter)) {
      return `${path} is a script for ${kind.interpreter}, which is not installed on this machine`;
    }
    return undefined;
  }
  if (kind.what === "a zip archive" || kind.what === "a gzip archive") {
    return `${path} is ${kind.what}, not a program: unpack it and point at the terraform-provider-* executable inside`;
  }
  if (kind.what !== undefined) {
    return `${path} is ${kind.what}, not a program: point at the provider's executable built for ${herePlatform}, or give a script a #! line`;
  }
  return `${path} is no program this machine can run (it has no ELF header); ${getBuild}`;
}

/** What stat of a provider's path found: the file, nothing there, or a reason it cannot be reached. */
export type PathLookup = { found: Stats } | { missing: true } | { unreachable: string };

/**
 * Looks at `path` (absolute) as a provider executable's path. Only ENOENT is "not there": a symbolic link loop
 * (ELOOP), a directory on the way this user may not search (EACCES) and a file on the way (ENOTDIR) each get a
 * sentence saying so and what to do, instead of a "not found" that sends the user looking for a file that is there.
 */
export function lookUpPath(path: string): PathLookup {
  try {
    return { found: statSync(path) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    switch (err.code) {
      case "ENOENT":
        return { missing: true };
      case "ELOOP": {
        const chain = linkChain(path);
        const loop = chain === undefined ? "" : ` (${chain.join(" → ")})`;
        return { unreachable: `${path} is a symbolic link loop${loop}: following its links never reaches a file (ELOOP). Point the link at the provider executable, or give the executable's own path` };
      }
      case "EACCES": {
        const dir = deniedDirectory(path);
        const who = `this user (uid ${process.getuid?.() ?? "?"})`;
        return {
          unreachable:
            dir === undefined
              ? `${path} cannot be reached: ${who} is denied access to it (EACCES). Give it access to the directories on the way, or put the provider where it can read it`
              : `${path} cannot be reached: ${who} may not enter the directory ${dir} (EACCES: it lacks search (x) permission for this user). Run \`chmod a+x ${dir}\`, or put the provider where this user can read it`,
        };
      }
      case "ENOTDIR": {
        const file = fileOnTheWay(path);
        return { unreachable: `${path} cannot be reached: ${file ?? "a part of it"} is a file, not a directory (ENOTDIR). Fix the path` };
      }
      default:
        return { unreachable: `${path} cannot be read (${err.code ?? "error"}: ${err.message})` };
    }
  }
}

/** The symbolic links from `path` until one repeats, e.g. [a, b, a]; undefined when the loop is in a directory above it. */
function linkChain(path: string): string[] | undefined {
  const chain = [path];
  for (let at = path, hops = 0; hops < 40; hops++) {
    try {
      if (!lstatSync(at).isSymbolicLink()) return undefined;
      at = resolve(dirname(at), readlinkSync(at));
    } catch {
      return undefined;
    }
    const seen = chain.includes(at);
    chain.push(at);
    if (seen) return chain;
  }
  return undefined;
}

/** The directories above `path`, outermost first. */
function ancestors(path: string): string[] {
  const parts = path.split(sep).filter((p) => p !== "");
  return parts.slice(0, -1).map((_, i) => sep + parts.slice(0, i + 1).join(sep));
}

/** The first directory above `path` whose entries this user may not look up: the one before the first denied stat. */
function deniedDirectory(path: string): string | undefined {
  for (const p of [...ancestors(path), path]) {
    try {
      statSync(p);
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EACCES" ? dirname(p) : undefined;
    }
  }
  return undefined;
}

/** The first path above `path` that is a file, not a directory. */
function fileOnTheWay(path: string): string | undefined {
  for (const p of ancestors(path)) {
    try {
      if (!statSync(p).isDirectory()) return p;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Why `path` (mode `mode`) may not be executed by this user, for when access(X_OK) refused it: no execute permission,
 * or, when its mode allows it, a file system mounted noexec (a container's /tmp or a volume often is), which no chmod
 * changes.
 */
export function whyNotExecutable(path: string, mode: number): string {
  if ((mode & 0o111) === 0) return `${path} is not executable; run \`chmod +x ${path}\``;
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // Looked at as given.
  }
  const mount = mountOf(real);
  if (mount?.options.includes("noexec")) {
    return `${path} cannot be executed: the file system at ${mount.point} is mounted noexec, so no chmod helps. Put the provider on another file system, or remount it with exec`;
  }
  return `${path} cannot be executed by this user (uid ${process.getuid?.() ?? "?"}) although its mode is ${(mode & 0o777).toString(8)}: check its owner and group, or a noexec mount`;
}

/** The mount point holding `path` and its options, from /proc/self/mounts (Linux); undefined elsewhere. */
function mountOf(path: string): { point: string; options: string[] } | undefined {
  let table: string;
  try {
    table = readFileSync("/proc/self/mounts", "utf8");
  } catch {
    return undefined;
  }
  let best: { point: string; options: string[] } | undefined;
  for (const line of table.split("\n")) {
    const fields = line.split(" ");
    if (fields.length < 4) continue;
    // Spaces and other characters in mount points are written as octal escapes (\040).
    const point = fields[1]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const inside = point === "/" || path === point || path.startsWith(point + sep);
    // The last matching line wins for the same point: a later mount hides an earlier one.
    if (inside && (best === undefined || point.length >= best.point.length)) best = { point, options: fields[3]!.split(",") };
  }
  return best;
}
