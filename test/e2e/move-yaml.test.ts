// A resource whose type changes under an alias, through the real Pulumi CLI with a YAML program: a bridgetest Named
// becomes a Relabeled with `aliases` naming the old URN, and `pulumi up` moves its state through the provider's
// MoveResourceState (no replacement, the same object), then previews no change, refreshes and destroys it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { bridgetestObjectIds, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const NAMED = "bridgetest:index/named:Named";
const RELABELED = "bridgetest:index/relabeled:Relabeled";
const IDENTIFIED = "bridgetest:index/identified:Identified";

const named = ["resources:", "  thing:", `    type: ${NAMED}`, "    properties:", "      note: hello", "outputs:", "  id: ${thing.id}"].join("\n");

/** The same resource as another type, with the old URN as its alias. */
const moved = (type: string, properties: string[]): string =>
  [
    "resources:",
    "  thing:",
    `    type: ${type}`,
    "    properties:",
    ...properties.map((p) => `      ${p}`),
    "    options:",
    "      aliases:",
    `        - urn:pulumi:dev::lc-move::${NAMED}::thing`,
    "outputs:",
    "  id: ${thing.id}",
  ].join("\n");

describe("a resource moved to another type under an alias (YAML)", () => {
  it("`up` moves the state through MoveResourceState without replacing; no change after; refresh; destroy", async () => {
    const stateDir = scratch("tfbridge-move-state-");
    const s = await YamlScenario.create(sandbox, "lc-move", ["bridgetest"]);
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    s.program(named);
    // The stack and the resource.
    expect(await s.changes("up")).toMatchObject({ create: 2 });
    const before = await s.resource("thing");
    const id = before?.id as string;
    const name = before?.outputs?.["name"] as string;
    expect(id).toMatch(/^named-[0-9a-f]{12}$/);
    expect(JSON.parse(before?.outputs?.["__meta"] as string)).toMatchObject({ type: "bridgetest_named" });

    // A type the provider cannot move a Named to: the engine reports our error, and the stack is left as it was.
    s.program(moved(IDENTIFIED, ["name: fixed"]));
    const refused = await s.pulumi(["preview"]);
    expect(refused.code).not.toBe(0);
    const said = refused.stdout + refused.stderr;
    expect(said).toContain(`from bridgetest_named (${NAMED}) to bridgetest_identified (${IDENTIFIED})`);
    expect(said).toContain("Unable to Move Resource State");
    expect(said).toContain("remove the alias");

    s.program(moved(RELABELED, ["label: hello"]));
    const preview = await s.preview();
    const step = YamlScenario.step(preview, "thing");
    expect(step?.op).toBe("update");
    expect(preview.changeSummary).not.toHaveProperty("create");
    expect(preview.changeSummary).not.toHaveProperty("delete");
    expect(preview.changeSummary).not.toHaveProperty("replace");

    const up = await s.changes("up");
    expect(up).toMatchObject({ update: 1 });
    for (const op of ["create", "delete", "replace", "create-replacement", "delete-replaced"]) expect(up).not.toHaveProperty(op);
    const after = await s.resource("thing");
    expect(after?.type).toBe(RELABELED);
    expect(after?.id).toBe(id);
    expect(after?.outputs).toMatchObject({ id, name, label: "hello" });
    expect(after?.outputs).not.toHaveProperty("note");
    expect(JSON.parse(after?.outputs?.["__meta"] as string)).toMatchObject({ schema_version: "0", type: "bridgetest_relabeled" });
    expect((await s.deployment()).resources?.filter((r) => r.type === NAMED)).toEqual([]);
    // The one object, never recreated.
    expect(bridgetestObjectIds(stateDir)).toEqual([id]);

    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);
    expect(await s.changes("destroy")).toMatchObject({ delete: 2 });
    expect(existsSync(join(stateDir, `${id}.json`))).toBe(false);
  }, 600_000);
});
