// The Windows transport on this machine: a real provider (bridgetest) built with go-plugin's Windows listener hands over
// `tcp|127.0.0.1:<port>` instead of a Unix socket, and launch, AutoMTLS, the RPCs and shutdown all work over it.
// go-plugin picks TCP only when compiled for Windows; scripts/build-peers.sh builds this peer with that branch taken
// (pins.json "transports"), so everything else in the provider is go-plugin's and terraform-plugin-go's own code.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import type { PropertyMap } from "../../src/bridge/property-value.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { GrpcTerraformProvider, errorDiagnostics, formatDiagnostics } from "../../src/terraform/client.js";
import type { CtyValue } from "../../src/terraform/cty/index.js";
import { LaunchedProvider, goPluginProtos, launchProvider, type ProviderLogEntry } from "../../src/terraform/launch.js";
import { generateClientCertificate, serverCertificatePem } from "../../src/terraform/mtls.js";
import type { Diagnostic } from "../../src/terraform/types.js";
import { completeObject } from "../../src/terraform/values.js";
import { serviceOf } from "../../src/wire/proto.js";
import { CallError, Channel } from "../../src/wire/rpc.js";
import { method } from "../../src/wire/shape.js";
import { closedAfterEach } from "../support/launched.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { processAlive, waitGone } from "../support/processes.js";
import { argsRequest, startPluginProcess } from "../support/pulumi.js";

const PEER = "bridgetest-tcp";
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-tcp-"));
const open = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Obj = { [k: string]: CtyValue };

function noErrors(diags: Diagnostic[]): void {
  expect(errorDiagnostics(diags), formatDiagnostics(diags)).toEqual([]);
}

/** host and port of a `127.0.0.1:<port>` handshake address. */
function hostPort(address: string): { host: string; port: number } {
  const m = /^(127\.0\.0\.1):(\d+)$/.exec(address);
  expect(m, `a TCP address on the loopback interface, got ${address}`).not.toBeNull();
  return { host: m![1]!, port: Number(m![2]) };
}

/** Whether something accepts TCP connections at the address. */
function accepting(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(hostPort(address));
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function launched(env?: Record<string, string>): Promise<GrpcTerraformProvider> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(PEER), env });
  open.push(p);
  return p;
}

const shutdown = () => method(serviceOf(goPluginProtos(), "plugin.GRPCController"), "Shutdown")!;

