// A Docker Engine for tests: the one DOCKER_HOST names, else Debian's dockerd started on a socket under a temp dir with
// no networking of its own (no iptables, no default bridge), an image imported from busybox-static, and at the end
// nothing left behind: no container, image, network, volume, mount or process.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolMissing } from "./tool-missing.js";
import { execAsync, processAlive, spawnAsync, waitGone, type Ran } from "./processes.js";

/** What to run to get the engine and the image's files, printed with every skip. */
export const DOCKER_INSTALL = "sudo apt-get install docker.io busybox-static (Debian, Ubuntu) and run the tests as root, or set DOCKER_HOST to an engine; bash .ci/run installs both";

/** The image every test container runs: busybox-static's applets, imported locally (no registry is reachable). */
export const LOCAL_IMAGE = "local/bb:1";

const BUSYBOX = "/bin/busybox";
const APPLETS = ["sh", "sleep", "echo", "cat", "true", "false", "ls", "env", "touch"];

/** The first of `names` in /usr/sbin, /usr/bin, /sbin, /bin or PATH (Debian's before anything PATH puts first). */
function find(name: string, path: string): string | undefined {
  for (const dir of ["/usr/sbin", "/usr/bin", "/sbin", "/bin", ...path.split(":").filter((d) => d !== "")]) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Why no engine can be had here, or undefined when one can. */
export function dockerUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env["PATH"] ?? "";
  if (find("docker", path) === undefined) return "the docker CLI is not installed";
  if (!existsSync(BUSYBOX)) return `${BUSYBOX} (busybox-static) is not installed`;
  // A dynamically linked busybox (Debian's busybox package) names its loader in its first bytes, and cannot run in an
  // image that holds nothing else.
  if (readFileSync(BUSYBOX).subarray(0, 4096).includes("ld-linux")) return `${BUSYBOX} is dynamically linked (Debian's busybox, not busybox-static)`;
  if (env["DOCKER_HOST"] !== undefined && env["DOCKER_HOST"] !== "") return undefined;
  if (find("dockerd", path) === undefined) return "dockerd is not installed and DOCKER_HOST is not set";
  if (process.getuid?.() !== 0) return "dockerd needs root and DOCKER_HOST is not set";
  return undefined;
}

/**
 * True, with the reason and the command to fix it printed, when no engine can be had: the Docker tests skip. In CI
 * it fails the run instead (.ci/run installs docker.io and busybox-static and runs as root).
 */
export function dockerMissing(env: NodeJS.ProcessEnv = process.env, why: string | undefined = dockerUnavailable(env)): boolean {
  return toolMissing(why, { tests: "the Docker tests", install: DOCKER_INSTALL }, env);
}

/** What an engine holds, by id: compared before and after so that only what the tests made is removed. */
interface Inventory {
  containers: string[];
  images: string[];
  volumes: string[];
  networks: string[];
}

export interface DockerEngine {
  /** `unix:///…/docker.sock`: the provider's `host` and the CLI's DOCKER_HOST. */
  host: string;
  /** The socket's path when the engine is our own, else undefined. */
  socket?: string;
  /** The dockerd we started, else undefined. */
  pid?: number;
  /** The id (`sha256:…`) of LOCAL_IMAGE. */
  imageId: string;
  /** The docker CLI against this engine; fails with its output unless it exits 0. */
  docker(args: string[]): Promise<Ran>;
  /** What the engine holds that it did not hold when the tests started (containers, images, volumes, networks). */
  leftovers(): Promise<Inventory>;
  /** Removes what the tests made, and stops the daemon and removes its folders when it is ours. */
  stop(): Promise<void>;
  /**
   * Our own daemon only: stops it as `systemctl stop docker` would (SIGTERM: it stops its containers and its
   * containerd), keeping its data, so that a test sees the engine go away in the middle of a run.
   */
  stopDaemon?(): Promise<void>;
  /** Our own daemon only: starts it again on the same socket and data after stopDaemon (nothing when it runs). */
  startDaemon?(): Promise<void>;
}

async function inventory(docker: (args: string[]) => Promise<Ran>): Promise<Inventory> {
  const ids = async (args: string[]) => (await docker(args)).stdout.split("\n").filter((l) => l !== "").sort();
  return {
    containers: await ids(["ps", "-aq", "--no-trunc"]),
    images: await ids(["images", "-aq", "--no-trunc"]),
    volumes: await ids(["volume", "ls", "-q"]),
    networks: await ids(["network", "ls", "-q", "--no-trunc"]),
  };
}

const minus = (now: Inventory, then: Inventory): Inventory => ({
  containers: now.containers.filter((x) => !then.containers.includes(x)),
  images: [...new Set(now.images.filter((x) => !then.images.includes(x)))],
  volumes: now.volumes.filter((x) => !then.volumes.includes(x)),
  networks: now.networks.filter((x) => !then.networks.includes(x)),
});

/**
 * The engine DOCKER_HOST names, or our own dockerd (root only). The exec root holds the daemon's sockets (its own and
 * containerd's), so its path is kept short: a Unix socket's path has at most 107 bytes.
 */
