// Stacks carried between the reference bridge (Pulumi's Go pulumi-terraform-provider, built as
// .peers/reference/pulumi-resource-terraform-provider) and our plugin. Both are the `terraform-provider` resource plugin
// at the same version (the reference is stamped with ours), so the engine tells them apart only by which binary it
// finds; this module switches a sandbox between the two.
//
// How Pulumi (v3.248 and v3.274.1 alike) finds `pulumi-resource-terraform-provider` (sdk/go/common/workspace/plugins.go,
// getPluginInfoAndPath): project plugins first, then an "ambient" executable of that name on $PATH, which wins over
// every installed plugin whatever its version (the engine only warns "using ... from $PATH"), then the installed
// plugins under $PULUMI_HOME/plugins. Switching through PATH would work, but any such executable already on the
// developer's PATH (this checkout's bin/, an installed reference) would silently win, and nothing in the state or in
// `pulumi plugin ls` would show which binary ran. So the sandboxes here set PULUMI_IGNORE_AMBIENT_PLUGINS=true (the
// bundled pulumi-language-yaml is still found next to `pulumi`) and switch the installed plugin: `plugin rm`, then
// `plugin install --file` of the reference's bare executable (the CLI copies it into
// plugins/resource-terraform-provider-v<our version>/) or of our tarball. `plugin install` alone keeps an installed version
// (and `--reinstall` would leave our dist/ folder beside the reference's binary), hence the removal first. Each switch
// checks the installed folder's content against the binary it was meant to install.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { VERSION } from "../../src/version.js";
import { isOurExecutable, packagePlugin } from "./e2e.js";
import { installedPluginDir } from "./interchange-sdk.js";
import { scratch } from "./lifecycle.js";
import { referenceBin } from "./peers.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox } from "./pulumi.js";

export type PluginKind = "reference" | "ours";

export const otherPlugin = (kind: PluginKind): PluginKind => (kind === "reference" ? "ours" : "reference");

let ourTarballPath: string | undefined;

/**
 * Our packaged plugin, packaged once per test file and copied out of dist/ (which package.sh rewrites for other test
 * files running at the same time).
 */
export function ourTarball(): string {
  if (ourTarballPath === undefined) {
    const packaged = packagePlugin();
    const copy = join(scratch("tfbridge-ours-tarball-"), basename(packaged));
    copyFileSync(packaged, copy);
    ourTarballPath = copy;
  }
  return ourTarballPath;
}

const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A Pulumi sandbox that ignores plugins on PATH (see above), with the given plugin installed. */
export async function interchangeSandbox(first: PluginKind): Promise<PulumiSandbox> {
  const sandbox = pulumiSandbox();
  sandbox.env["PULUMI_IGNORE_AMBIENT_PLUGINS"] = "true";
  await usePlugin(sandbox, first);
  return sandbox;
}

async function pulumiIn(sandbox: PulumiSandbox, args: string[]): Promise<void> {
  expectSuccess(await runPulumi(args, { cwd: sandbox.home, env: sandbox.env }), `pulumi ${args.join(" ")}`);
}

/**
 * Makes `kind` the sandbox's `terraform-provider` plugin at our version: removes the installed one, installs the reference's
 * executable or our tarball, and checks that the plugin folder holds exactly that.
 */
export async function usePlugin(sandbox: PulumiSandbox, kind: PluginKind): Promise<void> {
  const dir = installedPluginDir(sandbox);
  if (existsSync(dir)) await pulumiIn(sandbox, ["plugin", "rm", "resource", "terraform-provider", VERSION, "--yes"]);
  if (existsSync(dir)) throw new Error(`pulumi plugin rm left ${dir}`);
  const file = kind === "reference" ? referenceBin() : ourTarball();
  await pulumiIn(sandbox, ["plugin", "install", "resource", "terraform-provider", VERSION, "--file", file]);
  const launcher = join(dir, "pulumi-resource-terraform-provider");
  if (!existsSync(launcher)) throw new Error(`no ${launcher} after installing ${kind}`);
  const isReference = sha256(launcher) === sha256(referenceBin());
  const ours = isOurExecutable(launcher);
  if (kind === "reference" ? !isReference || ours : isReference || !ours) {
    throw new Error(`${dir} does not hold the ${kind} plugin after the switch`);
  }
}

/**
 * Which plugin served a `--debug` run, by our plugin's own debug line for the parameterization of `peer` (the
 * reference never writes it).
 */
export function servedBy(debugOutput: string, peer: string): PluginKind {
  return new RegExp(`parameterized as ${peer} 0\\.0\\.0 \\(local `).test(debugOutput) ? "ours" : "reference";
}
