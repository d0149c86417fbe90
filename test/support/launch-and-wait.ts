// Child process for orphan tests: launches a provider, prints its pid, then waits to be killed or told how to exit.
import { launchProvider } from "../../src/terraform/launch.js";

const [path, mode] = process.argv.slice(2);
const provider = await launchProvider({ path: path! });
process.stdout.write(`${provider.pid}\n`);
if (mode === "exit") {
  // Leave without shutting the provider down: the exit hook must still take it with us.
  setTimeout(() => process.exit(0), 50);
} else if (mode === "throw") {
  setTimeout(() => {
    throw new Error("deliberate uncaught exception");
  }, 50);
} else {
  setInterval(() => undefined, 1_000);
}
