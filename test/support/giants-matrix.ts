// Every stage of a giant provider at full size (or a slice): Parameterize + GetSchema, `pulumi package gen-sdk` per
// language through our packaged plugin, and the SDK compiled (tsc, py_compile plus mypy on a sample, go build, Maven)
// or, for YAML, a program previewed; each stage timed, with the peak RSS of the CLI, of our plugin and of the tools.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { giantsDir, serveGiant, type Giant } from "./giants.js";
import { goEnv } from "./languages.js";
import { genSdkDiagnostics } from "./lifecycle.js";
import { pulumiCommand } from "./pulumi.js";
import { PULUMI_NODE_SDK, PULUMI_SDK, sdkDeps } from "./pulumi-tools.js";
import { PULUMI_PYTHON_SDK } from "./python.js";

export const LANGUAGES = ["nodejs", "python", "go", "java", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The Java SDK version the generated Java SDKs compile against (the others: PULUMI_SDK and PULUMI_PYTHON_SDK). */
const JAVA_SDK = "1.36.1";
const MYPY_PYTHON = join(homedir(), ".cache/pulumi-tf-bridge-ts/python-check", `pulumi-${PULUMI_PYTHON_SDK}-mypy-1.18.2-black-24.10.0`, "venv", "bin", "python");

/** One measured stage: wall time, peak RSS (MiB) of the CLI, of our plugin, and of everything else it ran. */
export interface Stage {
  ms: number;
  cliMiB: number;
  pluginMiB: number;
  toolMiB: number;
}

export interface LanguageResult {
  giant: string;
  language: Language;
  /** The Terraform type names given to --include, or undefined for the whole provider. */
  slice: string[] | undefined;
  genSdk?: Stage;
  compile?: Stage;
  /** Bytes of the generated SDK's files (before any compile output). */
  sdkBytes?: number;
  files?: number;
  ok: boolean;
  /** What failed, with the tool's output (trimmed). */
  error?: string;
  /** Known errors of Pulumi's generators the compile met and let pass, counted by kind. */
  notes?: string[];
}

export interface SchemaResult {
  giant: string;
  stage: Stage;
  resources: number;
  functions: number;
  types: number;
  bytes: number;
}

/** The dump's resource type names, sorted. */
export function dumpResources(g: Giant): string[] {
  const dump = JSON.parse(gunzipSync(readFileSync(join(giantsDir, g.file))).toString("utf8")) as {
    provider_schemas: Record<string, { resource_schemas?: Record<string, unknown> }>;
  };
  return Object.values(dump.provider_schemas).flatMap((p) => Object.keys(p.resource_schemas ?? {})).sort();
}

/** `n` resource names spread evenly over the sorted list: a slice for --include that is the same on every run. */
export function sampleResources(names: string[], n: number): string[] {
  if (names.length <= n) return names;
  return Array.from({ length: n }, (_, i) => names[Math.floor((i * names.length) / n)]!);
}

/** Below this much available memory (MemAvailable) a measured command's whole process tree is killed. */
const MEMORY_FLOOR_MIB = Number(process.env["GIANTS_MEMORY_FLOOR_MIB"] ?? 2048);

function memAvailableMiB(): number {
  const m = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"));
  return m === null ? Infinity : Number(m[1]) / 1024;
}

/** ppid of every live process, from one pass over /proc. */
function processTree(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function status(pid: number): { hwmKiB: number; exe: string } | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
    return m === null ? undefined : { hwmKiB: Number(m[1]), exe: cmd };
  } catch {
    return undefined;
  }
}

/**
 * Runs a command, polling its process tree every 100 ms for the high-water RSS of the CLI (the root, when the command is
 * pulumi), of our plugin (pulumi-resource-terraform-provider) and of the largest other process. Polling misses a
 * process that lives under 100 ms, which no stage measured here is. Never throws on a non-zero exit.
 */
