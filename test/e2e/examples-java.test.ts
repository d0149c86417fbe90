// Proof by compiling: every upstream example of the real peers (random, tls, time, local, http) that uses only the
// peer itself, as renderJava writes it, compiles with javac (through Maven, as a Pulumi Java project builds) against
// the Java SDK `pulumi package gen-sdk --language java` generates from the same full-docs schema, with com.pulumi:pulumi
// 1.36.1 from Maven Central and the two libraries generated SDKs list (jsr305, gson), as language-java.test.ts pins
// them. Per peer one Maven project holds the SDK's sources and each example as a package of its own
// (`generated_program_<n>`, the program's `package generated_program;` renamed), so one javac run checks them all.
// Prints per peer: examples found, converted, compiling.
//
// Maven's downloads stay in ~/.m2: once the artifacts are there, Maven runs offline (`-o`).
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderJava } from "../../src/schema-translate/examples/java.js";
import { EXAMPLE_PEERS, peerExamples, peerSchemaFile, type PeerExample } from "../support/examples.js";
import { hostsMissing, javaHost, javaHostMissing } from "../support/languages.js";
import { removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { execAsync, spawnAsync } from "../support/processes.js";
import { pulumiBinDir } from "../support/pulumi.js";

const JAVA_SDK = "1.36.1";
const DEPENDENCIES = [
  ["com.pulumi", "pulumi", JAVA_SDK],
  ["com.google.code.findbugs", "jsr305", "3.0.2"],
  ["com.google.code.gson", "gson", "2.8.9"],
] as const;
const COMPILER_PLUGIN = "3.5.1";
const M2 = join(homedir(), ".m2", "repository");

const figures: string[] = [];
afterAll(() => {
  console.log(figures.join("\n"));
  removeScratch();
});

const dependency = ([group, artifact, version]: readonly string[]): string =>
  `        <dependency>\n            <groupId>${group}</groupId>\n            <artifactId>${artifact}</artifactId>\n            <version>${version}</version>\n        </dependency>\n`;

/** A Maven project compiling src/main/java at Java 11, the level of the pom `pulumi new java` writes. */
const POM = (peer: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
    <modelVersion>4.0.0</modelVersion>
    <groupId>com.pulumi</groupId>
    <artifactId>examples-${peer}</artifactId>
    <version>0.0.0</version>
    <properties>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    </properties>
    <dependencies>
${DEPENDENCIES.map(dependency).join("")}    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>${COMPILER_PLUGIN}</version>
                <configuration>
                    <source>11</source>
                    <target>11</target>
                    <compilerArgs><arg>-Xmaxerrs</arg><arg>10000</arg></compilerArgs>
                </configuration>
            </plugin>
        </plugins>
    </build>
</project>
`;

/** Whether ~/.m2 holds what the project needs, so Maven can run offline. */
function mavenCached(): boolean {
  const jar = ([group, artifact, version]: readonly string[]): string => join(M2, ...group!.split("."), artifact!, version!, `${artifact}-${version}.jar`);
  return DEPENDENCIES.every((d) => existsSync(jar(d))) && existsSync(jar(["org.apache.maven.plugins", "maven-compiler-plugin", COMPILER_PLUGIN]));
}

/** `pulumi package gen-sdk <schema> --language java`: the generated sources' folder (src/main). */
async function javaSdk(peer: (typeof EXAMPLE_PEERS)[number], dir: string): Promise<string> {
  const host = javaHost();
  if ("missing" in host) throw new Error(host.missing);
  const env = withLanguageHosts({ ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" });
  env["PATH"] = `${host.dir}:${env["PATH"] ?? ""}`;
  const out = join(dir, "gen");
  await execAsync(join(pulumiBinDir(), "pulumi"), ["--non-interactive", "package", "gen-sdk", await peerSchemaFile(peer), "--language", "java", "--out", out], { cwd: dir, env });
  const main = join(out, "java", "src", "main");
  expect(existsSync(join(main, "java", "com", "pulumi", peer, "Provider.java")), `${peer}'s Java SDK`).toBe(true);
  return main;
}

/** Each example as src/main/java/generated_program_<i>/App.java, headed by where it comes from. */
function writeExamples(project: string, examples: PeerExample[]): void {
  examples.forEach((e, i) => {
    if (!e.conversion.ok) throw new Error(`${e.page} #${e.index} was not converted`);
    const dir = join(project, "src", "main", "java", `generated_program_${i}`);
    mkdirSync(dir, { recursive: true });
    const code = renderJava(e.conversion.program).replace(/^package generated_program;/m, `package generated_program_${i};`);
    writeFileSync(join(dir, "App.java"), `// ${e.page} #${e.index}\n${code}`);
  });
}

describe.skipIf(hostsMissing() || javaHostMissing()).each(EXAMPLE_PEERS)("%s examples in Java", (peer) => {
  it("compile with javac against the generated SDK", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const compilable = examples.filter((e) => e.onlyProvider);
    const dir = scratch(`tfbridge-examples-java-${peer}-`);
    const project = join(dir, "project");
    mkdirSync(project);
    cpSync(await javaSdk(peer, dir), join(project, "src", "main"), { recursive: true });
    writeExamples(project, compilable);
    writeFileSync(join(project, "pom.xml"), POM(peer));

    const mvn = (offline: boolean): Promise<{ status: number | null; stdout: string; stderr: string }> =>
      spawnAsync("mvn", ["-q", "--batch-mode", "--no-transfer-progress", ...(offline ? ["-o"] : []), "compile"], { cwd: project, env: process.env });
    let compiled = await mvn(mavenCached());
    // A cache missing something Maven needs (a plugin's own dependency): once more online, which fills it.
    if (compiled.status !== 0 && /offline mode|Cannot access .* in offline/i.test(compiled.stdout)) compiled = await mvn(false);
    const output = `${compiled.stdout}${compiled.stderr}`;
    const failed = new Set([...output.matchAll(/generated_program_(\d+)\/App\.java/g)].map((m) => m[1]!));
    figures.push(`[examples-java] ${peer}: found ${examples.length}, converted ${converted.length} (${compilable.length} using only ${peer}), compiling ${compilable.length - failed.size}`);
    expect(compiled.status === 0 ? "" : output, `${peer}'s examples in Java (project in ${project})`).toBe("");
    expect(compilable.length - failed.size).toBe(compilable.length);
    expect(compilable.length).toBeGreaterThan(0);
  }, 900_000);
});
