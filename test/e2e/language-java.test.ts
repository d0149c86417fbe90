// A Java project through the real Java language host (pulumi-language-java v1.34.0, scripts/build-java-host.sh), laid
// out as `pulumi new java` lays out a Maven project: Pulumi.yaml with `runtime: java`, pom.xml depending on
// com.pulumi:pulumi from Maven Central, src/main/java/myproject/App.java; `pulumi install` resolves and compiles it.
// `pulumi package add terraform-provider <peer>` for random, tls and local makes the CLI generate each Java SDK into
// sdks/<name>; the host links nothing itself but prints two steps (copy the SDK's sources into src/, add jsr305 and gson
// to the pom), which the test reads from the output and carries out exactly. Then `pulumi up` of a random Pet and
// Password and a local File, a no-change preview, refresh (ids kept), `pulumi import` (the Java code it prints is added
// to the program and compiles), destroy (the file is gone); ephemeral functions from Java feeding tls's write-only
// privateKeyPemWo, stored nowhere; `pulumi package gen-sdk --language java` for every real peer, each SDK compiled with
// Maven; and a Java project without the host; last, on a stack of its own, an explicit httpapi provider with a setting
// of every Terraform kind, which httpapi's getSettings echoes as Configure received them. Maven's downloads stay in
// ~/.m2, so reruns download nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { installPlugin, type ExportedResource } from "../support/e2e.js";
import { hostsMissing, javaHostMissing, javaSandbox } from "../support/languages.js";
import { OUR_STACK, filesContaining, genSdkDiagnostics, isSecretEnvelope, removeScratch, scratch } from "../support/lifecycle.js";
import { peerPath } from "../support/peers.js";
import { EXPLICIT_ECHO, ROUTE_SECRET, SETTINGS_ENDPOINT, expectStoredExplicitProvider } from "../support/provider-settings.js";
import { execAsync, spawnAsync } from "../support/processes.js";
import { expectSuccess, pulumiSandbox, runPulumi, type PulumiSandbox, type RunResult } from "../support/pulumi.js";
import { Timings } from "../support/timings.js";

const PEERS = ["random", "tls", "local"] as const;
const GEN_PEERS = ["random", "tls", "time", "local", "http", "httpapi", "bridgetest"] as const;
/**
 * The Java SDK the program compiles against. pulumi-java releases the host and com.pulumi:pulumi together, but the
 * Maven Central these tests reach serves no 1.21.0 to 1.36.0 (its maven-metadata.xml lists 1.0.0 to 1.20.0, then
 * 1.36.1), so the first release after the host's own, 1.36.1, is pinned; the host only runs `mvn`, so any SDK works
 * with it.
 */
const JAVA_SDK = "1.36.1";
/** What the host's Link step tells the user to add to the pom (and what generated SDKs' build.gradle lists). */
const SDK_DEPENDENCIES = [
  ["com.google.code.findbugs", "jsr305", "3.0.2"],
  ["com.google.code.gson", "gson", "2.8.9"],
] as const;
const timingReport = new Timings("language-java");
const { timed } = timingReport;


const dependency = (group: string, artifact: string, version: string): string =>
  `        <dependency>\n            <groupId>${group}</groupId>\n            <artifactId>${artifact}</artifactId>\n            <version>${version}</version>\n        </dependency>\n`;

/**
 * The pom.xml of `pulumi new java` (pulumi-java's own package-add test project), with com.pulumi:pulumi pinned and the
 * plugins a Pulumi run needs: the compiler at Java 11 (Maven 3.8's default compiler plugin targets Java 5, which JDK 17
 * refuses) and exec-maven-plugin, whose `exec:java` the host runs.
 */
