// A `convert` stopped half-way leaves nothing behind: SIGINT, SIGTERM, or the process that started it killed (as when
// `pulumi plugin run`, which forwards no signal, is killed with its process group). The Pulumi CLI here is a fake
// (PULUMI_CLI, a shell script) because the moment to stop at must be certain: during the second step, with a process
// tree running under the CLI (a child and a grandchild, as a language host and its npm install) and the temporary
// `packages:` pin already written into the output's Pulumi.yaml; or during the first step, with the registry stand-in
// it gives the converter running. The real CLI's own handling of SIGINT is Pulumi's.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_BIN } from "../support/pulumi.js";
import { childPids, processAlive } from "../support/processes.js";
import { tempDir } from "../support/temp.js";

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.destroy();
      ok(true);
    });
    socket.once("error", () => ok(false));
  });
}

const FAKE_PULUMI = `#!/usr/bin/env bash
# A fake Pulumi CLI for convert's two steps: the first writes PCL, the second writes a program and the pin, starts a
# process tree and waits, so that the test can stop the command at that moment.
out=""; from=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --from) from="$2"; shift 2 ;;
    *) shift ;;
  esac
done
if [ "$from" = terraform ] && [ -n "\${HOLD_FIRST:-}" ]; then
  # The first step's converter would be here: what it was given, then a wait to be stopped in.
  printf '%s\n%s\n' "$HTTPS_PROXY" "$SSL_CERT_FILE" > "$PIDS.proxy"
  echo $$ >> "$PIDS"
  exec sleep 300
fi
if [ "$from" = terraform ]; then
  mkdir -p "$out"
  printf 'package "local" {\\n  baseProviderName = "terraform-provider"\\n  baseProviderVersion = "0.8.1"\\n}\\n' > "$out/main.pp"
  exit 0
fi
mkdir -p "$out"
printf 'name: shop\\nruntime: nodejs\\npackages:\\n  terraform-provider: terraform-provider@0.1.0-ts\\n' > "$out/Pulumi.yaml"
echo 'export {};' > "$out/index.ts"
sleep 300 &
echo $! >> "$PIDS"
bash -c 'sleep 300 & echo $! >> "$PIDS"; wait' &
echo $! >> "$PIDS"
echo $$ >> "$PIDS"
echo ready >> "$PIDS.ready"
wait
`;

interface Run {
  dir: string;
  pids: string;
  /** The process signalled: the command itself, or the shell that started it. */
  target: ChildProcess;
}

/** A Terraform project `shop` in a folder of its own, with the fake CLI beside it and the file its processes write pids to. */
function project(prefix: string, extraEnv: Record<string, string> = {}): { dir: string; pids: string; env: NodeJS.ProcessEnv } {
  const root = tempDir(prefix);
  const dir = join(root, "shop");
  mkdirSync(dir);
  writeFileSync(join(dir, "main.tf"), 'resource "local_file" "f" {\n  filename = "x"\n  content = "y"\n}\n');
  const cli = join(root, "pulumi");
  writeFileSync(cli, FAKE_PULUMI);
  chmodSync(cli, 0o755);
  const pids = join(root, "pids");
  writeFileSync(pids, "");
  return { dir, pids, env: { ...process.env, PULUMI_CLI: cli, PIDS: pids, ...extraEnv, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", TMPDIR: root } };
}

/** Starts `convert` into the Terraform project's own folder (`--out .`), and waits for the second step's tree. */
async function start(viaShell: boolean): Promise<Run> {
  const { dir, pids, env } = project("tfbridge-convert-stop-");
  const command = [PLUGIN_BIN, "convert", "--language", "typescript", "--out", "."];
  const target = viaShell
    ? spawn("bash", ["-c", `"${command.join('" "')}"; echo the shell outlived its command`], { cwd: dir, env, stdio: "ignore" })
    : spawn(command[0]!, command.slice(1), { cwd: dir, env, stdio: "ignore" });
  const deadline = Date.now() + 60_000;
  // The fake's four processes have written their pids (the grandchild's comes last, from its own shell).
  while (!existsSync(`${pids}.ready`) || readFileSync(pids, "utf8").split("\n").filter((l) => l !== "").length < 4) {
    if (Date.now() > deadline) throw new Error("the fake CLI's second step never started");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { dir, pids, target };
}

const treePids = (run: Run): number[] => readFileSync(run.pids, "utf8").split("\n").filter((l) => l !== "").map(Number);

async function gone(pids: number[], ms = 15_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(processAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The command's own process: the target (the checkout's plugin script execs node), or the shell's child. */
function commandPid(run: Run, viaShell: boolean): number | undefined {
  return viaShell ? childPids(run.target.pid!)[0] : run.target.pid;
}

describe("convert, stopped half-way", () => {
  for (const [how, viaShell, signal] of [
    ["SIGINT", false, "SIGINT"],
    ["SIGTERM", false, "SIGTERM"],
    ["its parent killed", true, "SIGKILL"],
  ] as const) {
    it(`${how}: every child and grandchild stops, the program written so far is removed and the Terraform project is as it was`, async () => {
      const run = await start(viaShell);
      const ours = commandPid(run, viaShell);
      expect(ours, "the convert command's process").toBeDefined();
      const tree = treePids(run);
      expect(tree.length).toBe(4);
      expect(tree.every(processAlive)).toBe(true);
      expect(readFileSync(join(run.dir, "Pulumi.yaml"), "utf8")).toContain("terraform-provider: terraform-provider@0.1.0-ts");

      run.target.kill(signal);
      expect(await gone([...tree, ours!]), `still running after ${how}`).toEqual([]);
      // What the conversion wrote is gone, the pin with it; the Terraform project is left as it was.
      expect(readdirSync(run.dir).sort()).toEqual(["main.tf"]);
      // The temporary PCL folder is removed too.
      expect(readdirSync(join(run.dir, "..")).filter((n) => n.startsWith("pulumi-tf-convert-"))).toEqual([]);
    }, 90_000);
  }
});

describe("convert, stopped in its first step", () => {
  it("SIGINT while the converter runs: the registry stand-in stops, its CA bundle is removed, and nothing is left", async () => {
    const { dir, pids, env } = project("tfbridge-convert-stop-first-", { HOLD_FIRST: "1" });
    const target = spawn(PLUGIN_BIN, ["convert", "--language", "typescript", "--out", "../out"], { cwd: dir, env, stdio: "ignore" });
    const deadline = Date.now() + 60_000;
    while (!existsSync(`${pids}.proxy`)) {
      if (Date.now() > deadline) throw new Error("the fake CLI's first step never started");
      await new Promise((r) => setTimeout(r, 100));
    }
    const [proxyUrl, bundle] = readFileSync(`${pids}.proxy`, "utf8").split("\n");
    const port = Number(new URL(proxyUrl!).port);
    expect(new URL(proxyUrl!).hostname).toBe("127.0.0.1");
    expect(readFileSync(bundle!, "utf8")).toContain("BEGIN CERTIFICATE");
    expect(await listening(port), "the stand-in listens while the step runs").toBe(true);

    target.kill("SIGINT");
    expect(await gone([...treePids({ dir, pids, target }), target.pid!]), "still running after SIGINT").toEqual([]);
    expect(existsSync(bundle!), "the CA bundle is removed").toBe(false);
    expect(await listening(port), "the stand-in no longer listens").toBe(false);
    expect(readdirSync(join(dir, "..")).filter((n) => n.startsWith("pulumi-tf-convert-"))).toEqual([]);
    expect(readdirSync(dir)).toEqual(["main.tf"]);
  }, 90_000);
});
