// `pulumi package gen-sdk` through Pulumi's real Node.js, Python and Go language hosts for every real peer, each SDK then
// compiled strictly: tsc with the strictest options a generated package can meet, a virtualenv install plus an import
// that touches every resource and function, `go build` and `go vet`. Prints gen-sdk and compile times per peer and language.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GO_SCALAR_RETURN_REASON, patchScalarReturns } from "../support/go-scalar-returns.js";
import { goEnv, hostsMissing, languageSandbox } from "../support/languages.js";
import { genSdkDiagnostics, removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath, pins } from "../support/peers.js";
import { PULUMI_GO_SDK, PULUMI_NODE_SDK, sdkDeps } from "../support/pulumi-tools.js";
import { spawnAsync, type Ran } from "../support/processes.js";
import { expectSuccess, runPulumi, type PulumiSandbox } from "../support/pulumi.js";
import { PULUMI_PYTHON_SDK, pythonBase, pythonVenv } from "../support/python.js";

const peers = Object.keys(pins);
const timings: { peer: string; language: string; genSdk: number; compile: number }[] = [];

interface Schema {
  resources?: Record<string, unknown>;
  functions?: Record<string, { outputs?: { type?: string; properties?: unknown } }>;
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const r = await f();
  return [r, Math.round(performance.now() - start)];
}