export async function startDocker(env: NodeJS.ProcessEnv = process.env): Promise<DockerEngine> {
  const cli = find("docker", env["PATH"] ?? "")!;
  const given = env["DOCKER_HOST"] !== undefined && env["DOCKER_HOST"] !== "" ? env["DOCKER_HOST"] : undefined;
  const base = tmpdir().length <= 40 ? tmpdir() : "/tmp";
  const dir = mkdtempSync(join(base, "tfd-"));
  const ns = dir.slice(dir.lastIndexOf("tfd-") + 4).toLowerCase();
  const socket = join(dir, "d.sock");
  const host = given ?? `unix://${socket}`;
  const cliEnv = { ...env, DOCKER_HOST: host, DOCKER_CONFIG: join(dir, "cli") };
  const docker = (args: string[]) => execAsync(cli, args, { env: cliEnv });

  mkdirSync(join(dir, "cli"));
  let daemon: ChildProcess | undefined;
  let log = "";
  const launch = async (): Promise<ChildProcess> => {
    const d = spawn(
      find("dockerd", env["PATH"] ?? "")!,
      [
        ...["--iptables=false", "--ip6tables=false", "--bridge=none"],
        ...["--data-root", join(dir, "data"), "--exec-root", join(dir, "x"), "--pidfile", join(dir, "d.pid"), "-H", host],
        // dockerd uses a system containerd when one runs (/run/containerd/containerd.sock, as a Debian install with
        // systemd starts it): namespaces of its own keep this engine's containers apart from the system engine's.
        ...["--containerd-namespace", `tfd-${ns}`, "--containerd-plugins-namespace", `tfd-${ns}-plugins`],
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...env, DOCKER_HOST: undefined } },
    );
    const keep = (chunk: string) => (log = (log + chunk).slice(-20_000));
    d.stdout.setEncoding("utf8").on("data", keep);
    d.stderr.setEncoding("utf8").on("data", keep);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if ((await spawnAsync(cli, ["version"], { env: cliEnv })).status === 0) return d;
      if (d.exitCode !== null || Date.now() > deadline) {
        d.kill("SIGKILL");
        throw new Error(`dockerd did not answer on ${socket} (exit ${d.exitCode}):\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  if (given === undefined) {
    for (const d of ["data", "x"]) mkdirSync(join(dir, d));
    try {
      daemon = await launch();
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }
  const before = await inventory(docker);

  // The image: busybox-static's one binary and its applets as links, imported as a file system.
  const rootfs = join(dir, "rootfs");
  mkdirSync(join(rootfs, "bin"), { recursive: true });
  copyFileSync(BUSYBOX, join(rootfs, "bin/busybox"));
  for (const a of APPLETS) symlinkSync("busybox", join(rootfs, "bin", a));
  for (const d of ["tmp", "data", "etc"]) mkdirSync(join(rootfs, d));
  const imported = await execAsync("bash", ["-c", `tar -C '${rootfs}' -c . | '${cli}' import - ${LOCAL_IMAGE}`], { env: cliEnv });
  rmSync(rootfs, { recursive: true, force: true });

  const leftovers = async () => minus(await inventory(docker), before);
  let stopped = false;
  return {
    host,
    imageId: imported.stdout.trim(),
    ...(daemon === undefined
      ? {}
      : {
          socket,
          get pid() {
            return daemon!.pid!;
          },
          stopDaemon: async () => {
            await stopDaemon(daemon!, dir, false);
          },
          startDaemon: async () => {
            if (daemon!.exitCode === null && daemon!.signalCode === null) return;
            daemon = await launch();
          },
        }),
    docker,
    leftovers,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      try {
        // A test that stopped our daemon (stopDaemon) and failed before starting it again: start it, to clean up.
        if (daemon !== undefined && (daemon.exitCode !== null || daemon.signalCode !== null)) daemon = await launch();
        const left = await leftovers();
        if (left.containers.length > 0) await spawnAsync(cli, ["rm", "-f", "-v", ...left.containers], { env: cliEnv });
        if (left.networks.length > 0) await spawnAsync(cli, ["network", "rm", ...left.networks], { env: cliEnv });
        if (left.volumes.length > 0) await spawnAsync(cli, ["volume", "rm", "-f", ...left.volumes], { env: cliEnv });
        if (left.images.length > 0) await spawnAsync(cli, ["rmi", "-f", ...left.images], { env: cliEnv });
      } finally {
        if (daemon !== undefined) await stopDaemon(daemon, dir);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * SIGTERM (dockerd stops its containerd and unmounts), then SIGKILL after 20 s; no mount under `dir` may remain once
 * the engine is gone for good (`unmount`).
 */
async function stopDaemon(daemon: ChildProcess, dir: string, unmount = true): Promise<void> {
  const containerd = containerdPid(dir);
  if (daemon.exitCode === null && daemon.signalCode === null) {
    daemon.kill("SIGTERM");
    if (!(await waitGone(daemon.pid!, 20_000))) daemon.kill("SIGKILL");
    await waitGone(daemon.pid!, 5_000);
  }
  if (containerd !== undefined && processAlive(containerd)) {
    process.kill(containerd, "SIGTERM");
    if (!(await waitGone(containerd, 10_000))) process.kill(containerd, "SIGKILL");
  }
  if (!unmount) return;
  const mounts = readFileSync("/proc/mounts", "utf8").split("\n").map((l) => l.split(" ")[1] ?? "").filter((m) => m.startsWith(`${dir}/`));
  for (const m of mounts.sort().reverse()) await spawnAsync("umount", ["-l", m]);
}

/** The containerd our dockerd started (its pid file under the exec root), if any. */
function containerdPid(dir: string): number | undefined {
  const f = join(dir, "x", "containerd", "containerd.pid");
  if (!existsSync(f)) return undefined;
  const pid = Number(readFileSync(f, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
