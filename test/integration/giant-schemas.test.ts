// Differential schema test at full size: the package schema of each of the five largest real providers (their schema
// dumps served by the replay peer) equals the reference bridge's, fact for fact, except the differences listed with
// their reasons in test/interchange/giant-schema-differences.json; an unlisted or a stale one fails.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { giants, giantsDir, giantsPresent, serveGiant, type ServedGiant } from "../support/giants.js";
import { referenceBin, repoRoot } from "../support/peers.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";
import { diffFacts, schemaFacts, type FactDifference, type Facts } from "../support/schema-facts.js";

interface Listed {
  /** Ephemeral resources, served as functions in the `ephemeral` module: every fact of them and their types is ours alone. */
  addedFunctions: { dump: string; tokens: string[]; reason: string }[];
  facts: { dump: string; reason: string; differences: FactDifference[] }[];
}
const listed = JSON.parse(readFileSync(join(repoRoot, "test/interchange/giant-schema-differences.json"), "utf8")) as Listed;

/** The package schema one plugin (ours, or the reference with `bin`) makes of a served giant: one process, stopped after. */
async function packageSchema(served: ServedGiant, bin?: string): Promise<Record<string, unknown>> {
  const plugin = await startPluginProcess({ env: served.env, ...(bin === undefined ? {} : { bin, reapChildren: true }) });
  try {
    const p = await plugin.call("Parameterize", argsRequest(served.binary));
    const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] });
    return JSON.parse(res["schema"] as string) as Record<string, unknown>;
  } finally {
    await plugin.stop();
  }
}

/** Facts of functions in the `ephemeral` module and of their types, apart from the rest, with the functions' tokens. */
function splitEphemeral(facts: Facts, pkg: string): { rest: Facts; ephemeral: string[] } {
  const rest: Facts = new Map();
  const ephemeral: string[] = [];
  for (const [k, v] of facts) {
    if (k.startsWith(`function ${pkg}:ephemeral/`) || k.startsWith(`type ${pkg}:ephemeral/`)) {
      if (v === "function") ephemeral.push(k.split(" ")[1]!);
    } else rest.set(k, v);
  }
  return { rest, ephemeral: ephemeral.sort() };
}

const byFact = (a: FactDifference, b: FactDifference): number => (a.fact < b.fact ? -1 : a.fact > b.fact ? 1 : 0);

it("finds the five giant schema dumps", () => {
  // Missing dumps fail here, once, rather than leaving the comparison silently skipped.
  expect(giantsPresent, `the schema dumps are not all in ${giantsDir}; set TF_BRIDGE_GIANT_SCHEMAS to their directory`).toBe(true);
});

describe.skipIf(!giantsPresent)("schemas of the largest real providers against the reference", () => {
  it.each(giants.map((g) => [g.name, g] as const))("%s: every fact equals the reference's but the listed ones", async (name, g) => {
    const started = Date.now();
    // One plugin at a time: two holding a giant schema at once would double a CI runner's peak memory. Both are given
    // the one path, which the parameter bytes record.
    const served = serveGiant(g);
    let ours: Record<string, unknown>;
    let reference: Record<string, unknown>;
    try {
      ours = await packageSchema(served);
      reference = await packageSchema(served, referenceBin());
    } finally {
      served.cleanup();
    }
    const mine = splitEphemeral(schemaFacts(ours), name);
    const theirs = splitEphemeral(schemaFacts(reference), name);
    const differences = diffFacts(mine.rest, theirs.rest);
    // To review a change: GIANTS_DIFF_OUT=<dir> writes each dump's differences and ephemeral functions there.
    const out = process.env["GIANTS_DIFF_OUT"];
    if (out !== undefined) writeFileSync(join(out, `${name}.json`), JSON.stringify({ ephemeral: mine.ephemeral, differences }, null, 1));
    expect(theirs.ephemeral, "the reference now serves ephemeral resources as functions").toEqual([]);
    expect(mine.ephemeral).toEqual(listed.addedFunctions.filter((a) => a.dump === g.file).flatMap((a) => a.tokens).sort());
    const expected = listed.facts.filter((l) => l.dump === g.file).flatMap((l) => l.differences);
    console.log(`${name}: ${theirs.rest.size} schema facts compared, ${differences.length} differences (${expected.length} listed), ${mine.ephemeral.length} ephemeral functions ours alone, ${Date.now() - started} ms`);
    expect(differences).toEqual([...expected].sort(byFact));
    // A comparison of nothing proves nothing: each giant has dozens to thousands of resources.
    expect(Object.keys(reference["resources"] as object).length).toBeGreaterThan(80);
  }, 300_000);

  it("lists only the five dumps, each difference once and with its reason", () => {
    const seen = new Set<string>();
    for (const l of [...listed.facts, ...listed.addedFunctions]) {
      expect(giants.map((g) => g.file)).toContain(l.dump);
      expect(l.reason.length).toBeGreaterThan(80);
    }
    for (const l of listed.facts) {
      for (const d of l.differences) {
        expect(seen.has(`${l.dump} ${d.fact}`), `${d.fact} listed twice`).toBe(false);
        seen.add(`${l.dump} ${d.fact}`);
      }
    }
  });
});
