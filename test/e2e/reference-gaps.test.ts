// Schemas the reference cannot make a package of (test/support/reference-gaps.ts: names without the provider's prefix,
// tokens one but for case, a binary named with its version, dynamic and tuple attributes, properties one but for case),
// each served by the replay peer: ours answers Parameterize and GetSchema with a schema every SDK can declare, and
// what the reference does with the same schema is checked too (its error, or Pulumi's binder refusing its schema).
// Then every shape in one provider goes through the real CLI, `pulumi package gen-sdk` and a compile per language
// (test/support/giants-matrix.ts), as giants-sdks does for the largest providers.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveGiant } from "../support/giants.js";
import { ensureMypy, formatResult, GiantRun, LANGUAGES } from "../support/giants-matrix.js";
import { packageSchemaProblems } from "../support/hostile-schema.js";
import { hostsMissing, javaHostMissing, javaSandbox } from "../support/languages.js";
import { referenceBin } from "../support/peers.js";
import { processesMatching } from "../support/processes.js";
import { argsRequest, pulumiBinDir, startPluginProcess, type PulumiSandbox } from "../support/pulumi.js";
import { allGaps, caseClash, caseClashResources, dynamicAttributes, gapShapes, noPrefix, propertyCase, tupleAttribute, versionedBinary, type GapShape } from "../support/reference-gaps.js";

type Schema = Record<string, any>;

