// The order test files start in: the longest known files first, so that on a fresh clone (no vitest results cache) the
// two workers finish together instead of one starting the 20-minute giants file last.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The longest files of a CI run (`.ci/run` on a 2-core machine, 2026-11-28, minutes of test time), longest first. An
 * entry that names no file fails test/unit/slow-first.test.ts, so a rename cannot silently drop one.
 */
export const SLOW_FIRST = [
  "test/e2e/giants-sdks.test.ts", // ≈26
  "test/e2e/language-python.test.ts", // ≈8
  "test/e2e/language-java.test.ts", // ≈7
  "test/integration/crosstest-giants.test.ts", // ≈6.5
  "test/e2e/docs-quickstart.test.ts", // ≈5.5
  "test/e2e/adopt-languages.test.ts", // ≈4.5
  "test/integration/more-schemas.test.ts", // ≈3.6
  "test/e2e/interchange-stacks.test.ts", // ≈3.5
  "test/e2e/language-typescript.test.ts", // ≈3
  "test/integration/gen-sdk.test.ts", // ≈3
  "test/e2e/language-go.test.ts", // ≈2.5
  "test/e2e/adopt-oracle.test.ts", // ≈2.2
  "test/integration/crosstest-framework.test.ts", // ≈2
];

/** Where `file` (a path relative to the repository) comes in SLOW_FIRST; the rest after, in their own order. */
export function slowRank(file: string): number {
  const i = SLOW_FIRST.indexOf(file);
  return i < 0 ? SLOW_FIRST.length : i;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root.replace(/\/$/, "") + "/";
    const rank = (f: TestSpecification) => slowRank(f.moduleId.startsWith(root) ? f.moduleId.slice(root.length) : f.moduleId);
    // Array.prototype.sort is stable: within a rank, vitest's own order (failed first, then by recorded duration) stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
