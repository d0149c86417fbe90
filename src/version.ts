// The plugin's own version: what GetPluginInfo reports and what schemas name as the base provider version.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Set by the packaging bundle (esbuild --define), where package.json is not shipped beside the code. */
declare const __TF_BRIDGE_VERSION__: string | undefined;

const PACKAGE_NAME = "pulumi-terraform-provider-ts";

/** The project's package.json, found by walking up from this module: a checkout runs from sources. */
export function ownPackageJson(): Record<string, unknown> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as Record<string, unknown>;
      if (pkg["name"] === PACKAGE_NAME) return pkg;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`cannot find the package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}`);
}

function versionFromPackageJson(): string {
  const version = ownPackageJson()["version"];
  if (typeof version !== "string") throw new Error(`the package.json of ${PACKAGE_NAME} has no version`);
  return version;
}

/** Semver without a leading `v`, as the engine expects in PluginInfo and schemas. */
export const VERSION: string =
  typeof __TF_BRIDGE_VERSION__ === "string" ? __TF_BRIDGE_VERSION__ : versionFromPackageJson();

/** Whether this is the packaged plugin (a bundle or its single executable), whose code changes only with its file. */
export const BUNDLED: boolean = typeof __TF_BRIDGE_VERSION__ === "string";
