// Terraform v1.16.4 (the oracle) run on the real peers without `terraform init`: a CLI configuration whose dev_overrides
// point each provider address at a folder holding the peer's binary.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { peerPath } from "./peers.js";

/**
 * The environment for running Terraform in `dir` with `overrides` (`{"hashicorp/local": "local"}`: provider address →
 * peer name) taken from dev_overrides; the folders and the CLI configuration are made in `dir`.
 */
export function devOverridesEnv(dir: string, overrides: Record<string, string>): NodeJS.ProcessEnv {
  const providers = join(dir, "providers");
  mkdirSync(providers);
  const lines: string[] = [];
  for (const [address, peer] of Object.entries(overrides)) {
    const type = address.slice(address.lastIndexOf("/") + 1);
    symlinkSync(peerPath(peer), join(providers, `terraform-provider-${type}`));
    lines.push(`    "${address}" = "${providers}"\n`);
  }
  const rc = join(dir, "terraformrc");
  writeFileSync(rc, `provider_installation {\n  dev_overrides {\n${lines.join("")}  }\n  direct {}\n}\n`);
  return { ...process.env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
}
