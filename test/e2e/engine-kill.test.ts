// The engine stopped at chosen moments of `pulumi up`/`destroy` of 50 httpapi items (real SDKv2 provider, real loopback
// service that counts objects): by SIGKILL in the plan, create, update and delete, by SIGTERM and by Ctrl-C. After each,
// nothing of ours is left running, and the user's recovery (docs/reliability.md) converges with no object lost, none
// duplicated, and a destroy that empties the service. A bounded sample; bench/faults-kill.bench.ts runs the matrix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpApi, type HttpApiServer } from "../support/httpapi.js";
import { killReport, PARALLEL, runKillCase, type KillCase, type KillOutcome } from "../support/kill-matrix.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";

const sandbox = e2eSandbox();
let api: HttpApiServer;
const outcomes: KillOutcome[] = [];

beforeAll(async () => {
  api = await startHttpApi();
});

afterAll(async () => {
  if (outcomes.length > 0) console.log(`engine-kill matrix (sample):\n${killReport(outcomes)}`);
  await api?.stop();
});

const CASES: KillCase[] = [
  { signal: "SIGKILL", phase: "plan", at: 300 },
  { signal: "SIGKILL", phase: "create", at: 12 },
  { signal: "SIGKILL", phase: "update", at: 25 },
  { signal: "SIGKILL", phase: "delete", at: 40 },
  { signal: "SIGTERM", phase: "create", at: 30 },
  { signal: "SIGINT", phase: "update", at: 10 },
];

describe("the engine stopped in the middle of a deployment", () => {
  it.each(CASES.map((c) => [`${c.signal} in ${c.phase} at ${c.at}`, c] as const))("%s: nothing left running, nothing lost or doubled after recovery", async (_label, c) => {
    const o = await runKillCase(sandbox, api, c);
    outcomes.push(o);
    expect(o.processesLeft).toEqual([]);
    // Only creates cut off by the stop may be unknown to the stack: after a kill, those the engine had begun; nothing
    // when the stop came while updating or deleting (an object made and answered is always recorded).
    // Before any recovery: every object the service holds is a resource of the stopped stack or one of its pending
    // creates, except creates in flight when a graceful stop cut them short (at most one per parallel operation).
    if (c.signal === "SIGKILL" || c.phase !== "create") expect(o.unaccounted, "objects the stopped stack cannot account for").toBe(0);
    else expect(o.unaccounted).toBeLessThanOrEqual(PARALLEL);
    if (c.phase === "update" || c.phase === "delete" || c.phase === "plan") expect(o.adopted).toBe(0);
    if (c.signal === "SIGKILL") expect(o.adopted).toBeLessThanOrEqual(o.pendingCreates);
    expect({ lost: o.lost, duplicates: o.duplicates, missing: o.missing, ghosts: o.ghosts, leftAfterDestroy: o.leftAfterDestroy }).toEqual({
      lost: 0,
      duplicates: 0,
      missing: 0,
      ghosts: 0,
      leftAfterDestroy: 0,
    });
  }, 600_000);
});
