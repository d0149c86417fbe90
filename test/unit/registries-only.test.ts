// Nothing in the project builds, runs or points at the Pulumi sources that were once copied into ../shared (Pulumi's
// Node.js, Python and Go language hosts and its Terraform converter): the project builds only what the registries serve
// and what it writes itself, so a file naming those folders, or a script building from ../shared, fails here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

// Split so that this file does not name them itself.
const removed = ["pulumi-language-" + "hosts", "pulumi-converter-" + "terraform-src", "shared/" + "pulumi-converter-terraform", "shared/" + "pulumi-"];

// What ../shared holds for the project to read: schema dumps, the converter's recordings, notes.
const DATA = /shared\/(schemas|converter-recordings|PROTOCOL-NOTES\.md)\b/g;

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f !== "" && !/\.(png|svg|gz|zip|wasm)$/.test(f));
}

/** The files whose text names one of `names`, with the first line that does. */
export function naming(files: string[], read: (f: string) => string, names: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = read(f);
    } catch {
      continue; // a file in the index but deleted in the work tree
    }
    const line = text.split("\n").findIndex((l) => names.some((n) => l.includes(n)));
    if (line >= 0) found.push(`${f}:${line + 1}`);
  }
  return found;
}

describe("from the registries alone", () => {
  it("no file names the removed Pulumi sources of ../shared", () => {
    expect(naming(trackedFiles(), (f) => readFileSync(join(ROOT, f), "utf8"), removed)).toEqual([]);
  });

  it("scripts name only the data folders of ../shared (it holds data, never sources to build)", () => {
    const scripts = trackedFiles().filter((f) => f.endsWith(".sh") || f === ".ci/run");
    expect(naming(scripts, (f) => readFileSync(join(ROOT, f), "utf8").replace(DATA, ""), ["shared/"])).toEqual([]);
  });

  it("the checks find a file that names a removed folder, and a script that names a folder of ../shared not for data", () => {
    const files: Record<string, string> = {
      "scripts/a.sh": "ok\nsrc=../shared/" + "pulumi-language-" + "hosts-v3.259\n",
      "scripts/b.sh": "r=../shared/converter-recordings\ns=../shared/schemas/more\n",
      "scripts/c.sh": "r=../shared/converter-recordings; bash ../shared/" + "tools/build.sh\n",
    };
    const read = (f: string) => files[f]!.replace(DATA, "");
    expect(naming(Object.keys(files), (f) => files[f]!, removed)).toEqual(["scripts/a.sh:2"]);
    expect(naming(Object.keys(files), read, ["shared/"])).toEqual(["scripts/a.sh:2", "scripts/c.sh:1"]);
  });
});
