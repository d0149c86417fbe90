// Every project the user docs show (test/support/doc-projects.ts: the README's and docs/quickstart.md's quick starts in
// TypeScript, Python, Go, Java and YAML, docs/import.md's import, docs/upgrading.md's Go upgrade across a major
// version), run exactly as the page shows it: files and commands in page order, each file written verbatim into a fresh
// folder, each command run by sh (`package add`, `up`, `import`, a no-change preview, destroy), through the real Pulumi
// CLI and language hosts, as a newcomer would: one after the other in ONE backend, as a reader trying several pages
// keeps theirs, so two projects whose stacks collide fail here. What a page quotes as printed (a `<!-- project <name>
// output -->` block) must be in what the commands before it printed. The one change:
// the registry addresses `hashicorp/random` and `hashicorp/local` are served by a loopback registry
// (test/support/registry-server.ts) packaging the real providers built from the Go module proxy, as no other network
// is reachable. After `pulumi up` the file terraform-provider-local wrote says hello to the pet the stack exports;
// every later `up` keeps that pet; after `pulumi import` the stack holds each resource named; after destroy the file
// and the outputs are gone. A doc change
// that breaks a step fails here. Prints each step's time.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docProjects, QUICKSTART_LANGUAGES, TASK_PROJECTS, type DocProject } from "../support/doc-projects.js";
import { goEnv, hostsMissing, javaHostMissing, javaSandbox, languageSandbox } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { expectSuccess, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

/** The versions the pages add (the loopback registry serves the one real binary of each under every version). */
const PROVIDERS = { random: ["3.7.2", "4.0.0"], local: ["2.5.3"] } as const;
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
async function shell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const rewritten = line.replace(/(^|\s)(hashicorp\/(?:random|local))(?=\s|$)/g, `$1${reg.host}/$2`);
  const r = await spawnAsync("sh", ["-c", rewritten], { cwd, env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The environment a newcomer's shell has: the sandbox's Pulumi home, the one backend every project shares, the language's caches. */
function languageEnv(name: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...sandbox.env, ...(/(^|-)go$/.test(name) ? goEnv() : {}) };
  for (const k of Object.keys(env)) if (k.startsWith("PIP_") || k === "VIRTUAL_ENV" || k === "PYTHONPATH") delete env[k];
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    NODE_EXTRA_CA_CERTS: reg.caFile,
    TF_CLI_CONFIG_FILE: join(work, "empty.tfrc"),
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
    PIP_CACHE_DIR: PIP_CACHE,
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
  };
}

/** The resources a `pulumi import` line adopts, by name: from its arguments, or from the `--file` it names. */
function importsOf(line: string, cwd: string): { name: string }[] {
  const args = line.split(/\s+/).slice(2).filter((a) => a !== "--yes");
  const file = args.indexOf("--file");
  if (file >= 0) return (JSON.parse(readFileSync(join(cwd, args[file + 1]!), "utf8")) as { resources: { name: string }[] }).resources;
  return [{ name: args[1]! }];
}

async function walk(project: DocProject): Promise<void> {
  const dir = scratch(`tfbridge-quickstart-${project.name}-`);
  const cwd = join(dir, "project");
  mkdirSync(cwd);
  const env = languageEnv(project.name);
  const hello = join(cwd, "hello.txt");
  const names: string[] = [];
  /** What the commands since the last quoted output printed. */
  let printed = "";
  for (const step of project.steps) {
    if ("file" in step) {
      mkdirSync(dirname(join(cwd, step.file)), { recursive: true });
      writeFileSync(join(cwd, step.file), step.text);
    } else if ("output" in step) {
      expect(lines(printed), `${project.name}: the output the page quotes`).toContain(lines(step.output));
      printed = "";
    } else {
      for (const line of step.run) {
        const r = await runStep(project, line, cwd, env, hello, names);
        printed += `${r.stdout}\n${r.stderr}\n`;
      }
    }
  }
  // What the Go toolchain resolved: the SDK modules and the Pulumi SDK version the page pinned.
  if (existsSync(join(cwd, "go.mod"))) console.log(`[docs-quickstart] ${project.name}: go.mod at the end:\n${readFileSync(join(cwd, "go.mod"), "utf8")}`);
}

/** Output as lines without trailing blanks, so a quote matches however the terminal padded it. */
const lines = (text: string): string => text.split("\n").map((l) => l.trimEnd()).join("\n").trim();

/** One command of a run block, and what it must have done. */
async function runStep(project: DocProject, line: string, cwd: string, env: NodeJS.ProcessEnv, hello: string, names: string[]): Promise<RunResult> {
  const r = await timed(`${project.name}: ${line}`, () => shell(line, cwd, env));
  expectSuccess(r, `${project.name} (${project.sources.join(", ")}): \`${line}\``);
  if (/^pulumi import\b/.test(line)) {
    const { deployment } = JSON.parse(expectSuccess(await runPulumi(["stack", "export"], { cwd, env }), "stack export").stdout) as { deployment: { resources?: { urn: string; id?: string }[] } };
    // The stored id is the provider's own after import (random_integer `15,1,50` stores `15`), so the check is that
    // each named resource is in the stack with one.
    for (const { name } of importsOf(line, cwd)) expect(deployment.resources?.find((res) => res.urn.endsWith(`::${name}`))?.id, `${name} imported`).toMatch(/./);
  }
  if (/^pulumi up\b/.test(line)) {
    // Each project exports the pet's name; a later `up` (after an upgrade) keeps the same pet.
    const name = JSON.parse(expectSuccess(await runPulumi(["stack", "output", "name", "--json"], { cwd, env }), "stack output").stdout) as string;
    expect(name).toMatch(/^[a-z]+(-[a-z]+)+$/);
    if (names.length > 0) expect(name, "the pet kept across ups").toBe(names[0]);
    names.push(name);
    if ((QUICKSTART_LANGUAGES as readonly string[]).includes(project.name)) expect(readFileSync(hello, "utf8")).toBe(`Hello from ${name}\n`);
  }
  if (/^pulumi preview\b/.test(line)) expect(r.stdout).not.toMatch(/[+~-]\s+\d+ to (create|update|delete|replace)/);
  if (/^pulumi destroy\b/.test(line)) {
    expect(existsSync(hello)).toBe(false);
    expect(JSON.parse(expectSuccess(await runPulumi(["stack", "output", "--json"], { cwd, env }), "stack output").stdout)).toEqual({});
  }
  return r;
}

beforeAll(async () => {
  if (hostsMissing()) return;
  // Java's host beside the others when it can be had (language-java.test.ts skips or fails on its own without it).
  sandbox = javaMissing ? languageSandbox() : javaSandbox();
  reg = await FakeRegistry.start({
    providers: Object.fromEntries(Object.entries(PROVIDERS).map(([type, versions]) => [`hashicorp/${type}`, versions.map((version) => ({ version }))])),
    binaries: { random: peerPath("random"), local: peerPath("local") },
  });
  work = scratch("tfbridge-quickstart-");
  mkdirSync(join(work, "backend"));
  writeFileSync(join(work, "empty.tfrc"), "");
  mkdirSync(PIP_CACHE, { recursive: true });
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  removeScratch();
  timingReport.report();
});

describe.skipIf(hostsMissing()).each([...QUICKSTART_LANGUAGES, ...TASK_PROJECTS])("%s, run as written", (name) => {
  it.skipIf(name === "java" && javaMissing)("writes every file and runs every command", async () => {
    await walk(projects.get(name)!);
  }, 1_800_000);
});
