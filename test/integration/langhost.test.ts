// The project's own language hosts (test/peers/pulumi/langhost) under their own Go tests: the executable's name picks
// the language, calls no language serves say so, and for each of Node.js, Python and Go an SDK written through the
// host's GeneratePackage equals, byte for byte, a direct call of the same Pulumi generator.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { goEnv } from "../support/languages.js";
import { repoRoot } from "../support/peers.js";

interface GoTestEvent {
  Action: string;
  Test?: string;
  Output?: string;
}

describe("langhost's Go tests", () => {
  it("pass, and cover every language's GeneratePackage against its generator", () => {
    const r = spawnSync("go", ["test", "-count=1", "-json", "./langhost/"], {
      cwd: join(repoRoot, "test/peers/pulumi"),
      encoding: "utf8",
      env: { ...process.env, ...goEnv(), CGO_ENABLED: "0" },
      maxBuffer: 64 << 20,
    });
    const events = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as GoTestEvent);
    const failed = events.filter((e) => e.Action === "fail" && e.Test !== undefined).map((e) => e.Test);
    const output = events.map((e) => e.Output ?? "").join("");
    expect(failed, output).toEqual([]);
    expect(r.status, `${r.stderr}\n${output}`).toBe(0);
    const passed = new Set(events.filter((e) => e.Action === "pass" && e.Test !== undefined).map((e) => e.Test!));
    expect([...passed]).toEqual(expect.arrayContaining(["TestLanguageFromExecutableName", "TestUnservedCallsNameTheStandIn"]));
    for (const language of ["Nodejs", "Python", "Go"]) {
      expect([...passed].filter((t) => new RegExp(`^Test${language}GeneratePackage`).test(t)), `a Test${language}GeneratePackage… test`).not.toEqual([]);
    }
  }, 900_000);
});
