// The packaged plugin's entry point (dist/boot.cjs): runs the bundle (dist/plugin.cjs) with a V8 code cache.
//
// Compiling the 3 MB bundle is about a quarter of the plugin's start-up (bench/startup.bench.ts), and the engine starts
// the plugin for every `pulumi package add`, preview and up. Node 20 has no built-in module compile cache (22 has), so
// this does what it would: compile the bundle as a vm.Script with the cached code of an earlier run, and after a run
// has compiled the functions it uses, store V8's cache for the next. The cache lives beside the bundle (the plugin's own
// install directory) and is named by Node's version and the bundle's size and time; V8 also checks it against its own
// version, flags and the source, and a cache it rejects is only slower: the script compiles as usual and the cache is
// rewritten. Nothing here may stop the plugin: every cache failure falls back to a plain compile.
//
// Opt-outs: TF_BRIDGE_COMPILE_CACHE=0, and source maps (NODE_OPTIONS=--enable-source-maps), which need Node's own
// loader, so with them the bundle is simply required.
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";

/** How long after start the cache is written, if the process has not exited first (most runs are longer). */
const SAVE_AFTER_MS = 5_000;
const CACHE_SUFFIX = ".v8cache";

function cacheFileFor(bundle: string): string {
  const st = statSync(bundle);
  return `${bundle}.${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}${CACHE_SUFFIX}`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the bundle's cache atomically (temp file, rename) and removes its caches for other Node versions. */
function writeCache(bundle: string, file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    const prefix = `${basename(bundle)}.`;
    for (const name of readdirSync(dirname(file))) {
      if (name !== basename(file) && name.startsWith(prefix) && name.endsWith(CACHE_SUFFIX)) rmSync(join(dirname(file), name), { force: true });
    }
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // a read-only install directory: no cache, only slower starts
    }
  }
}

export function boot(bundle: string): void {
  const requireBundle = Module.createRequire(bundle);
  if (process.env["TF_BRIDGE_COMPILE_CACHE"] === "0" || process.sourceMapsEnabled) {
    requireBundle(bundle);
    return;
  }
  let cacheFile: string | undefined;
  let cached: Buffer | undefined;
  try {
    cacheFile = cacheFileFor(bundle);
    cached = readCache(cacheFile);
  } catch {
    cacheFile = undefined;
  }
  const source = readFileSync(bundle, "utf8");
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    cachedData: cached,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cacheFile !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    const file = cacheFile;
    let saved = false;
    const save = (): void => {
      if (saved) return;
      saved = true;
      writeCache(bundle, file, script.createCachedData());
    };
    setTimeout(save, SAVE_AFTER_MS).unref();
    process.once("exit", save);
  }
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  wrapper.call(module.exports, module.exports, requireBundle, module, bundle, dirname(bundle));
}

/** Set by the packaging build of dist/boot.cjs, which runs this file as a CommonJS script beside the bundle. */
declare const __TF_BRIDGE_BOOT__: boolean | undefined;
if (typeof __TF_BRIDGE_BOOT__ === "boolean" && __TF_BRIDGE_BOOT__) boot(join(__dirname, "plugin.cjs"));
