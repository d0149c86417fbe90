// `pulumi-resource-terraform-provider convert …` (run as `pulumi plugin run --kind resource terraform-provider@<v> --
// convert …`): a Terraform project converted to a Pulumi program that runs on this plugin, through Pulumi's own
// `pulumi convert` twice, because Pulumi's Terraform converter writes a fixed version of the Go bridge (0.8.1) as the
// base provider of every provider it bridges, and code generation then asks for that version, not this plugin's.
// Neither step may pick Pulumi's Go implementation, which has the same plugin name: the first runs with automatic
// plugin downloads off (it would fetch the Go v0.8.1 the converter names), and the second generates each SDK from this
// plugin by name and version (a `packages` remap in the project it converts from, removed from the result). The
// first step's converter reaches no registry: its version questions are answered on loopback (registry-proxy.ts) from
// what this plugin's installer sees, so a conversion works wherever `pulumi up` could install the providers.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join, resolve } from "node:path";
import { formatAddress, type ProviderAddress } from "../acquire/address.js";
import { pulumiHome } from "../acquire/cache.js";
import { redactText } from "../acquire/redact.js";
import { installableVersions } from "../acquire/remote.js";
import { VERSION } from "../version.js";
import { onInterrupt, stopWithChildren } from "./interrupt.js";
import { fixPcl } from "./pcl-fixes.js";
import { goConfigObjects, renameCollidingConfig } from "./program-fixes.js";
import { registryHosts, startRegistryProxy } from "./registry-proxy.js";
import { runPulumi, runTracked } from "./pulumi-cli.js";
import { pinnedProject, pythonVirtualenvRuntime, unpinProject } from "./pulumi-yaml.js";
import { UsageError } from "./usage.js";

/** What `convert` was asked for. */
export interface ConvertArgs {
  language: string;
  out: string;
  name?: string;
  strict: boolean;
  generateOnly: boolean;
  mappings: string[];
  /** After `--`: the Terraform converter's own arguments. */
  converterArgs: string[];
}

export const CONVERT_USAGE =
  `usage: pulumi plugin run --kind resource terraform-provider@${VERSION} -- convert --language <typescript|python|go|csharp|java|yaml> ` +
  "[--out DIR] [--name NAME] [--strict] [--generate-only] [--mappings FILE]... [-- <converter arguments>]\n" +
  "Converts the Terraform project in the current directory, as `pulumi convert --from terraform` does, into a program whose " +
  `Terraform providers run on this plugin (terraform-provider ${VERSION}).`;

/** Parses `convert`'s arguments (argv after `convert`): `pulumi convert`'s flags that make sense for a Terraform source. */
export function parseConvertArgs(argv: readonly string[]): ConvertArgs {
  const out: ConvertArgs = { language: "", out: ".", strict: false, generateOnly: false, mappings: [], converterArgs: [] };
  const dashes = argv.indexOf("--");
  const own = dashes < 0 ? argv : argv.slice(0, dashes);
  if (dashes >= 0) out.converterArgs = argv.slice(dashes + 1);
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unexpected argument '${arg}' (the Terraform project is the current directory; converter arguments go after --)\n${CONVERT_USAGE}`);
    const flag = m[1]!;
    if (flag === "strict" || flag === "generate-only") {
      if (m[2] !== undefined && m[2] !== "true" && m[2] !== "false") throw new UsageError(`--${flag} takes no value or true/false, not '${m[2]}'`);
      const on = m[2] !== "false";
      if (flag === "strict") out.strict = on;
      else out.generateOnly = on;
      continue;
    }
    if (!["language", "out", "name", "mappings", "from"].includes(flag)) throw new UsageError(`unknown flag --${flag}\n${CONVERT_USAGE}`);
    const value = m[2] ?? own[++i];
    if (value === undefined || value === "") throw new UsageError(`--${flag} needs a value\n${CONVERT_USAGE}`);
    switch (flag) {
      case "language":
        out.language = value;
        break;
      case "out":
        out.out = value;
        break;
      case "name":
        out.name = value;
        break;
      case "mappings":
        out.mappings.push(...value.split(","));
        break;
      default:
        if (!/^(terraform|tf)$/i.test(value)) throw new UsageError(`--from ${value}: this command converts Terraform projects only; for other sources run \`pulumi convert --from ${value}\``);
    }
  }
  if (out.language === "") throw new UsageError(`--language is required\n${CONVERT_USAGE}`);
  if (/^(pcl|pulumi)$/i.test(out.language)) throw new UsageError(`--language ${out.language}: PCL is what \`pulumi convert --from terraform --language pcl\` writes; this command exists to go past it`);
  return out;
}

