// The release location and the release directory: tarball names in Pulumi's convention, the checksums file (checked by
// coreutils' sha256sum), which locations the engine can download from, the precedence of the settings, and the schema.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutRelease } from "../../scripts/release.js";
import { checkedDownloadURL, checksumsFileName, downloadURLProblem, formatChecksums, packagedDownloadURL, parseChecksums, pluginDownloadURL, PLUGIN_DOWNLOAD_URL_ENV, pulumiChecksums, RELEASE_PLATFORMS, releaseAssetName } from "../../src/release.js";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { tempDir } from "../support/temp.js";
import { provider } from "../support/tf-schema.js";

/** Pulumi's standardAssetName (sdk/go/common/workspace/plugins.go), for a resource plugin: what the engine asks a server for. */
const pulumiAssetName = (name: string, version: string, os: string, arch: string): string => `pulumi-resource-${name}-v${version}-${os}-${arch}.tar.gz`;

const sha256 = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");

describe("release tarballs and checksums", () => {
  it("names each platform's tarball as the engine asks for it, for Pulumi's five platforms", () => {
    expect(RELEASE_PLATFORMS).toEqual(["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"]);
    for (const platform of RELEASE_PLATFORMS) {
      const [os, arch] = platform.split("-") as [string, string];
      expect(releaseAssetName("0.1.0-ts", platform)).toBe(pulumiAssetName("terraform-provider", "0.1.0-ts", os, arch));
    }
    expect(releaseAssetName("1.2.3", "windows-amd64")).toBe("pulumi-resource-terraform-provider-v1.2.3-windows-amd64.tar.gz");
    expect(checksumsFileName("0.1.0-ts")).toBe("pulumi-terraform-provider_0.1.0-ts_checksums.txt");
  });

  it("writes a checksums file that `sha256sum --check` verifies, and that fails it once a file changes", () => {
    const dir = tempDir("tfbridge-sums-");
    const files = { "b.tar.gz": "second", "a.tar.gz": "first" };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const text = formatChecksums(new Map(Object.entries(files).map(([n, t]) => [n, sha256(t)])));
    expect(text.split("\n")[0]).toBe(`${sha256("first")}  a.tar.gz`);
    writeFileSync(join(dir, "sums.txt"), text);
    expect(execFileSync("sha256sum", ["--check", "--strict", "sums.txt"], { cwd: dir, encoding: "utf8" })).toBe("a.tar.gz: OK\nb.tar.gz: OK\n");
    writeFileSync(join(dir, "b.tar.gz"), "tampered");
    const r = spawnSync("sha256sum", ["--check", "sums.txt"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("b.tar.gz: FAILED");
  });

  it("reads back its own file and sha256sum's output; refuses what is not a checksum line", () => {
    const dir = tempDir("tfbridge-sums-");
    writeFileSync(join(dir, "x.tar.gz"), "x");
    const coreutils = execFileSync("sha256sum", ["x.tar.gz"], { cwd: dir, encoding: "utf8" });
    expect(parseChecksums(coreutils)).toEqual(new Map([["x.tar.gz", sha256("x")]]));
    const sums = new Map([["a", sha256("a")], ["b", sha256("b")]]);
    expect(parseChecksums(formatChecksums(sums))).toEqual(sums);
    expect(() => parseChecksums("abc  x.tar.gz\n")).toThrow(/line 1 is not "<sha256 hex>  <file>"/);
    expect(() => formatChecksums(new Map([["a", "ABC"]]))).toThrow(/checksum of a is not 64 lower-case hex digits/);
    expect(() => formatChecksums(new Map([["a\nb", sha256("a")]]))).toThrow(/cannot hold a slash, backslash or newline/);
  });
  it("gives Pulumi's project-file checksums: <os>-<arch> to the raw SHA-256 in base64, for the platforms present", () => {
    const sums = new Map([
      [releaseAssetName("1.0.0", "linux-amd64"), sha256("linux")],
      [releaseAssetName("1.0.0", "windows-amd64"), sha256("windows")],
      [checksumsFileName("1.0.0"), sha256("not a platform")],
    ]);
    const checksums = pulumiChecksums(sums, "1.0.0");
    expect(Object.keys(checksums)).toEqual(["linux-amd64", "windows-amd64"]);
    expect(Buffer.from(checksums["linux-amd64"]!, "base64")).toEqual(createHash("sha256").update("linux").digest());
  });
});

describe("the release directory (scripts/release.ts)", () => {
  /** A tarball of one file named as package.sh names the executable, made with tar as package.sh makes it. */
  function tarball(dir: string, name: string, files: Record<string, string>): void {
    const stage = tempDir("tfbridge-stage-");
    for (const [file, text] of Object.entries(files)) writeFileSync(join(stage, file), text);
    execFileSync("tar", ["-czf", join(dir, name), "-C", stage, "--owner=0", "--group=0", "--numeric-owner", "."]);
  }

  it("moves every platform's tarball into the directory and writes their checksums beside them", async () => {
    const built = tempDir("tfbridge-built-");
    const out = tempDir("tfbridge-release-");
    for (const p of RELEASE_PLATFORMS) tarball(built, releaseAssetName("9.9.9", p), { [`pulumi-resource-terraform-provider${p.startsWith("windows") ? ".exe" : ""}`]: p });
    const sums = await layoutRelease(built, out, "9.9.9");
    expect(readdirSync(out).sort()).toEqual([...RELEASE_PLATFORMS.map((p) => releaseAssetName("9.9.9", p)), checksumsFileName("9.9.9")].sort());
    expect(readdirSync(built)).toEqual([]);
    for (const [name, hex] of sums) expect(sha256(readFileSync(join(out, name)))).toBe(hex);
    expect(parseChecksums(readFileSync(join(out, checksumsFileName("9.9.9")), "utf8"))).toEqual(sums);
    expect(execFileSync("sha256sum", ["--check", "--strict", checksumsFileName("9.9.9")], { cwd: out, encoding: "utf8" }).trim().split("\n")).toHaveLength(5);
  });

  it("stops without a checksums file when a tarball is missing or holds more than the executable", async () => {
    const built = tempDir("tfbridge-built-");
    const out = tempDir("tfbridge-release-");
    tarball(built, releaseAssetName("9.9.9", "linux-amd64"), { "pulumi-resource-terraform-provider": "x", "extra.txt": "y" });
    await expect(layoutRelease(built, out, "9.9.9", ["linux-amd64"])).rejects.toThrow(/must hold only pulumi-resource-terraform-provider at its root/);
    await expect(layoutRelease(built, out, "9.9.9", ["darwin-arm64"])).rejects.toThrow(/made no pulumi-resource-terraform-provider-v9\.9\.9-darwin-arm64\.tar\.gz/);
    expect(existsSync(join(out, checksumsFileName("9.9.9")))).toBe(false);
  });

  it("refuses an output directory that already holds files", () => {
    const out = tempDir("tfbridge-release-");
    mkdirSync(join(out, "old"));
    const r = spawnSync(join(import.meta.dirname, "../../node_modules/.bin/tsx"), [join(import.meta.dirname, "../../scripts/release.ts"), out], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`release: ${out} is not empty`);
  });
});

describe("the release location", () => {
  it("accepts what Pulumi's plugin sources parse and says what is wrong with anything else", () => {
    for (const ok of ["github://api.github.com/acme", "github://api.github.com/acme/pulumi-terraform-provider-ts", "gitlab://gitlab.com/12345678", "https://releases.example.com/tf-bridge", "http://127.0.0.1:8080/", "https://example.com/v${VERSION}"]) {
      expect(downloadURLProblem(ok), ok).toBeUndefined();
    }
    expect(downloadURLProblem("github://api.github.com")).toMatch(/github:\/\/<host>\/<owner>\[\/<repository>\]/);
    expect(downloadURLProblem("github://api.github.com/a/b/c")).toMatch(/github:\/\/<host>\/<owner>/);
    expect(downloadURLProblem("gitlab://gitlab.com/group/project")).toMatch(/gitlab:\/\/<host>\/<project id>/);
    expect(downloadURLProblem("https://example.com/x?y=1")).toMatch(/cannot have a query or fragment/);
    expect(downloadURLProblem("git://github.com/acme/repo")).toMatch(/build a plugin from its source/);
    expect(downloadURLProblem("s3://bucket/x")).toMatch(/only from github:\/\/, gitlab:\/\/ and http\(s\):\/\/ locations, not s3:\/\//);
    expect(downloadURLProblem("releases.example.com")).toBe("not a URL");
  });

  it("takes TF_BRIDGE_PLUGIN_DOWNLOAD_URL over the location fixed at packaging; empty is unset", () => {
    const packaged = (): string => "github://api.github.com/packaged";
    expect(pluginDownloadURL({}, packaged)).toBe("github://api.github.com/packaged");
    expect(pluginDownloadURL({ [PLUGIN_DOWNLOAD_URL_ENV]: " " }, packaged)).toBe("github://api.github.com/packaged");
    expect(pluginDownloadURL({ [PLUGIN_DOWNLOAD_URL_ENV]: " https://mirror.example.com/tf " }, packaged)).toBe("https://mirror.example.com/tf");
    expect(pluginDownloadURL({}, () => undefined)).toBeUndefined();
  });

  it("refuses a bad value naming the variable, the value, what it must be and how to fix it", () => {
    expect(() => pluginDownloadURL({ [PLUGIN_DOWNLOAD_URL_ENV]: "ftp://x" }, () => undefined)).toThrow(
      'TF_BRIDGE_PLUGIN_DOWNLOAD_URL="ftp://x" is not a plugin download location: the engine downloads plugins only from github://, gitlab:// and http(s):// locations, not ftp://; set it to github://<host>/<owner>[/<repository>], gitlab://<host>/<project id> or an http(s):// URL serving pulumi-resource-terraform-provider-v<version>-<os>-<arch>.tar.gz, or unset it',
    );
    expect(() => checkedDownloadURL("nope", "package.json pluginDownloadURL")).toThrow(/^package\.json pluginDownloadURL="nope" is not a plugin download location: not a URL/);
  });

  it("from a checkout, is package.json's pluginDownloadURL (empty here: no release location is fixed)", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8")) as { pluginDownloadURL?: string };
    expect(pkg.pluginDownloadURL).toBe("");
    expect(packagedDownloadURL()).toBeUndefined();
  });

  it("is written as the package schema's pluginDownloadURL, and left out when there is none", () => {
    const model = buildProviderModel(provider({}), { packageName: "acme", packageVersion: "1.2.3" });
    const meta = { bridgeVersion: "0.1.0", parameter: Buffer.from("{}"), source: { kind: "local" as const, path: "/x", type: "acme" } };
    expect(renderPackageSchema(model, { ...meta, pluginDownloadURL: "github://api.github.com/acme" })["pluginDownloadURL"]).toBe("github://api.github.com/acme");
    expect("pluginDownloadURL" in renderPackageSchema(model, meta)).toBe(false);
  });
});
