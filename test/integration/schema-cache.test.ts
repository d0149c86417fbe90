// The schema cache against a real provider (random, a private copy of its binary): the second Parameterize starts no
// process and answers the same schema; the provider starts on the first call and stops with close; a cache entry the
// provider contradicts is dropped with a message; the key follows the binary, the environment and the off switch.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parameterize, type Parameterized } from "../../src/parameterize/index.js";
import { packageOptions } from "../../src/parameterize/open.js";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { completeObject } from "../../src/terraform/values.js";
import { LazyProvider } from "../../src/terraform/lazy-provider.js";
import { SCHEMA_CACHE_ENV } from "../../src/terraform/schema-cache.js";
import { peerPath } from "../support/peers.js";
import { processesMatching, waitGone } from "../support/processes.js";

const dir = mkdtempSync(join(tmpdir(), "tfbridge-schema-cache-"));
const binary = join(dir, "bin", "terraform-provider-random");
const cacheDir = join(dir, "cache");
const entries = (): string[] => {
  try {
    return readdirSync(join(cacheDir, ".schemas")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
};
const saved = { ...process.env };
const open: Parameterized[] = [];

beforeEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
  rmSync(join(dir, "bin"), { recursive: true, force: true });
  // A private copy: this file's processes are told apart from every other test's random by its path.
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(peerPath("random"), binary);
  chmodSync(binary, 0o755);
  process.env["PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR"] = cacheDir;
  // A checkout has no build of its own to key on: it caches only when told to.
  process.env[SCHEMA_CACHE_ENV] = "1";
});
afterEach(async () => {
  for (const p of open.splice(0)) await p.provider.close();
  process.env = { ...saved };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function param(): Promise<Parameterized> {
  const p = await parameterize({ kind: "args", args: [binary] }, { cwd: dir });
  open.push(p);
  return p;
}

const rendered = (p: Parameterized): string =>
  JSON.stringify(renderPackageSchema(buildProviderModel(p.schema, packageOptions(p)), { bridgeVersion: "1.0.0", parameter: p.value, source: p.origin }));

describe("schema cache", () => {
  it("answers the second Parameterize from the cache, starting the provider only at its first call", async () => {
    const first = await param();
    expect(first.provider).toBeInstanceOf(GrpcTerraformProvider);
    expect(entries()).toHaveLength(1);
    await first.provider.close();
    await Promise.all(processesMatching(binary).map((pid) => waitGone(pid, 10_000)));
    expect(processesMatching(binary)).toEqual([]);

    const second = await param();
    expect(second.provider).toBeInstanceOf(LazyProvider);
    expect(processesMatching(binary)).toEqual([]);
    expect(second.provider.protocolVersion).toBe(first.provider.protocolVersion);
    expect(rendered(second)).toBe(rendered(first));

    // The first call starts it, and it plans and applies as a started provider does.
    const tf = second.provider;
    expect(await tf.configureProvider(completeObject(second.schema.provider.block, {}))).toEqual([]);
    const config = completeObject(second.schema.resources.get("random_id")!.block, { byte_length: 4 });
    const plan = await tf.planResourceChange({ typeName: "random_id", priorState: null, proposedNewState: config, config });
    const applied = await tf.applyResourceChange({ typeName: "random_id", priorState: null, plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    expect(applied.diagnostics).toEqual([]);
    expect((applied.newState as Record<string, unknown>)["hex"]).toMatch(/^[0-9a-f]{8}$/);
    const running = processesMatching(binary);
    expect(running).toHaveLength(1);
    await second.provider.close();
    expect(await waitGone(running[0]!, 10_000)).toBe(true);
  });

  it("starts the provider within Parameterize when told it is needed next, and stops it on close", async () => {
    await (await param()).provider.close();
    await Promise.all(processesMatching(binary).map((pid) => waitGone(pid, 10_000)));
    const p = await parameterize({ kind: "args", args: [binary] }, { cwd: dir, startProvider: true });
    open.push(p);
    expect(p.provider).toBeInstanceOf(LazyProvider);
    // Started, not waited for: the process is there before any call has been made.
    await vi.waitFor(() => expect(processesMatching(binary)).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const running = processesMatching(binary);
    expect(await p.provider.validateProviderConfig(completeObject(p.schema.provider.block, {}))).toEqual([]);
    expect(processesMatching(binary)).toEqual(running);
    await p.provider.close();
    expect(await waitGone(running[0]!, 10_000)).toBe(true);
  });

  it("drops an entry the started provider contradicts, and says to run again", async () => {
    const first = await param();
    await first.provider.close();
    await Promise.all(processesMatching(binary).map((pid) => waitGone(pid, 10_000)));
    const [file] = entries();
    const path = join(cacheDir, ".schemas", file!);
    // Another schema under the same key, from a provider that makes Terraform ask for the schema at every start.
    const entry = readFileSync(path, "utf8");
    const tampered = entry.replace('"getProviderSchemaOptional":true', '"getProviderSchemaOptional":false').replace('"random_id"', '"random_idx"');
    expect(tampered).not.toBe(entry);
    writeFileSync(path, tampered);
    const stale = await param();
    expect(stale.provider).toBeInstanceOf(LazyProvider);
    expect(stale.schema.resources.has("random_idx")).toBe(true);
    await expect(stale.provider.validateProviderConfig(null)).rejects.toThrow(
      `${binary} answers another schema than the one this plugin cached from it (its environment or the binary changed); the cached copy is removed: run the command again. A provider whose schema depends on its environment needs ${SCHEMA_CACHE_ENV}=0`,
    );
    expect(entries()).toEqual([]);
    expect(processesMatching(binary)).toEqual([]);
    const again = await param();
    expect(again.provider).toBeInstanceOf(GrpcTerraformProvider);
    expect(again.schema.resources.has("random_id")).toBe(true);
  });

  it("keys on the binary, the environment and the build; off when told", async () => {
    await param();
    expect((await param()).provider).toBeInstanceOf(LazyProvider);
    // Rebuilt or reinstalled: another file time.
    utimesSync(binary, new Date(), new Date(Date.now() - 60_000));
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect((await param()).provider).toBeInstanceOf(LazyProvider);
    // A provider may read any variable (the test peers serve the schema one names): another environment, another entry.
    process.env["SHAPES_SCHEMA"] = "/elsewhere/schema.json";
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect((await param()).provider).toBeInstanceOf(LazyProvider);
    // What a shell or the engine changes between two commands of one session does not count.
    process.env["PWD"] = "/somewhere/else";
    process.env["PULUMI_NODEJS_STACK"] = "other";
    expect((await param()).provider).toBeInstanceOf(LazyProvider);
    process.env[SCHEMA_CACHE_ENV] = "0";
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    // A checkout without the switch has no build to key on.
    delete process.env[SCHEMA_CACHE_ENV];
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect(entries()).toHaveLength(3);
  });

  it("works on without a cache it cannot write, leaving nothing behind", async () => {
    // `.schemas` taken by a file: no entry can be made in it.
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, ".schemas"), "not a folder");
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect(readdirSync(cacheDir)).toEqual([".schemas"]);
    expect(readFileSync(join(cacheDir, ".schemas"), "utf8")).toBe("not a folder");
  });

  it("takes an entry it cannot read whole as a miss and writes it anew", async () => {
    await param();
    const [file] = entries();
    writeFileSync(join(cacheDir, ".schemas", file!), '{"key": "');
    expect((await param()).provider).toBeInstanceOf(GrpcTerraformProvider);
    expect((await param()).provider).toBeInstanceOf(LazyProvider);
  });
});
