// The replay of one flavour's corpus as a vitest suite: every case against its golden, disagreements only where listed.
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Flavour } from "./corpus.js";
import { listedDifferences, reconcile } from "./differences.js";
import { Replayer, type ReplayResult } from "./replay.js";

export function crosstestSuite(flavour: Flavour, minimumCases: number): void {
  describe(`Terraform as the oracle: ${flavour} corpus replayed through the plugin's gRPC`, () => {
    let replayer: Replayer | undefined;
    let result: ReplayResult;
    // CROSSTEST_FILTER (a substring of case ids) narrows a run while working on one shape; CROSSTEST_REPORT (a path,
    // `{flavour}` replaced) receives every disagreement as JSON.
    const filter = process.env["CROSSTEST_FILTER"];
    beforeAll(async () => {
      replayer = await Replayer.start(flavour);
      const started = Date.now();
      result = await replayer.replayAll((c) => filter === undefined || c.id.includes(filter));
      const kinds = new Map<string, number>();
      for (const d of result.disagreements) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
      // CROSSTEST_REPORT names a file for the whole list, to read while fixing.
      const report = process.env["CROSSTEST_REPORT"];
      if (report !== undefined) writeFileSync(report.replace("{flavour}", flavour), JSON.stringify(result.disagreements, null, 1));
      console.log(`crosstest ${flavour}: ${result.cases} cases replayed in ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.refused.length} refused by OpenTofu (and checked refused here), ${result.disagreements.length} disagreements ${JSON.stringify(Object.fromEntries(kinds))}`);
    }, 900_000);
    afterAll(async () => replayer?.stop());

    it(`replays at least ${minimumCases} cases`, () => {
      if (filter === undefined) expect(result.cases).toBeGreaterThanOrEqual(minimumCases);
      expect(result.cases).toBeGreaterThan(0);
    });

    it("agrees with OpenTofu on every case, except the listed differences", () => {
      const { unlisted } = reconcile(result.disagreements, listedDifferences(flavour));
      expect(unlisted.map((d) => `${d.id} [${d.kind}] ${d.detail}`)).toEqual([]);
    });

    it("lists no difference that no longer occurs", () => {
      if (filter !== undefined) return;
      const { stale } = reconcile(result.disagreements, listedDifferences(flavour));
      expect(stale).toEqual([]);
    });
  });
}
