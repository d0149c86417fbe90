// A provider that panics in each of its calls (bridgetest's BRIDGETEST_PANIC, ephemeral open and close included), driven
// through our client: every call fails with the provider's panic text and the RPC it died in, the process is gone, and
// later calls fail without trying.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { CtyValue } from "../../src/terraform/cty/index.js";
import { GrpcTerraformProvider, errorDiagnostics, formatDiagnostics } from "../../src/terraform/client.js";
import { ProviderCrashedError } from "../../src/terraform/errors.js";
import type { ProviderSchema } from "../../src/terraform/types.js";
import { completeObject } from "../../src/terraform/values.js";
import { peerPath } from "../support/peers.js";
import { waitGone } from "../support/processes.js";

type Obj = { [k: string]: CtyValue };
const T = "bridgetest_object";
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-crash-"));
const open: GrpcTerraformProvider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function provider(stateDir: string, panic?: string, configure = true): Promise<{ p: GrpcTerraformProvider; schema: ProviderSchema }> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest"), env: { BRIDGETEST_STATE_DIR: stateDir, ...(panic ? { BRIDGETEST_PANIC: panic } : {}) } });
  open.push(p);
  const schema = await p.getProviderSchema();
  if (configure) expect(errorDiagnostics(await p.configureProvider(completeObject(schema.provider.block, {})))).toEqual([]);
  return { p, schema };
}

const objectConfig = (schema: ProviderSchema, name: string): Obj => completeObject(schema.resources.get(T)!.block, { name }) as Obj;

