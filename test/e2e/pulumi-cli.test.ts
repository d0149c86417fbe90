// End to end with the real Pulumi CLI (v3.276.0): install the packaged plugin, let the engine start it, add a bridged
// Terraform provider to a YAML project, generate a TypeScript SDK for it with `pulumi package gen-sdk` (compiled
// against @pulumi/pulumi PULUMI_NODE_SDK) and run it from an Automation API program (on Node 24, as that SDK needs 22+).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { installPlugin, isOurExecutable, packagedNode } from "../support/e2e.js";
import { generateNodeSdk, linkNodeModules } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { expectSuccess, pulumiBinDir, pulumiSandbox, runPulumi, tempDir as makeTempDir, type PulumiSandbox } from "../support/pulumi.js";

let sandbox: PulumiSandbox;
const dirs: string[] = [];
const tempDir = (prefix: string): string => {
  const d = makeTempDir(prefix);
  dirs.push(d);
  return d;
};
let tarball: string;

beforeAll(() => {
  pulumiBinDir(); // first run builds the CLI from the Go module proxy (minutes)
  sandbox = pulumiSandbox();
  // Where the engine's runs of the executable unpack its files: private to this file, so the tests can look inside.
  sandbox.env["TF_BRIDGE_SEA_DIR"] = tempDir("tfbridge-e2e-unpacked-");
  // Every test below needs the engine to find our plugin: install the packaged tarball, as a user would.
  tarball = installPlugin(sandbox);
}, 1_200_000);

