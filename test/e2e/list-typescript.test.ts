// Discover and import into a TypeScript project with the generated SDK: objects made outside the project are listed
// with `pulumi do … list`, turned into a `pulumi import --file` file (with the package's parameterization, as the
// project has no `packages:` entry), imported with generated index.ts, which type-checks and previews with no changes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discover } from "../support/discover.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { nodeSdk, removeScratch, scratch, TypeScriptScenario, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import type { PulumiSandbox } from "../support/pulumi.js";

const TYPE = "bridgetest:index/identified:Identified";
let sandbox: PulumiSandbox;
let bridgetest: string;

describe.skipIf(hostsMissing())("discover and import (TypeScript)", () => {
  beforeAll(async () => {
    sandbox = languageSandbox();
    bridgetest = await nodeSdk(sandbox, "bridgetest");
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  it("lists, imports by the generated file, and the generated index.ts previews with no changes", async () => {
    const stateDir = scratch("tfbridge-list-ts-state-");
    const maker = await YamlScenario.create(sandbox, "list-ts-maker", ["bridgetest"], { BRIDGETEST_STATE_DIR: stateDir });
    await maker.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    maker.program(["resources:", ...["east", "west"].flatMap((n) => [`  ${n}:`, `    type: ${TYPE}`, "    properties:", `      name: ${n}`, `      note: made ${n}`])].join("\n"));
    await maker.up();
    const ids = (await maker.resources()).filter((r) => r.type === TYPE).map((r) => r.id!).sort();
    await maker.ok(["stack", "rm", "--force", "--yes"]);

    const project = await TypeScriptScenario.create(sandbox, "list-ts", "export {};\n", { "@pulumi/bridgetest": bridgetest });
    project.env["BRIDGETEST_STATE_DIR"] = stateDir;
    await project.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    await discover(project, `terraform-provider ${peerPath("bridgetest")}`, TYPE, "index.ts");

    expect((await project.resourceNames()).sort()).toEqual(["east", "west"]);
    expect((await Promise.all(["east", "west"].map(async (n) => (await project.resource(n))?.id))).sort()).toEqual(ids);
    const code = readFileSync(join(project.dir, "index.ts"), "utf8");
    expect(code).toMatch(/new bridgetest\.Identified\("east"/);
    expect(code).toMatch(/note: "made west"/);
    await project.typeCheck();
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
  }, 900_000);
});
