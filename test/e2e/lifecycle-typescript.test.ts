// Resource lifecycle through the real Pulumi engine from a TypeScript program: SDKs generated from our schema by
// Pulumi's Node.js code generator, an Automation API driver with an inline program (the Node.js language host cannot be
// built here). bridgetest (protocol 6) with an explicit provider: create, update in place, replace, refresh after drift,
// import by resource option, functions and a data source, secrets, bad input, destroy; time's object-returning function.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxWithPlugin } from "../support/e2e.js";
import { nodeSdk, removeScratch, scratch, typescriptProgram } from "../support/lifecycle.js";
import { type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let program: ReturnType<typeof typescriptProgram>;

/** The driver: `node bin/index.js <preview|up|refresh|destroy> <phase> [import id]`; prints one JSON line. */
const SOURCE = String.raw`
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, type EngineEvent } from "@pulumi/pulumi/automation";
import * as bt from "@pulumi/bridgetest";
import * as time from "@pulumi/time";

const [op, phase, importId] = process.argv.slice(2);

/** bridgetest_object without the SDK: whatever properties the program passes go to the engine as they are. */
class RawObject extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions) {
    super("bridgetest:index/objectResource:ObjectResource", name, props, opts);
  }
}
const stateDir = process.env["LC_STATE_DIR"]!;

const program = async (): Promise<Record<string, unknown>> => {
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
  const out: Record<string, unknown> = {
    id: obj.id,
    revision: obj.revision,
    secret: obj.secret,
    reversed: bt.reverseOutput(obj.name, { provider: prov }),
    joined: bt.joinOutput("+", ["a", "b", "c"], { provider: prov }),
    echo: bt.getEchoOutput({ input: { k: "v", n: [1, 2] } }, { provider: prov }).output,
    parsedYear: time.rfc3339ParseOutput("2024-03-04T05:06:07Z").year,
    parsedMonth: time.rfc3339ParseOutput("2024-03-04T05:06:07Z").monthName,
  };
  if (phase === "import") {
    const adopted = new bt.ObjectResource("adopted", { name: "outsider", listValues: ["p", "q"] }, { provider: prov, import: importId });
    out["adoptedRevision"] = adopted.revision;
  }
  if (phase === "bad") {
    // Past the SDK's types and its own required-property check: the raw resource, as any language could send it.
    new RawObject("bad", { numberValue: "many", bogus: true }, { provider: prov });
  }
  return out;
};

async function main(): Promise<void> {
  const stack = await LocalWorkspace.createOrSelectStack({ stackName: "dev", projectName: "lc-typescript", program });
  const steps: Record<string, unknown>[] = [];
  const onEvent = (e: EngineEvent): void => {
    const m = e.resourcePreEvent?.metadata;
    if (m && m.type !== "pulumi:pulumi:Stack" && !m.type.startsWith("pulumi:providers:")) {
      steps.push({ name: m.urn.split("::").pop(), op: m.op, diffs: m.diffs, detailedDiff: m.detailedDiff });
    }
  };
  try {
    switch (op) {
      case "preview": {
        const r = await stack.preview({ onEvent });
        console.log(JSON.stringify({ changes: r.changeSummary, steps }));
        break;
      }
      case "up": {
        const r = await stack.up({ onEvent });
        console.log(JSON.stringify({ changes: r.summary.resourceChanges, steps, outputs: r.outputs }));
        break;
      }
      case "refresh": {
        const r = await stack.refresh({ onEvent });
        console.log(JSON.stringify({ changes: r.summary.resourceChanges, steps }));
        break;
      }
      case "destroy": {
        const r = await stack.destroy({ onEvent });
        console.log(JSON.stringify({ changes: r.summary.resourceChanges }));
        break;
      }
      case "state": {
        const d = await stack.exportStack();
        console.log(JSON.stringify({ text: JSON.stringify(d), resources: (d.deployment.resources ?? []).map((r: any) => ({ urn: r.urn, id: r.id, inputs: r.inputs, outputs: r.outputs })) }));
        break;
      }
    }
  } catch (e) {
    console.log(JSON.stringify({ error: String((e as Error).message ?? e), steps }));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

interface Step {
  name: string;
  op: string;
  diffs?: string[];
  /** Engine events spell the kind `diffKind`. */
  detailedDiff?: Record<string, { diffKind: string; inputDiff: boolean }>;
}

interface RunOutput {
  changes?: Record<string, number>;
  steps?: Step[];
  outputs?: Record<string, { value: unknown; secret: boolean }>;
  error?: string;
  text?: string;
  resources?: { urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
}

beforeAll(async () => {
  sandbox = sandboxWithPlugin(); // the first run builds the Pulumi CLI (minutes)
  const [bridgetest, time] = await Promise.all([nodeSdk(sandbox, "bridgetest"), nodeSdk(sandbox, "time")]);
  program = typescriptProgram(SOURCE, { "@pulumi/bridgetest": bridgetest, "@pulumi/time": time });
}, 1_200_000);

afterAll(() => {
  sandbox?.cleanup();
  removeScratch();
});

const objectIds = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();

describe("a TypeScript program with generated SDKs (bridgetest, time)", () => {
  it("previews, creates, updates in place, replaces, refreshes drift, imports, rejects bad input, destroys", async () => {
    const stateDir = scratch("tfbridge-ts-state-");
    const env = { ...sandbox.env, LC_STATE_DIR: stateDir };
    const run = async (...args: string[]): Promise<RunOutput> => (await program.run(args, env)) as RunOutput;
    const ok = async (...args: string[]): Promise<RunOutput> => {
      const r = await run(...args);
      if (r.error !== undefined) throw new Error(`${args.join(" ")} failed:\n${r.error}`);
      return r;
    };
    const step = (r: RunOutput, name: string): Step | undefined => r.steps?.find((s) => s.name === name);

    const preview = await ok("preview", "create");
    expect(preview.changes).toMatchObject({ create: 3 });
    expect(step(preview, "obj")?.op).toBe("create");

    const created = await ok("up", "create");
    expect(created.changes).toMatchObject({ create: 3 });
    const id = created.outputs!["id"]!.value as string;
    expect(id).toMatch(/^obj-[0-9a-f]{12}$/);
    expect(objectIds(stateDir)).toEqual([id]);
    expect(created.outputs).toMatchObject({
      revision: { value: 1, secret: false },
      secret: { value: "ts-secret-value", secret: true },
      reversed: { value: "tsrif-st" },
      joined: { value: "a+b+c" },
      echo: { value: { k: "v", n: [1, 2] } },
      // An object-returning provider function, read through the SDK's typed result.
      parsedYear: { value: 2024 },
      parsedMonth: { value: "March" },
    });
    // Secrets are encrypted in the stored state (the Automation API's export shows them in plaintext).
    const stored0 = readFileSync(join(sandbox.backend, ".pulumi", "stacks", "lc-typescript", "dev.json"), "utf8");
    expect(stored0).toContain('"ciphertext"');
    expect(stored0).not.toContain("ts-secret-value");
    expect(stored0).not.toContain("ts-token-value");
    const objState = (await ok("state", "create")).resources!.find((r) => r.urn.endsWith("::obj"));
    expect(objState?.outputs?.["secret"]).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });

    // Update in place, with nested paths in the detailed diff.
    const updating = await ok("preview", "update");
    expect(step(updating, "obj")?.op).toBe("update");
    expect(step(updating, "obj")?.detailedDiff).toMatchObject({
      boolValue: { diffKind: "update" },
      'mapValue["a"]': { diffKind: "update" },
      "singleNested.value": { diffKind: "update" },
    });
    const updated = await ok("up", "update");
    expect(updated.changes).toMatchObject({ update: 1 });
    expect(updated.outputs?.["id"]?.value).toBe(id);
    expect(updated.outputs?.["revision"]?.value).toBe(2);
    expect((await ok("preview", "update")).changes).toEqual({ same: 3 });

    // Replace on name.
    const replaced = await ok("up", "replace");
    expect(step(replaced, "obj")?.detailedDiff?.["name"]).toEqual({ diffKind: "update-replace", inputDiff: false });
    expect(replaced.changes).toMatchObject({ replace: 1 });
    const id2 = replaced.outputs!["id"]!.value as string;
    expect(id2).not.toBe(id);
    expect(objectIds(stateDir)).toEqual([id2]);

    // Drift in the object's file: refresh records it, the next up puts the program's value back.
    const file = join(stateDir, `${id2}.json`);
    const stored = JSON.parse(readFileSync(file, "utf8")) as { state: Record<string, unknown> };
    stored.state["int_value"] = 99;
    writeFileSync(file, JSON.stringify(stored));
    const refreshed = await ok("refresh", "replace");
    expect(refreshed.changes).toMatchObject({ update: 1 });
    const afterRefresh = (await ok("state", "replace")).resources!.find((r) => r.urn.endsWith("::obj"));
    expect(afterRefresh?.outputs?.["intValue"]).toBe(99);
    const reverting = await ok("preview", "replace");
    const revert = step(reverting, "obj")?.detailedDiff ?? {};
    expect(revert["intValue"]).toEqual({ diffKind: "update", inputDiff: false });
    // Besides, only provider-computed nested values the plan leaves unknown (the framework recomputes them).
    expect(Object.keys(revert).filter((k) => k !== "intValue" && !k.endsWith(".computedTag"))).toEqual([]);
    await ok("up", "replace");
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
    const imported = await ok("up", "import", "ts-outside");
    expect(imported.changes).toMatchObject({ import: 1 });
    expect(imported.outputs?.["adoptedRevision"]?.value).toBe(3);
    expect((await ok("preview", "import", "ts-outside")).changes).toEqual({ same: 4 });

    // Bad input the SDK's types would refuse, forced through: a clear failure naming the properties.
    const bad = await run("preview", "bad");
    expect(bad.error).toBeDefined();
    // Both problems in one answer, each on its property (the missing `name` is autonamed, as the reference does).
    expect(bad.error).toMatch(/property bogus value \{true\} has a problem: bridgetest:index\/objectResource:ObjectResource has no input property bogus/);
    expect(bad.error).toMatch(/property numberValue value \{many\} has a problem: expected a number, got a string \(\\?"many\\?"\)/);
    expect(bad.error).not.toMatch(/missing required property name/);
    expect(bad.error).not.toMatch(/plugin\.mjs:\d+|exited prematurely|panic:/);

    const destroyed = await ok("destroy", "import");
    expect(destroyed.changes).toMatchObject({ delete: 4 });
    expect(objectIds(stateDir)).toEqual([]);
  }, 300_000);
});
