// The plugin's own version: what GetPluginInfo reports and what schemas name as the base provider version.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Set by the packaging bundle (esbuild --define), where package.json is not shipped beside the code. */
declare const __TF_BRIDGE_VERSION__: string | undefined;

const PACKAGE_NAME = "pulumi-terraform-provider-ts";

/** Walks up from this module to the project's package.json; a checkout runs from sources. */
function versionFromPackageJson(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === "string") return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`cannot find the version: no package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}`);
}

/** Semver without a leading `v`, as the engine expects in PluginInfo and schemas. */
export const VERSION: string =
  typeof __TF_BRIDGE_VERSION__ === "string" ? __TF_BRIDGE_VERSION__ : versionFromPackageJson();
