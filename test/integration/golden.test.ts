// Golden schemas of every real peer: regenerated and compared, then fed to the real `pulumi package gen-sdk` (Pulumi's
// Node.js, Python and Go language hosts) as schema files. gen-sdk.test.ts compiles the SDKs of the live schemas strictly.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goldenPeers, goldenSchema } from "../support/golden.js";
import { hostsMissing } from "../support/languages.js";
import { genSdkDiagnostics, removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { repoRoot } from "../support/peers.js";
import { sdkDeps } from "../support/pulumi-tools.js";
import { runPulumi } from "../support/pulumi.js";

afterAll(() => removeScratch());

describe.each(goldenPeers)("golden schema: %s", (name) => {
  const file = join(repoRoot, "test/golden", `${name}.schema.json`);

  it("matches the committed golden (regenerate with `npx tsx scripts/update-goldens.ts` and review the diff)", async () => {
    const golden = JSON.parse(readFileSync(file, "utf8")) as unknown;
    expect(await goldenSchema(name)).toEqual(golden);
  });

  it.skipIf(hostsMissing())("binds in Pulumi's schema checker with no diagnostics and `pulumi package gen-sdk` writes nodejs, python and go SDKs; TypeScript compiles, Python byte-compiles", async () => {
    const dir = scratch(`tfbridge-golden-${name}-`);
    // Generating from a file asks no plugin: a Pulumi home of its own, the language hosts on PATH.
    const env = withLanguageHosts({ ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" });
    for (const language of ["nodejs", "python", "go"]) {
      const r = await runPulumi(["package", "gen-sdk", file, "--language", language, "--out", join(dir, "sdk")], { cwd: dir, env });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(genSdkDiagnostics(r.stdout + "\n" + r.stderr), `${language} diagnostics`).toEqual([]);
    }
    expect(existsSync(join(dir, "sdk", "go", "go.mod"))).toBe(true);
    // The registry-shaped metadata of the goldens (gen-sdk.test.ts has the local shape): the TypeScript SDK compiles
    // with its own tsconfig, the Python one byte-compiles.
    const nodejs = join(dir, "sdk", "nodejs");
    symlinkSync(sdkDeps(), join(nodejs, "node_modules"));
    const tsc = spawnSync(join(nodejs, "node_modules", ".bin", "tsc"), ["-p", nodejs], { encoding: "utf8" });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    execFileSync("python3", ["-m", "compileall", "-q", join(dir, "sdk", "python", `pulumi_${name}`)]);
  }, 120_000);
});
