// The executable the Pulumi engine starts in a checkout and in the bundle (dist/plugin.cjs): runs the plugin, or a
// command a person runs (src/commands).
import { isCommand, runCommand } from "../commands/index.js";
import { restoreUserProxy } from "../commands/user-proxy.js";
import { runPlugin } from "./run.js";

// Not a top-level await: the packaged bundle is CommonJS (see boot.ts), and runPlugin() handles its own failures.
const argv = process.argv.slice(2);
if (isCommand(argv)) void runCommand(argv).then((code) => process.exit(code));
else {
  restoreUserProxy(process.env);
  void runPlugin();
}
