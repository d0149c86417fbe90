// Locates the real Pulumi tools built by scripts/build-pulumi.sh and the npm packages generated SDKs compile against.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./peers.js";

/** The bin directory with pulumi, pulumi-language-yaml and pulumi-engineclient (built on first use, then cached). */
let binDir: string | undefined;
export function pulumiBin(): string {
  if (binDir !== undefined) return binDir;
  const out = execFileSync("bash", [join(repoRoot, "scripts/build-pulumi.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  binDir = out.trim().split("\n").pop()!;
  return binDir;
}

/**
 * The release of Pulumi's language hosts (scripts/build-language-hosts.sh), older than the CLI, and so of the SDK every
 * program and generated SDK uses, in each language: @pulumi/pulumi (which needs Node.js 22+, so programs run on Node 24:
 * languagePath()), `pulumi` on PyPI and github.com/pulumi/pulumi/sdk/v3.
 */
export const PULUMI_SDK = "3.259.0";
export const PULUMI_NODE_SDK = PULUMI_SDK;
/**
 * Go's is the release whose generator the Go host links (pkg/v3 v3.276.0 in test/peers/pulumi/go.mod): the SDKs it
 * writes call sdk/v3 APIs that 3.259.0 lacks (ctx.ExistsResource taking a StringInput), and their go.mod asks for
 * v3.269.0, whose pulumi-cloud-sdk/go v1.20260918.0 the Go module proxy no longer serves.
 */
export const PULUMI_GO_SDK = "v3.276.0";

/** A node_modules with @pulumi/pulumi, typescript and @types/node, installed once into the cache. */
export function sdkDeps(): string {
  const dir = join(homedir(), ".cache/pulumi-tf-bridge-ts/sdk-deps", PULUMI_NODE_SDK);
  if (!existsSync(join(dir, "node_modules/@pulumi/pulumi/package.json")) || !existsSync(join(dir, "node_modules/.bin/tsc"))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "sdk-deps", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", `@pulumi/pulumi@${PULUMI_NODE_SDK}`, "typescript@5.9", "@types/node@20"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return join(dir, "node_modules");
}
