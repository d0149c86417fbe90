// `pulumi-resource-terraform-provider adopt`: a Terraform state's objects brought into the selected Pulumi stack (`pulumi stack import`), with program code for them.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TerraformBridge } from "../bridge/bridge.js";
import { buildProviderModel } from "../schema-translate/index.js";
import { newerReleaseHint, parameterize, terraformAddress } from "../parameterize/index.js";
import { adoptState, describeOrigin, type AdoptionPackage } from "./adopt.js";
import { mergeAdopted, type UntypedDeployment } from "./deployment.js";
import { adoptedProgram, type SecretSetting } from "./pcl.js";
import { readTerraformState, StateFileError } from "./tfstate.js";

export const ADOPT_USAGE = `Usage: pulumi-resource-terraform-provider adopt [options] [STATE]

Adopts every object of a Terraform or OpenTofu state (STATE: terraform.tfstate by default, state format 4, or the
output of \`terraform show -json\`) into the selected stack of the Pulumi project in the current directory, through
the project's terraform-provider packages (\`pulumi package add terraform-provider …\`), with their exact Terraform state:
no provider Read or import runs. Writes program code for them; what is not adopted is listed with its reason.

Options:
  --stack NAME        the stack to adopt into (default: the selected stack)
  --language LANG     the code to write: typescript, python, go, yaml or pcl (default: pcl)
  --out DIR           where the code goes (default: adopted)
  --dry-run           translate and write the code, but leave the stack as it is
`;

interface Options {
  state: string;
  stack?: string;
  language: string;
  out: string;
  dryRun: boolean;
}

/** A mistake in how the command was called or in what it was given; printed without a stack trace. */
class UsageError extends Error {}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { state: "terraform.tfstate", language: "pcl", out: "adopted", dryRun: false };
  let state: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value\n\n${ADOPT_USAGE}`);
      return v;
    };
    if (a === "--stack" || a === "-s") o.stack = value();
    else if (a === "--language") o.language = value();
    else if (a === "--out") o.out = value();
    else if (a === "--dry-run") o.dryRun = true;
    else if (a === "--help" || a === "-h") throw new UsageError(ADOPT_USAGE);
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}\n\n${ADOPT_USAGE}`);
    else if (state === undefined) state = a;
    else throw new UsageError(`one state file at a time: ${state} and ${a} given`);
  }
  if (state !== undefined) o.state = state;
  if (!["typescript", "python", "go", "yaml", "pcl"].includes(o.language)) throw new UsageError(`--language ${o.language}: choose typescript, python, go, yaml or pcl`);
  return o;
}