const POM = (artifact: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>

    <groupId>com.pulumi</groupId>
    <artifactId>${artifact}</artifactId>
    <version>1.0-SNAPSHOT</version>

    <properties>
        <encoding>UTF-8</encoding>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
        <maven.compiler.source>11</maven.compiler.source>
        <maven.compiler.target>11</maven.compiler.target>
        <maven.compiler.release>11</maven.compiler.release>
        <mainClass>myproject.App</mainClass>
        <mainArgs/>
    </properties>

    <dependencies>
${dependency("com.pulumi", "pulumi", JAVA_SDK)}    </dependencies>

    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.5.1</version>
                <configuration>
                    <source>11</source>
                    <target>11</target>
                </configuration>
            </plugin>
            <plugin>
                <groupId>org.codehaus.mojo</groupId>
                <artifactId>exec-maven-plugin</artifactId>
                <version>3.0.0</version>
                <configuration>
                    <mainClass>\${mainClass}</mainClass>
                    <commandlineArgs>\${mainArgs}</commandlineArgs>
                </configuration>
            </plugin>
        </plugins>
    </build>
</project>
`;

const EMPTY_APP = `package myproject;

import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {});
    }
}
`;

/**
 * The program: a random Pet, a secret random Password and a local File whose content is the pet's id; with `imported`,
 * also the Integer `pulumi import` adopts, written as the code the import printed (fully qualified: the SDK's Integer
 * would shadow java.lang.Integer).
 */
const PROGRAM = (imported: boolean): string => `package myproject;

import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.local.File;
import com.pulumi.local.FileArgs;
import com.pulumi.random.Password;
import com.pulumi.random.PasswordArgs;
import com.pulumi.random.Pet;
import com.pulumi.random.PetArgs;
import com.pulumi.random.Provider;
import com.pulumi.resources.CustomResourceOptions;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();
            var pet = new Pet("pet", PetArgs.builder().length(2.0).separator("_").keepers(Map.of("keeper", config.require("keeper"))).build());
            var chosen = new Provider("chosen");
            new Pet("chosenPet", PetArgs.builder().length(3.0).build(), CustomResourceOptions.builder().provider(chosen).build());
            var password = new Password("password", PasswordArgs.builder().length(20.0).minUpper(2.0).special(false).build());
            var file = new File("file", FileArgs.builder()
                .filename(config.require("filePath"))
                .content(Output.format("pet=%s\\n", pet.id()))
                .build());
${imported ? '            new com.pulumi.random.Integer("imp", com.pulumi.random.IntegerArgs.builder().max(50.0).min(1.0).build());\n' : ""}            ctx.export("petName", pet.id());
            ctx.export("password", password.result());
            ctx.export("filename", file.filename());
        });
    }
}
`;

/**
 * Ephemeral resources as Java functions and an ephemeral value fed into a write-only input: the private key exists only
 * inside `pulumi up`; the CSR made from it is stored, the key nowhere.
 */
const EPHEMERAL_PROGRAM = `package myproject;

import com.pulumi.Pulumi;
import com.pulumi.random.ephemeral.inputs.GetPasswordArgs;
import com.pulumi.tls.CertRequest;
import com.pulumi.tls.CertRequestArgs;
import com.pulumi.tls.ephemeral.inputs.GetPrivateKeyArgs;
import com.pulumi.tls.ephemeral.outputs.GetPrivateKeyResult;
import com.pulumi.tls.inputs.CertRequestSubjectArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var config = ctx.config();
            var pw = com.pulumi.random.ephemeral.EphemeralFunctions.getPassword(GetPasswordArgs.builder().length(24.0).special(false).build());
            var key = com.pulumi.tls.ephemeral.EphemeralFunctions.getPrivateKey(GetPrivateKeyArgs.builder().algorithm("ECDSA").build());
            var csr = new CertRequest("wo-csr", CertRequestArgs.builder()
                .privateKeyPemWo(key.applyValue(GetPrivateKeyResult::privateKeyPem))
                .privateKeyPemWoVersion((double) config.requireInteger("woVersion"))
                .subjects(CertRequestSubjectArgs.builder().commonName("wo.example.test").build())
                .build());
            ctx.export("password", pw.applyValue(r -> r.result()));
            ctx.export("csrPem", csr.certRequestPem());
        });
    }
}
`;

/**
 * An explicit httpapi provider with a setting of every Terraform kind, the route's secret an Output made secret (the
 * generated ProviderArgs JSON-encodes each non-string input: `@Import(json=true)`; Terraform's ints are Doubles);
 * getSettings, invoked with that provider, echoes what its Configure received.
 */
const SETTINGS_PROGRAM = `package myproject;

