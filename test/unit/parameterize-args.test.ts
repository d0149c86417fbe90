// Parameterize inputs: the args form (flags, addresses, constraints, local paths) and the value bytes.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_NAMESPACE, DEFAULT_REGISTRY_HOST, parseProviderAddress } from "../../src/acquire/address.js";
import { HelpRequested, USAGE, parseArgs } from "../../src/parameterize/args.js";
import { exactVersion, newestMatching, parseVersionConstraint, satisfies } from "../../src/acquire/constraint.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { resolveLocalBinary, typeFromBinaryName } from "../../src/parameterize/local.js";
import { acquireRemote } from "../../src/acquire/remote.js";
import { encodeValue, parseValue } from "../../src/parameterize/value.js";
import { tempDir } from "../support/pulumi.js";

function failure(fn: () => unknown): ParameterizeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ParameterizeError);
    return e as ParameterizeError;
  }
  throw new Error("did not throw");
}

describe("provider addresses", () => {
  it("fills in the default host and namespace", () => {
    expect(parseProviderAddress("random")).toEqual({ host: DEFAULT_REGISTRY_HOST, namespace: DEFAULT_NAMESPACE, type: "random" });
    expect(DEFAULT_REGISTRY_HOST).toBe("registry.opentofu.org");
    expect(DEFAULT_NAMESPACE).toBe("hashicorp");
    expect(parseProviderAddress("integrations/github")).toEqual({ host: "registry.opentofu.org", namespace: "integrations", type: "github" });
    expect(parseProviderAddress("Registry.Terraform.io/HashiCorp/AWS")).toEqual({ host: "registry.terraform.io", namespace: "hashicorp", type: "aws" });
    expect(parseProviderAddress("localhost:8443/acme/widget").host).toBe("localhost:8443");
  });

  it("rejects malformed addresses with the reason", () => {
    expect(failure(() => parseProviderAddress("a/b/c/d")).message).toMatch(/\[hostname\/\]\[namespace\/\]type/);
    expect(failure(() => parseProviderAddress("hashicorp//random")).kind).toBe("invalid-argument");
    expect(failure(() => parseProviderAddress("hashicorp/ran.dom")).message).toMatch(/dots are not allowed/);
    expect(failure(() => parseProviderAddress("-bad/random")).message).toMatch(/namespace "-bad"/);
    expect(failure(() => parseProviderAddress("hashicorp/terraform-provider-random")).message).toMatch(/did you mean "random"/);
    expect(failure(() => parseProviderAddress("bad_host!/hashicorp/random")).message).toMatch(/invalid registry hostname/);
  });
});

describe("version constraints", () => {
  it("parses Terraform's operators and comma lists", () => {
    const c = parseVersionConstraint(">= 1.2, < 2.0.0, != 1.5.1");
    expect(c.clauses).toEqual([
      { op: ">=", version: "1.2.0", precision: 2 },
      { op: "<", version: "2.0.0", precision: 3 },
      { op: "!=", version: "1.5.1", precision: 3 },
    ]);
    expect(parseVersionConstraint("3.6.3").clauses[0]!.op).toBe("=");
    expect(exactVersion(parseVersionConstraint("= 3.6.3"))).toBe("3.6.3");
    expect(exactVersion(parseVersionConstraint("~> 3.6"))).toBeUndefined();
    expect(parseVersionConstraint("").clauses).toEqual([]);
  });

  it("matches as Terraform does, ~> included", () => {
    const pessimistic2 = parseVersionConstraint("~> 1.2");
    expect(satisfies(pessimistic2, "1.2.0")).toBe(true);
    expect(satisfies(pessimistic2, "1.9.9")).toBe(true);
    expect(satisfies(pessimistic2, "2.0.0")).toBe(false);
    const pessimistic3 = parseVersionConstraint("~> 1.2.3");
    expect(satisfies(pessimistic3, "1.2.9")).toBe(true);
    expect(satisfies(pessimistic3, "1.3.0")).toBe(false);
    expect(satisfies(pessimistic3, "1.2.2")).toBe(false);
    // Pre-releases only by exact request.
    expect(satisfies(parseVersionConstraint(">= 1.0"), "2.0.0-beta1")).toBe(false);
    expect(satisfies(parseVersionConstraint("= 2.0.0-beta1"), "2.0.0-beta1")).toBe(true);
    expect(newestMatching(parseVersionConstraint("~> 3.5"), ["3.4.0", "3.5.1", "3.6.3", "4.0.0"])).toBe("3.6.3");
    expect(newestMatching(parseVersionConstraint(""), ["1.0.0", "1.1.0"])).toBe("1.1.0");
  });

  it("rejects what Terraform rejects, with hints", () => {
    expect(failure(() => parseVersionConstraint("v1.2.3")).message).toMatch(/without a leading "v"/);
    expect(failure(() => parseVersionConstraint("1.*")).message).toMatch(/wildcards/);
    expect(failure(() => parseVersionConstraint(">= 1.2,")).message).toMatch(/not an operator/);
    expect(failure(() => parseVersionConstraint("=> 1.2")).kind).toBe("invalid-argument");
    expect(failure(() => parseVersionConstraint("1.2-beta")).message).toMatch(/full MAJOR\.MINOR\.PATCH/);
  });
});