/** An object made by a provider that behaves: its state and private bytes, for the calls that need an existing one. */
async function existing(stateDir: string): Promise<{ state: Obj; priv: Uint8Array; config: Obj }> {
  const { p, schema } = await provider(stateDir);
  const config = objectConfig(schema, "crash-victim");
  const plan = await p.planResourceChange({ typeName: T, priorState: null, proposedNewState: config, config });
  const applied = await p.applyResourceChange({ typeName: T, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
  expect(errorDiagnostics(applied.diagnostics), formatDiagnostics(applied.diagnostics)).toEqual([]);
  return { state: applied.newState as Obj, priv: applied.private, config };
}

const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : []);

type Case = [point: string, rpc: string, needsObject: boolean, call: (p: GrpcTerraformProvider, schema: ProviderSchema, o: Awaited<ReturnType<typeof existing>> | undefined) => Promise<unknown>];

const cases: Case[] = [
  ["configure", "ConfigureProvider", false, (p, s) => p.configureProvider(completeObject(s.provider.block, {}))],
  ["validate", "ValidateResourceConfig", false, (p, s) => p.validateResourceConfig(T, objectConfig(s, "v"))],
  ["plan", "PlanResourceChange", false, (p, s) => p.planResourceChange({ typeName: T, priorState: null, proposedNewState: objectConfig(s, "p"), config: objectConfig(s, "p") })],
  [
    "create",
    "ApplyResourceChange",
    false,
    async (p, s) => {
      const config = objectConfig(s, "c");
      const plan = await p.planResourceChange({ typeName: T, priorState: null, proposedNewState: config, config });
      return p.applyResourceChange({ typeName: T, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    },
  ],
  [
    "update",
    "ApplyResourceChange",
    true,
    async (p, _s, o) => {
      const config = { ...o!.config, int_value: 5 };
      const plan = await p.planResourceChange({ typeName: T, priorState: o!.state, proposedNewState: { ...o!.state, int_value: 5 }, config, priorPrivate: o!.priv });
      return p.applyResourceChange({ typeName: T, priorState: o!.state, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    },
  ],
  [
    "delete",
    "ApplyResourceChange",
    true,
    async (p, _s, o) => {
      const plan = await p.planResourceChange({ typeName: T, priorState: o!.state, proposedNewState: null, config: null, priorPrivate: o!.priv });
      return p.applyResourceChange({ typeName: T, priorState: o!.state, plannedState: null, config: null, plannedPrivate: plan.plannedPrivate });
    },
  ],
  ["read", "ReadResource", true, (p, _s, o) => p.readResource({ typeName: T, currentState: o!.state, private: o!.priv })],
  ["import", "ImportResourceState", true, (p, _s, o) => p.importResourceState(T, String(o!.state["id"]))],
  // A version-0 state (the upgrader's prior schema: id, title, number_value, list_value).
  ["upgrade", "UpgradeResourceState", false, (p) => p.upgradeResourceState({ typeName: T, version: 0, rawStateJson: '{"id":"old","title":"t","number_value":null,"list_value":null}' })],
  ["function", "CallFunction", false, (p) => p.callFunction("reverse", ["abc"])],
  ["datasource", "ReadDataSource", false, (p) => p.readDataSource({ typeName: "bridgetest_echo", config: { input: null, output: null, files: null } as Obj })],
  ["open", "OpenEphemeralResource", false, (p) => p.openEphemeralResource("bridgetest_token", { name: "t", value: null } as Obj)],
  [
    "close",
    "CloseEphemeralResource",
    false,
    async (p) => {
      const opened = await p.openEphemeralResource("bridgetest_token", { name: "t", value: null } as Obj);
      expect(String((opened.result as Obj)["value"])).toMatch(/^t-[0-9a-f]{12}$/);
      return p.closeEphemeralResource("bridgetest_token", opened.private);
    },
  ],
];

describe("a provider that panics", () => {
  it.each(cases)("in %s: %s fails with the panic text, the process is gone, later calls fail without trying", async (point, rpc, needsObject, call) => {
    const stateDir = join(scratch, point);
    const o = needsObject ? await existing(stateDir) : undefined;
    const { p, schema } = await provider(stateDir, point, point !== "configure");
    const pid = p.process.pid;
    const err = await call(p, schema, o).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderCrashedError);
    const crash = err as ProviderCrashedError;
    expect(crash.panicText).toMatch(new RegExp(`^panic: bridgetest: deliberate panic in ${point}\\n`));
    expect(crash.message).toContain(`exited with code 2 during ${rpc}; it printed:\npanic: bridgetest: deliberate panic in ${point}`);
    expect(crash.exitCode).toBe(2);
    expect(await waitGone(pid)).toBe(true);
    // No new connection attempt, no wait: the client knows the process is gone.
    await expect(p.callFunction("reverse", ["x"])).rejects.toThrow(/exited with code 2 during CallFunction/);
    // What exists is what the provider did before it died: the prior object is untouched, nothing new was made.
    expect(files(stateDir)).toHaveLength(needsObject ? 1 : 0);
  });

  it("in create, after the object exists: the object is real and its id never came back", async () => {
    const stateDir = join(scratch, "create-after");
    const { p, schema } = await provider(stateDir, "create-after");
    const config = objectConfig(schema, "half-made");
    const plan = await p.planResourceChange({ typeName: T, priorState: null, proposedNewState: config, config });
    const err = await p.applyResourceChange({ typeName: T, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderCrashedError);
    expect(files(stateDir)).toHaveLength(1);
  });

  it("with many calls open at once, every one of them is answered with the crash", async () => {
    const stateDir = join(scratch, "many");
    const { p, schema } = await provider(stateDir, "plan");
    const echo = { input: "x", output: null, files: null } as unknown as Obj;
    const config = objectConfig(schema, "many");
    const calls = [
      ...Array.from({ length: 40 }, () => p.readDataSource({ typeName: "bridgetest_echo", config: echo })),
      ...Array.from({ length: 20 }, () => p.callFunction("reverse", ["abc"])),
      p.planResourceChange({ typeName: T, priorState: null, proposedNewState: config, config }),
      ...Array.from({ length: 40 }, () => p.validateResourceConfig(T, config)),
    ];
    const settled = await Promise.allSettled(calls);
    const failed = settled.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as unknown);
    // Those answered before the panic succeeded; the plan and whatever was open with it fail as the crash.
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) expect(e).toBeInstanceOf(ProviderCrashedError);
    expect(settled[60]!.status).toBe("rejected");
  });
});