/** Runs a command and fails the test with its whole output unless it exits 0. */
async function run(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  const r = await spawnAsync(cmd, args, options);
  expect(r.status, `${cmd} ${args.join(" ")} in ${options.cwd ?? "."}:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}

/** Imports the installed SDK and touches every resource class (its static get, under mocks) and every function. */
const PY_TOUCH = String.raw`
import importlib, json, re, sys
import pulumi

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [args.name + "-id", args.inputs]
    def call(self, args):
        return {}

pulumi.runtime.set_mocks(Mocks(), preview=False)
name, schema = sys.argv[1], json.loads(sys.argv[2])
pkg = importlib.import_module("pulumi_" + name)
def module(token):
    mod = token.split(":")[1].split("/")[0]
    return pkg if mod == "index" else importlib.import_module("pulumi_" + name + "." + mod.replace("-", "_"))
touched = []
for token in schema.get("resources", {}):
    cls = token.split(":")[2]
    c = getattr(module(token), cls)
    assert issubclass(c, pulumi.CustomResource), token
    c.get(cls.lower() + "-got", "an-id")
    touched.append(cls)
for token in schema.get("functions", {}):
    if token.startswith("pulumi:providers:"):
        assert callable(pkg.Provider.terraform_config), token
        continue
    fn = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", token.split(":")[2]).lower()
    assert callable(getattr(module(token), fn)), token + " as " + fn
    touched.append(fn)
pkg.Provider("prov")
print(json.dumps(touched))
`;

/**
 * Functions whose result is not an object (provider-defined Terraform functions: bridgetest's join and reverse,
 * local's direxists). Pulumi's Go generator (pkg/v3 v3.248.0 to v3.276.0, codegen/go/gen.go, genFunction) writes
 * `return nil, err` after PkgGetPackageRef for every function of a parameterized package, which is no Go for a
 * `(string, error)` or `(bool, error)` function. The reference's schema has the same functions (reference-schema.test.ts),
 * so its Go SDKs fail alike: an upstream bug, expected here by file and then patched so that the rest is built and vetted.
 */
function scalarFunctionFiles(schema: Schema, peer: string): string[] {
  return Object.entries(schema.functions ?? {})
    .filter(([token, f]) => !token.startsWith("pulumi:providers:") && f.outputs !== undefined && f.outputs.properties === undefined)
    .map(([token]) => `${peer}/${token.split(":")[2]!.toLowerCase()}.go`)
    .sort();
}

describe.skipIf(hostsMissing())("pulumi package gen-sdk for every real peer, compiled strictly", () => {
  let sandbox: PulumiSandbox;
  let nodeModules = "";
  let python = "";
  const schemas = new Map<string, Schema>();

  beforeAll(async () => {
    sandbox = languageSandbox();
    nodeModules = sdkDeps();
    python = await pythonVenv(await pythonBase());
  }, 900_000);

  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
    if (timings.length > 0) {
      console.log(
        ["gen-sdk and compile times (ms):", ...timings.map((t) => `  ${t.peer.padEnd(10)} ${t.language.padEnd(6)} gen-sdk ${String(t.genSdk).padStart(6)}  compile ${String(t.compile).padStart(6)}`)].join("\n"),
      );
    }
  });

  async function schemaOf(peer: string): Promise<Schema> {
    if (!schemas.has(peer)) {
      const r = expectSuccess(await runPulumi(["package", "get-schema", "terraform-provider", peerPath(peer)], { cwd: scratch("tfbridge-schema-"), env: sandbox.env }), `get-schema ${peer}`);
      schemas.set(peer, JSON.parse(r.stdout) as Schema);
    }
    return schemas.get(peer)!;
  }

  /** `pulumi package gen-sdk terraform-provider <peer> --language L --out <dir>`; returns the SDK folder and its time. */
  async function genSdk(peer: string, language: string): Promise<[string, number]> {
    const out = scratch(`tfbridge-gensdk-${peer}-`);
    const start = performance.now();
    const r = expectSuccess(
      await runPulumi(["package", "gen-sdk", "terraform-provider", peerPath(peer), "--language", language, "--out", out], { cwd: out, env: sandbox.env }),
      `gen-sdk ${peer} ${language}`,
    );
    const ms = Math.round(performance.now() - start);
    expect(genSdkDiagnostics(r.stdout + "\n" + r.stderr), `gen-sdk ${peer} --language ${language} diagnostics`).toEqual([]);
    const dir = join(out, language);
    expect(existsSync(dir), dir).toBe(true);
    return [dir, ms];
  }

  function record(peer: string, language: string, genSdk: number, compile: number): void {
    timings.push({ peer, language, genSdk, compile });
    console.log(`${peer} ${language}: gen-sdk ${genSdk} ms, compile ${compile} ms`);
  }

  describe.each(peers)("%s", (peer) => {
    it(`nodejs: compiles with tsc --strict and more against @pulumi/pulumi ${PULUMI_NODE_SDK}, and the compiled package loads`, async () => {
      const schema = await schemaOf(peer);
      const [dir, genMs] = await genSdk(peer, "nodejs");
      const pkgFile = join(dir, "package.json");
      const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { name: string; dependencies: Record<string, string> };
      expect(pkg.name).toBe(`@pulumi/${peer}`);
      // The language hosts' release, in place of the range the generator writes.
      pkg.dependencies["@pulumi/pulumi"] = PULUMI_NODE_SDK;
      writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
      symlinkSync(nodeModules, join(dir, "node_modules"));
      // The generated tsconfig (strict already) plus every check a generated package can meet, libraries checked too.
      // Left out: noImplicitOverride and noUnusedLocals/Parameters, which Pulumi's generator fails for any schema
      // (`static readonly __pulumiType` without `override`, unused `inputs`/`outputs`/`utilities` imports).
      const strict = {
        strict: true, noImplicitAny: true, noImplicitThis: true, strictNullChecks: true, strictFunctionTypes: true,
        strictBindCallApply: true, strictPropertyInitialization: true, useUnknownInCatchVariables: true, alwaysStrict: true,
        noImplicitReturns: true, noFallthroughCasesInSwitch: true, exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true, forceConsistentCasingInFileNames: true,
        skipLibCheck: false,
      };
      writeFileSync(join(dir, "tsconfig.strict.json"), JSON.stringify({ extends: "./tsconfig.json", compilerOptions: strict }, null, 2));
      const [, tscMs] = await timed(() => run(join(nodeModules, ".bin", "tsc"), ["-p", join(dir, "tsconfig.strict.json")], { cwd: dir }));
      writeFileSync(join(dir, "bin", "package.json"), JSON.stringify(pkg, null, 2));
      const classes = Object.keys(schema.resources ?? {}).map((t) => t.split(":")[2]!);
      const load = `const m = require(${JSON.stringify(join(dir, "bin"))}); const missing = ${JSON.stringify(classes)}.filter((c) => typeof m[c] !== "function"); if (missing.length || typeof m.Provider !== "function") { console.error("missing:", missing); process.exit(1); }`;
      await run(process.execPath, ["-e", load], { cwd: dir });
      record(peer, "nodejs", genMs, tscMs);
    }, 300_000);

    it(`python: installs into a virtualenv with pulumi ${PULUMI_PYTHON_SDK}, imports with every resource and function touched, and byte-compiles`, async () => {
      const schema = await schemaOf(peer);
      const [dir, genMs] = await genSdk(peer, "python");
      const [touched, pyMs] = await timed(async () => {
        await run(python, ["-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", "--disable-pip-version-check", dir]);
        const r = await run(python, ["-c", PY_TOUCH, peer, JSON.stringify(schema)]);
        await run(python, ["-m", "compileall", "-q", join(dir, `pulumi_${peer}`)]);
        return JSON.parse(r.stdout.trim().split("\n").pop()!) as string[];
      });
      expect(touched.length).toBeGreaterThanOrEqual(Object.keys(schema.resources ?? {}).length);
      record(peer, "python", genMs, pyMs);
    }, 300_000);

    it(`go: go build ./... and go vet ./... against github.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}`, async () => {
      const schema = await schemaOf(peer);
      const [dir, genMs] = await genSdk(peer, "go");
      const env = { ...process.env, ...goEnv() };
      const [, goMs] = await timed(async () => {
        const gomod = join(dir, "go.mod");
        writeFileSync(gomod, readFileSync(gomod, "utf8").replace(/(github\.com\/pulumi\/pulumi\/sdk\/v3) v\S+/, `$1 ${PULUMI_GO_SDK}`));
        await run("go", ["mod", "tidy"], { cwd: dir, env });
        const expected = scalarFunctionFiles(schema, peer);
        if (expected.length > 0) {
          const broken = await spawnAsync("go", ["build", "./..."], { cwd: dir, env });
          const failures = [...broken.stderr.matchAll(/^(\S+\.go):\d+:\d+: cannot use nil as \w+ value in return statement$/gm)].map((m) => m[1]!).sort();
          const other = broken.stderr.split("\n").filter((l) => l !== "" && !l.startsWith("#") && !/cannot use nil as \w+ value in return statement$/.test(l));
          expect({ failures, other }, broken.stderr).toEqual({ failures: expected, other: [] });
          expect(patchScalarReturns(join(dir, peer)).map((f) => `${peer}/${f}`)).toEqual(expected);
          console.log(`gen-sdk ${peer} go: patched \`return nil, err\` in ${expected.join(", ")}: ${GO_SCALAR_RETURN_REASON}`);
        }
        await run("go", ["build", "./..."], { cwd: dir, env });
        await run("go", ["vet", "./..."], { cwd: dir, env });
      });
      record(peer, "go", genMs, goMs);
    }, 900_000);
  });
});
