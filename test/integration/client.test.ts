// Drives every real peer through the one client: schema, configure, plan → apply → read → delete, data sources, functions.
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BigNum, Dynamic, isUnknown, type CtyValue } from "../../src/terraform/cty/index.js";
import { GrpcTerraformProvider, errorDiagnostics, formatDiagnostics } from "../../src/terraform/client.js";
import { ProviderCrashedError } from "../../src/terraform/errors.js";
import type { Diagnostic, ProviderSchema } from "../../src/terraform/types.js";
import { completeObject } from "../../src/terraform/values.js";
import { peerPath } from "../support/peers.js";
import { waitGone } from "../support/processes.js";

type Obj = { [k: string]: CtyValue };
const scratch = mkdtempSync(join(tmpdir(), "tfbridge-client-"));
const open: GrpcTerraformProvider[] = [];

async function start(name: string, env?: Record<string, string>): Promise<GrpcTerraformProvider> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath(name), env });
  open.push(p);
  return p;
}

function noErrors(diags: Diagnostic[]): void {
  expect(errorDiagnostics(diags), formatDiagnostics(diags)).toEqual([]);
}

async function configured(name: string, config: Obj = {}, env?: Record<string, string>): Promise<{ p: GrpcTerraformProvider; schema: ProviderSchema }> {
  const p = await start(name, env);
  const schema = await p.getProviderSchema();
  noErrors(schema.diagnostics);
  const cfg = completeObject(schema.provider.block, config);
  noErrors(await p.validateProviderConfig(cfg));
  noErrors(await p.configureProvider(cfg));
  return { p, schema };
}

