// The schema dumps of the largest real providers (/work/shared/schemas, see its README.md), served by the replay peer
// (test/peers/replay) under each provider's own name, for tests and benchmarks at full size.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { peerPath, repoRoot } from "./peers.js";

/**
 * Where the dumps live: `shared/schemas` beside the checkout (the workspace's), or TF_BRIDGE_GIANT_SCHEMAS. They are read
 * in place, never copied into the repo.
 */
export const giantsDir = process.env["TF_BRIDGE_GIANT_SCHEMAS"] ?? join(repoRoot, "..", "shared", "schemas");

export interface Giant {
  /** The provider's name, which is the package's. */
  name: string;
  /** The dump's path, relative to giantsDir or absolute. */
  file: string;
  /** The provider binary's file name, when not `terraform-provider-<name>`. */
  binary?: string;
}

export const giants: Giant[] = [
  { name: "aws", file: "aws-6.19.0.exact-subset.json.gz" },
  { name: "azurerm", file: "azurerm-4.51.0.json.gz" },
  { name: "google", file: "google-7.9.0.json.gz" },
  { name: "kubernetes", file: "kubernetes-2.38.0.json.gz" },
  { name: "cloudflare", file: "cloudflare-5.22.0.json.gz" },
];

export const giantsPresent = giants.every((g) => existsSync(join(giantsDir, g.file)));

/** A served giant: the path to give Parameterize, the environment its plugins must carry, and cleanup. */
export interface ServedGiant {
  binary: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

/**
 * The replay peer linked as `terraform-provider-<name>` (a local provider is named after its file, by us and by the
 * reference alike), with the dump and a fresh object store in the environment the plugins pass to their providers.
 */
export function serveGiant(g: Giant, dir = mkdtempSync(join(tmpdir(), `tfbridge-giant-${g.name}-`))): ServedGiant {
  const binary = join(dir, g.binary ?? `terraform-provider-${g.name}`);
  symlinkSync(peerPath("replay"), binary);
  const env = { ...process.env, REPLAY_SCHEMA: resolve(giantsDir, g.file), REPLAY_STORE: join(dir, "store") };
  return { binary, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The further real schemas (`more/` beside the giants, see its README.md): recent ones gzipped, older ones in a tarball. */
export const moreDir = join(giantsDir, "more");
export const morePresent = existsSync(join(moreDir, "extra-older.tar.gz"));

/**
 * Every dump of `more/`, the tarball's unpacked into `into` (read in place, never copied into the repo), named after
 * its provider: `github-6.13.0.json.gz`, `kranzes-nixpkgs/github-nixpkgs-2024-01-27.json`,
 * `old-2021-badarsebard/hashicorp_google-beta-unknownversion-2021-11.json`.
 */
export function moreSchemas(into: string): Giant[] {
  execFileSync("tar", ["xzf", join(moreDir, "extra-older.tar.gz"), "-C", into]);
  const recent = readdirSync(moreDir).filter((f) => f.endsWith(".json.gz")).map((f) => ({ name: f.replace(/-\d[^-]*\.json\.gz$/, ""), file: join(moreDir, f) }));
  const older = readdirSync(into, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ name: /([a-z0-9-]+?)-(nixpkgs|unknownversion)/.exec(f.split("/").pop()!.replace(/^[a-z0-9-]+_/, ""))![1]!, file: join(into, f) }));
  return [...recent, ...older].sort((a, b) => (a.file < b.file ? -1 : 1));
}
