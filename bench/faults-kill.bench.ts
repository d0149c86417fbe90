// The whole engine-kill matrix (test/support/kill-matrix.ts): `pulumi up`/`destroy` of httpapi items stopped by each
// signal at moments spread over plan, create, update and delete, then recovered as docs/reliability.md says; prints one row per
// run and the totals per signal. `npm run faults`, or `npx tsx bench/faults-kill.bench.ts [signals] [moments] [items]`
// (defaults SIGKILL,SIGTERM,SIGINT 20 50: about 60 runs, half an hour on two cores). Reports, never asserts.
import { installPlugin } from "../test/support/e2e.js";
import { startHttpApi } from "../test/support/httpapi.js";
import { killMatrix, killReport, runKillCase, type KillOutcome, type KillSignal } from "../test/support/kill-matrix.js";
import { removeScratch } from "../test/support/lifecycle.js";
import { pulumiSandbox } from "../test/support/pulumi.js";

const [signalsArg, momentsArg, itemsArg] = process.argv.slice(2);
const signals = (signalsArg ?? "SIGKILL,SIGTERM,SIGINT").split(",") as KillSignal[];
const moments = Number(momentsArg ?? "20");
const count = Number(itemsArg ?? "50");

const sandbox = pulumiSandbox();
installPlugin(sandbox);
const api = await startHttpApi();
const outcomes: KillOutcome[] = [];
const failures: string[] = [];
try {
  const cases = killMatrix(signals, moments, count);
  console.log(`engine-kill matrix: ${cases.length} runs of ${count} items`);
  for (const c of cases) {
    try {
      const o = await runKillCase(sandbox, api, c, count);
      outcomes.push(o);
      console.log(`  ${c.signal} ${c.phase} at ${c.at}: unaccounted at the stop ${o.unaccounted}, adopted ${o.adopted}, lost after recovery ${o.lost}, duplicates ${o.duplicates}, left ${o.processesLeft.length}, recovery ${o.recoveryMs} ms`);
    } catch (e) {
      // A run whose recovery failed is a finding, reported with the rest rather than ending the matrix.
      failures.push(`${c.signal} ${c.phase} at ${c.at}: ${(e as Error).message.split("\n").slice(0, 12).join("\n")}`);
      console.log(`  ${c.signal} ${c.phase} at ${c.at}: RECOVERY FAILED`);
    }
  }
} finally {
  await api.stop();
  sandbox.cleanup();
  removeScratch();
}
console.log(`\n${killReport(outcomes)}`);
if (failures.length > 0) console.log(`\nruns whose recovery failed (${failures.length}):\n${failures.join("\n\n")}`);
