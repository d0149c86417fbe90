// The runnable projects the user docs show: fenced blocks marked `<!-- quickstart <language> <file> -->` (the block is
// that file, verbatim) or `<!-- quickstart <language> run -->` (the block is the commands, in order).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { marked, type Token } from "marked";
import { repoRoot } from "./peers.js";

/** The pages whose marked blocks are run by test/e2e/docs-quickstart.test.ts. */
export const QUICKSTART_PAGES = ["README.md", "docs/quickstart.md"] as const;

export interface DocProject {
  language: string;
  /** Relative path → content, as the page shows it. */
  files: Map<string, string>;
  /** The commands of the `run` block, comments and blank lines dropped. */
  run: string[];
  /** Where each block came from, for messages: "README.md: index.ts". */
  sources: string[];
}

const MARKER = /^<!--\s*quickstart\s+(\S+)\s+(\S+)\s*-->\s*$/;

/** A shell line without its trailing `# comment` (a `#` that starts the line or follows whitespace). */
export function commandOf(line: string): string {
  return line.replace(/(^|\s)#.*$/, "").trim();
}

/**
 * Every marked project of `markdown`, merged into `into` by language. Throws, naming the page and marker, on a marker
 * not followed by a fenced block, a file given twice, a second run block, or a path leaving the project.
 */
export function collectProjects(page: string, markdown: string, into = new Map<string, DocProject>()): Map<string, DocProject> {
  const tokens = marked.lexer(markdown).filter((t: Token) => t.type !== "space");
  tokens.forEach((t, i) => {
    if (t.type !== "html") return;
    const m = MARKER.exec((t as { raw: string }).raw.trim());
    if (!m) return;
    const [, language, target] = m as unknown as [string, string, string];
    const where = `${page}: <!-- quickstart ${language} ${target} -->`;
    const block = tokens[i + 1];
    if (block?.type !== "code") throw new Error(`${where} is not followed by a fenced code block`);
    const text = (block as { text: string }).text + "\n";
    const project = into.get(language) ?? { language, files: new Map<string, string>(), run: [], sources: [] };
    into.set(language, project);
    if (target === "run") {
      if (project.run.length > 0) throw new Error(`${where}: a second run block for ${language}`);
      project.run = text.split("\n").map(commandOf).filter((l) => l !== "");
    } else {
      if (target.startsWith("/") || target.split("/").includes("..")) throw new Error(`${where}: the file must stay inside the project`);
      if (project.files.has(target)) throw new Error(`${where}: ${target} is given twice`);
      project.files.set(target, text);
    }
    project.sources.push(`${page}: ${target}`);
  });
  return into;
}

/** The projects of every QUICKSTART_PAGES page, by language. */
export function docProjects(): Map<string, DocProject> {
  const projects = new Map<string, DocProject>();
  for (const page of QUICKSTART_PAGES) collectProjects(page, readFileSync(join(repoRoot, page), "utf8"), projects);
  return projects;
}
