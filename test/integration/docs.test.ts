// Full docs end to end through the plugin process: --upstreamRepoPath on the peers' pinned module sources (random, tls,
// time), the parameter value that brings them back, a generated TypeScript SDK's doc comments, --fullDocs against a
// git repository served by file:// URL (tags v<version> and <version>), the offline cases that fall back to the
// schema's short docs with a warning, and --indexDocOutDir. Prints schema size and GetSchema time with and without.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsRepository, upstreamCacheDir } from "../../src/docs/index.js";
import { hostsMissing } from "../support/languages.js";
import { generateNodeSdk, genSdkDiagnostics, removeScratch, withLanguageHosts } from "../support/lifecycle.js";
import { peerModuleDir } from "../support/module-docs.js";
import { peerPath, referenceBin } from "../support/peers.js";
import { schemaFacts, type Facts } from "../support/schema-facts.js";
import { argsRequest, runPulumi, startPluginProcess, valueRequest, type Msg } from "../support/pulumi.js";
import { CURRENT_PLATFORM } from "../support/registry-server.js";

type Schema = Record<string, any>;  

const scratch: string[] = [];
const tmp = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(d);
  return d;
};
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
  removeScratch();
});

interface SchemaRun {
  text: string;
  schema: Schema;
  ms: number;
  stderr: string;
}

/** One plugin process (as the engine starts one per package): Parameterize, then GetSchema, timed. */
async function schemaOf(request: Msg, env: NodeJS.ProcessEnv = process.env): Promise<SchemaRun> {
  const plugin = await startPluginProcess({ env });
  try {
    const p = await plugin.call("Parameterize", request, 120_000);
    const start = performance.now();
    const res = await plugin.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] }, 180_000);
    const ms = performance.now() - start;
    const text = res["schema"] as string;
    return { text, schema: JSON.parse(text) as Schema, ms, stderr: plugin.stderr() };
  } finally {
    await plugin.stop();
  }
}

const value = (s: Schema): unknown => JSON.parse(Buffer.from(s["parameterization"].parameter as string, "base64").toString("utf8"));
const allDescriptions = (s: Schema): string => JSON.stringify([s["resources"], s["functions"], s["types"], s["config"], s["provider"]]);

/** A property named in prose: a span with each language's spelling (C# Pascal, Python snake), camelCase shown. */
function span(tf: string, camel: string): string {
  const pascal = camel.charAt(0).toUpperCase() + camel.slice(1);
  const forms = [["nodejs", camel], ["dotnet", pascal], ["go", camel], ["python", tf], ["yaml", camel], ["java", camel], ["hcl", tf]];
  return `<span ${forms.map(([l, n]) => `pulumi-lang-${l}="\`${n}\`"`).join(" ")}>\`${camel}\`</span>`;
}
const spans = (...names: [string, string][]): string => names.map(([tf, camel]) => span(tf, camel)).join(" + ");

const figures: string[] = [];
afterAll(() => {
  if (figures.length > 0) console.log(`schema size and GetSchema time, without → with full docs:\n${figures.join("\n")}`);
});

