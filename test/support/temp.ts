// Temporary directories of tests and benchmarks, removed after each test file (test/support/temp-cleanup.ts) or at
// the process's exit: left behind, an extracted plugin alone is 142 MB, and repeated runs filled /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** Removes every directory tempDir made so far in this process. */
export function removeTempDirs(): void {
  for (const d of made.splice(0)) {
    try {
      rmSync(d, { recursive: true, force: true });
    } catch {
      // a directory a process still writes into is left for the system's temp cleaning
    }
  }
}

/** A fresh temporary directory, removed after the test file that made it or when the process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (made.push(dir) === 1) process.once("exit", removeTempDirs);
  return dir;
}
