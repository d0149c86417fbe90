// Locates the real Terraform providers that scripts/build-peers.sh built from test/peers/pins.json.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PeerPin {
  module?: string;
  version?: string;
  source?: string;
  protocol: 5 | 6;
}

export const pins: Record<string, PeerPin> = (
  JSON.parse(readFileSync(join(repoRoot, "test/peers/pins.json"), "utf8")) as { providers: Record<string, PeerPin> }
).providers;

export function peerCacheDir(): string {
  return process.env["TF_BRIDGE_PEER_CACHE"] ?? join(homedir(), ".cache/pulumi-tf-bridge-ts/peers");
}

/** Absolute path of a built peer binary; fails with the command to run when it is missing. */
export function peerPath(name: string): string {
  if (!(name in pins)) throw new Error(`no pinned peer named ${name} in test/peers/pins.json`);
  const p = join(peerCacheDir(), name, "current", `terraform-provider-${name}`);
  if (!existsSync(p)) throw new Error(`peer ${name} is not built at ${p}; run \`npm run peers\``);
  return p;
}
