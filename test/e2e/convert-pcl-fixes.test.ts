// `convert`'s second half on a hand-written corpus (test/e2e/convert-corpus: a Terraform project and the PCL Pulumi's
// Terraform converter writes for it): the PCL rewritten by src/commands/pcl-fixes.ts, then `pulumi convert --from pcl`
// through the real CLI and the language hosts into TypeScript, Python and Go, each program checked as `convert` checks
// it (its repairs, then tsc, py_compile, go vet), deployed with hashicorp/local on this plugin, and compared with what `tofu apply` makes
// from the Terraform project: the same files with the same contents, the same outputs (TypeScript and Python; Go's
// generator cannot index a ranged resource), then a preview with no changes. A TypeScript program calling Terraform's
// functions gets Pulumi's std package from npm as `convert` adds it (not compiled or run: the std plugin, which code
// generation and `up` need, comes from GitHub, which these machines do not reach). Prints each step's time.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStd, pinPulumiRequirement, programProblem, repairProgram, stdImport } from "../../src/commands/convert.js";
import { fixPcl } from "../../src/commands/pcl-fixes.js";
import { pinnedProject, pythonVirtualenvRuntime, unpinProject } from "../../src/commands/pulumi-yaml.js";
import { VERSION } from "../../src/version.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { expectSuccess, runPulumi, type PulumiSandbox } from "../support/pulumi.js";
import { PULUMI_GO_SDK } from "../support/pulumi-tools.js";
import { PULUMI_PYTHON_SDK } from "../support/python.js";
import { devOverridesEnv } from "../support/terraform-cli.js";
import { Timings } from "../support/timings.js";
import { oneAtATime } from "../support/processes.js";

const CORPUS = join(repoRoot, "test/e2e/convert-corpus");
const timingReport = new Timings("convert-pcl-fixes");
const { timed } = timingReport;

let sandbox: PulumiSandbox;
let work: string;
/** What `tofu apply` wrote under out/, and its outputs. */
let tofuFiles: Record<string, string>;
let tofuOutputs: Record<string, unknown>;

/** Every file under `dir`/out, by name, with its content. */
function outFiles(dir: string): Record<string, string> {
  const out = join(dir, "out");
  return Object.fromEntries(readdirSync(out).sort().map((f) => [f, readFileSync(join(out, f), "utf8")]));
}

/** The package block the converter writes for hashicorp/local, here bound to the pinned peer binary. */
function packageBlock(): string {
  // direxists: the generated Go SDK's version of it does not compile (`return nil, err` for a bool).
  const value = Buffer.from(JSON.stringify({ local: { path: peerPath("local") }, excludes: ["direxists"] })).toString("base64");
  return `package {\n  baseProviderName    = "terraform-provider"\n  baseProviderVersion = "${VERSION}"\n  parameterization {\n    version = "0.0.0"\n    name    = "local"\n    value   = "${value}"\n  }\n}\n\n`;
}

/**
 * `convert`'s second half in `work`/`folder`: `pcl` rewritten by fixPcl behind the package block, `pulumi convert --from
 * pcl`, the project unpinned, Python given a virtual environment and `pulumi` capped, std added as `convert` adds it,
 * dependencies installed. Go generated without installing, then its SDK pinned to the tests' (whose go.sum the module
 * proxy here serves; the generator's `v3.30.0`, tidied, moves to the newest, whose dependencies it does not).
 */
async function generate(language: "typescript" | "python" | "go", folder: string, pcl: string) {
  const root = join(work, folder);
  const pclDir = join(root, "pcl");
  const outDir = join(root, "program");
  mkdirSync(pclDir, { recursive: true });
  writeFileSync(join(pclDir, "main.pp"), packageBlock() + fixPcl(pcl).text);
  const pin = `terraform-provider@${VERSION}`;
  writeFileSync(join(pclDir, "Pulumi.yaml"), pinnedProject("corpus", "terraform-provider", pin));
  const env = { ...sandbox.env };
  const pulumi = (args: string[], cwd: string) => timed(`${folder}: pulumi ${args.join(" ")}`, () => runPulumi(args, { cwd, env }));
  const python = language === "python";
  const go = language === "go";
  const converted = await oneAtATime("convert", () => pulumi(["convert", "--from", "pcl", "--language", language, "--out", outDir, ...(python || go ? ["--generate-only"] : [])], pclDir));
  expectSuccess(converted, `convert --from pcl --language ${language}`);
  if (go) {
    const mod = join(outDir, "go.mod");
    writeFileSync(mod, readFileSync(mod, "utf8").replace(/^require github\.com\/pulumi\/pulumi\/sdk\/v3 v\S+$/m, `require github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}`));
    expect(readFileSync(mod, "utf8")).toContain(PULUMI_GO_SDK);
    await timed(`${folder}: go mod tidy`, async () => execFileSync("go", ["mod", "tidy"], { cwd: outDir, env, stdio: "pipe" }));
  }
  const project = join(outDir, "Pulumi.yaml");
  let yaml = unpinProject(readFileSync(project, "utf8"), "terraform-provider", pin, project)!;
  if (python) {
    yaml = pythonVirtualenvRuntime(yaml, project)!;
    writeFileSync(join(outDir, "requirements.txt"), pinPulumiRequirement(readFileSync(join(outDir, "requirements.txt"), "utf8"), PULUMI_PYTHON_SDK)!);
  }
  writeFileSync(project, yaml);
  const std: string[] = [];
  const stdAdded = await timed(`${folder}: std`, () => addStd(language, outDir, false, env, (line) => std.push(line)));
  if (python) expectSuccess(await pulumi(["install"], outDir), "pulumi install");
  return { outDir, pulumi, env, std, stdAdded };
}

