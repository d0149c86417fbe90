// The one reader and writer of a project's Pulumi.yaml for the commands, through the `yaml` library: what is read is
// YAML as the CLI reads it, and what is changed leaves the rest of the file (comments, order, quoting) as it was.
import { isMap, isScalar, parseDocument, stringify, type Document } from "yaml";
import { packageEntries } from "../parameterize/project-packages.js";
import { UsageError } from "./usage.js";

/** A package of the project bridged through this plugin, as `pulumi package add` writes it. */
export interface ProjectPackage {
  name: string;
  parameters: string[];
}

function parse(text: string, file: string): Document {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UsageError(`${file} is not valid YAML: ${doc.errors[0]!.message}`);
  return doc;
}

/**
 * The project's name and its packages of this plugin (`source: terraform-provider`, with their parameters); the short
 * form `name: terraform-provider@0.1.0-ts` has no parameters, so nothing to parameterize with, and is left out.
 */
export function projectPackages(text: string, file = "Pulumi.yaml"): { project: string; packages: ProjectPackage[] } {
  const project: unknown = parse(text, file).toJS();
  const fields = typeof project === "object" && project !== null ? (project as Record<string, unknown>) : {};
  const name = fields["name"];
  if (typeof name !== "string" && typeof name !== "number") throw new UsageError(`${file} names no project (\`name:\`)`);
  const packages = packageEntries(project).filter((p) => p.source === "terraform-provider");
  return { project: String(name), packages: packages.map(({ name: pkg, parameters }) => ({ name: pkg, parameters })) };
}

/** A YAML project that asks for `pkg` by name and version under `packages:` (`pulumi convert` generates SDKs from it). */
export function pinnedProject(name: string, pkg: string, reference: string): string {
  return stringify({ name, runtime: "yaml", packages: { [pkg]: reference } }, { lineWidth: 0 });
}

/**
 * Removes the `packages:` entry `pkg: reference` (and the `packages:` key it leaves empty); undefined when the
 * project has no such entry.
 */
export function unpinProject(text: string, pkg: string, reference: string, file = "Pulumi.yaml"): string | undefined {
  const doc = parse(text, file);
  const packages = doc.get("packages", true);
  if (!isMap(packages)) return undefined;
  const entry = packages.get(pkg, true);
  if (!isScalar(entry) || entry.value !== reference) return undefined;
  packages.delete(pkg);
  if (packages.items.length === 0) doc.delete("packages");
  return doc.toString({ lineWidth: 0 });
}

/**
 * The project with its plain `runtime: python` given a virtual environment of its own (`toolchain: pip`, `virtualenv:
 * venv`), as `pulumi new` makes it; undefined when the runtime is written another way.
 */
export function pythonVirtualenvRuntime(text: string, file = "Pulumi.yaml"): string | undefined {
  const doc = parse(text, file);
  const runtime = doc.get("runtime", true);
  if (!isScalar(runtime) || runtime.value !== "python") return undefined;
  doc.set("runtime", doc.createNode({ name: "python", options: { toolchain: "pip", virtualenv: "venv" } }));
  return doc.toString({ lineWidth: 0 });
}
