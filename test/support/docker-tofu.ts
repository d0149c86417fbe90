// Any Docker stack written once and run two ways on the same engine, for the drift and fault tests: as a Terraform
// configuration by `tofu` and as a Pulumi YAML program through the plugin, with each side's per-resource actions
// (plan, refresh, preview) and unknowns read into the same words so that the tests can compare them (docker-stack.ts
// writes the bench's N-container stack).
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONTAINER_TOKEN, VOLUME_TOKEN } from "./docker-stack.js";
import { repoRoot } from "./peers.js";
import { spawnAsync, type Ran } from "./processes.js";
import { devOverridesEnv } from "./terraform-cli.js";
import type { PreviewJson } from "./lifecycle.js";

/** A resource of the stack, in Terraform's names; `{p}` in any string becomes the side's prefix (names must not clash). */
export interface StackResource {
  type: "docker_container" | "docker_volume";
  props: Record<string, unknown>;
  /** Resources of the stack this one waits for (Terraform's depends_on, Pulumi's dependsOn). */
  dependsOn?: string[];
}

export type Stack = Record<string, StackResource>;

/** What happens to one resource: the words both sides are read into. */
export type Action = "create" | "update" | "replace" | "delete" | "same";

/** A reference to another resource's attribute, `ref("vol", "name")`, written as each side spells it. */
export const ref = (resource: string, attribute: string): string => `{ref:${resource}.${attribute}}`;

/** Pulumi's property names where the plugin's inflector pluralizes a list attribute. */
const PLURAL: Record<string, string> = { command: "commands", entrypoint: "entrypoints", env: "envs", test: "tests", upload: "uploads", ulimit: "ulimits" };
/** Blocks of at most one element, one object in Pulumi. */
const SINGLE = new Set(["healthcheck"]);

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
export const pulumiName = (tf: string): string => PLURAL[tf] ?? camel(tf);

function substitute(v: unknown, prefix: string, refer: (resource: string, attribute: string) => string): unknown {
  if (typeof v === "string") return v.split("{p}").join(prefix).replace(/\{ref:(\w+)\.(\w+)\}/g, (_, r: string, a: string) => refer(r, a));
  if (Array.isArray(v)) return v.map((x) => substitute(x, prefix, refer));
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x, prefix, refer)]));
  return v;
}

function toPulumi(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toPulumi);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [pulumiName(k), SINGLE.has(k) && Array.isArray(x) ? toPulumi(x[0]) : toPulumi(x)]));
  }
  return v;
}

/** The stack as a Terraform JSON configuration whose provider talks to `host`. */
export function terraformConfig(stack: Stack, host: string, prefix = "tf"): Record<string, unknown> {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const [name, r] of Object.entries(stack)) {
    const typeOf = (n: string) => stack[n]!.type;
    const body = substitute(r.props, prefix, (n, a) => `\${${typeOf(n)}.${n}.${a}}`) as Record<string, unknown>;
    if (r.dependsOn !== undefined) body["depends_on"] = r.dependsOn.map((n) => `${typeOf(n)}.${n}`);
    (resources[r.type] ??= {})[name] = body;
  }
  return { terraform: { required_providers: { docker: { source: "kreuzwerker/docker" } } }, provider: { docker: { host } }, resource: resources };
}

const TOKENS = { docker_container: CONTAINER_TOKEN, docker_volume: VOLUME_TOKEN };

/** The stack as a Pulumi YAML program (JSON, which YAML reads); the provider's host comes from `docker:host`. */
export function yamlProgram(stack: Stack, prefix = "pu"): string {
  const resources: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(stack)) {
    const properties = toPulumi(substitute(r.props, prefix, (n, a) => `\${${n}.${pulumiName(a)}}`));
    resources[name] = { type: TOKENS[r.type], properties, ...(r.dependsOn === undefined ? {} : { options: { dependsOn: r.dependsOn.map((n) => `\${${n}}`) } }) };
  }
  return JSON.stringify({ resources }, null, 1);
}

/** Terraform's action list as one word. */
function actionOf(actions: string[]): Action {
  const a = actions.join(",");
  if (a === "create") return "create";
  if (a === "update") return "update";
  if (a === "delete") return "delete";
  if (a === "delete,create" || a === "create,delete") return "replace";
  if (a === "no-op" || a === "read") return "same";
  throw new Error(`an action list no test expects: ${a}`);
}

