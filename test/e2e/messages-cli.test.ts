// What users see through the real Pulumi CLI (a YAML project, local providers). Pulumi's Go terraform-provider and
// this plugin share the plugin name: with a higher version of it installed (the reference binary, installed as v1.1.3,
// the Go implementation's newest release), `pulumi package add terraform-provider` without a version runs that one,
// silently; `terraform-provider@<ours>` runs this plugin, which warns about the other and names that command.
// `-- --help` prints the usage as plain text; a local provider moved after `package add` names the package add to run.
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { peerPath, referenceBin } from "../support/peers.js";
import { expectSuccess, runPulumi, tempDir } from "../support/pulumi.js";

const sandbox = e2eSandbox();
let work: string;
let project: string;

beforeAll(async () => {
  expectSuccess(await runPulumi(["plugin", "install", "resource", "terraform-provider", "1.1.3", "--file", referenceBin()], { env: sandbox.env }), "installing the reference as 1.1.3");
  work = tempDir("tfbridge-e2e-plugin-name-");
  project = join(work, "project");
  mkdirSync(project);
}, 1_200_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function packageAdd(plugin: string): Promise<{ out: string; yaml: string }> {
  writeFileSync(join(project, "Pulumi.yaml"), "name: pluginname\nruntime: yaml\n");
  rmSync(join(project, "sdks"), { recursive: true, force: true });
  const r = expectSuccess(await runPulumi(["package", "add", plugin, peerPath("random")], { cwd: project, env: sandbox.env, timeoutMs: 600_000 }), `package add ${plugin}`);
  return { out: (r.stdout + r.stderr).replace(/\s+/g, " "), yaml: readFileSync(join(project, "Pulumi.yaml"), "utf8") };
}

describe("two terraform-provider plugins installed", () => {
  it("lists both", async () => {
    const ls = expectSuccess(await runPulumi(["plugin", "ls"], { cwd: project, env: sandbox.env }), "plugin ls").stdout;
    expect(ls).toMatch(/terraform-provider\s+resource\s+1\.1\.3/);
    expect(ls).toMatch(new RegExp(`terraform-provider\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));
  });

  it("package add without a version runs the higher one, and nothing warns", async () => {
    const { out, yaml } = await packageAdd("terraform-provider");
    expect(yaml).toContain("source: terraform-provider\n    version: 1.1.3\n");
    expect(out).not.toContain("is installed too");
  }, 600_000);

  it("package add terraform-provider@<ours> runs this plugin, which names the other and the command", async () => {
    const { out, yaml } = await packageAdd(`terraform-provider@${VERSION}`);
    expect(yaml).toContain(`source: terraform-provider\n    version: ${VERSION}\n`);
    expect(out).toContain(`terraform-provider v1.1.3 (${join(sandbox.home, "plugins", "resource-terraform-provider-v1.1.3")}) is installed too`);
    expect(out).toContain(`\`pulumi package add terraform-provider@${VERSION} …\``);
  }, 600_000);
});

describe("messages through the CLI", () => {
  it("-- --help prints the usage as plain text, then one error line saying nothing was added", async () => {
    writeFileSync(join(project, "Pulumi.yaml"), "name: pluginname\nruntime: yaml\n");
    const r = await runPulumi(["package", "add", `terraform-provider@${VERSION}`, "--", "--help"], { cwd: project, env: sandbox.env, timeoutMs: 600_000 });
    expect(r.code).not.toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/^Usage: pulumi package add terraform-provider <provider>/m);
    expect(out).not.toMatch(/error:.*Usage:/);
    expect(out).toMatch(/^error: .*the usage is shown above \(--help\); nothing was added$/m);
  }, 600_000);

  it("a local provider moved after package add: preview names the recorded path and the package add for the new one", async () => {
    const dir = join(work, "bin");
    mkdirSync(dir, { recursive: true });
    const binary = join(dir, "terraform-provider-random");
    copyFileSync(peerPath("random"), binary);
    writeFileSync(join(project, "Pulumi.yaml"), "name: pluginname\nruntime: yaml\n");
    rmSync(join(project, "sdks"), { recursive: true, force: true });
    expectSuccess(await runPulumi(["package", "add", `terraform-provider@${VERSION}`, binary], { cwd: project, env: sandbox.env, timeoutMs: 600_000 }), "package add");
    writeFileSync(join(project, "Pulumi.yaml"), `${readFileSync(join(project, "Pulumi.yaml"), "utf8")}resources:\n  pet:\n    type: random:index/pet:Pet\n`);
    expectSuccess(await runPulumi(["stack", "init", "moved"], { cwd: project, env: sandbox.env }), "stack init");
    renameSync(binary, `${binary}.moved`);
    const r = await runPulumi(["preview"], { cwd: project, env: sandbox.env, timeoutMs: 600_000 });
    expect(r.code).not.toBe(0);
    const out = (r.stdout + r.stderr).replace(/\s+/g, " ");
    expect(out).toContain(`Terraform provider binary not found: ${binary}. The package's SDK (or the packages: entry of Pulumi.yaml) was generated for that path`);
    expect(out).toContain("`pulumi package add terraform-provider <new dir>/terraform-provider-random`");
  }, 600_000);
});
