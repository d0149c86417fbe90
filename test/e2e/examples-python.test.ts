// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as renderPython writes it, byte-compiles (`python -m py_compile`) and type-checks with `mypy --strict`
// against the Python SDK `pulumi package gen-sdk --language python` generates from the same full-docs schema, with the
// pulumi SDK from PyPI (3.248.0, the engine's version) beside it. Prints per peer: examples found, converted, compiling.
//
// The checker is mypy 1.18.2 from PyPI: a real checker that reads the SDKs' annotations (both ship py.typed), so it
// checks keyword arguments, the keys and value types of nested objects given as dicts (the SDK's `...ArgsDict`
// TypedDicts), attribute names and function signatures; pure Python, so pip installs it with nothing else (pyright
// would fetch its npm package on first use). Pinned, so a new release cannot change the verdict. mypy and pulumi live
// in one virtualenv cached in ~/.cache/pulumi-tf-bridge-ts/python-check/ (pip's cache beside it, as
// language-python.test.ts has it), so reruns download nothing.
//
// Errors inside the generated SDK are excluded (`ignore_errors` for `pulumi_<peer>.*`): Pulumi's generator writes code
// mypy faults even without --strict (`__args__ = dict()` typed by its first entry, then given other types) and much
// more with it (unannotated methods, `pulumi.get` returning Any). The example files get no such allowance.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderPython } from "../../src/schema-translate/examples/python.js";
import { EXAMPLE_PEERS, peerExamples, peerSchemaFile, type ExamplePeer, type PeerExample } from "../support/examples.js";
import { hostsMissing } from "../support/languages.js";
import { removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { execAsync, spawnAsync } from "../support/processes.js";
import { pulumiBinDir } from "../support/pulumi.js";

const PULUMI_SDK = "3.248.0";
const MYPY = "1.18.2";
const CACHE = join(homedir(), ".cache/pulumi-tf-bridge-ts");
const PIP_CACHE = join(CACHE, "pip");

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

const pipEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, PIP_CACHE_DIR: PIP_CACHE, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  delete env["VIRTUAL_ENV"];
  delete env["PYTHONPATH"];
  return env;
};

let venv: Promise<string> | undefined;

/**
 * The Python of a virtualenv with pulumi and mypy, made once per machine: built beside its final place and renamed
 * into it, so an interrupted install never leaves a half-made one to be reused.
 */
function checkerPython(): Promise<string> {
  venv ??= (async () => {
    const dir = join(CACHE, "python-check", `pulumi-${PULUMI_SDK}-mypy-${MYPY}`);
    const python = join(dir, "venv", "bin", "python");
    if (existsSync(python)) return python;
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `venv.tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    await execAsync("python3", ["-m", "venv", tmp], { env: pipEnv() });
    await execAsync(join(tmp, "bin", "python"), ["-m", "pip", "install", "--quiet", `pulumi==${PULUMI_SDK}`, `mypy==${MYPY}`], { env: pipEnv() });
    // Moved whole; the virtualenv's scripts would keep the old path, so it is only ever run as `python -m`.
    if (!existsSync(python)) renameSync(tmp, join(dir, "venv"));
    else rmSync(tmp, { recursive: true, force: true });
    return python;
  })();
  return venv;
}

/** `pulumi package gen-sdk <schema> --language python`: the SDK's folder (holding the `pulumi_<peer>` package). */
async function pythonSdk(peer: ExamplePeer, dir: string): Promise<string> {
  const env = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
  const out = join(dir, "gen");
  await execAsync(join(pulumiBinDir(), "pulumi"), ["--non-interactive", "package", "gen-sdk", await peerSchemaFile(peer), "--language", "python", "--out", out], {
    cwd: dir,
    env: withLanguageHosts(env),
  });
  const sdk = join(out, "python");
  expect(existsSync(join(sdk, `pulumi_${peer}`, "py.typed")), `pulumi_${peer} is typed`).toBe(true);
  return sdk;
}

/** Writes each example as `example<i>.py` (a module of its own, as each is its own program); returns the file names. */
function writeExamples(dir: string, examples: PeerExample[]): string[] {
  return examples.map((e, i) => {
    if (!e.conversion.ok) throw new Error(`${e.page} #${e.index} was not converted`);
    const file = `example${i}.py`;
    writeFileSync(join(dir, file), `# ${e.page} #${e.index}\n${renderPython(e.conversion.program)}`);
    return file;
  });
}

describe.skipIf(hostsMissing()).each(EXAMPLE_PEERS)("%s examples in Python", (peer) => {
  it("byte-compile and pass mypy --strict against the generated SDK", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const dir = scratch(`tfbridge-examples-py-${peer}-`);
    const [python, sdk] = await Promise.all([checkerPython(), pythonSdk(peer, dir)]);
    const project = join(dir, "project");
    mkdirSync(project);
    const files = writeExamples(project, compilable);
    writeFileSync(join(project, "mypy.ini"), `[mypy]\nstrict = True\nmypy_path = ${sdk}\ncache_dir = ${join(dir, "mypy-cache")}\n\n[mypy-pulumi_${peer}.*]\nignore_errors = True\n`);

    const failures: string[] = [];
    const failed = new Set<string>();
    if (files.length > 0) {
      const compiled = await spawnAsync(python, ["-m", "py_compile", ...files], { cwd: project, env: pipEnv() });
      if (compiled.status !== 0) failures.push(`python -m py_compile:\n${compiled.stdout}${compiled.stderr}`);
      const checked = await spawnAsync(python, ["-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary", ...files], { cwd: project, env: pipEnv() });
      if (checked.status !== 0) failures.push(`mypy --strict:\n${checked.stdout}${checked.stderr}`);
      for (const m of `${compiled.stdout}${compiled.stderr}${checked.stdout}`.matchAll(/(example\d+)\.py/g)) failed.add(m[1]!);
    }
    const compiling = compilable.length - failed.size;
    figures.push(`[examples-python] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}), compiling ${compiling}`);
    expect(failures.join("\n"), `${peer}'s examples in Python (files in ${project})`).toBe("");
    expect(compiling).toBe(compilable.length);
    expect(compilable.length).toBeGreaterThan(0);
  }, 900_000);
});
