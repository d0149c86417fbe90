// Golden schemas of every real peer: regenerated and compared, then fed to Pulumi's own SDK generators and compilers.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { goldenPeers, goldenSchema } from "../support/golden.js";
import { repoRoot } from "../support/peers.js";
import { pulumiBin, sdkDeps } from "../support/pulumi-tools.js";

let bin = "";
let nodeModules = "";
const out = mkdtempSync(join(tmpdir(), "tfbridge-sdk-"));

beforeAll(() => {
  bin = pulumiBin();
  nodeModules = sdkDeps();
}, 900_000);

function gensdk(name: string, language: string): { dir: string; stderr: string } {
  const dir = join(out, name, language);
  const r = spawnSync(join(bin, "pulumi-gensdk"), ["-schema", join(repoRoot, "test/golden", `${name}.schema.json`), "-language", language, "-out", dir], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return { dir, stderr: r.stderr };
}

describe.each(goldenPeers)("golden schema: %s", (name) => {
  it("matches the committed golden (regenerate with `npx tsx scripts/update-goldens.ts` and review the diff)", async () => {
    const golden = JSON.parse(readFileSync(join(repoRoot, "test/golden", `${name}.schema.json`), "utf8")) as unknown;
    expect(await goldenSchema(name)).toEqual(golden);
  });

  it("binds in Pulumi's schema checker with no diagnostics and generates nodejs, python and go SDKs", () => {
    for (const language of ["nodejs", "python", "go"]) {
      const { stderr } = gensdk(name, language);
      expect(stderr, `${language} diagnostics`).toBe("");
    }
  });

  it("the generated TypeScript SDK compiles with tsc, and the python SDK byte-compiles", () => {
    const { dir } = gensdk(name, "nodejs");
    symlinkSync(nodeModules, join(dir, "node_modules"));
    const tsc = spawnSync(join(nodeModules, ".bin/tsc"), ["-p", dir], { encoding: "utf8" });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const py = gensdk(name, "python");
    execFileSync("python3", ["-m", "compileall", "-q", py.dir]);
  });
});
