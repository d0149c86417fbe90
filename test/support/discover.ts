// Discover and import (docs/discover-and-import.md): list a resource type with `pulumi do`, turn the listing into a
// `pulumi import --file` file with jq, import it, generating code; the same commands the page shows.
import type { Scenario } from "./lifecycle.js";
import { execAsync } from "./processes.js";

/** The shell commands of docs/discover-and-import.md, run in the project with the real CLI and jq. */
export const DISCOVER_SCRIPT = `
pulumi do --package "$PKG" "$TYPE" list --all --output json > listed.json
pulumi package get-schema $PKG > schema.json
jq --arg type "$TYPE" --slurpfile s schema.json '{resources: map({type: $type, name, id, version: $s[0].version,
  parameterization: {pluginName: $s[0].parameterization.baseProvider.name,
    pluginVersion: $s[0].parameterization.baseProvider.version, value: $s[0].parameterization.parameter}})}' \\
  listed.json > import.json
pulumi import --file import.json --out "$OUT" --yes --protect=false
`;

/** Runs DISCOVER_SCRIPT in the project: `pkg` as given to `pulumi package add`, `type` the resource token, `out` the code file. */
export async function discover(s: Scenario, pkg: string, type: string, out: string): Promise<void> {
  await execAsync("sh", ["-euc", DISCOVER_SCRIPT], { cwd: s.dir, env: { ...s.env, PKG: pkg, TYPE: type, OUT: out } });
}

