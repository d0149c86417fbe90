// Breadth on real schemas nobody here wrote: each of the 66 dumps of shared/schemas/more (test/support/giants.ts), served
// by the replay peer, goes through Parameterize and GetSchema in our plugin, and the package schema it makes passes the
// checks every SDK needs (packageSchemaProblems). The reference goes through the same on the dumps it answers in
// seconds (REFERENCE_MAX_BYTES; aws 6.19 whole takes it over two minutes, ours under 30 s) and the two agree on every resource
// and function token, except where test/interchange/more-schema-differences.json says why not.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { morePresent, moreSchemas, serveGiant, type Giant } from "../support/giants.js";
import { packageSchemaProblems } from "../support/hostile-schema.js";
import { engineLogSink, inProcessPlugin } from "../support/in-process-plugin.js";
import { referenceBin, repoRoot } from "../support/peers.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";

/** Dumps up to this size (uncompressed JSON, or gzip × 8) also go through the reference: 61 of the 66. */
const REFERENCE_MAX_BYTES = 2_000_000;

interface Listed {
  /** Per dump (its path below more/ or the tarball's folder), the tokens only one side has, and why. */
  tokens: { dump: string; ours: string[]; reference: string[]; reason: string }[];
}
const listed = JSON.parse(readFileSync(join(repoRoot, "test/interchange/more-schema-differences.json"), "utf8")) as Listed;

type Schema = Record<string, any>;

/** Resource and function tokens: what programs and SDKs name. Ephemeral resources are ours alone (docs/interchange.md). */
function tokens(s: Schema): string[] {
  return [...Object.keys(s["resources"] ?? {}), ...Object.keys(s["functions"] ?? {}).filter((t) => !t.includes(":ephemeral/"))].sort();
}

const size = (g: Giant): number => (g.file.endsWith(".gz") ? statSync(g.file).size * 8 : statSync(g.file).size);
const label = (g: Giant): string => g.file.split("/").slice(-2).join("/").replace(/^more\//, "");

it("finds the further schema dumps", () => {
  expect(morePresent, "shared/schemas/more is missing; set TF_BRIDGE_GIANT_SCHEMAS to the schemas directory").toBe(true);
});

describe.skipIf(!morePresent)("66 further real schemas through Parameterize and GetSchema", () => {
  const work = mkdtempSync(join(tmpdir(), "tfbridge-more-"));
  const dumps = moreSchemas(work);
  let ours: Awaited<ReturnType<typeof inProcessPlugin>>;
  let sink: Awaited<ReturnType<typeof engineLogSink>>;
  const saved = { schema: process.env["REPLAY_SCHEMA"], store: process.env["REPLAY_STORE"] };
  const figures: string[] = [];

  beforeAll(async () => {
    sink = await engineLogSink();
  });
  afterAll(async () => {
    sink?.close();
    rmSync(work, { recursive: true, force: true });
    for (const [k, v] of [["REPLAY_SCHEMA", saved.schema], ["REPLAY_STORE", saved.store]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    console.log(figures.join("\n"));
  });

  it("holds every dump of the README", () => {
    expect(dumps.length).toBe(66);
    expect(new Set(dumps.map((d) => d.name)).size).toBeGreaterThan(50);
  });

  it.each(dumps.map((d) => [label(d), d] as const))("%s", async (_label, dump) => {
    const served = serveGiant(dump, mkdtempSync(join(work, `${dump.name}-`)));
    let mine: Schema;
    let theirs: Schema | undefined;
    const started = Date.now();
    let oursMs = 0;
    try {
      // Our plugin in this process (a fresh one per dump, as the engine starts one per package): it launches the
      // replay peer with this process's environment.
      process.env["REPLAY_SCHEMA"] = served.env["REPLAY_SCHEMA"];
      process.env["REPLAY_STORE"] = served.env["REPLAY_STORE"];
      ours = await inProcessPlugin(sink.address);
      try {
        const p = await ours.call("Parameterize", argsRequest(served.binary));
        expect(p["name"]).toBe(dump.name);
        const res = await ours.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] });
        mine = JSON.parse(res["schema"] as string) as Schema;
      } finally {
        await ours.close();
      }
      oursMs = Date.now() - started;
      if (size(dump) <= REFERENCE_MAX_BYTES) {
        const plugin = await startPluginProcess({ env: served.env, bin: referenceBin(), reapChildren: true });
        try {
          const p = await plugin.call("Parameterize", argsRequest(served.binary));
          const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] });
          theirs = JSON.parse(res["schema"] as string) as Schema;
        } finally {
          await plugin.stop();
        }
      }
    } finally {
      served.cleanup();
    }
    expect(packageSchemaProblems(mine)).toEqual([]);
    expect(Object.keys(mine["resources"] ?? {}).length + Object.keys(mine["functions"] ?? {}).length).toBeGreaterThan(1);
    let line = `${label(dump)}: ours ${Object.keys(mine["resources"]).length} resources`;
    if (theirs !== undefined) {
      const a = tokens(mine);
      const b = new Set(tokens(theirs));
      const onlyOurs = a.filter((t) => !b.has(t));
      const onlyTheirs = [...b].filter((t) => !a.includes(t));
      const expected = listed.tokens.find((l) => l.dump === label(dump)) ?? { ours: [], reference: [] };
      expect({ ours: onlyOurs, reference: onlyTheirs }).toEqual({ ours: [...expected.ours].sort(), reference: [...expected.reference].sort() });
      line += `, the reference's ${b.size} resource and function tokens compared`;
    } else {
      line += ", too large for the reference here";
    }
    figures.push(`${line}; ours ${oursMs} ms, the reference ${theirs === undefined ? "-" : `${Date.now() - started - oursMs} ms`}`);
  }, 240_000);

  it("lists differences only of dumps the reference reads, each with its reason", () => {
    for (const l of listed.tokens) {
      const d = dumps.find((x) => label(x) === l.dump);
      expect(d, l.dump).toBeDefined();
      expect(size(d!)).toBeLessThanOrEqual(REFERENCE_MAX_BYTES);
      expect(l.reason.length).toBeGreaterThan(60);
    }
  });
});
