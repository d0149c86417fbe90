// The executable the Pulumi engine starts in a checkout and in the bundle (dist/plugin.cjs): runs the plugin, or the `adopt` command.
import { runPlugin } from "./run.js";

// Not a top-level await: the packaged bundle is CommonJS (see boot.ts), and runPlugin() handles its own failures.
if (process.argv[2] === "adopt") {
  void import("../adopt/cli.js").then(async ({ runAdopt }) => process.exit(await runAdopt(process.argv.slice(3))));
} else {
  void runPlugin();
}