describe("a provider serving on TCP (go-plugin's Windows listener)", () => {
  it("hands over 127.0.0.1:<port> from PLUGIN_MIN_PORT..PLUGIN_MAX_PORT with its AutoMTLS certificate; shutdown closes the port and ends the process", async () => {
    const logs: ProviderLogEntry[] = [];
    const p = await launchProvider({ path: peerPath(PEER), env: { TF_LOG_PROVIDER: "TRACE" }, onLog: (e) => logs.push(e) });
    expect(p.protocolVersion).toBe(6);
    expect(p.handshake.network).toBe("tcp");
    const { port } = hostPort(p.handshake.address);
    // launch.ts offers 10000..25000, as Terraform does.
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(25000);
    expect(p.handshake.serverCert).toBeDefined();
    expect(() => serverCertificatePem(p.handshake.serverCert!)).not.toThrow();
    expect(await accepting(p.handshake.address)).toBe(true);
    await p.shutdown();
    expect(await waitGone(p.pid)).toBe(true);
    expect(p.exit).toEqual({ code: 0, signal: null });
    expect(await accepting(p.handshake.address)).toBe(false);
    // go-plugin itself says where it listened (hclog JSON on stderr, read to its end once the process is gone).
    expect(logs.some((l) => l.message === "plugin address" && l.fields?.["network"] === "tcp" && l.fields?.["address"] === p.handshake.address)).toBe(true);
  });

  it("AutoMTLS is enforced on the TCP port: a connection without TLS, or with a certificate the provider was not given, is refused", async () => {
    const p = await launchProvider({ path: peerPath(PEER) });
    try {
      const serverPem = serverCertificatePem(p.handshake.serverCert!);
      const stranger = await generateClientCertificate();
      const wrongCert = new Channel(p.handshake.address, { tls: { ca: serverPem, cert: stranger.certPem, key: stranger.keyPem, servername: "localhost" } });
      const plain = new Channel(p.handshake.address);
      for (const channel of [wrongCert, plain]) {
        // Shutdown, had it been let through, would end the provider: the checks below would see it gone.
        const err = await channel.unary(shutdown(), {}, { deadline: Date.now() + 5_000 }).then(() => undefined, (e: unknown) => e);
        channel.close();
        expect(err).toBeInstanceOf(CallError);
      }
      expect(processAlive(p.pid)).toBe(true);
    } finally {
      await p.shutdown();
    }
    expect(await waitGone(p.pid)).toBe(true);
    // The launcher's own channel, with the certificate handed over in PLUGIN_CLIENT_CERT, is let through: go-plugin's
    // Shutdown RPC ended the process (exit 0), where a refused call would have left it to SIGTERM.
    expect(p.exit).toEqual({ code: 0, signal: null });
  });

  it("every RPC of a resource's life: schema, configure, validate, plan/apply create, read, import, plan/apply delete", async () => {
    const stateDir = join(scratch, "client");
    const p = await launched({ BRIDGETEST_STATE_DIR: stateDir });
    expect(p.process instanceof LaunchedProvider && p.process.handshake.network).toBe("tcp");
    const schema = await p.getProviderSchema();
    noErrors(schema.diagnostics);
    expect(schema.resources.has("bridgetest_object")).toBe(true);
    const providerConfig = completeObject(schema.provider.block, {});
    noErrors(await p.validateProviderConfig(providerConfig));
    noErrors(await p.configureProvider(providerConfig));

    const typeName = "bridgetest_object";
    const config = completeObject(schema.resources.get(typeName)!.block, { name: "over-tcp", list_value: ["a", "b"], secret: "hunter2" });
    noErrors(await p.validateResourceConfig(typeName, config));
    const plan = await p.planResourceChange({ typeName, priorState: null, proposedNewState: config, config });
    noErrors(plan.diagnostics);
    const created = await p.applyResourceChange({ typeName, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    noErrors(created.diagnostics);
    const state = created.newState as Obj;
    const id = state["id"] as string;
    expect(state["name"]).toBe("over-tcp");
    expect(existsSync(join(stateDir, `${id}.json`))).toBe(true);

    const read = await p.readResource({ typeName, currentState: state, private: created.private });
    noErrors(read.diagnostics);
    expect((read.newState as Obj)["list_value"]).toEqual(["a", "b"]);
    const imported = await p.importResourceState(typeName, id);
    noErrors(imported.diagnostics);
    expect(imported.imported.map((r) => (r.state as Obj)["id"])).toEqual([id]);

    const delPlan = await p.planResourceChange({ typeName, priorState: state, proposedNewState: null, config: null, priorPrivate: read.private });
    noErrors(delPlan.diagnostics);
    const deleted = await p.applyResourceChange({ typeName, priorState: state, plannedState: null, config: null, plannedPrivate: delPlan.plannedPrivate });
    noErrors(deleted.diagnostics);
    expect(deleted.newState).toBeNull();
    expect(existsSync(join(stateDir, `${id}.json`))).toBe(false);
    // A provider function, another kind of call.
    expect(await p.callFunction("reverse", ["tcp"])).toEqual({ result: "pct" });
  });

  it("through the bridge: check, create, read, delete", async () => {
    const stateDir = join(scratch, "bridge");
    const tf = await launched({ BRIDGETEST_STATE_DIR: stateDir });
    const schema = await tf.getProviderSchema();
    const model = buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" });
    const b = new TerraformBridge(tf, schema, model, () => undefined);
    await b.configure({});
    const T = "bridgetest:index/objectResource:ObjectResource";
    const news: PropertyMap = { name: "bridged-over-tcp", mapValue: { k: "v" } };
    const checked = await b.check({ token: T, name: "o", olds: {}, news });
    expect(checked.failures).toEqual([]);
    expect((await b.check({ token: T, name: "o", olds: {}, news: { name: "n", numberValue: "twelve" } })).failures).toEqual([
      { property: "numberValue", reason: 'expected a number, got a string ("twelve")' },
    ]);
    const created = await b.create({ token: T, news: checked.inputs });
    expect(existsSync(join(stateDir, `${created.id}.json`))).toBe(true);
    const read = await b.read({ token: T, id: created.id, state: created.properties, inputs: checked.inputs });
    expect(read?.properties["mapValue"]).toEqual({ k: "v" });
    await b.delete({ token: T, id: created.id, olds: created.properties });
    expect(existsSync(join(stateDir, `${created.id}.json`))).toBe(false);
  });

  it("our plugin parameterized with it answers Parameterize and GetSchema", async () => {
    const plugin = await startPluginProcess();
    try {
      expect(await plugin.call("Parameterize", argsRequest(peerPath(PEER)))).toMatchObject({ name: "bridgetest-tcp" });
      const schema = JSON.parse((await plugin.call("GetSchema", { version: 0 }))["schema"] as string) as { name: string; resources: Record<string, unknown> };
      expect(schema.name).toBe("bridgetest-tcp");
      expect(Object.keys(schema.resources)).toContain("bridgetest-tcp:index/objectResource:ObjectResource");
    } finally {
      await plugin.stop();
    }
  }, 60_000);

  it("SIGKILL of our process takes the TCP provider with it", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test/support/launch-and-wait.ts"), peerPath(PEER), "wait"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /^(\d+)\n/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once("exit", (code) => reject(new Error(`helper exited ${code} before printing a pid: ${err}`)));
    });
    expect(processAlive(pid)).toBe(true);
    child.kill("SIGKILL");
    expect(await waitGone(pid)).toBe(true);
  });
});
