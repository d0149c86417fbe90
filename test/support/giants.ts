// The schema dumps of the largest real providers (/work/shared/schemas, see its README.md), served by the replay peer
// (test/peers/replay) under each provider's own name, for tests and benchmarks at full size.
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerPath, repoRoot } from "./peers.js";

/**
 * Where the dumps live: `shared/schemas` beside the checkout (the workspace's), or TF_BRIDGE_GIANT_SCHEMAS. They are read
 * in place, never copied into the repo.
 */
export const giantsDir = process.env["TF_BRIDGE_GIANT_SCHEMAS"] ?? join(repoRoot, "..", "shared", "schemas");

export interface Giant {
  /** The provider's name, which is the package's. */
  name: string;
  file: string;
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
  const binary = join(dir, `terraform-provider-${g.name}`);
  symlinkSync(peerPath("replay"), binary);
  const env = { ...process.env, REPLAY_SCHEMA: join(giantsDir, g.file), REPLAY_STORE: join(dir, "store") };
  return { binary, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
