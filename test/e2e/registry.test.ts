// End to end with the real Pulumi CLI against a registry on 127.0.0.1 over HTTPS (the fake of
// test/support/registry-server.ts, private: it wants a token): `pulumi package add terraform-provider
// <127.0.0.1:port>/hashicorp/random "~> 3.0"` resolves, verifies and caches the provider; then `pulumi up` of a YAML
// program runs the provider the parameter value pins, downloading that exact version again into an emptied cache even
// after a newer matching one was published. The plugin runs from the packaged tarball, started by the engine with the
// environment of `pulumi`: NODE_EXTRA_CA_CERTS makes it trust the test CA, TF_CLI_CONFIG_FILE gives the token.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashV1 } from "../../src/acquire/verify.js";
import { VERSION } from "../../src/version.js";
import { sandboxWithPlugin } from "../support/e2e.js";
import { peerPath } from "../support/peers.js";
import { expectSuccess, runPulumi, tempDir, type PulumiSandbox } from "../support/pulumi.js";
import { CURRENT_PLATFORM, FakeRegistry } from "../support/registry-server.js";

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let work: string;
let cache: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = sandboxWithPlugin(); // the first run builds the Pulumi CLI (minutes)
  reg = await FakeRegistry.start({
    providers: { "hashicorp/random": [{ version: "3.6.0" }, { version: "3.7.2" }, { version: "4.0.0" }] },
    binaries: { random: peerPath("random") },
    token: "e2e-token",
  });
  work = tempDir("tfbridge-e2e-registry-");
  cache = join(work, "provider-cache");
  const rc = join(work, "e2e.tfrc");
  writeFileSync(rc, `credentials "${reg.host}" {\n  token = "e2e-token"\n}\n`);
  env = {
    ...sandbox.env,
    NODE_EXTRA_CA_CERTS: reg.caFile,
    PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache,
    TF_CLI_CONFIG_FILE: rc,
  };
  for (const k of Object.keys(env)) if (k.startsWith("TF_TOKEN_")) delete env[k];
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

const zipDownloads = (version: string): number => reg.count(new RegExp(`^/files/hashicorp/random/${version.replace(/\./g, "\\.")}/.*\\.zip$`));
const cached = (): string[] => {
  const dir = join(cache, reg.host, "hashicorp", "random");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

describe("a registry provider through the real Pulumi CLI", () => {
  let project: string;

  it("`pulumi package add terraform-provider <host>/hashicorp/random \"~> 3.0\"` resolves 3.7.2 and records its parameterization", async () => {
    project = join(work, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "Pulumi.yaml"),
      [
        "name: tfregistry",
        "runtime: yaml",
        "resources:",
        "  pet:",
        "    type: random:index/pet:Pet",
        "    properties:",
        "      length: 3",
        "      separator: _",
        "outputs:",
        "  name: ${pet.id}",
        "",
      ].join("\n"),
    );
    const address = `${reg.host}/hashicorp/random`;
    const r = expectSuccess(await runPulumi(["package", "add", "terraform-provider", address, "~> 3.0"], { cwd: project, env }), "package add");
    expect(r.stderr).toMatch(/Added package random/);
    // "~> 3.0" is open: the next `pulumi install` resolves it again, so package add says how to pin what it took.
    const said = (r.stdout + r.stderr).replace(/\s+/g, " ");
    expect(said).toContain(`warning: ${address}: the version constraint "~> 3.0" is open, so 3.7.2 (the newest matching release) was taken`);
    expect(said).toContain(`To pin 3.7.2: \`pulumi package add terraform-provider ${address} 3.7.2\``);
    const yaml = readFileSync(join(project, "Pulumi.yaml"), "utf8");
    expect(yaml).toMatch(new RegExp(`packages:\\n {2}random:\\n {4}source: terraform-provider\\n {4}version: ${VERSION.replace(/\./g, "\\.")}\\n {4}parameters:\\n {6}- 127\\.0\\.0\\.1:\\d+\\/hashicorp\\/random\\n {6}- ~> 3\\.0`));
    const lock = readFileSync(join(project, "sdks", "random", "random-3.7.2.yaml"), "utf8");
    const value = /value: (\S+)/.exec(lock)?.[1];
    expect(value, lock).toBeDefined();
    // The reference's keys, plus the package's h1: lock hash, which the next test's `pulumi up` checks after a
    // re-download, and the registry's zh: of the archive it was unpacked from, as .terraform.lock.hcl lists them.
    const h1 = await hashV1(join(cache, reg.host, "hashicorp", "random", "3.7.2", CURRENT_PLATFORM));
    const zh = `zh:${(await reg.build("hashicorp", "random", { version: "3.7.2" })).sha256}`;
    expect(JSON.parse(Buffer.from(value!, "base64").toString())).toEqual({ remote: { url: address, version: "3.7.2", hashes: [h1, zh] } });
    expect(cached()).toEqual(["3.7.2"]);
    expect(zipDownloads("3.7.2")).toBe(1);
  }, 600_000);

  it("`pulumi up` runs the version the parameter value pins: 3.7.2 again into an emptied cache, though 3.8.0 is out", async () => {
    reg.setVersions("hashicorp/random", [{ version: "3.6.0" }, { version: "3.7.2" }, { version: "3.8.0" }, { version: "4.0.0" }]);
    rmSync(cache, { recursive: true, force: true });
    const run = async (args: string[], what: string) => expectSuccess(await runPulumi(args, { cwd: project, env, timeoutMs: 600_000 }), what);
    await run(["stack", "init", "dev"], "stack init");
    await run(["up", "--yes"], "up");
    const out = JSON.parse((await run(["stack", "output", "--json"], "stack output")).stdout) as { name: string };
    expect(out.name).toMatch(/^[a-z]+_[a-z]+_[a-z]+$/);
    expect(cached()).toEqual(["3.7.2"]);
    expect(readdirSync(join(cache, reg.host, "hashicorp", "random", "3.7.2")).sort()).toEqual([CURRENT_PLATFORM, `${CURRENT_PLATFORM}.zh`]);
    expect(zipDownloads("3.7.2")).toBe(2);
    expect(zipDownloads("3.8.0")).toBe(0);
    const state = JSON.parse((await run(["stack", "export"], "stack export")).stdout) as { deployment: { resources: { type: string; urn: string }[] } };
    expect(state.deployment.resources.map((r) => r.type)).toContain("random:index/pet:Pet");
    // Everything again with a warm cache and the registry gone: the pinned version needs no network.
    await reg.stop();
    const again = await run(["preview", "--expect-no-changes"], "preview with the registry down");
    expect(again.stdout).not.toMatch(/to create|to update|to replace/);
    await run(["destroy", "--yes"], "destroy");
  }, 900_000);

  it("a cached package that no longer has the SDK's lock hash stops `pulumi preview`, naming both hashes", async () => {
    const exe = join(cache, reg.host, "hashicorp", "random", "3.7.2", CURRENT_PLATFORM, "terraform-provider-random_v3.7.2");
    appendFileSync(exe, Buffer.from([0]));
    const r = await runPulumi(["preview"], { cwd: project, env, timeoutMs: 600_000 });
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    const out = (r.stdout + r.stderr).replace(/\s+/g, " ");
    expect(out).toMatch(/has lock hash h1:\S+, but the SDK was generated from one with h1:\S+/);
    expect(out).toMatch(/regenerate the SDK with `pulumi package add terraform-provider 127\.0\.0\.1:\d+\/hashicorp\/random 3\.7\.2`/);
  }, 600_000);
});
