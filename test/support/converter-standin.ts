// The stand-in for Pulumi's Terraform converter (test/peers/pulumi/converter) as the tests that drive it directly get
// it, and a loopback port with no listener for "no route to any registry".
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { repoRoot } from "./peers.js";

export const RECORDINGS = process.env["PULUMI_CONVERTER_RECORDINGS"] ?? join(repoRoot, "..", "shared", "converter-recordings");

/** A loopback port nothing listens on: a proxy there is no route to anywhere. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

/**
 * The stand-in's folder, built (forced: where Pulumi's converter is installed the script would name it, and these
 * tests are of ours), or why it cannot be had (no Go, no recordings).
 */
export function standInConverter(): { dir: string } | { missing: string } {
  if (!existsSync(RECORDINGS)) return { missing: `no converter recordings at ${RECORDINGS} (set PULUMI_CONVERTER_RECORDINGS)` };
  const r = spawnSync("bash", [join(repoRoot, "scripts/build-converter.sh")], { encoding: "utf8", env: { ...process.env, TF_BRIDGE_OWN_CONVERTER: "1" } });
  if (r.status === 3) return { missing: r.stderr.trim() };
  if (r.status !== 0) throw new Error(`scripts/build-converter.sh failed (${r.status}):\n${r.stderr}`);
  return { dir: r.stdout.trim().split("\n").pop()! };
}
