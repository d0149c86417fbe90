// `adopt --language` for TypeScript, Python and Go through their real language hosts: one OpenTofu apply over the
// real local and random peers (count, for_each, a module, a sensitive input), then for each language a project laid
// out as `pulumi new` lays it out, its SDKs from `pulumi package add terraform-provider <peer>`, the state adopted,
// the code adopt wrote as the program, and `pulumi preview --expect-no-changes`.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goEnv, hostsMissing, languageSandbox, typescriptProject } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { execAsync } from "../support/processes.js";
import { expectSuccess, runPulumi, type PulumiSandbox } from "../support/pulumi.js";
import { devOverridesEnv } from "../support/terraform-cli.js";
import { PULUMI_GO_SDK } from "../support/pulumi-tools.js";
import { PULUMI_PYTHON_SDK } from "../support/python.js";
import { VERSION } from "../../src/version.js";
import { ADOPT_ADDRESSES, ADOPT_CONFIG, writeAdoptProject } from "../support/adopt-project.js";


let sandbox: PulumiSandbox;
let root: string;
let state: string;
const timings: Record<string, number> = {};

async function timed<T>(what: string, f: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await f();
  } finally {
    timings[what] = (Date.now() - t0) / 1000;
  }
}

/** In `dir`: a stack, the two packages, adopt, the adopted program file put in place of `program`, and a clean preview. */
async function adoptInto(dir: string, env: NodeJS.ProcessEnv, language: string, program: string, beforePreview?: () => Promise<void>): Promise<string> {
  const ok = async (args: string[]) => expectSuccess(await runPulumi(args, { cwd: dir, env, timeoutMs: 900_000 }), `pulumi ${args.join(" ")} in ${dir}`);
  await ok(["stack", "init", "dev"]);
  // Go: Pulumi's Go generator writes `return nil, err` for local's direxists (a bool), so that SDK does not compile
  // (language-go.test.ts); the package leaves the function out.
  const localArgs = language === "go" ? ["--", peerPath("local"), "--exclude", "direxists"] : [peerPath("local")];
  for (const [peer, args] of [["random", [peerPath("random")]], ["local", localArgs]] as const) await timed(`${language}: package add ${peer}`, () => ok(["package", "add", "terraform-provider", ...args]));
  const adopted = await timed(`${language}: adopt`, () => ok(["plugin", "run", "--kind", "resource", `terraform-provider@${VERSION}`, "--", "adopt", "--language", language, "--out", "adopted", state]));
  expect([...adopted.stdout.matchAll(/^adopted (.+) as /gm)].map((m) => m[1]).sort()).toEqual([...ADOPT_ADDRESSES].sort());
  const code = readFileSync(join(dir, "adopted", program), "utf8");
  // The sensitive input is read from secret configuration, not written.
  const pw = (JSON.parse(readFileSync(state, "utf8")) as { resources: { type: string; instances: { attributes: Record<string, unknown> }[] }[] }).resources.find((r) => r.type === "random_password")!.instances[0]!.attributes["result"];
  expect(code).not.toContain(String(pw));
  copyFileSync(join(dir, "adopted", program), join(dir, program));
  await beforePreview?.();
  await timed(`${language}: preview`, () => ok(["preview", "--expect-no-changes"]));
  return code;
}

describe.skipIf(hostsMissing())("adopt writes TypeScript, Python and Go that preview with no changes", () => {
  beforeAll(() => {
    sandbox = languageSandbox();
    root = scratch("tfbridge-adopt-languages-");
    const infra = join(root, "infra");
    writeAdoptProject(infra, ADOPT_CONFIG);
    const tfEnv = devOverridesEnv(root, { "hashicorp/local": "local", "hashicorp/random": "random" });
    const tofu = (args: string[]) => execFileSync(join(repoRoot, ".peers/tofu"), [...args, "-no-color"], { cwd: infra, env: tfEnv, encoding: "utf8" });
    tofu(["get"]);
    tofu(["apply", "-auto-approve"]);
    state = join(infra, "terraform.tfstate");
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
    console.log(`adopt languages: ${JSON.stringify(timings)}`);
  });

  it("TypeScript", async () => {
    const dir = join(root, "ts");
    mkdirSync(dir);
    typescriptProject(dir, "adopted-ts", 'import * as pulumi from "@pulumi/pulumi";\n');
    const env = { ...sandbox.env };
    await timed("typescript: npm install", () => execAsync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, env }));
    const code = await adoptInto(dir, env, "typescript", "index.ts");
    expect(code).toContain('import * as local from "@pulumi/local"');
  }, 1_200_000);

  it("Python", async () => {
    const dir = join(root, "py");
    mkdirSync(dir);
    writeFileSync(join(dir, "Pulumi.yaml"), "name: adopted-py\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n");
    writeFileSync(join(dir, "requirements.txt"), `pulumi==${PULUMI_PYTHON_SDK}\n`);
    writeFileSync(join(dir, "__main__.py"), "import pulumi\n");
    const cache = join(homedir(), ".cache/pulumi-tf-bridge-ts/pip");
    mkdirSync(cache, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...sandbox.env, PIP_CACHE_DIR: cache, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
    for (const k of ["VIRTUAL_ENV", "PYTHONPATH"]) delete env[k];
    await timed("python: pulumi install", async () => expectSuccess(await runPulumi(["install"], { cwd: dir, env, timeoutMs: 900_000 }), "pulumi install"));
    const code = await adoptInto(dir, env, "python", "__main__.py");
    expect(code).toContain("import pulumi_local as local");
  }, 1_200_000);

  it("Go", async () => {
    const dir = join(root, "go");
    mkdirSync(dir);
    writeFileSync(join(dir, "Pulumi.yaml"), "name: adopted-go\nruntime: go\n");
    writeFileSync(join(dir, "go.mod"), `module adopted\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}\n`);
    writeFileSync(join(dir, "main.go"), 'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error { return nil })\n}\n');
    const env: NodeJS.ProcessEnv = { ...sandbox.env, ...goEnv() };
    await timed("go: go mod tidy", () => execAsync("go", ["mod", "tidy"], { cwd: dir, env }));
    await adoptInto(dir, env, "go", "main.go", async () => {
      await timed("go: go mod tidy (program)", () => execAsync("go", ["mod", "tidy"], { cwd: dir, env }));
    });
  }, 1_200_000);
});
