// The Docker provider (kreuzwerker/docker, pins.json "infrastructure") on a real Docker Engine, judged by OpenTofu on
// the same engine: each case's configuration is applied, changed, refreshed and imported by `tofu` (then destroyed),
// and the same steps run through our plugin's gRPC as the engine calls them (test/crosstest/replay.ts); planned actions
// and unknowns, the state after each apply (ids aside), the refresh, the import by id and the errors must agree.
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Golden, PeerCase, Value } from "../crosstest/corpus.js";
import { reconcile, type ListedDifference } from "../crosstest/differences.js";
import { blockNode } from "../crosstest/paths.js";
import { record } from "../crosstest/record-tofu.js";
import { Replayer, type Disagreement, type ReplayResult } from "../crosstest/replay.js";
import { LOCAL_IMAGE, dockerMissing, startDocker, type DockerEngine } from "../support/docker.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { execAsync, processAlive, spawnAsync } from "../support/processes.js";
import { devOverridesEnv } from "../support/terraform-cli.js";
import { tempDir } from "../support/temp.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import type { ProviderSchema } from "../../src/terraform/types.js";

/** A volume made outside the cases, which containers mount. */
const FIXTURE_VOLUME = "tfo-fixture";
/** An internal network made outside the cases, which a container joins. */
const FIXTURE_NETWORK = "tfo-fixture-net";
/** A host folder a container bind-mounts read-only (made with the engine, the same path for both). */
let hostFolder = "";
/** An image no registry serves: its pull goes to a closed port on loopback and fails. */
const MISSING_IMAGE = "127.0.0.1:9/tfo-missing:1";

type Config = Record<string, Value>;

function dockerCase(shape: string, scenario: string, config1: Config, config2: Config, volatile: string[] = []): PeerCase {
  return { id: `${shape}.${scenario}`, flavour: "peers", peer: "docker", family: "docker", shape, scenario, config1, config2, volatile };
}

const label = (k: string, v: string) => ({ label: k, value: v });

/** A container that runs until stopped, with no network, mounting the fixture volume; `extra` adds or overrides. */
function container(name: string, extra: Config = {}): Config {
  return {
    name,
    image: LOCAL_IMAGE,
    command: ["sleep", "3600"],
    env: ["A=1"],
    labels: [label("case", name)],
    network_mode: "none",
    must_run: true,
    mounts: [{ target: "/data", source: FIXTURE_VOLUME, type: "volume" }],
    ...extra,
  };
}

/**
 * A container using most of what the issue lists: an entrypoint, a tmpfs mount beside the volume, an uploaded file, a
 * healthcheck, a restart policy, dropped capabilities, a ulimit, log options and a destroy grace period.
 */
function richContainer(name: string, extra: Config = {}): Config {
  return container(name, {
    entrypoint: ["/bin/sh", "-c"],
    command: ["sleep 3600"],
    mounts: [
      { target: "/data", source: FIXTURE_VOLUME, type: "volume" },
      { target: "/scratch", type: "tmpfs", tmpfs_options: [{ size_bytes: 1048576 }] },
    ],
    upload: [{ file: "/etc/greeting", content: "hello" }],
    healthcheck: [{ test: ["CMD", "true"], interval: "5s", timeout: "2s", retries: 3 }],
    restart: "unless-stopped",
    // Docker reads a capability back with its CAP_ prefix: written without it, Terraform replaces the container on every plan.
    capabilities: [{ drop: ["CAP_NET_RAW"] }],
    ulimit: [{ name: "nofile", soft: 256, hard: 512 }],
    log_opts: { "max-size": "1m" },
    destroy_grace_seconds: 1,
    ...extra,
  });
}

/** `hostname` defaults to the container's id, which the engine chooses. */
const CONTAINER_VOLATILE = ["hostname"];

