// A resource whose type changes under an alias from a TypeScript project (generated SDK, Node.js language host): a
// bridgetest Named becomes a Relabeled with `aliases: [{ type: <Named's token> }]`, and `pulumi up` moves its state
// through MoveResourceState without replacing it; no change after; destroy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { bridgetestObjectIds, nodeSdk, removeScratch, scratch, TypeScriptScenario } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let project: TypeScriptScenario;

/** index.ts: `phase` named (a Named) or moved (the same resource as a Relabeled, aliased to the Named's type). */
const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as bt from "@pulumi/bridgetest";

const config = new pulumi.Config();
const prov = new bt.Provider("prov", { stateDir: config.require("stateDir") });
export const id =
    config.require("phase") === "named"
        ? new bt.Named("thing", { note: "hello" }, { provider: prov }).id
        : new bt.Relabeled("thing", { label: "hello" }, { provider: prov, aliases: [{ type: "bridgetest:index/named:Named" }] }).id;
`;

describe.skipIf(hostsMissing())("a resource moved to another type under an alias (TypeScript)", () => {
  beforeAll(async () => {
    sandbox = languageSandbox();
    const bridgetest = await nodeSdk(sandbox, "bridgetest");
    project = await TypeScriptScenario.create(sandbox, "lc-move-ts", PROGRAM, { "@pulumi/bridgetest": bridgetest });
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  it("index.ts type-checks against the generated SDK", async () => {
    await project.typeCheck();
  }, 120_000);

  it("`up` moves the Named's state to the Relabeled without replacing it; then no change; destroy", async () => {
    const stateDir = scratch("tfbridge-move-ts-state-");
    await project.config("stateDir", stateDir);
    await project.config("phase", "named");
    expect(await project.changes("up")).toMatchObject({ create: 3 });
    const id = (await project.outputs())["id"] as string;

    await project.config("phase", "moved");
    expect(TypeScriptScenario.op(await project.preview(), "thing")).toBe("update");
    const up = await project.changes("up");
    expect(up).toMatchObject({ update: 1 });
    for (const op of ["create", "delete", "replace"]) expect(up).not.toHaveProperty(op);
    const thing = await project.resource("thing");
    expect(thing?.type).toBe("bridgetest:index/relabeled:Relabeled");
    expect(thing?.id).toBe(id);
    expect(thing?.outputs).toMatchObject({ label: "hello" });
    expect(JSON.parse(thing?.outputs?.["__meta"] as string)).toMatchObject({ type: "bridgetest_relabeled" });
    expect(bridgetestObjectIds(stateDir)).toEqual([id]);

    await project.ok(["preview", "--expect-no-changes"]);
    await project.changes("destroy");
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
  }, 600_000);
});
