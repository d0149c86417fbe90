// Faults on a real Docker Engine through the real Pulumi CLI: a must_run container whose command exits at once (what
// the state keeps and what is reported, against OpenTofu on the same engine), the daemon stopped in the middle of
// `pulumi up`, Ctrl-C during a create, and the Terraform provider killed during a create. Each time nothing the
// stack made is lost, no provider or plugin process is left running, and the next `pulumi up` converges.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerMissing, LOCAL_IMAGE, startDocker, type DockerEngine } from "../support/docker.js";
import { pulumiActions, TofuStack, yamlProgram, type Stack } from "../support/docker-tofu.js";
import { sandboxProcesses, waitNoSandboxProcesses } from "../support/e2e.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { processesMatching } from "../support/processes.js";
import { pulumiBinDir } from "../support/pulumi.js";

const sandbox = e2eSandbox();

const container = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "docker_container" as const,
  props: { name: `{p}-${name}`, image: LOCAL_IMAGE, command: ["sleep", "3600"], network_mode: "none", must_run: true, destroy_grace_seconds: 1, restart: "unless-stopped", ...extra },
});

/**
 * A chain: `first` is made at once; `slow` waits (wait = true) for a healthcheck that never passes until its
 * wait_timeout, long enough to act in the middle of its create; `last` waits for `slow`. With `healthy`, the check
 * passes and the chain completes.
 */
const chain = (healthy: boolean): Stack => ({
  first: container("first"),
  slow: {
    ...container("slow", { wait: true, wait_timeout: 120, healthcheck: [{ test: ["CMD", healthy ? "true" : "false"], interval: "1s", timeout: "1s", retries: 1 }] }),
    dependsOn: ["first"],
  },
  last: { ...container("last"), dependsOn: ["slow"] },
});

/**
 * Runs a command (`pulumi up`, `tofu apply`) and calls `act` with it once `ready` says so; returns its exit code and
 * whole output. The tests wait for the container to run on the engine, not for "creating": a create cancelled while
 * its request is on the way may still be carried out by the daemon, with the provider never told the id.
 */
