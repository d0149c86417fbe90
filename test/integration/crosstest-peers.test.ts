// The real peers' part of the oracle corpus (test/crosstest): realistic configurations and changes of random, tls,
// time, local, httpapi and bridgetest resources, driven through our plugin against OpenTofu's recorded answers.
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPeerCorpus } from "../crosstest/corpus.js";
import { listedDifferences, reconcile } from "../crosstest/differences.js";
import { Replayer, type Disagreement } from "../crosstest/replay.js";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";

const peers = [...new Set(loadPeerCorpus().cases.map((c) => c.peer))];

describe("Terraform as the oracle: the real peers' resources replayed through the plugin's gRPC", () => {
  let api: HttpApiServer | undefined;
  const found: Disagreement[] = [];
  let replayed = 0;
  beforeAll(async () => {
    api = await startHttpApi();
    for (const peer of peers) {
      const r = await Replayer.startPeer(peer, api);
      try {
        const only = process.env["CROSSTEST_FILTER"];
        const result = await r.replayAll((c) => only === undefined || c.id.includes(only));
        replayed += result.cases;
        found.push(...result.disagreements);
      } finally {
        await r.stop();
      }
    }
    console.log(`crosstest peers: ${replayed} cases over ${peers.join(", ")}, ${found.length} disagreements`);
    const report = process.env["CROSSTEST_REPORT"];
    if (report !== undefined) writeFileSync(report.replace("{flavour}", "peers"), JSON.stringify(found, null, 1));
  }, 600_000);
  afterAll(async () => api?.stop());

  it("replays every peer's cases", () => {
    expect(peers.length).toBeGreaterThanOrEqual(6);
    if (process.env["CROSSTEST_FILTER"] === undefined) expect(replayed).toBe(loadPeerCorpus().cases.length);
    expect(replayed).toBeGreaterThan(0);
  });

  it("agrees with OpenTofu on every case, except the listed differences", () => {
    const { unlisted } = reconcile(found, listedDifferences("peers"));
    expect(unlisted.map((d) => `${d.id} [${d.kind}] ${d.detail}`)).toEqual([]);
  });

  it("lists no difference that no longer occurs", () => {
    if (process.env["CROSSTEST_FILTER"] !== undefined) return;
    expect(reconcile(found, listedDifferences("peers")).stale).toEqual([]);
  });
});
