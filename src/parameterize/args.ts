// The args form of Parameterize (`pulumi package add terraform-provider ARGS...`): flags, source and validation.
import { parseProviderAddress, type ProviderAddress } from "../acquire/address.js";
import { parseVersionConstraint, type VersionConstraint } from "../acquire/constraint.js";
import { invalidArgument, ParameterizeError } from "../acquire/errors.js";
import { typeFromBinaryName } from "./local.js";

export const USAGE = `Usage: pulumi package add terraform-provider <provider> [version-constraint] [flags]
       pulumi package add terraform-provider <path/to/terraform-provider-NAME> [flags]

<provider> is a Terraform provider address [hostname/][namespace/]type, e.g. random, hashicorp/random
or registry.opentofu.org/hashicorp/random (host defaults to registry.opentofu.org, namespace to hashicorp).
[version-constraint] uses Terraform syntax, e.g. "~> 3.6", ">= 1.2, < 2.0", "= 3.6.3"; default: the newest.
A path starting with "." or "/" names a provider binary on disk (its file name: terraform-provider-NAME).
Registry providers are downloaded, verified and cached as Terraform does: credentials from TF_TOKEN_<host> or the
Terraform CLI configuration (TF_CLI_CONFIG_FILE, ~/.terraformrc), which may also set mirrors; the cache is
PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR, default ~/.pulumi/dynamic_tf_plugins.

Flags:
  --include a,b            only map these Terraform resources, data sources and functions
  --exclude a,b            leave these out (a token may not be both included and excluded)
  --package-name NAME      the Pulumi package's name instead of the provider type: its tokens (NAME:index/…), its
                           SDK (@pulumi/NAME, pulumi_NAME, …) and its provider resource; for a second package of one
                           provider, or beside Pulumi's own package of the same name (--provider-name is the same flag,
                           as the reference spells it)
  --fullDocs               (registry providers) full docs from the provider's repository
                           (https://github.com/<namespace>/terraform-provider-<type> at tag v<version>, fetched with
                           git into the cache; TF_BRIDGE_DOCS_REPO_URL overrides the URL); offline: schema docs only
  --upstreamRepoPath DIR   full docs from a checkout of the provider's repository (its docs/ or website/docs/)
  --indexDocOutDir DIR     also write the package's registry page, DIR/_index.md
  --help                   show this text

Flags come after the provider; pass them after "--" so pulumi does not take them:
  pulumi package add terraform-provider -- hashicorp/random "~> 3.6" --include random_id`;

/** Which resources, data sources and functions to map, and under what package name. */
export interface Selection {
  includes: string[];
  excludes: string[];
  providerName?: string;
}

export interface DocsOptions {
  fullDocs: boolean;
  upstreamRepoPath?: string;
  indexDocOutDir?: string;
}

export type ProviderSource =
  | { kind: "local"; path: string }
  | { kind: "remote"; address: ProviderAddress; constraint: VersionConstraint };

export interface ParsedArgs {
  source: ProviderSource;
  selection: Selection;
  docs: DocsOptions;
}

/**
 * Asking for help is not a failure of the user's input, but Parameterize can only answer with a package or an error:
 * the server shows `usage` as a plain info message first (as the reference does), so the error need only say that
 * nothing was added.
 */
export class HelpRequested extends ParameterizeError {
  readonly usage = USAGE;
  constructor() {
    super("invalid-argument", "the usage is shown above (--help); nothing was added");
    this.name = "HelpRequested";
  }
}

/** A Pulumi package name: it becomes the first part of every token and the SDK's package name. */
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;

export function validatePackageName(name: string, what: string): string {
  if (name === "") throw invalidArgument(`${what} is empty: give the package a name (letters, digits, dashes and underscores, starting with a letter)`);
  if (!PACKAGE_NAME.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[a-zA-Z0-9_-]/.test(c)))];
    const why = bad.length > 0 ? `${bad.map((c) => JSON.stringify(c)).join(", ")} cannot be part of a package name (tokens are <package>:<module>:<type>)` : "a package name starts with a letter";
    throw invalidArgument(`invalid ${what} "${name}": ${why}; use letters, digits, dashes and underscores, starting with a letter`);
  }
  // The engine's own package: `pulumi:providers:pulumi` and `pulumi:pulumi:Stack` would be read as its.
  if (name === "pulumi") throw invalidArgument(`invalid ${what} "pulumi": the name is Pulumi's own; choose another`);
  return name;
}


