// The Terraform providers a test file launches, closed after each test with every process checked gone (no orphans).
import { afterEach, expect } from "vitest";
import type { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { waitGone } from "./processes.js";

/** A list to push each launched provider to; after each test, all are closed and their processes must be gone. */
export function closedAfterEach(): GrpcTerraformProvider[] {
  const launched: GrpcTerraformProvider[] = [];
  afterEach(async () => {
    const pids = launched.map((p) => p.process.pid);
    await Promise.all(launched.splice(0).map((p) => p.close()));
    for (const pid of pids) expect(await waitGone(pid)).toBe(true);
  });
  return launched;
}
