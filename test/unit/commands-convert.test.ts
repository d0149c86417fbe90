// The commands' pure parts: `convert`'s arguments, the package blocks it retargets, the `pulumi` requirement it pins
// for Python; the Pulumi.yaml reader and writer (the pin `convert` removes, the packages `adopt` reads); the registry
// hosts its stand-in serves, and the user's proxy settings it carries to the plugins it starts.
import { describe, expect, it } from "vitest";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addStd, ensureStdPlugin, expectedWarning, parseConvertArgs, programProblem, pinPulumiRequirement, pythonHostVersion, retargetPackageBlocks, stdImport } from "../../src/commands/convert.js";
import { registryHosts } from "../../src/commands/registry-proxy.js";
import { restoreUserProxy, USER_PROXY_ENV, userProxyValue } from "../../src/commands/user-proxy.js";
import { pinnedProject, projectPackages, pythonVirtualenvRuntime, unpinProject } from "../../src/commands/pulumi-yaml.js";
import { UsageError } from "../../src/commands/usage.js";
import { VERSION } from "../../src/version.js";
import { tempDir } from "../support/temp.js";

/** A package block as Pulumi's Terraform converter writes it (hclwrite), and one of a provider Pulumi publishes. */
const BRIDGED = `package {
  baseProviderName    = "terraform-provider"
  baseProviderVersion = "0.8.1"
  parameterization {
    version = "2.5.3"
    name    = "local"
    value   = "eyJyZW1vdGUiOnsidXJsIjoiaGFzaGljb3JwL2xvY2FsIiwidmVyc2lvbiI6IjIuNS4zIn19"
  }
}
`;
const NATIVE = `package {
  baseProviderName    = "random"
  baseProviderVersion = "4.18.0"
}
`;
const PROGRAM = `resource "worker" "local:index/file:File" {
  baseProviderVersion = "0.8.1"
}
`;

describe("parseConvertArgs", () => {
  it("takes pulumi convert's flags, both spellings, and the converter's arguments after --", () => {
    expect(parseConvertArgs(["--language", "python", "--out=../x", "--name", "shop", "--strict", "--generate-only=false", "--mappings", "a.json,b.json", "--from", "tf", "--", "--convert-examples"])).toEqual({
      language: "python",
      out: "../x",
      name: "shop",
      strict: true,
      generateOnly: false,
      mappings: ["a.json", "b.json"],
      converterArgs: ["--convert-examples"],
    });
  });

  it.each([
    [[], /--language is required/],
    [["--language"], /--language needs a value/],
    [["--language", "yaml", "main.tf"], /unexpected argument 'main.tf'.*current directory/],
    [["--language", "yaml", "--from", "bicep"], /converts Terraform projects only.*pulumi convert --from bicep/],
    [["--language", "pcl"], /PCL is what/],
    [["--language", "yaml", "--bogus"], /unknown flag --bogus/],
    [["--language", "yaml", "--strict=maybe"], /--strict takes no value or true\/false, not 'maybe'/],
  ])("%j is refused, saying why", (argv, message) => {
    expect(() => parseConvertArgs(argv)).toThrow(UsageError);
    expect(() => parseConvertArgs(argv)).toThrow(message);
  });
});

describe("retargetPackageBlocks", () => {
  it("sets the version of terraform-provider package blocks only", () => {
    const { text, changed } = retargetPackageBlocks(`${NATIVE}\n${BRIDGED}\n${PROGRAM}`, VERSION);
    expect(changed).toBe(1);
    expect(text).toBe(`${NATIVE}\n${BRIDGED.replace('"0.8.1"', JSON.stringify(VERSION))}\n${PROGRAM}`);
  });

  it("changes every bridged block, and nothing in a program without one", () => {
    expect(retargetPackageBlocks(`${BRIDGED}${BRIDGED.replace("local", "httpapi")}`, "9.9.9-x").changed).toBe(2);
    expect(retargetPackageBlocks(PROGRAM, VERSION)).toEqual({ text: PROGRAM, changed: 0 });
  });
});

