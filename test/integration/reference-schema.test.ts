// Differential schema test against the reference bridge: every fact of every real peer's package schema (tokens,
// property names and types, required sets, secrets, config variables, functions, methods) equals the reference's,
// except the deliberate differences listed in test/interchange/schema-differences.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffFacts, schemaFacts, type FactDifference, type Facts } from "../support/schema-facts.js";
import { peerPath, pins, referenceBin, repoRoot } from "../support/peers.js";
import { argsRequest, startPluginProcess, type PluginProcess } from "../support/pulumi.js";

interface Differences {
  renamedTokens: { peer: string; reference: string; ours: string; reason: string }[];
  /** Functions only we have: every fact under `function <token>` and `type <module>/…` of its module is ours alone. */
  addedTokens: { peer: string; ours: string; reason: string }[];
  facts: (FactDifference & { peer: string; reason: string })[];
}

const listed = JSON.parse(readFileSync(join(repoRoot, "test/interchange/schema-differences.json"), "utf8")) as Differences;

async function packageSchema(plugin: PluginProcess, peer: string, flags: string[]): Promise<Record<string, unknown>> {
  const p = await plugin.call("Parameterize", argsRequest(peerPath(peer), ...flags));
  const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] });
  return JSON.parse(res["schema"] as string) as Record<string, unknown>;
}

/** The reference's facts with its tokens renamed as listed, and the schema alias ours must carry for each. */
function renamed(facts: Facts, peer: string): Facts {
  const out: Facts = new Map();
  const renames = listed.renamedTokens.filter((r) => r.peer === peer);
  for (const [k, v] of facts) {
    let key = k;
    for (const r of renames) key = key.split(r.reference).join(r.ours);
    out.set(key, v);
  }
  for (const r of renames) out.set(`resource ${r.ours} alias ${r.reference}`, "alias");
  return out;
}

/** The listed added tokens of a peer, in the package named `pkg` (--provider-name renames every token). */
function addedTokens(peer: string, pkg: string): string[] {
  return listed.addedTokens.filter((a) => a.peer === peer).map((a) => `${pkg}${a.ours.slice(a.ours.indexOf(":"))}`);
}

/** Facts of the listed added tokens (the function and the types of its module), which the reference cannot have. */
function withoutAdded(facts: Facts, peer: string, pkg: string): { rest: Facts; added: Set<string> } {
  const added = new Set<string>();
  const prefixes = addedTokens(peer, pkg).flatMap((t) => [`function ${t}`, `type ${t.split("/")[0]}/`]);
  const rest: Facts = new Map();
  for (const [k, v] of facts) {
    if (prefixes.some((p) => k === p || k.startsWith(p.endsWith("/") ? p : `${p} `))) {
      if (k.startsWith("function ")) added.add(k.split(" ")[1]!);
    } else rest.set(k, v);
  }
  return { rest, added };
}

const peers = Object.keys(pins);
/** Every peer as it is, and the Parameterize flags whose effect (filters, package name) the value bytes record. */
const cases: [string, string[]][] = [
  ...peers.map((p): [string, string[]] => [p, []]),
  ["tls", ["--include", "tls_private_key", "--include", "tls_public_key", "--provider-name", "mytls"]],
  ["random", ["--exclude", "random_pet", "--exclude", "random_uuid"]],
];
const schemas = new Map<string, { ours: Record<string, unknown>; reference: Record<string, unknown> }>();
describe.each(cases)("schema of %s %j against the reference", (peer, flags) => {
  it("has the reference's every token, name, type, required set, secret, config variable, method and value byte", async () => {
    // One plugin process per Parameterize: the engine starts one per package, and both plugins bind to the first.
    const [o, r] = await Promise.all([startPluginProcess(), startPluginProcess({ bin: referenceBin(), reapChildren: true })]);
    try {
      const [os, rs] = await Promise.all([packageSchema(o, peer, flags), packageSchema(r, peer, flags)]);
      if (flags.length === 0) schemas.set(peer, { ours: os, reference: rs });
      const refFacts = renamed(schemaFacts(rs), peer);
      const pkg = String(os["name"]);
      const { rest: ours, added } = withoutAdded(schemaFacts(os), peer, pkg);
      const { added: refAdded } = withoutAdded(refFacts, peer, pkg);
      expect([...refAdded], "the reference now has a function listed as ours alone").toEqual([]);
      // Filters (--include) may drop a listed addition; with none, every listed one must still occur.
      if (flags.length === 0) expect([...added].sort()).toEqual(addedTokens(peer, pkg).sort());
      const differences = diffFacts(ours, refFacts);
      const expected = listed.facts.filter((f) => f.peer === peer).map(({ fact, ours: a, reference: b }) => ({ fact, ours: a, reference: b }));
      console.log(`${[peer, ...flags].join(" ")}: ${refFacts.size} schema facts compared, ${differences.length} differences (${expected.length} listed)`);
      expect(differences).toEqual(expected);
      // A comparison of nothing proves nothing: every peer has resources or functions.
      expect(refFacts.size).toBeGreaterThan(20);
    } finally {
      await Promise.all([o.stop(), r.stop()]);
    }
  });
});

describe("the differences list", () => {
  it("names only peers that exist, and every renamed token is one the reference really has", () => {
    for (const r of listed.renamedTokens) {
      expect(peers).toContain(r.peer);
      const s = schemas.get(r.peer);
      if (s === undefined) continue;
      expect(Object.keys(s.reference["resources"] as object)).toContain(r.reference);
      expect(Object.keys(s.ours["resources"] as object)).toContain(r.ours);
      expect(Object.keys(s.ours["resources"] as object)).not.toContain(r.reference);
    }
  });
});
