// A real HTTP proxy for tests: Debian's tinyproxy on 127.0.0.1, with its log, started and stopped per test file.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolMissing } from "./tool-missing.js";

/** Debian's tinyproxy where apt installs it, else the first on PATH (Homebrew's), else undefined. */
export function findTinyproxy(path: string = process.env["PATH"] ?? ""): string | undefined {
  for (const dir of ["/usr/bin", ...path.split(":").filter((d) => d !== "")]) {
    if (existsSync(join(dir, "tinyproxy"))) return join(dir, "tinyproxy");
  }
  return undefined;
}

/** What to run to get tinyproxy, printed with every skip. */
export const TINYPROXY_INSTALL = "sudo apt-get install tinyproxy (Debian, Ubuntu; brew install tinyproxy on macOS), or run bash .ci/run, which installs it";

/**
 * True, with the reason and the command to fix it printed, when tinyproxy is not installed: the proxy tests skip.
 * In CI a missing tinyproxy fails the run instead (.ci/run installs it).
 */
export function tinyproxyMissing(env: NodeJS.ProcessEnv = process.env, find: () => string | undefined = () => findTinyproxy(env["PATH"])): boolean {
  return toolMissing(find() === undefined ? "tinyproxy is not installed" : undefined, { tests: "the proxy tests", install: TINYPROXY_INSTALL }, env);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Tinyproxy {
  url: string;
  /** The CONNECT and request lines it logged so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * `connectPorts`: the only ports CONNECT may reach (tinyproxy's ConnectPort); none listed allows every port.
 * `basicAuth`: the user and password the proxy demands (tinyproxy's BasicAuth), answering 407 without them.
 */
export async function startTinyproxy(options: { connectPorts?: number[]; basicAuth?: { user: string; password: string } } = {}): Promise<Tinyproxy> {
  const dir = mkdtempSync(join(tmpdir(), "tfbridge-tinyproxy-"));
  const port = await freePort();
  const logFile = join(dir, "tinyproxy.log");
  const conf = [
    `Port ${port}`,
    "Listen 127.0.0.1",
    "Timeout 30",
    `LogFile "${logFile}"`,
    "LogLevel Info",
    "MaxClients 20",
    "Allow 127.0.0.1",
    "DisableViaHeader Yes",
    ...(options.connectPorts ?? []).map((p) => `ConnectPort ${p}`),
    ...(options.basicAuth !== undefined ? [`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`] : []),
  ].join("\n");
  writeFileSync(join(dir, "tinyproxy.conf"), `${conf}\n`);
  const child: ChildProcess = spawn(findTinyproxy() ?? "tinyproxy", ["-d", "-c", join(dir, "tinyproxy.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  // Ready once it accepts connections.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = spawnSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`], { stdio: "ignore" }).status === 0;
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`tinyproxy did not start (exit ${child.exitCode}): ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
