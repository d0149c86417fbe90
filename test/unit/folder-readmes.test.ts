// Every file of src/ and test/support/ is named in its folder's README (the files at the top of src/ in
// docs/architecture.md, a folder without a README in its parent's), so the lists cannot go stale unnoticed.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Whether `text` names `file` (from `dir`, relative to the README's folder) in backticks, or a backticked glob covers it. */
export function names(text: string, file: string): boolean {
  const quoted = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  return quoted.some((q) => q === file || q.endsWith(`/${file}`) || (q.startsWith("*") && file.endsWith(q.slice(1))));
}

/** The document that lists `dir`'s files: its README, else its parent's, up to `top` (whose list is `fallback`). */
function listOf(dir: string, top: string, fallback: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "README.md"))) return join(d, "README.md");
    if (d === top || d === dirname(d)) return fallback;
  }
}

/** Every .ts file under `top` that the document listing its folder does not name, as "document: file". */
export function unlisted(top: string, fallback: string): string[] {
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".ts")) {
        const doc = listOf(dir, top, fallback);
        if (!names(readFileSync(doc, "utf8"), e.name)) missing.push(`${relative(ROOT, doc)}: ${relative(ROOT, join(dir, e.name))}`);
      }
    }
  };
  walk(top);
  return missing;
}

describe("folder READMEs", () => {
  it("name every file of src/ and test/support/", () => {
    expect(unlisted(join(ROOT, "src"), join(ROOT, "docs", "architecture.md"))).toEqual([]);
    expect(unlisted(join(ROOT, "test", "support"), join(ROOT, "test", "support", "README.md"))).toEqual([]);
  });

  it("every folder of src/ has a README", () => {
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.length).toBeGreaterThan(8);
    expect(folders.filter((f) => !existsSync(join(ROOT, "src", f.name, "README.md"))).map((f) => f.name)).toEqual([]);
  });

  it("finds a file a README leaves out", () => {
    expect(names("the server (`service.ts`), the wire types (`*.gen.ts`), `examples/bind.ts`", "service.ts")).toBe(true);
    expect(names("the wire types (`*.gen.ts`)", "plugin.gen.ts")).toBe(true);
    expect(names("`examples/bind.ts`", "bind.ts")).toBe(true);
    expect(names("the service (service.ts) and `rpc.ts`", "service.ts")).toBe(false);
    expect(names("`my-service.ts`", "service.ts")).toBe(false);
  });
});
