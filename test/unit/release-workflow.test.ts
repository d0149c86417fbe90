// The release workflow (.github/workflows/release.yml), which cannot run here, tied to the project: its platforms, the
// runners that build them natively, the asset names and the checksums file; and scripts/release.ts's `--from`, which
// its publish job runs. actionlint checks the workflow's syntax and semantics (scripts/lint.sh).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checksumsFileName, parseChecksums, RELEASE_PLATFORMS, releaseAssetName, type ReleasePlatform } from "../../src/release.js";
import { VERSION } from "../../src/version.js";
import { tempDir } from "../support/temp.js";

const root = join(import.meta.dirname, "../..");
const workflow = readFileSync(join(root, ".github/workflows/release.yml"), "utf8");

/** The build matrix's `- platform: … / runner: …` pairs, in order. */
function matrix(): { platform: string; runner: string }[] {
  return [...workflow.matchAll(/^ {10}- platform: (\S+)\n {12}runner: (\S+)$/gm)].map((m) => ({ platform: m[1]!, runner: m[2]! }));
}

/** The run script of the step named `name` (its `run: |` block, unindented). */
function runScript(name: string): string {
  const m = new RegExp(`^ {6}- name: ${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n(?: {8}(?!run:).*\\n)*? {8}run: \\|\\n((?: {10}.*\\n|\\n)+)`, "m").exec(workflow);
  if (m === null) throw new Error(`release.yml has no step "${name}" with a run block`);
  return m[1]!.replace(/^ {10}/gm, "");
}

describe("the release workflow", () => {
  it("says at its top that it cannot run here and what checked it", () => {
    const header = workflow.slice(0, workflow.indexOf("\nname:"));
    expect(header).toContain("It has never run: the machine this project is developed and tested on has no GitHub and no network.");
    expect(header).toContain("actionlint v1.7.12 (scripts/build-actionlint.sh, from the Go module proxy), run over .github/workflows/ by\n# scripts/lint.sh in the test command");
    expect(readFileSync(join(root, "scripts/lint.sh"), "utf8")).toContain(`"$actionlint" -no-color -oneline .github/workflows/*.yml`);
    expect(readFileSync(join(root, "scripts/build-actionlint.sh"), "utf8")).toContain('version="${ACTIONLINT_VERSION:-v1.7.12}"');
  });

  it("runs on a tag v* and by hand", () => {
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}tags: \["v\*"\]\n {2}workflow_dispatch:\n/m);
  });

  it("builds each of the release's platforms, and only those, on a runner of that platform", () => {
    const rows = matrix();
    expect(rows.map((r) => r.platform)).toEqual([...RELEASE_PLATFORMS]);
    // GitHub's labels (actionlint knows them all and refuses a retired one such as macos-13).
    const native: Record<ReleasePlatform, RegExp> = {
      "linux-amd64": /^ubuntu-(latest|\d\d\.\d\d)$/,
      "linux-arm64": /^ubuntu-\d\d\.\d\d-arm$/,
      "darwin-amd64": /^macos-\d+-intel$/,
      "darwin-arm64": /^macos-(latest|\d+)$/,
      "windows-amd64": /^windows-(latest|\d{4})$/,
    };
    for (const { platform, runner } of rows) expect(runner, platform).toMatch(native[platform as ReleasePlatform]);
    expect(workflow).toContain("runs-on: ${{ matrix.runner }}");
    expect(workflow).toContain("PLATFORMS: ${{ matrix.platform }}");
  });

  it("packages with the project's own script and uploads the tarball named as releases name it", () => {
    expect(runScript("package ${{ matrix.platform }}")).toBe('mkdir -p built\nPACKAGE_OUT="$PWD/built" bash scripts/package.sh\n');
    const upload = /^ {10}path: (built\/.+)$/m.exec(workflow)?.[1];
    expect(upload).toBe(`built/${releaseAssetName("*", "linux-amd64").replace("linux-amd64", "${{ matrix.platform }}")}`);
    // The smoke test finds the tarball package.sh made under the same name.
    expect(runScript("the executable starts and serves")).toContain('tarball="built/pulumi-resource-terraform-provider-v$version-$PLATFORMS.tar.gz"');
    for (const p of RELEASE_PLATFORMS) expect(releaseAssetName(VERSION, p)).toBe(`pulumi-resource-terraform-provider-v${VERSION}-${p}.tar.gz`);
  });

  it("signs on macOS through package.sh and verifies the signature before publishing", () => {
    const pkg = readFileSync(join(root, "scripts/package.sh"), "utf8");
    expect(pkg).toContain('codesign --remove-signature "$exe"');
    expect(pkg).toContain('codesign --sign - "$exe"');
    expect(runScript("the executable starts and serves")).toContain('codesign --verify --verbose "$exe"');
  });

  it("lays out the release with scripts/release.ts and checks the checksums file it writes", () => {
    const script = runScript("release directory");
    expect(script).toContain("npx tsx scripts/release.ts --from built release\n");
    expect(script).toContain("sha256sum --check ./*_checksums.txt");
    expect(checksumsFileName(VERSION)).toMatch(/_checksums\.txt$/);
    expect(runScript("publish the release assets")).toContain('gh release create "$TAG" release/* --verify-tag');
  });

  it("refuses a tag that is not v<package.json's version>", () => {
    const script = runScript("tag and version agree");
    const run = (tag: string) => spawnSync("bash", ["-c", script], { cwd: root, env: { ...process.env, TAG: tag }, encoding: "utf8" });
    expect(run(`v${VERSION}`).status).toBe(0);
    const wrong = run("v9.9.9");
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toContain(`::error::the tag v9.9.9 does not name package.json's version ${VERSION}`);
  });

  it("pins every action it uses to a version or a commit", () => {
    const uses = [...workflow.matchAll(/uses: (\S+)/g)].map((m) => m[1]!);
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w.-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/);
  });
});

