// The `convert` command's pure parts: its arguments, the package blocks it retargets, the pin it removes.
import { describe, expect, it } from "vitest";
import { ConvertUsageError, parseConvertArgs, retargetPackageBlocks, unpinProject } from "../../src/server/convert-command.js";
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
