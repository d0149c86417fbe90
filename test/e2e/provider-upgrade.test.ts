// Upgrading the Terraform provider under a live stack, with the real Pulumi CLI and a registry on 127.0.0.1 serving two
// releases of bridgetest: 1.0.0, whose bridgetest_versioned is at schema version 0 (`title`), and 2.0.0, at version 1
// (`title` renamed `name`, with an upgrader). `package add` of 2.0.0, `pulumi up` and `pulumi refresh` upgrade the
// state: no change planned, the id kept, the state at the new schema version and the lock hash moving with the value;
// going back to 1.0.0 is refused, naming both schema versions and the command that goes back to a newer release.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxWithPlugin } from "../support/e2e.js";
import { peerPath } from "../support/peers.js";
import { expectSuccess, runPulumi, tempDir, type PulumiSandbox } from "../support/pulumi.js";
import { FakeRegistry } from "../support/registry-server.js";

let sandbox: PulumiSandbox;
let reg: FakeRegistry;
let work: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = sandboxWithPlugin();
  work = tempDir("tfbridge-e2e-upgrade-");
  // Release 1.0.0: the same provider binary, told to serve bridgetest_versioned as its schema version 0 did.
  const old = join(work, "terraform-provider-bridgetest-1.0.0");
  writeFileSync(old, `#!/bin/sh\nBRIDGETEST_VERSIONED_SCHEMA=0 exec '${peerPath("bridgetest")}' "$@"\n`);
  chmodSync(old, 0o755);
  reg = await FakeRegistry.start({
    providers: { "bridge/bridgetest": [{ version: "1.0.0", binary: old, protocols: ["6.0"] }, { version: "2.0.0", protocols: ["6.0"] }] },
    binaries: { bridgetest: peerPath("bridgetest") },
  });
  project = join(work, "project");
  mkdirSync(project);
  env = { ...sandbox.env, NODE_EXTRA_CA_CERTS: reg.caFile, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(work, "cache"), BRIDGETEST_STATE_DIR: join(work, "state") };
}, 1_200_000);

afterAll(async () => {
  await reg?.stop();
  sandbox?.cleanup();
  if (work) rmSync(work, { recursive: true, force: true });
});

const run = async (args: string[], what: string) => expectSuccess(await runPulumi(args, { cwd: project, env, timeoutMs: 600_000 }), what);

function program(label: "title" | "name"): void {
  const yaml = readFileSync(join(project, "Pulumi.yaml"), "utf8").replace(/\nresources:[\s\S]*$/, "");
  writeFileSync(
    join(project, "Pulumi.yaml"),
    `${yaml}\nresources:\n  thing:\n    type: bridgetest:index/versioned:Versioned\n    properties:\n      ${label}: hello\n      size: 3\noutputs:\n  id: \${thing.id}\n`,
  );
}

interface Exported {
  deployment: { resources: { type: string; id?: string; outputs?: Record<string, unknown>; inputs?: Record<string, unknown> }[] };
}
const thing = async () => {
  const state = JSON.parse((await run(["stack", "export"], "stack export")).stdout) as Exported;
  return state.deployment.resources.find((r) => r.type === "bridgetest:index/versioned:Versioned")!;
};
const schemaVersion = (r: { outputs?: Record<string, unknown> }): string => (JSON.parse(String(r.outputs?.["__meta"])) as { schema_version: string }).schema_version;
const lockValue = (version: string): { remote: { version: string; hashes: string[] } } => {
  const lock = readFileSync(join(project, "sdks", "bridgetest", `bridgetest-${version}.yaml`), "utf8");
  return JSON.parse(Buffer.from(/value: (\S+)/.exec(lock)![1]!, "base64").toString()) as { remote: { version: string; hashes: string[] } };
};