export async function measure(cmd: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ stage: Stage; code: number; output: string }> {
  const start = performance.now();
  const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
  const peak = { cli: 0, plugin: 0, tool: 0 };
  let starved = false;
  const poll = (): void => {
    const tree = processTree();
    const todo = [child.pid!];
    // The machine is shared: a compile that would take the last of its memory is stopped, not left to the OOM killer,
    // which might pick another job.
    const kill = memAvailableMiB() < MEMORY_FLOOR_MIB;
    if (kill && !starved) {
      starved = true;
      output += `\nstopped: the machine's available memory fell under ${MEMORY_FLOOR_MIB} MiB (peak so far ${Math.round(Math.max(peak.cli, peak.tool) / 1024)} MiB)\n`;
    }
    while (todo.length > 0) {
      const pid = todo.pop()!;
      todo.push(...(tree.get(pid) ?? []));
      if (kill) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      const s = status(pid);
      if (s === undefined) continue;
      const role = pid === child.pid && cmd.endsWith("/pulumi") ? "cli" : s.exe.endsWith("pulumi-resource-terraform-provider") ? "plugin" : "tool";
      peak[role] = Math.max(peak[role], s.hwmKiB);
    }
  };
  const timer = setInterval(poll, 100);
  const code = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c ?? -1));
  });
  clearInterval(timer);
  const ms = Math.round(performance.now() - start);
  const mib = (k: number): number => Math.round(k / 1024);
  return { stage: { ms, cliMiB: mib(peak.cli), pluginMiB: mib(peak.plugin), toolMiB: mib(peak.tool) }, code, output };
}

/** Total bytes and file count under a folder. */
function du(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    bytes += statSync(join(e.parentPath, e.name)).size;
    files += 1;
  }
  return { bytes, files };
}

/** The tail of a failed tool's output: enough to see the error, not the whole log of a 1,500-resource compile. */
function failure(what: string, r: { code: number; output: string }): string {
  const lines = r.output.trim().split("\n");
  return `${what} exited ${r.code}:\n${lines.slice(0, 30).join("\n")}${lines.length > 30 ? `\n… (${lines.length - 30} more lines)` : ""}`;
}

const dependencyXml = (g: string, a: string, v: string): string =>
  `        <dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version></dependency>\n`;