import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.deployment.InvokeOptions;
import com.pulumi.httpapi.HttpapiFunctions;
import com.pulumi.httpapi.Provider;
import com.pulumi.httpapi.ProviderArgs;
import com.pulumi.httpapi.inputs.GetSettingsArgs;
import com.pulumi.httpapi.inputs.ProviderClientArgs;
import com.pulumi.httpapi.inputs.ProviderRouteArgs;
import com.pulumi.httpapi.outputs.GetSettingsResult;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var explicit = new Provider("explicit", ProviderArgs.builder()
                .endpoint("${SETTINGS_ENDPOINT}")
                .maxRetries(7.0)
                .trace(true)
                .backoffSeconds(0.25)
                .defaultHeaders(Map.of("x-team", "green"))
                .allowedIds("b", "c")
                .fallbackUrls("http://127.0.0.1:11")
                .client(ProviderClientArgs.builder().name("c2").weight(4.0).build())
                .routes(ProviderRouteArgs.builder().path("/b").secret(Output.ofSecret("${ROUTE_SECRET}")).build())
                .build());
            var settings = HttpapiFunctions.getSettings(GetSettingsArgs.builder().build(), InvokeOptions.builder().provider(explicit).build());
            ctx.export("fromExplicit", settings.applyValue(GetSettingsResult::json));
        });
    }
}
`;

let sandbox: PulumiSandbox;
let project: string;
let work: string;
let env: NodeJS.ProcessEnv;
let outFile: string;

const pulumi = (args: string[], timeoutMs = 600_000): Promise<RunResult> => runPulumi(args, { cwd: project, env, timeoutMs });
const ok = async (args: string[], timeoutMs?: number): Promise<RunResult> => expectSuccess(await pulumi(args, timeoutMs), `pulumi ${args.join(" ")} in ${project}`);
const writeApp = (program: string): void => writeFileSync(join(project, "src", "main", "java", "myproject", "App.java"), program);

function layOutProject(dir: string, name: string, program: string): void {
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\ndescription: A Java program using Terraform providers\nruntime: java\n`);
  writeFileSync(join(dir, "pom.xml"), POM(name));
  writeFileSync(join(dir, ".gitignore"), "/target\n");
  mkdirSync(join(dir, "src", "main", "java", "myproject"), { recursive: true });
  writeFileSync(join(dir, "src", "main", "java", "myproject", "App.java"), program);
}

interface Exported {
  text: string;
  resources: ExportedResource[];
}
async function exported(showSecrets = false): Promise<Exported> {
  const text = (await ok(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])])).stdout;
  return { text, resources: (JSON.parse(text) as { deployment: { resources?: ExportedResource[] } }).deployment.resources ?? [] };
}
const named = (resources: ExportedResource[], name: string): ExportedResource | undefined =>
  resources.find((r) => r.custom === true && r.urn.endsWith(`::${name}`));
/** name → id of every custom resource, providers included. */
const ids = (resources: ExportedResource[]): Record<string, string | undefined> =>
  Object.fromEntries(resources.filter((r) => r.custom === true).map((r) => [r.urn.split("::").pop()!, r.id]));
