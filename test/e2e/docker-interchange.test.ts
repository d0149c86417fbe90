// A 10-container Docker stack (each container with a volume of its own, test/support/docker-stack.ts) on a real Docker
// Engine, moved between the reference bridge and our plugin the way docs/interchange.md says (the same stack, the
// plugin swapped; test/support/interchange.ts): the reference makes it; ours takes it over and plans no change, and
// after ours has refreshed it and replaced one container (so the state holds what ours wrote and made) the reference
// takes it back and plans no change either. Every id stays, the engine keeps the same containers running throughout,
// and destroy leaves nothing on the engine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerMissing, startDocker, type DockerEngine } from "../support/docker.js";
import { CONTAINER_TOKEN, VOLUME_TOKEN, containerName, dockerStackYaml } from "../support/docker-stack.js";
import type { ExportedResource } from "../support/e2e.js";
import { interchangeSandbox, servedBy, usePlugin, type PluginKind } from "../support/interchange.js";
import { removeScratch, YamlScenario, type PreviewJson } from "../support/lifecycle.js";
import type { PulumiSandbox } from "../support/pulumi.js";

const N = 10;
const PREFIX = "itc-dk";
/** Container 0 runs another command after ours takes the stack over: a replacement made by ours. */
const REPLACED = 0;
const program = (version: 1 | 2): string => dockerStackYaml(N, PREFIX, (i) => (version === 2 && i === REPLACED ? 3601 : 3600));

/** The stack's containers and volumes: name → id. */
function idsOf(resources: ExportedResource[]): Record<string, string | undefined> {
  const ids: Record<string, string | undefined> = {};
  for (const r of resources) if (r.type === CONTAINER_TOKEN || r.type === VOLUME_TOKEN) ids[r.urn.split("::").pop()!] = r.id;
  return ids;
}

/** Operations other than `same` that a preview plans, by resource name (`preview --json` leaves unchanged ones out). */
function changes(preview: PreviewJson): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of preview.steps ?? []) if (s.op !== "same") (out[s.urn.split("::").pop()!] ??= []).push(s.op);
  return out;
}

const skip = dockerMissing();

describe.skipIf(skip).sequential(`a ${N}-container Docker stack moved from the reference to our plugin and back`, () => {
  let engine: DockerEngine;
  let sandbox: PulumiSandbox;
  let s: YamlScenario;
  let ids: Record<string, string | undefined> = {};

  /** Container ids the engine runs under the stack's names, by name. */
  async function running(): Promise<Record<string, string>> {
    const out = (await engine.docker(["ps", "--no-trunc", "--filter", `name=^${PREFIX}-c`, "--format", "{{.Names}} {{.ID}}"])).stdout;
    return Object.fromEntries(out.split("\n").filter((l) => l !== "").map((l) => l.split(" ") as [string, string]));
  }

  /** What the engine runs is what the stack says: every container by its id in state. */
  async function expectEngineMatchesStack(): Promise<void> {
    const expected: Record<string, string> = {};
    for (let i = 0; i < N; i++) expected[containerName(PREFIX, i)] = ids[`c${i}`]!;
    expect(await running()).toEqual(expected);
  }

  /** The plugin `kind` serves a preview that plans no change at all (--expect-no-changes, and no step but `same`). */
  async function expectNoChange(kind: PluginKind): Promise<void> {
    const debug = await s.ok(["preview", "--expect-no-changes", "--debug"]);
    expect(servedBy(debug.stdout + debug.stderr, "docker")).toBe(kind);
    expect(changes(await s.preview())).toEqual({});
  }

  beforeAll(async () => {
    engine = await startDocker();
    sandbox = await interchangeSandbox("reference");
    s = await YamlScenario.create(sandbox, "itc-docker", ["docker"]);
    await s.ok(["config", "set", "docker:host", engine.host]);
    s.program(program(1));
  }, 600_000);

  afterAll(async () => {
    if (s !== undefined && (await s.resourceNames().catch(() => [])).length > 0) await s.pulumi(["destroy", "--yes"]);
    sandbox?.cleanup();
    await engine?.stop();
    removeScratch();
  }, 300_000);

  it("the reference makes the stack", async () => {
    const debug = await s.ok(["up", "--yes", "--skip-preview", "--debug"]);
    expect(servedBy(debug.stdout + debug.stderr, "docker")).toBe("reference");
    ids = idsOf(await s.resources());
    expect(Object.keys(ids)).toHaveLength(2 * N);
    for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/\S/);
    await expectEngineMatchesStack();
  }, 300_000);

  it("our plugin takes it over: no change planned", async () => {
    await usePlugin(sandbox, "ours");
    await expectNoChange("ours");
  }, 300_000);

  it("our plugin refreshes it: every id kept, nothing changed, still no change planned", async () => {
    const refreshed = await s.changes("refresh");
    expect(Object.keys(refreshed).filter((op) => op !== "same")).toEqual([]);
    expect(idsOf(await s.resources())).toEqual(ids);
    await expectNoChange("ours");
  }, 300_000);

  it("our plugin replaces one container (a new command) and nothing else", async () => {
    s.program(program(2));
    expect(changes(await s.preview())).toEqual({ [`c${REPLACED}`]: ["replace"] });
    await s.up();
    const after = idsOf(await s.resources());
    for (const [name, id] of Object.entries(ids)) {
      if (name === `c${REPLACED}`) expect(after[name], name).not.toBe(id);
      else expect(after[name], name).toBe(id);
    }
    ids = after;
    await expectEngineMatchesStack();
    await expectNoChange("ours");
  }, 300_000);

  it("the reference takes it back: no change planned, before and after its own refresh", async () => {
    await usePlugin(sandbox, "reference");
    await expectNoChange("reference");
    const refreshed = await s.changes("refresh");
    expect(Object.keys(refreshed).filter((op) => op !== "same")).toEqual([]);
    expect(idsOf(await s.resources())).toEqual(ids);
    await expectNoChange("reference");
    await expectEngineMatchesStack();
  }, 300_000);

  it("destroy leaves no container or volume on the engine", async () => {
    await s.ok(["destroy", "--yes", "--skip-preview"]);
    expect(await s.resourceNames()).toEqual([]);
    const left = await engine.leftovers();
    expect({ containers: left.containers, volumes: left.volumes }).toEqual({ containers: [], volumes: [] });
  }, 300_000);
});
