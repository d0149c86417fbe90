// Drift on a real Docker Engine through the real Pulumi CLI, judged by OpenTofu on the same engine: one stack applied
// by `tofu apply` (names tf-…) and by `pulumi up` (names pu-…), then changed behind both (a container removed, one
// stopped, one renamed, one recreated with another label, a volume removed); `pulumi refresh` must find what `tofu
// plan -refresh-only` finds and `pulumi preview` plan what `tofu plan` plans, resource by resource, and `pulumi up`
// must converge. Also what is unknown at plan when a container's values come from a volume of the same plan.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerMissing, LOCAL_IMAGE, startDocker, type DockerEngine } from "../support/docker.js";
import { pulumiActions, pulumiPath, pulumiUnknownPaths, ref, TofuStack, unknownPaths, yamlProgram, type Stack } from "../support/docker-tofu.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const container = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "docker_container" as const,
  props: { name: `{p}-${name}`, image: LOCAL_IMAGE, command: ["sleep", "3600"], network_mode: "none", must_run: true, destroy_grace_seconds: 1, ...extra },
});

/**
 * Every kind of drift on its own object. `fromvol` mounts a volume of the same plan and carries a label whose value
 * is the volume's mountpoint, which the engine chooses: unknown until the volume exists.
 */
const STACK: Stack = {
  data: { type: "docker_volume", props: { name: "{p}-data" } },
  spare: { type: "docker_volume", props: { name: "{p}-spare" } },
  fromvol: container("fromvol", { mounts: [{ target: "/data", source: ref("data", "name"), type: "volume" }], labels: [{ label: "mountpoint", value: ref("data", "mountpoint") }] }),
  gone: container("gone"),
  stopped: container("stopped"),
  renamed: container("renamed"),
  relabeled: container("relabeled", { labels: [{ label: "tier", value: "one" }] }),
  untouched: container("untouched"),
};

const skip = dockerMissing();

