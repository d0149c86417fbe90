// Resource lifecycle from a TypeScript project run with `pulumi up` through the real Node.js language host: SDKs
// generated from our schema by `pulumi package gen-sdk`, the phase, state folder and import id as stack config.
// bridgetest (protocol 6) with an explicit provider: create, update in place, replace, refresh after drift, import by
// resource option, functions and a data source, secrets, bad input, destroy; time's object-returning function.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { bridgetestObjectIds, isSecretEnvelope, nodeSdk, OUR_STACK, removeScratch, scratch, TypeScriptScenario } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let project: TypeScriptScenario;

/** index.ts: what it declares depends on the stack's `phase` (create, update, replace, import, bad). */
const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as bt from "@pulumi/bridgetest";
import * as time from "@pulumi/time";

const config = new pulumi.Config();
const phase = config.require("phase");
const stateDir = config.require("stateDir");
const importId = config.get("importId");

/** bridgetest_object without the SDK: whatever properties the program passes go to the engine as they are. */
class RawObject extends pulumi.CustomResource {
    constructor(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
        super("bridgetest:index/objectResource:ObjectResource", name, props, opts);
    }
}

const prov = new bt.Provider("prov", { stateDir, apiToken: "ts-token-value" });
const second = phase === "replace" || phase === "import";
const obj = new bt.ObjectResource("obj", {
    name: second ? "ts-second" : "ts-first",
    boolValue: phase !== "create",
    intValue: 7,
    listValues: ["x", "y"],
    mapValue: { a: phase === "create" ? "b" : "c" },
    singleNested: { key: "nk", value: phase === "create" ? "n1" : "n2" },
    listBlocks: [{ key: "k1", value: "v1" }],
    secret: "ts-secret-value",
}, { provider: prov });

if (phase === "bad") {
    // Past the SDK's types and its own required-property check: the raw resource, as any language could send it.
    new RawObject("bad", { numberValue: "many", bogus: true }, { provider: prov });
}

export const id = obj.id;
export const revision = obj.revision;
export const secret = obj.secret;
export const reversed = bt.reverseOutput(obj.name, { provider: prov });
export const joined = bt.joinOutput("+", ["a", "b", "c"], { provider: prov });
export const echo = bt.getEchoOutput({ input: { k: "v", n: [1, 2] } }, { provider: prov }).output;
export const parsedYear = time.rfc3339ParseOutput("2024-03-04T05:06:07Z").year;
export const parsedMonth = time.rfc3339ParseOutput("2024-03-04T05:06:07Z").monthName;
export const adoptedRevision = phase === "import"
    ? new bt.ObjectResource("adopted", { name: "outsider", listValues: ["p", "q"] }, { provider: prov, import: importId }).revision
    : undefined;