/** A Maven module compiling a generated Java SDK (which ships only a build.gradle) with the libraries it lists. */
function javaPom(name: string, gradle: string): string {
  const listed = [...gradle.matchAll(/^\s*implementation\("([^:"]+):([^:"]+):([^"]+)"\)$/gm)].map((m) =>
    m[1] === "com.pulumi" && m[2] === "pulumi" ? dependencyXml(m[1], m[2], JAVA_SDK) : dependencyXml(m[1]!, m[2]!, m[3]!),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>com.pulumi</groupId>
    <artifactId>${name}</artifactId>
    <version>0.0.0</version>
    <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
    <dependencies>
${listed.join("")}    </dependencies>
    <build><plugins><plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.5.1</version>
        <configuration><source>11</source><target>11</target></configuration>
    </plugin></plugins></build>
</project>
`;
}

interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
}

interface PulumiSchema {
  version?: string;
  resources?: Record<string, { requiredInputs?: string[]; inputProperties?: Record<string, PropertySpec> }>;
  functions?: Record<string, unknown>;
  types?: Record<string, { properties?: Record<string, PropertySpec>; required?: string[] }>;
}

/**
 * A value of a property's type with every required property of an object set, to `depth` objects deep; undefined when
 * there is none (an object nested deeper, a reference to another package's type).
 */
function valueOf(schema: PulumiSchema, p: PropertySpec, depth: number): unknown {
  if (p.$ref !== undefined) {
    const t = p.$ref.startsWith("#/types/") ? schema.types?.[decodeURIComponent(p.$ref.slice("#/types/".length))] : undefined;
    if (t === undefined || depth === 0) return undefined;
    return objectOf(schema, t.required ?? [], t.properties ?? {}, depth - 1);
  }
  switch (p.type) {
    case "string":
      return "x";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array": {
      const item = p.items === undefined ? undefined : valueOf(schema, p.items, depth);
      return item === undefined ? undefined : [item];
    }
    case "object":
      return {};
  }
  return undefined;
}

function objectOf(schema: PulumiSchema, required: string[], properties: Record<string, PropertySpec>, depth: number): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const name of required) {
    const p = properties[name];
    const v = p === undefined ? undefined : valueOf(schema, p, depth);
    if (v === undefined) return undefined;
    out[name] = v;
  }
  return out;
}

/**
 * A YAML program declaring one resource of the package: the first (by token) whose required inputs can all be given a
 * value (objects to 4 levels, each with its own required properties), the properties written as JSON, which YAML
 * reads. Undefined when no resource qualifies.
 */
export function yamlProgram(schema: PulumiSchema): string | undefined {
  for (const [token, r] of Object.entries(schema.resources ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const props = objectOf(schema, r.requiredInputs ?? [], r.inputProperties ?? {}, 4);
    if (props === undefined) continue;
    return `resources:\n  it:\n    type: ${token}\n    properties: ${JSON.stringify(props)}\n`;
  }
  return undefined;
}

/**
 * How `go build` compiles a giant's Go SDK: environment and flags, GIANTS_GO_ENV ("GOMEMLIMIT=6GiB GOGC=100") and
 * GIANTS_GO_FLAGS ("-p 1 -gcflags='all=-N -l'"; single quotes keep a flag's spaces) replacing the defaults; an empty
 * GIANTS_GO_FLAGS gives Go's own. The SDK is one Go package with all of the provider's types, which one compile
 * process builds; GOMEMLIMIT reaches that process (the compiler is a Go program).
 */
export function goBuild(): { env: Record<string, string>; flags: string[] } {
  // Split at spaces outside single quotes, as a shell would, so that one flag can carry spaces: -gcflags='all=-N -l'.
  const words = (v: string | undefined, fallback: string[]): string[] =>
    v === undefined ? fallback : (v.match(/(?:[^\s']+|'[^']*')+/g) ?? []).map((w) => w.replaceAll("'", ""));
  const env = words(process.env["GIANTS_GO_ENV"], GO_BUILD_ENV).map((w) => {
    const eq = w.indexOf("=");
    if (eq <= 0) throw new Error(`GIANTS_GO_ENV: "${w}" is not NAME=value; give space-separated NAME=value pairs, e.g. GOMEMLIMIT=6GiB GOGC=100`);
    return [w.slice(0, eq), w.slice(eq + 1)] as const;
  });
  return { env: Object.fromEntries(env), flags: words(process.env["GIANTS_GO_FLAGS"], GO_BUILD_FLAGS) };
}

/**
 * The defaults of goBuild: the compiler's optimizations and inlining off (-N -l). The compile still type-checks and
 * generates code for every function of the package, which is what proves an SDK; the optimizing passes are what a
 * giant's thousands of small methods make costly: kubernetes whole takes 13.5 GB and 224 s against 18.9 GB and 252 s
 * with Go's defaults, cloudflare 9.4 GB and 100 s against 13.0 GB and 127 s (the same machine and load). Bounding the
 * compiler's memory instead (GOMEMLIMIT, -c=1) does not fit the one package into ~6 GB: its live heap is larger, so the
 * collector runs without end. docs/performance.md has every figure.
 */
const GO_BUILD_ENV: string[] = [];
const GO_BUILD_FLAGS: string[] = ["-gcflags=all=-N -l"];

/** A giant served by the replay peer, driven through the real CLI with our plugin installed in `sandboxEnv`'s home. */
export class GiantRun {
  private readonly served;
  readonly env: NodeJS.ProcessEnv;
  /** The last compile's known generator errors (classifyMypy). */
  private notes: string[] = [];

  constructor(
    readonly giant: Giant,
    sandboxEnv: NodeJS.ProcessEnv,
    private readonly work: string,
  ) {
    this.served = serveGiant(giant);
    this.env = { ...sandboxEnv, REPLAY_SCHEMA: this.served.env["REPLAY_SCHEMA"], REPLAY_STORE: this.served.env["REPLAY_STORE"] };
  }

  cleanup(): void {
    this.served.cleanup();
  }

  private source(slice: string[] | undefined): string[] {
    return ["terraform-provider", "--", this.served.binary, ...(slice === undefined ? [] : ["--include", slice.join(",")])];
  }

  private pulumi(args: string[], cwd: string): Promise<{ stage: Stage; code: number; output: string }> {
    return measure(...pulumiCommand(args), { cwd, env: this.env });
  }

  /** Parameterize + GetSchema: `pulumi package get-schema`, the schema's figures, and the schema itself. */
  async schema(slice?: string[]): Promise<[SchemaResult, PulumiSchema]> {
    const r = await this.pulumi(["package", "get-schema", ...this.source(slice)], this.work);
    if (r.code !== 0) throw new Error(failure(`pulumi package get-schema (${this.giant.name})`, r));
    const text = r.output.slice(r.output.indexOf("{"), r.output.lastIndexOf("}") + 1);
    const schema = JSON.parse(text) as PulumiSchema;
    const count = (o: object | undefined): number => Object.keys(o ?? {}).length;
    return [{ giant: this.giant.name, stage: r.stage, resources: count(schema.resources), functions: count(schema.functions), types: count(schema.types), bytes: text.length }, schema];
  }

  /** gen-sdk for one language, then its compile (or, for YAML, a preview of a one-resource program). */
  async language(language: Language, slice: string[] | undefined, schema: PulumiSchema): Promise<LanguageResult> {
    const result: LanguageResult = { giant: this.giant.name, language, slice, ok: false };
    const dir = join(this.work, `${this.giant.name}-${language}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      if (language === "yaml") return await this.yaml(dir, slice, schema, result);
      const [source, ...params] = this.source(slice);
      const gen = await this.pulumi(["package", "gen-sdk", source!, "--language", language, "--out", dir, ...params], dir);
      result.genSdk = gen.stage;
      if (gen.code !== 0) throw new Error(failure("pulumi package gen-sdk", gen));
      const diagnostics = genSdkDiagnostics(gen.output).filter((l) => !/^WARN: secret property \w+ \(property of config\) does not have an Output type$/.test(l));
      if (diagnostics.length > 0) throw new Error(`gen-sdk diagnostics:\n${diagnostics.join("\n")}`);
      const sdk = join(dir, language);
      const size = du(sdk);
      result.sdkBytes = size.bytes;
      result.files = size.files;
      this.notes = [];
      const compile = await this.compile(language, sdk);
      result.compile = compile.stage;
      if (this.notes.length > 0) result.notes = this.notes;
      if (compile.code !== 0) throw new Error(failure(`compile (${language})`, compile));
      result.ok = true;
    } catch (e) {
      result.error = (e as Error).message;
    } finally {
      // A giant's SDK is up to a few hundred MB; keep the disk for the next one.
      rmSync(dir, { recursive: true, force: true });
    }
    return result;
  }

  private async compile(language: Exclude<Language, "yaml">, sdk: string): Promise<{ stage: Stage; code: number; output: string }> {
    const env = { ...this.env, ...goEnv() };
    switch (language) {
      case "nodejs": {
        const file = join(sdk, "package.json");
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { dependencies: Record<string, string> };
        pkg.dependencies["@pulumi/pulumi"] = PULUMI_NODE_SDK;
        writeFileSync(file, JSON.stringify(pkg, null, 2));
        const modules = sdkDeps();
        symlinkSync(modules, join(sdk, "node_modules"));
        return measure(join(modules, ".bin", "tsc"), ["-p", sdk, "--noEmit"], { cwd: sdk, env });
      }
      case "python": {
        const pkg = join(sdk, `pulumi_${this.giant.name}`);
        const compiled = await measure("python3", ["-m", "compileall", "-q", pkg], { cwd: sdk, env });
        if (compiled.code !== 0) return compiled;
        // mypy on a sample: the package's own modules and its first five others, the SDK's imports followed silently.
        const modules = readdirSync(pkg, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".py")).sort();
        const sample = [...modules.filter((f) => !f.includes("/")), ...modules.filter((f) => f.includes("/") && !f.endsWith("__init__.py")).slice(0, 5)];
        const typed = await measure(MYPY_PYTHON, ["-m", "mypy", "--follow-imports=silent", "--no-incremental", "--ignore-missing-imports", "--no-error-summary", ...sample.map((f) => join(pkg, f))], {
          cwd: sdk,
          env,
        });
        const { known, other } = classifyMypy(typed.output, sdk);
        this.notes = Object.entries(known).map(([k, n]) => `${n} × ${k}`);
        // Errors of Pulumi's Python generator only (see classifyMypy) leave the SDK passing, counted in the notes.
        const code = typed.code === 1 && other.length === 0 ? 0 : typed.code;
        return { code, output: other.length > 0 ? other.join("\n") : typed.output, stage: sum(compiled.stage, typed.stage) };
      }
      case "go": {
        const gomod = join(sdk, "go.mod");
        writeFileSync(gomod, readFileSync(gomod, "utf8").replace(/(github\.com\/pulumi\/pulumi\/sdk\/v3) v\S+/, `$1 v${PULUMI_SDK}`));
        const tidy = await measure("go", ["mod", "tidy"], { cwd: sdk, env });
        if (tidy.code !== 0) return tidy;
        const go = goBuild();
        const built = await measure("go", ["build", ...go.flags, "./..."], { cwd: sdk, env: { ...env, ...go.env } });
        return { ...built, stage: sum(tidy.stage, built.stage) };
      }
      case "java": {
        writeFileSync(join(sdk, "pom.xml"), javaPom(this.giant.name, readFileSync(join(sdk, "build.gradle"), "utf8")));
        return measure("mvn", ["-q", "--batch-mode", "--no-transfer-progress", "compile"], { cwd: sdk, env });
      }
    }
  }

  /**
   * `pulumi package add` into a YAML project (which writes the `packages:` entry and no SDK; timed as the gen-sdk
   * stage), then `pulumi preview` of a one-resource program.
   */
  private async yaml(dir: string, slice: string[] | undefined, schema: PulumiSchema, result: LanguageResult): Promise<LanguageResult> {
    const program = yamlProgram(schema);
    if (program === undefined) throw new Error("no resource whose required inputs can all be given a value (objects nested at most 4 deep)");
    const file = join(dir, "Pulumi.yaml");
    writeFileSync(file, `name: giant-${this.giant.name}\nruntime: yaml\n`);
    const add = await this.pulumi(["package", "add", ...this.source(slice)], dir);
    result.genSdk = add.stage;
    if (add.code !== 0) throw new Error(failure("pulumi package add", add));
    writeFileSync(file, `${readFileSync(file, "utf8").trimEnd()}\n${program}`);
    const init = await this.pulumi(["stack", "init", `${this.giant.name}-yaml`], dir);
    if (init.code !== 0) throw new Error(failure("pulumi stack init", init));
    const preview = await this.pulumi(["preview"], dir);
    result.compile = preview.stage;
    await this.pulumi(["stack", "rm", "--yes", "--force"], dir);
    if (preview.code !== 0 || !/\+\s+\S+:\S+:\S+\s+it\s+create/.test(preview.output)) throw new Error(failure("pulumi preview", preview));
    result.ok = true;
    return result;
  }
}

