// Finds the Go module sources of the pinned peers (and of the reference bridge) in the module cache, for their docs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pins, repoRoot } from "./peers.js";

let modCache: string | undefined;

/** `go env GOMODCACHE`, as scripts/build-peers.sh filled it. */
export function goModCache(): string {
  if (modCache !== undefined) return modCache;
  const fromEnv = process.env["GOMODCACHE"];
  if (fromEnv) return (modCache = fromEnv);
  try {
    modCache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  } catch {
    modCache = join(process.env["GOPATH"] || join(homedir(), "go"), "pkg", "mod");
  }
  return modCache;
}

/** The module cache spells upper-case letters as `!` and the lower-case letter, so paths work on any file system. */
function escapePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

function moduleDir(module: string, version: string): string {
  const dir = join(goModCache(), `${escapePath(module)}@${escapePath(version)}`);
  if (!existsSync(dir)) throw new Error(`the module source ${module}@${version} is not in the Go module cache (${dir}); run \`npm run peers\``);
  return dir;
}

/** The pinned module source of a real peer (random, tls, time, local, http): the repository at that commit. */
export function peerModuleDir(peer: string): string {
  const pin = pins[peer];
  if (pin?.module === undefined || pin.version === undefined) throw new Error(`peer ${peer} is not a pinned module in test/peers/pins.json`);
  return moduleDir(pin.module, pin.version);
}

/** The reference bridge's module source (its tests keep real doc pages of the older `website/docs` layout). */
export function referenceBridgeModuleDir(): string {
  const gomod = readFileSync(join(repoRoot, "test/peers/reference/go.mod"), "utf8");
  const m = /github\.com\/pulumi\/pulumi-terraform-bridge\/v3 (v\S+)/.exec(gomod);
  if (m === null) throw new Error("test/peers/reference/go.mod does not pin github.com/pulumi/pulumi-terraform-bridge/v3");
  return moduleDir("github.com/pulumi/pulumi-terraform-bridge/v3", m[1]!);
}
