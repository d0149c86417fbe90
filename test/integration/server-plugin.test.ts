// The plugin executable driven as the engine drives it (spawned, port read from stdout, gRPC) against real Terraform providers.
// The engine's Log endpoint is played by a small in-test gRPC server (the e2e tests use the real engine); nothing else is faked.
import { chmodSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { engineLogSink } from "../support/in-process-plugin.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { parentPid, processesMatching, waitGone } from "../support/processes.js";
import { argsRequest, callError, startPluginProcess, tempDir, valueRequest, type PluginProcess } from "../support/pulumi.js";

const schemaOf = async (p: PluginProcess, req: Record<string, unknown> = {}): Promise<Record<string, any>> =>
  JSON.parse(String((await p.call("GetSchema", req))["schema"]));

describe("plugin process, unparameterized", () => {
  let plugin: PluginProcess;
  beforeAll(async () => {
    plugin = await startPluginProcess({ args: ["--logtostderr", "-v=1"] });
  });
  afterAll(async () => plugin?.stop());

  it("prints only its port on stdout and answers GetPluginInfo with our version", async () => {
    expect(plugin.port).toBeGreaterThan(0);
    expect(await plugin.call("GetPluginInfo", {})).toEqual({ version: VERSION });
    expect(plugin.extraStdout()).toBe("");
  });

  it("refuses GetSchema and resource calls before Parameterize, saying what to do", async () => {
    for (const method of ["GetSchema", "Check", "Configure", "Create"]) {
      const e = await callError(plugin, method, {});
      expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(e.details).toMatch(/not parameterized yet.*pulumi package add terraform-provider/);
    }
  });

  it("answers GetMapping(s) empty and Handshake/List UNIMPLEMENTED", async () => {
    expect(await plugin.call("GetMappings", { key: "terraform" })).toEqual({ providers: [] });
    expect(await plugin.call("GetMapping", { key: "terraform", provider: "" })).toMatchObject({ provider: "" });
    expect((await callError(plugin, "Handshake", {})).code).toBe(grpc.status.UNIMPLEMENTED);
  });

  it("rejects malformed parameters without crashing", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [argsRequest("--help"), /^the usage is shown above \(--help\); nothing was added$/],
      [argsRequest("random", "--nope"), /unknown flag "--nope"/],
      [argsRequest("random", "--include", "a", "--exclude", "a"), /both included and excluded: a/],
      [argsRequest(), /missing the Terraform provider/],
      [valueRequest("{not json"), /not JSON/],
      [valueRequest('{"remote":{"url":"hashicorp/random","version":"3.6.3"},"local":{"path":"/x"}}'), /exactly one of/],
      [{}, /needs either args or a value/],
    ];
    for (const [request, message] of cases) {
      const e = await callError(plugin, "Parameterize", request);
      expect(e.code, String(message)).toBe(grpc.status.INVALID_ARGUMENT);
      expect(e.details).toMatch(message);
    }
    expect(await plugin.call("GetPluginInfo", {})).toEqual({ version: VERSION });
  });

  it("validates a registry address fully, then reports an unreachable registry as FAILED_PRECONDITION", async () => {
    // .invalid never resolves (RFC 2606), so this holds with or without a network.
    const e = await callError(plugin, "Parameterize", argsRequest("registry.invalid/hashicorp/random", ">= 3.0, < 4.0"));
    expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(e.details).toMatch(/registry\.invalid\/hashicorp\/random \(">= 3\.0, < 4\.0"\).*could not reach the registry at registry\.invalid.*no cached version matches/);
    const bad = await callError(plugin, "Parameterize", argsRequest("hashicorp/random", "=> 3"));
    expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
    const value = await callError(plugin, "Parameterize", valueRequest('{"remote":{"url":"registry.invalid/hashicorp/random","version":"3.6.3"}}'));
    expect(value.code).toBe(grpc.status.FAILED_PRECONDITION);
  });

  it("reports a missing local binary as NOT_FOUND", async () => {
    const e = await callError(plugin, "Parameterize", argsRequest("./nowhere/terraform-provider-ghost"));
    expect(e.code).toBe(grpc.status.NOT_FOUND);
    expect(e.details).toMatch(/not found: .*nowhere\/terraform-provider-ghost/);
  });
});

