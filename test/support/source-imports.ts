// The files of src/ and the relative imports each makes, for the tests that hold the layers and their drawing to the code.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative specifiers of static imports, `import type`, re-exports and dynamic `import()` (all of them: a type-only cycle is still a tangle). */
export function relativeImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm)) found.push(m[1]!);
  return found;
}
