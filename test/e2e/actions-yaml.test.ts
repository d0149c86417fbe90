// Terraform actions through the real Pulumi CLI from YAML: `fn::invoke` of bridgetest's and local's actions. A preview
// validates and plans them (the action's record shows no InvokeAction, no file is written); `pulumi up` runs them,
// their progress in the update's output; a failing action fails the update naming it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const rpcs = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as { rpc: string }).rpc) : [];

describe("Terraform actions (YAML, fn::invoke)", () => {
  it("preview plans only; up runs bridgetest:actions/progress and local:actions/command, progress shown; refuse fails naming the action", async () => {
    const work = scratch("tfbridge-actions-yaml-");
    const record = join(work, "record.jsonl");
    const out = join(work, "out.txt");
    const s = await YamlScenario.create(sandbox, "actions-yaml", ["bridgetest", "local"]);
    const program = (extra = ""): string =>
      [
        "variables:",
        "  progressed:",
        "    fn::invoke:",
        "      function: bridgetest:actions/progress:progress",
        "      arguments:",
        "        steps: 3",
        "        message: yaml-step",
        `        recordFile: ${record}`,
        "  commanded:",
        "    fn::invoke:",
        "      function: local:actions/command:command",
        "      arguments:",
        "        command: sh",
        `        arguments: ["-c", "printf %s ran-from-yaml > ${out}"]`,
        extra,
        "outputs:",
        "  done: yes",
      ].join("\n");
    s.program(program());

    const preview = await s.ok(["preview"]);
    expect(rpcs(record)).toEqual(["ValidateActionConfig", "PlanAction"]);
    expect(existsSync(out)).toBe(false);
    expect(preview.stdout).not.toContain("yaml-step 1/3");

    const up = await s.ok(["up", "--yes", "--skip-preview"]);
    expect(rpcs(record)).toEqual(["ValidateActionConfig", "PlanAction", "ValidateActionConfig", "PlanAction", "InvokeAction"]);
    expect(readFileSync(out, "utf8")).toBe("ran-from-yaml");
    const text = up.stdout + up.stderr;
    console.log(`[actions-yaml] up output:\n${text}`);
    for (const n of [1, 2, 3]) expect(text).toContain(`bridgetest_progress: yaml-step ${n}/3`);
    expect(text.indexOf("yaml-step 1/3")).toBeLessThan(text.indexOf("yaml-step 3/3"));

    s.program(program(["  refused:", "    fn::invoke:", "      function: bridgetest:actions/refuse:refuse", "      arguments:", "        steps: 1"].join("\n")));
    const failed = await s.pulumi(["up", "--yes", "--skip-preview"]);
    expect(failed.code).not.toBe(0);
    const failure = failed.stdout + failed.stderr;
    console.log(`[actions-yaml] failing up output:\n${failure}`);
    expect(failure).toContain("Terraform action bridgetest_refuse (bridgetest:actions/refuse:refuse) failed");
    expect(failure).toContain("bridgetest_refuse always fails after its progress events");
    await s.ok(["destroy", "--yes"]);
  }, 900_000);
});