describe("npm run release -- --from <dir> (the publish job)", () => {
  const tsx = join(root, "node_modules/.bin/tsx");

  it("lays out tarballs built elsewhere with the checksums file, leaving the built ones in place", () => {
    const built = tempDir("tfbridge-built-");
    for (const p of RELEASE_PLATFORMS) {
      const dir = join(built, `src-${p}`);
      mkdirSync(dir);
      const exe = `pulumi-resource-terraform-provider${p.startsWith("windows-") ? ".exe" : ""}`;
      execFileSync("bash", ["-c", `printf %s "$1" > "$2/$3" && tar -czf "$4" -C "$2" "$3"`, "_", p, dir, exe, join(built, releaseAssetName(VERSION, p))]);
    }
    const out = join(tempDir("tfbridge-release-"), "release");
    const r = spawnSync(tsx, [join(root, "scripts/release.ts"), "--from", built, out], { encoding: "utf8" });
    expect(r.stderr).toContain(`release: 5 tarballs from ${built} and ${checksumsFileName(VERSION)} in ${out}`);
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual([...RELEASE_PLATFORMS.map((p) => releaseAssetName(VERSION, p)), checksumsFileName(VERSION)].sort());
    expect([...parseChecksums(readFileSync(join(out, checksumsFileName(VERSION)), "utf8")).keys()].sort()).toEqual(RELEASE_PLATFORMS.map((p) => releaseAssetName(VERSION, p)).sort());
    expect(execFileSync("sha256sum", ["--check", "--strict", checksumsFileName(VERSION)], { cwd: out, encoding: "utf8" }).trim().split("\n")).toHaveLength(5);
    expect(readdirSync(built).filter((f) => f.endsWith(".tar.gz"))).toHaveLength(5);
  });

  it("refuses a directory missing a platform, naming the tarball", () => {
    const built = tempDir("tfbridge-built-");
    const out = join(tempDir("tfbridge-release-"), "release");
    const r = spawnSync(tsx, [join(root, "scripts/release.ts"), "--from", built, out], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`release: ${built} has no ${releaseAssetName(VERSION, "linux-amd64")}, ${releaseAssetName(VERSION, "linux-arm64")}, `);
    expect(r.stderr).toContain("a release holds every platform's tarball");
    expect(existsSync(out)).toBe(false);
  });

  it("--platforms keeps a trial release to the platforms it names, and says it is not one to publish", () => {
    const built = tempDir("tfbridge-built-");
    const dir = join(built, "src");
    mkdirSync(dir);
    execFileSync("bash", ["-c", `printf x > "$1/pulumi-resource-terraform-provider" && tar -czf "$2" -C "$1" pulumi-resource-terraform-provider`, "_", dir, join(built, releaseAssetName(VERSION, "linux-amd64"))]);
    const out = join(tempDir("tfbridge-release-"), "release");
    const r = spawnSync(tsx, [join(root, "scripts/release.ts"), "--from", built, "--platforms", "linux-amd64", out], { encoding: "utf8" });
    expect(r.stderr).toContain("release: only linux-amd64: a trial release, not one to publish");
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual([releaseAssetName(VERSION, "linux-amd64"), checksumsFileName(VERSION)].sort());
    expect(execFileSync("sha256sum", ["--check", "--strict", checksumsFileName(VERSION)], { cwd: out, encoding: "utf8" }).trim().split("\n")).toHaveLength(1);

    const arm = spawnSync(tsx, [join(root, "scripts/release.ts"), "--platforms", "linux-amd64,linux-arm64", "--from", built, join(tempDir("tfbridge-release-"), "r")], { encoding: "utf8" });
    expect(arm.status).toBe(1);
    expect(arm.stderr).toContain(`has no ${releaseAssetName(VERSION, "linux-arm64")}, which --platforms names`);
  });

  it("refuses --platforms naming no platform Pulumi releases for", () => {
    for (const list of ["linux-x86", ",", "linux-amd64,freebsd-amd64"]) {
      const out = join(tempDir("tfbridge-release-"), "release");
      const r = spawnSync(tsx, [join(root, "scripts/release.ts"), "--platforms", list, out], { encoding: "utf8" });
      expect(r.status, list).toBe(1);
      expect(r.stderr).toContain(`release: --platforms ${JSON.stringify(list)} `);
      expect(r.stderr).toContain("give a comma-separated list of linux-amd64, linux-arm64");
      expect(existsSync(out)).toBe(false);
    }
  });

  it("refuses --from without a directory", () => {
    const r = spawnSync(tsx, [join(root, "scripts/release.ts"), "--from"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("release: --from needs the directory holding the built tarballs");
  });
});