/**
 * Sets the base provider version of every `package` block bridged through `terraform-provider` in a PCL source to
 * `version`, leaving other packages (Pulumi's native ones) alone. Returns the new text and how many blocks it changed.
 */
export function retargetPackageBlocks(pcl: string, version: string): { text: string; changed: number } {
  let changed = 0;
  // hclwrite writes a package block as `package <label> {` … `}` at the start of a line, attributes one per line.
  const text = pcl.replace(/^package\b[^{\n]*\{\n[\s\S]*?^\}/gm, (block) => {
    if (!/^\s*baseProviderName\s*=\s*"terraform-provider"\s*$/m.test(block)) return block;
    return block.replace(/^(\s*baseProviderVersion\s*=\s*)"[^"]*"/m, (_all, lead: string) => {
      changed++;
      return `${lead}${JSON.stringify(version)}`;
    });
  });
  return { text, changed };
}

/** Every .pp file under `dir`. */
function pclFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return pclFiles(path);
    return e.name.endsWith(".pp") ? [path] : [];
  });
}

/** The `packages` entry that pins SDK generation to this plugin, as Pulumi writes it back into the converted project. */
const PIN = { name: "terraform-provider", reference: `terraform-provider@${VERSION}` };

function unpin(file: string, log: (line: string) => void): void {
  const text = existsSync(file) ? unpinProject(readFileSync(file, "utf8"), PIN.name, PIN.reference, file) : undefined;
  if (text === undefined) log(`convert: ${file} does not hold the line \`${PIN.name}: ${PIN.reference}\` this command added under packages:; remove it if it is there`);
  else writeFileSync(file, text);
}

/**
 * The version of the Python language host in `pulumi about --json` (the host the CLI runs for this project: on PATH,
 * else beside the CLI), when it is a release (x.y.z).
 */
export function pythonHostVersion(aboutJson: string): string | undefined {
  let about: unknown;
  try {
    about = JSON.parse(aboutJson);
  } catch {
    return undefined;
  }
  const plugins: unknown = typeof about === "object" && about !== null ? (about as Record<string, unknown>)["plugins"] : undefined;
  if (!Array.isArray(plugins)) return undefined;
  const host = (plugins as unknown[]).find((p): p is Record<string, unknown> => typeof p === "object" && p !== null && (p as Record<string, unknown>)["kind"] === "language" && (p as Record<string, unknown>)["name"] === "python");
  const version = typeof host?.["version"] === "string" ? host["version"].replace(/^v/, "") : "";
  return /^\d+\.\d+\.\d+$/.test(version) ? version : undefined;
}

/**
 * Caps the `pulumi` requirement of a requirements.txt at `version` (`pulumi<=version`), whatever range it had; the
 * generated SDK's own requirement gives the floor. Returns undefined when the file names no `pulumi` requirement.
 */
export function pinPulumiRequirement(requirements: string, version: string): string | undefined {
  const requirement = /^pulumi(?![\w.-])[ \t]*(?:[<>=!~].*)?$/i;
  const lines = requirements.split("\n");
  if (!lines.some((l) => requirement.test(l))) return undefined;
  return lines.map((l) => (requirement.test(l) ? `pulumi<=${version}` : l)).join("\n");
}

/**
 * Python: the SDK Pulumi generates calls into the `pulumi` package of its generator's release, but the program's
 * requirements.txt asks only for `pulumi>=3.0.0,<4.0.0`, so pip installs the newest, which may lack what that code
 * calls (the v3.248 generator's `pulumi.runtime.settings._sync_monitor_supports_parameterization` is gone from 3.258).
 * The requirement is capped at the release of the language host that generated the SDK, as `pulumi about` names it:
 * a cap rather than an exact pin, since the SDK's own requirement sets the floor it needs, and a host may be newer than
 * the newest `pulumi` the package index in use serves.
 */
