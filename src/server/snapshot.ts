// The packaged executable's main script where it carries a V8 startup snapshot (linux-amd64): run once, when the
// package is built, to load the plugin with its wire definitions; every start then resumes from that heap.
//
// A snapshot skips what the plugin does at every start before it can answer: compiling and running its modules and
// building the protobuf definitions and codecs of the calls every start makes (about 30 ms of a start that otherwise
// answers Parameterize after ~100 ms; bench/startup.bench.ts). Node can only snapshot some of its built-in modules, so
// what cannot be held (node:http2, node:tls, signal listeners, ICU objects) is loaded at first use. A snapshot only
// runs on the platform and Node build that made it, so scripts/package.sh builds one only for the platform it runs on;
// the other platforms' executables run src/server/sea.ts.
//
// The build runs nothing a process must not share with others: no key or certificate (made at each start), no random
// state (node:crypto's randomUUID cache would be frozen in; ids come from src/bridge/uuid.ts), no paths (the bundle's
// location is set at each start below), no environment.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { buildProviderModel } from "../schema-translate/index.js";
import { preloadProtocols } from "../terraform/client.js";
import { preloadServerProtocols } from "./plugin.js";
import { isCommand, runCommand } from "../commands/index.js";
import { restoreUserProxy } from "../commands/user-proxy.js";
import { runPlugin } from "./run.js";
import { unpackedTree } from "./unpack.js";

/** Where the bundle's code looks for files beside itself (esbuild turns import.meta.url into this; scripts/package.sh). */
declare global {
  var __tfBridgeModuleUrl: string | undefined;
}

if (!v8.startupSnapshot.isBuildingSnapshot()) {
  process.stderr.write("src/server/snapshot.ts is the entry of a startup snapshot build (scripts/package.sh), not a program\n");
  process.exit(2);
}
preloadServerProtocols();
buildProviderModel(preloadProtocols(), { packageName: "sample", packageVersion: "0.0.0" });
// net.Server#listen looks its host up and tests the address against Node's IPv6 expression; its first use cost 3 ms
// of every start before the port was printed, and done here it is kept compiled.
process.getBuiltinModule("node:net").isIPv6("127.0.0.1");
v8.startupSnapshot.setDeserializeMainFunction(() => {
  try {
    // The proto files and @cdktf/hcl2json are found beside where the bundle would be in the unpacked tree.
    globalThis.__tfBridgeModuleUrl = pathToFileURL(join(unpackedTree(), "dist", "plugin.cjs")).href;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
  const argv = process.argv.slice(2);
  if (isCommand(argv)) void runCommand(argv).then((code) => process.exit(code));
  else {
    restoreUserProxy(process.env);
    void runPlugin();
  }
});
