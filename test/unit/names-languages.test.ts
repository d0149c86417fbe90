// Naming rules of the SDK languages (names.ts, "SDK names per language"): one table per rule, as Pulumi's generators
// spell the names.
import { describe, expect, it } from "vitest";
import {
  goFieldName,
  goFunctionName,
  javaPackage,
  javaPropertyName,
  pythonInitParamName,
  pythonPackage,
  pythonPropertyName,
  csharpClassName,
  csharpIdentifier,
  csharpInputTypeName,
  csharpNamespace,
  csharpNamespaceAlias,
  csharpResultParameter,
  stackOutputName,
  yamlToken,
} from "../../src/schema-translate/names.js";

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

describe("C# (pulumi-dotnet codegen Title, makeValidIdentifier, makeSafePulumiNamespace, typeName)", () => {
  it.each([
    ["random", "Random", "Random"],
    ["ephemeral", "Ephemeral", "Ephemeral"],
    ["google-beta", "GoogleBeta", "GoogleBeta"],
    ["output", "Output", "PulumiOutput"],
  ])("package or module %s → namespace %s, alias %s", (pkg, ns, alias) => {
    expect(csharpNamespace(pkg)).toBe(ns);
    expect(csharpNamespaceAlias(pkg)).toBe(alias);
  });

  it.each([
    ["tls:index/privateKey:PrivateKey", false, "PrivateKey"],
    ["tls:index/getCertificate:getCertificate", true, "GetCertificate"],
    ["x:index/invoke:invoke", true, "InvokeFunction"],
    ["x:index/invokeAsync:invokeAsync", true, "InvokeAsyncFunction"],
    ["x:index/invoke:Invoke", false, "Invoke"],
  ])("class of %s (a function: %s) → %s", (token, isFunction, expected) => {
    expect(csharpClassName(token, isFunction)).toBe(expected);
  });

  it.each([
    ["ed25519Example", "ed25519Example"],
    ["default", "@default"],
    ["value", "@value"],
    ["stackalloc", "@stackalloc"],
    ["default_", "default_"],
    ["a-b", "a_b"],
  ])("identifier %s → %s", (name, expected) => {
    expect(csharpIdentifier(name)).toBe(expected);
  });

  it.each([
    ["tls:index/SelfSignedCertSubject:SelfSignedCertSubject", false, "SelfSignedCertSubjectArgs"],
    ["http:index/getHttpRetry:getHttpRetry", true, "GetHttpRetryInputArgs"],
  ])("object type %s (in an invoke: %s) → %s", (token, invoke, expected) => {
    expect(csharpInputTypeName(token, invoke)).toBe(expected);
  });

  it.each([
    ["tls:index/getCertificate:getCertificate", "getCertificateResult"],
    ["random:ephemeral/getPassword:getPassword", "getPasswordResult"],
    ["time:index/rfc3339Parse:rfc3339Parse", "rfc3339ParseResult"],
  ])("invoke result of %s → lambda parameter %s", (token, expected) => {
    expect(csharpResultParameter(token)).toBe(expected);
  });
});

describe("stack output names (C#, YAML)", () => {
  it.each([
    ["public_key", "publicKey"],
    ["one-week", "oneWeek"],
    ["plain", "plain"],
  ])("%s → %s", (name, expected) => {
    expect(stackOutputName(name)).toBe(expected);
  });
});

describe("Java member and package names", () => {
  it.each([
    ["minUpper", "object", "minUpper"],
    ["default", "object", "default_"],
    ["var", "object", "var_"],
    ["builder", "object", "builder_"],
    ["toString", "object", "toString_"],
    ["urn", "object", "urn"],
    ["urn", "resource", "urn_"],
    ["id", "resource", "id_"],
    ["getId", "resource", "getId_"],
    ["a-b", "object", "ab"],
    ["1st", "object", "_1st"],
  ] as const)("%s on a %s → %s", (name, on, expected) => {
    expect(javaPropertyName(name, on)).toBe(expected);
  });

  it.each([
    ["random", "com.pulumi.random"],
    ["azure-native", "com.pulumi.azurenative"],
    ["null", "com.pulumi.null_"],
  ])("package %s → %s", (pkg, expected) => {
    expect(javaPackage(pkg)).toBe(expected);
  });

  it("a module is a package of its own; index is the package itself", () => {
    expect(javaPackage("random", "ephemeral")).toBe("com.pulumi.random.ephemeral");
    expect(javaPackage("random", "index")).toBe("com.pulumi.random");
  });
});

describe("YAML tokens (pulumi-yaml codegen collapseToken)", () => {
  it.each([
    ["tls:index/privateKey:PrivateKey", "tls:PrivateKey"],
    ["aws:s3/bucket:Bucket", "aws:s3:Bucket"],
    ["random:index/uuid4:Uuid4", "random:Uuid4"],
    ["tls:index/getCertificate:getCertificate", "tls:index/getCertificate:getCertificate"],
    ["random:ephemeral/getPassword:getPassword", "random:ephemeral/getPassword:getPassword"],
    ["foo:index:Bar", "foo:Bar"],
    ["pulumi:providers:tls", "pulumi:providers:tls"],
  ])("%s → %s", (token, expected) => {
    expect(yamlToken(token)).toBe(expected);
  });
});

describe("Go field and function names (pkg/codegen/go Title, fieldName, the Lookup rename)", () => {
  const fields: [string, string | undefined, string][] = [
    ["minUpper", undefined, "MinUpper"],
    ["sha256Hash", undefined, "Sha256Hash"],
    ["dnsNames", undefined, "DnsNames"],
    ["$ref", undefined, "Ref"],
    ["a-b-c", undefined, "ABC"],
    ["1x", undefined, "_1x"],
    ["__private", undefined, "__private"],
    ["iD", undefined, "ID_"],
    ["elementType", undefined, "ElementType_"],
    ["getProvider", "Password", "GetProvider_"],
    ["toPasswordOutput", "Password", "ToPasswordOutput_"],
    ["toPasswordOutput", undefined, "ToPasswordOutput"],
  ];
  it.each(fields)("%s (resource %s) → %s", (name, resource, expected) => {
    expect(goFieldName(name, resource)).toBe(expected);
  });

  const functions: [string, string[], string][] = [
    ["getFile", ["File", "SensitiveFile"], "LookupFile"],
    ["getCertificate", ["PrivateKey"], "GetCertificate"],
    ["durationParse", [], "DurationParse"],
  ];
  it.each(functions)("%s beside %j → %s", (name, resources, expected) => {
    expect(goFunctionName(name, new Set(resources))).toBe(expected);
  });
});
