// docs/docker.md's projects (TypeScript, then YAML with its drift), run exactly as the page shows them: each file
// written verbatim into a fresh folder, each command run by sh in page order, through the real Pulumi CLI and language
// hosts with the packaged plugin, in one backend, on a Docker Engine of the test's own (test/support/docker.ts). Three
// things differ from a reader's machine, and only as the page says: the registry address `kreuzwerker/docker` is
// served by a loopback registry packaging the provider built from the Go module proxy (no other network is reachable);
// the page's socket `unix:///var/run/docker.sock` is the test engine's, also as the shell's DOCKER_HOST (for the page's
// `docker rm -f`); and `busybox:1.36` is tagged from the locally imported image before the projects run. What a page
// quotes as printed must be in what the commands before it printed; after each `up` the engine runs the container the
// stack names, after the drift's `docker rm -f` it does not, and after destroy nothing of the stack is left on it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectProjects, type DocProject } from "../support/doc-projects.js";
import { LOCAL_IMAGE, dockerMissing, startDocker, type DockerEngine } from "../support/docker.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { expectSuccess, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

const PAGE = "docs/docker.md";
const PAGE_SOCKET = "unix:///var/run/docker.sock";
const PAGE_IMAGE = "busybox:1.36";
/** The provider's release the page adds: the pinned module (test/peers/pins.json) is its v4.6.0 and later commits. */
const VERSION = "4.6.0";
const CONTAINER = "hello-web";
const timingReport = new Timings("docs-docker");
const { timed } = timingReport;
const projects = collectProjects(PAGE, readFileSync(join(repoRoot, PAGE), "utf8"));
const skip = hostsMissing() || dockerMissing();

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let engine: DockerEngine;
let work: string;

function shellEnv(): NodeJS.ProcessEnv {
  return {
    ...sandbox.env,
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    NODE_EXTRA_CA_CERTS: reg.caFile,
    TF_CLI_CONFIG_FILE: join(work, "empty.tfrc"),
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
    DOCKER_HOST: engine.host,
    DOCKER_CONFIG: join(work, "docker-cli"),
  };
}

/** The page's line with the registry address and the socket pointed at the test's. */
const rewrite = (line: string): string =>
  line.replace(/(^|\s)(kreuzwerker\/docker)(?=\s|$)/g, `$1${reg.host}/$2`).split(PAGE_SOCKET).join(engine.host);

/** Output as lines without trailing blanks, so a quote matches however the terminal padded it. */
const lines = (text: string): string => text.split("\n").map((l) => l.trimEnd()).join("\n").trim();

/** The id of the running container named CONTAINER, or undefined. */
async function runningWeb(): Promise<string | undefined> {
  const out = (await engine.docker(["ps", "--no-trunc", "--filter", `name=^${CONTAINER}$`, "--format", "{{.ID}}"])).stdout.trim();
  return out === "" ? undefined : out;
}

async function walk(project: DocProject): Promise<void> {
  const cwd = join(scratch(`tfbridge-docs-docker-${project.name}-`), "project");
  mkdirSync(cwd);
  const env = shellEnv();
  let printed = "";
  let removedBehindTheBack = false;
  for (const step of project.steps) {
    if ("file" in step) {
      mkdirSync(dirname(join(cwd, step.file)), { recursive: true });
      writeFileSync(join(cwd, step.file), step.text);
    } else if ("output" in step) {
      expect(lines(printed), `${project.name}: the output the page quotes`).toContain(lines(step.output));
      printed = "";
    } else {
      for (const line of step.run) {
        const r: RunResult = await timed(`${project.name}: ${line}`, async () => {
          const ran = await spawnAsync("sh", ["-c", rewrite(line)], { cwd, env });
          return { code: ran.status ?? -1, stdout: ran.stdout, stderr: ran.stderr };
        });
        expectSuccess(r, `${PAGE} (${project.name}): \`${line}\``);
        printed += `${r.stdout}\n${r.stderr}\n`;
        if (/^docker rm -f /.test(line)) {
          expect(await runningWeb(), "the container after docker rm -f").toBeUndefined();
          removedBehindTheBack = true;
        }
        if (/^pulumi up\b/.test(line)) {
          // The engine runs the container the stack names, on the image the page names.
          const id = JSON.parse(expectSuccess(await runPulumi(["stack", "output", "containerId", "--json"], { cwd, env }), "stack output").stdout) as string;
          expect(await runningWeb()).toBe(id);
          const image = (await engine.docker(["inspect", "--format", "{{.Config.Image}}", CONTAINER])).stdout.trim();
          expect(image).toBe((await engine.docker(["image", "inspect", "--format", "{{.Id}}", PAGE_IMAGE])).stdout.trim());
        }
        if (/^pulumi preview --expect-no-changes\b/.test(line) && removedBehindTheBack) {
          // Before the refresh the state still holds the container: the preview sees nothing to do, as the page says.
          expect(await runningWeb()).toBeUndefined();
        }
        if (/^pulumi refresh\b/.test(line)) removedBehindTheBack = false;
        if (/^pulumi destroy\b/.test(line)) {
          expect(await runningWeb()).toBeUndefined();
          const left = await engine.leftovers();
          expect({ containers: left.containers, volumes: left.volumes }).toEqual({ containers: [], volumes: [] });
          // keepLocally: the image the stack used is still on the engine.
          expect((await engine.docker(["image", "inspect", "--format", "{{.Id}}", PAGE_IMAGE])).stdout.trim()).toBe(engine.imageId);
        }
      }
    }
  }
}

beforeAll(async () => {
  if (skip) return;
  engine = await startDocker();
  await engine.docker(["tag", LOCAL_IMAGE, PAGE_IMAGE]);
  sandbox = languageSandbox();
  reg = await FakeRegistry.start({ providers: { "kreuzwerker/docker": [{ version: VERSION }] }, binaries: { docker: peerPath("docker") } });
  work = scratch("tfbridge-docs-docker-");
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "docker-cli"));
  writeFileSync(join(work, "empty.tfrc"), "");
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  await engine?.stop();
  removeScratch();
  timingReport.report();
}, 300_000);

describe.skipIf(skip).each(["docker-typescript", "docker-yaml"])("%s, run as written", (name) => {
  it("writes every file and runs every command", async () => {
    const project = projects.get(name);
    expect(project, `${PAGE} has no project ${name}`).toBeDefined();
    await walk(project!);
  }, 900_000);
});
