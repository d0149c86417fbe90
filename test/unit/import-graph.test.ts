// The import graph of src/: no cycles between files, and every folder imports only the folders below it.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { relativeImports, sourceFiles } from "../support/source-imports.js";

const SRC = resolve(import.meta.dirname, "../../src");

/**
 * Bottom to top: a folder may import itself and the folders before it. `.` is the files at the top of src/ (version.ts).
 * The order is the architecture: the wire and Terraform's protocol at the bottom, the provider model above them, the
 * bridge's semantics, acquisition, Parameterize's flow, and the server that serves them all.
 */
export const LAYERS = [".", "wire", "terraform", "docs", "schema-translate", "bridge", "acquire", "parameterize", "adopt", "commands", "server"];

export type Graph = Map<string, string[]>;

export function importGraph(files: readonly string[], read: (f: string) => string): Graph {
  const graph: Graph = new Map();
  for (const f of files) {
    graph.set(
      f,
      relativeImports(read(f)).map((s) => resolve(dirname(f), s).replace(/\.js$/, ".ts")),
    );
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Graph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

function layerOf(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.includes("/") ? rel.split("/")[0]! : ".";
}

/** Imports that go up (to a later layer), or out of src/, as "from → to". */
export function upwardImports(root: string, graph: Graph): string[] {
  const bad: string[] = [];
  for (const [from, targets] of graph) {
    const a = LAYERS.indexOf(layerOf(root, from));
    for (const to of targets) {
      const b = relative(root, to).startsWith("..") ? Infinity : LAYERS.indexOf(layerOf(root, to));
      if (a < 0 || b < 0 || b > a) bad.push(`${relative(root, from)} → ${relative(root, to)}`);
    }
  }
  return bad;
}

describe("src/ import graph", () => {
  const files = sourceFiles(SRC);
  const graph = importGraph(files, (f) => readFileSync(f, "utf8"));

  it("reads every kind of import", () => {
    expect(
      relativeImports(
        'import { a } from "./a.js";\nimport type { B } from "../b.js";\nexport { c } from "./c.js";\nimport "./d.js";\nconst e = await import("./e.js");\nimport x from "node:fs";\n',
      ),
    ).toEqual(["./a.js", "../b.js", "./c.js", "./d.js", "./e.js"]);
    expect(files.length).toBeGreaterThan(80);
    expect([...graph.values()].flat().length).toBeGreaterThan(200);
  });

  it("finds cycles and upward imports when there are some", () => {
    const g: Graph = new Map([
      ["/s/wire/a.ts", ["/s/terraform/b.ts"]],
      ["/s/terraform/b.ts", ["/s/wire/a.ts"]],
      ["/s/server/c.ts", ["/s/server/c.ts", "/s/bridge/d.ts"]],
      ["/s/bridge/d.ts", []],
    ]);
    expect(cycles(g)).toEqual([["/s/terraform/b.ts", "/s/wire/a.ts"], ["/s/server/c.ts"]]);
    expect(upwardImports("/s", g)).toEqual(["wire/a.ts → terraform/b.ts"]);
  });

  it("every folder of src/ has its place in the layers", () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it("has no import cycles", () => {
    expect(cycles(graph).map((scc) => scc.map((f) => relative(SRC, f)))).toEqual([]);
  });

  it("has no upward imports", () => {
    expect(upwardImports(SRC, graph)).toEqual([]);
  });
});
