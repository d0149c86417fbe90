// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as the plugin renders it in Go, builds with `go build` and `go vet` against the Go SDK generated from
// the same full-docs schema, and is laid out as gofmt lays it out (`gofmt -l` lists nothing). Each example is its own
// `package main` directory in one module, the SDK linked with a `replace`, modules coming from the machine's module
// cache (goEnv()). So does the repeated-resources program (LOOP_PROGRAM, its own `loops` package) the upstream
// examples have no case of. Prints per peer: examples found, converted, compiling.
// Known problem, worked around and printed: Pulumi's Go generator writes `return nil, err` in the plain form of a
// function returning a bool (local's direxists), which does not compile (see language-go.test.ts); the test patches
// that line in the generated SDK to `return false, err`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderGo } from "../../src/schema-translate/examples/go.js";
import { convertExample } from "../../src/schema-translate/examples/index.js";
import { EXAMPLE_PEERS, LOOP_PROGRAM, peerExamples, peerModel, peerSchemaFile } from "../support/examples.js";
import { GO_SCALAR_RETURN_REASON, patchScalarReturns } from "../support/go-scalar-returns.js";
import { goEnv, hostsMissing } from "../support/languages.js";
import { removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { spawnAsync } from "../support/processes.js";
import { PULUMI_GO_SDK } from "../support/pulumi-tools.js";
import { runPulumi } from "../support/pulumi.js";

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

const SDK_MODULE = (peer: string): string => `github.com/pulumi/pulumi-terraform-provider/sdks/go/${peer}`;

describe.skipIf(hostsMissing()).each(EXAMPLE_PEERS)("%s examples in Go", (peer) => {
  it("build and vet against the generated SDK, and are gofmt-clean", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const schemaFile = await peerSchemaFile(peer);
    const resourceTokens = Object.keys((JSON.parse(readFileSync(schemaFile, "utf8")) as { resources?: Record<string, unknown> }).resources ?? {});
    const dir = scratch(`tfbridge-examples-go-${peer}-`);
    // Modules come from the machine's cache only (no network here); their sums are not checked against sum.golang.org.
    const env = {
      ...process.env,
      ...goEnv(),
      GOPROXY: "off",
      GOSUMDB: "off",
      PULUMI_HOME: join(dir, "home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      NO_COLOR: "1",
    };
    const run = async (cmd: string, args: string[], cwd: string): Promise<{ code: number; output: string }> => {
      const r = await spawnAsync(cmd, args, { cwd, env });
      return { code: r.status ?? -1, output: r.stdout + r.stderr };
    };
    const gen = await runPulumi(["package", "gen-sdk", schemaFile, "--language", "go", "--out", join(dir, "sdk")], { cwd: dir, env: withLanguageHosts(env) });
    expect(gen.code, gen.stdout + gen.stderr).toBe(0);
    const patched = patchScalarReturns(join(dir, "sdk", "go", peer));
    if (patched.length > 0) {
      console.log(
        `examples-go: patched \`return nil, err\` for a scalar result in the generated ${peer} SDK: ${patched.join(", ")}: ${GO_SCALAR_RETURN_REASON}`,
      );
    }

    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "go.mod"),
      `module examples\n\ngo 1.25\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}\n\t${SDK_MODULE(peer)} v0.0.0-00010101000000-000000000000\n)\n\nreplace ${SDK_MODULE(peer)} => ../sdk/go\n`,
    );
    const dirs = compilable.map((e, i) => {
      if (!e.conversion.ok) throw new Error("unreachable");
      const name = `example${i}`;
      const code = e.conversion.code.go ?? renderGo(e.conversion.program, { resourceTokens });
      mkdirSync(join(project, name));
      writeFileSync(join(project, name, "main.go"), `// ${e.page} #${e.index}\n${code}`);
      return name;
    });
    const loops = LOOP_PROGRAM[peer];
    if (loops !== undefined) {
      const c = convertExample(loops, await peerModel(peer));
      expect(c.ok && c.code.go !== undefined, c.ok ? JSON.stringify(c.skipped) : c.reason).toBe(true);
      if (c.ok && c.code.go !== undefined) {
        mkdirSync(join(project, "loops"));
        writeFileSync(join(project, "loops", "main.go"), c.code.go);
        dirs.push("loops");
      }
    }

    let failure = "";
    if (dirs.length > 0) {
      const tidy = await run("go", ["mod", "tidy"], project);
      expect(tidy.code, `go mod tidy:\n${tidy.output}`).toBe(0);
      // One main package would be linked into a binary; more are compiled and discarded.
      const build = await run("go", dirs.length === 1 ? ["build", "-o", join(dir, "bin"), "./..."] : ["build", "./..."], project);
      const vet = build.code === 0 ? await run("go", ["vet", "./..."], project) : { code: 0, output: "" };
      const fmt = await run("gofmt", ["-l", "."], project);
      if (build.code !== 0) failure += `go build:\n${build.output}\n`;
      if (vet.code !== 0) failure += `go vet:\n${vet.output}\n`;
      if (fmt.code !== 0 || fmt.output.trim() !== "") failure += `gofmt -l (not formatted as gofmt would):\n${fmt.output}\n`;
    }
    const failed = new Set([...failure.matchAll(/(example\d+)\//g)].map((m) => m[1]!));
    const loopsFigure = loops !== undefined ? `; repeated-resources program ${/loops\//.test(failure) ? "failing" : "compiling"}` : "";
    figures.push(
      `[examples-go] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}), compiling ${compilable.length - failed.size}${loopsFigure}`,
    );
    expect(failure, `Go over ${peer}'s examples:\n${failure}`).toBe("");
    expect(compilable.length).toBeGreaterThan(0);
  }, 600_000);
});