async function pinPythonSdk(outDir: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const file = join(outDir, "requirements.txt");
  const about = await runPulumi(["about", "--json"], { cwd: outDir, env });
  const version = about.code === 0 ? pythonHostVersion(about.stdout) : undefined;
  if (version === undefined) {
    log(`convert: \`pulumi about\` in ${outDir} names no released Python language host (exit ${about.code}); ${file} is left as Pulumi wrote it: cap \`pulumi\` there at the release of your Python language host (\`pulumi<=X.Y.Z\`) if \`pulumi up\` fails in the generated SDK\n${about.stderr.trim()}`);
    return;
  }
  const text = existsSync(file) ? pinPulumiRequirement(readFileSync(file, "utf8"), version) : undefined;
  if (text === undefined) {
    log(`convert: ${file} has no \`pulumi\` requirement; add \`pulumi<=${version}\` (the release of the language host that generated the SDK)`);
    return;
  }
  writeFileSync(file, text);
  log(`convert: pulumi<=${version} in requirements.txt, the release of the Python language host that generated the SDK`);
}

/**
 * Whether a Pulumi plugin is installed (its `<kind>-<name>-v…` folder in the plugin directory, not one still being
 * written) or its executable is on PATH, where Pulumi also looks.
 */
function pluginPresent(env: NodeJS.ProcessEnv, kind: "converter" | "resource", name: string): boolean {
  const onPath = (env["PATH"] ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, `pulumi-${kind}-${name}`)));
  if (onPath) return true;
  const installed = new RegExp(`^${kind}-${name}-v\\d`);
  try {
    return readdirSync(join(pulumiHome(env), "plugins")).some((n) => installed.test(n) && !n.endsWith(".partial") && !n.endsWith(".lock"));
  } catch {
    return false;
  }
}

/** Whether Pulumi's Terraform converter is installed, or on PATH (where `pulumi convert` also looks). */
const converterPresent = (env: NodeJS.ProcessEnv): boolean => pluginPresent(env, "converter", "terraform");

/** Whether Pulumi's `std` resource plugin is installed (or on PATH), whose schema code generation needs for std calls. */
const stdPluginPresent = (env: NodeJS.ProcessEnv): boolean => pluginPresent(env, "resource", "std");

/**
 * When the PCL calls Pulumi's `std` package (Terraform's functions), its plugin must be installed before code is
 * generated: without its schema the generators still write the calls, but wrongly (TypeScript reads `.result` off a
 * promise), and `pulumi install` of a Python program fetches it anyway. Installs it (`pulumi plugin install resource
 * std`) unless present or downloads are off; false, with what is missing and how to install it, when it is not there.
 */
export async function ensureStdPlugin(pcl: readonly string[], cwd: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  if (!pcl.some((text) => text.includes('invoke("std:index:'))) return true;
  if (stdPluginPresent(env)) return true;
  const install = "pulumi plugin install resource std";
  if (!downloadsOff(env)) {
    const code = (await runPulumi(["plugin", "install", "resource", "std"], { cwd, env, inherit: true })).code;
    if (code === 0 && stdPluginPresent(env)) return true;
    log(`convert: \`${install}\` failed (exit ${code})`);
  }
  log(`convert: the Terraform project calls functions that become Pulumi's std package, whose plugin is not installed: run \`${install}\` (on a machine without access to its download server: \`${install} <version> --file <pulumi-resource-std tarball>\`), then convert again`);
  return false;
}

/** The user's own PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION, as Pulumi reads a boolean variable. */
const downloadsOff = (env: NodeJS.ProcessEnv): boolean => /^(1|true)$/i.test(env["PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION"] ?? "");

/**
 * Warnings of the first step that follow from running it with downloads off, against a Go bridge 0.8.1 this command
 * never installs (and replaces in the second step): the PCL's packages cannot be loaded there, so every attribute of
 * their resources is "unsupported". They need no decision; they go to the log file alone.
 */
