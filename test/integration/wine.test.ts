// A Windows build of a real provider (bridgetest, GOOS=windows: pins.json "transports") run under Debian's Wine and
// driven from Linux: go-plugin's own Windows code hands over a TCP address, and our launcher, client, bridge and plugin
// work with it over AutoMTLS, through a whole resource life and a clean shutdown. Our plugin's own Windows executable
// cannot run under this Wine (docs/using.md, platforms): Node 24's V8 needs memory placeholders Wine 8.0 lacks.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GrpcTerraformProvider, errorDiagnostics, formatDiagnostics } from "../../src/terraform/client.js";
import type { CtyValue } from "../../src/terraform/cty/index.js";
import type { LaunchedProvider } from "../../src/terraform/launch.js";
import type { Diagnostic } from "../../src/terraform/types.js";
import { completeObject } from "../../src/terraform/values.js";
import { peerPath } from "../support/peers.js";
import { spawnAsync, waitGone } from "../support/processes.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";
import { findWine, wineLauncher, winePrefix, wineMissing, wineserver } from "../support/wine.js";

type Obj = { [k: string]: CtyValue };

function noErrors(diags: Diagnostic[]): void {
  expect(errorDiagnostics(diags), formatDiagnostics(diags)).toEqual([]);
}

describe.skipIf(wineMissing())("a Windows build of a real provider under Wine", () => {
  const wine = findWine()!;
  const scratch = mkdtempSync(join(tmpdir(), "tfbridge-wine-"));
  let env: Record<string, string>;
  let provider: string;

  beforeAll(async () => {
    env = { WINEPREFIX: await winePrefix(wine), WINEDEBUG: "-all" };
    // Named as a provider binary: the plugin names the package after it.
    provider = wineLauncher(wine, peerPath("bridgetest-windows"), scratch, "terraform-provider-bridgetest");
  }, 300_000);

  afterAll(async () => {
    // The prefix's wineserver outlives its last program by a few seconds; it is ours to end.
    if (env !== undefined) await spawnAsync(wineserver(wine), ["-k"], { env: { ...process.env, ...env } });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("hands over a TCP address with AutoMTLS; schema, configure, create, read, delete and a function work; Shutdown ends it", async () => {
    // Wine maps the Linux root to drive Z:, so the provider's state files are visible here.
    const stateDir = join(scratch, "state");
    const p = await GrpcTerraformProvider.launch({ path: provider, env: { ...env, BRIDGETEST_STATE_DIR: `Z:${stateDir.replaceAll("/", "\\")}` } });
    const pid = p.process.pid;
    try {
      const launched = p.process as LaunchedProvider;
      expect(launched.handshake.network).toBe("tcp");
      expect(launched.handshake.address).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(launched.handshake.serverCert).toBeDefined();

      const schema = await p.getProviderSchema();
      noErrors(schema.diagnostics);
      const providerConfig = completeObject(schema.provider.block, {});
      noErrors(await p.configureProvider(providerConfig));
      const typeName = "bridgetest_object";
      const config = completeObject(schema.resources.get(typeName)!.block, { name: "from-windows", map_value: { k: "v" } });
      const plan = await p.planResourceChange({ typeName, priorState: null, proposedNewState: config, config });
      noErrors(plan.diagnostics);
      const created = await p.applyResourceChange({ typeName, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
      noErrors(created.diagnostics);
      const state = created.newState as Obj;
      expect(existsSync(join(stateDir, `${state["id"] as string}.json`))).toBe(true);
      const read = await p.readResource({ typeName, currentState: state, private: created.private });
      noErrors(read.diagnostics);
      expect((read.newState as Obj)["map_value"]).toEqual({ k: "v" });
      const delPlan = await p.planResourceChange({ typeName, priorState: state, proposedNewState: null, config: null, priorPrivate: read.private });
      noErrors(delPlan.diagnostics);
      const gone = await p.applyResourceChange({ typeName, priorState: state, plannedState: null, config: null, plannedPrivate: delPlan.plannedPrivate });
      noErrors(gone.diagnostics);
      expect(existsSync(join(stateDir, `${state["id"] as string}.json`))).toBe(false);
      expect(await p.callFunction("reverse", ["wine"])).toEqual({ result: "eniw" });
    } finally {
      await p.close();
    }
    expect(await waitGone(pid)).toBe(true);
    // go-plugin's Shutdown over the TLS connection ended it; a refused call would have left it to SIGTERM.
    expect((p.process as LaunchedProvider).exit).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("our plugin answers GetPluginInfo, Parameterize and GetSchema for it", async () => {
    const plugin = await startPluginProcess({ env: { ...process.env, ...env } });
    try {
      expect(await plugin.call("GetPluginInfo", {})).toMatchObject({ version: expect.any(String) });
      expect(await plugin.call("Parameterize", argsRequest(provider))).toMatchObject({ name: "bridgetest" });
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { resources: Record<string, unknown> };
      expect(Object.keys(schema.resources)).toContain("bridgetest:index/objectResource:ObjectResource");
    } finally {
      await plugin.stop();
    }
  }, 120_000);
});