/** Splits comma lists (as cobra's string slices do), dropping blanks so "a, b," means a and b. */
function splitList(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function parseBool(flag: string, v: string | undefined): boolean {
  if (v === undefined) return true;
  if (/^(true|1|t)$/i.test(v)) return true;
  if (/^(false|0|f)$/i.test(v)) return false;
  throw invalidArgument(`invalid value "${v}" for --${flag}: expected true or false`);
}

type FlagName = "include" | "exclude" | "package-name" | "provider-name" | "fullDocs" | "upstreamRepoPath" | "indexDocOutDir" | "help";
const VALUE_FLAGS: ReadonlySet<string> = new Set(["include", "exclude", "package-name", "provider-name", "upstreamRepoPath", "indexDocOutDir"]);
const BOOL_FLAGS: ReadonlySet<string> = new Set(["fullDocs", "help"]);

/** Parses the args form. Flags may appear before, between or after the positional arguments; `--` ends flags. */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const includes: string[] = [];
  const excludes: string[] = [];
  let providerName: { name: string; flag: string } | undefined;
  const docs: DocsOptions = { fullDocs: false };
  let help = false;

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("--") || arg.length === 2) {
      if (arg.startsWith("-") && arg !== "-") throw invalidArgument(`unknown flag "${arg}"; run with --help for the flags`);
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)) as FlagName;
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    if (VALUE_FLAGS.has(name)) {
      if (value === undefined) {
        value = args[++i];
        if (value === undefined) throw invalidArgument(`flag --${name} needs a value`);
      }
    } else if (!BOOL_FLAGS.has(name)) {
      throw invalidArgument(`unknown flag "--${name}"; the flags are --include, --exclude, --package-name (or --provider-name), --fullDocs, --upstreamRepoPath, --indexDocOutDir and --help`);
    }
    switch (name) {
      case "include":
        includes.push(...splitList(value!));
        break;
      case "exclude":
        excludes.push(...splitList(value!));
        break;
      case "package-name":
      case "provider-name": {
        const named = validatePackageName(value!, `--${name}`);
        if (providerName !== undefined && providerName.name !== named) {
          throw invalidArgument(`--${providerName.flag} ${providerName.name} and --${name} ${named} name the package twice; give one name`);
        }
        providerName = { name: named, flag: name };
        break;
      }
      case "upstreamRepoPath":
        docs.upstreamRepoPath = value!;
        break;
      case "indexDocOutDir":
        docs.indexDocOutDir = value!;
        break;
      case "fullDocs":
        docs.fullDocs = parseBool(name, value);
        break;
      case "help":
        help = parseBool(name, value) || help;
        break;
    }
  }
  if (help) throw new HelpRequested();

  const both = [...new Set(includes.filter((t) => excludes.includes(t)))].sort();
  if (both.length > 0) throw invalidArgument(`tokens cannot be both included and excluded: ${both.join(", ")}`);
  const selection: Selection = { includes: [...new Set(includes)], excludes: [...new Set(excludes)] };
  if (providerName !== undefined) selection.providerName = providerName.name;

  if (positional.length === 0) {
    throw invalidArgument(`missing the Terraform provider: give an address like hashicorp/random or a path like ./terraform-provider-random\n\n${USAGE}`);
  }
  const first = positional[0]!;
  if (first.startsWith(".") || first.startsWith("/")) {
    if (positional.length > 1) {
      throw invalidArgument(`a local provider takes exactly one argument, its path; found ${positional.length}: ${positional.join(" ")}`);
    }
    if (docs.fullDocs) throw invalidArgument("--fullDocs only applies to registry providers; for a local provider use --upstreamRepoPath");
    typeFromBinaryName(first);
    return { source: { kind: "local", path: first }, selection, docs };
  }
  if (positional.length > 2) {
    throw invalidArgument(`expected a provider address and at most one version constraint; found ${positional.length} arguments: ${positional.join(" ")}`);
  }
  if (docs.fullDocs && docs.upstreamRepoPath !== undefined) {
    throw invalidArgument("give one of --fullDocs (fetch the provider's repository) and --upstreamRepoPath (a checkout of it), not both");
  }
  const address = parseProviderAddress(first);
  const constraint = parseVersionConstraint(positional[1] ?? "");
  return { source: { kind: "remote", address, constraint }, selection, docs };
}