const UNBOUND = /^warning: .*unknown package '[^']+'; no resource plugin 'pulumi-resource-terraform-provider' found in the workspace at version v0\.8\.1\b/;
/** Follows from UNBOUND only once that has been seen: before it, it is about something else. */
const UNBOUND_FOLLOWS = [/^warning: .*unsupported attribute '[^']+'/, /Failed to get provider info/];

/** Sorts the first step's lines: true for an expected warning; `seen` carries what earlier lines showed. */
export function expectedWarning(line: string, seen: { unbound: boolean }): boolean {
  if (UNBOUND.test(line)) return (seen.unbound = true);
  return seen.unbound && UNBOUND_FOLLOWS.some((w) => w.test(line));
}

/**
 * Runs the first step, showing the user its lines except the expected warnings, and writing all of them to `logFile`.
 * Resolves with the exit code and how many lines were kept out of the user's way.
 */
async function firstStep(args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): Promise<{ code: number; hidden: number }> {
  let hidden = 0;
  const seen = { unbound: false };
  writeFileSync(logFile, `$ pulumi ${args.join(" ")}\n`);
  const r = await runPulumi(args, {
    cwd,
    env,
    onLine: (line, stream) => {
      appendFileSync(logFile, `${line}\n`);
      if (expectedWarning(line, seen)) hidden++;
      else (stream === "stdout" ? process.stdout : process.stderr).write(`${line}\n`);
    },
  });
  return { code: r.code, hidden };
}

/** The file Pulumi's generator writes the program into, for each checked language. */
const MAIN_FILE = { typescript: "index.ts", python: "__main__.py", go: "main.go" } as const;

/** The repairs of program-fixes.ts, made to the program's main file in place, each said. */
export function repairProgram(language: string, outDir: string, log: (line: string) => void): void {
  const which = checkedLanguage(language);
  if (which === undefined) return;
  const file = join(outDir, MAIN_FILE[which]);
  if (!existsSync(file)) return;
  const text = readFileSync(file, "utf8");
  const fixed = which === "go" ? goConfigObjects(text) : renameCollidingConfig(text, which);
  if (fixed.notes.length === 0) return;
  writeFileSync(file, fixed.text);
  for (const note of fixed.notes) log(`convert: ${basename(file)}: ${note}`);
}

/** How each checked language's program imports Pulumi's `std` package (where Terraform's functions went), and its package. */
const STD: Record<"typescript" | "python" | "go", { imports: RegExp; name: string }> = {
  typescript: { imports: /^import \* as \w+ from "@pulumi\/std";$/m, name: "@pulumi/std" },
  python: { imports: /^import pulumi_std\b/m, name: "pulumi_std" },
  go: { imports: /^\s*(?:\w+\s+)?"(github\.com\/pulumi\/pulumi-std\/sdk(?:\/v\d+)?\/go\/std)"$/m, name: "" },
};

/** The `std` package the generated program imports, which Pulumi's generators leave out of its dependencies. */
export function stdImport(language: string, outDir: string): string | undefined {
  const which = checkedLanguage(language);
  if (which === undefined) return undefined;
  const file = join(outDir, MAIN_FILE[which]);
  const m = existsSync(file) ? STD[which].imports.exec(readFileSync(file, "utf8")) : null;
  // Go names the package by its import path, which `go get` takes as it is.
  return m === null ? undefined : (m[1] ?? STD[which].name);
}

/**
 * Makes the program's `std` import a dependency: Python's requirements.txt gets `pulumi_std` (installed with the rest
 * by `pulumi install`), TypeScript's package.json gets `@pulumi/std` through `npm install` (unless --generate-only), Go
 * is told the module to `go get`. Returns false when it is not installed; each case is said.
 */
