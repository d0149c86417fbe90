// Scenario projects for the lifecycle tests with the real Pulumi CLI: YAML projects whose program lives in Main.yaml
// (Pulumi.yaml keeps what `pulumi package add` wrote), stack exports, preview steps, and TypeScript SDKs and programs.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../../src/version.js";
import type { ExportedResource } from "./e2e.js";
import { peerPath } from "./peers.js";
import { languageHosts } from "./languages.js";
import { PULUMI_NODE_SDK, sdkDeps } from "./pulumi-tools.js";
import { expectSuccess, pulumiBinDir, runPulumi, tempDir, type PulumiSandbox, type RunResult } from "./pulumi.js";

export interface Deployment {
  resources?: ExportedResource[];
  pending_operations?: unknown[];
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
  newState?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
}

export interface PreviewJson {
  steps?: PreviewStep[];
  diagnostics?: { message: string; severity: string; urn?: string }[];
  changeSummary?: Record<string, number>;
}

const scratchDirs: string[] = [];

/** A temporary directory removed by removeScratch(). */
export function scratch(prefix: string): string {
  const d = tempDir(prefix);
  scratchDirs.push(d);
  return d;
}

/** Removes every directory scratch() made (afterAll). */
export function removeScratch(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The secret envelope of a state file: `{<sig>: <secret sig>, ciphertext}` (or `plaintext` in exports with --show-secrets). */
/**
 * Our plugin's own stack frames, which must never reach the user: the packaged bundle (dist/boot.cjs running
 * dist/plugin.cjs), the sources in a checkout, or the bridge's class in any form.
 */
export const OUR_STACK = /(?:plugin|boot)\.cjs:\d+|src\/(bridge|server)\/\w+\.ts:\d+|at TerraformBridge\./;

export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

export function isSecretEnvelope(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** The `sdks/<name>` folder and `packages:` entry `pulumi package add` writes, made once per peer and sandbox. */
const packageTemplates = new Map<string, Promise<string>>();

async function packageTemplate(sandbox: PulumiSandbox, peer: string): Promise<string> {
  const key = `${sandbox.home}\0${peer}`;
  let made = packageTemplates.get(key);
  if (made === undefined) {
    made = (async () => {
      const dir = scratch(`tfbridge-pkg-${peer}-`);
      writeFileSync(join(dir, "Pulumi.yaml"), `name: pkg-${peer}\nruntime: yaml\n`);
      expectSuccess(await runPulumi(["package", "add", "terraform-provider", peerPath(peer)], { cwd: dir, env: sandbox.env }), `pulumi package add ${peer}`);
      return dir;
    })();
    packageTemplates.set(key, made);
  }
  return made;
}

/** A YAML project on its own stack `dev`; the program is Main.yaml, which Pulumi YAML reads beside Pulumi.yaml. */
export class YamlScenario {
  private constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * A project using the given peers as packages. The first project of a sandbox runs the real `pulumi package add`
   * for each peer; later ones copy what it wrote (the `packages:` entry and `sdks/<peer>`), which is all it writes.
   */
  static async create(sandbox: PulumiSandbox, name: string, peers: string[], env: Record<string, string> = {}): Promise<YamlScenario> {
    const dir = scratch(`tfbridge-${name}-`);
    const packages: string[] = [];
    for (const peer of peers) {
      const template = await packageTemplate(sandbox, peer);
      cpSync(join(template, "sdks", peer), join(dir, "sdks", peer), { recursive: true });
      packages.push(`  ${peer}:\n    source: terraform-provider\n    version: ${VERSION}\n    parameters:\n      - ${peerPath(peer)}\n`);
    }
    writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: yaml\npackages:\n${packages.join("")}`);
    writeFileSync(join(dir, "Main.yaml"), "resources: {}\n");
    const scenario = new YamlScenario(dir, { ...sandbox.env, ...env });
    await scenario.ok(["stack", "init", "dev"]);
    return scenario;
  }

  /** Runs `pulumi ARGS` in the project; never throws. */
  pulumi(args: string[], timeoutMs?: number): Promise<RunResult> {
    return runPulumi(args, { cwd: this.dir, env: this.env, timeoutMs });
  }

  /** Runs `pulumi ARGS` and throws with its whole output unless it exits 0. */
  async ok(args: string[], timeoutMs?: number): Promise<RunResult> {
    return expectSuccess(await this.pulumi(args, timeoutMs), `pulumi ${args.join(" ")} in ${this.dir}`);
  }

  /** Replaces the program (Main.yaml). */
  program(text: string): void {
    writeFileSync(join(this.dir, "Main.yaml"), text.endsWith("\n") ? text : `${text}\n`);
  }

  up(): Promise<RunResult> {
    return this.ok(["up", "--yes", "--skip-preview"]);
  }

  /** `pulumi preview --json`; fails the test when the preview fails. */
  async preview(extra: string[] = []): Promise<PreviewJson> {
    const r = await this.ok(["preview", "--json", ...extra]);
    return JSON.parse(r.stdout) as PreviewJson;
  }

  /** The step of the resource named `name` in a preview. */
  static step(preview: PreviewJson, name: string): PreviewStep | undefined {
    return preview.steps?.find((s) => s.urn.endsWith(`::${name}`));
  }

  /** The operation planned for `name`; `preview --json` leaves unchanged resources out, which is "same". */
  static op(preview: PreviewJson, name: string): string {
    return YamlScenario.step(preview, name)?.op ?? "same";
  }

  async deployment(showSecrets = false): Promise<Deployment> {
    const r = await this.ok(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])]);
    return (JSON.parse(r.stdout) as { deployment: Deployment }).deployment;
  }

  /** The raw text of `pulumi stack export` (to prove a secret is nowhere in it). */
  async exportText(): Promise<string> {
    return (await this.ok(["stack", "export"])).stdout;
  }

  /** The custom resource named `name` in the stack's state, if any. */
  async resource(name: string): Promise<ExportedResource | undefined> {
    return (await this.deployment()).resources?.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
  }

  /** Custom resources in state, providers excluded. */
  async resourceNames(): Promise<string[]> {
    const all = (await this.deployment()).resources ?? [];
    return all.filter((r) => r.custom === true && !r.type.startsWith("pulumi:providers:")).map((r) => r.urn.split("::").pop()!).sort();
  }

  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const r = await this.ok(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])]);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }
}

/** The resources section of code `pulumi import --out` generated, minus `resources:` and `options:`, to paste into a program. */
export function importedResources(generated: string): string {
  const lines = generated.split("\n");
  const start = lines.findIndex((l) => l.trim() === "resources:");
  const body = lines.slice(start + 1);
  const out: string[] = [];
  let skipping = false;
  for (const line of body) {
    if (/^\S/.test(line)) break;
    if (/^ {4}options:\s*$/.test(line)) {
      skipping = true;
      continue;
    }
    if (skipping && /^ {6}/.test(line)) continue;
    skipping = false;
    if (line.trim() !== "") out.push(line);
  }
  return out.join("\n");
}

// ---- TypeScript programs ----

/**
 * `env` with Pulumi's language hosts on PATH right after the CLI's folder (languageHosts(): the user's own, else built
 * from ../shared), for `pulumi package gen-sdk`; throws naming what to install when there are none.
 */
export function withLanguageHosts(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const hosts = languageHosts();
  if ("missing" in hosts) throw new Error(`pulumi package gen-sdk needs the language hosts: ${hosts.missing}`);
  return { ...env, PATH: [pulumiBinDir(), hosts.dir, env["PATH"] ?? ""].join(":") };
}

/**
 * The lines of gen-sdk's output that are diagnostics about the package. Left out: the hosts come from PATH (the CLI says
 * so), the closing "SDK has been written", and one warning that is Pulumi's own: the CLI hands the bound package to the
 * language host as JSON, writing the provider reference `#/provider` of the `terraformConfig` method's `__self__` as
 * `#/resources/pulumi:providers:<name>`, and the host binds that again and warns it is deprecated (our schemas say
 * `#/provider`, as test/golden shows; a schema file given to gen-sdk warns alike).
 */
export function genSdkDiagnostics(output: string): string[] {
  return output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .filter((l) => !/^warning: using pulumi-language-\w+ from \$PATH at /.test(l))
    .filter((l) => !/^warning: <nil>: #\/functions\/pulumi:providers:\w+%2FterraformConfig\/inputs\/properties\/__self__\/\$ref: reference to provider resource '\/resources\/pulumi:providers:\w+' is deprecated, use '#\/provider' instead;$/.test(l))
    .filter((l) => !/^SDK has been written to /.test(l));
}

/**
 * `pulumi package gen-sdk <source> --language nodejs` (source: `terraform-provider <peer path>`, answered by the plugin
 * the sandbox has installed, or a schema file) through the real Node.js language host, then the generated package
 * compiled with tsc against @pulumi/pulumi 3.248.0. Returns the SDK folder (sources, package.json, bin/ with the
 * compiled code and a copy of package.json, the published layout) and its package.json.
 */
export function generateNodeSdk(source: string[], dir: string, env: NodeJS.ProcessEnv): { sdk: string; pkg: Record<string, unknown> } {
  const out = join(dir, "gen");
  const args = ["--non-interactive", "package", "gen-sdk", ...source, "--language", "nodejs", "--out", out];
  const r = spawnSync(join(pulumiBinDir(), "pulumi"), args, { cwd: dir, env: withLanguageHosts(env), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  const sdk = join(out, "nodejs");
  const pkgFile = join(sdk, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { dependencies: Record<string, string> };
  // @pulumi/pulumi 3.249+ needs Node 22; the engine and SDK here are 3.248.0.
  pkg.dependencies["@pulumi/pulumi"] = PULUMI_NODE_SDK;
  writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  symlinkSync(sdkDeps(), join(sdk, "node_modules"));
  execFileSync(join(sdk, "node_modules", ".bin", "tsc"), [], { cwd: sdk, stdio: ["ignore", "inherit", "inherit"] });
  // The published layout: the SDK reads its parameterization from the package.json beside its code.
  writeFileSync(join(sdk, "bin", "package.json"), readFileSync(pkgFile));
  return { sdk, pkg };
}

/**
 * Generates a TypeScript SDK for a peer with `pulumi package gen-sdk terraform-provider <peer>` (our plugin as the
 * sandbox has it installed answers, the Node.js language host generates; the hosts are put on PATH here, so any
 * sandbox will do), compiles it with tsc, and returns the compiled package folder (bin/ with package.json).
 */
export async function nodeSdk(sandbox: PulumiSandbox, peer: string): Promise<string> {
  const dir = scratch(`tfbridge-sdk-${peer}-`);
  const { sdk } = generateNodeSdk(["terraform-provider", peerPath(peer)], dir, sandbox.env);
  return join(sdk, "bin");
}

/**
 * A TypeScript program (an Automation API driver with an inline program) compiled against @pulumi/pulumi 3.248.0 and
 * the given SDKs (`{"@pulumi/bridgetest": <nodeSdk dir>}`). Returns a runner: `node bin/index.js ARGS` with the
 * sandbox's environment; the program prints one JSON line last, which the runner parses.
 */
export function typescriptProgram(source: string, sdks: Record<string, string>): { dir: string; run(args: string[], env: NodeJS.ProcessEnv): Promise<unknown> } {
  const dir = scratch("tfbridge-tsprog-");
  const deps = sdkDeps();
  mkdirSync(join(dir, "node_modules", "@pulumi"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(join(deps, "@pulumi", "pulumi"), join(dir, "node_modules", "@pulumi", "pulumi"));
  symlinkSync(join(deps, "@types", "node"), join(dir, "node_modules", "@types", "node"));
  for (const [name, path] of Object.entries(sdks)) {
    const target = join(dir, "node_modules", ...name.split("/"));
    mkdirSync(join(target, ".."), { recursive: true });
    if (!existsSync(target)) symlinkSync(path, target);
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2020", module: "commonjs", strict: true, esModuleInterop: true, skipLibCheck: true, types: ["node"], outDir: "bin" },
      files: ["index.ts"],
    }),
  );
  writeFileSync(join(dir, "index.ts"), source);
  execFileSync(join(deps, ".bin", "tsc"), ["-p", dir], { stdio: ["ignore", "inherit", "inherit"] });
  return {
    dir,
    // Asynchronous: a deployment takes seconds, and the test worker must keep answering the runner meanwhile.
    run: (args, env) =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [join(dir, "bin", "index.js"), ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
        child.once("error", reject);
        child.once("close", (code) => {
          clearTimeout(timer);
          const last = stdout.trim().split("\n").pop() ?? "";
          try {
            if (code !== 0) throw new Error(`exited ${code}`);
            resolve(JSON.parse(last) as unknown);
          } catch (e) {
            reject(new Error(`TypeScript program ${args.join(" ")}: ${(e as Error).message}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
          }
        });
      }),
  };
}
