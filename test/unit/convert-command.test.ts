// The `convert` command's pure parts: its arguments, the package blocks it retargets, the pin it removes, the `pulumi`
// requirement it pins for Python.
import { describe, expect, it } from "vitest";
import { ConvertUsageError, parseConvertArgs, pinPulumiRequirement, pythonHostVersion, retargetPackageBlocks, unpinProject } from "../../src/server/convert-command.js";
import { VERSION } from "../../src/version.js";

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
    expect(() => parseConvertArgs(argv)).toThrow(ConvertUsageError);
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
  it("removes the pin and the packages key it leaves empty", () => {
    expect(unpinProject(`name: shop\nruntime: nodejs\npackages:\n${pin}\n`)).toBe("name: shop\nruntime: nodejs\n");
  });
  it("keeps other packages", () => {
    expect(unpinProject(`name: shop\npackages:\n${pin}\n  local: x\nruntime: yaml\n`)).toBe("name: shop\npackages:\n  local: x\nruntime: yaml\n");
  });
  it("says when the pin is not there (undefined)", () => {
    expect(unpinProject("name: shop\nruntime: nodejs\n")).toBeUndefined();
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
