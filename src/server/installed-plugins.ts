// Other versions of the `terraform-provider` plugin installed beside this one: Pulumi's Go implementation
// (pulumi/pulumi-terraform-provider) has the same plugin name, and `pulumi package add terraform-provider …` without a
// version runs the highest installed version, so a user who has a higher one installed must name this one by version.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { pulumiHome } from "../acquire/cache.js";

/** `pulumi plugin install` unpacks into `$PULUMI_HOME/plugins/resource-<name>-v<version>/` (Pulumi's pluginRegexp). */
const PLUGIN_DIR = /^resource-terraform-provider-v(.+)$/;

/** The installed `terraform-provider` plugins, highest version first; none when the directory cannot be read. */
export function installedVersions(env: NodeJS.ProcessEnv = process.env): { version: string; dir: string }[] {
  const root = join(pulumiHome(env), "plugins");
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: { version: string; dir: string }[] = [];
  for (const e of entries) {
    const version = e.isDirectory() ? PLUGIN_DIR.exec(e.name)?.[1] : undefined;
    if (version !== undefined && semver.valid(version) !== null) found.push({ version, dir: join(root, e.name) });
  }
  return found.sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The warning for `package add` when a higher version of the plugin is installed: that one, not this, is what a
 * `package add` without a version runs. Undefined when this plugin is the highest.
 */
export function shadowedWarning(ours: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const higher = installedVersions(env).filter((p) => semver.gt(p.version, ours));
  if (higher.length === 0) return undefined;
  const list = higher.map((p) => `v${p.version} (${p.dir})`).join(", ");
  return (
    `terraform-provider ${list} is installed too, most likely Pulumi's Go implementation, which has the same plugin name. ` +
    `\`pulumi package add terraform-provider …\` without a version runs the highest installed version (v${higher[0]!.version}), ` +
    `not this plugin (v${ours}); name this one by its version: \`pulumi package add terraform-provider@${ours} …\` ` +
    `(\`pulumi plugin ls\` lists what is installed)`
  );
}