describe.skipIf(skip)("drift on a real Docker Engine: Pulumi finds and repairs what OpenTofu finds and repairs", () => {
  let engine: DockerEngine;
  let tofu: TofuStack;
  let pulumi: YamlScenario;

  beforeAll(async () => {
    engine = await startDocker();
    tofu = new TofuStack(scratch("tfbridge-docker-drift-tofu-"), engine.host);
    tofu.write(STACK);
    pulumi = await YamlScenario.create(sandbox, "docker-drift", ["docker"]);
    await pulumi.ok(["config", "set", "docker:host", engine.host]);
    pulumi.program(yamlProgram(STACK));
  }, 600_000);
  afterAll(async () => engine?.stop());

  const running = async (name: string) => (await engine.docker(["inspect", "-f", "{{.State.Running}}", name])).stdout.trim() === "true";

  it("plans as unknown what OpenTofu plans as unknown when a container's values come from a volume of the same plan", async () => {
    const theirs = await tofu.plan(STACK);
    expect(Object.values(theirs.changes).every((a) => a === "create")).toBe(true);
    const change = theirs.json.resource_changes!.find((r) => r.address === "docker_container.fromvol")!.change;
    // Only the configured values that come from the volume are compared: the rest of after_unknown is computed
    // attributes, which a Pulumi preview of a create does not list.
    const configured = unknownPaths(change.after_unknown).filter((p) => /^(labels|mounts)\[/.test(p));
    expect(configured).toEqual(["labels[0].value"]);
    expect(change.after).toMatchObject({ mounts: [{ source: "tf-data" }] });

    const preview = await pulumi.preview();
    const inputs = YamlScenario.step(preview, "fromvol")?.newState?.inputs;
    expect(pulumiUnknownPaths(inputs)).toEqual(configured.map(pulumiPath));
    expect(inputs).toMatchObject({ mounts: [{ source: "pu-data" }] });
  }, 300_000);

  it("reports the drift OpenTofu reports, plans the repairs it plans, and converges", async () => {
    await tofu.ok(["apply", "-auto-approve"]);
    await pulumi.up();
    // A first refresh on each side settles what the provider reads back differently from what it wrote (empty maps
    // for null), so that the comparison below sees only the drift made by hand.
    await tofu.ok(["apply", "-refresh-only", "-auto-approve"]);
    await pulumi.ok(["refresh", "--yes", "--skip-preview"]);
    expect(pulumiActions(await pulumi.preview(), STACK)).toEqual((await tofu.plan(STACK)).changes);

    const ids: Record<string, string> = {};
    for (const p of ["tf", "pu"]) {
      ids[`${p}-relabeled`] = (await engine.docker(["inspect", "-f", "{{.Id}}", `${p}-relabeled`])).stdout.trim();
      await engine.docker(["rm", "-f", `${p}-gone`]);
      await engine.docker(["stop", "-t", "1", `${p}-stopped`]);
      await engine.docker(["volume", "rm", `${p}-spare`]);
      await engine.docker(["rename", `${p}-renamed`, `${p}-renamed-by-hand`]);
      // Docker cannot change a live container's labels: the container is made again under its name, as a user would.
      await engine.docker(["rm", "-f", `${p}-relabeled`]);
      await engine.docker(["run", "-d", "--name", `${p}-relabeled`, "--network", "none", "--label", "tier=two", LOCAL_IMAGE, "sleep", "3600"]);
    }

    const theirDrift = (await tofu.plan(STACK, true)).drift;
    expect(theirDrift).toEqual({ data: "same", spare: "delete", fromvol: "same", gone: "delete", stopped: "update", renamed: "update", relabeled: "delete", untouched: "same" });
    const refreshPreview = await pulumi.ok(["refresh", "--preview-only", "--json"]);
    expect(pulumiActions(JSON.parse(refreshPreview.stdout), STACK)).toEqual(theirDrift);

    // Both take the refresh into their state, then plan the repairs.
    await tofu.ok(["apply", "-refresh-only", "-auto-approve"]);
    await pulumi.ok(["refresh", "--yes", "--skip-preview"]);
    expect(await pulumi.resource("gone")).toBeUndefined();
    expect((await pulumi.resource("stopped"))?.outputs?.["mustRun"]).toBe(false);
    const theirPlan = (await tofu.plan(STACK)).changes;
    expect(theirPlan).toEqual({ data: "same", spare: "create", fromvol: "same", gone: "create", stopped: "update", renamed: "replace", relabeled: "create", untouched: "same" });
    const preview = await pulumi.preview();
    expect(pulumiActions(preview, STACK)).toEqual(theirPlan);
    expect(YamlScenario.step(preview, "stopped")?.diffReasons).toEqual(["mustRun"]);
    expect(YamlScenario.step(preview, "renamed")?.replaceReasons).toEqual(["name"]);

    // The container made again by hand holds the name: both fail to create theirs, with the engine's words.
    const tofuApplied = await tofu.run(["apply", "-auto-approve"]);
    expect(tofuApplied.status).not.toBe(0);
    expect(tofuApplied.stderr).toContain('Conflict. The container name "/tf-relabeled" is already in use');
    const up = await pulumi.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.stdout + up.stderr).not.toBe(0);
    expect(up.stdout + up.stderr).toContain('Conflict. The container name "/pu-relabeled" is already in use');
    // Everything else was repaired by both, the same way.
    expect(pulumiActions(await pulumi.preview(), STACK)).toEqual((await tofu.plan(STACK)).changes);

    // The user removes the stray container; both converge: nothing planned, every object back and running.
    for (const p of ["tf", "pu"]) await engine.docker(["rm", "-f", `${p}-relabeled`]);
    await tofu.ok(["apply", "-auto-approve"]);
    await pulumi.up();
    expect((await tofu.run(["plan", "-detailed-exitcode"])).status).toBe(0);
    await pulumi.ok(["preview", "--expect-no-changes"]);
    await pulumi.ok(["refresh", "--yes", "--expect-no-changes"]);
    for (const p of ["tf", "pu"]) {
      for (const c of ["fromvol", "gone", "stopped", "renamed", "relabeled", "untouched"]) expect(await running(`${p}-${c}`), `${p}-${c}`).toBe(true);
      expect((await engine.docker(["volume", "inspect", "-f", "{{.Name}}", `${p}-spare`])).stdout.trim()).toBe(`${p}-spare`);
      expect((await engine.docker(["inspect", "-f", "{{.Config.Labels.tier}}", `${p}-relabeled`])).stdout.trim()).toBe("one");
      expect((await engine.docker(["inspect", "-f", "{{.Id}}", `${p}-relabeled`])).stdout.trim()).not.toBe(ids[`${p}-relabeled`]);
    }
    // The state holds the engine's new ids.
    expect((await pulumi.resource("gone"))?.id).toBe((await engine.docker(["inspect", "-f", "{{.Id}}", "pu-gone"])).stdout.trim());

    await tofu.ok(["destroy", "-auto-approve"]);
    await pulumi.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await pulumi.resourceNames()).toEqual([]);
    expect(await engine.leftovers()).toMatchObject({ containers: [], volumes: [] });
  }, 600_000);
});
