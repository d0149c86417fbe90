// The giants' part of the oracle corpus (test/crosstest/giants.ts): cases generated from the five largest real
// providers' schema dumps, served by the replay peer, driven through our plugin against OpenTofu's recorded answers.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GIANT_CASES_PER_TYPE, giantCases, loadBundle } from "../crosstest/giants.js";
import { listedDifferences, reconcile } from "../crosstest/differences.js";
import { Replayer, type Disagreement } from "../crosstest/replay.js";
import { giants, giantsDir, giantsPresent } from "../support/giants.js";

const filter = process.env["CROSSTEST_FILTER"];
const found: Disagreement[] = [];
const replayed = new Map<string, number>();

it("finds the five giants' schema dumps", () => {
  expect(giantsPresent, `the schema dumps are not all in ${giantsDir}; set TF_BRIDGE_GIANT_SCHEMAS to their directory`).toBe(true);
});

describe.skipIf(!giantsPresent)("Terraform as the oracle: resource types of the five giants replayed through the plugin's gRPC", () => {
  for (const g of giants) {
    it(`${g.name}: the recorded cases are the ones its dump generates, and every one has OpenTofu's answer`, () => {
      const bundle = loadBundle(g);
      expect(bundle, `run npm run crosstest:record -- giants ${g.name}`).toBeDefined();
      expect(bundle!.dump).toBe(g.file);
      expect(bundle!.cases).toEqual(giantCases(g, GIANT_CASES_PER_TYPE));
      expect(bundle!.cases.filter((c) => bundle!.goldens[c.id] === undefined).map((c) => c.id)).toEqual([]);
    });

    it(`${g.name}: replays every case`, async () => {
      const r = await Replayer.startGiant(g);
      try {
        const started = Date.now();
        const result = await r.replayAll((c) => filter === undefined || c.id.includes(filter));
        replayed.set(g.name, result.cases + result.refused.length);
        found.push(...result.disagreements);
        const kinds = new Map<string, number>();
        for (const d of result.disagreements) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
        console.log(`crosstest giants ${g.name}: ${result.cases} cases replayed in ${((Date.now() - started) / 1000).toFixed(1)} s, ${result.refused.length} refused by OpenTofu, ${result.disagreements.length} disagreements ${JSON.stringify(Object.fromEntries(kinds))}`);
        if (filter === undefined) expect(result.cases + result.refused.length).toBe(loadBundle(g)!.cases.length);
        expect(result.cases).toBeGreaterThan(0);
      } finally {
        await r.stop();
      }
    }, 900_000);
  }

  it("replays at least 5,000 cases across the five giants", () => {
    if (filter === undefined) expect([...replayed.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5000);
  });

  it("agrees with OpenTofu on every case, except the listed differences", () => {
    const report = process.env["CROSSTEST_REPORT"];
    if (report !== undefined) writeFileSync(report.replace("{flavour}", "giants"), JSON.stringify(found, null, 1));
    const { unlisted } = reconcile(found, listedDifferences("giants"));
    expect(unlisted.map((d) => `${d.id} [${d.kind}] ${d.detail}`)).toEqual([]);
  });

  it("lists no difference that no longer occurs", () => {
    if (filter !== undefined || replayed.size < giants.length) return;
    expect(reconcile(found, listedDifferences("giants")).stale).toEqual([]);
  });

});