afterAll(() => {
  sandbox?.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const random = (): string => peerPath("random");

describe("the packaged plugin", () => {
  it("installs with `pulumi plugin install resource terraform-provider <version> --file <tarball>`", async () => {
    expect(tarball).toMatch(new RegExp(`pulumi-resource-terraform-provider-v${VERSION.replace(/\./g, "\\.")}-linux-amd64\\.tar\\.gz$`));
    const cwd = tempDir("tfbridge-e2e-");
    const ls = expectSuccess(await runPulumi(["plugin", "ls", "--json"], { cwd, env: sandbox.env }), "plugin ls");
    const plugins = JSON.parse(ls.stdout) as { name: string; kind: string; version: string; path?: string }[];
    expect(plugins).toContainEqual(expect.objectContaining({ name: "terraform-provider", kind: "resource", version: VERSION }));
    const dir = join(sandbox.home, "plugins", `resource-terraform-provider-v${VERSION}`);
    // One file, the single executable: no launcher script, no bundle beside it, nothing that needs Node on PATH.
    expect(readdirSync(dir).filter((f) => !f.startsWith(".") && !f.endsWith(".lock") && !f.endsWith(".partial"))).toEqual(["pulumi-resource-terraform-provider"]);
    expect(isOurExecutable(join(dir, "pulumi-resource-terraform-provider"))).toBe(true);
  });

  it("is started by the engine: `pulumi package get-schema terraform-provider <path>`", async () => {
    const cwd = tempDir("tfbridge-e2e-");
    const r = expectSuccess(await runPulumi(["package", "get-schema", "terraform-provider", random()], { cwd, env: sandbox.env }), "get-schema");
    const schema = JSON.parse(r.stdout) as Record<string, any>;
    expect(schema["name"]).toBe("random");
    expect(schema["version"]).toBe("0.0.0");
    expect(schema["parameterization"]["baseProvider"]).toEqual({ name: "terraform-provider", version: VERSION });
    expect(JSON.parse(Buffer.from(schema["parameterization"]["parameter"], "base64").toString())).toEqual({ local: { path: random() } });
    // The engine's run unpacked the executable's files into the user's cache (src/server/unpack.ts): the definitions and
    // the HCL parser it reads from disk. It started from its startup snapshot (src/server/snapshot.ts), so it compiled
    // no bundle and left no V8 code cache there (that is the other platforms' path, src/server/boot.ts).
    const unpacked = sandbox.env["TF_BRIDGE_SEA_DIR"]!;
    const builds = readdirSync(unpacked).filter((d) => existsSync(join(unpacked, d, ".complete")));
    expect(builds).toHaveLength(1);
    const dist = readdirSync(join(unpacked, builds[0]!, "dist"));
    expect(dist).toEqual(expect.arrayContaining(["proto", "node_modules"]));
    expect(dist.filter((f) => f.endsWith(".v8cache"))).toEqual([]);
  });

  it("passes the engine a clear error for a bad parameter", async () => {
    const cwd = tempDir("tfbridge-e2e-");
    const r = await runPulumi(["package", "get-schema", "terraform-provider", "--", "hashicorp/random", "--include", "a", "--exclude", "a"], { cwd, env: sandbox.env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/tokens cannot be both included and excluded: a/);
  });
});

describe("a YAML project", () => {
  let project: string;

  beforeAll(() => {
    project = tempDir("tfbridge-yaml-");
    writeFileSync(
      join(project, "Pulumi.yaml"),
      [
        "name: tfrandom",
        "runtime: yaml",
        "resources:",
        "  pet:",
        "    type: random:index/pet:Pet",
        "    properties:",
        "      length: 2",
        "  suffix:",
        "    type: random:index/string:String",
        "    properties:",
        "      length: 6",
        "      special: false",
        "outputs:",
        "  name: ${pet.id}-${suffix.result}",
        "",
      ].join("\n"),
    );
  });

  it("`pulumi package add terraform-provider <path>` records the package with its parameterization", async () => {
    const r = expectSuccess(await runPulumi(["package", "add", "terraform-provider", random()], { cwd: project, env: sandbox.env }), "package add");
    expect(r.stderr).toMatch(/Added package random/);
    const yaml = readFileSync(join(project, "Pulumi.yaml"), "utf8");
    expect(yaml).toContain(["packages:", "  random:", "    source: terraform-provider", `    version: ${VERSION}`, "    parameters:", `      - ${random()}`].join("\n"));
    expect(existsSync(join(project, "sdks", "random", "random-0.0.0.yaml"))).toBe(true);
  });

  it("previews, deploys and destroys a program using random:index/... resources", async () => {
    const run = async (args: string[], what: string) => expectSuccess(await runPulumi(args, { cwd: project, env: sandbox.env }), what);
    await run(["stack", "init", "dev"], "stack init");
    const preview = await run(["preview"], "preview");
    expect(preview.stdout).toMatch(/\+\s+random:index:Pet\s+pet\s+create/);
    expect(preview.stdout).toMatch(/\+\s+random:index:String\s+suffix\s+create/);
    expect(preview.stdout).toMatch(/\+ 3 to create|\+ 2 to create/);
    // Progress lines (shown only when a launch takes 0.5 s, which depends on the machine's load) are ephemeral: none
    // ends up in the stack's diagnostics, and there are no diagnostics at all.
    expect(preview.stdout).not.toMatch(/Diagnostics:/);
    await run(["up", "--yes"], "up");
    const name = JSON.parse((await run(["stack", "output", "--json"], "stack output")).stdout) as { name: string };
    expect(name.name).toMatch(/^[a-z]+-[a-z]+-[A-Za-z0-9]{6}$/);
    const again = await run(["preview", "--expect-no-changes"], "second preview");
    expect(again.stdout).not.toMatch(/to create|to update|to replace/);
    await run(["destroy", "--yes"], "destroy");
  }, 600_000);
});

describe("a TypeScript SDK", () => {
  let sdkDir = "";

  it("cannot come from `pulumi package gen-sdk --language nodejs` without pulumi-language-nodejs on PATH: the error names it", async () => {
    const cwd = tempDir("tfbridge-gen-");
    // The user's PATH may well hold a Pulumi install with its language hosts: take every folder that has one out.
    const path = (sandbox.env["PATH"] ?? "").split(":").filter((d) => d !== "" && !existsSync(join(d, "pulumi-language-nodejs")));
    expect(existsSync(join(pulumiBinDir(), "pulumi-language-nodejs")), "the CLI's own folder has no Node.js host").toBe(false);
    const env = { ...sandbox.env, PATH: path.join(":") };
    const r = await runPulumi(["package", "gen-sdk", "terraform-provider", random(), "--language", "nodejs", "--out", "sdk"], { cwd, env });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/no language plugin 'pulumi-language-nodejs'/);
  });

  it("generated from our plugin by `pulumi package gen-sdk` through the Node.js language host, compiles with tsc", async () => {
    const { sdk, pkg } = await generateNodeSdk(["terraform-provider", random()], tempDir("tfbridge-sdk-"), sandbox.env);
    expect(pkg["name"]).toBe("@pulumi/random");
    expect(pkg["pulumi"]).toMatchObject({ resource: true, name: "terraform-provider", version: VERSION, parameterization: { name: "random", version: "0.0.0" } });
    const value = (pkg["pulumi"] as { parameterization: { value: string } }).parameterization.value;
    expect(JSON.parse(Buffer.from(value, "base64").toString())).toEqual({ local: { path: random() } });
    for (const f of ["index.js", "index.d.ts", "pet.js", "pet.d.ts", "provider.js", "package.json"]) expect(existsSync(join(sdk, "bin", f)), f).toBe(true);
    expect(readFileSync(join(sdk, "bin", "pet.d.ts"), "utf8")).toMatch(/class Pet extends pulumi\.CustomResource/);
    sdkDir = sdk;
  }, 900_000);

  // The Automation API is a supported way to run programs, and the only test here that loads the SDK in the published
  // layout (bin/ as the npm package) from a program the Node.js language host does not start.
  it("runs from an Automation API inline program: preview, up, no-change preview, destroy", async () => {
    expect(sdkDir, "the SDK test above must run first").not.toBe("");
    const program = tempDir("tfbridge-tsprog-");
    linkNodeModules(program, { "@pulumi/random": join(sdkDir, "bin") });
    writeFileSync(join(program, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2020", module: "commonjs", strict: true, esModuleInterop: true, skipLibCheck: true, types: ["node"], outDir: "bin" },
      files: ["index.ts"],
    }));
    writeFileSync(join(program, "index.ts"), [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { LocalWorkspace } from "@pulumi/pulumi/automation";',
      'import * as random from "@pulumi/random";',
      "",
      "async function main(): Promise<void> {",
      "  const stack = await LocalWorkspace.createOrSelectStack({",
      '    stackName: "dev",',
      '    projectName: "tsprogram",',
      "    program: async () => {",
      '      const pet = new random.Pet("pet", { length: 2 });',
      '      const suffix = new random.String("suffix", { length: 5, special: false });',
      "      return { name: pulumi.interpolate`${pet.id}-${suffix.result}` };",
      "    },",
      "  });",
      "  const preview = await stack.preview();",
      "  const up = await stack.up();",
      "  const again = await stack.preview();",
      "  const down = await stack.destroy();",
      "  console.log(JSON.stringify({ preview: preview.changeSummary, up: up.summary.resourceChanges, name: up.outputs[\"name\"]?.value, again: again.changeSummary, down: down.summary.resourceChanges }));",
      "}",
      "main().catch((e) => { console.error(e); process.exit(1); });",
      "",
    ].join("\n"));
    execFileSync(join(program, "node_modules", "typescript", "bin", "tsc"), ["-p", program], { stdio: ["ignore", "inherit", "inherit"] });
    const out = execFileSync(packagedNode().bin, [join(program, "bin", "index.js")], { cwd: program, env: sandbox.env, encoding: "utf8", timeout: 600_000 });
    const result = JSON.parse(out.trim().split("\n").pop()!) as Record<string, Record<string, number> | string>;
    expect(result["preview"]).toMatchObject({ create: 3 });
    expect(result["up"]).toMatchObject({ create: 3 });
    expect(result["name"]).toMatch(/^[a-z]+-[a-z]+-[A-Za-z0-9]{5}$/);
    expect(result["again"]).toEqual({ same: 3 });
    expect(result["down"]).toMatchObject({ delete: 3 });
  }, 900_000);
});
