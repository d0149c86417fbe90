// Terraform v1.16.4's `terraform query` against a real peer through dev_overrides: the oracle for list resources.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peerPath, terraformBin } from "./peers.js";
import { execAsync } from "./processes.js";

/** One `list_resource_found` line of `terraform query -json`. */
export interface QueryResult {
  display_name: string;
  identity: Record<string, unknown>;
  resource_object?: Record<string, unknown>;
}

/**
 * Runs `terraform query -json` with one `list "<type>" "q"` block (`config` as HCL attribute lines, `limit` and
 * include_resource as given) for bridgetest configured with `stateDir`; returns what Terraform found, in order.
 */
export async function terraformQuery(stateDir: string, type: string, config: string, options: { limit?: number; includeResource?: boolean } = {}): Promise<QueryResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "tfbridge-tfquery-"));
  const providers = join(dir, "providers");
  mkdirSync(providers);
  symlinkSync(peerPath("bridgetest"), join(providers, "terraform-provider-bridgetest"));
  const rc = join(dir, "terraform.rc");
  writeFileSync(rc, `provider_installation {\n  dev_overrides {\n    "example.com/test/bridgetest" = "${providers}"\n  }\n  direct {}\n}\n`);
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {\n  required_providers {\n    bridgetest = { source = "example.com/test/bridgetest" }\n  }\n}\n\nprovider "bridgetest" {\n  state_dir = ${JSON.stringify(stateDir)}\n}\n`,
  );
  writeFileSync(
    join(dir, "q.tfquery.hcl"),
    `list "${type}" "q" {\n  provider = bridgetest\n  include_resource = ${options.includeResource ?? false}\n` +
      (options.limit !== undefined ? `  limit = ${options.limit}\n` : "") +
      `  config {\n${config}\n  }\n}\n`,
  );
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  const r = await execAsync(terraformBin(), ["query", "-json", "-no-color"], { cwd: dir, env });
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { type?: string; list_resource_found?: QueryResult })
    .filter((l) => l.type === "list_resource_found")
    .map((l) => l.list_resource_found!);
}