/** What `tofu show -json <plan>` says of a saved plan. */
interface PlanJson {
  resource_drift?: { address: string; change: { actions: string[] } }[];
  resource_changes?: { address: string; change: { actions: string[]; after_unknown?: unknown; after?: unknown } }[];
}

export interface TofuPlan {
  /** What the refresh found changed outside, by resource name; resources it did not list are "same". */
  drift: Record<string, Action>;
  /** What the plan would do, by resource name. */
  changes: Record<string, Action>;
  json: PlanJson;
}

/** OpenTofu on a stack in its own folder, with the Docker provider taken from dev_overrides. */
export class TofuStack {
  readonly env: NodeJS.ProcessEnv;
  /** The tofu executable, for a test that runs it itself. */
  readonly bin = realpathSync(join(repoRoot, ".peers", "tofu"));

  constructor(
    readonly dir: string,
    private readonly host: string,
  ) {
    this.env = devOverridesEnv(dir, { "kreuzwerker/docker": "docker" });
  }

  write(stack: Stack): void {
    writeFileSync(join(this.dir, "main.tf.json"), JSON.stringify(terraformConfig(stack, this.host), null, 1));
  }

  run(args: string[]): Promise<Ran> {
    return spawnAsync(this.bin, [...args, "-no-color", ...(["plan", "apply", "destroy"].includes(args[0]!) ? ["-input=false"] : [])], { cwd: this.dir, env: this.env });
  }

  async ok(args: string[]): Promise<Ran> {
    const r = await this.run(args);
    if (r.status !== 0) throw new Error(`tofu ${args.join(" ")} in ${this.dir} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  /** `tofu plan [-refresh-only]` saved, then read with `tofu show -json`, for the stack's resources (all by name). */
  async plan(stack: Stack, refreshOnly = false): Promise<TofuPlan> {
    await this.ok(["plan", ...(refreshOnly ? ["-refresh-only"] : []), "-out", "plan.bin"]);
    const json = JSON.parse((await this.ok(["show", "-json", "plan.bin"])).stdout) as PlanJson;
    const drift: Record<string, Action> = {};
    const changes: Record<string, Action> = {};
    for (const name of Object.keys(stack)) {
      const address = `${stack[name]!.type}.${name}`;
      const d = json.resource_drift?.find((r) => r.address === address);
      drift[name] = d === undefined ? "same" : actionOf(d.change.actions);
      const c = json.resource_changes?.find((r) => r.address === address);
      changes[name] = c === undefined ? "same" : actionOf(c.change.actions);
    }
    return { drift, changes, json };
  }
}

/**
 * The action per resource of `pulumi preview --json` or `pulumi refresh --preview-only --json`: a refresh step that
 * found nothing changed is "same", and a resource the output leaves out is too.
 */
export function pulumiActions(preview: PreviewJson, stack: Stack): Record<string, Action> {
  const out: Record<string, Action> = {};
  for (const name of Object.keys(stack)) {
    const op = preview.steps?.find((s) => s.urn.endsWith(`::${name}`))?.op ?? "same";
    out[name] = op === "refresh" ? "same" : (op as Action);
  }
  return out;
}

/** Paths (`labels[0].value`) of the leaves of a value that are unknown: `true` in Terraform's after_unknown. */
export function unknownPaths(afterUnknown: unknown, path = ""): string[] {
  if (afterUnknown === true) return [path];
  if (Array.isArray(afterUnknown)) return afterUnknown.flatMap((v, i) => unknownPaths(v, `${path}[${i}]`));
  if (afterUnknown !== null && typeof afterUnknown === "object") return Object.entries(afterUnknown).flatMap(([k, v]) => unknownPaths(v, path === "" ? k : `${path}.${k}`));
  return [];
}

/** Pulumi's sentinel for a value unknown during a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Paths of the leaves of Pulumi property values that are unknown, in Pulumi's names. */
export function pulumiUnknownPaths(value: unknown, path = ""): string[] {
  if (value === UNKNOWN) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => pulumiUnknownPaths(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => pulumiUnknownPaths(v, path === "" ? k : `${path}.${k}`));
  return [];
}

/** A Terraform path (`labels[0].value`) in Pulumi's names. */
export const pulumiPath = (tfPath: string): string => tfPath.replace(/[a-z_]+/g, (seg) => pulumiName(seg));
