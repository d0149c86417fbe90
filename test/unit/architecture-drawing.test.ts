// The Mermaid drawings of docs/architecture.md against the code: the layers drawing has exactly the folders of src/ and
// exactly the imports between them; the Create and Parameterize sequences name files and functions that exist where
// they say.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { relativeImports, sourceFiles } from "../support/source-imports.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");
/** How the drawing names the files at the top of src/ (version.ts and its neighbours). */
const TOP = "src/*.ts";

/** The bodies of the ```mermaid blocks of a markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A flowchart's nodes (id → label) and its arrows, as "from-label → to-label". */
export function parseFlowchart(body: string): { nodes: Map<string, string>; arrows: string[] } {
  const nodes = new Map<string, string>();
  for (const m of body.matchAll(/^\s*(\w+)\["([^"]+)"\]\s*$/gm)) nodes.set(m[1]!, m[2]!);
  const arrows: string[] = [];
  for (const m of body.matchAll(/^\s*(\w+)\s*-->\s*(\w+)\s*$/gm)) {
    const [from, to] = [nodes.get(m[1]!), nodes.get(m[2]!)];
    if (from === undefined || to === undefined) throw new Error(`arrow ${m[1]} --> ${m[2]} names a node the drawing does not define`);
    arrows.push(`${from} → ${to}`);
  }
  return { nodes, arrows };
}

/** What src/ has: its folders (and TOP, when there are files at its top), and the imports between them. */
export function actualLayers(src: string): { nodes: string[]; arrows: string[] } {
  const entries = readdirSync(src, { withFileTypes: true });
  const nodes = entries.filter((e) => e.isDirectory()).map((e) => `src/${e.name}`);
  if (entries.some((e) => e.isFile() && e.name.endsWith(".ts"))) nodes.push(TOP);
  const layer = (file: string): string => {
    const rel = relative(src, file);
    return rel.includes("/") ? `src/${rel.split("/")[0]}` : TOP;
  };
  const arrows = new Set<string>();
  for (const file of sourceFiles(src)) {
    for (const spec of relativeImports(readFileSync(file, "utf8"))) {
      const [a, b] = [layer(file), layer(resolve(dirname(file), spec))];
      if (a !== b) arrows.add(`${a} → ${b}`);
    }
  }
  return { nodes: nodes.sort(), arrows: [...arrows].sort() };
}

/** Differences between a layers drawing and src/, in words; none when they agree. */
export function layerDifferences(body: string, src: string): string[] {
  const drawn = parseFlowchart(body);
  const actual = actualLayers(src);
  const labels = [...drawn.nodes.values()];
  return [
    ...labels.filter((l) => !actual.nodes.includes(l)).map((l) => `the drawing names ${l}, which is not a folder of src/`),
    ...actual.nodes.filter((n) => !labels.includes(n)).map((n) => `the drawing misses ${n}`),
    ...drawn.arrows.filter((a) => !actual.arrows.includes(a)).map((a) => `the drawing has ${a}, which no import makes`),
    ...actual.arrows.filter((a) => !drawn.arrows.includes(a)).map((a) => `the drawing lacks ${a}, which the imports make`),
  ];
}

/**
 * The sequence diagram's names that do not exist: a participant `src/<folder>` or `src/<folder>/<file> (Class)` that is
 * not there, a `name (file.ts)` whose file is in neither end's folder or lacks the name, a path `src/….ts` that is not
 * a file.
 */
export function sequenceDifferences(body: string, root: string): string[] {
  const bad: string[] = [];
  const folders = new Map<string, string>();
  for (const m of body.matchAll(/^\s*participant (\w+) as (.+)$/gm)) {
    const label = m[2]!.trim();
    const at = /^(src\/[\w-]+)(\/[\w.-]+\.ts)?(?: \((\w+)\))?$/.exec(label);
    if (at === null) continue;
    const [folder, file, cls] = [at[1]!, at[2], at[3]];
    if (!existsSync(join(root, folder))) bad.push(`participant ${label}: no folder ${folder}`);
    if (file !== undefined) {
      const path = join(root, folder + file);
      if (!existsSync(path)) bad.push(`participant ${label}: no file ${folder}${file}`);
      else if (cls !== undefined && !new RegExp(`\\bclass ${cls}\\b`).test(readFileSync(path, "utf8"))) bad.push(`participant ${label}: no class ${cls} in ${folder}${file}`);
    }
    folders.set(m[1]!, folder);
  }
  for (const m of body.matchAll(/^\s*(\w+)-{1,2}>>(\w+):\s*(.+)$/gm)) {
    const [from, to, text] = [m[1]!, m[2]!, m[3]!];
    for (const p of text.matchAll(/\b(src\/[\w/.-]+\.ts)\b/g)) if (!existsSync(join(root, p[1]!))) bad.push(`${text}: no file ${p[1]}`);
    for (const call of text.matchAll(/([\w.()]+) \(([\w-]+\.ts)[,)]/g)) {
      const names = call[1]!.split(".").map((n) => n.replace(/\(\)$/, ""));
      const candidates = [folders.get(from), folders.get(to)].filter((f) => f !== undefined).map((f) => join(root, f, call[2]!));
      const file = candidates.find((c) => existsSync(c));
      if (file === undefined) {
        bad.push(`${text}: ${call[2]} is in neither ${from}'s nor ${to}'s folder`);
        continue;
      }
      const source = readFileSync(file, "utf8");
      for (const n of names) if (!new RegExp(`\\b${n}\\b`).test(source)) bad.push(`${text}: ${relative(root, file)} has no ${n}`);
    }
  }
  return bad;
}

describe("docs/architecture.md drawings", () => {
  const blocks = mermaidBlocks(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
  const layers = blocks.filter((b) => /^flowchart\b/m.test(b));
  const sequences = blocks.filter((b) => /^sequenceDiagram\b/m.test(b));

  it("has one layers flowchart and two sequence diagrams (Create, Parameterize)", () => {
    expect([layers.length, sequences.length]).toEqual([1, 2]);
  });

  it("draws the folders of src/ and the imports between them as they are", () => {
    expect(layerDifferences(layers[0]!, SRC)).toEqual([]);
    // The scan itself sees real imports, so an empty difference is not two empty lists agreeing.
    expect(actualLayers(SRC).arrows).toEqual(expect.arrayContaining(["src/server → src/bridge", "src/terraform → src/wire"]));
  });

  it("finds a wrong layers drawing wrong", () => {
    const wrong = layers[0]!
      .replace(/^\s*docs\["src\/docs"\]\n/m, "    ghost[\"src/ghost\"]\n")
      .replace(/^\s*(\w+ --> docs|docs --> \w+)\n/gm, "")
      .replace("wire --> top", "wire --> top\n    wire --> server");
    expect(layerDifferences(wrong, SRC)).toEqual(
      expect.arrayContaining([
        "the drawing names src/ghost, which is not a folder of src/",
        "the drawing misses src/docs",
        "the drawing has src/wire → src/server, which no import makes",
        "the drawing lacks src/server → src/docs, which the imports make",
      ]),
    );
  });

  it("takes the Create call through every layer, by names that exist", () => {
    const seq = sequences[0]!;
    for (const layer of ["src/server", "src/bridge", "src/terraform", "src/wire"]) expect(seq).toMatch(new RegExp(`participant \\w+ as ${layer}\\b`));
    expect(seq).toMatch(/Create/);
    expect(sequenceDifferences(seq, ROOT)).toEqual([]);
  });

  it("takes Parameterize from the engine to the provider and back, by names that exist", () => {
    const seq = sequences[1]!;
    for (const layer of ["src/server", "src/parameterize", "src/acquire", "src/terraform", "src/schema-translate"]) expect(seq).toMatch(new RegExp(`participant \\w+ as ${layer}\\b`));
    expect(seq).toMatch(/Parameterize/);
    expect(seq).toMatch(/openPackage \(open\.ts\)/);
    expect(sequenceDifferences(seq, ROOT)).toEqual([]);
    const wrong = seq.replace("acquireRemote (remote.ts)", "acquireRemote (open.ts)");
    expect(sequenceDifferences(wrong, ROOT)).toEqual([expect.stringContaining("src/parameterize/open.ts has no acquireRemote")]);
  });

  it("finds a sequence diagram naming what does not exist", () => {
    const wrong = sequences[0]!.replace("decodeCreate (messages.ts)", "decodeMissing (messages.ts)").replace("withTimeouts (timeouts.ts)", "withTimeouts (nowhere.ts)");
    expect(sequenceDifferences(wrong, ROOT)).toEqual([
      expect.stringContaining("src/server/messages.ts has no decodeMissing"),
      expect.stringContaining("nowhere.ts is in neither"),
    ]);
  });
});
