// Sets another engine's corpus answers (a CROSSTEST_GOLDEN_DIR that `CROSSTEST_ENGINE=terraform npm run
// crosstest:record` wrote) beside the committed OpenTofu goldens and prints what differs, field by field, with counts
// and examples; docs/oracle.md#terraform-1164-against-opentofu-1126 lists the result.
// Usage: npx tsx scripts/crosstest/compare-engines.ts <other golden dir> [sdkv2|framework|peers/<peer>…]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GOLDEN_DIR, type Golden } from "../../test/crosstest/corpus.js";

const [otherDir, ...names] = process.argv.slice(2);
if (otherDir === undefined) throw new Error("usage: compare-engines.ts <other golden dir> [folder…]");

/** Values compared as the replay compares states: numbers by value, object keys in any order. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return v;
}
/** An object without its provider-chosen `id` string: the shape providers make a random one per apply, so two engines' runs
 * never share it (an `id` that is unknown or null in one of them still counts). */
function withoutId(v: unknown): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const { id, ...rest } = v as Record<string, unknown>;
  return typeof id === "string" ? rest : v;
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The fields a replay reads, each a way the two engines can disagree. */
const FIELDS: [string, (g: Golden) => unknown][] = [
  ["plan actions", (g) => g.plan.actions],
  ["replace paths", (g) => [...g.plan.replacePaths].sort()],
  ["changed paths", (g) => [...g.plan.changed].map((c) => JSON.stringify(c)).sort()],
  ["planned values", (g) => [withoutId(g.plan.after), g.plan.afterUnknown]],
  ["state after create", (g) => withoutId(g.state1)],
  ["state after update", (g) => withoutId(g.state2)],
  ["refresh drift", (g) => g.refreshDrift],
  ["plan after apply", (g) => g.planAfterApply],
  ["import", (g) => withoutId(g.imported)],
  ["errors", (g) => (g.errors ?? []).map((e) => e.split(":")[0])],
];

const folders = names.length > 0 ? names : readdirSync(otherDir);
for (const folder of folders) {
  const files = readdirSync(join(otherDir, folder)).filter((f) => f.endsWith(".json"));
  const diffs = new Map<string, string[]>();
  let missing = 0;
  for (const f of files) {
    const ours = join(GOLDEN_DIR, folder, f);
    if (!existsSync(ours)) {
      missing++;
      continue;
    }
    const tofu = JSON.parse(readFileSync(ours, "utf8")) as Golden;
    const other = JSON.parse(readFileSync(join(otherDir, folder, f), "utf8")) as Golden;
    for (const [name, pick] of FIELDS) if (!same(pick(tofu), pick(other))) diffs.set(name, [...(diffs.get(name) ?? []), tofu.id]);
  }
  console.log(`${folder}: ${files.length} cases compared${missing > 0 ? `, ${missing} without an OpenTofu golden` : ""}`);
  if (diffs.size === 0) console.log("  no difference");
  for (const [name, ids] of diffs) console.log(`  ${name}: ${ids.length} (${ids.slice(0, 6).join(", ")}${ids.length > 6 ? ", …" : ""})`);
}