export async function addStd(language: string, outDir: string, generateOnly: boolean, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  const name = stdImport(language, outDir);
  if (name === undefined) return true;
  const which = checkedLanguage(language)!;
  const why = `the program calls Pulumi's std package (${name}) for Terraform's functions`;
  if (which === "python") {
    const file = join(outDir, "requirements.txt");
    writeFileSync(file, `${readFileSync(file, "utf8").replace(/\n?$/, "\n")}${name}\n`);
    log(`convert: ${name} added to requirements.txt: ${why}`);
    return true;
  }
  if (which === "typescript" && !generateOnly) {
    const r = await check("npm", ["install", "--no-audit", "--no-fund", name], outDir, env);
    if (r.code === 0) {
      log(`convert: ${name} installed (npm install ${name}): ${why}`);
      return true;
    }
    log(`convert: \`npm install ${name}\` in ${outDir} failed: ${why}; install it there when the npm registry is reachable\n${r.output.trim()}`);
    return false;
  }
  const how = which === "go" ? `go get ${name}` : `npm install ${name}`;
  log(`convert: ${why}; it is not installed: run \`${how}\` in ${outDir}`);
  return false;
}

/**
 * The converter's version question answered from the plugin's installer, as `pulumi up` would install the provider
 * (with the user's environment, not the converter's); what was answered goes into `asked`, for the user.
 */
async function answerVersions(address: ProviderAddress, env: NodeJS.ProcessEnv, asked: Map<string, string>): Promise<string[]> {
  const label = formatAddress(address);
  try {
    const versions = await installableVersions(address, { env });
    asked.set(label, versions.length > 0 ? `answered from what the plugin can install, ${versions.slice(0, 5).join(", ")}${versions.length > 5 ? `, … (${versions.length})` : ""}` : "the plugin can install none, so the converter cannot resolve its version");
    return versions;
  } catch (e) {
    asked.set(label, `the plugin can install none (${redactText((e as Error).message)}), so the converter cannot resolve its version`);
    throw e;
  }
}

/** Runs a checker like every child of the command; its exit code and its output, both streams together. */
async function check(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const r = await runTracked(file, args, { cwd, env });
    return { code: r.code, output: r.stdout + r.stderr };
  } catch (e) {
    return { code: -1, output: (e as Error).message };
  }
}

/** The languages whose programs `convert` repairs and checks, in the names `pulumi convert --language` takes. */
function checkedLanguage(language: string): "typescript" | "python" | "go" | undefined {
  return /^(typescript|nodejs)$/i.test(language) ? "typescript" : /^python$/i.test(language) ? "python" : /^go$/i.test(language) ? "go" : undefined;
}

/**
 * Why the converted program would not run, found before the conversion reports success: TypeScript type-checked with
 * the compiler its `npm install` brought (`tsc --noEmit`), Python's files compiled by the program's virtual environment
 * (`py_compile`: syntax only), Go type-checked and vetted by the `go` on PATH (`go vet ./...`, which compiles every
 * package of the module, the generated SDKs under sdks/ with it). Other languages are not checked here. Undefined when
 * nothing is wrong or nothing could be checked.
 */
export async function programProblem(language: string, outDir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const which = checkedLanguage(language);
  if (which === "typescript") {
    const tsc = join(outDir, "node_modules", "typescript", "bin", "tsc");
    if (!existsSync(tsc) || !existsSync(join(outDir, "tsconfig.json"))) return undefined;
    // `node` from PATH, which ran the program's npm install: this process may be the plugin's single executable.
    const r = await check("node", [tsc, "--noEmit", "-p", outDir], outDir, env);
    return r.code === 0 ? undefined : r.output.trim();
  }
  if (which === "python") {
    const files = readdirSync(outDir).filter((f) => f.endsWith(".py"));
    const venv = join(outDir, "venv", "bin", "python");
    if (files.length === 0) return undefined;
    const r = await check(existsSync(venv) ? venv : "python3", ["-m", "py_compile", ...files], outDir, env);
    return r.code === 0 ? undefined : r.output.trim();
  }
  if (which === "go") {
    if (!existsSync(join(outDir, "go.mod"))) return undefined;
    const r = await check("go", ["vet", "./..."], outDir, env);
    // No `go` on PATH: nothing could be checked, and `pulumi up` would need one anyway.
    if (r.code === -1 && /ENOENT/.test(r.output)) return undefined;
    return r.code === 0 ? undefined : r.output.trim();
  }
  return undefined;
}

/** Runs `pulumi args` in `cwd` with our stdio; resolves with its exit code. */
async function pulumi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return (await runPulumi(args, { cwd, env, inherit: true })).code;
}

