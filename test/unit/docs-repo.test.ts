// What the docs reader refuses to read from a provider's repository: pages that resolve outside it, and pages too large.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readDocs } from "../../src/docs/index.js";
import { DEFAULT_MAX_DOC_PAGE_BYTES, DocsRepoError, MAX_DOC_PAGE_BYTES_ENV, maxDocPageBytes, readProviderDocs } from "../../src/docs/repo.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-docs-repo-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const page = (title: string, body: string): string => `---\npage_title: "${title}"\n---\n\n# ${title}\n\n${body}\n`;

/** A repository whose pages link to a secret outside it, to a page inside it, and whose data-sources folder links out. */
function repoWithLinks(): { repo: string; secret: string } {
  const base = mkdtempSync(join(scratch, "case-"));
  const outside = join(base, "outside");
  mkdirSync(join(outside, "data-sources"), { recursive: true });
  const secret = join(outside, "credentials");
  writeFileSync(secret, page("secret", "aws_secret_access_key = SECRET-VALUE"));
  writeFileSync(join(outside, "data-sources", "thing.md"), page("outside data source", "OUTSIDE-DATA-SOURCE"));
  const repo = join(base, "repo");
  mkdirSync(join(repo, "docs", "resources"), { recursive: true });
  mkdirSync(join(repo, "shared"));
  writeFileSync(join(repo, "docs", "resources", "plain.md"), page("acme_plain", "A plain page."));
  writeFileSync(join(repo, "shared", "linked.md"), page("acme_linked", "A page linked from inside the repository."));
  symlinkSync(join("..", "..", "shared", "linked.md"), join(repo, "docs", "resources", "linked.md"));
  symlinkSync(secret, join(repo, "docs", "resources", "leak.md"));
  symlinkSync(join(outside, "data-sources"), join(repo, "docs", "data-sources"));
  symlinkSync(secret, join(repo, "docs", "index.md"));
  return { repo, secret };
}

describe("pages outside the repository", () => {
  it("are not read, through a page's own symlink, a folder's symlink or the index page's; symlinks inside the repository are", () => {
    const { repo, secret } = repoWithLinks();
    const docs = readProviderDocs(repo, { resources: ["acme_plain", "acme_linked", "acme_leak"], dataSources: ["acme_thing"], functions: [] });
    expect(docs.resources.get("acme_plain")?.description).toContain("A plain page.");
    expect(docs.resources.get("acme_linked")?.description).toContain("A page linked from inside the repository.");
    expect(docs.resources.has("acme_leak")).toBe(false);
    expect(docs.dataSources.size).toBe(0);
    expect(docs.provider).toBeUndefined();
    expect(JSON.stringify([...docs.resources.values()])).not.toContain("SECRET-VALUE");
    expect(docs.refused).toHaveLength(3);
    expect(docs.refused[0]).toBe(`${join(repo, "docs", "resources", "leak.md")} resolves to ${secret}, outside the repository ${repo}; symlinks out of the repository are not followed`);
    expect(docs.refused[1]).toMatch(/data-sources\/thing\.md resolves to .*outside\/data-sources\/thing\.md, outside the repository/);
    expect(docs.refused[2]).toMatch(/docs\/index\.md resolves to .*outside\/credentials, outside the repository/);
    // Refused pages are neither missing (they exist) nor silently dropped: readDocs warns about each.
    expect(docs.missing).toEqual([]);
  });

  it("are a warning naming the flag and the page, and the rest of the docs still come", () => {
    const { repo } = repoWithLinks();
    const warnings: string[] = [];
    const docs = readDocs({ kind: "path", dir: repo }, repo, { resources: ["acme_plain", "acme_leak"], dataSources: [], functions: [] }, { warn: (m) => warnings.push(m) });
    expect(docs?.resources.has("acme_plain")).toBe(true);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(new RegExp(`^--upstreamRepoPath ${repo}: \\S+leak\\.md resolves to \\S+credentials, outside the repository \\S+; symlinks out of the repository are not followed; that page keeps the schema's descriptions$`));
  });
});

describe("the page size limit", () => {
  it("skips a page larger than TF_BRIDGE_MAX_DOC_PAGE_BYTES, naming the setting, and reads one of exactly that size", () => {
    const repo = mkdtempSync(join(scratch, "big-"));
    mkdirSync(join(repo, "docs", "resources"), { recursive: true });
    const text = page("acme_big", "x".repeat(200));
    writeFileSync(join(repo, "docs", "resources", "big.md"), text);
    const size = Buffer.byteLength(text);
    const at = (limit: number) => readProviderDocs(repo, { resources: ["acme_big"], dataSources: [], functions: [] }, { [MAX_DOC_PAGE_BYTES_ENV]: String(limit) });
    expect(at(size).resources.has("acme_big")).toBe(true);
    const over = at(size - 1);
    expect(over.resources.has("acme_big")).toBe(false);
    expect(over.refused).toEqual([`${join(repo, "docs", "resources", "big.md")} is ${size} bytes, more than ${MAX_DOC_PAGE_BYTES_ENV} (${size - 1}); raise ${MAX_DOC_PAGE_BYTES_ENV} to read it`]);
  });

  it("reads the limit from the environment, refusing a value that is not a whole number of bytes above 0", () => {
    expect(maxDocPageBytes({})).toBe(DEFAULT_MAX_DOC_PAGE_BYTES);
    expect(maxDocPageBytes({ [MAX_DOC_PAGE_BYTES_ENV]: "1024" })).toBe(1024);
    for (const bad of ["0", "-1", "1.5", "4MiB"]) {
      expect(() => maxDocPageBytes({ [MAX_DOC_PAGE_BYTES_ENV]: bad })).toThrow(DocsRepoError);
      expect(() => maxDocPageBytes({ [MAX_DOC_PAGE_BYTES_ENV]: bad })).toThrow(`${MAX_DOC_PAGE_BYTES_ENV}=${JSON.stringify(bad)} is not a whole number of bytes above 0; set it to one or unset it (default ${DEFAULT_MAX_DOC_PAGE_BYTES})`);
    }
  });
});