describe("unpinProject", () => {
  const pin = `  terraform-provider: terraform-provider@${VERSION}`;
  const unpin = (text: string) => unpinProject(text, "terraform-provider", `terraform-provider@${VERSION}`);
  it("removes the pin and the packages key it leaves empty", () => {
    expect(unpin(`name: shop\nruntime: nodejs\npackages:\n${pin}\n`)).toBe("name: shop\nruntime: nodejs\n");
  });
  it("keeps other packages", () => {
    expect(unpin(`name: shop\npackages:\n${pin}\n  local: x\nruntime: yaml\n`)).toBe("name: shop\npackages:\n  local: x\nruntime: yaml\n");
  });
  it("says when the pin is not there (undefined)", () => {
    expect(unpin("name: shop\nruntime: nodejs\n")).toBeUndefined();
  });
});

describe("pinPulumiRequirement", () => {
  it("caps the range Pulumi's generator writes at the host's release, keeping the SDK paths", () => {
    expect(pinPulumiRequirement("pulumi>=3.0.0,<4.0.0\nsdks/local\n", "3.248.0")).toBe("pulumi<=3.248.0\nsdks/local\n");
  });
  it("caps a bare or differently spelled requirement, and no other package", () => {
    expect(pinPulumiRequirement("pulumi-random>=4.0.0\nPulumi ~= 3.200\npulumi_extra==1\npulumi\n", "3.259.0")).toBe("pulumi-random>=4.0.0\npulumi<=3.259.0\npulumi_extra==1\npulumi<=3.259.0\n");
  });
  it("says when there is no pulumi requirement (undefined)", () => {
    expect(pinPulumiRequirement("sdks/local\npulumi-random\n", "3.248.0")).toBeUndefined();
  });
});

describe("pythonHostVersion", () => {
  /** The plugins part of `pulumi about --json` (CLI v3.276.0, a Python project, the v3.248.0 host on PATH). */
  const about = (version: string): string =>
    JSON.stringify({
      plugins: [
        { name: "python", version, kind: "language" },
        { name: "terraform-provider", version: "0.1.0-ts", kind: "resource" },
      ],
      cliAbout: { version: "3.276.0" },
    });
  it("is the Python language host's release", () => {
    expect(pythonHostVersion(about("3.248.0"))).toBe("3.248.0");
    expect(pythonHostVersion(about("v3.259.0"))).toBe("3.259.0");
  });
  it("is undefined for a development build, no Python host, or output that is not JSON", () => {
    expect(pythonHostVersion(about("3.260.0-alpha.x1234"))).toBeUndefined();
    expect(pythonHostVersion(JSON.stringify({ plugins: [{ name: "nodejs", version: "3.248.0", kind: "language" }] }))).toBeUndefined();
    expect(pythonHostVersion(JSON.stringify({ plugins: null }))).toBeUndefined();
    expect(pythonHostVersion("error: no Pulumi.yaml")).toBeUndefined();
  });
});

