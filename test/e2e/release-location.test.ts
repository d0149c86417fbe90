// Where a generated SDK says its plugin comes from, through the real CLI and the packaged plugin: the package schema's
// pluginDownloadURL (TF_BRIDGE_PLUGIN_DOWNLOAD_URL where the package is added, over the location baked in at packaging)
// becomes the server of the base plugin `terraform-provider` in the SDKs `pulumi package gen-sdk` and `package add`
// write for TypeScript, Python, Go, Java and YAML; Pulumi's own `--server` wins over both. Nothing here downloads: the
// locations are never served (the fresh machine that downloads is another test).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packagedDownloadURL } from "../../src/release.js";
import { VERSION } from "../../src/version.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { hostsMissing, javaHost, javaHostMissing } from "../support/languages.js";
import { scratch, withLanguageHosts, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { expectSuccess, runPulumi } from "../support/pulumi.js";

const sandbox = e2eSandbox();
const OVERRIDE = "https://mirror.example.test/tf-bridge";
const SERVER = "github://api.github.com/example-org";

/** The sandbox's environment with TF_BRIDGE_PLUGIN_DOWNLOAD_URL set to `url`, or removed when undefined. */
function envWith(url: string | undefined, base: NodeJS.ProcessEnv = sandbox.env): NodeJS.ProcessEnv {
  const env = { ...base };
  delete env["TF_BRIDGE_PLUGIN_DOWNLOAD_URL"];
  if (url !== undefined) env["TF_BRIDGE_PLUGIN_DOWNLOAD_URL"] = url;
  return env;
}

/** `pulumi package gen-sdk <source…> --language <language>`; returns the folder the language's SDK was written to. */
async function genSdk(language: string, source: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const dir = scratch(`tfbridge-release-sdk-${language}-`);
  const out = join(dir, "out");
  expectSuccess(await runPulumi(["package", "gen-sdk", ...source, "--language", language, "--out", out], { cwd: dir, env }), `gen-sdk --language ${language}`);
  return join(out, language);
}

/** The `pulumi-plugin.json` a Python or Go SDK carries (anywhere below `dir`). */
function pulumiPluginJson(dir: string): Record<string, unknown> {
  const file = (readdirSync(dir, { recursive: true }) as string[]).find((f) => f.endsWith("pulumi-plugin.json"));
  if (file === undefined) throw new Error(`no pulumi-plugin.json below ${dir}`);
  return JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
}

/** Every file below `dir` whose text contains `needle`, relative. */
function filesWith(dir: string, needle: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => {
    try {
      return readFileSync(join(dir, f), "utf8").includes(needle);
    } catch {
      return false; // a directory
    }
  });
}

describe.skipIf(hostsMissing())("the release location in generated SDKs", () => {
  it("TypeScript: package.json names the location as the base plugin's server, and registerPackage sends it", async () => {
    const sdk = await genSdk("nodejs", ["terraform-provider", peerPath("random")], withLanguageHosts(envWith(OVERRIDE)));
    const pulumi = (JSON.parse(readFileSync(join(sdk, "package.json"), "utf8")) as { pulumi: Record<string, unknown> }).pulumi;
    expect(pulumi).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION, server: OVERRIDE, parameterization: { name: "random" } });
    expect(readFileSync(join(sdk, "utilities.ts"), "utf8")).toContain(`baseProviderDownloadUrl: "${OVERRIDE}"`);
  }, 180_000);

  it("Python and Go: pulumi-plugin.json names it as the base plugin's server; Go's resources pass it too", async () => {
    for (const language of ["python", "go"]) {
      const sdk = await genSdk(language, ["terraform-provider", peerPath("random")], withLanguageHosts(envWith(OVERRIDE)));
      expect(pulumiPluginJson(sdk), language).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION, server: OVERRIDE, parameterization: { name: "random" } });
      if (language === "go") expect(readFileSync(join(sdk, "random", "internal", "pulumiUtilities.go"), "utf8")).toContain(`pulumi.PluginDownloadURL("${OVERRIDE}")`);
    }
  }, 240_000);

  it.skipIf(javaHostMissing())("Java: build.gradle's plugin metadata names it as the base plugin's server, and resources pass it", async () => {
    const h = javaHost() as { dir: string };
    const env = withLanguageHosts(envWith(OVERRIDE));
    env["PATH"] = `${h.dir}:${env["PATH"] ?? ""}`;
    const sdk = await genSdk("java", ["terraform-provider", peerPath("random")], env);
    expect(readFileSync(join(sdk, "build.gradle"), "utf8")).toMatch(new RegExp(`name "terraform-provider"\\s+server "${OVERRIDE}"\\s+version "${VERSION}"`));
    expect(filesWith(sdk, OVERRIDE)).toContain(join("src", "main", "java", "com", "pulumi", "random", "Pet.java"));
  }, 240_000);

  it("without the variable, the SDK names the location baked in at packaging (package.json's pluginDownloadURL)", async () => {
    const sdk = await genSdk("nodejs", ["terraform-provider", peerPath("random")], withLanguageHosts(envWith(undefined)));
    const pulumi = (JSON.parse(readFileSync(join(sdk, "package.json"), "utf8")) as { pulumi: Record<string, unknown> }).pulumi;
    expect(pulumi["server"]).toBe(packagedDownloadURL());
  }, 180_000);

  it("Pulumi's `--server` wins over TF_BRIDGE_PLUGIN_DOWNLOAD_URL", async () => {
    const sdk = await genSdk("nodejs", ["--server", SERVER, `terraform-provider@${VERSION}`, peerPath("random")], withLanguageHosts(envWith(OVERRIDE)));
    const pulumi = (JSON.parse(readFileSync(join(sdk, "package.json"), "utf8")) as { pulumi: Record<string, unknown> }).pulumi;
    expect(pulumi).toMatchObject({ name: "terraform-provider", version: VERSION, server: SERVER });
  }, 180_000);
});

describe("the release location in a YAML project", () => {
  it("`pulumi package add` writes it into the package declaration as downloadUrl", async () => {
    const dir = scratch("tfbridge-release-yaml-");
    const yaml = YamlScenario.inline(dir, "release-location", "resources: {}\n", envWith(OVERRIDE));
    await yaml.ok(["package", "add", "terraform-provider", peerPath("random")]);
    const decl = readFileSync(join(dir, "sdks", "random", "random-0.0.0.yaml"), "utf8");
    expect(decl).toMatch(/^name: terraform-provider$/m);
    expect(decl).toMatch(new RegExp(`^version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
    expect(decl).toContain(`downloadUrl: ${OVERRIDE}\n`);
  }, 180_000);
});