/** Create through plan + apply as Terraform does; returns the new state and private bytes. */
async function create(p: GrpcTerraformProvider, schema: ProviderSchema, typeName: string, partial: Obj): Promise<{ state: Obj; priv: Uint8Array; planned: Obj }> {
  const config = completeObject(schema.resources.get(typeName)!.block, partial);
  noErrors(await p.validateResourceConfig(typeName, config));
  const plan = await p.planResourceChange({ typeName, priorState: null, proposedNewState: config, config });
  noErrors(plan.diagnostics);
  const applied = await p.applyResourceChange({ typeName, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
  noErrors(applied.diagnostics);
  return { state: applied.newState as Obj, priv: applied.private, planned: plan.plannedState as Obj };
}

/** Delete: plan to null, apply null; Terraform's own sequence. */
async function destroy(p: GrpcTerraformProvider, typeName: string, state: Obj, priv: Uint8Array): Promise<void> {
  const plan = await p.planResourceChange({ typeName, priorState: state, proposedNewState: null, config: null, priorPrivate: priv });
  noErrors(plan.diagnostics);
  expect(plan.plannedState).toBeNull();
  const applied = await p.applyResourceChange({ typeName, priorState: state, plannedState: null, config: null, plannedPrivate: plan.plannedPrivate });
  noErrors(applied.diagnostics);
  expect(applied.newState).toBeNull();
}

afterEach(async () => {
  // Every test closes its providers, and no process may survive that.
  const pids = open.map((p) => p.process.pid);
  await Promise.all(open.splice(0).map((p) => p.close()));
  for (const pid of pids) expect(await waitGone(pid), `provider pid ${pid} still running`).toBe(true);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("random (protocol 5)", () => {
  it("after StopProvider, work is refused without reaching the provider (a stop cancels only calls in flight)", async () => {
    const { p, schema } = await configured("random");
    const { state, priv } = await create(p, schema, "random_string", { length: 8, special: false });
    expect(await p.stopProvider()).toBeUndefined();
    await expect(p.planResourceChange({ typeName: "random_string", priorState: state, proposedNewState: null, config: null, priorPrivate: priv })).rejects.toThrow(
      /PlanResourceChange was not sent: the operation was cancelled/,
    );
    await expect(p.readResource({ typeName: "random_string", currentState: state, private: priv })).rejects.toThrow(/was not sent/);
    // Still answering what a stop does not end: the schema.
    expect((await p.getProviderSchema()).resources.has("random_string")).toBe(true);
  });

  it("random_string: plan → apply → read → replace-plan → delete", async () => {
    const { p, schema } = await configured("random");
    expect(p.protocolVersion).toBe(5);
    const { state, priv, planned } = await create(p, schema, "random_string", { length: 24, special: false, keepers: { k: "1" } });
    expect(isUnknown(planned["result"])).toBe(true); // computed during plan
    expect(state["result"]).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(state["id"]).toBe(state["result"]);

    const read = await p.readResource({ typeName: "random_string", currentState: state, private: priv });
    noErrors(read.diagnostics);
    expect(read.newState).toEqual(state);

    const config = completeObject(schema.resources.get("random_string")!.block, { length: 24, special: false, keepers: { k: "2" } });
    const proposed = { ...state, keepers: { k: "2" } };
    const replan = await p.planResourceChange({ typeName: "random_string", priorState: state, proposedNewState: proposed, config, priorPrivate: priv });
    noErrors(replan.diagnostics);
    expect(replan.requiresReplace).toContainEqual([{ attribute: "keepers" }]);

    await destroy(p, "random_string", state, priv);
  });

  it("random_integer keeps numbers beyond 53 bits exact", async () => {
    const { p, schema } = await configured("random");
    const min = new BigNum("9007199254740993"); // 2^53 + 1: not representable as a double
    const { state } = await create(p, schema, "random_integer", { min, max: min });
    expect(state["result"]).toEqual(min);
    expect(state["min"]).toEqual(min);
  });
});

describe("local (protocol 5)", () => {
  it("local_file writes a real file; the data source and a function read it back; delete removes it", async () => {
    const { p, schema } = await configured("local");
    const filename = join(scratch, "hello.txt");
    const { state, priv } = await create(p, schema, "local_file", { filename, content: "hello from the bridge\n" });
    expect(readFileSync(filename, "utf8")).toBe("hello from the bridge\n");

    const dsConfig = completeObject(schema.dataSources.get("local_file")!.block, { filename });
    noErrors(await p.validateDataSourceConfig("local_file", dsConfig));
    const ds = await p.readDataSource({ typeName: "local_file", config: dsConfig });
    noErrors(ds.diagnostics);
    expect((ds.state as Obj)["content"]).toBe("hello from the bridge\n");

    expect([...schema.functions.keys()]).toContain("direxists");
    expect(await p.callFunction("direxists", [scratch])).toEqual({ result: true });
    expect(await p.callFunction("direxists", [join(scratch, "nope")])).toEqual({ result: false });

    // An out-of-band deletion: Read reports the resource gone (null state).
    rmSync(filename);
    const read = await p.readResource({ typeName: "local_file", currentState: state, private: priv });
    noErrors(read.diagnostics);
    expect(read.newState).toBeNull();

    writeFileSync(filename, "hello from the bridge\n");
    await destroy(p, "local_file", state, priv);
    expect(existsSync(filename)).toBe(false);
  });
});

describe("tls (protocol 5)", () => {
  it("tls_private_key and the tls_public_key data source agree", async () => {
    const { p, schema } = await configured("tls");
    const { state, priv } = await create(p, schema, "tls_private_key", { algorithm: "ECDSA", ecdsa_curve: "P256" });
    expect(state["private_key_pem"]).toMatch(/^-----BEGIN EC PRIVATE KEY-----/);
    const dsConfig = completeObject(schema.dataSources.get("tls_public_key")!.block, { private_key_pem: state["private_key_pem"]! });
    const ds = await p.readDataSource({ typeName: "tls_public_key", config: dsConfig });
    noErrors(ds.diagnostics);
    expect((ds.state as Obj)["public_key_pem"]).toBe(state["public_key_pem"]);
    await destroy(p, "tls_private_key", state, priv);
  });
});

describe("time (protocol 5)", () => {
  it("time_static and the rfc3339_parse function", async () => {
    const { p, schema } = await configured("time");
    const { state, priv } = await create(p, schema, "time_static", { rfc3339: "2024-02-29T12:34:56Z" });
    expect(state["year"]).toBe(2024);
    expect(state["unix"]).toBe(1709210096);
    const parsed = await p.callFunction("rfc3339_parse", ["2023-07-25T23:43:16Z"]);
    expect(parsed.error).toBeUndefined();
    expect(parsed.result).toMatchObject({ year: 2023, month: 7, day: 25, hour: 23, minute: 43, second: 16, unix: 1690328596 });
    const bad = await p.callFunction("rfc3339_parse", ["not a time"]);
    expect(bad.error?.text).toMatch(/RFC3339|parse/i);
    await destroy(p, "time_static", state, priv);
  });
});

describe("http (protocol 5) against a loopback server", () => {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "x-seen-path": req.url ?? "" });
      res.end(`you asked for ${req.url}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("the http data source reads a real response", async () => {
    const { p, schema } = await configured("http");
    const config = completeObject(schema.dataSources.get("http")!.block, { url: `${url}/ping` });
    const ds = await p.readDataSource({ typeName: "http", config });
    noErrors(ds.diagnostics);
    const st = ds.state as Obj;
    expect(st["status_code"]).toBe(200);
    expect(st["response_body"]).toBe("you asked for /ping");
    expect((st["response_headers"] as Obj)["X-Seen-Path"]).toBe("/ping");
  });
});

describe("bridgetest (protocol 6)", () => {
  const stateDir = join(scratch, "bridgetest-state");
  const env = { BRIDGETEST_STATE_DIR: stateDir };
  const input: Obj = {
    name: "alpha",
    number_value: 0.1,
    bool_value: true,
    list_value: ["a", "b"],
    set_value: ["x"],
    map_value: { k: "v" },
    object_value: { a: "s", b: 2, c: false },
    single_nested: { key: "one", value: null, computed_tag: null },
    list_nested: [{ key: "l1", value: "v", computed_tag: null }],
    map_nested: { m: { key: "m1", value: null, computed_tag: null } },
    dynamic_value: new Dynamic({ kind: "list", element: { kind: "string" } }, ["d1", "d2"]),
    secret: "hunter2",
    list_block: [{ key: "b1", value: "bv", sub: [{ note: "deep" }] }],
  };

  it("launches over protocol 6 and reports nested attributes and blocks in its schema", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    expect(p.protocolVersion).toBe(6);
    const obj = schema.resources.get("bridgetest_object")!;
    expect(obj.version).toBe(1);
    const attr = (n: string) => obj.block.attributes.find((a) => a.name === n)!;
    expect(attr("list_nested").nestedType?.nesting).toBe("list");
    expect(attr("map_nested").nestedType?.nesting).toBe("map");
    expect(attr("secret").sensitive).toBe(true);
    expect(attr("write_only_secret").writeOnly).toBe(true);
    expect(attr("dynamic_value").type).toEqual({ kind: "dynamic" });
    expect(obj.block.blockTypes.map((b) => `${b.typeName}:${b.nesting}`).sort()).toEqual(
      ["list_block:list", "max1_block:list", "set_block:set", "single_block:single"],
    );
    expect(schema.functions.get("join")?.variadicParameter?.type).toEqual({ kind: "string" });
  });

  it("bridgetest_object: full cycle with every value shape, private state, a file on disk, import and upgrade", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    const { state, priv, planned } = await create(p, schema, "bridgetest_object", { ...input, write_only_secret: "wo" });
    expect(isUnknown(planned["id"])).toBe(true);
    const id = state["id"] as string;
    expect(existsSync(join(stateDir, `${id}.json`))).toBe(true);
    expect(state["number_value"]).toBe(0.1);
    expect(state["write_only_secret"]).toBeNull(); // write-only values are never stored
    expect(state["write_only_seen"]).toBe(true);
    expect((state["single_nested"] as Obj)["computed_tag"]).toBe("auto");
    expect(state["dynamic_value"]).toEqual(new Dynamic({ kind: "list", element: { kind: "string" } }, ["d1", "d2"]));
    expect(((state["list_block"] as Obj[])[0]!["sub"] as Obj[])[0]!["note"]).toBe("deep");
    expect(state["revision"]).toBe(1);

    const read = await p.readResource({ typeName: "bridgetest_object", currentState: state, private: priv });
    noErrors(read.diagnostics);
    // The provider re-reads 0.1 from its JSON file as an exact decimal, which go-cty sends as text: a BigNum here.
    expect(read.newState).toEqual({ ...state, number_value: new BigNum("0.1") });

    // Update in place: private state must come back, revision increments.
    const config = completeObject(schema.resources.get("bridgetest_object")!.block, { ...input, bool_value: false });
    const proposed = { ...state, bool_value: false };
    const plan = await p.planResourceChange({ typeName: "bridgetest_object", priorState: state, proposedNewState: proposed, config, priorPrivate: read.private });
    noErrors(plan.diagnostics);
    expect(plan.requiresReplace).toEqual([]);
    const upd = await p.applyResourceChange({ typeName: "bridgetest_object", priorState: state, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    noErrors(upd.diagnostics);
    expect((upd.newState as Obj)["revision"]).toBe(2);

    // Import by id reads the file back.
    const imp = await p.importResourceState("bridgetest_object", id);
    noErrors(imp.diagnostics);
    expect(imp.imported).toHaveLength(1);
    expect((imp.imported[0]!.state as Obj)["id"]).toBe(id);

    // State written by schema version 0 upgrades to version 1.
    const up = await p.upgradeResourceState({
      typeName: "bridgetest_object",
      version: 0,
      rawStateJson: JSON.stringify({ id: "legacy", title: "old-name", number_value: 3, list_value: ["z"] }),
    });
    noErrors(up.diagnostics);
    expect(up.upgradedState).toMatchObject({ id: "legacy", name: "old-name", number_value: 3, list_value: ["z"] });

    await destroy(p, "bridgetest_object", upd.newState as Obj, upd.private);
    expect(existsSync(join(stateDir, `${id}.json`))).toBe(false);
  });

  it("a required attribute left out is a validation diagnostic naming it", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    const config = completeObject(schema.resources.get("bridgetest_object")!.block, {});
    const diags = await p.validateResourceConfig("bridgetest_object", config);
    expect(errorDiagnostics(diags).some((d) => /name/.test(d.summary + d.detail))).toBe(true);
  });

  it("data source echo and provider functions (including a variadic one)", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    const config = completeObject(schema.dataSources.get("bridgetest_echo")!.block, { input: "ping" });
    const ds = await p.readDataSource({ typeName: "bridgetest_echo", config });
    noErrors(ds.diagnostics);
    expect((ds.state as Obj)["output"]).toEqual(new Dynamic({ kind: "string" }, "ping"));
    expect(await p.callFunction("reverse", ["héllo"])).toEqual({ result: "olléh" });
    expect(await p.callFunction("join", ["-", "a", "b", "c"])).toEqual({ result: "a-b-c" });
    await expect(p.callFunction("reverse", [])).rejects.toThrow(/takes 1 argument\(s\), got 0/);
  });

  it("apply that fails half-way returns the error together with partial state", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    const typeName = "bridgetest_failing";
    const config = completeObject(schema.resources.get(typeName)!.block, { name: "half", fail: true });
    const plan = await p.planResourceChange({ typeName, priorState: null, proposedNewState: config, config });
    noErrors(plan.diagnostics);
    const applied = await p.applyResourceChange({ typeName, priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    expect(errorDiagnostics(applied.diagnostics).length).toBeGreaterThan(0);
    expect(applied.newState).toMatchObject({ name: "half", status: "partial" });
  });

  it("a provider that panics mid-call fails the call with its panic text, and is gone", async () => {
    const { p, schema } = await configured("bridgetest", {}, env);
    const config = completeObject(schema.resources.get("bridgetest_object")!.block, { name: "panic-now" });
    const plan = await p.planResourceChange({ typeName: "bridgetest_object", priorState: null, proposedNewState: config, config });
    const err = await p
      .applyResourceChange({ typeName: "bridgetest_object", priorState: null, plannedState: plan.plannedState, config })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderCrashedError);
    expect((err as ProviderCrashedError).panicText).toMatch(/^panic: bridgetest: deliberate panic for crash tests/);
    expect((err as Error).message).toMatch(/exited with code 2 during ApplyResourceChange; it printed:\npanic: bridgetest/);
    // Later calls fail fast with the same story rather than hanging.
    await expect(p.readDataSource({ typeName: "bridgetest_echo", config: null })).rejects.toBeInstanceOf(ProviderCrashedError);
  });

  it("StopProvider is answered", async () => {
    const { p } = await configured("bridgetest", {}, env);
    expect(await p.stopProvider()).toBeUndefined();
  });

  it("many concurrent calls on one provider all complete", async () => {
    const { p } = await configured("bridgetest", {}, env);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => p.callFunction("reverse", [`s${i}`])));
    results.forEach((r, i) => expect(r.result).toBe([...`s${i}`].reverse().join("")));
  });
});

describe("provider logging", () => {
  async function logsDuringPlans(env?: Record<string, string>): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const p = await GrpcTerraformProvider.launch({ path: peerPath("random"), env, onLog: (e) => (counts[e.level] = (counts[e.level] ?? 0) + 1) });
    open.push(p);
    const schema = await p.getProviderSchema();
    noErrors(await p.configureProvider(completeObject(schema.provider.block, {})));
    const config = completeObject(schema.resources.get("random_id")!.block, { byte_length: 4 });
    for (let i = 0; i < 10; i++) await p.planResourceChange({ typeName: "random_id", priorState: null, proposedNewState: config, config });
    return counts;
  }

  it("asks the provider for warnings and errors only, unless TF_LOG says otherwise", async () => {
    const quiet = await logsDuringPlans();
    expect(quiet["trace"] ?? 0).toBe(0);
    const verbose = await logsDuringPlans({ TF_LOG: "TRACE" });
    // terraform-plugin-go logs each request it receives at trace level when asked to.
    expect(verbose["trace"] ?? 0).toBeGreaterThan(10);
  });
});
