// Checks our port of pulumi/inflector word by word against what the Go library printed (test/vectors/inflector, made by test/peers/inflectorvectors).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Pluralize, Singularize } from "../../src/schema-translate/inflector.js";
import { pluralize, singularize } from "../../src/schema-translate/names.js";
import { repoRoot } from "../support/peers.js";

/** A null form: the Go library panicked on the word. */
interface Vector {
  word: string;
  plural: string | null;
  singular: string | null;
}

const vectors = JSON.parse(readFileSync(join(repoRoot, "test/vectors/inflector/vectors.json"), "utf8")) as Vector[];
const words = readFileSync(join(repoRoot, "test/vectors/inflector/words.txt"), "utf8").split("\n").slice(0, -1);

function attempt(f: (w: string) => string, word: string): string | null {
  try {
    return f(word);
  } catch {
    return null;
  }
}

function mismatches(kind: "plural" | "singular", f: (w: string) => string): string[] {
  return vectors
    .filter((v) => attempt(f, v.word) !== v[kind])
    .map((v) => `${JSON.stringify(v.word)}: go ${JSON.stringify(v[kind])}, ours ${JSON.stringify(attempt(f, v.word))}`);
}

describe(`pulumi/inflector v0.2.1 vectors (${vectors.length} words)`, () => {
  it("cover every word of words.txt, in order", () => {
    expect(vectors.length).toBeGreaterThan(4000);
    expect(vectors.map((v) => v.word)).toEqual(words);
  });

  it("Pluralize matches the Go library on every word", () => {
    expect(mismatches("plural", Pluralize).slice(0, 20)).toEqual([]);
  });

  it("Singularize matches the Go library on every word", () => {
    expect(mismatches("singular", Singularize).slice(0, 20)).toEqual([]);
  });

  it("answers the same from its cache", () => {
    expect(mismatches("plural", Pluralize).length + mismatches("singular", Singularize).length).toBe(0);
  });
});

describe("named cases", () => {
  it.each([
    ["uris", "uris"],
    ["health", "healths"],
    ["ip_address", "ip_addresses"],
    ["status", "statuses"],
    ["alias", "aliases"],
    ["person", "people"],
    ["Person", "People"],
    ["matrix", "matrices"],
    ["metadata", "metadatas"], // only `media` is uninflected, not `data`
    ["media", "media"],
    ["hive", ""], // Go reads the template `$1s` as a group named `1s`
    ["foo man", "foo fen"], // the first byte of the whole word, not of the irregular one
  ])("Pluralize(%j) is %j", (word, plural) => {
    expect(Pluralize(word)).toBe(plural);
  });

  it.each([
    ["uris", "uri"],
    ["ipAddresses", "ipAddress"],
    ["statuses", "status"],
    ["aliases", "alias"],
    ["people", "person"],
    ["indices", "index"],
    ["taxes_faxes", "tax_fax"], // every match is replaced
    ["criteria", "criterium"],
  ])("Singularize(%j) is %j", (word, singular) => {
    expect(Singularize(word)).toBe(singular);
  });

  it("throws where the Go library panics", () => {
    expect(() => Pluralize("a\u017fex")).toThrow(/panics/);
  });

  it("is what names.ts pluralizes and singularizes with", () => {
    expect(pluralize("uris")).toBe("uris");
    expect(singularize("dnsNames")).toBe("dnsName");
  });
});
