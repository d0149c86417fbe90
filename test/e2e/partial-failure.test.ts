// Partial failure through the real Pulumi CLI: a real SDKv2 provider (terraform-provider-httpapi) against a real
// loopback HTTP service that stores an item and then fails the request. The stack must record the item (with its id,
// as a partial failure) and the next `pulumi up`, with the fault removed, must finish it without a duplicate. The same
// against bridgetest_failing (plugin framework, protocol 6). No fakes: the fault is a switch in the real service.
import { YamlScenario } from "../support/lifecycle.js";
import { readdirSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxWithPlugin, waitNoSandboxProcesses, type ExportedResource } from "../support/e2e.js";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";
import { peerPath } from "../support/peers.js";
import { tempDir, type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
let api: HttpApiServer;
const dirs: string[] = [];
const newDir = (prefix: string): string => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  sandbox = sandboxWithPlugin(); // the first run builds the Pulumi CLI (minutes)
  api = await startHttpApi();
}, 1_200_000);

afterAll(async () => {
  await api?.stop();
  sandbox?.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ITEM_PROGRAM = [
  "resources:",
  "  item:",
  "    type: httpapi:index/item:Item",
  "    properties:",
  "      name: partial-item",
  "      size: 42",
  "      tags:",
  "        env: e2e",
  "      settings:",
  "        mode: fast",
  "        enabled: true",
  "        retries: 3",
  "      rules:",
  "        - port: 80",
  "        - port: 53",
  "          protocol: udp",
  "          cidr: 127.0.0.0/8",
  "outputs:",
  "  itemId: ${item.id}",
  "  etag: ${item.etag}",
  "",
].join("\n");

describe("partial failure with a real SDKv2 provider and a real HTTP service", () => {
  let project: YamlScenario;

  beforeAll(async () => {
    project = YamlScenario.inline(newDir("tfbridge-partial-"), "httpapi-partial", ITEM_PROGRAM, sandbox.env);
    const added = await project.ok(["package", "add", "terraform-provider", peerPath("httpapi")]);
    expect(added.stderr).toMatch(/Added package httpapi/);
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "httpapi:endpoint", api.url]);
    await project.ok(["config", "set", "--secret", "httpapi:token", api.token]);
  }, 300_000);

  it("`pulumi up` fails after the service stored the item; the stack records it, with its id, as a partial failure", async () => {
    await api.setFaults({ fail_after_create: true });
    const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.stdout + up.stderr).not.toBe(0);
    expect(up.stdout).toMatch(/injected fault fail_after_create/);
    expect(up.stdout).toMatch(/creating httpapi_item failed part-way/);

    const items = await api.items();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: "partial-item", revision: 1 });
    expect(items[0]!.size).toBeUndefined(); // created, never configured

    const item = (await project.resources()).find((r) => r.type === "httpapi:index/item:Item");
    expect(item, "the stack records the item").toBeDefined();
    expect(item!.id).toBe(items[0]!.id);
    expect(item!.initErrors?.join("\n")).toMatch(/injected fault fail_after_create/);
    // Outputs are what exists, inputs what the program asked for.
    expect(item!.outputs).toMatchObject({ name: "partial-item", size: 0, etag: items[0]!.etag });
    expect(item!.inputs).toMatchObject({ name: "partial-item", size: 42, settings: { mode: "fast" } });
    // The token is a secret in the provider's recorded inputs.
    const provider = (await project.resources()).find((r) => r.type === "pulumi:providers:httpapi");
    expect(JSON.stringify(provider?.inputs)).not.toContain(api.token);
  }, 300_000);

  it("with the fault removed, the next `pulumi up` finishes the same item: no duplicate, fully configured", async () => {
    await api.clearFaults();
    const before = await api.stats();
    const up = await project.ok(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(/~\s+httpapi:index:Item\s+item\s+updated/);
    expect(up.stdout).not.toMatch(/\+\s+httpapi:index:Item\s+item\s+created/);

    const after = await api.stats();
    expect(after["creates"]).toBe(before["creates"]); // no second create
    const items = await api.items();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      name: "partial-item",
      size: 42,
      tags: { env: "e2e" },
      settings: { mode: "fast", enabled: true, retries: 3 },
      rules: [{ port: 80, protocol: "tcp" }, { port: 53, protocol: "udp", cidr: "127.0.0.0/8" }],
    });

    const item = (await project.resources()).find((r) => r.type === "httpapi:index/item:Item");
    expect(item!.id).toBe(items[0]!.id);
    expect(item!.initErrors ?? []).toEqual([]);
    expect(item!.outputs).toMatchObject({ size: 42, etag: items[0]!.etag, settings: { mode: "fast", enabled: true, retries: 3 } });
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as Record<string, string>;
    expect(outputs).toEqual({ itemId: items[0]!.id, etag: items[0]!.etag });

    await project.ok(["preview", "--expect-no-changes"]);
  }, 300_000);

  it("an update that fails keeps the old outputs recorded; the next up applies the change", async () => {
    project.program(ITEM_PROGRAM.replace("size: 42", "size: 43"));
    await api.setFaults({ fail_update: true });
    let item: ExportedResource | undefined;
    try {
      const failed = await project.pulumi(["up", "--yes", "--skip-preview"]);
      expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
      expect(failed.stdout).toMatch(/injected fault fail_update/);
      item = (await project.resources()).find((r) => r.type === "httpapi:index/item:Item");
      expect(item!.outputs).toMatchObject({ size: 42 }); // SDKv2 partial mode kept the prior state
      expect(item!.inputs).toMatchObject({ size: 42 }); // the engine keeps the inputs of the last good state
      expect(item!.initErrors?.join("\n")).toMatch(/injected fault fail_update/);
      expect((await api.items())[0]!.size).toBe(42);
    } finally {
      await api.clearFaults();
    }
    await project.ok(["up", "--yes", "--skip-preview"]);
    item = (await project.resources()).find((r) => r.type === "httpapi:index/item:Item");
    expect(item!.outputs).toMatchObject({ size: 43 });
    expect(item!.initErrors ?? []).toEqual([]);
    expect(await api.items()).toEqual([expect.objectContaining({ id: item!.id, size: 43 })]);
    project.program(ITEM_PROGRAM);
  }, 300_000);

  it("refresh picks up an out-of-band change, the next up reverts it, and destroy deletes the item", async () => {
    const [item] = await api.items();
    await api.putItem(item!.id, { ...item!, size: 7 });
    await project.ok(["refresh", "--yes", "--skip-preview"]);
    const refreshed = (await project.resources()).find((r) => r.type === "httpapi:index/item:Item");
    expect(refreshed!.outputs).toMatchObject({ size: 7 });
    const preview = await project.ok(["preview", "--diff"]);
    expect(preview.stdout).toMatch(/~ size\s*:\s*7 => 42/);
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect((await api.items())[0]).toMatchObject({ id: item!.id, size: 42 });

    // customTimeouts.delete reaches the provider (SDKv2 reads it from its private state): a destroy whose DELETE the
    // service holds for 15 s ends at the 2 s deadline, with the item still in the stack; without the fault it goes.
    project.program(ITEM_PROGRAM.replace("    type: httpapi:index/item:Item\n", "    type: httpapi:index/item:Item\n    options:\n      customTimeouts:\n        delete: 2s\n"));
    await project.ok(["up", "--yes", "--skip-preview"]);
    await api.setFaults({ delay_ms: 15_000 });
    const started = Date.now();
    const slow = await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(slow.code, slow.stdout + slow.stderr).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(14_000);
    expect(slow.stdout).toMatch(/deleting item .*context deadline exceeded.*\(timeout 2s\)/);
    expect((await project.resources()).some((r) => r.type === "httpapi:index/item:Item")).toBe(true);
    await api.clearFaults();

    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await api.items()).toEqual([]);
    expect(await waitNoSandboxProcesses(sandbox, "terraform-provider-")).toEqual([]);
  }, 300_000);
});