describe.each(["random", "tls", "time", "local", "http"])("--upstreamRepoPath <%s module source>", (peer) => {
  let short: SchemaRun;
  let full: SchemaRun;
  beforeAll(async () => {
    short = await schemaOf(argsRequest(peerPath(peer)));
    full = await schemaOf(argsRequest(peerPath(peer), "--upstreamRepoPath", peerModuleDir(peer)));
    figures.push(`  ${peer}: ${short.text.length} → ${full.text.length} bytes, GetSchema ${short.ms.toFixed(0)} → ${full.ms.toFixed(0)} ms`);
  }, 240_000);

  it("records the repository in the value, after the reference's keys; without the flag the value has no docs", () => {
    expect(value(full.schema)).toEqual({ local: { path: peerPath(peer) }, docs: { upstreamRepoPath: peerModuleDir(peer) } });
    expect(value(short.schema)).toEqual({ local: { path: peerPath(peer) } });
    expect(allDescriptions(short.schema)).not.toContain("## Example Usage");
    expect(full.stderr).not.toMatch(/warning/);
  });

  it("changes nothing but descriptions and the value: every token, name, type, required set and secret stays", () => {
    const facts = (x: Schema): Facts => new Map([...schemaFacts(x)].filter(([k]) => k !== "parameterization parameter" && !k.endsWith(" description")));
    expect(facts(full.schema)).toEqual(facts(short.schema));
    expect(facts(short.schema).size).toBeGreaterThan(20);
  });

  it("fills descriptions: overview, examples converted into every language, property docs with each language's names, import", () => {
    const s = full.schema;
    if (peer === "random") {
      const r = s["resources"]["random:index/password:Password"];
      expect(r.description).toMatch(/^> If the managed resource supports a write-only attribute/);
      expect(r.description).toContain("This resource *does* use a cryptographic random number generator.");
      // Pulumi's examples convention: SDK generators drop an example with no code in their language, heading and all.
      expect(r.description).toContain("{{% examples %}}\n{{% example %}}\n## Example Usage\n\n<!--Start PulumiCodeChooser -->\n```typescript\n");
      expect(r.description).toContain('const password = new random.Password("password", {\n    length: 16,\n    special: true,');
      // The aws_db_instance beside it is written as if bridged by this plugin, and the note under the example says so.
      expect(r.description).toContain("<!--End PulumiCodeChooser -->\n\nThe example also uses `aws`, written as if bridged by this plugin");
      expect(r.description).toContain("{{% /example %}}\n{{% /examples %}}\n\n## Import");
      // The HCL that only shows how an import interacts with configuration stays in the import section.
      expect(r.description).toContain('```hcl\nresource "random_password" "password" {\n  length = 16\n  lower  = false');
      expect(r.description).toContain("## Import\n\nImport is supported using the following syntax:\n\n```sh\npulumi import random:index/password:Password password securepassword\n```");
      expect(r.inputProperties.length.description).toBe(`The length of the string desired. The minimum value for length is 1 and, length must also be >= (${spans(["min_upper", "minUpper"], ["min_lower", "minLower"], ["min_numeric", "minNumeric"], ["min_special", "minSpecial"])}).`);
      expect(r.inputProperties.minUpper.description).toBe("Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
      expect(r.properties.bcryptHash.description).toMatch(/^A bcrypt hash of the generated random string\. \*\*NOTE\*\*: .*/);
      expect(r.properties.bcryptHash.description).toContain(`${span("bcrypt_hash", "bcryptHash")} will contain`);
      // Another resource named in prose is the Pulumi resource, which Go and Python name without the package.
      expect(r.description).toContain('Identical to [<span pulumi-lang-nodejs="`random.String`" pulumi-lang-dotnet="`random.String`" pulumi-lang-go="`String`" pulumi-lang-python="`String`" pulumi-lang-yaml="`random.String`" pulumi-lang-java="`random.String`" pulumi-lang-hcl="`random_string`">`random.String`</span>]');
      expect(s["resources"]["random:index/shuffle:Shuffle"].inputProperties.resultCount.description).toBeDefined();
      // An ephemeral resource's page documents its function, in Pulumi names.
      const eph = s["functions"]["random:ephemeral/getPassword:getPassword"];
      expect(eph.description).toContain("Generates an ephemeral password string using a cryptographic random number generator.");
      expect(eph.description).toContain('const password = random.ephemeral.getPasswordOutput({\n    length: 16,');
      expect(eph.inputs.properties.length.description).toBe(r.inputProperties.length.description);
    } else if (peer === "tls") {
      const cert = s["resources"]["tls:index/selfSignedCert:SelfSignedCert"];
      expect(cert.description).toMatch(/^Creates a \*\*self-signed\*\* TLS certificate/);
      expect(cert.description).toContain("## Automatic Renewal");
      expect(cert.inputProperties.subjects.description).toMatch(/^The subject for which a certificate is being requested\./);
      expect(s["types"]["tls:index/SelfSignedCertSubject:SelfSignedCertSubject"].properties.commonName.description).toBe("Distinguished name: `CN`");
      expect(cert.inputProperties.privateKeyPemWo.description).toContain(`Requires ${span("private_key_pem_wo_version", "privateKeyPemWoVersion")} to be set`);
      const fn = s["functions"]["tls:index/getPublicKey:getPublicKey"];
      expect(fn.description).toMatch(/^Get a public key from a PEM-encoded private key\./);
      expect(fn.description).toContain('const ed25519Example = new tls.PrivateKey("ed25519-example", {');
      expect(fn.inputs.properties.privateKeyPem.description).toContain(`mutually exclusive_ with ${span("private_key_openssh", "privateKeyOpenssh")}`);
      // The provider's configuration comes from the index page's schema.
      expect(s["types"]["tls:config/proxies:proxies"].properties.fromEnv.description).toMatch(/^When `true` the provider will discover the proxy configuration/);
      expect(s["types"]["tls:index/ProviderProxy:ProviderProxy"].properties.fromEnv.description).toMatch(/^When `true` the provider will discover the proxy configuration/);
    } else if (peer === "local") {
      const file = s["resources"]["local:index/file:File"];
      // A resource wins over the data source of the same name; continuation lines of a list item lose their indent.
      expect(file.description).toContain('If the file content is sensitive, use the\n<span pulumi-lang-nodejs="`local.SensitiveFile`" pulumi-lang-dotnet="`local.SensitiveFile`" pulumi-lang-go="`SensitiveFile`" pulumi-lang-python="`SensitiveFile`" pulumi-lang-yaml="`local.SensitiveFile`" pulumi-lang-java="`local.SensitiveFile`" pulumi-lang-hcl="`local_sensitive_file`">`local.SensitiveFile`</span> resource instead.');
      expect(file.inputProperties.content.description).toBe(`Content to store in the file, expected to be a UTF-8 encoded string.\nConflicts with ${span("sensitive_content", "sensitiveContent")}, ${span("content_base64", "contentBase64")} and ${span("source", "source")}.\nExactly one of these four arguments must be specified.`);
      expect(s["functions"]["local:index/getFile:getFile"].outputs.properties.contentBase64.description).toMatch(/^Base64 encoded version of the file content/);
    } else if (peer === "http") {
      const fn = s["functions"]["http:index/getHttp:getHttp"];
      // A name without an underscore (the data source `http`) is left alone: it is as likely the word.
      expect(fn.description).toContain("The given URL may be either an `http` or `https` URL.");
      expect(fn.description).toContain("## Usage with Postcondition");
      expect(fn.inputs.properties.requestHeaders.description).toMatch(/^A map of request header field names and values\./);
    } else {
      const rot = s["resources"]["time:index/rotating:Rotating"];
      expect(rot.description).toMatch(/^Manages a rotating time resource/);
      expect(rot.description).toContain("pulumi import time:index/rotating:Rotating example 2020-02-12T06:36:13Z,0,0,30,0,0");
      expect(rot.inputProperties.rotationDays.description).toMatch(/^Number of days to add to the base timestamp/);
      const fn = s["functions"]["time:index/rfc3339Parse:rfc3339Parse"];
      expect(fn.description).toMatch(/^Parse an RFC3339 timestamp string into an object\n\nGiven an RFC3339 timestamp string/);
      expect(fn.description).toContain(`- ${span("year_day", "yearDay")} (Number) The day of the year`);
      // The function's example, called as the SDKs call it (positional arguments, the output form).
      expect(fn.description).toContain('const rfc3339ParseResult = time.rfc3339ParseOutput("2023-07-25T23:43:16Z");');
      expect(fn.inputs.properties.timestamp.description).toBe("RFC3339 timestamp string to parse");
      expect(fn.outputs.properties.isoWeek.description).toBe("The ISO 8601 week number.");
    }
  });

  it("Parameterize from the value gives the same schema, docs included; the reference takes the value too", async () => {
    const bytes = Buffer.from(JSON.stringify(value(full.schema)));
    const again = await schemaOf(valueRequest(bytes));
    expect(again.text).toBe(full.text);
    // The reference ignores the docs record: an SDK generated here runs on it (with its own short docs).
    const reference = await startPluginProcess({ bin: referenceBin(), reapChildren: true });
    try {
      // As the engine sends it from an SDK: the package's name and version with the value.
      const p = await reference.call("Parameterize", valueRequest(bytes, peer, full.schema["version"] as string), 120_000);
      expect(p["name"]).toBe(peer);
      const res = await reference.call("GetSchema", { version: 0, subpackage_name: p["name"], subpackage_version: p["version"] }, 120_000);
      const theirs = JSON.parse(res["schema"] as string) as Schema;
      expect(Object.keys(theirs["resources"] ?? {}).length + Object.keys(theirs["functions"] ?? {}).length).toBeGreaterThan(0);
    } finally {
      await reference.stop();
    }
  }, 180_000);
});

describe.skipIf(hostsMissing())("a TypeScript SDK generated from a full-docs schema", () => {
  it("carries the overview, the TypeScript example, property docs and import instructions in its doc comments; Pulumi's generator leaves out the other languages", async () => {
    const run = await schemaOf(argsRequest(peerPath("random"), "--upstreamRepoPath", peerModuleDir("random")));
    const dir = tmp("tfbridge-docs-sdk-");
    writeFileSync(join(dir, "schema.json"), run.text);
    const env = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
    const { sdk } = await generateNodeSdk([join(dir, "schema.json")], dir, env);
    const password = readFileSync(join(sdk, "password.ts"), "utf8");
    expect(password).toContain(" * This resource *does* use a cryptographic random number generator.");
    expect(password).toContain(" * ```sh\n * pulumi import random:index/password:Password password securepassword\n * ```");
    // Code blocks in other languages than the SDK's (and sh) are dropped by Pulumi's generator (FilterExamples in
    // pkg/codegen/docs.go), as it drops the reference's unconverted examples; the examples shortcode takes the heading.
    expect(password).not.toContain("```hcl");
    expect(password).not.toContain("```python");
    expect(password).toContain(" * ## Example Usage");
    expect(password).toContain(' * const password = new random.Password("password", {');
    expect(password).toContain("     * Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
    // Pulumi's generators (3.248, 3.259) pass the spans through; the registry shows each language its own spelling.
    expect(password).toContain('pulumi-lang-python="`min_upper`"');
    // The Python and Go generators take the same descriptions without a diagnostic.
    for (const language of ["python", "go"]) {
      const r = await runPulumi(["package", "gen-sdk", join(dir, "schema.json"), "--language", language, "--out", join(dir, "more")], { cwd: dir, env: withLanguageHosts(env) });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(genSdkDiagnostics(r.stdout + "\n" + r.stderr), language).toEqual([]);
    }
    expect(readFileSync(join(dir, "more", "python", "pulumi_random", "password.py"), "utf8")).toContain("This resource *does* use a cryptographic random number generator.");
    // The compiled declarations keep them too.
    expect(readFileSync(join(sdk, "bin", "password.d.ts"), "utf8")).toContain("cryptographic random number generator");
  }, 300_000);
});

describe("--fullDocs from the provider's repository, fetched with git", () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let cache: string;
  const repos = (): string => join(root, "repos");

  /** The mirror holds the random peer under the given versions, so that no registry is asked. */
  function mirror(versions: string[]): string {
    const dir = join(root, "mirror", "registry.opentofu.org", "hashicorp", "random");
    for (const v of versions) {
      mkdirSync(join(dir, v, CURRENT_PLATFORM), { recursive: true });
      cpSync(peerPath("random"), join(dir, v, CURRENT_PLATFORM, `terraform-provider-random_v${v}`));
    }
    return join(root, "mirror");
  }

  beforeAll(() => {
    root = tmp("tfbridge-fulldocs-");
    cache = join(root, "cache");
    const rc = join(root, "mirror.tfrc");
    writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror(["3.6.3", "3.6.4", "3.6.5"])}"\n  }\n}\n`);
    // A repository like the provider's: its docs at the pinned commit, tagged as a release would be.
    const repo = join(repos(), "hashicorp", "terraform-provider-random");
    mkdirSync(repo, { recursive: true });
    cpSync(join(peerModuleDir("random"), "docs"), join(repo, "docs"), { recursive: true });
    writeFileSync(join(repo, "main.go"), "package main\n");
    const git = (...args: string[]): void => {
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", ...args], { cwd: repo, stdio: "ignore" });
    };
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "docs");
    git("tag", "v3.6.3");
    git("tag", "3.6.5");
    env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: rc,
      PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache,
      TF_BRIDGE_DOCS_REPO_URL: `file://${repos()}/{namespace}/terraform-provider-{type}`,
    };
  });

  it("clones v<version> into the cache (docs folders only), fills the docs, and the value brings them back without the repository", async () => {
    const out = join(root, "registry-page");
    const first = await schemaOf(argsRequest("hashicorp/random", "= 3.6.3", "--fullDocs", "--indexDocOutDir", out), env);
    expect(value(first.schema)).toEqual({ remote: { url: "registry.opentofu.org/hashicorp/random", version: "3.6.3", hashes: [expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/)] }, docs: { fullDocs: true } });
    expect(first.schema["resources"]["random:index/password:Password"].inputProperties.minUpper.description).toBe("Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
    expect(first.schema["resources"]["random:index/password:Password"].description).toContain("pulumi import random:index/password:Password password securepassword");
    const cached = upstreamCacheDir(cache, { host: "registry.opentofu.org", namespace: "hashicorp", type: "random", version: "3.6.3" });
    expect(readdirSync(cached).sort()).toEqual([".source", "docs", "website"]);
    expect(JSON.parse(readFileSync(join(cached, ".source"), "utf8"))).toMatchObject({ tag: "v3.6.3" });

    const index = readFileSync(join(out, "_index.md"), "utf8");
    expect(index).toMatch(/^---\n# \*\*\* WARNING: This file was auto-generated\..*\ntitle: Random Provider\nmeta_desc: Provides an overview on how to configure the Pulumi Random provider\.\nlayout: package\n---\n/);
    expect(index).toContain("```bash\npulumi package add terraform-provider hashicorp/random\n```");
    expect(index).toContain('## Overview\n\nThe "random" provider allows the use of randomness');
    // The overview's example, as tabs of the registry's chooser.
    expect(index).toMatch(/\{\{< chooser language "typescript,python[a-z,]*" >\}\}\n\{\{% choosable language typescript %\}\}\n```typescript\n/);
    expect(index).toContain('const server = new random.Id("server", {');
    expect(index).toContain("## Configuration Reference\n\nThe provider has no configuration.");

    // Generating again from the value (gen-sdk, YAML) needs neither the repository nor the network: the cache has it.
    renameSync(repos(), `${repos()}.away`);
    try {
      const again = await schemaOf(valueRequest(Buffer.from(JSON.stringify(value(first.schema)))), env);
      expect(again.text).toBe(first.text);
      expect(again.stderr).not.toMatch(/warning/);
    } finally {
      renameSync(`${repos()}.away`, repos());
    }
  }, 240_000);

  it("--indexDocOutDir alone writes _index.md from the repository's index page; the schema and value keep short docs", async () => {
    const out = join(root, "page-only");
    const run = await schemaOf(argsRequest("hashicorp/random", "= 3.6.3", "--indexDocOutDir", out), env);
    expect(value(run.schema)).toEqual({ remote: { url: "registry.opentofu.org/hashicorp/random", version: "3.6.3", hashes: [expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/)] } });
    expect(allDescriptions(run.schema)).not.toContain("{{% examples %}}");
    expect(readFileSync(join(out, "_index.md"), "utf8")).toContain('## Overview\n\nThe "random" provider allows the use of randomness');
    // A local provider with no repository: the page has no overview, only how to add it and its configuration.
    const local = join(root, "page-local");
    await schemaOf(argsRequest(peerPath("tls"), "--indexDocOutDir", local));
    const page = readFileSync(join(local, "_index.md"), "utf8");
    expect(page).toContain(`pulumi package add terraform-provider ${peerPath("tls")}`);
    expect(page).not.toContain("## Overview");
    expect(page).toMatch(/## Configuration Reference\n\nThe following configuration inputs are supported .*:\n\n- `proxies` \(list of object, optional\) Proxy used by resources.*\n  - `fromEnv` \(boolean, optional\) When `true` the provider will discover/);
  }, 120_000);

  it("falls back to the tag <version> when there is no v<version>; a killed clone's old staging folder goes", async () => {
    const stale = `${upstreamCacheDir(cache, { host: "registry.opentofu.org", namespace: "hashicorp", type: "random", version: "3.6.5" })}.stage-killed`;
    mkdirSync(join(stale, "clone"), { recursive: true });
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(stale, old, old);
    const run = await schemaOf(argsRequest("hashicorp/random", "= 3.6.5", "--fullDocs"), env);
    expect(run.schema["resources"]["random:index/pet:Pet"].description).toContain("## Example Usage");
    const cached = upstreamCacheDir(cache, { host: "registry.opentofu.org", namespace: "hashicorp", type: "random", version: "3.6.5" });
    expect(JSON.parse(readFileSync(join(cached, ".source"), "utf8"))).toMatchObject({ tag: "3.6.5" });
    expect(existsSync(stale)).toBe(false);
  }, 120_000);

  it("an unknown tag or an unreachable repository is a warning and the schema's short docs, never a failure", async () => {
    const unknown = await schemaOf(argsRequest("hashicorp/random", "= 3.6.4", "--fullDocs"), env);
    expect(unknown.stderr).toMatch(/warning: --fullDocs: no docs for hashicorp\/random 3\.6\.4: file:\/\/\S+ has no tag v3\.6\.4 or 3\.6\.4; descriptions come from the provider schema only/);
    expect(allDescriptions(unknown.schema)).not.toContain("## Example Usage");
    expect(existsSync(upstreamCacheDir(cache, { host: "registry.opentofu.org", namespace: "hashicorp", type: "random", version: "3.6.4" }))).toBe(false);

    // Nothing listens on port 9 of the loopback address: the connection is refused at once.
    const offline = { ...env, TF_BRIDGE_DOCS_REPO_URL: "http://127.0.0.1:9/{namespace}/terraform-provider-{type}.git", PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(root, "cache-offline") };
    const unreachable = await schemaOf(argsRequest("hashicorp/random", "= 3.6.3", "--fullDocs"), offline);
    expect(unreachable.stderr).toMatch(/warning: --fullDocs: no docs for hashicorp\/random 3\.6\.3: git clone http:\/\/127\.0\.0\.1:9\/hashicorp\/terraform-provider-random\.git \(tag v3\.6\.3\) failed: .*127\.0\.0\.1/);
    expect(allDescriptions(unreachable.schema)).not.toContain("## Example Usage");
    expect(unreachable.schema["resources"]["random:index/password:Password"].inputProperties.minUpper.description).toBe("Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
  }, 240_000);

  it("without git on PATH: a warning naming git", async () => {
    const warnings: string[] = [];
    const path = process.env["PATH"];
    process.env["PATH"] = join(root, "no-git-here");
    try {
      const dir = await docsRepository(
        { kind: "upstream", repo: { host: "registry.opentofu.org", namespace: "hashicorp", type: "random", version: "9.9.9" } },
        { cacheRoot: join(root, "cache-nogit"), warn: (m) => warnings.push(m) },
      );
      expect(dir).toBeUndefined();
    } finally {
      process.env["PATH"] = path;
    }
    expect(warnings).toEqual(["--fullDocs: no docs for hashicorp/random 9.9.9: git is not installed (not found on PATH); descriptions come from the provider schema only"]);
  });

  it("--upstreamRepoPath that is not a directory is a clear error", async () => {
    const plugin = await startPluginProcess();
    try {
      const e = await plugin.call("Parameterize", argsRequest(peerPath("random"), "--upstreamRepoPath", join(root, "nowhere"))).catch((x: unknown) => x as Error);
      expect((e as Error).message).toMatch(/--upstreamRepoPath \S+nowhere: \S+nowhere is not a directory; give a checkout of the Terraform provider's repository/);
    } finally {
      await plugin.stop();
    }
  }, 60_000);
});