describe.skipIf(hostsMissing() || javaHostMissing())("schemas the reference cannot make a package of", () => {
  let sandbox: PulumiSandbox;
  let work: string;

  beforeAll(() => {
    ensureMypy();
    sandbox = javaSandbox();
    work = mkdtempSync(join(tmpdir(), "tfbridge-gaps-"));
  }, 900_000);
  afterAll(() => {
    sandbox?.cleanup();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  /** The shape's dump written to a file of its own, as a Giant the replay peer serves under the shape's binary name. */
  function dumpOf(g: GapShape, dir: string): { name: string; file: string; binary: string } {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "schema.json");
    writeFileSync(file, JSON.stringify(g.dump));
    return { name: "acme", file, binary: g.binary };
  }

  /** Parameterize + GetSchema in one plugin (ours, or the reference with `bin`): the schema, or the error with the plugin's log. */
  async function packageSchema(g: GapShape, dir: string, bin?: string): Promise<Schema | { error: string }> {
    const served = serveGiant(dumpOf(g, dir), mkdtempSync(join(dir, bin === undefined ? "ours-" : "reference-")));
    const plugin = await startPluginProcess({ env: served.env, ...(bin === undefined ? {} : { bin, reapChildren: true }) });
    try {
      const p = await plugin.call("Parameterize", argsRequest(served.binary));
      const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] });
      return JSON.parse(res["schema"] as string) as Schema;
    } catch (e) {
      return { error: `${(e as Error).message}\n${plugin.stderr()}` };
    } finally {
      await plugin.stop();
      // The reference's GetSchema can crash (the tuple attribute), leaving its Terraform provider to init, where
      // reapChildren no longer finds it: the provider is the served binary, so it is found by that path.
      for (const pid of processesMatching(served.binary)) process.kill(pid, "SIGKILL");
    }
  }

  /** `pulumi package gen-sdk` of a schema file: Pulumi's binder checks tokens and names before any code is written. */
  async function genSdk(schema: Schema, dir: string): Promise<{ ok: boolean; output: string }> {
    const file = join(dir, "reference-schema.json");
    writeFileSync(file, JSON.stringify(schema));
    try {
      const r = await promisify(execFile)(join(pulumiBinDir(), "pulumi"), ["--non-interactive", "package", "gen-sdk", file, "--language", "nodejs", "--out", join(dir, "sdk")], { cwd: dir, env: sandbox.env });
      return { ok: true, output: r.stdout + r.stderr };
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string };
      return { ok: false, output: `${x.stdout ?? ""}${x.stderr ?? ""}` };
    }
  }

  const inputs = (s: Schema, token: string): string[] => Object.keys(s["resources"][token]["inputProperties"]).sort();

  /** What ours makes of each shape, beyond a schema every SDK can declare. */
  const ours: Record<string, (s: Schema) => void> = {
    [noPrefix.name]: (s) => {
      expect(Object.keys(s["resources"]).sort()).toEqual(["acme:index/apiTest:ApiTest", "acme:index/widget:Widget"]);
      expect(Object.keys(s["functions"])).toEqual(expect.arrayContaining(["acme:index/getWidgets:getWidgets", "acme:index/getAcmeCloudRegions:getAcmeCloudRegions"]));
    },
    [caseClash.name]: (s) => {
      expect(Object.keys(s["resources"]).sort()).toEqual(["acme:index/firewallSecurityPolicy:FirewallSecurityPolicy", "acme:index/firewallSecuritypolicyV2:FirewallSecuritypolicyV2", "acme:index/getZone:GetZone"]);
      expect(Object.keys(s["functions"])).toContain("acme:index/getZoneV2:getZoneV2");
    },
    [versionedBinary.name]: (s) => expect(s["name"]).toBe("acme"),
    [dynamicAttributes.name]: (s) => {
      const p = s["resources"]["acme:index/manifest:Manifest"]["inputProperties"];
      expect(p["manifest"]).toEqual({ $ref: "pulumi.json#/Any" });
      expect(p["mapOfAny"]).toEqual({ type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } });
    },
    [tupleAttribute.name]: (s) => expect(s["resources"]["acme:index/pair:Pair"]["inputProperties"]["pair"]).toEqual({ type: "array", items: { $ref: "pulumi.json#/Any" } }),
    [propertyCase.name]: (s) => expect(inputs(s, "acme:index/user:User")).toEqual(["DisplayNameV2", "displayName", "displayNameV3", "name", "userId"]),
  };

  /** What the reference makes of the shapes whose schema it does answer and Pulumi binds. */
  const reference: Record<string, (s: Schema, mine: Schema) => void> = {
    [caseClashResources.name]: (s, mine) => expect(Object.keys(s["resources"]).sort()).toEqual(Object.keys(mine["resources"]).sort()),
    // A map of dynamic values is a map of strings there: an object in it does not convert.
    [dynamicAttributes.name]: (s) => expect(s["resources"]["acme:index/manifest:Manifest"]["inputProperties"]["mapOfAny"]).toEqual({ type: "object", additionalProperties: { type: "string" } }),
    // display_name and displayName are one property there (a value given is written to both, one is read back), and
    // DisplayName beside it is the one name display_name in Python.
    [propertyCase.name]: (s) => expect(inputs(s, "acme:index/user:User")).toEqual(["DisplayName", "displayName", "name", "userId"]),
  };

  it.each(gapShapes.map((g) => [g.name, g] as const))("%s: ours makes a package; the reference as its issue says", async (_name, g) => {
    const dir = mkdtempSync(join(work, "shape-"));
    const mine = await packageSchema(g, dir);
    if ("error" in mine) throw new Error(`ours failed on ${g.name}: ${String(mine.error)}`);
    expect(packageSchemaProblems(mine)).toEqual([]);
    ours[g.name]?.(mine);

    const theirs = await packageSchema(g, dir, referenceBin());
    const expected = g.reference;
    if (expected !== undefined && "answer" in expected) {
      expect("error" in theirs ? theirs.error : "the reference answered a schema").toContain(expected.answer);
      return;
    }
    if ("error" in theirs) throw new Error(`the reference failed on ${g.name}, which it used to read: ${String(theirs.error)}`);
    const bound = await genSdk(theirs, dir);
    if (expected !== undefined) {
      expect(bound.ok, bound.output).toBe(false);
      expect(bound.output).toContain(expected.binding);
      // The same check passes ours: a schema every SDK can declare is also one Pulumi binds.
      const oursBound = await genSdk(mine, dir);
      expect(oursBound.ok, oursBound.output).toBe(true);
    } else {
      expect(bound.ok, bound.output).toBe(true);
      reference[g.name]?.(theirs, mine);
    }
  }, 300_000);

  describe("SDKs of every shape at once", () => {
    let run: GiantRun;
    let schema: Awaited<ReturnType<GiantRun["schema"]>>[1];

    beforeAll(async () => {
      const g = allGaps();
      const giant = dumpOf(g, join(work, "all"));
      run = new GiantRun(giant, sandbox.env, work);
      [, schema] = await run.schema();
      expect(packageSchemaProblems(schema as Schema)).toEqual([]);
    }, 300_000);
    afterAll(() => run?.cleanup());

    it.each(LANGUAGES.map((l) => [l]))("%s", async (language) => {
      const r = await run.language(language, undefined, schema);
      console.log(formatResult(r));
      expect(r.error, language).toBeUndefined();
      expect(r.ok).toBe(true);
    }, 900_000);
  });
});
