// The package names a Pulumi project already uses, read where `pulumi package add` starts us, so that a second package
// under a name the program already has is refused before anything is downloaded (pulumi/pulumi#24167).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { formatAddress } from "../acquire/address.js";
import { invalidArgument } from "../acquire/errors.js";
import { parseArgs, type ProviderSource } from "./args.js";

/** One of the project's packages that already has a name. */
interface Taken {
  name: string;
  /** What made it, as the user would recognise it. */
  from: string;
  /** Where it is declared, relative to the project. */
  where: string;
  /** For a package of this plugin: the provider it bridges, to tell a re-add of the same provider from another one. */
  provider?: string;
}

/** The Pulumi.yaml (or .yml) of the project that `dir` is in, as Pulumi finds it: here or in a parent directory. */
function findProjectFile(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) if (existsSync(join(d, name))) return join(d, name);
    if (dirname(d) === d) return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The provider a package of this plugin bridges, from its Parameterize arguments: a path, or an address without version. */
function providerIdentity(source: ProviderSource, projectDir: string): string {
  return source.kind === "local" ? resolve(projectDir, source.path) : formatAddress(source.address);
}

/** One entry of Pulumi.yaml's `packages:`. */
export interface PackageEntry {
  name: string;
  /** `terraform-provider`, `terraform-provider@0.1.0-ts`, `aws`… */
  source: string;
  parameters: string[];
}

/**
 * The `packages:` of a parsed Pulumi.yaml, in the one reading of them (the `adopt` command's too): a name →
 * `source[@version]` or `{source, version, parameters}`.
 */
export function packageEntries(project: unknown): PackageEntry[] {
  const packages = (project as { packages?: unknown } | null)?.packages;
  if (packages === null || typeof packages !== "object") return [];
  return Object.entries(packages as Record<string, unknown>).map(([name, entry]) => {
    const spec = typeof entry === "string" ? { source: entry } : ((entry ?? {}) as { source?: unknown; parameters?: unknown });
    return { name, source: typeof spec.source === "string" ? spec.source : "", parameters: Array.isArray(spec.parameters) ? spec.parameters.map(String) : [] };
  });
}

/** `packages:` of Pulumi.yaml, as names the project has taken. */
async function declaredPackages(file: string): Promise<Taken[]> {
  const text = readText(file);
  if (text === undefined) return [];
  const { parse } = await import("yaml");
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    // Pulumi itself reports a Pulumi.yaml it cannot read; the name check is only a courtesy.
    return [];
  }
  const projectDir = dirname(file);
  const out: Taken[] = [];
  for (const { name, source, parameters } of packageEntries(doc)) {
    const taken: Taken = { name, from: [source, ...parameters].join(" "), where: `${file.slice(projectDir.length + 1)}, packages:` };
    if (source.split("@")[0] === "terraform-provider" && parameters.length > 0) {
      try {
        taken.provider = providerIdentity(parseArgs(parameters).source, projectDir);
      } catch {
        // Arguments this plugin would refuse make no package; any name may replace them.
      }
    }
    out.push(taken);
  }
  return out;
}

/** Pulumi's own packages the program depends on, by the manifests of its language beside Pulumi.yaml. */
function pulumiOwnPackages(projectDir: string): Taken[] {
  const out: Taken[] = [];
  const add = (name: string, from: string, where: string) => {
    if (name !== "pulumi" && !out.some((t) => t.name === name)) out.push({ name, from, where });
  };
  const pkg = readText(join(projectDir, "package.json"));
  if (pkg !== undefined) {
    try {
      const json = JSON.parse(pkg) as Record<string, Record<string, string> | undefined>;
      for (const deps of [json["dependencies"], json["devDependencies"]]) {
        for (const [dep, spec] of Object.entries(deps ?? {})) {
          // An SDK generated into the project (file:sdks/<name>) is a package of a plugin, declared in Pulumi.yaml.
          const m = /^@pulumi\/([a-z][a-z0-9_-]*)$/.exec(dep);
          if (m !== null && !/^(file|link):/.test(String(spec))) add(m[1]!, `${dep}@${String(spec)}`, "package.json");
        }
      }
    } catch {
      // Not ours to report.
    }
  }
  // A requirement line starts with the distribution's name; pyproject.toml quotes each one.
  const python: [string, RegExp][] = [
    ["requirements.txt", /^\s*pulumi[-_]([a-z][a-z0-9_-]*?)\s*(?:[=<>~!;[,]|$)/gim],
    ["pyproject.toml", /["']pulumi[-_]([a-z][a-z0-9_-]*?)\s*[=<>~!;[,"']/gi],
  ];
  for (const [file, requirement] of python) {
    for (const m of (readText(join(projectDir, file)) ?? "").matchAll(requirement)) add(m[1]!.toLowerCase().replace(/_/g, "-"), `pulumi-${m[1]!}`, file);
  }
  const gomod = readText(join(projectDir, "go.mod")) ?? "";
  for (const m of gomod.matchAll(/github\.com\/pulumi\/pulumi-([a-z][a-z0-9-]*)\/sdk(?:\/v\d+)?\s+v/g)) {
    // A replace to a directory is an SDK generated into the project.
    if (!new RegExp(`github\\.com/pulumi/pulumi-${m[1]!}/sdk\\S*\\s+=>\\s+\\.`).test(gomod)) add(m[1]!, `github.com/pulumi/pulumi-${m[1]!}/sdk`, "go.mod");
  }
  const pom = readText(join(projectDir, "pom.xml")) ?? "";
  for (const m of pom.matchAll(/<groupId>com\.pulumi<\/groupId>\s*<artifactId>([a-z][a-z0-9-]*)<\/artifactId>/g)) add(m[1]!, `com.pulumi:${m[1]!}`, "pom.xml");
  return out;
}

/**
 * Refuses `--package-name NAME` when the project in `cwd` already has a package NAME made from something else: another
 * provider, or Pulumi's own package of that name (the engine cannot load two packages of one name in a program). With
 * the provider's own name (no flag) nothing changes, as with the reference: a warning names the flag instead. Adding the
 * same provider again under its name (a new version) is not a clash.
 */
export async function checkPackageName(p: { name: string; explicit: boolean; source: ProviderSource; cwd: string; warn?: (message: string) => void }): Promise<void> {
  const file = findProjectFile(p.cwd);
  if (file === undefined) return;
  const projectDir = dirname(file);
  const ours = providerIdentity(p.source, p.cwd);
  // Under the provider's own name, `package add` replaces a Pulumi.yaml entry of that name, as the user asked.
  const declared = p.explicit ? await declaredPackages(file) : [];
  const clash = [...declared, ...pulumiOwnPackages(projectDir)].find((t) => t.name === p.name && t.provider !== ours);
  if (clash === undefined) return;
  const what = `this project already has a package named ${p.name} (${clash.where}), made from ${clash.from}`;
  if (p.explicit) throw invalidArgument(`--package-name ${p.name}: ${what}; choose another name`);
  p.warn?.(`${what}; a program cannot use two packages of one name: add this provider under another with --package-name (e.g. \`-- --package-name tf${p.name}\`)`);
}
