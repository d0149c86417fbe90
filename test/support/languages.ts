// Pulumi's language hosts for end-to-end tests in TypeScript, Python, Go and Java (and .NET's, for its code generator), and
// the sandboxes they run in.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { packagedNode, sandboxWithPlugin } from "./e2e.js";
import { repoRoot } from "./peers.js";
import { toolMissing } from "./tool-missing.js";
import { pulumiBinDir, type PulumiSandbox } from "./pulumi.js";
import { PULUMI_NODE_SDK } from "./pulumi-tools.js";

export type LanguageHosts = { dir: string; whose?: string } | { missing: string };

let hosts: LanguageHosts | undefined;

/**
 * The folder holding pulumi-language-nodejs, -python and -go, from scripts/build-language-hosts.sh: Pulumi's own on
 * PATH, else the project's own (test/peers/pulumi/langhost, built and cached; TF_BRIDGE_OWN_HOSTS=1 forces them), else
 * a reason naming what is missing, for the tests that need them to skip with. `whose` says which ran.
 */
export function languageHosts(): LanguageHosts {
  if (hosts !== undefined) return hosts;
  const r = spawnSync("bash", [join(repoRoot, "scripts/build-language-hosts.sh")], { encoding: "utf8" });
  if (r.status === 0) {
    const lines = r.stdout.trim().split("\n");
    hosts = { dir: lines.pop()!, whose: lines.pop() ?? "" };
  }
  else if (r.status === 3) hosts = { missing: r.stderr.trim() };
  else throw new Error(`scripts/build-language-hosts.sh failed (${r.status}):\n${r.stderr}`);
  return hosts;
}

/**
 * True (and the reason printed) when the language hosts cannot be had here: `describe.skipIf(hostsMissing())`. In CI
 * (`CI` set and not `false`/`0`) a missing host throws instead, failing the run: a checkout that cannot run the
 * language tests must not pass with them skipped.
 */
export function hostsMissing(env: NodeJS.ProcessEnv = process.env, hostsOf: () => LanguageHosts = languageHosts): boolean {
  return skipUnlessCi("the language tests", hostsOf(), env);
}

/** A missing host skips its tests (the reason printed), except in CI, where it throws (tool-missing.ts). */
function skipUnlessCi(tests: string, h: LanguageHosts, env: NodeJS.ProcessEnv): boolean {
  return toolMissing("missing" in h ? h.missing : undefined, { tests, install: "bash .ci/run, which builds and installs every host" }, env);
}

const builtHosts = new Map<string, LanguageHosts>();

/**
 * A language host a scripts/build-*-host.sh script provides (cached): the folder on its last line, or, when it exits 3,
 * the reason it names (what is missing to build or run it). Run once per script and process.
 */
function hostFromScript(script: string): LanguageHosts {
  let host = builtHosts.get(script);
  if (host !== undefined) return host;
  const r = spawnSync("bash", [join(repoRoot, script)], { encoding: "utf8" });
  if (r.status === 0) host = { dir: r.stdout.trim().split("\n").pop()! };
  else if (r.status === 3) host = { missing: r.stderr.trim() };
  else throw new Error(`${script} failed (${r.status}):\n${r.stderr}`);
  builtHosts.set(script, host);
  return host;
}

/**
 * The folder holding pulumi-language-java v1.34.0, built by scripts/build-java-host.sh (cached), else a reason naming
 * what is missing (Go to build it; Java and Maven, which it runs programs with).
 */
export function javaHost(): LanguageHosts {
  return hostFromScript("scripts/build-java-host.sh");
}

/** hostsMissing() for the Java host: skips (saying why) outside CI, throws in CI. */
export function javaHostMissing(env: NodeJS.ProcessEnv = process.env, hostOf: () => LanguageHosts = javaHost): boolean {
  return skipUnlessCi("the Java tests", hostOf(), env);
}

/**
 * The folder holding pulumi-language-dotnet v3.110.0, built by scripts/build-dotnet-host.sh (cached), else a reason
 * naming what is missing (Go to build it). Only its code generator is used: no .NET SDK is needed.
 */
export function dotnetHost(): LanguageHosts {
  return hostFromScript("scripts/build-dotnet-host.sh");
}

/** hostsMissing() for the .NET host: skips (saying why) outside CI, throws in CI. */
export function dotnetHostMissing(env: NodeJS.ProcessEnv = process.env, hostOf: () => LanguageHosts = dotnetHost): boolean {
  return skipUnlessCi("the C# tests", hostOf(), env);
}


