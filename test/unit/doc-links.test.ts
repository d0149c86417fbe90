// Every relative link and anchor in the README, docs/ and the folder READMEs resolves, and the README stays a front door.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { marked, type Token } from "marked";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces as hyphens. */
export function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The plain text GitHub renders for a heading's inline tokens (code spans keep their content, links their text). */
function plainText(tokens: Token[] | undefined, raw: string): string {
  if (!tokens) return raw;
  return tokens
    .map((t) => {
      if (t.type === "codespan") return (t as { text: string }).text;
      if ("tokens" in t && Array.isArray(t.tokens)) return plainText(t.tokens as Token[], t.raw);
      return "text" in t ? String((t as { text: string }).text) : t.raw;
    })
    .join("");
}

interface Scan {
  anchors: Set<string>;
  links: string[];
}

/** Headings' anchors (with GitHub's -1, -2 suffixes for repeats) and every link target outside code. */
export function scanMarkdown(source: string): Scan {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === "heading") {
        const base = githubSlug(plainText((t as { tokens?: Token[] }).tokens, (t as { text: string }).text));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        anchors.add(n === 0 ? base : `${base}-${n}`);
      }
      if (t.type === "link") links.push((t as { href: string }).href);
      if ("tokens" in t && Array.isArray(t.tokens)) walk(t.tokens as Token[]);
      if (t.type === "list") for (const item of (t as { items: Token[] }).items) walk([item]);
      if (t.type === "table") {
        const table = t as unknown as { header: { tokens: Token[] }[]; rows: { tokens: Token[] }[][] };
        for (const cell of table.header) walk(cell.tokens);
        for (const row of table.rows) for (const cell of row) walk(cell.tokens);
      }
    }
  };
  walk(marked.lexer(source));
  return { anchors, links };
}

/** Broken relative links of one file, as "file: target (why)". */
export function brokenLinks(file: string, read: (path: string) => string | undefined): string[] {
  const source = read(file);
  if (source === undefined) return [`${file}: file missing`];
  const problems: string[] = [];
  for (const href of scanMarkdown(source).links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:, file: are not ours to check
    const [pathPart, anchor] = href.split("#", 2) as [string, string | undefined];
    const target = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    const text = read(target);
    if (text === undefined && !(existsSync(target) && statSync(target).isDirectory())) {
      problems.push(`${relative(ROOT, file)}: ${href} (no such file)`);
      continue;
    }
    if (anchor !== undefined && anchor !== "") {
      if (text === undefined || !target.endsWith(".md")) {
        problems.push(`${relative(ROOT, file)}: ${href} (an anchor into something that is not markdown)`);
      } else if (!scanMarkdown(text).anchors.has(anchor)) {
        problems.push(`${relative(ROOT, file)}: ${href} (no heading with that anchor)`);
      }
    }
  }
  return problems;
}

function readIfFile(path: string): string | undefined {
  return existsSync(path) && statSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
}

function folderReadmes(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...folderReadmes(path));
    else if (entry.name.endsWith(".md")) out.push(path);
  }
  return out;
}

const DOCS = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, "docs", f)),
  ...folderReadmes(join(ROOT, "src")),
  ...folderReadmes(join(ROOT, "test")).filter((f) => !f.includes("/golden/") && !f.includes("/corpus/")),
];

describe("documentation links", () => {
  it("GitHub's anchors", () => {
    expect(githubSlug("Docs (`--fullDocs`, `--upstreamRepoPath`, `--indexDocOutDir`)".replace(/`/g, ""))).toBe(
      "docs---fulldocs---upstreamrepopath---indexdocoutdir",
    );
    expect(githubSlug("Architecture: one Create through every layer")).toBe("architecture-one-create-through-every-layer");
    expect(githubSlug("Ephemeral resources, write-only attributes, identity")).toBe("ephemeral-resources-write-only-attributes-identity");
    expect([...scanMarkdown("# A\n## A\n### `b_c` d\n").anchors]).toEqual(["a", "a-1", "b_c-d"]);
  });

  it("finds broken links and anchors, and none in code", () => {
    const files: Record<string, string> = {
      "/x/a.md": "# Top\n[ok](b.md#there) [bad](b.md#nowhere) [gone](c.md) [self](#top) [selfbad](#nope) `[code](d.md)`\n",
      "/x/b.md": "## There\n",
    };
    const problems = brokenLinks("/x/a.md", (p) => files[p]);
    expect(problems.map((p) => p.replace(/^.*?: /, ""))).toEqual([
      "b.md#nowhere (no heading with that anchor)",
      "c.md (no such file)",
      "#nope (no heading with that anchor)",
    ]);
  });

  it("covers the README, every docs page and the folder READMEs", () => {
    expect(DOCS.length).toBeGreaterThan(15);
    expect(DOCS.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "docs/using.md", "src/bridge/README.md"]));
  });

  it.each(DOCS.map((f) => [relative(ROOT, f), f]))("%s: every relative link and anchor resolves", (_name, file) => {
    expect(brokenLinks(file, readIfFile)).toEqual([]);
  });

  it("the README is a front door: under 200 lines, linking every docs page", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThan(200);
    const linked = new Set(scanMarkdown(readme).links.map((l) => l.split("#")[0]));
    const index = scanMarkdown(readFileSync(join(ROOT, "docs/README.md"), "utf8")).links;
    for (const page of readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md") && f !== "README.md")) {
      expect(linked.has(`docs/${page}`) || index.includes(page), `docs/${page} is linked`).toBe(true);
    }
  });
});
