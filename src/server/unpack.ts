// Unpacks the plugin files the single executable carries into the user's cache, once per build.
//
// A Node single-executable application can only `require` Node's built-in modules from its main script, while the
// plugin needs files on disk: the proto definitions it parses, @cdktf/hcl2json's WebAssembly HCL parser (which reads
// itself from beside its code), and, where the executable has no startup snapshot, the bundle with a place for V8's
// code cache beside it (src/server/boot.ts). So the executable carries the packaged dist/ tree as two SEA assets (a
// manifest and the concatenated bytes) and unpacks it into a directory named by the tree's hash under the user's cache;
// every later start of the same build finds it complete and only uses it. Unpacking goes to a temporary sibling renamed into place, so a process killed half-way
// leaves nothing a later start would trust, and two plugins starting at once both end with the same complete tree.
// Every start touches its tree's marker; a start that unpacks removes the trees of other builds that no start has
// touched for PRUNE_AFTER_MS (a plugin version not run for that long is not running), so upgrades do not pile up.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

interface Manifest {
  /** SHA-256 of every path, mode and content, in order: the unpacked tree's name. */
  hash: string;
  files: { path: string; mode: number; offset: number; size: number }[];
}

const PRUNE_AFTER_MS = 30 * 24 * 3600_000;
const STAGING_PRUNE_AFTER_MS = 24 * 3600_000;
const MARKER = ".complete";

/** Where unpacked builds live: TF_BRIDGE_SEA_DIR, else the user's cache (the plugin cache's parent), else the temp dir. */
function baseDir(): string {
  const explicit = process.env["TF_BRIDGE_SEA_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  const cache = process.env["XDG_CACHE_HOME"] || join(process.env["HOME"] || homedir(), ".cache");
  return join(cache, "pulumi-tf-bridge-ts", "plugin");
}

function unpack(dir: string, manifest: Manifest, payload: Buffer): void {
  const staging = `${dir}.unpacking-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const f of manifest.files) {
    const target = join(staging, f.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, payload.subarray(f.offset, f.offset + f.size), { mode: f.mode });
  }
  // The marker is written last: a tree without it was never finished.
  writeFileSync(join(staging, MARKER), manifest.hash);
  try {
    renameSync(staging, dir);
  } catch (e) {
    // Another start of the same build got there first; its tree is the same.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, MARKER))) throw e;
  }
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // a read-only cache: the tree then looks unused and may be pruned, and is unpacked again when next needed
  }
}

/** Removes the trees of other builds under `base` whose marker no start has touched for PRUNE_AFTER_MS. */
function pruneStale(base: string, keep: string): void {
  try {
    for (const name of readdirSync(base)) {
      if (name === keep) continue;
      // A tree is judged by its marker; a staging directory (of a start killed while unpacking) by its own age.
      const staging = name.includes(".unpacking-");
      const stamp = staging ? join(base, name) : join(base, name, MARKER);
      if (existsSync(stamp) && Date.now() - statSync(stamp).mtimeMs > (staging ? STAGING_PRUNE_AFTER_MS : PRUNE_AFTER_MS)) {
        rmSync(join(base, name), { recursive: true, force: true });
      }
    }
  } catch {
    // pruning is housekeeping; it never stops a start
  }
}

/** The unpacked tree of this build (its dist/ holds the plugin's files), unpacking it first when it is not there yet. */
export function unpackedTree(): string {
  const sea = process.getBuiltinModule("node:sea") as { getAsset(key: string): ArrayBuffer };
  const manifest = JSON.parse(Buffer.from(sea.getAsset("manifest.json")).toString("utf8")) as Manifest;
  for (const base of [baseDir(), join(tmpdir(), "pulumi-tf-bridge-ts-plugin")]) {
    const dir = join(base, manifest.hash);
    if (existsSync(join(dir, MARKER))) {
      touch(join(dir, MARKER));
      return dir;
    }
    try {
      mkdirSync(base, { recursive: true });
      unpack(dir, manifest, Buffer.from(sea.getAsset("payload.bin")));
      pruneStale(base, manifest.hash);
      return dir;
    } catch {
      // An unwritable cache (a read-only home): try the next place.
    }
  }
  throw new Error(`pulumi-resource-terraform-provider: cannot unpack its files into ${baseDir()} or ${tmpdir()}; set TF_BRIDGE_SEA_DIR to a writable directory`);
}
