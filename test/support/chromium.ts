// Debian's chromium for the tests that look at the docs as a reader does, found where apt installs it; a missing one
// skips them outside CI and fails the run in CI (.ci/run installs it).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { toolMissing } from "./tool-missing.js";

/** /usr/bin/chromium (Debian's package), else the first chromium or chromium-browser on PATH, else undefined. */
export function findChromium(path: string = process.env["PATH"] ?? ""): string | undefined {
  for (const dir of ["/usr/bin", ...path.split(":").filter((d) => d !== "")]) {
    for (const name of ["chromium", "chromium-browser"]) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** What to run to get chromium, printed with every skip. */
export const CHROMIUM_INSTALL = "sudo apt-get install chromium (Debian; chromium-browser on Ubuntu), or run bash .ci/run, which installs it";

/**
 * True, with the reason and the command to fix it printed, when chromium is not installed: the rendered-docs tests skip.
 * In CI a missing chromium fails the run instead.
 */
export function chromiumMissing(env: NodeJS.ProcessEnv = process.env, find: () => string | undefined = () => findChromium(env["PATH"])): boolean {
  return toolMissing(find() === undefined ? "chromium is not installed" : undefined, { tests: "the rendered-docs test", install: CHROMIUM_INSTALL }, env);
}
