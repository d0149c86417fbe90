// The listed differences from OpenTofu (test/crosstest/differences.json): each names a kind of disagreement, the cases
// it covers and why; a disagreement no entry covers, or an entry that covers none, fails the replay.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_DIR, type Flavour } from "./corpus.js";
import type { Disagreement, DisagreementKind } from "./replay.js";

export interface ListedDifference {
  flavour: Flavour | "peers" | "giants";
  kind: DisagreementKind;
  /** A regular expression over case ids. */
  cases: string;
  reason: string;
}

export function listedDifferences(flavour: Flavour | "peers" | "giants"): ListedDifference[] {
  const all = (JSON.parse(readFileSync(join(CORPUS_DIR, "..", "differences.json"), "utf8")) as { differences: ListedDifference[] }).differences;
  return all.filter((d) => d.flavour === flavour);
}

/** Disagreements no entry covers, and entries that covered nothing. */
export function reconcile(found: Disagreement[], listed: ListedDifference[]): { unlisted: Disagreement[]; stale: ListedDifference[] } {
  const used = new Set<ListedDifference>();
  const unlisted: Disagreement[] = [];
  for (const d of found) {
    const entry = listed.find((l) => l.kind === d.kind && new RegExp(`^(?:${l.cases})$`).test(d.id));
    if (entry === undefined) unlisted.push(d);
    else used.add(entry);
  }
  return { unlisted, stale: listed.filter((l) => !used.has(l)) };
}