/** Python's dict methods: an output type's property of one of these names shadows the method of the dict it subclasses. */
const DICT_METHODS = new Set(["clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"]);

/**
 * mypy's errors in a generated Python SDK, split into those of Pulumi's Python generator (pkg/v3 v3.274.1,
 * codegen/python), which every SDK of such a schema has, whoever made the schema, and the rest:
 * - `_utilities.py`'s `lift_output_func` decorator returns a wrapper mypy does not take for the `_F` it declares
 *   (return-value; the file is the generator's own, in every Python SDK);
 * - an output type is a `dict` subclass, so a property named like a dict method (`values`, `items`, `update`, …: plain
 *   Terraform attribute names) overrides the method with another signature (override);
 * - a function fills `__args__ = dict()` one argument at a time, and mypy types the dict by the first assignment, so a
 *   later argument of another type is refused (assignment, on a line `__args__['…'] = …`), or asks for an annotation
 *   (var-annotated, on the `__args__ = dict()` line);
 * - an optional secret input, typed `pulumi.Input[Optional[T]]` (the tfbridge20 compatibility the reference's schemas
 *   ask for too), is given to `pulumi.Output.secret`, which wants `Input[T]`, and a provider's optional non-string
 *   input, JSON-encoded through `pulumi.Output.from_input`, likewise (arg-type);
 * - an output type with a property named `outputs` (a plain Terraform attribute name) hides the `outputs` module the
 *   file imports, so the class's later annotations `'outputs.X'` name nothing (name-defined; strings, so harmless when
 *   the code runs).
 */