const camel = (s: string): string => s.replace(/_([a-z])/g, (_all, c: string) => c.toUpperCase());

beforeAll(async () => {
  if (hostsMissing()) return;
  sandbox = languageSandbox();
  work = scratch("tfbridge-convert-pcl-");
  const tf = join(work, "terraform");
  mkdirSync(tf);
  for (const f of ["main.tf", "outputs.tf"]) cpSync(join(CORPUS, f), join(tf, f));
  const env = devOverridesEnv(work, { "hashicorp/local": "local" });
  const tofu = (args: string[]): string => execFileSync(join(repoRoot, ".peers/tofu"), [...args, "-no-color"], { cwd: tf, env, encoding: "utf8" });
  await timed("tofu apply", async () => tofu(["apply", "-auto-approve"]));
  tofuFiles = outFiles(tf);
  const outputs = JSON.parse(tofu(["output", "-json"])) as Record<string, { value: unknown }>;
  tofuOutputs = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [camel(k), v.value]));
}, 600_000);

afterAll(() => {
  sandbox?.cleanup();
  removeScratch();
  timingReport.report();
});

describe.skipIf(hostsMissing())("the converter's PCL, rewritten, into programs that do what `tofu apply` does", () => {
  it("tofu made what the corpus is about: a set's instances keyed by element, a map's by key, count per index", () => {
    expect(Object.keys(tofuFiles)).toEqual(["color-blue.txt", "color-red.txt", "direct-blue.txt", "direct-red.txt", "motd.txt", "swatch-blue.txt", "swatch-red.txt", "worker-0.txt", "worker-1.txt"]);
    const workers = tofuOutputs["workerContents"] as string[];
    expect(workers[0]).toMatch(/^worker 0 after [0-9a-f]{40}\n$/);
    expect(workers[1]).toMatch(/^worker 1 after [0-9a-f]{40}\n$/);
  });

  it("the rewrites are the ones the corpus needs", () => {
    const fixed = fixPcl(readFileSync(join(CORPUS, "main.pp"), "utf8"));
    expect(fixed.notes).toEqual([
      "colorSet: toset(…) is a map keyed by its values (no std call), so that for_each over it keys instances by element",
      "swatch: for_each over palette loops over its keys, not over list positions",
    ]);
  });

  for (const language of ["typescript", "python", "go"] as const) {
    it(`${language}: compiles, deploys the files tofu makes${language === "go" ? "" : " with its outputs"}, then previews clean`, async () => {
      const pcl = readFileSync(join(CORPUS, "main.pp"), "utf8") + (language === "go" ? "" : readFileSync(join(CORPUS, "outputs.pp"), "utf8"));
      const { outDir, pulumi, env } = await generate(language, language, pcl);
      const go = language === "go";
      const python = language === "python";
      const repairs: string[] = [];
      repairProgram(language, outDir, (line) => repairs.push(line));
      // Go's generator reads a list variable with a call that does not compile; the others need no repair here.
      expect(repairs).toEqual(go ? ['convert: main.go: colors: read from configuration with cfg.GetObject("colors", &colors) (the generated call does not compile)'] : []);
      const problem = await timed(`${language}: compile check`, () => programProblem(language, outDir, env));
      expect(problem, "the program compiles").toBeUndefined();
      expect(existsSync(join(outDir, language === "go" ? "go.mod" : python ? "venv" : "node_modules")), "its dependencies are installed, so the check ran").toBe(true);

      expectSuccess(await pulumi(["stack", "init", `corpus-${language}`], outDir), "stack init");
      expectSuccess(await pulumi(["up", "--yes", "--skip-preview"], outDir), "pulumi up");
      expect(outFiles(outDir)).toEqual(tofuFiles);
      if (language !== "go") {
        const outputs = JSON.parse(expectSuccess(await pulumi(["stack", "output", "--json"], outDir), "stack output").stdout) as Record<string, unknown>;
        expect(outputs).toEqual(tofuOutputs);
      }
      expectSuccess(await pulumi(["preview", "--expect-no-changes"], outDir), "preview --expect-no-changes");
    }, 1_200_000);
  }

  it("TypeScript: a program calling Terraform's functions gets Pulumi's std package from the npm registry", async () => {
    // As the converter writes `content = upper("hello")`. The std plugin itself is not installed here (Pulumi downloads
    // it from GitHub): the code generated without its schema does not type-check, so only the install is checked.
    const pcl = 'resource "shout" "local:index/file:File" {\n  filename = "out/shout.txt"\n  content = invoke("std:index:upper", {\n    input = "hello"\n  }).result\n}\n';
    const { outDir, std, stdAdded } = await generate("typescript", "std-typescript", pcl);
    expect(stdImport("typescript", outDir)).toBe("@pulumi/std");
    expect(stdAdded, std.join("\n")).toBe(true);
    expect(std).toEqual(["convert: @pulumi/std installed (npm install @pulumi/std): the program calls Pulumi's std package (@pulumi/std) for Terraform's functions"]);
    expect(JSON.parse(readFileSync(join(outDir, "package.json"), "utf8")).dependencies).toHaveProperty(["@pulumi/std"]);
    expect(existsSync(join(outDir, "node_modules", "@pulumi", "std", "package.json"))).toBe(true);
  }, 600_000);
});
