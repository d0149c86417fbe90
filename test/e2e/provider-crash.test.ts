// A Terraform provider that panics in each call, through the real Pulumi CLI: bridgetest's BRIDGETEST_PANIC makes it
// crash in configure, validate, plan, create (before and after the object exists), update, read, delete, import, a
// function or a data source. Each run fails at once with the provider's panic text, leaves no provider process, and the
// stack still matches the objects that really exist, so the next run converges.
import { describe, expect, it } from "vitest";
import { waitNoSandboxProcesses } from "../support/e2e.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { bridgetestObjectIds, OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";
import { type RunResult } from "../support/pulumi.js";

const OBJECT = "bridgetest:index/objectResource:ObjectResource";
const sandbox = e2eSandbox();


const program = (stateDir: string, value: string, extra = ""): string =>
  [
    "resources:",
    "  prov:",
    "    type: pulumi:providers:bridgetest",
    "    properties:",
    `      stateDir: ${stateDir}`,
    "  obj:",
    `    type: ${OBJECT}`,
    "    properties:",
    "      name: crash-test",
    `      mapValue: { a: ${value} }`,
    "    options:",
    "      provider: ${prov}",
    extra,
  ].join("\n");

/** The program with a function call and a data source read, whose results are stack outputs. */
const INVOKES = [
  "variables:",
  "  reversed:",
  "    fn::invoke:",
  "      function: bridgetest:index/reverse:reverse",
  "      arguments: { s: abc }",
  "      options: { provider: \"${prov}\" }",
  "  echo:",
  "    fn::invoke:",
  "      function: bridgetest:index/getEcho:getEcho",
  "      arguments: { input: { k: v } }",
  "      options: { provider: \"${prov}\" }",
  "outputs:",
  "  reversed: ${reversed}",
  "  echo: ${echo.output}",
].join("\n");

/** Runs `pulumi ARGS` with the provider set to panic at `point`; expects a prompt failure that says so. */
async function crashing(s: YamlScenario, point: string, args: string[]): Promise<string> {
  s.env["BRIDGETEST_PANIC"] = point;
  let r: RunResult;
  try {
    r = await s.pulumi(args, 120_000);
  } finally {
    delete s.env["BRIDGETEST_PANIC"];
  }
  const all = r.stdout + r.stderr;
  expect(r.code, all).not.toBe(0);
  expect(all).toContain(`panic: bridgetest: deliberate panic in ${point}`);
  expect(all).toMatch(/Terraform provider \S*terraform-provider-bridgetest exited with code 2 during \w+/);
  // A provider bug, told as one: not a stack of ours, not the engine's "plugin exited prematurely".
  expect(all).not.toMatch(OUR_STACK);
  expect(all).not.toMatch(/exited prematurely|transport is closing/);
  expect(await waitNoSandboxProcesses(sandbox, "terraform-provider-bridgetest", 5_000)).toEqual([]);
  expect(await waitNoSandboxProcesses(sandbox, "pulumi-resource-terraform-provider", 5_000)).toEqual([]);
  return all;
}

