// The executable the Pulumi engine starts in a checkout and in the bundle (dist/plugin.cjs): runs the plugin.
import { runPlugin } from "./run.js";

// Not a top-level await: the packaged bundle is CommonJS (see boot.ts), and runPlugin() handles its own failures.
void runPlugin();