describe("partial failure with bridgetest_failing (protocol 6, provider config failOn=create)", () => {
  it("records the half-created object, and the next `pulumi up` completes it without a second file", async () => {
    const stateDir = newDir("tfbridge-failing-state-");
    const project = YamlScenario.inline(
      newDir("tfbridge-failing-"),
      "bridgetest-partial",
      ["resources:", "  half:", "    type: bridgetest:index/failing:Failing", "    properties:", "      name: half", "      value: v1", ""].join("\n"),
      sandbox.env,
    );
    await project.ok(["package", "add", "terraform-provider", peerPath("bridgetest")]);
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    await project.ok(["config", "set", "bridgetest:failOn", "create"]);

    const failed = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    const files = readdirSync(stateDir);
    expect(files).toHaveLength(1);
    const half = (await project.resources()).find((r) => r.type === "bridgetest:index/failing:Failing");
    expect(half?.id).toBe(files[0]!.replace(/\.json$/, ""));
    expect(half?.outputs).toMatchObject({ name: "half", status: "partial" });
    expect(half?.initErrors?.length).toBeGreaterThan(0);

    await project.ok(["config", "rm", "bridgetest:failOn"]);
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(readdirSync(stateDir)).toEqual(files);
    const done = (await project.resources()).find((r) => r.type === "bridgetest:index/failing:Failing");
    expect(done?.id).toBe(half?.id);
    expect(done?.outputs).toMatchObject({ status: "updated" });
    expect(done?.initErrors ?? []).toEqual([]);

    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(readdirSync(stateDir)).toEqual([]);
    expect(await waitNoSandboxProcesses(sandbox, "terraform-provider-bridgetest")).toEqual([]);
  }, 600_000);
});