export function classifyMypy(output: string, root: string): { known: Record<string, number>; other: string[] } {
  const known: Record<string, number> = {};
  const other: string[] = [];
  const seen = new Set<string>();
  // mypy reports a shadowed method once per supertype (dict, Mapping): counted once per line.
  const count = (kind: string, at: string): void => {
    if (seen.has(`${at} ${kind}`)) return;
    seen.add(`${at} ${kind}`);
    known[kind] = (known[kind] ?? 0) + 1;
  };
  for (const line of output.split("\n")) {
    const m = /^(\S+):(\d+): error: (.*)  \[([\w-]+)\]$/.exec(line);
    if (m === null) {
      if (/: error: /.test(line)) other.push(line);
      continue;
    }
    const [, file, lineNo, message, code] = m;
    const at = `${file}:${lineNo}`;
    const shadowed = /^Signature of "(\w+)" incompatible with supertype "(dict|Mapping|MutableMapping)"$/.exec(message!);
    if (file!.endsWith("/_utilities.py") && code === "return-value") count("_utilities.py lift_output_func return type", at);
    else if (code === "override" && shadowed !== null && DICT_METHODS.has(shadowed[1]!)) count(`output property shadowing dict.${shadowed[1]}`, at);
    else if (code === "assignment" && /^Incompatible types in assignment/.test(message!) && argsLine(join(root, file!), Number(lineNo), /^\s*__args__\['\w+'\] = \w+$/))
      count("__args__ typed by its first argument", at);
    else if (code === "var-annotated" && argsLine(join(root, file!), Number(lineNo), /^\s*__args__ = dict\(\)$/)) count("__args__ typed by its first argument", at);
    else if (code === "arg-type" && /^Argument 1 to "secret" of "Output" has incompatible type/.test(message!)) count("optional secret input given to Output.secret", at);
    else if (code === "arg-type" && /^Argument 1 to "from_input" of "Output" has incompatible type/.test(message!)) count("optional provider input given to Output.from_input", at);
    else if (code === "name-defined" && /^Name "outputs\.\w+" is not defined$/.test(message!)) count("property named outputs hiding the outputs module", at);
    else other.push(line);
  }
  return { known, other };
}

