// Three test tiers as vitest projects: unit (pure code, no Go, no peers), integration (real Terraform providers) and
// e2e (the real Pulumi CLI); `vitest run` runs all three, `--project <tier>` one of them.
import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first.js";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration tests start real provider processes; two workers suit the 2-core machines.
    pool: "forks",
    // The longest files first (test/support/slow-first.ts), so the two workers end together on a fresh clone.
    sequence: { sequencer: SlowFirstSequencer },
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Each test file's temporary directories are removed when it ends (test/support/temp.ts).
    setupFiles: ["test/support/temp-cleanup.ts"],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      // Only the tiers that start real providers build them and the Pulumi tools (idempotent; a warm cache takes seconds).
      {
        extends: true,
        test: { name: "integration", include: ["test/integration/**/*.test.ts"], globalSetup: ["test/support/global-setup.ts"] },
      },
      { extends: true, test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: ["test/support/global-setup.ts"] } },
    ],
  },
});