async function outputs(showSecrets = false): Promise<Record<string, unknown>> {
  return JSON.parse((await ok(["stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : [])])).stdout) as Record<string, unknown>;
}

/**
 * The steps pulumi-language-java's Link prints after `package add` (it edits neither the pom nor src/): the `cp`
 * command of step 1 and the <dependency> elements of step 2, as printed.
 */
function linkSteps(output: string): { cp: string[]; dependencies: string[] } {
  const cp = [...output.matchAll(/^ {5}(cp -r \S+\/src\/\* \S+)$/gm)].map((m) => m[1]!);
  const block = /^ {5}<dependencies>\n([\s\S]*?)^ {5}<\/dependencies>$/m.exec(output)?.[1] ?? "";
  const dependencies = [...block.matchAll(/<dependency>[\s\S]*?<\/dependency>/g)].map((m) => m[0].replace(/\s+/g, ""));
  return { cp, dependencies };
}

/** The pom with each <dependency> (whitespace-free, as linkSteps gives it) added once, before </dependencies>. */
function addDependencies(pom: string, dependencies: string[]): string {
  const have = pom.replace(/\s+/g, "");
  const missing = dependencies.filter((d) => !have.includes(d));
  const elements = missing.map((d) => {
    const [, group, artifact, version] = /<groupId>(.*)<\/groupId><artifactId>(.*)<\/artifactId><version>(.*)<\/version>/.exec(d)!;
    return dependency(group!, artifact!, version!);
  });
  return pom.replace("    </dependencies>", `${elements.join("")}    </dependencies>`);
}

/** A Maven module compiling a generated SDK's src/ (which has only a build.gradle) with the dependencies it lists. */
const SDK_POM = (peer: string, dependencies: readonly (readonly string[])[]): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>com.pulumi</groupId>
    <artifactId>${peer}</artifactId>
    <version>0.0.0</version>
    <properties>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    </properties>
    <dependencies>
${dependencies.map(([g, a, v]) => dependency(g!, a!, v!)).join("")}    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.5.1</version>
                <configuration>
                    <source>11</source>
                    <target>11</target>
                </configuration>
            </plugin>
        </plugins>
    </build>
</project>
`;

describe.skipIf(hostsMissing() || javaHostMissing())("a Java project through the real Java language host", () => {
  beforeAll(async () => {
    sandbox = javaSandbox(); // packages and installs the plugin
    work = scratch("tfbridge-lang-java-");
    env = { ...sandbox.env };
    project = join(work, "project");
    mkdirSync(project);
    outFile = join(work, "written-by-local.txt");
    layOutProject(project, "tfbridge-lang-java", EMPTY_APP);
    // `pulumi install`: the Java host runs `mvn compile`, which resolves com.pulumi:pulumi (online the first time).
    await timed(`pulumi install (mvn compile, com.pulumi:pulumi ${JAVA_SDK})`, () => ok(["install"]));
    expect(existsSync(join(project, "target", "classes", "myproject", "App.class"))).toBe(true);
  }, 1_200_000);

  afterAll(async () => {
    if (project !== undefined) await pulumi(["destroy", "--yes"]).catch(() => undefined);
    sandbox?.cleanup();
    removeScratch();
    timingReport.report();
  });

  it("`pulumi package add terraform-provider <path>` for random, tls and local: sdks/<name> with Java sources, and the two steps the host prints, carried out", async () => {
    const deps = new Set<string>();
    const copies: string[] = [];
    for (const peer of PEERS) {
      const r = await timed(`package add ${peer} (generate, then mvn compile)`, () => ok(["package", "add", "terraform-provider", peerPath(peer)]));
      const text = r.stdout + r.stderr;
      expect(text).toMatch(new RegExp(`Added package ${peer}`));
      expect(text).not.toMatch(OUR_STACK);
      if (peer === "random") console.log(`[language-java] package add random printed:\n${r.stdout}`);
      // The host names the package by its base plugin: the CLI gives Link the plugin's descriptor, not the parameterized
      // package's name.
      expect(r.stdout).toContain("Successfully generated a Java SDK for the package terraform-provider\n\nTo use this SDK in your Java project, complete the following steps:\n1. Copy the contents of the generated SDK to your Java project:\n");
      expect(r.stdout).toContain("2. Add the SDK dependencies to your Java project's build configuration.\n   If you are using Maven, add the following dependencies to your pom.xml:\n");
      const steps = linkSteps(r.stdout);
      expect(steps.cp).toEqual([`cp -r sdks/${peer}/src/* ${project}/src`]);
      expect(steps.dependencies).toEqual(SDK_DEPENDENCIES.map(([g, a, v]) => dependency(g, a, v).replace(/\s+/g, "")));
      copies.push(...steps.cp);
      steps.dependencies.forEach((d) => deps.add(d));

      const sdk = join(project, "sdks", peer);
      const base = join(sdk, "src", "main", "java", "com", "pulumi", peer);
      // The package is registered at run time from Utilities.java: base plugin, its version, the package's name and the
      // parameter value, which names the peer's path.
      const utilities = readFileSync(join(base, "Utilities.java"), "utf8");
      const register = /registerPackage\(\s*\/\/ Base provider name\s*"([^"]*)",\s*\/\/ Base provider version\s*"([^"]*)",\s*\/\/ Base provider download URL\s*"([^"]*)",\s*\/\/ Package name\s*"([^"]*)",\s*\/\/ Package version\s*getVersion\(\),\s*\/\/ Parameter\s*"([^"]*)"/.exec(utilities);
      expect(register?.slice(1, 5)).toEqual(["terraform-provider", VERSION, "", peer]);
      expect(JSON.parse(Buffer.from(register![5]!, "base64").toString())).toEqual({ local: { path: peerPath(peer) } });
      expect(readFileSync(join(sdk, "src", "main", "resources", "com", "pulumi", peer, "version.txt"), "utf8").trim()).toBe("0.0.0");
      // A local SDK has no build file: it is meant to be copied into the program.
      expect(readdirSync(sdk).sort()).toEqual([".gitattributes", "README.md", "src"]);
    }
    const yaml = readFileSync(join(project, "Pulumi.yaml"), "utf8");
    for (const peer of PEERS) expect(yaml).toContain(`  ${peer}:\n    source: terraform-provider\n    version: ${VERSION}\n    parameters:\n      - ${peerPath(peer)}\n`);

    // Step 1, exactly as printed (run by sh in the project, as a user would paste it); step 2 into the pom.
    await timed("carry out the printed steps (cp, pom dependencies)", async () => {
      for (const cp of copies) await execAsync("sh", ["-c", cp], { cwd: project, env });
      writeFileSync(join(project, "pom.xml"), addDependencies(readFileSync(join(project, "pom.xml"), "utf8"), [...deps]));
    });
    for (const peer of PEERS) expect(existsSync(join(project, "src", "main", "java", "com", "pulumi", peer, "Utilities.java"))).toBe(true);
    const pom = readFileSync(join(project, "pom.xml"), "utf8");
    for (const [g, a, v] of SDK_DEPENDENCIES) expect(pom).toContain(dependency(g, a, v));
  }, 600_000);

  let first: Exported;

  it("`pulumi up` of App.java: a random Pet and a secret Password, a local File with the pet's id", async () => {
    writeApp(PROGRAM(false));
    await ok(["stack", "init", "dev"]);
    await ok(["config", "set", "filePath", outFile]);
    await ok(["config", "set", "keeper", "one"]);
    const up = await timed("up (mvn compile of the program and three SDKs, exec:java)", () => ok(["up", "--yes", "--skip-preview"]));
    expect(up.stdout + up.stderr).not.toMatch(OUR_STACK);

    const out = await outputs();
    console.log(`[language-java] stack outputs: ${JSON.stringify(out)}`);
    expect(out["petName"]).toMatch(/^[a-z]+_[a-z]+$/);
    expect(out["password"]).toBe("[secret]");
    expect(out["filename"]).toBe(outFile);
    expect(readFileSync(outFile, "utf8")).toBe(`pet=${String(out["petName"])}\n`);

    const secret = (await outputs(true))["password"];
    expect(secret).toMatch(/^[A-Za-z0-9]{20}$/);
    first = await exported();
    expect(first.text).not.toContain(String(secret));
    const password = named(first.resources, "password")!;
    expect(password.type).toBe("random:index/password:Password");
    // Java's builder names are the wire names; numbers are doubles.
    expect(password.inputs).toMatchObject({ length: 20, minUpper: 2, special: false });
    expect(isSecretEnvelope(password.outputs?.["result"])).toBe(true);
    expect(named(first.resources, "pet")!.inputs).toMatchObject({ length: 2, separator: "_", keepers: { keeper: "one" } });
    expect(named(first.resources, "file")!.type).toBe("local:index/file:File");
    expect(named(first.resources, "pet")!.provider).toMatch(/::pulumi:providers:random::default/);
    // An explicit provider of the bridged package is our plugin too: the engine looks for no pulumi-resource-random
    // (plugin downloads are off here, so it would fail), pulumi/pulumi-terraform-bridge#2694.
    const chosen = first.resources.find((r) => r.type === "pulumi:providers:random" && r.urn.endsWith("::chosen"));
    expect(chosen).toBeDefined();
    expect(named(first.resources, "chosenPet")!.provider).toBe(`${chosen!.urn}::${chosen!.id}`);
  }, 600_000);

  it("`pulumi preview --expect-no-changes`, then `pulumi refresh` keeps every id and still nothing to change", async () => {
    await timed("preview --expect-no-changes", () => ok(["preview", "--expect-no-changes"]));
    await timed("refresh", () => ok(["refresh", "--yes", "--skip-preview"]));
    const after = await exported();
    expect(ids(after.resources)).toEqual(ids(first.resources));
    await ok(["preview", "--expect-no-changes"]);
  }, 600_000);

  it("`pulumi import random:index/integer:Integer imp 15,1,50` adopts an integer and writes Java code that compiles and matches", async () => {
    const gen = join(work, "imported.java");
    const r = await timed("import", () => ok(["import", "random:index/integer:Integer", "imp", "15,1,50", "--yes", "--protect=false", "--out", gen]));
    expect(r.stdout + r.stderr).not.toMatch(OUR_STACK);
    const code = readFileSync(gen, "utf8");
    console.log(`[language-java] code from pulumi import:\n${code}`);
    expect(code).toContain("import com.pulumi.random.Integer;\nimport com.pulumi.random.IntegerArgs;\n");
    // Terraform numbers are `number` in the schema: Java's generator writes doubles.
    expect(code).toMatch(/var imp = new Integer\("imp", IntegerArgs\.builder\(\)\s*\.max\(50\.0\)\s*\.min\(1\.0\)\s*\.build\(\)\);/);
    const imp = named((await exported()).resources, "imp");
    expect(imp?.type).toBe("random:index/integer:Integer");
    expect(imp?.id).toBe("15");
    expect(imp?.outputs).toMatchObject({ result: 15, min: 1, max: 50 });
    // The generated class beside the program (Maven compiles it with every run) and its resource in the program.
    mkdirSync(join(project, "src", "main", "java", "generated_program"));
    writeFileSync(join(project, "src", "main", "java", "generated_program", "App.java"), code);
    writeApp(PROGRAM(true));
    await timed("preview --expect-no-changes (with the imported resource)", () => ok(["preview", "--expect-no-changes"]));
    expect(existsSync(join(project, "target", "classes", "generated_program", "App.class"))).toBe(true);
  }, 600_000);

  it("`pulumi destroy` removes everything, and terraform-provider-local deletes the file", async () => {
    expect(existsSync(outFile)).toBe(true);
    await timed("destroy", () => ok(["destroy", "--yes", "--skip-preview"]));
    expect(existsSync(outFile)).toBe(false);
    expect((await exported()).resources.filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);

  it("ephemeral functions and a write-only input from Java: the ephemeral key feeds tls's privateKeyPemWo, stored nowhere; its version drives the replacement", async () => {
    writeApp(EPHEMERAL_PROGRAM);
    await ok(["config", "set", "woVersion", "1"]);
    await timed("up (ephemeral + write-only)", () => ok(["up", "--yes", "--skip-preview"]));
    const one = await outputs(true);
    expect(one["password"]).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(one["csrPem"]).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect((await outputs())["password"], "an ephemeral result stays secret").toBe("[secret]");

    const stored = async (): Promise<void> => {
      const state = await exported(true);
      expect(state.text).not.toContain("PRIVATE KEY");
      const csr = named(state.resources, "wo-csr");
      expect(csr?.inputs).toMatchObject({ subjects: [{ commonName: "wo.example.test" }] });
      expect(Object.keys(csr?.inputs ?? {})).not.toContain("privateKeyPemWo");
      expect(filesContaining(sandbox.backend, "PRIVATE KEY")).toEqual([]);
    };
    await stored();
    await timed("preview --expect-no-changes (ephemeral)", () => ok(["preview", "--expect-no-changes"]));

    await ok(["config", "set", "woVersion", "2"]);
    await timed("up (write-only version bumped)", () => ok(["up", "--yes", "--skip-preview"]));
    expect((await outputs(true))["csrPem"]).not.toBe(one["csrPem"]);
    await stored();
    await timed("destroy (ephemeral)", () => ok(["destroy", "--yes", "--skip-preview"]));
  }, 600_000);

  it("`pulumi package gen-sdk terraform-provider <peer> --language java` for every real peer; each SDK compiles with Maven", async () => {
    const gen = join(work, "gen");
    mkdirSync(gen);
    for (const peer of GEN_PEERS) {
      const r = await timed(`gen-sdk ${peer} --language java`, () => runPulumi(["package", "gen-sdk", "terraform-provider", peerPath(peer), "--language", "java", "--out", join(gen, peer)], { cwd: gen, env }));
      expectSuccess(r, `gen-sdk ${peer}`);
      // Java's generator warns that a secret provider config property is a plain value in the Config class.
      const secretConfig = { httpapi: "token", bridgetest: "apiToken" } as Record<string, string>;
      expect(genSdkDiagnostics(r.stdout + r.stderr), peer).toEqual(
        secretConfig[peer] === undefined ? [] : [`WARN: secret property ${secretConfig[peer]} (property of config) does not have an Output type`],
      );
      const sdk = join(gen, peer, "java");
      const gradle = readFileSync(join(sdk, "build.gradle"), "utf8");
      const listed = [...gradle.matchAll(/^\s*implementation\("([^:"]+):([^:"]+):([^"]+)"\)$/gm)].map((m) => [m[1]!, m[2]!, m[3]!]);
      // The generator's floor for the core SDK is 1.0.0; the program's pin is compiled against instead.
      expect(listed).toEqual([...SDK_DEPENDENCIES, ["com.pulumi", "pulumi", "1.0.0"]]);
      writeFileSync(join(sdk, "pom.xml"), SDK_POM(peer, [...SDK_DEPENDENCIES, ["com.pulumi", "pulumi", JAVA_SDK]]));
    }
    // One reactor for the seven SDKs: one Maven start, two threads.
    const modules = GEN_PEERS.map((p) => `        <module>${p}/java</module>\n`).join("");
    writeFileSync(
      join(gen, "pom.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n    <modelVersion>4.0.0</modelVersion>\n    <groupId>com.pulumi</groupId>\n    <artifactId>sdks</artifactId>\n    <version>0.0.0</version>\n    <packaging>pom</packaging>\n    <modules>\n${modules}    </modules>\n</project>\n`,
    );
    await timed(`mvn compile of ${GEN_PEERS.length} generated SDKs`, () => execAsync("mvn", ["-q", "--batch-mode", "--no-transfer-progress", "-T", "2", "compile"], { cwd: gen, env }));
    for (const peer of GEN_PEERS) {
      const classes = join(gen, peer, "java", "target", "classes", "com", "pulumi", peer);
      expect(existsSync(join(classes, "Utilities.class")), peer).toBe(true);
      expect(existsSync(join(classes, "Provider.class")), peer).toBe(true);
    }
  }, 600_000);

  it("without pulumi-language-java on PATH, `pulumi package add` and `pulumi preview` fail naming it", async () => {
    const bare = pulumiSandbox();
    try {
      installPlugin(bare);
      const dir = scratch("tfbridge-lang-java-nohost-");
      layOutProject(dir, "nohost", EMPTY_APP);
      const which = await spawnAsync("sh", ["-c", "command -v pulumi-language-java || true"], { env: bare.env });
      expect(which.stdout.trim(), "pulumi-language-java must not be on the bare sandbox's PATH").toBe("");
      const add = await timed("package add without the host", () => runPulumi(["package", "add", "terraform-provider", peerPath("random")], { cwd: dir, env: bare.env }));
      const addText = add.stdout + add.stderr;
      expect(add.code, addText).not.toBe(0);
      expect(addText).toContain("no language plugin 'pulumi-language-java' found in the workspace or on your $PATH");
      expect(addText).not.toMatch(OUR_STACK);
      expect(existsSync(join(dir, "sdks", "random"))).toBe(false);

      expectSuccess(await runPulumi(["stack", "init", "dev"], { cwd: dir, env: bare.env }), "stack init");
      const preview = await runPulumi(["preview"], { cwd: dir, env: bare.env });
      const previewText = preview.stdout + preview.stderr;
      expect(preview.code, previewText).not.toBe(0);
      expect(previewText).toContain("failed to load language plugin java: no language plugin 'pulumi-language-java' found in the workspace or on your $PATH");
    } finally {
      bare.cleanup();
    }
  }, 600_000);

  it("an explicit httpapi Provider with a setting of every kind: getSettings echoes them decoded, the stored routes stay secret, no change on preview", async () => {
    // `pulumi package add`, and the two steps the host prints carried out, as for the other packages.
    const r = await timed("package add httpapi", () => ok(["package", "add", "terraform-provider", peerPath("httpapi")]));
    const steps = linkSteps(r.stdout);
    expect(steps.cp).toEqual([`cp -r sdks/httpapi/src/* ${project}/src`]);
    for (const cp of steps.cp) await execAsync("sh", ["-c", cp], { cwd: project, env });
    writeFileSync(join(project, "pom.xml"), addDependencies(readFileSync(join(project, "pom.xml"), "utf8"), steps.dependencies));
    writeApp(SETTINGS_PROGRAM);
    await ok(["stack", "init", "settings"]);
    await timed("up (explicit httpapi provider; mvn compile)", () => ok(["up", "--yes", "--skip-preview"]));
    expect(JSON.parse((await outputs())["fromExplicit"] as string)).toEqual(EXPLICIT_ECHO);
    const state = await exported();
    expectStoredExplicitProvider(state.resources, state.text);
    await timed("preview --expect-no-changes (explicit httpapi provider)", () => ok(["preview", "--expect-no-changes"]));
    await ok(["destroy", "--yes", "--skip-preview"]);
    expect((await exported()).resources.filter((r) => r.custom === true)).toEqual([]);
  }, 600_000);
});
