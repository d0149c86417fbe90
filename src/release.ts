// Where releases of this plugin live and what a release holds: the plugin download URL schemas carry, the platforms, the
// tarballs' names in Pulumi's convention, and the SHA-256 checksums file.
import { ownPackageJson } from "./version.js";

/** The plugin's name as Pulumi installs it (`pulumi-resource-terraform-provider`), the same as Pulumi's Go bridge. */
export const PLUGIN_NAME = "terraform-provider";

/** The run-time override of the release location, and at packaging time the location baked into the executable. */
export const PLUGIN_DOWNLOAD_URL_ENV = "TF_BRIDGE_PLUGIN_DOWNLOAD_URL";

/** Every platform a release publishes, as Pulumi names them (Go's GOOS-GOARCH): the engine downloads its own. */
export const RELEASE_PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

/**
 * The tarball of one platform, named as the engine asks for it from every kind of source (Pulumi's
 * `standardAssetName`: `pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz`).
 */
export function releaseAssetName(version: string, platform: ReleasePlatform): string {
  return `pulumi-resource-${PLUGIN_NAME}-v${version}-${platform}.tar.gz`;
}

/** The checksums file, named as Pulumi's own provider releases name theirs (`pulumi-aws_6.0.0_checksums.txt`). */
export function checksumsFileName(version: string): string {
  return `pulumi-${PLUGIN_NAME}_${version}_checksums.txt`;
}

/** One line per file in `sha256sum`'s format (`<hex>  <name>`), sorted by name, so `sha256sum --check` reads it. */
export function formatChecksums(sums: ReadonlyMap<string, string>): string {
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, hex]) => {
      if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`checksum of ${name} is not 64 lower-case hex digits: ${JSON.stringify(hex)}`);
      if (/[\n\\]/.test(name) || name.includes("/")) throw new Error(`a release file name cannot hold a slash, backslash or newline: ${JSON.stringify(name)}`);
      return `${hex}  ${name}\n`;
    })
    .join("");
}

/** The checksums file read back: file name → hex digest. A line that is not `<64 hex>  <name>` is refused. */
export function parseChecksums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const [i, line] of text.split("\n").entries()) {
    if (line === "") continue;
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (m === null) throw new Error(`checksums line ${i + 1} is not "<sha256 hex>  <file>": ${JSON.stringify(line)}`);
    sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/**
 * The checksums as Pulumi takes them in a project file's `packages.<name>.checksums`: the machine's `<os>-<arch>` to the
 * tarball's raw SHA-256, base64 (Go's []byte in JSON). Only a Pulumi.json can hold them: Pulumi.yaml's decoder takes no
 * string as bytes and refuses the whole entry (docs/releasing.md).
 */
export function pulumiChecksums(sums: ReadonlyMap<string, string>, version: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const platform of RELEASE_PLATFORMS) {
    const hex = sums.get(releaseAssetName(version, platform));
    if (hex !== undefined) out[platform] = Buffer.from(hex, "hex").toString("base64");
  }
  return out;
}

/**
 * Whether `url` is a location the Pulumi engine can download a plugin from, as Pulumi's `newPluginSource` parses it;
 * undefined when it is, else what is wrong. `git://` is left out: Pulumi builds a plugin from source there.
 */
export function downloadURLProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  const path = parsed.pathname.replace(/^\/+|\/+$/g, "");
  switch (parsed.protocol) {
    case "github:": {
      const parts = path.split("/");
      if (parsed.host === "" || path === "" || parts.length > 2 || parts.some((p) => p === "")) return "a github:// URL is github://<host>/<owner>[/<repository>] (github://api.github.com/acme/pulumi-terraform-provider-ts)";
      return undefined;
    }
    case "gitlab:":
      if (parsed.host === "" || path === "" || path.includes("/")) return "a gitlab:// URL is gitlab://<host>/<project id> (gitlab://gitlab.com/12345678)";
      return undefined;
    case "http:":
    case "https:":
      if (parsed.host === "") return "an http(s) URL needs a host";
      if (parsed.search !== "" || parsed.hash !== "") return "the engine appends /<tarball name> to the URL, so it cannot have a query or fragment";
      return undefined;
    case "git:":
      return "git:// makes Pulumi build a plugin from its source repository; this plugin is published as executables (github://, gitlab:// or http(s)://)";
    default:
      return `the engine downloads plugins only from github://, gitlab:// and http(s):// locations, not ${parsed.protocol}//`;
  }
}

/** What a release-location value must be, for messages. */
const EXPECTED = "github://<host>/<owner>[/<repository>], gitlab://<host>/<project id> or an http(s):// URL serving pulumi-resource-terraform-provider-v<version>-<os>-<arch>.tar.gz";

/** The location as given, trimmed and checked; undefined when unset or empty. `from` names where it came from. */
export function checkedDownloadURL(raw: string | undefined, from: string): string | undefined {
  const url = raw?.trim();
  if (url === undefined || url === "") return undefined;
  const problem = downloadURLProblem(url);
  if (problem !== undefined) throw new Error(`${from}=${JSON.stringify(raw)} is not a plugin download location: ${problem}; set it to ${EXPECTED}, or unset it`);
  return url;
}

/** Set by the packaging bundle (esbuild --define): the release location fixed when the executable was packaged. */
declare const __TF_BRIDGE_PLUGIN_DOWNLOAD_URL__: string | undefined;

/**
 * The release location fixed at packaging: what scripts/package.sh baked in, or from a checkout package.json's
 * `pluginDownloadURL` (what packaging bakes in unless TF_BRIDGE_PLUGIN_DOWNLOAD_URL says otherwise then).
 */
export function packagedDownloadURL(): string | undefined {
  if (typeof __TF_BRIDGE_PLUGIN_DOWNLOAD_URL__ === "string") return __TF_BRIDGE_PLUGIN_DOWNLOAD_URL__ === "" ? undefined : __TF_BRIDGE_PLUGIN_DOWNLOAD_URL__;
  const value = ownPackageJson()["pluginDownloadURL"];
  if (value !== undefined && typeof value !== "string") throw new Error(`package.json's pluginDownloadURL must be a string, not ${JSON.stringify(value)}`);
  return checkedDownloadURL(value, "package.json pluginDownloadURL");
}

/**
 * The package schema's `pluginDownloadURL`: TF_BRIDGE_PLUGIN_DOWNLOAD_URL in the plugin's environment (that of the
 * `pulumi package add` or `gen-sdk` that runs it) over the location fixed at packaging; none when neither is set.
 * Read when a schema is rendered, never at load: the linux-amd64 executable's modules are loaded at build time.
 */
export function pluginDownloadURL(env: NodeJS.ProcessEnv, packaged: () => string | undefined = packagedDownloadURL): string | undefined {
  return checkedDownloadURL(env[PLUGIN_DOWNLOAD_URL_ENV], PLUGIN_DOWNLOAD_URL_ENV) ?? packaged();
}
