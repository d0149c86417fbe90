// Load benchmark: the e2e load scenario (random_id, random_string, httpapi_item; `pulumi up --parallel N`, then
// destroy) with figures printed: wall time and the bridge plugin's peak RSS. No assertions.
// LOAD_RESOURCES (default 510, split in three) and LOAD_PARALLEL (default 32) scale it.
import { describeLoad, runLoadScenario } from "../test/support/load-scenario.js";
import { report } from "./report.js";

const total = Number(process.env["LOAD_RESOURCES"] ?? 510);
const parallel = Number(process.env["LOAD_PARALLEL"] ?? 32);
const third = Math.floor(total / 3);
const r = await runLoadScenario({ randomIds: third, randomStrings: third, items: total - 2 * third, parallel });
for (const line of describeLoad(r)) console.log(line);
console.log(`per resource: up ${(r.upMs / r.resources).toFixed(1)} ms, destroy ${(r.destroyMs / r.resources).toFixed(1)} ms`);
const peakKiB = Math.max(0, ...r.pluginReports.map((x) => x.maxRssKiB), ...r.pluginPeaks.map((x) => x.peakKiB));
report({ scenario: `pulumi up of ${r.resources} resources --parallel ${parallel}`, bridge: r.upMs / 1000, unit: "s" });
report({ scenario: `pulumi destroy of ${r.resources} resources`, bridge: r.destroyMs / 1000, unit: "s" });
report({ scenario: `plugin peak RSS during the ${r.resources}-resource run`, bridge: peakKiB / 1024, unit: "MiB" });