/**
 * The conversion: `pulumi convert --from terraform --language pcl` into a temporary folder, each bridged package block
 * pointed at this plugin's version, then `pulumi convert --from pcl --language <language>` from there into `--out`.
 * Returns the exit code; the temporary folder is kept (and named) when a step fails, for the report.
 */
export async function runConvert(args: ConvertArgs, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<number> {
  const name = args.name ?? basename(cwd);
  const outDir = resolve(cwd, args.out);
  const work = mkdtempSync(join(tmpdir(), "pulumi-tf-convert-"));
  const forgetWork = onInterrupt(() => rmSync(work, { recursive: true, force: true }));
  const pclDir = join(work, name);
  const common = ["convert", "--name", name, ...(args.strict ? ["--strict"] : [])];
  const toPcl = [...common, "--from", "terraform", "--language", "pcl", "--out", pclDir, ...args.mappings.flatMap((m) => ["--mappings", m])];
  // With downloads off below, `pulumi convert` would not fetch the converter itself the first time: fetch it here.
  if (!converterPresent(env) && !downloadsOff(env)) {
    const installed = await pulumi(["plugin", "install", "converter", "terraform"], cwd, env);
    if (installed !== 0) log(`convert: \`pulumi plugin install converter terraform\` failed (exit ${installed}); trying the conversion anyway`);
  }
  // No downloads: the PCL is bound against terraform-provider 0.8.1, which would otherwise be fetched and installed.
  const noDownloads = { ...env, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };
  const logFile = join(tmpdir(), `pulumi-tf-convert-${name.replace(/[^\w.-]/g, "_")}-${Date.now()}.log`);
  // Stopped, the conversion leaves nothing: its log names no result.
  const forgetLog = onInterrupt(() => rmSync(logFile, { force: true }));
  // Pulumi's converter asks the public registry for provider versions itself, ignoring Terraform's CLI configuration:
  // it asks a loopback stand-in instead, which answers from what this plugin can install (mirrors, caches, registry).
  const asked = new Map<string, string>();
  const registry = await startRegistryProxy(work, {
    hosts: registryHosts(cwd),
    versions: (address) => answerVersions(address, env, asked),
    env,
    onEvent: (e) => appendFileSync(logFile, `convert: registry stand-in: ${e.kind === "answered" ? `GET https://${e.host}${e.path} → ${e.status}${e.versions !== undefined ? ` (${e.versions} versions)` : ""}` : `refused ${e.target}: ${e.why}`}\n`),
  });
  const forgetRegistry = onInterrupt(registry.stop);
  let first: { code: number; hidden: number };
  try {
    first = await firstStep([...toPcl, ...(args.converterArgs.length > 0 ? ["--", ...args.converterArgs] : [])], cwd, { ...noDownloads, ...registry.env }, logFile);
  } finally {
    registry.stop();
    forgetRegistry();
  }
  for (const [address, answer] of asked) log(`convert: the converter asked for the versions of ${address}: ${answer}`);
  let code = first.code;
  if (code !== 0) {
    log(`convert: \`pulumi convert --from terraform --language pcl\` failed (exit ${code}); what it wrote is in ${pclDir}, all it printed in ${logFile}`);
    return code;
  }
  let changed = 0;
  const refusals: string[] = [];
  for (const file of pclFiles(pclDir)) {
    const r = retargetPackageBlocks(readFileSync(file, "utf8"), VERSION);
    const fixed = fixPcl(r.text);
    if (r.changed > 0 || fixed.notes.length > 0) writeFileSync(file, fixed.text);
    changed += r.changed;
    for (const note of fixed.notes) log(`convert: ${note}`);
    refusals.push(...fixed.refusals);
  }
  if (refusals.length > 0) {
    log(`convert: the program would not do what the Terraform project does, so the conversion is not done (the PCL is in ${pclDir}):\n${refusals.map((r) => `  ${r}`).join("\n")}`);
    return 1;
  }
  if (!(await ensureStdPlugin(pclFiles(pclDir).map((f) => readFileSync(f, "utf8")), cwd, env, log))) return 1;
  log(`convert: ${changed} Terraform provider package${changed === 1 ? "" : "s"} set to run on terraform-provider ${VERSION}`);
  // `pulumi convert` generates each parameterized package's SDK from the plugin named by base name alone (the highest
  // installed version); the project's `packages` entry for that name pins it to this plugin.
  writeFileSync(join(pclDir, "Pulumi.yaml"), pinnedProject(name, PIN.name, PIN.reference));
  // Python: Pulumi's generator writes a project without a virtual environment, whose dependencies would go into the
  // Python on PATH (and an older `pulumi` there would stay); the project gets one, as `pulumi new` makes it.
  const python = checkedLanguage(args.language) === "python";
  const generateOnly = args.generateOnly || python;
  const forgetOut = onInterrupt(restoreOut(outDir));
  code = await pulumi([...common, "--from", "pcl", "--language", args.language, "--out", outDir, ...(generateOnly ? ["--generate-only"] : [])], pclDir, env);
  if (code !== 0) {
    const std = stdImport(args.language, outDir);
    const hint = std === undefined ? "" : ` (the program imports Pulumi's std package ${std}: if installing it failed, install it in ${outDir} when its registry is reachable)`;
    log(`convert: \`pulumi convert --from pcl --language ${args.language}\` failed (exit ${code}); the PCL it converted is in ${pclDir}${hint}`);
    return code;
  }
  unpin(join(outDir, "Pulumi.yaml"), log);
  const stdInstalled = await addStd(args.language, outDir, args.generateOnly, env, log);
  if (python) {
    await pinPythonSdk(outDir, env, log);
    const project = join(outDir, "Pulumi.yaml");
    const text = pythonVirtualenvRuntime(readFileSync(project, "utf8"), project);
    if (text !== undefined) writeFileSync(project, text);
    else log(`convert: ${project} names its Python runtime in a way this command does not know; it is left as Pulumi wrote it`);
    if (!args.generateOnly) {
      code = await pulumi(["install"], outDir, env);
      if (code !== 0) {
        log(`convert: \`pulumi install\` in ${outDir} failed (exit ${code}); the program is converted, its dependencies are not installed`);
        return code;
      }
    }
  }
  repairProgram(args.language, outDir, log);
  // A program without its std package cannot compile: that is said above, with how to install it.
  if (!stdInstalled && !args.generateOnly) return 1;
  const problem = args.generateOnly ? undefined : await programProblem(args.language, outDir, env);
  if (problem !== undefined) {
    log(`convert: the converted program does not compile, so the conversion is not done: fix it in ${outDir} (the PCL it came from is in ${pclDir})\n${problem}`);
    return 1;
  }
  forgetOut();
  forgetWork();
  forgetLog();
  rmSync(work, { recursive: true, force: true });
  if (first.hidden > 0) {
    log(`convert: ${first.hidden} warning${first.hidden === 1 ? "" : "s"} of the first step need${first.hidden === 1 ? "s" : ""} nothing from you (it binds against terraform-provider 0.8.1, which this command replaces); all it printed is in ${logFile}`);
  }
  log(`convert: the ${args.language} program is in ${outDir}`);
  return 0;
}

/**
 * What undoes the second step in `outDir` if the command is stopped during it: what it added is removed (the folder
 * itself when it made it), and a Pulumi.yaml that was there loses the `packages:` pin this command has Pulumi write.
 */
function restoreOut(outDir: string): () => void {
  const before = existsSync(outDir) ? new Set(readdirSync(outDir)) : undefined;
  return () => {
    if (before === undefined) {
      rmSync(outDir, { recursive: true, force: true });
      return;
    }
    for (const name of existsSync(outDir) ? readdirSync(outDir) : []) if (!before.has(name)) rmSync(join(outDir, name), { recursive: true, force: true });
    const project = join(outDir, "Pulumi.yaml");
    if (!existsSync(project)) return;
    const text = unpinProject(readFileSync(project, "utf8"), PIN.name, PIN.reference, project);
    if (text !== undefined) writeFileSync(project, text);
  };
}

/** `convert`'s entry (src/commands/index.ts): its arguments (after `convert`) to its exit code. */
export function convertCommand(argv: readonly string[]): Promise<number> {
  const args = parseConvertArgs(argv);
  stopWithChildren((line) => process.stderr.write(`convert: ${line}\n`));
  return runConvert(args);
}
