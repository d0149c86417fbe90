// Runs acquisitions in child processes: the test CA is trusted through NODE_EXTRA_CA_CERTS, which Node reads only at
// process start, so the code under test gets it exactly as the plugin does when pulumi passes its environment on.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./peers.js";

export interface AcquireResult {
  ok: boolean;
  path?: string;
  version?: string;
  /** The package's lock hashes as installed. */
  hashes?: string[];
  kind?: string;
  message?: string;
  stack?: string;
  statuses: string[];
  warnings: string[];
  /** Notes given at debug level (absent from children of older helpers). */
  debugs?: string[];
  /** How long acquisition took in the child, from the call to its answer. */
  ms: number;
  /** The child's peak resident set size, in KiB (absent from children of older helpers). */
  maxRssKiB?: number;
}

/** A clean HOME and cache for one scenario; nothing of the machine's Terraform or Pulumi setup leaks in. */
export interface Sandbox {
  home: string;
  cache: string;
  env: NodeJS.ProcessEnv;
}

export function sandbox(caFile: string, extra: NodeJS.ProcessEnv = {}): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "tfbridge-acquire-"));
  const home = join(root, "home");
  const cache = join(root, "cache");
  mkdirSync(home);
  return {
    home,
    cache,
    env: { PATH: process.env["PATH"], HOME: home, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache, NODE_EXTRA_CA_CERTS: caFile, ...extra },
  };
}

/**
 * `prefix` runs the child under another command, e.g. ["prlimit", "--fsize=8388608", "--"] for a file size limit;
 * `lockHashes` are the hashes a parameter value pinned.
 */
export function acquireInChild(address: string, constraint: string, env: NodeJS.ProcessEnv, prefix: string[] = [], lockHashes?: string[]): Promise<AcquireResult> {
  return new Promise((resolve, reject) => {
    const args = ["--import", join(repoRoot, "node_modules/tsx/dist/loader.mjs"), join(repoRoot, "test/support/registry-acquire-main.ts"), JSON.stringify(lockHashes === undefined ? [address, constraint] : [address, constraint, lockHashes])];
    const child = spawn(prefix[0] ?? process.execPath, prefix.length > 0 ? [...prefix.slice(1), process.execPath, ...args] : args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const line = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(line) as AcquireResult);
      } catch {
        reject(new Error(`acquire child exited ${code ?? signal} without a result\n--- stdout\n${out}\n--- stderr\n${err}`));
      }
    });
  });
}