let cases: PeerCase[] = [
  dockerCase("docker_image", "local-kept", { name: LOCAL_IMAGE, keep_locally: true }, { name: LOCAL_IMAGE, keep_locally: true }),
  dockerCase("docker_image", "triggers-changed", { name: LOCAL_IMAGE, keep_locally: true, triggers: { a: "1" } }, { name: LOCAL_IMAGE, keep_locally: true, triggers: { a: "2" } }),
  dockerCase("docker_image", "not-in-any-registry", { name: MISSING_IMAGE, keep_locally: true }, { name: MISSING_IMAGE, keep_locally: true }),
  dockerCase(
    "docker_volume",
    "labels-driver-opts-unchanged",
    { name: "tfo-vol-same", labels: [label("a", "1")], driver_opts: { type: "tmpfs", device: "tmpfs", o: "size=1m" } },
    { name: "tfo-vol-same", labels: [label("a", "1")], driver_opts: { type: "tmpfs", device: "tmpfs", o: "size=1m" } },
  ),
  dockerCase("docker_volume", "label-changed", { name: "tfo-vol-label", labels: [label("a", "1")] }, { name: "tfo-vol-label", labels: [label("a", "2"), label("b", "3")] }),
  dockerCase(
    "docker_network",
    "internal-labels",
    { name: "tfo-net-same", internal: true, labels: [label("a", "1")], ipam_config: [{ subnet: "10.251.1.0/24" }] },
    { name: "tfo-net-same", internal: true, labels: [label("a", "1")], ipam_config: [{ subnet: "10.251.1.0/24" }] },
  ),
  dockerCase(
    "docker_network",
    "label-changed",
    { name: "tfo-net-label", internal: true, labels: [label("a", "1")], ipam_config: [{ subnet: "10.251.2.0/24" }] },
    { name: "tfo-net-label", internal: true, labels: [label("a", "2")], ipam_config: [{ subnet: "10.251.2.0/24" }] },
  ),
  dockerCase("docker_container", "unchanged", container("tfo-c-same"), container("tfo-c-same"), CONTAINER_VOLATILE),
  // Terraform updates a container's restart policy in place (docker update).
  dockerCase("docker_container", "restart-in-place", container("tfo-c-restart"), container("tfo-c-restart", { restart: "on-failure", max_retry_count: 2 }), CONTAINER_VOLATILE),
  // A new command or environment replaces the container.
  dockerCase("docker_container", "command-replaces", container("tfo-c-command"), container("tfo-c-command", { command: ["sleep", "3601"], env: ["A=2"] }), CONTAINER_VOLATILE),
  dockerCase("docker_volume", "renamed", { name: "tfo-vol-a", labels: [label("a", "1")] }, { name: "tfo-vol-b", labels: [label("a", "1")] }),
  dockerCase(
    "docker_network",
    "options",
    { name: "tfo-net-opts", internal: true, options: { "com.docker.network.bridge.enable_icc": "false" }, ipam_config: [{ subnet: "10.251.3.0/24", gateway: "10.251.3.1" }] },
    { name: "tfo-net-opts", internal: true, options: { "com.docker.network.bridge.enable_icc": "true" }, ipam_config: [{ subnet: "10.251.3.0/24", gateway: "10.251.3.1" }] },
  ),
  dockerCase(
    "docker_container",
    "internal-network",
    container("tfo-c-net", { network_mode: FIXTURE_NETWORK, networks_advanced: [{ name: FIXTURE_NETWORK, aliases: ["one"] }] }),
    container("tfo-c-net", { network_mode: FIXTURE_NETWORK, networks_advanced: [{ name: FIXTURE_NETWORK, aliases: ["one", "two"] }] }),
    [...CONTAINER_VOLATILE, "network_data"],
  ),
  // tmpfs options are neither force-new nor updated by the provider: Terraform plans the update after every apply too.
  dockerCase(
    "docker_container",
    "bind-tmpfs-user",
    container("tfo-c-bind", { volumes: [{ host_path: "{host}", container_path: "/host", read_only: true }], tmpfs: { "/run": "size=1m" }, working_dir: "/tmp", user: "1000:1000", hostname: "tfo-host", stop_signal: "SIGINT", stop_timeout: 1 }),
    container("tfo-c-bind", { volumes: [{ host_path: "{host}", container_path: "/host", read_only: true }], tmpfs: { "/run": "size=2m" }, working_dir: "/tmp", user: "1000:1000", hostname: "tfo-host", stop_signal: "SIGINT", stop_timeout: 1 }),
  ),
  dockerCase("docker_container", "created-not-started", container("tfo-c-stopped", { start: false, must_run: false }), container("tfo-c-stopped", { start: false, must_run: false, labels: [label("case", "x")] }), CONTAINER_VOLATILE),
  dockerCase("docker_container", "rich-unchanged", richContainer("tfo-c-rich"), richContainer("tfo-c-rich"), CONTAINER_VOLATILE),
  dockerCase("docker_container", "rich-upload-replaces", richContainer("tfo-c-upload"), richContainer("tfo-c-upload", { upload: [{ file: "/etc/greeting", content: "bye" }] }), CONTAINER_VOLATILE),
  // Only state changes: the provider reads the grace period at delete.
  dockerCase("docker_container", "rich-grace-in-place", richContainer("tfo-c-grace"), richContainer("tfo-c-grace", { destroy_grace_seconds: 2 }), CONTAINER_VOLATILE),
  // The provider's own flaw: healthcheck is force-new as a block but its fields are not, so Terraform plans an update
  // that the provider's Update ignores, and plans it again after every apply. Ours must plan the same.
  dockerCase(
    "docker_container",
    "rich-healthcheck-never-applied",
    richContainer("tfo-c-health"),
    richContainer("tfo-c-health", { healthcheck: [{ test: ["CMD", "true"], interval: "7s", timeout: "2s", retries: 4 }] }),
    CONTAINER_VOLATILE,
  ),
];