describe("upgrading the Terraform provider under a live stack", () => {
  it("a stack made with 1.0.0 moves to 2.0.0: state upgraded by the provider, no change planned, id kept", async () => {
    writeFileSync(join(project, "Pulumi.yaml"), "name: tfupgrade\nruntime: yaml\n");
    const address = `${reg.host}/bridge/bridgetest`;
    await run(["package", "add", "terraform-provider", address, "1.0.0"], "package add 1.0.0");
    const v1 = lockValue("1.0.0");
    program("title");
    await run(["stack", "init", "dev"], "stack init");
    await run(["up", "--yes"], "up with 1.0.0");
    const before = await thing();
    expect(before.id).toBe("versioned-hello");
    expect(before.outputs).toMatchObject({ title: "hello", size: 3 });
    expect(schemaVersion(before)).toBe("0");

    await run(["package", "add", "terraform-provider", address, "2.0.0"], "package add 2.0.0");
    expect(readFileSync(join(project, "Pulumi.yaml"), "utf8")).toMatch(/- 2\.0\.0/);
    const v2 = lockValue("2.0.0");
    expect(v2.remote.version).toBe("2.0.0");
    // The lock hash moves with the value: another package, another h1:.
    expect(v2.remote.hashes.find((h) => h.startsWith("h1:"))).not.toBe(v1.remote.hashes.find((h) => h.startsWith("h1:")));
    program("name");
    // The old state, upgraded by 2.0.0's upgrader (title → name), plans no change against the renamed program.
    const preview = JSON.parse((await run(["preview", "--expect-no-changes", "--json"], "preview with 2.0.0")).stdout) as { steps?: { op: string; urn: string }[] };
    expect((preview.steps ?? []).filter((s) => s.urn.endsWith("::thing") && s.op !== "same")).toEqual([]);
    // `up` binds the resource to the 2.0.0 provider (its refresh still ran with 1.0.0, which the state named); the
    // refresh after it reads the resource with 2.0.0, which stores it at its own schema version.
    await run(["up", "--yes"], "up with 2.0.0");
    expect((await thing()).outputs).toMatchObject({ title: "hello" });
    await run(["refresh", "--yes"], "refresh with 2.0.0");
    const after = await thing();
    expect(after.id).toBe("versioned-hello");
    expect(after.outputs).toMatchObject({ name: "hello", size: 3 });
    expect(after.outputs).not.toHaveProperty("title");
    expect(schemaVersion(after)).toBe("1");
    await run(["preview", "--expect-no-changes"], "preview after the upgrade");
  }, 900_000);

  it("going back to 1.0.0 is refused, naming both schema versions and the command that goes back to a newer release", async () => {
    await run(["package", "add", "terraform-provider", `${reg.host}/bridge/bridgetest`, "1.0.0"], "package add 1.0.0 again");
    program("title");
    const r = await runPulumi(["preview"], { cwd: project, env, timeoutMs: 600_000 });
    expect(r.code).not.toBe(0);
    const out = (r.stdout + r.stderr).replace(/\s+/g, " ");
    expect(out).toContain("the stored state of bridgetest_versioned versioned-hello was written with its schema version 1, but bridgetest 1.0.0 knows schema version 0 at most");
    // The command it names, run as printed, goes back to the newest release after 1.0.0: 2.0.0.
    const command = /Go back to a newer release: `pulumi package add terraform-provider (\S+) "> 1\.0\.0"` takes the newest release after 1\.0\.0/.exec(out);
    expect(command?.[1]).toBe(`${reg.host}/bridge/bridgetest`);
    // Where it says the release the stack last used is recorded: the provider resource that 2.0.0 wrote.
    const exported = JSON.parse((await run(["stack", "export"], "stack export")).stdout) as Exported;
    expect(exported.deployment.resources.filter((r) => r.type === "pulumi:providers:bridgetest").map((r) => r.inputs?.["version"])).toContain("2.0.0");
    expect(existsSync(join(project, "sdks", "bridgetest", "bridgetest-2.0.0.yaml"))).toBe(false);
    await run(["package", "add", "terraform-provider", command![1]!, "> 1.0.0"], "package add as the refusal says");
    expect(lockValue("2.0.0").remote.version).toBe("2.0.0");
    program("name");
    await run(["destroy", "--yes"], "destroy");
  }, 900_000);
});