describe("the args form", () => {
  it("parses a registry provider with a constraint and flags anywhere", () => {
    const p = parseArgs(["--include", "random_id,random_pet", "hashicorp/random", "--exclude=random_string", "~> 3.6", "--provider-name", "rnd"]);
    expect(p.source).toMatchObject({ kind: "remote", address: { host: "registry.opentofu.org", namespace: "hashicorp", type: "random" } });
    expect(p.source.kind === "remote" && p.source.constraint.raw).toBe("~> 3.6");
    expect(p.selection).toEqual({ includes: ["random_id", "random_pet"], excludes: ["random_string"], providerName: "rnd" });
  });

  it("accumulates repeated list flags and tolerates blanks", () => {
    expect(parseArgs(["random", "--include", "a, b,", "--include=c"]).selection.includes).toEqual(["a", "b", "c"]);
  });

  it("parses a local path (one argument only)", () => {
    expect(parseArgs(["./bin/terraform-provider-random"]).source).toEqual({ kind: "local", path: "./bin/terraform-provider-random" });
    expect(parseArgs(["/opt/terraform-provider-tls_v4.0.6", "--upstreamRepoPath", "/src"]).docs.upstreamRepoPath).toBe("/src");
    expect(failure(() => parseArgs(["./terraform-provider-random", "1.0.0"])).message).toMatch(/exactly one argument/);
    expect(failure(() => parseArgs(["./random"])).message).toMatch(/terraform-provider-<name>/);
    expect(failure(() => parseArgs(["./terraform-provider-random", "--fullDocs"])).message).toMatch(/only applies to registry/);
    expect(parseArgs(["random", "--upstreamRepoPath", "/x"]).docs.upstreamRepoPath).toBe("/x");
    expect(failure(() => parseArgs(["random", "--upstreamRepoPath", "/x", "--fullDocs"])).message).toMatch(/one of --fullDocs .* and --upstreamRepoPath/);
  });

  it("treats everything after -- as positional", () => {
    expect(parseArgs(["--", "random", "1.0.0"]).source.kind).toBe("remote");
  });

  it("rejects bad input with clear messages", () => {
    expect(failure(() => parseArgs([])).message).toMatch(/missing the Terraform provider/);
    expect(failure(() => parseArgs(["random", "--bogus"])).message).toMatch(/unknown flag "--bogus"/);
    expect(failure(() => parseArgs(["random", "-x"])).message).toMatch(/unknown flag "-x"/);
    expect(failure(() => parseArgs(["random", "--include"])).message).toMatch(/--include needs a value/);
    expect(failure(() => parseArgs(["random", "1.0", "extra"])).message).toMatch(/at most one version constraint/);
    expect(failure(() => parseArgs(["random", "--include", "a,b", "--exclude", "b,a"])).message).toBe(
      "tokens cannot be both included and excluded: a, b",
    );
    expect(failure(() => parseArgs(["random", "--provider-name", "9lives"])).message).toMatch(/invalid --provider-name/);
    expect(failure(() => parseArgs(["random", "--fullDocs=maybe"])).message).toMatch(/expected true or false/);
  });

  it("--package-name names the package (--provider-name, the reference's spelling, is the same flag)", () => {
    expect(parseArgs(["hashicorp/aws", "6.19.0", "--package-name", "tfaws"]).selection).toEqual({ includes: [], excludes: [], providerName: "tfaws" });
    // `pulumi package add terraform-provider hashicorp/aws 6.19.0 -- --package-name tfaws`: pulumi drops its own `--`.
    expect(parseArgs(["hashicorp/aws", "6.19.0", "--package-name=tfaws"]).selection.providerName).toBe("tfaws");
    expect(parseArgs(["hashicorp/aws", "--package-name", "tfaws", "--provider-name", "tfaws"]).selection.providerName).toBe("tfaws");
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", "tfaws", "--provider-name", "aws2"])).message).toBe(
      "--package-name tfaws and --provider-name aws2 name the package twice; give one name",
    );
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", ""])).message).toBe(
      "--package-name is empty: give the package a name (letters, digits, dashes and underscores, starting with a letter)",
    );
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name="])).message).toMatch(/^--package-name is empty/);
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", "tf:aws"])).message).toBe(
      'invalid --package-name "tf:aws": ":" cannot be part of a package name (tokens are <package>:<module>:<type>); use letters, digits, dashes and underscores, starting with a letter',
    );
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", "a/b.c"])).message).toMatch(/"\/", "\." cannot be part of a package name/);
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", "9lives"])).message).toMatch(/invalid --package-name "9lives": a package name starts with a letter/);
    expect(failure(() => parseArgs(["hashicorp/aws", "--package-name", "pulumi"])).message).toMatch(/the name is Pulumi's own/);
  });

  it("answers --help with the usage text to show, and an error that only says nothing was added", () => {
    for (const args of [["--help"], ["random", "--help"], ["-h"]]) {
      const e = failure(() => parseArgs(args));
      expect(e).toBeInstanceOf(HelpRequested);
      expect(e.kind).toBe("invalid-argument");
      expect((e as HelpRequested).usage).toBe(USAGE);
      expect(e.message).toBe("the usage is shown above (--help); nothing was added");
    }
    expect(USAGE).toMatch(/--include a,b/);
  });

  it("derives the provider type from binary names", () => {
    expect(typeFromBinaryName("/x/terraform-provider-random")).toBe("random");
    expect(typeFromBinaryName("terraform-provider-google-beta_v6.1.0")).toBe("google-beta");
    expect(typeFromBinaryName("terraform-provider-tls_v4.0.6_x5")).toBe("tls");
  });
});