/** Data sources read by both on objects made outside them; `missing` names an object the engine does not have. */
const DATA_NETWORK = "tfo-net-data";
const dataReads: { name: string; type: string; args: Config; missing?: boolean }[] = [
  { name: "image", type: "docker_image", args: { name: LOCAL_IMAGE } },
  { name: "network", type: "docker_network", args: { name: DATA_NETWORK } },
  { name: "missing_network", type: "docker_network", args: { name: "tfo-no-such-net" }, missing: true },
];

/** OpenTofu's reading of each data source (its state's values), or its error, one `tofu apply` per read. */
async function tofuReads(host: string): Promise<Map<string, { value: Config } | { error: string }>> {
  const out = new Map<string, { value: Config } | { error: string }>();
  for (const d of dataReads) {
    const dir = tempDir(`tfo-docker-data-${d.name}-`);
    const env = devOverridesEnv(dir, { "kreuzwerker/docker": "docker" });
    const config = { terraform: { required_providers: { docker: { source: "kreuzwerker/docker" } } }, provider: { docker: { host } }, data: { [d.type]: { [d.name]: d.args } } };
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(config, null, 1));
    const tofu = realpathSync(join(repoRoot, ".peers", "tofu"));
    const applied = await spawnAsync(tofu, ["apply", "-auto-approve", "-no-color", "-input=false"], { cwd: dir, env });
    if (applied.status !== 0) {
      out.set(d.name, { error: applied.stderr });
      continue;
    }
    const shown = JSON.parse((await execAsync(tofu, ["show", "-json"], { cwd: dir, env })).stdout) as { values: { root_module: { resources: { address: string; values: Config }[] } } };
    out.set(d.name, { value: shown.values.root_module.resources.find((r) => r.address === `data.${d.type}.${d.name}`)!.values });
  }
  return out;
}

/**
 * healthcheck is an optional+computed block of at most one element, one flattened property in Pulumi (as the reference
 * makes it), which cannot tell no block (null) from an empty list: replacing a container without one, Terraform's prior
 * state holds [] and it plans the healthcheck unknown, an update; ours goes from nothing to unknown, an add. Only this
 * exact disagreement is excused, on any container.
 */
const HEALTHCHECK_FLATTENED = 'missing ["healthcheck:update"], extra ["healthcheck[0]:add"]';
const excused = (d: Disagreement): boolean => d.kind === "detailed-diff" && d.id.startsWith("docker_container.") && d.detail === HEALTHCHECK_FLATTENED;

