// The plugin process's life: serve ResourceProvider on a free loopback port, print the port, shut down cleanly.
import { appendFileSync, fstatSync } from "node:fs";
import { bridgeOps } from "./bridge-ops.js";
import { startPlugin, type RunningPlugin } from "./plugin.js";
import { peakRssKiB } from "./rss.js";
import { prepareClientCertificate } from "../terraform/mtls.js";

/**
 * True when stdin is a pipe (the engine's os.Pipe) or a socket pair (how Node spawns with stdio "pipe"): the parent
 * holds the other end, so EOF means it is gone. A terminal or /dev/null must not count, or we would exit at once.
 */
function stdinIsPipe(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * `TF_BRIDGE_RSS_REPORT=<file>`: append one JSON line `{pid, maxRssKiB, uptimeMs, arch}` to <file> when told to
 * stop (and at exit, if no stop came first). The engine starts this process, so an environment variable is how the
 * load scenario and benchmark learn its peak memory, and the emulated linux-arm64 test which build the engine ran
 * (`arch` is Node's process.arch: arm64 only in the AArch64 executable). Written at the stop request: the engine may
 * SIGKILL a slow stop.
 */
let rssReported = false;
function reportPeakRss(): void {
  const file = process.env["TF_BRIDGE_RSS_REPORT"];
  if (!file || rssReported) return;
  rssReported = true;
  const line = { pid: process.pid, maxRssKiB: peakRssKiB(), uptimeMs: Math.round(process.uptime() * 1000), arch: process.arch };
  try {
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // a measurement aid must never break the plugin
  }
}

/** Runs the plugin as the engine starts it (src/server/main.ts, or the packaged executable's snapshot entry). */
export async function runPlugin(): Promise<void> {
  // Only the port line may reach stdout; a stray console.log from any library would break the engine's handshake.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  let plugin: RunningPlugin;
  try {
    plugin = await startPlugin({ argv: process.argv.slice(2), opsFactory: bridgeOps });
  } catch (e) {
    process.stderr.write(`terraform-provider: failed to start: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  }
  // The engine reads exactly this line; nothing else may ever go to stdout.
  process.stdout.write(`${plugin.port}\n`);
  // The engine's first call takes a while to arrive; the certificate of the Terraform provider launch it will ask for
  // is made in the meantime.
  setImmediate(prepareClientCertificate);

  process.once("exit", reportPeakRss);
  const exit = (reason: string, code: number): void => {
    reportPeakRss();
    void plugin.stop(reason).finally(() => process.exit(code));
  };
  process.once("SIGTERM", () => exit("SIGTERM", 0));
  process.once("SIGINT", () => exit("SIGINT", 0));
  if (stdinIsPipe()) {
    process.stdin.on("data", () => undefined);
    process.stdin.once("end", () => exit("the engine closed our stdin", 0));
    process.stdin.once("error", () => exit("the engine's stdin pipe failed", 0));
  }
}