`;

describe.skipIf(hostsMissing())("a TypeScript project with generated SDKs (bridgetest, time), through the Node.js language host", () => {
  beforeAll(async () => {
    sandbox = languageSandbox(); // packages and installs the plugin; the first run on a machine builds the CLI (minutes)
    const [bridgetest, time] = await Promise.all([nodeSdk(sandbox, "bridgetest"), nodeSdk(sandbox, "time")]);
    project = await TypeScriptScenario.create(sandbox, "lc-typescript", PROGRAM, { "@pulumi/bridgetest": bridgetest, "@pulumi/time": time });
  }, 1_200_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  const step = TypeScriptScenario.step;

  it("index.ts type-checks against the generated SDKs (tsc --noEmit, strict)", async () => {
    await project.typeCheck();
  }, 120_000);

  it("`pulumi preview`, `up`, `refresh`, `destroy` of index.ts: create, update in place, replace, drift, import, bad input", async () => {
    const stateDir = scratch("tfbridge-ts-state-");
    await project.config("stateDir", stateDir);
    await project.config("phase", "create");

    const preview = await project.preview();
    expect(preview.changeSummary).toMatchObject({ create: 3 });
    expect(step(preview, "obj")?.op).toBe("create");

    const created = await project.changes("up");
    expect(created).toMatchObject({ create: 3 });
    const out = await project.outputs();
    const id = out["id"] as string;
    expect(id).toMatch(/^obj-[0-9a-f]{12}$/);
    expect(bridgetestObjectIds(stateDir)).toEqual([id]);
    expect(out).toMatchObject({
      revision: 1,
      secret: "[secret]",
      reversed: "tsrif-st",
      joined: "a+b+c",
      echo: { k: "v", n: [1, 2] },
      // An object-returning provider function, read through the SDK's typed result.
      parsedYear: 2024,
      parsedMonth: "March",
    });
    expect(out).not.toHaveProperty("adoptedRevision");
    expect((await project.outputs(true))["secret"]).toBe("ts-secret-value");
    // Secrets are encrypted in the stored state.
    const stored0 = readFileSync(join(sandbox.backend, ".pulumi", "stacks", "lc-typescript", "dev.json"), "utf8");
    expect(stored0).toContain('"ciphertext"');
    expect(stored0).not.toContain("ts-secret-value");
    expect(stored0).not.toContain("ts-token-value");
    expect(isSecretEnvelope((await project.resource("obj"))?.outputs?.["secret"])).toBe(true);

    // Update in place, with nested paths in the detailed diff.
    await project.config("phase", "update");
    const updating = await project.preview();
    expect(step(updating, "obj")?.op).toBe("update");
    expect(step(updating, "obj")?.detailedDiff).toMatchObject({
      boolValue: { kind: "update" },
      'mapValue["a"]': { kind: "update" },
      "singleNested.value": { kind: "update" },
    });
    const updated = await project.changes("up");
    expect(updated).toMatchObject({ update: 1 });
    expect(await project.outputs()).toMatchObject({ id, revision: 2 });
    expect((await project.preview()).changeSummary).toEqual({ same: 3 });

    // Replace on name.
    await project.config("phase", "replace");
    const replacing = await project.preview();
    expect(step(replacing, "obj")?.op).toBe("replace");
    expect(step(replacing, "obj")?.detailedDiff?.["name"]).toEqual({ kind: "update-replace", inputDiff: false });
    const replaced = await project.changes("up");
    expect(replaced).toMatchObject({ replace: 1 });
    const id2 = (await project.outputs())["id"] as string;
    expect(id2).toMatch(/^obj-[0-9a-f]{12}$/);
    expect(id2).not.toBe(id);
    expect(bridgetestObjectIds(stateDir)).toEqual([id2]);

    // Drift in the object's file: refresh records it, the next up puts the program's value back.
    const file = join(stateDir, `${id2}.json`);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { state: Record<string, unknown> };
    stored.state["int_value"] = 99;
    writeFileSync(file, JSON.stringify(stored));
    const refreshed = await project.changes("refresh");
    expect(refreshed).toMatchObject({ update: 1 });
    expect((await project.resource("obj"))?.outputs?.["intValue"]).toBe(99);
    const reverting = await project.preview();
    const revert = step(reverting, "obj")?.detailedDiff ?? {};
    expect(revert["intValue"]).toEqual({ kind: "update", inputDiff: false });
    // Besides, only provider-computed nested values the plan leaves unknown (the framework recomputes them).
    expect(Object.keys(revert).filter((k) => k !== "intValue" && !k.endsWith(".computedTag"))).toEqual([]);
    await project.changes("up");
    expect((JSON.parse(readFileSync(file, "utf8")) as { state: Record<string, unknown> }).state["int_value"]).toBe(7);

    // Import an object made outside Pulumi with the `import` resource option.
    const outside = JSON.parse(readFileSync(file, "utf8")) as { state: Record<string, unknown> };
    outside.state = {
      ...outside.state,
      id: "ts-outside",
      name: "outsider",
      bool_value: null,
      int_value: null,
      list_value: ["p", "q"],
      map_value: null,
      single_nested: null,
      list_block: [],
      secret: null,
      revision: 3,
    };
    writeFileSync(join(stateDir, "ts-outside.json"), JSON.stringify(outside));
    await project.config("phase", "import");
    await project.config("importId", "ts-outside");
    expect(step(await project.preview(), "adopted")?.op).toBe("import");
    const imported = await project.changes("up");
    expect(imported).toMatchObject({ import: 1 });
    expect((await project.outputs())["adoptedRevision"]).toBe(3);
    expect((await project.resource("adopted"))?.id).toBe("ts-outside");
    expect((await project.preview()).changeSummary).toEqual({ same: 4 });

    // Bad input the SDK's types would refuse, forced through: a clear failure naming the properties.
    await project.config("phase", "bad");
    const bad = await project.pulumi(["preview"]);
    const text = bad.stdout + bad.stderr;
    expect(bad.code, text).not.toBe(0);
    // Both problems in one answer, each on its property (the missing `name` is autonamed, as the reference does).
    expect(text).toMatch(/property bogus value \{true\} has a problem: bridgetest:index\/objectResource:ObjectResource has no input property bogus/);
    expect(text).toMatch(/property numberValue value \{many\} has a problem: expected a number, got a string \(\\?"many\\?"\)/);
    expect(text).not.toMatch(/missing required property name/);
    expect(text).not.toMatch(OUR_STACK);
    expect(text).not.toMatch(/exited prematurely|panic:/);

    const destroyed = await project.changes("destroy");
    expect(destroyed).toMatchObject({ delete: 4 });
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
    expect(await project.resourceNames()).toEqual([]);
  }, 600_000);
});