/** Disagreements that are not ours to fix, with their reasons (as test/crosstest/differences.json lists the corpus's). */
const listed: ListedDifference[] = [
  {
    flavour: "peers",
    kind: "output-diff",
    cases: ".*",
    reason: "Computed-only attributes (image ids, a container's network data) are outputs in Pulumi, not part of the detailed diff (as for every peer).",
  },
  {
    flavour: "peers",
    kind: "replace-order",
    cases: "docker_volume\\.renamed",
    reason: "Pulumi creates the replacement first when its name differs (no collision), Terraform deletes first; with the same name ours deletes first too.",
  },
];

async function providerSchema(): Promise<ProviderSchema> {
  const p = await GrpcTerraformProvider.launch({ path: peerPath("docker") });
  try {
    return await p.getProviderSchema();
  } finally {
    await p.close();
  }
}

const skip = dockerMissing();

describe.skipIf(skip)("the Docker provider on a real engine, judged by OpenTofu on the same engine", () => {
  let engine: DockerEngine | undefined;
  const goldens: Record<string, Golden> = {};
  let ours: ReplayResult = { cases: 0, refused: [], disagreements: [] };
  let afterTofu: Awaited<ReturnType<DockerEngine["leftovers"]>> | undefined;
  let afterOurs: Awaited<ReturnType<DockerEngine["leftovers"]>> | undefined;
  const timings: string[] = [];
  let fixtureNetwork = "";
  let theirReads = new Map<string, { value: Config } | { error: string }>();
  const ourReads = new Map<string, { value: Config } | { error: string }>();
  const readDifferences: string[] = [];

  beforeAll(async () => {
    let t = Date.now();
    const lap = (what: string) => {
      timings.push(`${what} ${((Date.now() - t) / 1000).toFixed(1)} s`);
      t = Date.now();
    };
    engine = await startDocker();
    await engine.docker(["volume", "create", FIXTURE_VOLUME]);
    fixtureNetwork = (await engine.docker(["network", "create", "--internal", "--subnet", "10.251.8.0/24", FIXTURE_NETWORK])).stdout.trim();
    hostFolder = tempDir("tfo-docker-host-");
    writeFileSync(join(hostFolder, "note"), "from the host\n");
    cases = JSON.parse(JSON.stringify(cases).split("{host}").join(hostFolder)) as PeerCase[];
    lap("engine");
    const schema = await providerSchema();
    const work = tempDir("tfo-docker-");
    await record(
      {
        name: "docker",
        cases,
        providers: { docker: "kreuzwerker/docker" },
        providerConfig: { docker: { host: engine.host } },
        typeOf: (c) => c.shape,
        node: (c) => blockNode(schema.resources.get(c.shape)!.block),
        env: {},
        placeholders: [],
        sink: (g) => void (goldens[g.id] = g),
        destroy: true,
      },
      work,
      { engine: realpathSync(join(repoRoot, ".peers", "tofu")), goldenDir: work },
    );
    afterTofu = await engine.leftovers();
    await engine.docker(["network", "create", "--internal", "--subnet", "10.251.9.0/24", "--label", "a=1", DATA_NETWORK]);
    theirReads = await tofuReads(engine.host);
    lap("tofu");
    const r = await Replayer.startLive("docker", cases, goldens, { host: engine.host });
    try {
      ours = await r.replayAll(() => true, 2);
      for (const d of dataReads) {
        const read = await r.readDataSource(d.type, d.args);
        ourReads.set(d.name, read);
        const theirs = theirReads.get(d.name);
        if ("value" in read && theirs !== undefined && "value" in theirs) readDifferences.push(...r.dataSourceDifferences(d.type, read.value, theirs.value).map((x) => `${d.name}: ${x}`));
      }
    } finally {
      await r.stop();
    }
    await engine.docker(["network", "rm", DATA_NETWORK]);
    afterOurs = await engine.leftovers();
    lap("ours");
    console.log(`docker oracle: ${cases.length} cases; ${timings.join(", ")}; ${ours.disagreements.length} disagreements`);
    // CROSSTEST_REPORT=<file>: OpenTofu's answers and our disagreements, for reading in full.
    const report = process.env["CROSSTEST_REPORT"];
    if (report !== undefined) writeFileSync(report.replace("{flavour}", "docker"), JSON.stringify({ goldens, disagreements: ours.disagreements, reads: { ours: Object.fromEntries(ourReads), theirs: Object.fromEntries(theirReads) } }, null, 1));
  }, 600_000);
  afterAll(async () => engine?.stop());

  it("OpenTofu applied every case but the image no registry serves, which it refused", () => {
    expect(Object.keys(goldens).sort()).toEqual(cases.map((c) => c.id).sort());
    const failed = Object.values(goldens).filter((g) => g.errors !== undefined);
    expect(failed.map((g) => g.id)).toEqual(["docker_image.not-in-any-registry"]);
    expect(failed[0]!.errors!.join("\n")).toContain("127.0.0.1:9");
    // Both kinds of change are exercised: one in place, one replacing.
    expect(goldens["docker_container.restart-in-place"]!.plan.actions).toEqual(["update"]);
    expect(goldens["docker_container.command-replaces"]!.plan.actions).toEqual(["delete", "create"]);
    expect(goldens["docker_container.rich-grace-in-place"]!.plan.actions).toEqual(["update"]);
    expect(goldens["docker_container.rich-upload-replaces"]!.plan.actions).toEqual(["delete", "create"]);
    // Every applied case converges (nothing is planned after its second apply) but the provider's own unapplied updates
    // of a healthcheck and of tmpfs options.
    const unconverged = Object.values(goldens).filter((g) => g.errors === undefined && g.planAfterApply.length > 0);
    expect(unconverged.map((g) => [g.id, g.planAfterApply]).sort()).toEqual([
      ["docker_container.bind-tmpfs-user", ["update"]],
      ["docker_container.rich-healthcheck-never-applied", ["update"]],
    ]);
  });

  it("agrees with OpenTofu on every case, except the listed differences", () => {
    expect(ours.cases + ours.refused.length).toBe(cases.length);
    expect(ours.refused).toEqual(["docker_image.not-in-any-registry"]);
    expect(ours.disagreements.filter(excused).map((d) => d.id)).toContain("docker_container.command-replaces");
    const { unlisted } = reconcile(ours.disagreements.filter((d) => !excused(d)), listed);
    expect(unlisted.map((d: Disagreement) => `${d.id} [${d.kind}] ${d.detail}`)).toEqual([]);
  });

  it("reads the docker_image and docker_network data sources as OpenTofu does, and fails where it fails", () => {
    for (const d of dataReads) {
      const theirs = theirReads.get(d.name)!;
      const mine = ourReads.get(d.name)!;
      if (d.missing === true) {
        expect(theirs, `OpenTofu reading ${d.name}`).toHaveProperty("error");
        expect(mine, `ours reading ${d.name}`).toHaveProperty("error");
        expect((mine as { error: string }).error).toContain("tfo-no-such-net");
      } else {
        expect(theirs, `OpenTofu reading ${d.name}`).toHaveProperty("value");
        expect(mine, `ours reading ${d.name}`).toHaveProperty("value");
      }
    }
    expect((theirReads.get("network") as { value: Config }).value).toMatchObject({ name: DATA_NETWORK, internal: true, ipam_config: [expect.objectContaining({ subnet: "10.251.9.0/24" })] });
    expect(readDifferences).toEqual([]);
  });

  it("leaves the engine as it found it: OpenTofu's destroy and our deletes remove every container, volume and network", () => {
    const none = { containers: [], volumes: [FIXTURE_VOLUME], networks: [fixtureNetwork] };
    expect(afterTofu).toMatchObject(none);
    expect(afterOurs).toMatchObject(none);
    // The local image is kept (keep_locally) by both.
    expect(afterOurs?.images).toEqual([engine!.imageId]);
  });

  it("stops its own daemon, leaving no process and no folder", async () => {
    const e = engine!;
    await e.stop();
    if (e.pid !== undefined) expect(processAlive(e.pid)).toBe(false);
    if (e.socket !== undefined) expect(realpathExists(e.socket)).toBe(false);
  });
});

function realpathExists(p: string): boolean {
  try {
    realpathSync(p);
    return true;
  } catch {
    return false;
  }
}
