// The sandbox of an e2e file as vitest hooks (kept apart from lifecycle.ts, which benchmarks load outside vitest).
import { afterAll, beforeAll } from "vitest";
import { sandboxWithPlugin } from "./e2e.js";
import { removeScratch } from "./lifecycle.js";
import type { PulumiSandbox } from "./pulumi.js";

/**
 * The Pulumi sandbox of an e2e file, with the packaged plugin installed: made before the file's tests (the first run
 * on a machine builds the Pulumi CLI, minutes) and removed after them, with the file's scratch folders. Its fields read
 * through to the sandbox once it exists.
 */
export function e2eSandbox(): PulumiSandbox {
  let inner: PulumiSandbox | undefined;
  const get = (): PulumiSandbox => {
    if (inner === undefined) throw new Error("the e2e sandbox exists once the file's beforeAll has run");
    return inner;
  };
  beforeAll(() => {
    inner = sandboxWithPlugin();
  }, 1_200_000);
  afterAll(() => {
    inner?.cleanup();
    removeScratch();
  });
  return {
    get home() {
      return get().home;
    },
    get backend() {
      return get().backend;
    },
    get env() {
      return get().env;
    },
    cleanup: () => get().cleanup(),
  };
}