describe("plugin process, a provider slow to start", () => {
  it("shows progress through the engine as an ephemeral status line once Parameterize has taken 0.5 s", async () => {
    // terraform-provider-random behind a wrapper that takes a second before it execs the real binary, as a large
    // provider can take to start.
    const dir = tempDir("tfbridge-slow-provider-");
    const wrapper = join(dir, "terraform-provider-random");
    writeFileSync(wrapper, `#!/bin/sh\nsleep 1\nexec '${peerPath("random")}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const engine = await engineLogSink();
    const plugin = await startPluginProcess({ args: [engine.address] });
    try {
      expect(await plugin.call("Parameterize", argsRequest(wrapper))).toEqual({ name: "random", version: "0.0.0" });
      const status = engine.logs.find((l) => l.message.startsWith("Launching terraform-provider-random"));
      expect(status).toMatchObject({ severity: "INFO", ephemeral: true });
    } finally {
      await plugin.stop();
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("plugin process, parameterized with a local binary", () => {
  let plugin: PluginProcess;
  let engine: Awaited<ReturnType<typeof engineLogSink>>;
  const random = (): string => peerPath("random");

  beforeAll(async () => {
    engine = await engineLogSink();
    // The provider's log lines below warnings reach the engine only when TF_LOG_PROVIDER (or TF_LOG) asks, as in Terraform.
    plugin = await startPluginProcess({ args: [engine.address], env: { ...process.env, TF_LOG_PROVIDER: "DEBUG" } });
  });
  afterAll(async () => {
    await plugin?.stop();
    engine?.close();
  });

  it("answers Parameterize with the provider type and version 0.0.0", async () => {
    expect(await plugin.call("Parameterize", argsRequest(random()))).toEqual({ name: "random", version: "0.0.0" });
  });

  it("sends the engine the provider's logs; progress, if a loaded machine made the launch slow, only as status lines", async () => {
    // Provider logs, asked for with TF_LOG_PROVIDER, arrive as debug lines prefixed with the provider name.
    expect(engine.logs.some((l) => l.severity === "DEBUG" && l.message.startsWith("random: "))).toBe(true);
    // Whether the launch took 0.5 s depends on the machine's load (the threshold itself is a unit test,
    // server-slow-status.test.ts); what holds either way is that progress never becomes a lasting message.
    const progress = engine.logs.filter((l) => /^(Launching|Resolving|Downloading|Unpacking) /.test(l.message));
    expect(progress.filter((l) => !l.ephemeral)).toEqual([]);
  });

  it("renders the schema with the parameterization the engine needs", async () => {
    const schema = await schemaOf(plugin);
    expect(schema["name"]).toBe("random");
    expect(schema["version"]).toBe("0.0.0");
    expect(schema["parameterization"]["baseProvider"]).toEqual({ name: "terraform-provider", version: VERSION });
    const value = JSON.parse(Buffer.from(schema["parameterization"]["parameter"], "base64").toString());
    expect(value).toEqual({ local: { path: random() } });
    expect(Object.keys(schema["resources"])).toContain("random:index/pet:Pet");
  });

  it("checks subpackage name and version against the parameterization", async () => {
    expect((await schemaOf(plugin, { subpackage_name: "random", subpackage_version: "0.0.0" }))["name"]).toBe("random");
    const name = await callError(plugin, "GetSchema", { subpackage_name: "tls" });
    expect(name.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(name.details).toMatch(/asked for package "tls", but this provider is parameterized as random 0\.0\.0/);
    const version = await callError(plugin, "GetSchema", { subpackage_name: "random", subpackage_version: "1.2.3" });
    expect(version.details).toMatch(/asked for random version 1\.2\.3/);
  });

  it("refuses a second Parameterize, naming the current parameterization", async () => {
    const e = await callError(plugin, "Parameterize", argsRequest(peerPath("tls")));
    expect(e.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(e.details).toContain(`already parameterized as random 0.0.0 (local ${random()})`);
  });

  it("answers Construct, which a Terraform provider has no use for, UNIMPLEMENTED, naming the method", async () => {
    const e = await callError(plugin, "Construct", {});
    expect(e.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(e.details).toBe("Construct is not implemented by terraform-provider: a Terraform provider has no component resources");
  });

  it("serves Call for the Provider's terraformConfig method only, naming the one method it has otherwise", async () => {
    const res = await plugin.call("Call", { tok: "pulumi:providers:random/terraformConfig", args: { fields: {} } });
    // random's provider has no configuration attributes: an empty object, as Terraform would see it.
    expect(res["return"]).toMatchObject({ fields: { result: { structValue: { fields: {} } } } });
    const e = await callError(plugin, "Call", { tok: "pulumi:providers:random/other", args: { fields: {} } });
    expect(e.details).toMatch(/unknown method pulumi:providers:random\/other; the provider has only pulumi:providers:random\/terraformConfig/);
  });

  it("rejects a malformed Struct as INVALID_ARGUMENT naming the property", async () => {
    const bad = { urn: "urn:pulumi:dev::p::random:index/pet:Pet::pet", type: "random:index/pet:Pet", name: "pet", news: { fields: { x: { structValue: { fields: { "4dabf18193072939515e22adb298388d": { stringValue: "bogus" } } } } } } };
    const e = await callError(plugin, "Check", bad);
    expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(e.details).toMatch(/^Check: unrecognized signature "bogus".*\(at news\.x\)/);
  });

  it("dispatches decoded requests to the bridge: Check of a random_pet with a bad property type", async () => {
    const req = {
      urn: "urn:pulumi:dev::p::random:index/pet:Pet::pet", type: "random:index/pet:Pet", name: "pet",
      olds: { fields: {} }, news: { fields: { length: { stringValue: "two" } } },
    };
    const res = await plugin.call("Check", req);
    expect((res["failures"] as unknown[]).length).toBeGreaterThan(0);
    expect(res["failures"]).toContainEqual(expect.objectContaining({ property: "length" }));
  });
});

describe("plugin process, value form and selection", () => {
  it("parameterizes from value bytes with includes and a provider name", async () => {
    const plugin = await startPluginProcess();
    try {
      const value = JSON.stringify({ local: { path: peerPath("tls") }, includes: ["tls_private_key"], providerName: "mytls" });
      expect(await plugin.call("Parameterize", valueRequest(value, "mytls", "0.0.0"))).toEqual({ name: "mytls", version: "0.0.0" });
      const schema = await schemaOf(plugin);
      expect(schema["name"]).toBe("mytls");
      expect(Object.keys(schema["resources"])).toEqual(["mytls:index/privateKey:PrivateKey"]);
      expect(JSON.parse(Buffer.from(schema["parameterization"]["parameter"], "base64").toString())).toEqual(JSON.parse(value));
    } finally {
      await plugin.stop();
    }
  });

  it("refuses value bytes whose package disagrees with the request", async () => {
    const plugin = await startPluginProcess();
    try {
      const e = await callError(plugin, "Parameterize", valueRequest(JSON.stringify({ local: { path: peerPath("random") } }), "other", "0.0.0"));
      expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(e.details).toMatch(/describes package "random" but the request names "other"/);
    } finally {
      await plugin.stop();
    }
  });

  it("refuses an --include naming what the provider does not have as INVALID_ARGUMENT, naming the token", async () => {
    const plugin = await startPluginProcess();
    try {
      const e = await callError(plugin, "Parameterize", argsRequest(peerPath("random"), "--include", "random_nothing"));
      expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(e.details).toMatch(/^--include\/--exclude name random_nothing, which the provider does not have; use Terraform names such as random_/);
      // The refusal leaves the instance free for a good parameterization.
      expect(await plugin.call("Parameterize", argsRequest(peerPath("random"), "--include", "random_pet"))).toEqual({ name: "random", version: "0.0.0" });
    } finally {
      await plugin.stop();
    }
  });

  it("resolves a relative local path against the directory the engine starts it in", async () => {
    const dir = peerPath("random").replace(/\/terraform-provider-random$/, "");
    const plugin = await startPluginProcess({ cwd: dir });
    try {
      expect(await plugin.call("Parameterize", argsRequest("./terraform-provider-random"))).toEqual({ name: "random", version: "0.0.0" });
      const schema = await schemaOf(plugin);
      expect(JSON.parse(Buffer.from(schema["parameterization"]["parameter"], "base64").toString())).toEqual({ local: { path: realpathSync(peerPath("random")) } });
    } finally {
      await plugin.stop();
    }
  });
});

describe("plugin process shutdown", () => {
  const providerPids = (): number[] => processesMatching(peerPath("random"));

  async function parameterized(): Promise<{ plugin: PluginProcess; pids: number[] }> {
    const plugin = await startPluginProcess();
    await plugin.call("Parameterize", argsRequest(peerPath("random")));
    // Only this plugin's own provider: other test files start random providers at the same time.
    const pids = providerPids().filter((p) => parentPid(p) === plugin.child.pid);
    expect(pids.length).toBeGreaterThan(0);
    return { plugin, pids };
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${signal} stops the Terraform provider and exits 0`, async () => {
      const { plugin, pids } = await parameterized();
      const exit = new Promise<number | null>((r) => plugin.child.once("exit", (code) => r(code)));
      plugin.child.kill(signal);
      expect(await exit).toBe(0);
      for (const pid of pids) expect(await waitGone(pid)).toBe(true);
    });
  }

  it("exits when the engine closes its stdin (the engine went away)", async () => {
    const { plugin, pids } = await parameterized();
    const exit = new Promise<number | null>((r) => plugin.child.once("exit", (code) => r(code)));
    plugin.child.stdin!.end();
    expect(await exit).toBe(0);
    for (const pid of pids) expect(await waitGone(pid)).toBe(true);
  });

  it("told to stop in the middle of a Parameterize whose provider never answers, exits within its bound and leaves no provider", async () => {
    const hostile = join(repoRoot, "test/peers/hostile/terraform-provider-hostile");
    const plugin = await startPluginProcess({ env: { ...process.env, HOSTILE_MODE: "hang" } });
    const exit = new Promise<number | null>((r) => plugin.child.once("exit", (code) => r(code)));
    // The default schema deadline (5 minutes) holds the Parameterize; the stop must not wait for it.
    void plugin.call("Parameterize", argsRequest(hostile)).catch(() => undefined);
    let pids: number[] = [];
    for (let i = 0; i < 200 && pids.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      pids = processesMatching(hostile).filter((p) => parentPid(p) === plugin.child.pid);
    }
    expect(pids.length).toBeGreaterThan(0);
    // Time for the handshake, so that the Parameterize is past launch and waiting on the schema.
    await new Promise((r) => setTimeout(r, 1_000));
    const started = Date.now();
    plugin.child.stdin!.end();
    expect(await exit).toBe(0);
    // The drain (2 s) and the close (4 s) at most, with room for a loaded machine; not the 5-minute schema deadline.
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const pid of pids) expect(await waitGone(pid)).toBe(true);
  }, 60_000);

  it("closes the Terraform provider on Cancel", async () => {
    const { plugin, pids } = await parameterized();
    try {
      expect(await plugin.call("Cancel", {})).toEqual({});
      for (const pid of pids) expect(await waitGone(pid)).toBe(true);
    } finally {
      await plugin.stop();
    }
  });
});