/** The project's name and its packages of this plugin, as `pulumi package add` writes them into Pulumi.yaml. */
export function projectPackages(yaml: string): { project: string; packages: { name: string; parameters: string[] }[] } {
  const project = /^name:\s*(\S+)\s*$/m.exec(yaml)?.[1]?.replace(/^["']|["']$/g, "");
  if (project === undefined) throw new UsageError("Pulumi.yaml names no project (`name:`)");
  const packages: { name: string; parameters: string[] }[] = [];
  const block = /^packages:\s*\n((?:[ \t]+.*\n?|\s*\n)*)/m.exec(yaml)?.[1] ?? "";
  let current: { name: string; source?: string; parameters: string[] } | undefined;
  let inParameters = false;
  const flush = () => {
    if (current?.source === "terraform-provider") packages.push({ name: current.name, parameters: current.parameters });
  };
  for (const line of block.split("\n")) {
    const pkg = /^ {2}([^\s:#][^:]*):\s*(.*)$/.exec(line);
    if (pkg) {
      flush();
      current = { name: pkg[1]!.trim(), parameters: [] };
      inParameters = false;
      // The short form `name: terraform-provider@0.1.0-ts` has no parameters: nothing to parameterize with.
      continue;
    }
    const field = /^ {4}(\w+):\s*(.*)$/.exec(line);
    if (field && current) {
      inParameters = field[1] === "parameters";
      if (field[1] === "source") current.source = unquote(field[2]!);
      continue;
    }
    const item = /^ {4,}-\s*(.*)$/.exec(line);
    if (item && current && inParameters) current.parameters.push(unquote(item[1]!));
  }
  flush();
  return { project, packages };
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.startsWith('"')) return JSON.parse(t) as string;
  if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
  return t;
}

/** Runs the Pulumi CLI; `input` goes to its stdin (a secret value: never on a command line, where other processes see it). */
function pulumi(args: string[], what: string, input?: string): string {
  const r = spawnSync(process.env["PULUMI_CLI"] ?? "pulumi", ["--non-interactive", ...args], { encoding: "utf8", maxBuffer: 1 << 30, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], ...(input === undefined ? {} : { input }) });
  if (r.error !== undefined) throw new UsageError(`cannot run pulumi to ${what}: ${r.error.message} (is the Pulumi CLI on PATH? PULUMI_CLI names another)`);
  if (r.status !== 0) throw new UsageError(`pulumi ${args.join(" ")} failed (${what}):\n${r.stderr}`);
  return r.stdout;
}

export async function runAdopt(argv: readonly string[]): Promise<number> {
  // Progress goes to stderr; stdout carries the list of what was adopted and what was not.
  const say = (m: string) => process.stderr.write(`${m}\n`);
  const packages: AdoptionPackage[] = [];
  try {
    const o = parseOptions(argv);
    if (!existsSync("Pulumi.yaml")) throw new UsageError("run adopt in the Pulumi project's directory: there is no Pulumi.yaml here");
    const state = readTerraformState(o.state);
    if (state.lacksPrivate) say(`note: ${o.state} is \`terraform show -json\` output, which has no private data; objects whose provider keeps some (SDKv2 timeouts, for one) are adopted without it`);
    const project = projectPackages(readFileSync("Pulumi.yaml", "utf8"));
    if (project.packages.length === 0) throw new UsageError("the project has no terraform-provider package: add the providers of the state with `pulumi package add terraform-provider <namespace>/<type> <version>` first");
    for (const p of project.packages) {
      say(`loading package ${p.name} (${p.parameters.join(" ")})`);
      const parameterized = await parameterize({ kind: "args", args: p.parameters }, { cwd: process.cwd(), status: say, warn: (m) => say(`warning: ${m}`) });
      const model = buildProviderModel(parameterized.schema, { packageName: parameterized.name, packageVersion: parameterized.version, includes: parameterized.selection.includes, excludes: parameterized.selection.excludes });
      const hints = { newerRelease: newerReleaseHint(parameterized), providerAddress: terraformAddress(parameterized.origin) };
      const bridge = new TerraformBridge(parameterized.provider, parameterized.schema, model, (severity, message) => say(`${severity}: ${message}`), hints);
      packages.push({ name: parameterized.name, version: parameterized.version, value: parameterized.value, origin: parameterized.origin, bridge });
      say(`  ${parameterized.name} ${parameterized.version} serves ${describeOrigin(parameterized.origin)}`);
    }
    const adoption = await adoptState(state, packages);
    const stackArgs = o.stack === undefined ? [] : ["--stack", o.stack];
    const stackName = pulumi(["stack", "--show-name", ...stackArgs], "find the stack").trim();
    const exported = JSON.parse(pulumi(["stack", "export", ...stackArgs], "read the stack's state")) as UntypedDeployment;
    const merged = mergeAdopted(exported, stackName, project.project, adoption.adopted);
    const notAdopted = [...adoption.notAdopted, ...merged.notAdopted];
    const secrets = writeCode(merged.added, o);
    if (!o.dryRun && merged.added.length > 0) {
      const work = mkdtempSync(join(tmpdir(), "tf-adopt-"));
      try {
        const file = join(work, "deployment.json");
        writeFileSync(file, JSON.stringify(merged.deployment), { mode: 0o600 });
        pulumi(["stack", "import", "--file", file, ...stackArgs], "write the stack's state");
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      if (secrets.length > 0) say(`setting ${secrets.length} secret configuration values the code reads`);
      for (const { key, value } of secrets) pulumi(["config", "set", "--secret", "--raw", key, ...stackArgs], `set the secret configuration value ${key}`, String(value));
    }
    for (const r of merged.added) process.stdout.write(`${o.dryRun ? "would adopt" : "adopted"} ${r.address} as ${r.token} ${r.name}\n`);
    for (const n of notAdopted) process.stdout.write(`not adopted ${n.address}: ${n.reason}\n`);
    process.stdout.write(`${merged.added.length} adopted${o.dryRun ? " (dry run: the stack is unchanged)" : ` into stack ${stackName}`}, ${notAdopted.length} not adopted; code in ${o.out}\n`);
    if (secrets.length > 0) process.stdout.write(`the code reads ${secrets.length} sensitive values from the stack's secret configuration (${o.dryRun ? "not set: a dry run" : "set"}): ${secrets.map((x) => x.key).join(", ")}\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof StateFileError) {
      process.stderr.write(`adopt: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`adopt failed: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await Promise.all(packages.map((p) => p.bridge.tf.close().catch(() => undefined)));
  }
}

/** The PCL program, and the program in the chosen language through `pulumi convert --from pcl` (Pulumi's own code generators). */
function writeCode(resources: Parameters<typeof adoptedProgram>[0], o: Options): SecretSetting[] {
  const out = resolve(o.out);
  mkdirSync(out, { recursive: true });
  const { text: pcl, secrets } = adoptedProgram(resources);
  if (o.language === "pcl") {
    writeFileSync(join(out, "adopted.pp"), pcl, { mode: 0o600 });
    return secrets;
  }
  const work = mkdtempSync(join(tmpdir(), "tf-adopt-code-"));
  try {
    mkdirSync(join(work, "pcl"));
    writeFileSync(join(work, "pcl", "main.pp"), pcl, { mode: 0o600 });
    const generated = join(work, "out");
    const r = spawnSync(process.env["PULUMI_CLI"] ?? "pulumi", ["--non-interactive", "convert", "--from", "pcl", "--language", o.language, "--generate-only", "--out", generated], { cwd: join(work, "pcl"), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (r.status !== 0) throw new UsageError(`pulumi convert --from pcl --language ${o.language} failed:\n${r.stderr}${r.stdout}`);
    // Merged into `out`: files written there before stay unless the generator writes the same name.
    cpSync(generated, out, { recursive: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return secrets;
}

