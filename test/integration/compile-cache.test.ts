// How the packaged plugin avoids compiling itself at every start, on the single executable exactly as `pulumi plugin
// install` lays it out. The linux-amd64 executable starts from a V8 startup snapshot (src/server/snapshot.ts): it unpacks
// its files but compiles no bundle. Executables without a snapshot (the other platforms) run the unpacked dist/boot.cjs
// in the same Node with the same flags, which is run that way here: its first run writes a V8 code cache beside the
// bundle (src/server/boot.ts), later runs use it, and a damaged or foreign cache only costs a plain compile (the plugin
// still serves, and the cache is rewritten).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractPlugin, packagedNode } from "../support/e2e.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";

let dir: string;
/** Where the executable unpacks its files (TF_BRIDGE_SEA_DIR), private to this file. */
let unpackDir: string;

beforeAll(() => {
  dir = extractPlugin();
  unpackDir = join(dir, "unpacked");
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The unpacked dist/ of this build (one directory, named by the build's hash). */
function distDir(): string | undefined {
  if (!existsSync(unpackDir)) return undefined;
  const builds = readdirSync(unpackDir).filter((d) => !d.includes(".unpacking-"));
  return builds.length === 1 ? join(unpackDir, builds[0]!, "dist") : undefined;
}
const dist = (): string => distDir() ?? expect.unreachable("the executable has not unpacked its files");
const caches = (): string[] => {
  const d = distDir();
  return d === undefined ? [] : readdirSync(d).filter((f) => f.endsWith(".v8cache"));
};

/**
 * Starts the installed plugin (the executable, or its unpacked dist/boot.cjs as an executable without a snapshot runs
 * it), has it parameterize the random provider (a real launch), then stops it as the engine does.
 */
async function serveOnce(env: NodeJS.ProcessEnv = process.env, how: "executable" | "boot" = "boot"): Promise<void> {
  const node = packagedNode();
  const command = how === "executable" ? { bin: join(dir, "pulumi-resource-terraform-provider") } : { bin: node.bin, args: [...node.flags, join(dist(), "boot.cjs")] };
  const plugin = await startPluginProcess({ ...command, env: { ...env, TF_BRIDGE_SEA_DIR: unpackDir } });
  try {
    const res = await plugin.call("Parameterize", argsRequest(peerPath("random")));
    expect(res["name"]).toBe("random");
  } finally {
    await plugin.stop();
  }
}

/** Whether V8, in the executable's own Node started with the executable's flags (V8 only accepts a cache made by the same
 * V8 under the same flags), accepts `cache` for the bundle. */
function accepted(cache: string): boolean {
  const script = `
    const fs = require("fs"), vm = require("vm"), Module = require("module");
    const s = new vm.Script(Module.wrap(fs.readFileSync(process.argv[1], "utf8")), { filename: process.argv[1], cachedData: fs.readFileSync(process.argv[2]) });
    process.stdout.write(String(!s.cachedDataRejected));`;
  const node = packagedNode();
  return execFileSync(node.bin, [...node.flags, "-e", script, join(dist(), "plugin.cjs"), join(dist(), cache)], { encoding: "utf8" }) === "true";
}

describe("packaged plugin start-up without compiling", () => {
  it("the bundles are ASCII only, so V8 holds their source at one byte per character", () => {
    for (const bundle of ["plugin.cjs", "snapshot.cjs"]) {
      const bytes = readFileSync(join(repoRoot, "dist", bundle));
      const at = bytes.findIndex((b) => b > 0x7f);
      expect(at === -1 ? "" : `${bundle} at byte ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 10).toString("utf8")}`).toBe("");
    }
  });

  it("the linux-amd64 executable starts from its snapshot: it unpacks its files and serves, but compiles no bundle", async () => {
    expect(distDir()).toBeUndefined();
    await serveOnce(process.env, "executable");
    expect(existsSync(join(dist(), "boot.cjs"))).toBe(true);
    expect(caches()).toEqual([]);
    await serveOnce(process.env, "executable");
    expect(caches()).toEqual([]);
  }, 120_000);

  it("without a snapshot, the code cache is written by the first run and accepted by V8 for the next", async () => {
    expect(caches()).toEqual([]);
    await serveOnce();
    const [cache] = caches();
    expect(cache).toMatch(new RegExp(`^plugin\\.cjs\\.v${packagedNode().version.replace(/\./g, "\\.")}-${process.arch}-\\d+-\\d+\\.v8cache$`));
    expect(accepted(cache!)).toBe(true);
    const before = readFileSync(join(dist(), cache!));
    await serveOnce();
    // An accepted cache is left alone.
    expect(caches()).toEqual([cache]);
    expect(readFileSync(join(dist(), cache!)).equals(before)).toBe(true);
  }, 120_000);

  it("survives a damaged cache: the plugin serves and writes a good one", async () => {
    const [cache] = caches();
    writeFileSync(join(dist(), cache!), "not a V8 code cache");
    await serveOnce();
    expect(caches()).toEqual([cache]);
    expect(readFileSync(join(dist(), cache!), "utf8")).not.toBe("not a V8 code cache");
    expect(accepted(cache!)).toBe(true);
  }, 120_000);

  it("removes the caches of other Node versions when it writes its own", async () => {
    const [cache] = caches();
    const foreign = "plugin.cjs.v18.0.0-x64-1-1.v8cache";
    writeFileSync(join(dist(), foreign), "from another node");
    rmSync(join(dist(), cache!));
    await serveOnce();
    expect(caches()).toEqual([cache]);
  }, 120_000);

  it("is neither read nor written with TF_BRIDGE_COMPILE_CACHE=0 or with source maps on", async () => {
    for (const f of caches()) rmSync(join(dist(), f));
    await serveOnce({ ...process.env, TF_BRIDGE_COMPILE_CACHE: "0" });
    expect(caches()).toEqual([]);
    await serveOnce({ ...process.env, NODE_OPTIONS: "--enable-source-maps" });
    expect(caches()).toEqual([]);
  }, 120_000);
});
