// Finds and reads the doc pages of a provider's repository: `docs/<kind>/<name>.md` or `website/docs/<r|d|functions>/…`.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseDocPage, type EntityDocs } from "./markdown.js";

export type DocKind = "resources" | "data-sources" | "ephemeral-resources" | "functions";

/** The doc pages of one provider, keyed by Terraform name, all parsed. */
export interface ProviderDocs {
  /** The provider's own page (`docs/index.md`): overview, examples and configuration. */
  provider?: EntityDocs;
  resources: Map<string, EntityDocs>;
  dataSources: Map<string, EntityDocs>;
  ephemeralResources: Map<string, EntityDocs>;
  functions: Map<string, EntityDocs>;
  /** Entities with no page, as `resource random_foo`, for one warning. */
  missing: string[];
}

/** The provider's Terraform names to find pages for. */
export interface DocsWanted {
  resources: readonly string[];
  dataSources: readonly string[];
  ephemeralResources?: readonly string[];
  functions: readonly string[];
}

export class DocsRepoError extends Error {}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The folders pages of a kind live in; the older website layout first, as the Terraform registry reads them.
 * Ephemeral resources came after that layout, so they have only `docs/ephemeral-resources`.
 */
function kindDirs(repo: string, kind: DocKind): string[] {
  if (kind === "ephemeral-resources") return [join(repo, "docs", kind)].filter(isDir);
  const legacy = kind === "functions" ? "functions" : kind[0]!;
  return [join(repo, "website", "docs", legacy), join(repo, "docs", kind)].filter(isDir);
}

/**
 * Page file names for a Terraform name, most common first: without the provider prefix (every name but a bare
 * `http` has one, up to its first underscore), then with it.
 */
function pageNames(tfName: string, hasPrefix: boolean): string[] {
  const cut = tfName.indexOf("_");
  const short = hasPrefix && cut > 0 ? tfName.slice(cut + 1) : tfName;
  const exts = [".md", ".html.markdown", ".markdown", ".html.md"];
  const names = [short, tfName].flatMap((n) => exts.map((e) => n + e));
  return [...new Set(names)];
}

function readPage(path: string): EntityDocs {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new DocsRepoError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return parseDocPage(text, path);
}

function findPage(dirs: readonly string[], names: readonly string[]): string | undefined {
  for (const dir of dirs) {
    for (const name of names) {
      const p = join(dir, name);
      if (existsSync(p) && statSync(p).isFile()) return p;
    }
  }
  return undefined;
}

/**
 * Reads the pages of every wanted entity from a checked-out repository. A repository without any docs folder is an
 * error (a wrong path is the likely cause); an entity without a page is listed in `missing`.
 */
export function readProviderDocs(repo: string, wanted: DocsWanted): ProviderDocs {
  if (!isDir(repo)) throw new DocsRepoError(`${repo} is not a directory`);
  const roots = [join(repo, "docs"), join(repo, "website", "docs")].filter(isDir);
  if (roots.length === 0) {
    throw new DocsRepoError(`${repo} has no docs/ or website/docs/ folder; give the root of the Terraform provider's repository`);
  }
  const missing: string[] = [];
  const read = (kind: DocKind, names: readonly string[], label: string): Map<string, EntityDocs> => {
    const dirs = kindDirs(repo, kind);
    const out = new Map<string, EntityDocs>();
    for (const name of names) {
      // Functions have no provider prefix to leave off.
      const page = findPage(dirs, pageNames(name, kind !== "functions"));
      if (page === undefined) missing.push(`${label} ${name}`);
      else out.set(name, readPage(page));
    }
    return out;
  };
  const docs: ProviderDocs = {
    resources: read("resources", wanted.resources, "resource"),
    dataSources: read("data-sources", wanted.dataSources, "data source"),
    ephemeralResources: read("ephemeral-resources", wanted.ephemeralResources ?? [], "ephemeral resource"),
    functions: read("functions", wanted.functions, "function"),
    missing,
  };
  const index = findPage(roots, ["index.md", "index.html.markdown"]);
  if (index !== undefined) docs.provider = readPage(index);
  return docs;
}