async function interrupted(
  cmd: string[],
  where: { cwd: string; env: NodeJS.ProcessEnv },
  ready: () => Promise<boolean>,
  act: (child: ChildProcess) => Promise<void>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(cmd[0]!, cmd.slice(1), { ...where, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      done = true;
      resolve(code);
    }),
  );
  const until = Date.now() + 120_000;
  while (!(await ready())) {
    if (done || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`${cmd.join(" ")} ended or took too long before the moment to act:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await act(child);
  return { code: await exited, output };
}

const upInterrupted = (s: YamlScenario, ready: () => Promise<boolean>, act: (child: ChildProcess) => Promise<void>) =>
  interrupted([join(pulumiBinDir(), "pulumi"), "--non-interactive", "up", "--yes", "--skip-preview"], { cwd: s.dir, env: s.env }, ready, act);

/** Ctrl-C: SIGINT to the command. */
const interrupt = async (child: ChildProcess): Promise<void> => void child.kill("SIGINT");

/** No Terraform provider and no plugin of this sandbox left running. */
async function nothingRunning(): Promise<void> {
  expect(await waitNoSandboxProcesses(sandbox, peerPath("docker"))).toEqual([]);
  expect(await waitNoSandboxProcesses(sandbox, "pulumi-resource-terraform-provider")).toEqual([]);
}

const skip = dockerMissing();

describe.skipIf(skip)("faults on a real Docker Engine through the Pulumi CLI", () => {
  let engine: DockerEngine;

  beforeAll(async () => {
    engine = await startDocker();
  }, 120_000);
  afterAll(async () => engine?.stop());

  async function scenario(name: string, stack: Stack): Promise<YamlScenario> {
    const s = await YamlScenario.create(sandbox, `docker-${name}`, ["docker"]);
    await s.ok(["config", "set", "docker:host", engine.host]);
    s.program(yamlProgram(stack, name));
    return s;
  }
  const containerNames = async () => (await engine.docker(["ps", "-a", "--format", "{{.Names}}"])).stdout.split("\n").filter((n) => n !== "").sort();
  /**
   * Whether the container runs: its create and its start have both been answered by the daemon, so the provider has
   * its id whatever happens next (it records the id before it starts the container).
   */
  const started = (name: string) => async () => (await engine.docker(["ps", "-q", "--filter", `name=^/${name}$`])).stdout.trim() !== "";
  const running = async (name: string) => (await engine.docker(["inspect", "-f", "{{.State.Running}}", name])).stdout.trim() === "true";
  const inState = (s: YamlScenario) => s.resourceNames();

  /** The chain is up: every container in state under the engine's id, running, and nothing else planned. */
  async function converged(s: YamlScenario, prefix: string): Promise<void> {
    for (const c of ["first", "slow", "last"]) {
      const id = (await engine.docker(["inspect", "-f", "{{.Id}}", `${prefix}-${c}`])).stdout.trim();
      expect((await s.resource(c))?.id, c).toBe(id);
      expect(await running(`${prefix}-${c}`), c).toBe(true);
    }
    await s.ok(["preview", "--expect-no-changes"]);
  }

  it("a must_run container whose command exits at once: applied without error, kept and planned again as OpenTofu does", async () => {
    // attach: the provider waits for the command to end before it reads the container, so that every run reads it
    // stopped (read at once, it may still be running).
    const stack: Stack = { quits: container("quits", { command: ["sh", "-c", "echo bye; exit 3"], restart: "no", attach: true }) };
    const tofu = new TofuStack(scratch("tfbridge-docker-quits-"), engine.host);
    tofu.write(stack);
    const applied = await tofu.run(["apply", "-auto-approve"]);
    const shown = JSON.parse((await tofu.ok(["show", "-json"])).stdout) as { values: { root_module: { resources: { tainted?: boolean; values: Record<string, unknown> }[] } } };
    const theirs = shown.values.root_module.resources[0]!;
    const theirPlan = (await tofu.plan(stack)).changes;
    // What OpenTofu does: no error, the container kept (not tainted) as it stopped, and an update planned every time.
    expect(applied.status, applied.stderr).toBe(0);
    expect(theirs.tainted ?? false).toBe(false);
    expect(theirs.values).toMatchObject({ must_run: false, exit_code: 3 });
    expect(theirPlan).toEqual({ quits: "update" });

    const s = await scenario("quits", stack);
    const up = await s.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.stdout + up.stderr).toBe(applied.status);
    const ours = await s.resource("quits");
    expect(ours?.initErrors ?? []).toEqual([]);
    expect(ours?.outputs).toMatchObject({ mustRun: theirs.values["must_run"], exitCode: theirs.values["exit_code"] });
    expect(ours?.id).toBe((await engine.docker(["inspect", "-f", "{{.Id}}", "quits-quits"])).stdout.trim());
    const preview = await s.preview();
    expect(YamlScenario.op(preview, "quits")).toBe(theirPlan["quits"]);
    expect(YamlScenario.step(preview, "quits")?.diffReasons).toEqual(["mustRun"]);

    await tofu.ok(["destroy", "-auto-approve"]);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    await nothingRunning();
  }, 300_000);

  it("the daemon stopped in the middle of pulumi up: an error naming the socket, what was made kept, the next up converges", async () => {
    const s = await scenario("dstop", chain(false));
    try {
      const { code, output } = await upInterrupted(s, started("dstop-slow"), async () => {
        await engine.stopDaemon!();
      });
      expect(code, output).not.toBe(0);
      expect(output).toContain(engine.socket!);
      expect(output).not.toMatch(OUR_STACK);
      await nothingRunning();
      const state = await s.deployment();
      expect(state.pending_operations ?? []).toEqual([]);
      expect(await inState(s)).toContain("first");
      expect(await inState(s)).not.toContain("last");
      // The container the provider made before the daemon went is kept, as a create that failed part-way.
      expect((await s.resource("slow"))?.initErrors?.join("\n")).toMatch(/creating docker_container failed part-way[^]*Cannot connect to the Docker daemon at unix:\/\/\S+d\.sock/);
    } finally {
      await engine.startDaemon!();
    }
    s.program(yamlProgram(chain(true), "dstop"));
    await s.ok(["up", "--yes", "--skip-preview", "--refresh"]);
    await converged(s, "dstop");
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    await nothingRunning();
  }, 300_000);

  it("Ctrl-C during a create: pulumi cancels, nothing left running, nothing lost, the next up converges", async () => {
    // OpenTofu first: Ctrl-C while its provider waits on the container it made.
    const tofu = new TofuStack(scratch("tfbridge-docker-sigint-"), engine.host);
    tofu.write(chain(false));
    const theirs = await interrupted([tofu.bin, "apply", "-auto-approve", "-no-color", "-input=false"], { cwd: tofu.dir, env: tofu.env }, started("tf-slow"), interrupt);
    expect(theirs.code, theirs.output).not.toBe(0);
    const theirState = JSON.parse((await tofu.ok(["show", "-json"])).stdout) as { values: { root_module: { resources: { name: string; tainted?: boolean }[] } } };
    // It keeps the container it made, tainted: to be replaced by the next apply.
    expect(theirState.values.root_module.resources.map((r) => [r.name, r.tainted ?? false]).sort()).toEqual([
      ["first", false],
      ["slow", true],
    ]);

    const s = await scenario("sigint", chain(false));
    const { code, output } = await upInterrupted(s, started("sigint-slow"), interrupt);
    expect(code, output).not.toBe(0);
    expect(output).toMatch(/\^C received; cancelling/);
    expect(output).not.toMatch(OUR_STACK);
    await nothingRunning();
    expect((await s.deployment()).pending_operations ?? []).toEqual([]);
    expect(await inState(s)).toContain("first");
    // StopProvider ended the create; the container it had made is kept, as a create that failed part-way.
    expect((await s.resource("slow"))?.initErrors?.join("\n")).toMatch(/creating docker_container failed part-way[^]*(container failed to be in healthy state|context canceled)/);

    expect(await inState(s)).toEqual(theirState.values.root_module.resources.map((r) => r.name).sort());

    // Both plan to make it again, and to go on with the rest.
    const theirPlan = (await tofu.plan(chain(false))).changes;
    expect(theirPlan).toEqual({ first: "same", slow: "replace", last: "create" });
    expect(pulumiActions(await s.preview(), chain(false))).toEqual(theirPlan);
    tofu.write(chain(true));
    await tofu.ok(["apply", "-auto-approve"]);
    await tofu.ok(["destroy", "-auto-approve"]);
    s.program(yamlProgram(chain(true), "sigint"));
    await s.ok(["up", "--yes", "--skip-preview", "--refresh"]);
    await converged(s, "sigint");
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    await nothingRunning();
  }, 300_000);

  it("the Terraform provider killed during a create: a clear error, nothing left running, the next up converges", async () => {
    // OpenTofu first: its provider killed while it waits on the container it made.
    const tofu = new TofuStack(scratch("tfbridge-docker-kill-"), engine.host);
    tofu.write(chain(false));
    const theirs = await interrupted([tofu.bin, "apply", "-auto-approve", "-no-color", "-input=false"], { cwd: tofu.dir, env: tofu.env }, started("tf-slow"), async () => {
      const providers = processesMatching(join(tofu.dir, "providers"));
      expect(providers.length).toBeGreaterThan(0);
      for (const pid of providers) process.kill(pid, "SIGKILL");
    });
    expect(theirs.code, theirs.output).not.toBe(0);
    expect(theirs.output).toContain("Plugin did not respond");
    const theirState = JSON.parse((await tofu.ok(["show", "-json"])).stdout) as { values: { root_module: { resources: { name: string }[] } } };
    // It never heard the id of the container its provider made: the state lacks it, the engine has it.
    expect(theirState.values.root_module.resources.map((r) => r.name)).toEqual(["first"]);
    expect(await containerNames()).toContain("tf-slow");
    await engine.docker(["rm", "-f", "tf-slow"]);
    await tofu.ok(["destroy", "-auto-approve"]);

    const s = await scenario("kill", chain(false));
    const { code, output } = await upInterrupted(s, started("kill-slow"), async () => {
      const providers = sandboxProcesses(sandbox, peerPath("docker"));
      expect(providers.length).toBeGreaterThan(0);
      for (const p of providers) process.kill(p.pid, "SIGKILL");
    });
    expect(code, output).not.toBe(0);
    expect(output).not.toMatch(OUR_STACK);
    await nothingRunning();
    expect((await s.deployment()).pending_operations ?? []).toEqual([]);
    expect(await inState(s)).toContain("first");
    // The provider died before it could answer with the id of the container it had made: nobody knows it but the
    // engine, and the error says how to adopt it.
    expect(output).toMatch(/terraform-provider-docker was killed by SIGKILL during ApplyResourceChange/);
    expect(output).toContain("adopt it with `pulumi import docker:index/container:Container slow <id>`");
    expect(await inState(s)).toEqual(theirState.values.root_module.resources.map((r) => r.name));
    expect(await containerNames()).toContain("kill-slow");
    const id = (await engine.docker(["inspect", "-f", "{{.Id}}", "kill-slow"])).stdout.trim();
    await s.ok(["import", "docker:index/container:Container", "slow", id, "--yes", "--protect=false", "--generate-code=false"]);
    expect((await s.resource("slow"))?.id).toBe(id);

    s.program(yamlProgram(chain(true), "kill"));
    await s.ok(["up", "--yes", "--skip-preview", "--refresh"]);
    await converged(s, "kill");
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    await nothingRunning();
  }, 300_000);

  it("leaves the engine as it found it: every container the runs made is gone after their destroys", async () => {
    expect(await engine.leftovers()).toMatchObject({ containers: [], volumes: [], networks: [] });
  });
});