describe("the value form", () => {
  it("parses local and remote values and writes them back canonically", () => {
    const local = parseValue(Buffer.from('{"local":{"path":"/p/terraform-provider-random"}}'));
    expect(local).toEqual({ source: { kind: "local", path: "/p/terraform-provider-random" }, selection: { includes: [], excludes: [] } });
    expect(Buffer.from(encodeValue(local)).toString()).toBe('{"local":{"path":"/p/terraform-provider-random"}}');

    const bytes = '{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3"},"includes":["random_id"],"excludes":["random_pet"],"providerName":"rnd"}';
    const remote = parseValue(Buffer.from(bytes));
    expect(remote.source).toEqual({ kind: "remote", address: { host: "registry.opentofu.org", namespace: "hashicorp", type: "random" }, version: "3.6.3" });
    expect(remote.selection).toEqual({ includes: ["random_id"], excludes: ["random_pet"], providerName: "rnd" });
    expect(Buffer.from(encodeValue(remote)).toString()).toBe(bytes);
  });

  it("reads and writes the lock hashes a registry value pins inside \"remote\"; values without them still parse", () => {
    const h1 = `h1:${"A".repeat(43)}=`;
    const zh = `zh:${"0".repeat(64)}`;
    const bytes = `{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3","hashes":["${h1}","${zh}"]},"providerName":"rnd"}`;
    const v = parseValue(Buffer.from(bytes));
    expect(v.source).toEqual({ kind: "remote", address: { host: "registry.opentofu.org", namespace: "hashicorp", type: "random" }, version: "3.6.3", hashes: [h1, zh] });
    expect(Buffer.from(encodeValue(v)).toString()).toBe(bytes);
    const old = parseValue(Buffer.from('{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3"}}'));
    expect("hashes" in old.source).toBe(false);
    expect(Buffer.from(encodeValue(old)).toString()).toBe('{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3"}}');
    const empty = parseValue(Buffer.from('{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3","hashes":[]}}'));
    expect("hashes" in empty.source).toBe(false);
    const bad = (h: unknown): string => failure(() => parseValue(Buffer.from(JSON.stringify({ remote: { url: "hashicorp/random", version: "3.6.3", hashes: h } })))).message;
    expect(bad(["sha256:abc"])).toMatch(/"remote.hashes" holds "sha256:abc", which is not an h1: or zh: hash/);
    expect(bad("h1:x")).toMatch(/"remote.hashes" must be a list of strings/);
  });

  it("records the docs source after the reference's keys, only when a docs flag was given", () => {
    const remote = '{"remote":{"url":"registry.opentofu.org/hashicorp/random","version":"3.6.3"},"providerName":"rnd","docs":{"fullDocs":true}}';
    expect(parseValue(Buffer.from(remote)).docs).toEqual({ fullDocs: true });
    expect(Buffer.from(encodeValue(parseValue(Buffer.from(remote)))).toString()).toBe(remote);
    const local = '{"local":{"path":"/p/terraform-provider-random"},"docs":{"upstreamRepoPath":"/src/terraform-provider-random"}}';
    expect(parseValue(Buffer.from(local)).docs).toEqual({ upstreamRepoPath: "/src/terraform-provider-random" });
    expect(Buffer.from(encodeValue(parseValue(Buffer.from(local)))).toString()).toBe(local);
    expect("docs" in parseValue(Buffer.from('{"local":{"path":"/p/terraform-provider-random"}}'))).toBe(false);
    const bad = (s: string): string => failure(() => parseValue(Buffer.from(s))).message;
    expect(bad('{"local":{"path":"/a"},"docs":{"fullDocs":true}}')).toMatch(/"docs.fullDocs" applies to registry providers only/);
    expect(bad('{"local":{"path":"/a"},"docs":{"upstreamRepoPath":"relative/dir"}}')).toMatch(/"docs" must be \{"fullDocs":true\} or \{"upstreamRepoPath":"\/absolute\/path"\}/);
    expect(bad('{"local":{"path":"/a"},"docs":"yes"}')).toMatch(/"docs" must be an object/);
  });

  it("ignores unknown keys, as the reference does", () => {
    expect(parseValue(Buffer.from('{"local":{"path":"/x/terraform-provider-a"},"future":1}')).source.kind).toBe("local");
  });

  it("rejects malformed values", () => {
    const bad = (s: string): string => failure(() => parseValue(Buffer.from(s))).message;
    expect(bad("not json")).toMatch(/not JSON/);
    expect(bad("[]")).toMatch(/JSON object/);
    expect(bad("{}")).toMatch(/exactly one of "local" and "remote"/);
    expect(bad('{"local":{"path":"/a"},"remote":{"url":"a/b/c","version":"1.0.0"}}')).toMatch(/exactly one/);
    expect(bad('{"local":{}}')).toMatch(/non-empty "path"/);
    expect(bad('{"remote":{"url":"hashicorp/random","version":"~> 1.0"}}')).toMatch(/exact version/);
    expect(bad('{"remote":{"url":"a/b/c/d","version":"1.0.0"}}')).toMatch(/invalid provider address/);
    expect(bad('{"local":{"path":"/a"},"includes":"x"}')).toMatch(/list of strings/);
    expect(bad('{"local":{"path":"/a"},"includes":["x"],"excludes":["x"]}')).toMatch(/both included and excluded/);
  });
});

