// Naming rules of the SDK languages (names.ts, "SDK names per language"): one table per rule, as Pulumi's generators
// spell the names.
import { describe, expect, it } from "vitest";
import { pythonInitParamName, pythonPackage, pythonPropertyName } from "../../src/schema-translate/names.js";

describe("Python (pkg/codegen/python PyName, InitParamName, pyPack)", () => {
  it.each([
    ["minUpper", "min_upper"],
    ["getPublicKey", "get_public_key"],
    ["rfc3339Parse", "rfc3339_parse"],
    ["from", "from_"],
    ["lambda", "lambda_"],
    ["print", "print_"],
    ["resourceName", "resource_name"],
    ["opts", "opts"],
  ])("property or function %s → %s", (name, expected) => {
    expect(pythonPropertyName(name)).toBe(expected);
  });

  it.each([
    ["resourceName", "resource_name_"],
    ["opts", "opts_"],
    ["from", "from_"],
    ["privateKeyPem", "private_key_pem"],
  ])("resource constructor argument %s → %s", (name, expected) => {
    expect(pythonInitParamName(name)).toBe(expected);
  });

  it.each([
    ["random", "pulumi_random", "random"],
    ["google-beta", "pulumi_google_beta", "google_beta"],
  ])("package %s → import %s as %s", (pkg, module, alias) => {
    expect(pythonPackage(pkg)).toEqual({ module, alias });
  });
});
