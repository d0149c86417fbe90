// Interchange with the reference bridge (Pulumi's Go pulumi-terraform-provider): a Pulumi sandbox whose
// `terraform-provider` plugin at our version is first the reference (so that `pulumi package add` and `pulumi package
// get-schema` are answered by it) and then ours, and Node.js SDKs generated from a schema the reference gave.
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../../src/version.js";
import { installPlugin, isOurExecutable } from "./e2e.js";
import { generateNodeSdk, scratch } from "./lifecycle.js";
import { peerPath, referenceBin } from "./peers.js";
import { expectSuccess, runPulumi, runPulumiSync, type PulumiSandbox } from "./pulumi.js";

/** Where `pulumi plugin install` puts the `terraform-provider` plugin of this version in a sandbox. */
export function installedPluginDir(sandbox: PulumiSandbox): string {
  return join(sandbox.home, "plugins", `resource-terraform-provider-v${VERSION}`);
}

function pulumiSync(sandbox: PulumiSandbox, args: string[]): void {
  expectSuccess(runPulumiSync(args, { env: sandbox.env }), `pulumi ${args.join(" ")}`);
}

/**
 * Installs the reference's `pulumi-resource-terraform-provider` (stamped with our version) as the sandbox's
 * `terraform-provider` plugin. Pulumi's `plugin install --file` (v3.248 and v3.274.1) takes a bare executable as well as a tarball or
 * a folder: it copies the binary into plugins/resource-terraform-provider-v<our version>/ under its own name, which is how the
 * engine finds and runs it. That is what a user of the reference has; no tarball to build, and unlike a plugin found on
 * PATH, it is the one `pulumi plugin ls` shows and `plugin rm` removes. Checks that the copy is the reference's binary.
 */
export function installReference(sandbox: PulumiSandbox): void {
  const bin = referenceBin();
  pulumiSync(sandbox, ["plugin", "install", "resource", "terraform-provider", VERSION, "--file", bin]);
  const installed = join(installedPluginDir(sandbox), "pulumi-resource-terraform-provider");
  if (!existsSync(installed) || statSync(installed).size !== statSync(bin).size) {
    throw new Error(`the reference plugin was not installed as ${installed}`);
  }
}

/**
 * Switches the sandbox from the reference to our packaged plugin. Both are `terraform-provider` at our version, and `plugin
 * install` (what installPlugin runs) silently keeps an installed version, so the reference is removed first (`plugin rm`);
 * then installPlugin installs our tarball as a user would. Checks that the plugin folder now holds our launcher and
 * bundle, not the reference's Go binary.
 */
export function switchToOurs(sandbox: PulumiSandbox): void {
  pulumiSync(sandbox, ["plugin", "rm", "resource", "terraform-provider", VERSION, "--yes"]);
  installPlugin(sandbox);
  const dir = installedPluginDir(sandbox);
  const launcher = join(dir, "pulumi-resource-terraform-provider");
  if (!existsSync(launcher) || !isOurExecutable(launcher)) {
    throw new Error(`${dir} does not hold our plugin after the switch`);
  }
}

/** `pulumi package get-schema terraform-provider <peer>`: the schema from whichever plugin the sandbox has installed. */
export async function packageSchemaText(sandbox: PulumiSandbox, peer: string): Promise<string> {
  const dir = scratch(`tfbridge-schema-${peer}-`);
  const r = expectSuccess(await runPulumi(["package", "get-schema", "terraform-provider", peerPath(peer)], { cwd: dir, env: sandbox.env }), `get-schema ${peer}`);
  return r.stdout;
}

/** The `pulumi` section of a generated Node.js SDK's package.json. */
export interface SdkPulumiSection {
  resource: boolean;
  name: string;
  version: string;
  parameterization?: { name: string; version: string; value: string };
}

/**
 * Generates the Node.js SDK for a package schema with `pulumi package gen-sdk <schema.json> --language nodejs` (the
 * real Node.js language host; no plugin is asked) and compiles it, the steps of nodeSdk() in lifecycle.ts, but from the
 * schema text given (here: the reference's) rather than from our plugin. Returns the compiled package folder (bin/ with
 * package.json) and the generated package.json's `pulumi` section.
 */
export async function nodeSdkFromSchema(peer: string, schemaText: string): Promise<{ dir: string; pulumi: SdkPulumiSection }> {
  const dir = scratch(`tfbridge-refsdk-${peer}-`);
  writeFileSync(join(dir, "schema.json"), schemaText);
  // A Pulumi home of its own: generating from a file needs no plugin, and nothing is written to the user's ~/.pulumi.
  const env = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
  const { sdk, pkg } = await generateNodeSdk([join(dir, "schema.json")], dir, env);
  return { dir: join(sdk, "bin"), pulumi: pkg["pulumi"] as SdkPulumiSection };
}

/** Decodes base64 parameter value bytes (package.json, the YAML package declaration, provider state) as JSON. */
export function decodeValue(base64: string): unknown {
  return JSON.parse(Buffer.from(base64, "base64").toString("utf8")) as unknown;
}
