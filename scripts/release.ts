// Lays out a release directory (`npm run release -- <outdir>`): every platform's tarball in Pulumi's naming and the SHA-256
// checksums file, what a release publishes and what a mirror serves (docs/releasing.md). With `--from <dir>` it lays out
// tarballs built elsewhere (each platform natively, by .github/workflows/release.yml) instead of building them; with
// `--platforms <list>` it holds only those platforms, a release for a local trial rather than one to publish.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedDownloadURL, checksumsFileName, formatChecksums, packagedDownloadURL, PLUGIN_DOWNLOAD_URL_ENV, pulumiChecksums, RELEASE_PLATFORMS, releaseAssetName, type ReleasePlatform } from "../src/release.js";
import { VERSION } from "../src/version.js";

const root = resolve(fileURLToPath(import.meta.url), "../..");

/** SHA-256 of a file, hex. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Moves each platform's tarball from `built` (scripts/package.sh's output) into `out` and writes the checksums file
 * beside them; returns the file names and their digests. A tarball that is missing or holds anything but the one
 * executable stops it before the checksums file is written.
 */
export async function layoutRelease(built: string, out: string, version: string, platforms: readonly ReleasePlatform[] = RELEASE_PLATFORMS): Promise<Map<string, string>> {
  const sums = new Map<string, string>();
  for (const platform of platforms) {
    const name = releaseAssetName(version, platform);
    const from = join(built, name);
    if (!existsSync(from)) throw new Error(`release: scripts/package.sh made no ${name} in ${built}`);
    const entries = execFileSync("tar", ["-tzf", from], { encoding: "utf8" }).split("\n").filter((e) => e !== "" && e !== "./");
    const exe = `pulumi-resource-terraform-provider${platform.startsWith("windows-") ? ".exe" : ""}`;
    if (entries.length !== 1 || entries[0]!.replace(/^\.\//, "") !== exe) throw new Error(`release: ${name} must hold only ${exe} at its root, not ${JSON.stringify(entries)}`);
    renameSync(from, join(out, name));
    sums.set(name, await sha256File(join(out, name)));
  }
  writeFileSync(join(out, checksumsFileName(version)), formatChecksums(sums));
  return sums;
}

const USAGE =
  "usage: npm run release -- [--from <dir>] [--platforms <p>[,<p>…]] <outdir>   (<outdir> a new or empty directory; TF_BRIDGE_PLUGIN_DOWNLOAD_URL sets the release location baked in; --from takes the tarballs from <dir> instead of building them; --platforms keeps the release to those platforms, for a local trial: " +
  RELEASE_PLATFORMS.join(", ") +
  ")";

/** The platforms `--platforms` names, checked; every platform when it is not given. */
export function parsePlatforms(list: string | undefined): ReleasePlatform[] {
  if (list === undefined) return [...RELEASE_PLATFORMS];
  const names = list.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const unknown = names.filter((p) => !(RELEASE_PLATFORMS as readonly string[]).includes(p));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`release: --platforms ${JSON.stringify(list)} ${names.length === 0 ? "names no platform" : `names ${unknown.join(", ")}, which Pulumi has no release asset for`}; give a comma-separated list of ${RELEASE_PLATFORMS.join(", ")}`);
  }
  return RELEASE_PLATFORMS.filter((p) => names.includes(p));
}

async function main(args: string[]): Promise<void> {
  let from: string | undefined;
  let platformList: string | undefined;
  for (;;) {
    if (args[0] === "--from") {
      if (args[1] === undefined || args[1].startsWith("-")) throw new Error(`release: --from needs the directory holding the built tarballs\n${USAGE}`);
      from = resolve(args[1]);
      args = args.slice(2);
    } else if (args[0] === "--platforms") {
      if (args[1] === undefined || args[1].startsWith("-")) throw new Error(`release: --platforms needs a comma-separated list of platforms\n${USAGE}`);
      platformList = args[1];
      args = args.slice(2);
    } else break;
  }
  const platforms = parsePlatforms(platformList);
  const partial = platforms.length < RELEASE_PLATFORMS.length;
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new Error(USAGE);
  const out = resolve(args[0]!);
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`release: ${out} is not empty; give a new or empty directory, so the release holds only this build`);
  if (from !== undefined) {
    const missing = platforms.map((p) => releaseAssetName(VERSION, p)).filter((name) => !existsSync(join(from, name)));
    if (missing.length > 0) {
      throw new Error(
        partial
          ? `release: ${from} has no ${missing.join(", ")}, which --platforms names; build it (PLATFORMS=<platform> bash scripts/package.sh) or leave it out of --platforms`
          : `release: ${from} has no ${missing.join(", ")}; a release holds every platform's tarball (for a local trial, --platforms names the ones you have)`,
      );
    }
    mkdirSync(out, { recursive: true });
    // Copied, not moved: a layout that fails (a tarball holding more than the executable) leaves the built ones as they were.
    const staged = mkdtempSync(join(tmpdir(), "tfbridge-release-"));
    try {
      for (const platform of platforms) copyFileSync(join(from, releaseAssetName(VERSION, platform)), join(staged, releaseAssetName(VERSION, platform)));
      const sums = await layoutRelease(staged, out, VERSION, platforms);
      process.stderr.write(`release: ${sums.size} tarballs from ${from} and ${checksumsFileName(VERSION)} in ${out}\n`);
      if (partial) process.stderr.write(partialWarning(platforms));
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
    return;
  }
  const location = checkedDownloadURL(process.env[PLUGIN_DOWNLOAD_URL_ENV], PLUGIN_DOWNLOAD_URL_ENV) ?? packagedDownloadURL();
  mkdirSync(out, { recursive: true });
  const built = mkdtempSync(join(tmpdir(), "tfbridge-release-"));
  try {
    // Under the lock the test suite packages under: package.sh rewrites the esbuild outputs in dist/.
    mkdirSync(join(root, "dist"), { recursive: true });
    execFileSync("flock", [join(root, "dist", ".package.lock"), "bash", join(root, "scripts/package.sh")], {
      env: { ...process.env, PLATFORMS: platforms.join(","), PACKAGE_OUT: built },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const sums = await layoutRelease(built, out, VERSION, platforms);
    if (partial) process.stderr.write(partialWarning(platforms));
    const host = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
    process.stderr.write(`release: ${sums.size} tarballs and ${checksumsFileName(VERSION)} in ${out}\n`);
    process.stderr.write(location === undefined ? `release: no release location is baked in (set ${PLUGIN_DOWNLOAD_URL_ENV} or package.json's pluginDownloadURL); SDKs will not say where the plugin comes from\n` : `release: schemas will name ${location} as pluginDownloadURL\n`);
    const here = sums.get(releaseAssetName(VERSION, host as ReleasePlatform));
    if (location !== undefined && here !== undefined) {
      process.stderr.write(`release: once published, install it by hand with\n  pulumi plugin install resource terraform-provider ${VERSION} --server ${location} --checksum ${here}\n`);
    }
    process.stderr.write(`release: a Pulumi.json packages entry verifies the download at \`pulumi install\` with\n  "checksums": ${JSON.stringify(pulumiChecksums(sums, VERSION))}\n`);
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}

/** Said after a release of some platforms only: a machine of another platform that the SDKs send to it finds nothing. */
function partialWarning(platforms: readonly ReleasePlatform[]): string {
  return `release: only ${platforms.join(", ")}: a trial release, not one to publish (a machine of any other platform would find no plugin there)\n`;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  });
}
