// `pulumi-resource-terraform-provider adopt`: a Terraform state's objects brought into the selected Pulumi stack (`pulumi stack import`), with program code for them.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TerraformBridge } from "../bridge/bridge.js";
import { buildProviderModel } from "../schema-translate/index.js";
import { newerReleaseHint, parameterize, terraformAddress } from "../parameterize/index.js";
import { adoptState, describeOrigin, type AdoptionPackage } from "../adopt/adopt.js";
import { mergeAdopted, type UntypedDeployment } from "../adopt/deployment.js";
import { adoptedProgram, type SecretSetting } from "../adopt/pcl.js";
import { readTerraformState, StateFileError } from "../adopt/tfstate.js";
import { runPulumi } from "./pulumi-cli.js";
import { projectPackages } from "./pulumi-yaml.js";
import { UsageError } from "./usage.js";

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

/** Runs the Pulumi CLI to do `what`; a failure is the command's, with the CLI's own words. */
async function pulumi(args: string[], what: string, input?: string): Promise<string> {
  const r = await runPulumi(args, input === undefined ? {} : { input });
  if (r.code !== 0) throw new UsageError(`pulumi ${args.join(" ")} failed (${what}):\n${r.stderr}`);
  return r.stdout;
}

/** `adopt`'s entry (src/commands/index.ts): its arguments (after `adopt`) to its exit code. */
export async function adoptCommand(argv: readonly string[]): Promise<number> {
  // Progress goes to stderr; stdout carries the list of what was adopted and what was not.
  const say = (m: string) => process.stderr.write(`${m}\n`);
  const packages: AdoptionPackage[] = [];
  try {
    const o = parseOptions(argv);
    if (!existsSync("Pulumi.yaml")) throw new UsageError("run adopt in the Pulumi project's directory: there is no Pulumi.yaml here");
    const state = stateFile(o.state);
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
    const stackName = (await pulumi(["stack", "--show-name", ...stackArgs], "find the stack")).trim();
    const exported = JSON.parse(await pulumi(["stack", "export", ...stackArgs], "read the stack's state")) as UntypedDeployment;
    const merged = mergeAdopted(exported, stackName, project.project, adoption.adopted);
    const notAdopted = [...adoption.notAdopted, ...merged.notAdopted];
    const secrets = await writeCode(merged.added, o);
    if (!o.dryRun && merged.added.length > 0) {
      const work = mkdtempSync(join(tmpdir(), "tf-adopt-"));
      try {
        const file = join(work, "deployment.json");
        writeFileSync(file, JSON.stringify(merged.deployment), { mode: 0o600 });
        await pulumi(["stack", "import", "--file", file, ...stackArgs], "write the stack's state");
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
      if (secrets.length > 0) say(`setting ${secrets.length} secret configuration values the code reads`);
      for (const { key, value } of secrets) await pulumi(["config", "set", "--secret", "--raw", key, ...stackArgs], `set the secret configuration value ${key}`, String(value));
    }
    for (const r of merged.added) process.stdout.write(`${o.dryRun ? "would adopt" : "adopted"} ${r.address} as ${r.token} ${r.name}\n`);
    for (const n of notAdopted) process.stdout.write(`not adopted ${n.address}: ${n.reason}\n`);
    process.stdout.write(`${merged.added.length} adopted${o.dryRun ? " (dry run: the stack is unchanged)" : ` into stack ${stackName}`}, ${notAdopted.length} not adopted; code in ${o.out}\n`);
    if (secrets.length > 0) process.stdout.write(`the code reads ${secrets.length} sensitive values from the stack's secret configuration (${o.dryRun ? "not set: a dry run" : "set"}): ${secrets.map((x) => x.key).join(", ")}\n`);
    return 0;
  } finally {
    await Promise.all(packages.map((p) => p.bridge.tf.close().catch(() => undefined)));
  }
}

/** The state file; one it cannot read is a usage error, told as the reader words it. */
function stateFile(path: string): ReturnType<typeof readTerraformState> {
  try {
    return readTerraformState(path);
  } catch (e) {
    if (e instanceof StateFileError) throw new UsageError(e.message, { cause: e });
    throw e;
  }
}

/** The PCL program, and the program in the chosen language through `pulumi convert --from pcl` (Pulumi's own code generators). */
async function writeCode(resources: Parameters<typeof adoptedProgram>[0], o: Options): Promise<SecretSetting[]> {
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
    const r = await runPulumi(["convert", "--from", "pcl", "--language", o.language, "--generate-only", "--out", generated], { cwd: join(work, "pcl") });
    if (r.code !== 0) throw new UsageError(`pulumi convert --from pcl --language ${o.language} failed:\n${r.stderr}${r.stdout}`);
    // Merged into `out`: files written there before stay unless the generator writes the same name.
    cpSync(generated, out, { recursive: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return secrets;
}

