// Finds and reads the doc pages of a provider's repository: `docs/<kind>/<name>.md` or `website/docs/<r|d|functions>/…`.
import { closeSync, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { parseDocPage, type EntityDocs } from "./markdown.js";
import { positiveWhole, readSetting } from "../setting.js";

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
  /** Pages found but not read (outside the repository, or too large), each with why, for a warning each. */
  refused: string[];
}

/** The provider's Terraform names to find pages for. */
export interface DocsWanted {
  resources: readonly string[];
  dataSources: readonly string[];
  ephemeralResources?: readonly string[];
  functions: readonly string[];
}

export class DocsRepoError extends Error {}

/** The largest doc page that is read, in bytes. */
export const MAX_DOC_PAGE_BYTES_ENV = "TF_BRIDGE_MAX_DOC_PAGE_BYTES";
/** The largest real pages (the big cloud providers' resources) are some hundreds of KiB; a page is text read whole. */
export const DEFAULT_MAX_DOC_PAGE_BYTES = 4 * 1024 * 1024;

/** The page size limit from the environment: a whole number of bytes above 0, or the default when unset. */
export function maxDocPageBytes(env: NodeJS.ProcessEnv): number {
  const setting = { name: MAX_DOC_PAGE_BYTES_ENV, fallback: DEFAULT_MAX_DOC_PAGE_BYTES, shown: DEFAULT_MAX_DOC_PAGE_BYTES, what: "a whole number of bytes above 0", parse: positiveWhole };
  return readSetting(env, setting, (message) => new DocsRepoError(message));
}

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

/**
 * A page's text, or why it is not read: a page that resolves (through symlinks, its own or a folder's) outside the
 * repository would put any file the user can read into the schema, and one larger than `maxBytes` is no doc page.
 */
function pageText(path: string, root: string, maxBytes: number): { text: string } | { refused: string } {
  let fd: number | undefined;
  try {
    const real = realpathSync(path);
    if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return { refused: `${path} resolves to ${real}, outside the repository ${root}; symlinks out of the repository are not followed` };
    fd = openSync(real, "r");
    const size = fstatSync(fd).size;
    if (size > maxBytes) return { refused: `${path} is ${size} bytes, more than ${MAX_DOC_PAGE_BYTES_ENV} (${maxBytes}); raise ${MAX_DOC_PAGE_BYTES_ENV} to read it` };
    const buf = Buffer.alloc(size);
    let got = 0;
    for (let n = -1; n !== 0 && got < size; got += n) n = readSync(fd, buf, got, size - got, got);
    return { text: buf.subarray(0, got).toString("utf8") };
  } catch (e) {
    throw new DocsRepoError(`cannot read ${path}: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
export function readProviderDocs(repo: string, wanted: DocsWanted, env: NodeJS.ProcessEnv = process.env): ProviderDocs {
  if (!isDir(repo)) throw new DocsRepoError(`${repo} is not a directory`);
  const maxBytes = maxDocPageBytes(env);
  const root = realpathSync(repo);
  const roots = [join(repo, "docs"), join(repo, "website", "docs")].filter(isDir);
  if (roots.length === 0) {
    throw new DocsRepoError(`${repo} has no docs/ or website/docs/ folder; give the root of the Terraform provider's repository`);
  }
  const missing: string[] = [];
  const refused: string[] = [];
  const readPage = (path: string): EntityDocs | undefined => {
    const page = pageText(path, root, maxBytes);
    if ("text" in page) return parseDocPage(page.text, path);
    refused.push(page.refused);
    return undefined;
  };
  const read = (kind: DocKind, names: readonly string[], label: string): Map<string, EntityDocs> => {
    const dirs = kindDirs(repo, kind);
    const out = new Map<string, EntityDocs>();
    for (const name of names) {
      // Functions have no provider prefix to leave off.
      const page = findPage(dirs, pageNames(name, kind !== "functions"));
      const docs = page === undefined ? undefined : readPage(page);
      if (page === undefined) missing.push(`${label} ${name}`);
      else if (docs !== undefined) out.set(name, docs);
    }
    return out;
  };
  const docs: ProviderDocs = {
    resources: read("resources", wanted.resources, "resource"),
    dataSources: read("data-sources", wanted.dataSources, "data source"),
    ephemeralResources: read("ephemeral-resources", wanted.ephemeralResources ?? [], "ephemeral resource"),
    functions: read("functions", wanted.functions, "function"),
    missing,
    refused,
  };
  const index = findPage(roots, ["index.md", "index.html.markdown"]);
  const provider = index === undefined ? undefined : readPage(index);
  if (provider !== undefined) docs.provider = provider;
  return docs;
}
