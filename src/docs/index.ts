// Full docs from a Terraform provider's repository: where they come from (a folder, or the provider's repository at its
// release tag fetched with git into the cache), parsing its markdown pages (markdown.ts) and the registry's _index.md.
import { fetchUpstreamDocs, type UpstreamRepo } from "./upstream.js";
import { DocsRepoError, readProviderDocs, type DocsWanted, type ProviderDocs } from "./repo.js";
import { DocsParseError } from "./markdown.js";

export type { EntityDocs } from "./markdown.js";
export type { DocsWanted, ProviderDocs } from "./repo.js";
export { DOCS_REPO_URL_ENV, upstreamCacheDir, upstreamUrl, type UpstreamRepo } from "./upstream.js";

/** Where full docs come from: `--upstreamRepoPath DIR`, or `--fullDocs` (the registry provider's repository). */
export type DocsSource = { kind: "path"; dir: string } | { kind: "upstream"; repo: UpstreamRepo };

export interface LoadDocsOptions {
  /** The plugin cache root; fetched repositories are kept below it. */
  cacheRoot: string;
  warn?: (message: string) => void;
  status?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** How many missing pages one warning names before it only counts them. */
const MISSING_NAMED = 8;

function flag(source: DocsSource): string {
  return source.kind === "path" ? `--upstreamRepoPath ${source.dir}` : "--fullDocs";
}

/**
 * The repository folder for a source: as given, or fetched (from the cache when it holds this version). Undefined,
 * after a warning, when it cannot be had: full docs are a nicety, never a reason to fail.
 */
export async function docsRepository(source: DocsSource, options: LoadDocsOptions): Promise<string | undefined> {
  if (source.kind === "path") return source.dir;
  const r = await fetchUpstreamDocs(source.repo, { cacheRoot: options.cacheRoot, status: options.status, env: options.env });
  if (r.ok) return r.dir;
  options.warn?.(`--fullDocs: no docs for ${source.repo.namespace}/${source.repo.type} ${source.repo.version}: ${r.reason}; descriptions come from the provider schema only`);
  return undefined;
}

/** Reads and parses the pages of the wanted entities; undefined, after a warning, when the repository has none. */
export function readDocs(source: DocsSource, repo: string, wanted: DocsWanted, options: Pick<LoadDocsOptions, "warn">): ProviderDocs | undefined {
  let docs: ProviderDocs;
  try {
    docs = readProviderDocs(repo, wanted);
  } catch (e) {
    if (!(e instanceof DocsRepoError || e instanceof DocsParseError)) throw e;
    options.warn?.(`${flag(source)}: ${e.message}; descriptions come from the provider schema only`);
    return undefined;
  }
  for (const why of docs.refused) options.warn?.(`${flag(source)}: ${why}; that page keeps the schema's descriptions`);
  if (docs.missing.length > 0) {
    const total = wanted.resources.length + wanted.dataSources.length + (wanted.ephemeralResources?.length ?? 0) + wanted.functions.length;
    const named = docs.missing.slice(0, MISSING_NAMED).join(", ") + (docs.missing.length > MISSING_NAMED ? `, and ${docs.missing.length - MISSING_NAMED} more` : "");
    options.warn?.(`${flag(source)}: no doc page for ${docs.missing.length} of ${total} (${named}); they keep the schema's descriptions`);
  }
  return docs;
}

/** Both steps: the repository, then its pages. */
export async function loadProviderDocs(source: DocsSource, wanted: DocsWanted, options: LoadDocsOptions): Promise<ProviderDocs | undefined> {
  const repo = await docsRepository(source, options);
  return repo === undefined ? undefined : readDocs(source, repo, wanted, options);
}
