// Starts a real Terraform provider in debug mode (`-debug`), as a provider author would under a debugger, and reads the reattach line it prints.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { peerPath } from "./peers.js";
import { processAlive, waitGone } from "./processes.js";

export interface DebugProvider {
  child: ChildProcess;
  pid: number;
  /** The JSON value of TF_REATTACH_PROVIDERS exactly as the provider printed it. */
  reattach: string;
  /** The single entry of `reattach`, parsed. */
  key: string;
  entry: { Protocol: string; ProtocolVersion: number; Pid: number; Test: boolean; Addr: { Network: string; String: string } };
  /** Everything it printed. */
  output(): string;
  /** Ends it: SIGINT (what the debug server stops on), then SIGKILL. */
  stop(): Promise<void>;
}

const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));

/** `terraform-provider-<peer> -debug`, with `env` added; resolves once it has printed its reattach line. */
export async function startDebugProvider(peer: string, env: NodeJS.ProcessEnv = {}): Promise<DebugProvider> {
  const bin = peerPath(peer);
  // setpriv execs the provider in place (same pid) and makes the kernel kill it should this test process die first.
  const [command, args] = setpriv !== undefined ? [setpriv, ["--pdeathsig", "SIGKILL", "--", bin, "-debug"]] : [bin, ["-debug"]];
  const clean = { ...process.env };
  // A debug server sees no client certificate, as when started from a terminal.
  for (const k of ["PLUGIN_CLIENT_CERT", "TF_PLUGIN_MAGIC_COOKIE", "PLUGIN_PROTOCOL_VERSIONS", "TF_REATTACH_PROVIDERS", "PULUMI_BRIDGE_REATTACH_PROVIDERS"]) delete clean[k];
  const child = spawn(command, args, { env: { ...clean, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (text += d));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${peer} -debug printed no reattach line within 20 s:\n${text}`)), 20_000);
    createInterface({ input: child.stdout! }).on("line", (l) => {
      text += `${l}\n`;
      const m = /TF_REATTACH_PROVIDERS='(.*)'\s*$/.exec(l);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1]!.replace(/'"'"'/g, "'"));
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${peer} -debug exited (${code ?? signal}) before printing a reattach line:\n${text}`));
    });
  });
  const parsed = JSON.parse(line) as Record<string, DebugProvider["entry"]>;
  const [key, entry] = Object.entries(parsed)[0]!;
  return {
    child,
    pid: child.pid!,
    reattach: line,
    key,
    entry,
    output: () => text,
    stop: async () => {
      if (!processAlive(child.pid!)) return;
      child.kill("SIGINT");
      if (!(await waitGone(child.pid!, 3_000))) child.kill("SIGKILL");
      await waitGone(child.pid!, 3_000);
    },
  };
}
