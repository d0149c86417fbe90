// docs/moving-from-terraform.md's conversions, run exactly as the page shows them: each Terraform project's files
// written verbatim into a folder `shop`, each command run by sh in page order (a `cd` line moves the later ones), through
// the real Pulumi CLI and language hosts, with the packaged plugin installed. The Terraform converter is Pulumi's where
// one is installed (on PATH or in Pulumi's plugin folder), else the project's stand-in that replays what Pulumi's wrote
// for these very projects (test/peers/pulumi/converter, ../shared/converter-recordings; scripts/build-converter.sh
// chooses, and the test prints and checks which ran). With the stand-in the test covers everything after the converter
// (retargeting, code generation, the programs running), not the converter. No public network here: registry.terraform.io
// and registry.opentofu.org, which the plugin downloads from (and answers the converter's version questions from, through
// the registry stand-in `convert` gives the converter), are the loopback registry (test/support/registry-server.ts) reached through test/support/host-tunnel.ts (HTTPS_PROXY),
// its CA trusted by Go (SSL_CERT_FILE) and Node (NODE_EXTRA_CA_CERTS). Beside the plugin a stand-in for Pulumi's Go
// implementation is installed as terraform-provider 0.8.1 (the reference build, behind a script that logs each start):
// no `up` or `preview` may start it. After `pulumi up` the files are those the Terraform code describes, and the outputs are theirs;
// the page's `pulumi preview --expect-no-changes` fails on any change. Prints each step's time.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectProjects, type DocProject } from "../support/doc-projects.js";
import { startHostTunnel, type HostTunnel } from "../support/host-tunnel.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath, referenceBin, repoRoot } from "../support/peers.js";
import { oneAtATime, spawnAsync } from "../support/processes.js";
import { expectSuccess, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";
import { Timings } from "../support/timings.js";

const PAGE = "docs/moving-from-terraform.md";
const REGISTRIES = ["registry.terraform.io", "registry.opentofu.org"];
const timingReport = new Timings("docs-convert");
const { timed } = timingReport;
const projects = collectProjects(PAGE, readFileSync(join(repoRoot, PAGE), "utf8"));

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let tunnel: HostTunnel;
let work: string;
let converterDir: string;
/** Whose converter runs, as scripts/build-converter.sh says: Pulumi's, or the stand-in replaying recordings. */
let converterWhose: string;
const standIn = (): boolean => /stand-in/.test(converterWhose);
/** The stand-in's recordings, passed to it explicitly (its built-in default is the same folder). */
const RECORDINGS = process.env["PULUMI_CONVERTER_RECORDINGS"] ?? join(repoRoot, "..", "shared", "converter-recordings");
/** The line the stand-in writes on each replay (the CLI shows a converter's standard error). */
const REPLAYED = /stand-in for Pulumi's Terraform converter: replayed recording (\S+)/;
let goBridgeLog: string;
/** The system's CAs and the fake registry's: Go (the converter, the CLI) and pip's truststore read SSL_CERT_FILE. */
let caBundle: string;
const SYSTEM_CAS = "/etc/ssl/certs/ca-certificates.crt";

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");
const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

/** A newcomer's shell: the sandbox's Pulumi home and one backend, the converter on PATH, the registries' stand-ins. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...sandbox.env };
  for (const k of Object.keys(env)) if (k.startsWith("PIP_") || k === "VIRTUAL_ENV" || k === "PYTHONPATH") delete env[k];
  // The CLI with automatic downloads on, as a user has it: the convert command itself must keep the Go 0.8.1 away.
  delete env["PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION"];
  return {
    ...env,
    PATH: `${converterDir}:${env["PATH"] ?? ""}`,
    ...(standIn() ? { PULUMI_CONVERTER_RECORDINGS: RECORDINGS } : {}),
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    HTTPS_PROXY: tunnel.url,
    SSL_CERT_FILE: caBundle,
    NODE_EXTRA_CA_CERTS: reg.caFile,
    TF_CLI_CONFIG_FILE: join(work, "empty.tfrc"),
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "provider-cache"),
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
  };
}

/** Runs a project's steps as the page orders them, from a folder `shop`; returns the folder the last `cd` went to. */
async function walk(project: DocProject, check: (line: string, cwd: string, r: RunResult) => Promise<void>): Promise<void> {
  const root = scratch(`tfbridge-convert-${project.name}-`);
  let cwd = join(root, "shop");
  mkdirSync(cwd);
  const env = shellEnv();
  for (const step of project.steps) {
    if ("file" in step) writeFileSync(join(cwd, step.file), step.text);
    else if ("run" in step) {
      for (const line of step.run) {
        const cd = /^cd (\S+)$/.exec(line);
        if (cd) {
          cwd = resolve(cwd, cd[1]!);
          continue;
        }
        const started = goBridgeStarts();
        const run = async (): Promise<RunResult> => {
          const ran = await spawnAsync("sh", ["-c", line], { cwd, env });
          return { code: ran.status ?? -1, stdout: ran.stdout, stderr: ran.stderr };
        };
        // A conversion installs its program's packages; two at once across test files hung under load.
        const r = await timed(`${project.name}: ${line}`, () => (/ convert /.test(line) ? oneAtATime("convert", run) : run()));
        expectSuccess(r, `${PAGE} (${project.name}): \`${line}\` in ${cwd}`);
        if (/^pulumi plugin run .* convert /.test(line)) expectConverter(r);
        // The program runs on this plugin: the Go implementation never starts for it. (Converting may start it: Pulumi's
        // mapper asks the highest installed terraform-provider for mappings.)
        if (/^pulumi (up|preview)\b/.test(line)) expect(goBridgeStarts(), `the Go implementation 0.8.1 started during \`${line}\``).toBe(started);
        await check(line, cwd, r);
      }
      // Each run block starts again from the Terraform project.
      cwd = join(root, "shop");
    }
  }
}

/** The converter that ran for a convert step is the one chosen: the CLI names the binary it found on PATH. */
function expectConverter(r: RunResult): void {
  const out = `${r.stdout}\n${r.stderr}`;
  expect(out).toContain(`using pulumi-converter-terraform from $PATH at ${join(converterDir, "pulumi-converter-terraform")}`);
  const replayed = REPLAYED.exec(out);
  if (standIn()) {
    expect(replayed, "the stand-in did not say it replayed a recording").not.toBeNull();
    console.log(`docs-convert: the converter's PCL replayed from recording ${replayed![1]}`);
  } else expect(replayed, "Pulumi's converter ran, yet a stand-in's replay line is in the output").toBeNull();
}

/** How many times the Go implementation's stand-in has started. */
const goBridgeStarts = (): number => (existsSync(goBridgeLog) ? readFileSync(goBridgeLog, "utf8").split("\n").filter((l) => l !== "").length : 0);

/** The stack's outputs in `cwd`. */
async function outputs(cwd: string): Promise<Record<string, unknown>> {
  return JSON.parse(expectSuccess(await runPulumi(["stack", "output", "--json", "--show-secrets"], { cwd, env: shellEnv() }), "stack output").stdout) as Record<string, unknown>;
}

const read = (cwd: string, file: string): string => readFileSync(join(cwd, file), "utf8");

beforeAll(async () => {
  if (hostsMissing()) return;
  const converter = execFileSync("bash", [join(repoRoot, "scripts/build-converter.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim().split("\n");
  converterDir = converter.pop()!;
  converterWhose = converter.pop() ?? "";
  console.log(`docs-convert: ${converterWhose} (${converterDir})`);
  sandbox = languageSandbox();
  work = scratch("tfbridge-convert-");
  mkdirSync(join(work, "backend"));
  writeFileSync(join(work, "empty.tfrc"), "");
  reg = await FakeRegistry.start({ providers: { "hashicorp/local": [{ version: "2.4.1" }, { version: "2.5.3" }] }, binaries: { local: peerPath("local") }, hostnames: REGISTRIES });
  caBundle = join(work, "ca-bundle.pem");
  writeFileSync(caBundle, `${existsSync(SYSTEM_CAS) ? readFileSync(SYSTEM_CAS, "utf8") : ""}\n${readFileSync(reg.caFile, "utf8")}`);
  const port = Number(reg.host.split(":")[1]);
  tunnel = await startHostTunnel(Object.fromEntries(REGISTRIES.map((h) => [h, port])));
  // The Go implementation 0.8.1, installed as `pulumi plugin install` would: the reference build behind a logging script.
  const go = join(work, "go-bridge");
  mkdirSync(go);
  goBridgeLog = join(work, "go-bridge.log");
  copyFileSync(referenceBin(), join(go, "reference-bin"));
  writeFileSync(join(go, "pulumi-resource-terraform-provider"), `#!/bin/sh\necho "started $*" >> '${goBridgeLog}'\nexec "$(dirname "$0")/reference-bin" "$@"\n`);
  chmodSync(join(go, "pulumi-resource-terraform-provider"), 0o755);
  execFileSync("tar", ["-czf", join(work, "go-bridge.tgz"), "-C", go, "."]);
  expectSuccess(await runPulumi(["plugin", "install", "resource", "terraform-provider", "0.8.1", "--file", join(work, "go-bridge.tgz")], { env: sandbox.env }), "installing the Go bridge's stand-in as 0.8.1");
}, 1_200_000);

afterAll(async () => {
  await tunnel?.stop();
  await reg?.stop();
  sandbox?.cleanup();
  removeScratch();
  timingReport.report();
});

describe.skipIf(hostsMissing())(`${PAGE}, run as written`, () => {
  it("the page has the projects this test expects", () => {
    expect([...projects.keys()].sort()).toEqual(["terraform", "terraform-yaml"]);
  });

  it("TypeScript and Python: loops, variables, a data source and outputs, deployed, then no changes", async () => {
    const project = projects.get("terraform")!;
    let converted = 0;
    await walk(project, async (line, cwd, r) => {
      if (/^pulumi plugin run .* convert /.test(line)) {
        converted++;
        // The pin the command adds for SDK generation is gone from the converted project; the SDK is this plugin's.
        const out = join(cwd, /--out (\S+)/.exec(line)![1]!);
        expect(read(out, "Pulumi.yaml")).not.toContain("terraform-provider");
        // Python: the `pulumi` package is capped at the release of the language host that generated the SDK (newer
        // ones may lack what that generator's code calls); the SDK's own requirement sets the floor, so pip takes the
        // newest the index serves up to the cap.
        if (/--language python\b/.test(line)) {
          const version = execFileSync(join(out, "venv", "bin", "python"), ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"], { encoding: "utf8" });
          const host = /convert: pulumi<=(\d+\.\d+\.\d+) in requirements\.txt/.exec(r.stdout + r.stderr)?.[1];
          expect(host, "the command names the Python host's release it capped pulumi at").toBeDefined();
          expect(read(out, "requirements.txt").split("\n")).toContain(`pulumi<=${host!}`);
          const numbers = (v: string) => v.split(".").map(Number);
          const [installed, cap] = [numbers(version.trim()), numbers(host!)];
          const atMost = installed.findIndex((n, i) => n !== cap[i]);
          expect(atMost === -1 || installed[atMost]! < cap[atMost]!, `pulumi ${version.trim()} installed, capped at ${host!}`).toBe(true);
        }
      }
      if (!/^pulumi up\b/.test(line)) return;
      const banner = read(cwd, "banner.txt");
      const files: Record<string, string> = {
        "out/api.conf": "name=shop-staging-api\nport=8080\n",
        "out/web.conf": "name=shop-staging-web\nport=3000\n",
        "out/worker-0.conf": "worker 0 of shop-staging\n",
        "out/worker-1.conf": "worker 1 of shop-staging\n",
        "out/motd.txt": `${banner}(staging)\n`,
        "out/secrets.env": "API_TOKEN=staging-token\n",
      };
      for (const [file, content] of Object.entries(files)) expect(read(cwd, file), file).toBe(content);
      expect(readdirSync(join(cwd, "out")).sort()).toEqual(Object.keys(files).map((f) => f.slice(4)).sort());
      expect(await outputs(cwd)).toEqual({
        serviceFiles: { api: "out/api.conf", web: "out/web.conf" },
        workerIds: [sha1(files["out/worker-0.conf"]!), sha1(files["out/worker-1.conf"]!)],
        bannerSha256: sha256(banner),
      });
    });
    expect(converted).toBe(2);
  }, 1_800_000);

  it("YAML: a project without loops, deployed, then no changes", async () => {
    await walk(projects.get("terraform-yaml")!, async (line, cwd) => {
      if (!/^pulumi up\b/.test(line)) return;
      const motd = `${read(cwd, "banner.txt")}(staging)\n`;
      expect(read(cwd, "out/motd.txt")).toBe(motd);
      expect(read(cwd, "out/secrets.env")).toBe("API_TOKEN=staging-token\n");
      expect(await outputs(cwd)).toEqual({ motdId: sha1(motd), bannerSha256: sha256(read(cwd, "banner.txt")) });
    });
    // The registries were asked by name, through the tunnel: by Pulumi's converter for versions, and by the plugin for
    // the provider it downloads (the only asker when the stand-in replays).
    expect(tunnel.connects.filter((c) => REGISTRIES.some((h) => c === `${h}:443`)).length).toBeGreaterThan(0);
  }, 1_800_000);
});
