// Terraform resource identity through the real Pulumi CLI with a YAML program: bridgetest_identified's identity kept in
// the stack (`pulumi stack export`), upgraded from identity schema version 0 to 1 on refresh when the provider moves on,
// kept through an update, `pulumi import` with the identity as JSON (and a clear error for unknown keys), destroy.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { bridgetestObjectIds, importedResources, OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const TYPE = "bridgetest:index/identified:Identified";

const program = (note: string, extra = ""): string =>
  ["resources:", "  thing:", `    type: ${TYPE}`, "    properties:", "      name: first", `      note: ${note}`, extra, "outputs:", "  id: ${thing.id}"].join("\n");

async function meta(s: YamlScenario, name: string): Promise<Record<string, unknown>> {
  const r = await s.resource(name);
  return JSON.parse(r?.outputs?.["__meta"] as string) as Record<string, unknown>;
}

describe("resource identity (YAML)", () => {
  it("kept in the stack, upgraded 0 → 1 on refresh, kept through update, `pulumi import` by identity JSON, destroy", async () => {
    const stateDir = scratch("tfbridge-identity-state-");
    // The provider starts out serving identity schema version 0 ({object_id}).
    const s = await YamlScenario.create(sandbox, "lc-identity", ["bridgetest"], { BRIDGETEST_IDENTITY_VERSION: "0" });
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    s.program(program("one"));
    await s.up();
    const id = (await s.outputs())["id"] as string;
    expect(id).toMatch(/^identified-[0-9a-f]{12}$/);
    expect(await meta(s, "thing")).toEqual({ schema_version: "0", identity: { object_id: id }, identity_schema_version: "0", type: "bridgetest_identified" });

    // A newer provider: identity schema version 1 ({id, name}). Refresh upgrades the stored identity through the
    // provider's UpgradeResourceIdentity and stores the new version.
    s.env["BRIDGETEST_IDENTITY_VERSION"] = "1";
    await s.ok(["refresh", "--yes"]);
    expect(await meta(s, "thing")).toEqual({ schema_version: "0", identity: { id, name: "first" }, identity_schema_version: "1", type: "bridgetest_identified" });
    await s.ok(["preview", "--expect-no-changes"]);

    // Update in place: bridgetest answers an update with the planned identity, which only exists if the bridge sent it.
    s.program(program("two"));
    await s.up();
    expect((await s.resource("thing"))?.outputs?.["note"]).toBe("two");
    expect(await meta(s, "thing")).toMatchObject({ identity: { id, name: "first" }, identity_schema_version: "1" });

    // An object made outside Pulumi, adopted by its identity rather than its import id.
    const stored = JSON.parse(readFileSync(join(stateDir, `${id}.json`), "utf8")) as { state: Record<string, unknown> };
    stored.state = { ...stored.state, id: "made-outside", name: "outsider", note: "from outside" };
    writeFileSync(join(stateDir, "made-outside.json"), JSON.stringify(stored));

    const unknownKey = await s.pulumi(["import", TYPE, "adopted", '{"object_id":"made-outside"}', "--yes", "--protect=false"]);
    expect(unknownKey.code).not.toBe(0);
    const said = unknownKey.stdout + unknownKey.stderr;
    expect(said).toContain(`the import identity has an attribute bridgetest_identified does not know: "object_id"; bridgetest_identified's identity attributes are id (required), name (optional)`);
    expect(said).not.toMatch(OUR_STACK);
    expect(await s.resource("adopted")).toBeUndefined();

    const gen = join(s.dir, "imported.yaml");
    await s.ok(["import", TYPE, "adopted", '{"id":"made-outside","name":"outsider"}', "--yes", "--protect=false", "--out", gen]);
    const adopted = await s.resource("adopted");
    // The id is the provider's, not the JSON the import was given.
    expect(adopted?.id).toBe("made-outside");
    expect(adopted?.inputs).toEqual({ name: "outsider", note: "from outside" });
    expect(await meta(s, "adopted")).toMatchObject({ identity: { id: "made-outside", name: "outsider" }, identity_schema_version: "1" });
    const code = readFileSync(gen, "utf8");
    expect(code).toMatch(/name: outsider/);
    s.program(program("two", importedResources(code)));
    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);

    // bridgetest's Delete refuses an identity naming another object: both deletions carried the right one.
    await s.ok(["destroy", "--yes"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});