describe("a provider that panics", () => {
  it.each([
    ["configure", ["preview"]],
    ["validate", ["preview"]],
    ["plan", ["preview"]],
    ["function", ["preview"]],
    ["datasource", ["preview"]],
  ])("in %s fails the preview with its panic text, nothing created, nothing left running", async (point, args) => {
    const stateDir = scratch("tfbridge-crash-state-");
    const s = await YamlScenario.create(sandbox, `crash-${point}`, ["bridgetest"]);
    s.program(program(stateDir, "one", INVOKES));
    await crashing(s, point, args);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
    expect(await s.resourceNames()).toEqual([]);
    // The same program runs once the provider behaves.
    await s.up();
    expect(await s.outputs()).toMatchObject({ reversed: "cba", echo: { k: "v" } });
    expect(bridgetestObjectIds(stateDir)).toHaveLength(1);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
  }, 300_000);

  it("in create, before the object exists: the up fails and the stack has nothing", async () => {
    const stateDir = scratch("tfbridge-crash-state-");
    const s = await YamlScenario.create(sandbox, "crash-create", ["bridgetest"]);
    s.program(program(stateDir, "one"));
    await crashing(s, "create", ["up", "--yes", "--skip-preview"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
    expect(await s.resourceNames()).toEqual([]);
    await s.up();
    expect(await s.resourceNames()).toEqual(["obj"]);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
  }, 300_000);

  it("in create, after the object exists: the error says it may exist and how to adopt it; `pulumi import` does", async () => {
    const stateDir = scratch("tfbridge-crash-state-");
    const s = await YamlScenario.create(sandbox, "crash-created", ["bridgetest"]);
    s.program(program(stateDir, "one"));
    const out = await crashing(s, "create-after", ["up", "--yes", "--skip-preview"]);
    // The object is real but its id never came back: Terraform loses it the same way; we say so and how to recover.
    const ids = bridgetestObjectIds(stateDir);
    expect(ids).toHaveLength(1);
    expect(await s.resourceNames()).toEqual([]);
    expect(out).toMatch(/The object may have been created; if it was, adopt it with `pulumi import bridgetest:index\/objectResource:ObjectResource obj <id>`/);
    // No code generation: for an explicit provider of a YAML program, the engine asks for the package at the plugin's
    // version where a local provider's package is 0.0.0, and gives up (the reference answers the same).
    await s.ok(["import", OBJECT, "obj", ids[0]!, "--provider", `prov=${await providerUrn(s)}`, "--yes", "--protect=false", "--generate-code=false"]);
    // The program and the adopted object agree once the import recorded it: no duplicate is made.
    const preview = await s.preview();
    expect(YamlScenario.op(preview, "obj")).not.toBe("create");
    await s.up();
    expect(bridgetestObjectIds(stateDir)).toEqual(ids);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
  }, 300_000);

  it("in update, read, delete and import: the stack keeps what was there, and the next run converges", async () => {
    const stateDir = scratch("tfbridge-crash-state-");
    const s = await YamlScenario.create(sandbox, "crash-later", ["bridgetest"]);
    s.program(program(stateDir, "one"));
    await s.up();
    const [id] = bridgetestObjectIds(stateDir);
    const mapA = async (): Promise<unknown> => ((await s.resource("obj"))?.outputs?.["mapValue"] as Record<string, unknown> | undefined)?.["a"];

    s.program(program(stateDir, "two"));
    await crashing(s, "update", ["up", "--yes", "--skip-preview"]);
    expect(await mapA()).toBe("one");
    await crashing(s, "read", ["refresh", "--yes", "--skip-preview"]);
    expect(await mapA()).toBe("one");
    await s.up();
    expect(await mapA()).toBe("two");
    expect(bridgetestObjectIds(stateDir)).toEqual([id]);

    await crashing(s, "delete", ["destroy", "--yes", "--skip-preview"]);
    expect(await s.resourceNames()).toEqual(["obj"]);
    expect(bridgetestObjectIds(stateDir)).toEqual([id]);

    const imported = await crashing(s, "import", ["import", OBJECT, "again", id!, "--provider", `prov=${await providerUrn(s)}`, "--yes", "--generate-code=false"]);
    expect(imported).toContain("ImportResourceState");
    expect(await s.resourceNames()).toEqual(["obj"]);

    await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await s.resourceNames()).toEqual([]);
    expect(bridgetestObjectIds(stateDir)).toEqual([]);
  }, 300_000);
});

async function providerUrn(s: YamlScenario): Promise<string> {
  const p = (await s.deployment()).resources?.find((r) => r.type === "pulumi:providers:bridgetest");
  if (p === undefined) throw new Error("no bridgetest provider in the stack");
  return p.urn;
}
