// Every quick-start project of the README and docs/quickstart.md, run exactly as the page shows it: each marked file
// written verbatim into a fresh folder, then each command of its `run` block in order (`package add`, `up`, a
// no-change preview, destroy), through the real Pulumi CLI and language hosts, as a newcomer would. The one change:
// the registry addresses `hashicorp/random` and `hashicorp/local` are served by a loopback registry
// (test/support/registry-server.ts) packaging the real providers built from the Go module proxy, as no other network
// is reachable. After `pulumi up` the file terraform-provider-local wrote says hello to the pet the stack exports;
// after destroy it is gone. A doc change that breaks a step fails here. Prints each step's time.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docProjects, type DocProject } from "../support/doc-projects.js";
import { goEnv, hostsMissing, javaHostMissing, javaSandbox, languageSandbox } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { expectSuccess, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

/** The order they run in: the quickest first, so a broken step shows early. */
const LANGUAGES = ["yaml", "typescript", "python", "go", "java"] as const;
const PROVIDERS = { random: "3.7.2", local: "2.5.3" } as const;
const PIP_CACHE = join(homedir(), ".cache/pulumi-tf-bridge-ts/pip");
const timingReport = new Timings("docs-quickstart");
const { timed } = timingReport;
const projects = docProjects();
/** Without the Java host (Go, a JDK or Maven missing) the Java project skips, saying why; in CI that fails instead. */
const javaMissing = javaHostMissing();

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let work: string;

/** Runs one line of a run block with sh in `cwd`, the docs' registry addresses pointed at the loopback registry. */
function shell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const rewritten = line.replace(/(^|\s)(hashicorp\/(?:random|local))(?=\s|$)/g, `$1${reg.host}/$2`);
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", rewritten], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 900_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** The environment a newcomer's shell has: the sandbox's Pulumi home, a fresh backend, the language's caches. */
function languageEnv(language: string, dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...sandbox.env, ...(language === "go" ? goEnv() : {}) };
  for (const k of Object.keys(env)) if (k.startsWith("PIP_") || k === "VIRTUAL_ENV" || k === "PYTHONPATH") delete env[k];
  mkdirSync(join(dir, "backend"));
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${join(dir, "backend")}`,
    NODE_EXTRA_CA_CERTS: reg.caFile,
    TF_CLI_CONFIG_FILE: join(work, "empty.tfrc"),
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
    PIP_CACHE_DIR: PIP_CACHE,
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
  };
}

async function walk(project: DocProject): Promise<void> {
  const dir = scratch(`tfbridge-quickstart-${project.language}-`);
  const cwd = join(dir, "project");
  mkdirSync(cwd);
  const env = languageEnv(project.language, dir);
  for (const [file, text] of project.files) {
    mkdirSync(dirname(join(cwd, file)), { recursive: true });
    writeFileSync(join(cwd, file), text);
  }
  const hello = join(cwd, "hello.txt");
  for (const line of project.run) {
    const r = await timed(`${project.language}: ${line}`, () => shell(line, cwd, env));
    expectSuccess(r, `${project.language} quick start (${project.sources.join(", ")}): \`${line}\``);
    if (/^pulumi up\b/.test(line)) {
      const name = JSON.parse(expectSuccess(await runPulumi(["stack", "output", "name", "--json"], { cwd, env }), "stack output").stdout) as string;
      expect(name).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
      expect(readFileSync(hello, "utf8")).toBe(`Hello from ${name}\n`);
    }
    if (/^pulumi preview\b/.test(line)) expect(r.stdout).not.toMatch(/[+~-]\s+\d+ to (create|update|delete|replace)/);
    if (/^pulumi destroy\b/.test(line)) expect(existsSync(hello)).toBe(false);
  }
}

beforeAll(async () => {
  if (hostsMissing()) return;
  // Java's host beside the others when it can be had (language-java.test.ts skips or fails on its own without it).
  sandbox = javaMissing ? languageSandbox() : javaSandbox();
  reg = await FakeRegistry.start({
    providers: Object.fromEntries(Object.entries(PROVIDERS).map(([type, version]) => [`hashicorp/${type}`, [{ version }]])),
    binaries: { random: peerPath("random"), local: peerPath("local") },
  });
  work = scratch("tfbridge-quickstart-");
  writeFileSync(join(work, "empty.tfrc"), "");
  mkdirSync(PIP_CACHE, { recursive: true });
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  removeScratch();
  timingReport.report();
});

describe("the docs' quick-start projects", () => {
  it("every language has a project with files and a run block that adds, ups, previews and destroys", () => {
    expect([...projects.keys()].sort()).toEqual([...LANGUAGES].sort());
    for (const p of projects.values()) {
      expect(p.files.size, p.language).toBeGreaterThan(0);
      expect(p.files.has("Pulumi.yaml"), `${p.language} has Pulumi.yaml`).toBe(true);
      expect(p.run.filter((l) => /^pulumi package add terraform-provider /.test(l)).length, p.language).toBe(2);
      for (const step of [/^pulumi up\b/, /^pulumi preview --expect-no-changes$/, /^pulumi destroy\b/]) expect(p.run.some((l) => step.test(l)), `${p.language}: ${step}`).toBe(true);
    }
  });
});

describe.skipIf(hostsMissing()).each(LANGUAGES)("%s quick start, run as written", (language) => {
  it.skipIf(language === "java" && javaMissing)("writes every file, runs every command; hello.txt is written, then gone", async () => {
    await walk(projects.get(language)!);
  }, 1_800_000);
});
