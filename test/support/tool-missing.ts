// The one rule for a tool some tests need and the machine lacks: here they skip, saying why and how to get it; in CI
// (where .ci/run installs every tool) they fail instead, so a run cannot pass with them skipped.

/** Whether `CI` says this is a CI run: set, and not empty, `false` or `0`. */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env["CI"];
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

/** Which tests a tool serves, and what to do to get it. */
export interface NeededTool {
  /** "the proxy tests", "the rendered-docs test" */
  tests: string;
  /** The command that installs it, or the steps that set it up. */
  install: string;
  /** How the fix is introduced in CI's error: "Install it" unless it is set up otherwise. */
  verb?: string;
}

/**
 * `describe.skipIf(toolMissing(why, tool))`: false when `why` is undefined (the tool is there); otherwise true, with
 * the reason and the fix printed, or, in CI, an error saying that these tests may not be skipped.
 */
export function toolMissing(why: string | undefined, tool: NeededTool, env: NodeJS.ProcessEnv = process.env): boolean {
  if (why === undefined) return false;
  if (inCi(env)) throw new Error(`${why}; CI=${env["CI"]} does not allow skipping ${tool.tests}. ${tool.verb ?? "Install it"}: ${tool.install}`);
  console.warn(`skipping ${tool.tests}: ${why}. To run ${/tests$/.test(tool.tests) ? "them" : "it"}: ${tool.install}`);
  return true;
}
