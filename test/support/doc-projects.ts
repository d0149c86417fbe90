// The runnable projects the user docs show: fenced blocks marked `<!-- project <name> <file> -->` (the block is that
// file, verbatim), `<!-- project <name> run -->` (the block is the commands, in order) or `<!-- project <name> output
// -->` (the block is what the commands since the last such block print, quoted). A quick start's name is its language
// (`python`); a task page's names its task (`import-yaml`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { marked, type Token } from "marked";
import { repoRoot } from "./peers.js";

/** The pages whose marked projects test/e2e/docs-quickstart.test.ts runs. */
export const PROJECT_PAGES = ["README.md", "docs/quickstart.md", "docs/import.md", "docs/upgrading.md"] as const;
/** The quick starts, in the order the e2e test runs them: the quickest first, so a broken step shows early. */
export const QUICKSTART_LANGUAGES = ["yaml", "typescript", "python", "go", "java"] as const;
/** The task pages' projects, run after the quick starts. */
export const TASK_PROJECTS = ["import-yaml", "upgrade-go"] as const;

/** One step of a project, in page order: write a file, run commands, or a quote of what the commands before printed. */
export type DocStep = { file: string; text: string } | { run: string[] } | { output: string };

export interface DocProject {
  /** The project's name: a language for a quick start. */
  name: string;
  /** The page's blocks in order: a reader writes each file and runs each command as they come. */
  steps: DocStep[];
  /** Where each block came from, for messages: "README.md: index.ts". */
  sources: string[];
}

const MARKER = /^<!--\s*project\s+(\S+)\s+(\S+)\s*-->\s*$/;

/** A shell line without its trailing `# comment` (a `#` that starts the line or follows whitespace). */
export function commandOf(line: string): string {
  return line.replace(/(^|\s)#.*$/, "").trim();
}

/** Every command of a project, in order. */
export function commandsOf(project: DocProject): string[] {
  return project.steps.flatMap((s) => ("run" in s ? s.run : []));
}

/** The files a project writes (a later block of the same path replaces an earlier one). */
export function filesOf(project: DocProject): Map<string, string> {
  return new Map(project.steps.flatMap((s) => ("file" in s ? [[s.file, s.text] as const] : [])));
}

/**
 * Every marked project of `markdown`, merged into `into` by name. Throws, naming the page and marker, on a marker not
 * followed by a fenced block, or a path leaving the project.
 */
export function collectProjects(page: string, markdown: string, into = new Map<string, DocProject>()): Map<string, DocProject> {
  const tokens = marked.lexer(markdown).filter((t: Token) => t.type !== "space");
  tokens.forEach((t, i) => {
    if (t.type !== "html") return;
    const m = MARKER.exec((t as { raw: string }).raw.trim());
    if (!m) return;
    const [, name, target] = m as unknown as [string, string, string];
    const where = `${page}: <!-- project ${name} ${target} -->`;
    const block = tokens[i + 1];
    if (block?.type !== "code") throw new Error(`${where} is not followed by a fenced code block`);
    const text = (block as { text: string }).text + "\n";
    const project = into.get(name) ?? { name, steps: [], sources: [] };
    into.set(name, project);
    if (target === "output") {
      project.steps.push({ output: text });
    } else if (target === "run") {
      // A line ending in `\` continues on the next, as in sh.
      project.steps.push({ run: text.replace(/\s*\\\n\s*/g, " ").split("\n").map(commandOf).filter((l) => l !== "") });
    } else {
      if (target.startsWith("/") || target.split("/").includes("..")) throw new Error(`${where}: the file must stay inside the project`);
      project.steps.push({ file: target, text });
    }
    project.sources.push(`${page}: ${target}`);
  });
  return into;
}

/** The projects of every PROJECT_PAGES page, by name. */
export function docProjects(): Map<string, DocProject> {
  const projects = new Map<string, DocProject>();
  for (const page of PROJECT_PAGES) collectProjects(page, readFileSync(join(repoRoot, page), "utf8"), projects);
  return projects;
}

/**
 * The fenced blocks of `markdown` each right after a `<!-- <kind> <name> -->` comment, by name (`<!-- mirror
 * terraformrc -->`): a page's example that a test exercises outside a project. Throws, naming the page and marker,
 * on a marker not followed by a fenced block or used twice.
 */
export function markedBlocks(page: string, markdown: string, kind: string): Map<string, string> {
  const tokens = marked.lexer(markdown).filter((t: Token) => t.type !== "space");
  const blocks = new Map<string, string>();
  tokens.forEach((t, i) => {
    if (t.type !== "html") return;
    const m = /^<!--\s*(\S+)\s+(\S+)\s*-->$/.exec((t as { raw: string }).raw.trim());
    if (m?.[1] !== kind) return;
    const where = `${page}: <!-- ${kind} ${m[2]!} -->`;
    const block = tokens[i + 1];
    if (block?.type !== "code") throw new Error(`${where} is not followed by a fenced code block`);
    if (blocks.has(m[2]!)) throw new Error(`${where} appears twice`);
    blocks.set(m[2]!, (block as { text: string }).text + "\n");
  });
  return blocks;
}