describe("Pulumi.yaml", () => {
  it("unpins what pinnedProject pinned, and keeps comments and other keys as written", () => {
    const pinned = pinnedProject("my shop", "terraform-provider", "terraform-provider@1.2.3");
    expect(projectPackages(pinned).project).toBe("my shop");
    expect(unpinProject(`# the shop\n${pinned}`, "terraform-provider", "terraform-provider@1.2.3")).toBe("# the shop\nname: my shop\nruntime: yaml\n");
    expect(unpinProject(pinned, "terraform-provider", "terraform-provider@9.9.9")).toBeUndefined();
  });

  it("reads the project's terraform-provider packages in any YAML spelling, and not the short form", () => {
    const text = [
      "name: 'shop' # quoted",
      "packages:",
      "  local:",
      "    source: terraform-provider",
      "    version: 0.1.0-ts",
      "    parameters: [hashicorp/local, \"2.5.3\"]",
      "  random: {source: terraform-provider, parameters: [hashicorp/random, 3.7.2]}",
      "  short: terraform-provider@0.1.0-ts",
      "  aws: {source: aws, version: 7.0.0}",
      "runtime: yaml",
    ].join("\n");
    expect(projectPackages(text)).toEqual({
      project: "shop",
      packages: [
        { name: "local", parameters: ["hashicorp/local", "2.5.3"] },
        { name: "random", parameters: ["hashicorp/random", "3.7.2"] },
      ],
    });
  });

  it("refuses a project without a name, or that is not YAML, naming the file", () => {
    expect(() => projectPackages("runtime: yaml\n")).toThrow(UsageError);
    expect(() => projectPackages("runtime: yaml\n")).toThrow(/Pulumi.yaml names no project/);
    expect(() => projectPackages("name: [shop\n", "/p/Pulumi.yaml")).toThrow(/\/p\/Pulumi.yaml is not valid YAML/);
  });

  it("gives a plain python runtime a virtual environment, and leaves any other spelling alone", () => {
    expect(pythonVirtualenvRuntime("name: shop\nruntime: python\ndescription: d\n")).toBe("name: shop\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\ndescription: d\n");
    expect(pythonVirtualenvRuntime("name: shop\nruntime:\n  name: python\n")).toBeUndefined();
  });
});

describe("the first step's expected warnings", () => {
  it("keeps out of the way what binding against terraform-provider 0.8.1 causes, and nothing before it or of another kind", () => {
    const recorded = readFileSync(join(import.meta.dirname, "../../../shared/converter-recordings/terraform-shop/converter.log"), "utf8").split("\n").filter((l) => l !== "");
    const seen = { unbound: false };
    const shown = recorded.filter((l) => !expectedWarning(l, seen));
    expect(shown).toEqual(["Converting from terraform...", expect.stringMatching(/^warning: using pulumi-converter-terraform from \$PATH at /), "Converting to pcl..."]);
    expect(recorded.length - shown.length).toBe(13);
    // An unsupported attribute with no unbound package before it is about something else, and shown.
    expect(expectedWarning("warning: main.pp:3,3-9: unsupported attribute 'region'; unsupported attribute 'region'", { unbound: false })).toBe(false);
    expect(expectedWarning("error: main.pp:3,3-9: something", { unbound: true })).toBe(false);
  });
});

describe("the converted program's check before success", () => {
  it("type-checks TypeScript with the program's own compiler and compiles Python, naming what is wrong", async () => {
    const ts = tempDir("tfbridge-convert-check-");
    mkdirSync(join(ts, "node_modules"));
    symlinkSync(join(import.meta.dirname, "../../node_modules/typescript"), join(ts, "node_modules", "typescript"));
    writeFileSync(join(ts, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ["index.ts"] }));
    // What Pulumi's generator wrote for a Terraform resource named `config` beside the program's own Config.
    writeFileSync(join(ts, "index.ts"), "const config = { a: 1 };\nconst config = { b: 2 };\nexport const out = config;\n");
    expect(await programProblem("typescript", ts, process.env)).toMatch(/Cannot redeclare block-scoped variable 'config'/);
    writeFileSync(join(ts, "index.ts"), "const config = { a: 1 };\nexport const out = config;\n");
    expect(await programProblem("typescript", ts, process.env)).toBeUndefined();

    const py = tempDir("tfbridge-convert-check-py-");
    writeFileSync(join(py, "__main__.py"), "for color in colors\n    pass\n");
    expect(await programProblem("python", py, process.env)).toMatch(/SyntaxError/);
    writeFileSync(join(py, "__main__.py"), "colors = {}\nfor key, value in colors.items():\n    pass\n");
    expect(await programProblem("python", py, process.env)).toBeUndefined();
    // Languages it does not check, and a program whose compiler was never installed (--generate-only), pass as they are.
    expect(await programProblem("go", py, process.env)).toBeUndefined();
    expect(await programProblem("csharp", py, process.env)).toBeUndefined();
    expect(await programProblem("typescript", py, process.env)).toBeUndefined();
  });

  it("vets Go with the go on PATH, naming what does not compile (a ranged resource indexed by key, as Go's generator writes it)", async () => {
    const go = tempDir("tfbridge-convert-check-go-");
    writeFileSync(join(go, "go.mod"), "module example.com/shop\n\ngo 1.22\n");
    writeFileSync(join(go, "main.go"), 'package main\n\ntype File struct{ ID string }\n\nfunc main() {\n\tvar byColor []*File\n\tprintln(byColor.Red.ID)\n}\n');
    expect(await programProblem("go", go, process.env)).toMatch(/main\.go:7:\d+: byColor\.Red undefined/);
    writeFileSync(join(go, "main.go"), 'package main\n\ntype File struct{ ID string }\n\nfunc main() {\n\tbyColor := map[string]*File{"red": {ID: "x"}}\n\tprintln(byColor["red"].ID)\n}\n');
    expect(await programProblem("go", go, process.env)).toBeUndefined();
  });
});

