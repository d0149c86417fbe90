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
 * The release of Pulumi's SDK the TypeScript and Go test programs and generated SDKs use: the release of the generators
 * the project's own hosts link (pkg/v3 in test/peers/pulumi/go.mod), whose SDKs need it (they call
 * `runtime.existsResource` and `ctx.ExistsResource`, and ask for 3.269.0 or newer; sdk/v3 v3.269.0 itself needs a
 * pulumi-cloud-sdk/go the Go module proxy no longer serves). Pulumi's own hosts, where installed, run programs of it too.
 * @pulumi/pulumi needs Node.js 22+, so programs run on Node 24 (languagePath()). Python's: PULUMI_PYTHON_SDK (python.ts).
 */
export const PULUMI_SDK = "3.276.0";
export const PULUMI_NODE_SDK = PULUMI_SDK;
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
