// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as the plugin renders it in TypeScript, type-checks with `tsc --strict` against the Node.js SDK
// generated from the same full-docs schema, and so does the repeated-resources program (LOOP_PROGRAM) the upstream
// examples have no case of. Prints per peer: examples found, converted, compiling.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { convertExample } from "../../src/schema-translate/examples/index.js";
import { EXAMPLE_PEERS, LOOP_PROGRAM, peerExamples, peerModel, peerSchemaFile } from "../support/examples.js";
import { hostsMissing } from "../support/languages.js";
import { generateNodeSdk, linkNodeModules, removeScratch, scratch } from "../support/lifecycle.js";
import { sdkDeps } from "../support/pulumi-tools.js";
import { execAsync } from "../support/processes.js";

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

describe.skipIf(hostsMissing()).each(EXAMPLE_PEERS)("%s examples in TypeScript", (peer) => {
  it("compile with tsc --strict against the generated SDK", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const dir = scratch(`tfbridge-examples-ts-${peer}-`);
    const env = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
    const { sdk } = await generateNodeSdk([await peerSchemaFile(peer)], dir, env);
    const project = join(dir, "project");
    mkdirSync(project);
    linkNodeModules(project, { [`@pulumi/${peer}`]: join(sdk, "bin") });
    const files = compilable.map((e, i) => {
      const file = `example${i}.ts`;
      if (!e.conversion.ok) throw new Error("unreachable");
      // Each file is its own module, as each example is its own program.
      writeFileSync(join(project, file), `// ${e.page} #${e.index}\n${e.conversion.code.typescript}\nexport {};\n`);
      return file;
    });
    const loops = LOOP_PROGRAM[peer];
    if (loops !== undefined) {
      const c = convertExample(loops, await peerModel(peer));
      expect(c.ok && c.code.typescript !== undefined, c.ok ? "" : c.reason).toBe(true);
      if (c.ok) writeFileSync(join(project, "loops.ts"), `${c.code.typescript}\nexport {};\n`);
      files.push("loops.ts");
    }
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node", noEmit: true, skipLibCheck: true, types: ["node"] }, files }, null, 2),
    );
    let failure = "";
    if (files.length > 0) {
      try {
        await execAsync(join(sdkDeps(), ".bin", "tsc"), ["-p", project], { cwd: project });
      } catch (e) {
        failure = String((e as { stdout?: string }).stdout ?? e);
      }
    }
    const failed = new Set([...failure.matchAll(/^(example\d+)\.ts\(/gm)].map((m) => m[1]!));
    figures.push(`[examples-typescript] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}), compiling ${compilable.length - failed.size}${loops !== undefined ? `; repeated-resources program ${/^loops\.ts\(/m.test(failure) ? "failing" : "compiling"}` : ""}`);
    expect(failure, `tsc --strict over ${peer}'s examples:\n${failure}`).toBe("");
    expect(compilable.length).toBeGreaterThan(0);
  }, 600_000);
});
