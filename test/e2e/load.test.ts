// Load through the real Pulumi CLI: ≥500 resources (random_id, random_string and httpapi_item against the real
// loopback service) in one `pulumi up --parallel 32`, then destroy. Nothing may be lost or leaked, no provider or
// plugin process may outlive the commands; wall time and the bridge plugin's peak RSS are printed, never asserted.
import { describe, expect, it } from "vitest";
import { describeLoad, runLoadScenario } from "../support/load-scenario.js";

describe("load: 510 resources, --parallel 32", () => {
  it("creates and destroys every resource, loses and leaks nothing, leaves no processes", async () => {
    const r = await runLoadScenario({ randomIds: 170, randomStrings: 170, items: 170, parallel: 32 });
    for (const line of describeLoad(r)) console.log(`load: ${line}`);

    expect(r.resources).toBeGreaterThanOrEqual(500);
    expect(r.exportedAfterUp).toBe(r.resources);
    expect(r.serviceItemsAfterUp).toBe(170);
    expect(r.lostItems).toEqual([]);
    expect(r.leakedItems).toEqual([]);
    expect(r.exportedAfterDestroy).toBe(0);
    expect(r.serviceItemsAfterDestroy).toBe(0);
    expect(r.leftovers).toEqual([]);
    // Every plugin process the engine started reported its peak memory.
    expect(r.pluginReports.length).toBeGreaterThan(0);
  }, 1_800_000);
});