describe("acquisition", () => {
  it("resolves a local binary to an absolute path and checks it", () => {
    const dir = tempDir("tfbridge-local-");
    mkdirSync(join(dir, "bin"));
    const bin = join(dir, "bin", "terraform-provider-demo");
    writeFileSync(bin, "#!/bin/sh\n");
    chmodSync(bin, 0o755);
    expect(resolveLocalBinary("./bin/terraform-provider-demo", dir)).toEqual({ path: bin, type: "demo" });
    expect(failure(() => resolveLocalBinary("./bin/terraform-provider-missing", dir)).kind).toBe("not-found");
    chmodSync(bin, 0o644);
    expect(failure(() => resolveLocalBinary(bin, dir)).message).toMatch(/not executable/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports a registry it cannot reach, with no cached version to fall back on, as failed-precondition", async () => {
    const dir = tempDir("tfbridge-remote-");
    const env = { HOME: dir, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(dir, "cache") };
    // .invalid never resolves (RFC 2606), so this holds with or without a network.
    const e = await acquireRemote(parseProviderAddress("registry.invalid/hashicorp/random"), parseVersionConstraint("~> 3.6"), { env }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("failed-precondition");
    expect((e as Error).message).toMatch(/cannot resolve registry\.invalid\/hashicorp\/random \("~> 3\.6"\): could not reach the registry at registry\.invalid: cannot reach registry\.invalid \((ENOTFOUND|EAI_AGAIN)/);
    rmSync(dir, { recursive: true, force: true });
  });
});
