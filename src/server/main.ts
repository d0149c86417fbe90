// The executable the Pulumi engine starts: serve ResourceProvider on a free loopback port, print the port, shut down cleanly.
import { fstatSync } from "node:fs";
import { bridgeOps } from "./bridge-ops.js";
import { startPlugin, type RunningPlugin } from "./plugin.js";

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

async function main(): Promise<void> {
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

  const exit = (reason: string, code: number): void => {
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

await main();
