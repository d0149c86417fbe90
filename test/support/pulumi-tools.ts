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
 * The release of Pulumi's SDK every test program and generated SDK uses, older than the CLI (an engine runs programs
 * of older SDKs), in each language: @pulumi/pulumi (which needs Node.js 22+, so programs run on Node 24:
 * languagePath()), `pulumi` on PyPI and github.com/pulumi/pulumi/sdk/v3.
 */
export const PULUMI_SDK = "3.259.0";
/**
 * @pulumi/pulumi for TypeScript programs and generated SDKs: the CLI's release, as the SDKs the project's own Node.js
 * host generates (pkg/v3 v3.276.0's generator) call `pulumi.runtime.existsResource` and ask for ^3.269.0. Pulumi's own
 * v3.259.0 host runs programs of this newer SDK as well.
 */
export const PULUMI_NODE_SDK = "3.276.0";
export const PULUMI_GO_SDK = `v${PULUMI_SDK}`;

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