/**
 * A Pulumi sandbox with our packaged plugin installed and the language hosts on PATH right after the CLI's own folder,
 * as a normal Pulumi install has them (the CLI warns "using pulumi-language-X from $PATH", as expected). Ambient
 * plugins cannot be switched off here (PULUMI_IGNORE_AMBIENT_PLUGINS would hide the hosts too), so no
 * pulumi-resource-terraform-provider may be on the test's PATH: that would win over the installed plugin.
 */
export function languageSandbox(): PulumiSandbox {
  const h = languageHosts();
  if ("missing" in h) throw new Error(h.missing);
  const sandbox = sandboxWithPlugin();
  sandbox.env["PATH"] = [pulumiBinDir(), ...languagePath(h.dir), sandbox.env["PATH"] ?? ""].join(":");
  const ambient = spawnSync("sh", ["-c", "command -v pulumi-resource-terraform-provider"], { env: sandbox.env, encoding: "utf8" }).stdout.trim();
  if (ambient !== "") throw new Error(`${ambient} is on PATH and would be run instead of the installed plugin; remove it from PATH for the tests`);
  return sandbox;
}

/**
 * What goes on PATH right after the CLI's folder for programs to run: the hosts' folder, then the folder of the Node.js
 * that the Node.js host runs TypeScript programs with. @pulumi/pulumi 3.249 and later require Node.js 22 or newer (their
 * package.json `engines`) and the tests themselves run on Node.js 20, so programs (and npm, run by `pulumi install`)
 * get the Node 24 that scripts/package.sh builds the plugin from, as a user of a current Pulumi has a current Node.js.
 */
export function languagePath(hostsDir: string): string[] {
  return [hostsDir, dirname(packagedNode().bin)];
}

/** languageSandbox() with pulumi-language-java on PATH beside the other hosts. */
export function javaSandbox(): PulumiSandbox {
  const h = javaHost();
  if ("missing" in h) throw new Error(h.missing);
  const sandbox = languageSandbox();
  const path = (sandbox.env["PATH"] ?? "").split(":");
  path.splice(path.indexOf((languageHosts() as { dir: string }).dir) + 1, 0, h.dir);
  sandbox.env["PATH"] = path.join(":");
  // The Java host (v1.34.0) sends mvn's stdout and stderr on one gRPC stream from two goroutines; mvn at log level
  // warn writes nothing but an ANSI reset to both as it exits, both writes become the stream's first Send at once,
  // and the race fails `package add` and `pulumi install` with "transport: SendHeader called multiple times".
  // Jansi's `noreset` leaves both pipes empty.
  sandbox.env["MAVEN_OPTS"] = [sandbox.env["MAVEN_OPTS"], "-Djansi.noreset=true"].filter(Boolean).join(" ");
  return sandbox;
}

/** The Go toolchain's module cache and build cache, shared with the machine so Go programs build in seconds. */
export function goEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ["GOMODCACHE", "GOCACHE", "GOPATH"]) {
    env[key] = execFileSync("go", ["env", key], { encoding: "utf8" }).trim();
  }
  return env;
}

/**
 * Writes the files `pulumi new typescript` writes into `dir` (Pulumi.yaml with `runtime: nodejs`, package.json,
 * tsconfig.json) and `program` as index.ts, with @pulumi/pulumi pinned to PULUMI_NODE_SDK (the hosts'; the engine is newer), and
 * `dependencies` (e.g. `{"@pulumi/random": "file:sdks/random"}`) beside it.
 */
export function typescriptProject(dir: string, name: string, program: string, dependencies: Record<string, string> = {}): void {
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\ndescription: A TypeScript program using Terraform providers\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n`);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      { name, main: "index.ts", devDependencies: { "@types/node": "^20", typescript: "^5.9.0" }, dependencies: { "@pulumi/pulumi": PULUMI_NODE_SDK, ...dependencies } },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          outDir: "bin",
          target: "es2020",
          module: "commonjs",
          moduleResolution: "node",
          sourceMap: true,
          experimentalDecorators: true,
          pretty: true,
          noFallthroughCasesInSwitch: true,
          noImplicitReturns: true,
          forceConsistentCasingInFileNames: true,
        },
        files: ["index.ts"],
      },
      null,
      4,
    ),
  );
  writeFileSync(join(dir, "index.ts"), program);
}