describe("stdImport", () => {
  it("names the std package each generator imports for Terraform's functions, and nothing when it is not imported", () => {
    const dir = tempDir("tfbridge-convert-std-");
    writeFileSync(join(dir, "index.ts"), 'import * as pulumi from "@pulumi/pulumi";\nimport * as std from "@pulumi/std";\n');
    writeFileSync(join(dir, "__main__.py"), "import pulumi\nimport pulumi_std as std\n");
    writeFileSync(join(dir, "main.go"), 'import (\n\t"fmt"\n\n\t"github.com/pulumi/pulumi-std/sdk/go/std"\n)\n');
    expect(stdImport("typescript", dir)).toBe("@pulumi/std");
    expect(stdImport("python", dir)).toBe("pulumi_std");
    expect(stdImport("go", dir)).toBe("github.com/pulumi/pulumi-std/sdk/go/std");
    expect(stdImport("yaml", dir)).toBeUndefined();
    writeFileSync(join(dir, "index.ts"), 'import * as pulumi from "@pulumi/pulumi";\nimport * as local from "@pulumi/local";\n');
    writeFileSync(join(dir, "__main__.py"), "import pulumi\nimport pulumi_local as local\n");
    writeFileSync(join(dir, "main.go"), 'import (\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n');
    expect([stdImport("typescript", dir), stdImport("python", dir), stdImport("go", dir)]).toEqual([undefined, undefined, undefined]);
  });
});

