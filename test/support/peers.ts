// Locates the real Terraform providers that scripts/build-peers.sh built from test/peers/pins.json.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PeerPin {
  module?: string;
  version?: string;
  source?: string;
  protocol: 5 | 6;
  /** "tcp": built with go-plugin's Windows listener (scripts/build-peers.sh). */
  listener?: "tcp";
  /** Built for another operating system; "windows" links it with an .exe suffix. */
  goos?: "windows";
  /** "module-copy": built from a writable copy of the module zip (its go.mod declares another path). */
  build?: "module-copy";
}

const pinsFile = JSON.parse(readFileSync(join(repoRoot, "test/peers/pins.json"), "utf8")) as {
  providers: Record<string, PeerPin>;
  oracle: Record<string, PeerPin | string>;
  transports: Record<string, PeerPin | string>;
  infrastructure: Record<string, PeerPin | string>;
};

const objects = (section: Record<string, PeerPin | string>): Record<string, PeerPin> =>
  Object.fromEntries(Object.entries(section).filter((e): e is [string, PeerPin] => typeof e[1] === "object"));

/** The real providers every per-peer suite covers. */
export const pins: Record<string, PeerPin> = pinsFile.providers;

/** The schema-driven providers of the oracle corpus (test/crosstest). */
export const oraclePins: Record<string, PeerPin> = objects(pinsFile.oracle);

/** Other builds of in-repo providers: go-plugin's Windows TCP listener, a Windows executable. */
export const transportPins: Record<string, PeerPin> = objects(pinsFile.transports);

/** Providers of infrastructure outside Terraform (Docker), each driven by its own tests against a real engine. */
export const infrastructurePins: Record<string, PeerPin> = objects(pinsFile.infrastructure);


/** Absolute path of a built peer binary (linked from this checkout's .peers/); names the command to run when missing. */
export function peerPath(name: string): string {
  const pin = pins[name] ?? oraclePins[name] ?? transportPins[name] ?? infrastructurePins[name];
  if (pin === undefined) throw new Error(`no pinned peer named ${name} in test/peers/pins.json`);
  const link = join(repoRoot, ".peers", `terraform-provider-${name}${pin.goos === "windows" ? ".exe" : ""}`);
  if (!existsSync(link)) throw new Error(`peer ${name} is not built (${link} is missing); run \`npm run peers\``);
  return realpathSync(link);
}

/**
 * The reference bridge (Pulumi's Go pulumi-terraform-provider, built by scripts/build-peers.sh from
 * test/peers/reference): absolute path of its `pulumi-resource-terraform-provider`. An oracle for differential tests.
 */
export function referenceBin(): string {
  const link = join(repoRoot, ".peers", "reference", "pulumi-resource-terraform-provider");
  if (!existsSync(link)) throw new Error(`the reference bridge is not built (${link} is missing); run \`npm run peers\``);
  return realpathSync(link);
}

/**
 * Terraform itself (scripts/build-terraform.sh, linked as .peers/terraform): absolute path of its binary. The oracle
 * for Terraform 1.14's protocol (actions, list resources, generated configuration), which OpenTofu lacks; BUSL-1.1, so
 * a test tool only.
 */
export function terraformBin(): string {
  const link = join(repoRoot, ".peers", "terraform");
  if (!existsSync(link)) throw new Error(`Terraform is not built (${link} is missing); run \`npm run peers\``);
  return realpathSync(link);
}