/** Whether the line is the generator's own handling of a function's `__args__`, as `pattern` has it. */
function argsLine(file: string, line: number, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(file, "utf8").split("\n")[line - 1] ?? "");
  } catch {
    return false;
  }
}

function sum(a: Stage, b: Stage): Stage {
  return { ms: a.ms + b.ms, cliMiB: Math.max(a.cliMiB, b.cliMiB), pluginMiB: Math.max(a.pluginMiB, b.pluginMiB), toolMiB: Math.max(a.toolMiB, b.toolMiB) };
}

/** Whether mypy's virtualenv is there (test/e2e/examples-python.test.ts makes it); made here the same way when not. */
export function ensureMypy(): string {
  if (!existsSync(MYPY_PYTHON)) {
    const venv = join(MYPY_PYTHON, "..", "..");
    execFileSync("python3", ["-m", "venv", venv]);
    execFileSync(MYPY_PYTHON, ["-m", "pip", "install", "--quiet", `pulumi==${PULUMI_PYTHON_SDK}`, "mypy==1.18.2", "black==24.10.0"], { stdio: "inherit" });
  }
  return MYPY_PYTHON;
}

/** One line per language result, and the schema line, as the script and the test print them. */
export function formatResult(r: LanguageResult): string {
  const st = (s: Stage | undefined): string => (s === undefined ? "—" : `${(s.ms / 1000).toFixed(1)} s`);
  const mem = (s: Stage | undefined): string => (s === undefined ? "—" : `${s.cliMiB}/${s.pluginMiB}/${s.toolMiB}`);
  const size = r.sdkBytes === undefined ? "—" : `${(r.sdkBytes / 1048576).toFixed(1)} MiB (${r.files} files)`;
  const what = r.slice === undefined ? "whole" : `${r.slice.length} resources`;
  return `| ${r.giant} | ${r.language} | ${what} | ${st(r.genSdk)} | ${mem(r.genSdk)} | ${size} | ${st(r.compile)} | ${mem(r.compile)} | ${r.ok ? "pass" : "FAIL"}${r.notes === undefined ? "" : ` (mypy: ${r.notes.join(", ")})`} |`;
}

export const RESULT_HEADER =
  "| provider | language | resources | gen-sdk | gen-sdk peak RSS MiB (CLI/plugin/other) | SDK size | compile / preview | compile peak RSS MiB (CLI/plugin/tool; compilers are tools) | result |\n|---|---|---|--:|--:|--:|--:|--:|---|";