describe("the std package of a program calling Terraform's functions", () => {
  const calling = 'resource "r" "local:index/file:File" {\n  content = invoke("std:index:upper", {\n    input = "x"\n  }).result\n}\n';

  it("needs the std plugin before code generation: offline, says what is missing and how to install it", async () => {
    const home = tempDir("tfbridge-convert-std-home-");
    const env = { PATH: "", PULUMI_HOME: home, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" };
    const lines: string[] = [];
    expect(await ensureStdPlugin(['resource "r" "local:index/file:File" {\n  content = "x"\n}\n'], home, env, (l) => lines.push(l))).toBe(true);
    expect(lines).toEqual([]);
    expect(await ensureStdPlugin([calling], home, env, (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual(["convert: the Terraform project calls functions that become Pulumi's std package, whose plugin is not installed: run `pulumi plugin install resource std` (on a machine without access to its download server: `pulumi plugin install resource std <version> --file <pulumi-resource-std tarball>`), then convert again"]);
    mkdirSync(join(home, "plugins", "resource-std-v2.3.2"), { recursive: true });
    expect(await ensureStdPlugin([calling], home, env, (l) => lines.push(l))).toBe(true);
    expect(lines).toHaveLength(1);
  });

  it("Python: pulumi_std joins requirements.txt; Go and a TypeScript --generate-only are told how to install it", async () => {
    const dir = tempDir("tfbridge-convert-std-add-");
    writeFileSync(join(dir, "__main__.py"), "import pulumi\nimport pulumi_std as std\n");
    writeFileSync(join(dir, "requirements.txt"), "pulumi<=3.272.0\nsdks/local");
    const lines: string[] = [];
    expect(await addStd("python", dir, false, process.env, (l) => lines.push(l))).toBe(true);
    expect(readFileSync(join(dir, "requirements.txt"), "utf8")).toBe("pulumi<=3.272.0\nsdks/local\npulumi_std\n");
    writeFileSync(join(dir, "index.ts"), 'import * as std from "@pulumi/std";\n');
    expect(await addStd("typescript", dir, true, process.env, (l) => lines.push(l))).toBe(false);
    writeFileSync(join(dir, "main.go"), 'import (\n\t"github.com/pulumi/pulumi-std/sdk/go/std"\n)\n');
    expect(await addStd("go", dir, false, process.env, (l) => lines.push(l))).toBe(false);
    const why = "the program calls Pulumi's std package";
    expect(lines).toEqual([
      `convert: pulumi_std added to requirements.txt: ${why} (pulumi_std) for Terraform's functions`,
      `convert: ${why} (@pulumi/std) for Terraform's functions; it is not installed: run \`npm install @pulumi/std\` in ${dir}`,
      `convert: ${why} (github.com/pulumi/pulumi-std/sdk/go/std) for Terraform's functions; it is not installed: run \`go get github.com/pulumi/pulumi-std/sdk/go/std\` in ${dir}`,
    ]);
  });
});

describe("registryHosts", () => {
  it("adds the hosts of provider sources that name one to the public registries, and not a module's namespace", () => {
    const dir = tempDir("convert-hosts-");
    mkdirSync(join(dir, "modules", "m"), { recursive: true });
    mkdirSync(join(dir, ".terraform", "providers"), { recursive: true });
    writeFileSync(join(dir, "main.tf"), 'terraform {\n  required_providers {\n    a = { source = "hashicorp/local" }\n    b = { source = "Tf.Example.COM/acme/thing" }\n  }\n}\nmodule "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n}\n');
    writeFileSync(join(dir, "modules", "m", "versions.tf"), 'terraform {\n  required_providers {\n    c = {\n      source = "registry.internal:8443/x/y"\n    }\n    d = { source = "mirror.internal/x/z" }\n  }\n}\n');
    writeFileSync(join(dir, ".terraform", "providers", "x.tf"), 'x = { source = "never.example/x/y" }\n');
    // A host with a port other than 443 is one the converter reaches at that port, which the stand-in does not serve.
    expect(registryHosts(dir)).toEqual(["mirror.internal", "registry.opentofu.org", "registry.terraform.io", "tf.example.com"]);
  });
});

describe("the user's proxy settings, carried past the registry stand-in", () => {
  it("are put back, unset ones unset, and the carrier removed; an environment without the carrier is left alone", () => {
    const user = { HTTPS_PROXY: "http://corp:3128", NO_PROXY: ".corp", SSL_CERT_FILE: "/etc/corp.pem" };
    const env: NodeJS.ProcessEnv = { HTTPS_PROXY: "http://127.0.0.1:1", https_proxy: "http://127.0.0.1:1", NO_PROXY: "", SSL_CERT_FILE: "/tmp/x/ca-bundle.pem", OTHER: "kept", [USER_PROXY_ENV]: userProxyValue(user) };
    restoreUserProxy(env);
    expect(env).toEqual({ ...user, OTHER: "kept" });
    const plain: NodeJS.ProcessEnv = { HTTPS_PROXY: "http://127.0.0.1:1" };
    restoreUserProxy(plain);
    expect(plain).toEqual({ HTTPS_PROXY: "http://127.0.0.1:1" });
  });
});
