// Terraform resource identity from a TypeScript project run by the real Node.js language host with a generated SDK:
// bridgetest's Identified created and updated with its identity kept in the stack, and an object adopted with the
// `import` resource option given the identity as JSON; refresh, destroy.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { bridgetestObjectIds, nodeSdk, removeScratch, scratch, TypeScriptScenario } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let project: TypeScriptScenario;

/** index.ts: `phase` create or update; with `importIdentity` set, an outside object is adopted by that identity. */
const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as bt from "@pulumi/bridgetest";

const config = new pulumi.Config();
const phase = config.require("phase");
const prov = new bt.Provider("prov", { stateDir: config.require("stateDir") });
const thing = new bt.Identified("thing", { name: "ts-thing", note: phase }, { provider: prov });
const importIdentity = config.get("importIdentity");
if (importIdentity !== undefined) {
    new bt.Identified("adopted", { name: "ts-outsider", note: "from outside" }, { provider: prov, import: importIdentity });
}
export const id = thing.id;
`;

async function meta(name: string): Promise<Record<string, unknown>> {
  return JSON.parse((await project.resource(name))?.outputs?.["__meta"] as string) as Record<string, unknown>;
}

describe.skipIf(hostsMissing())("resource identity from a TypeScript project (generated SDK, Node.js language host)", () => {
  beforeAll(async () => {
    sandbox = languageSandbox();
    const bridgetest = await nodeSdk(sandbox, "bridgetest");
    project = await TypeScriptScenario.create(sandbox, "lc-identity-ts", PROGRAM, { "@pulumi/bridgetest": bridgetest });
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  it("index.ts type-checks against the generated SDK", async () => {
    await project.typeCheck();
  }, 120_000);

  it("create and update keep the identity; the `import` option adopts an object by its identity JSON; refresh; destroy", async () => {
    const stateDir = scratch("tfbridge-identity-ts-state-");
    await project.config("stateDir", stateDir);
    await project.config("phase", "create");
    expect(await project.changes("up")).toMatchObject({ create: 3 });
    const id = (await project.outputs())["id"] as string;
    expect(await meta("thing")).toEqual({ schema_version: "0", identity: { id, name: "ts-thing" }, identity_schema_version: "1", type: "bridgetest_identified" });

    await project.config("phase", "update");
    expect(await project.changes("up")).toMatchObject({ update: 1 });
    expect((await project.resource("thing"))?.outputs?.["note"]).toBe("update");
    expect(await meta("thing")).toEqual({ schema_version: "0", identity: { id, name: "ts-thing" }, identity_schema_version: "1", type: "bridgetest_identified" });

    const stored = JSON.parse(readFileSync(join(stateDir, `${id}.json`), "utf8")) as { state: Record<string, unknown> };
    stored.state = { ...stored.state, id: "ts-outside", name: "ts-outsider", note: "from outside" };
    writeFileSync(join(stateDir, "ts-outside.json"), JSON.stringify(stored));
    await project.config("importIdentity", JSON.stringify({ id: "ts-outside", name: "ts-outsider" }));
    expect(TypeScriptScenario.step(await project.preview(), "adopted")?.op).toBe("import");
    expect(await project.changes("up")).toMatchObject({ import: 1 });
    const adopted = await project.resource("adopted");
    expect(adopted?.id).toBe("ts-outside");
    expect(await meta("adopted")).toEqual({ schema_version: "0", identity: { id: "ts-outside", name: "ts-outsider" }, identity_schema_version: "1", type: "bridgetest_identified" });

    await project.ok(["refresh", "--yes", "--expect-no-changes"]);
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
  }, 600_000);
});
