// Resource lifecycle through the real Pulumi CLI with YAML programs, for terraform-provider-random and -local (protocol 5):
// create, replace (with delete-before-replace for a file), ignoreChanges, secrets, refresh after an out-of-band deletion,
// import, data sources and provider functions, destroy; with assertions on outputs, state and the files on disk.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { importedResources, isSecretEnvelope, OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();


describe("random (YAML)", () => {
  const program = (o: { keeper: string; length: number; max: number; extra?: string }): string =>
    [
      "resources:",
      "  str:",
      "    type: random:index/string:String",
      "    properties:",
      `      length: ${o.length}`,
      "      special: false",
      "      keepers:",
      `        k: ${o.keeper}`,
      "  pw:",
      "    type: random:index/password:Password",
      "    properties:",
      "      length: 20",
      "  pinned:",
      "    type: random:index/integer:Integer",
      "    properties:",
      "      min: 1",
      `      max: ${o.max}`,
      "    options:",
      "      ignoreChanges: [max]",
      o.extra ?? "",
      "outputs:",
      "  str: ${str.result}",
      "  pw: ${pw.result}",
      "  pinned: ${pinned.result}",
    ].join("\n");

  it("creates, keeps secrets secret, replaces on keepers/length with a detailed diff, honours ignoreChanges, imports, destroys", async () => {
    const s = await YamlScenario.create(sandbox, "lc-random", ["random"]);
    s.program(program({ keeper: "one", length: 8, max: 1_000_000 }));

    const created = await s.preview();
    for (const name of ["str", "pw", "pinned"]) expect(YamlScenario.step(created, name)?.op, name).toBe("create");
    await s.up();

    const out = await s.outputs();
    expect(out["str"]).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(out["pw"]).toBe("[secret]");
    const plain = await s.outputs(true);
    expect(plain["pw"]).toMatch(/^.{20}$/);
    // random_password.result is sensitive in Terraform: a secret in state, never plaintext in the export.
    const pw = await s.resource("pw");
    expect(isSecretEnvelope(pw?.outputs?.["result"])).toBe(true);
    expect(isSecretEnvelope(pw?.outputs?.["bcryptHash"])).toBe(true);
    expect(await s.exportText()).not.toContain(plain["pw"] as string);

    await s.ok(["preview", "--expect-no-changes"]);

    // keepers and length require replacement; `max` changes too but is in ignoreChanges.
    s.program(program({ keeper: "two", length: 10, max: 2_000_000 }));
    const replacing = await s.preview();
    const str = YamlScenario.step(replacing, "str");
    expect(str?.op).toBe("replace");
    expect(str?.replaceReasons?.sort()).toEqual(["keepers", "length"]);
    expect(str?.detailedDiff).toEqual({
      'keepers["k"]': { kind: "update-replace", inputDiff: false },
      length: { kind: "update-replace", inputDiff: false },
    });
    expect(YamlScenario.op(replacing, "pinned")).toBe("same");
    expect(YamlScenario.op(replacing, "pw")).toBe("same");
    const before = await s.resource("str");
    await s.up();
    const after = await s.resource("str");
    expect(after?.id).not.toBe(before?.id);
    const out2 = await s.outputs();
    expect(out2["str"]).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(out2["pinned"]).toBe(out["pinned"]);
    expect((await s.resource("pinned"))?.inputs?.["max"]).toBe(1_000_000);

    // Nothing changed outside: a refresh changes nothing, and neither does the next preview.
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);
    await s.ok(["preview", "--expect-no-changes"]);

    // `pulumi import` of a random_string by its value; the generated code is usable as is.
    const gen = join(s.dir, "imported.yaml");
    await s.ok(["import", "random:index/string:String", "adopted", "Imp0rtedValue1", "--yes", "--protect=false", "--out", gen]);
    const adopted = await s.resource("adopted");
    expect(adopted?.id).toBe("Imp0rtedValue1");
    expect(adopted?.outputs?.["result"]).toBe("Imp0rtedValue1");
    expect(adopted?.inputs).toMatchObject({ length: 14 });
    const code = readFileSync(gen, "utf8");
    expect(code).toMatch(/length: 14/);
    s.program(program({ keeper: "two", length: 10, max: 2_000_000, extra: importedResources(code) }));
    await s.ok(["preview", "--expect-no-changes"]);

    await s.ok(["destroy", "--yes"]);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});

describe("local (YAML)", () => {
  const program = (dir: string, content: string): string =>
    [
      "variables:",
      "  existing:",
      "    fn::invoke:",
      "      function: local:index/getFile:getFile",
      "      arguments:",
      `        filename: ${dir}/existing.txt`,
      "  dirThere:",
      "    fn::invoke:",
      "      function: local:index/direxists:direxists",
      "      arguments:",
      `        path: ${dir}`,
      "  dirMissing:",
      "    fn::invoke:",
      "      function: local:index/direxists:direxists",
      "      arguments:",
      `        path: ${dir}/nope`,
      "resources:",
      "  file:",
      "    type: local:index/file:File",
      "    properties:",
      `      filename: ${dir}/hello.txt`,
      `      content: ${JSON.stringify(content)}`,
      "  secretFile:",
      "    type: local:index/sensitiveFile:SensitiveFile",
      "    properties:",
      `      filename: ${dir}/secret.txt`,
      "      content: top-secret-content",
      "outputs:",
      "  existingContent: ${existing.content}",
      "  dirThere: ${dirThere}",
      "  dirMissing: ${dirMissing}",
      "  secretContent: ${secretFile.content}",
    ].join("\n");

  it("writes files, reads with a data source and a function, replaces delete-first, notices an out-of-band deletion, destroys", async () => {
    const files = scratch("tfbridge-local-files-");
    writeFileSync(join(files, "existing.txt"), "was here before\n");
    const s = await YamlScenario.create(sandbox, "lc-local", ["local"]);
    s.program(program(files, "hello"));
    await s.up();

    expect(readFileSync(join(files, "hello.txt"), "utf8")).toBe("hello");
    expect(readFileSync(join(files, "secret.txt"), "utf8")).toBe("top-secret-content");
    const out = await s.outputs();
    expect(out).toMatchObject({ existingContent: "was here before\n", dirThere: true, dirMissing: false, secretContent: "[secret]" });
    // local_sensitive_file.content is sensitive: secret in inputs and outputs, nowhere in plaintext.
    const secretFile = await s.resource("secretFile");
    expect(isSecretEnvelope(secretFile?.outputs?.["content"])).toBe(true);
    expect(isSecretEnvelope(secretFile?.inputs?.["content"])).toBe(true);
    expect(await s.exportText()).not.toContain("top-secret-content");
    await s.ok(["preview", "--expect-no-changes"]);

    // Every local_file attribute forces replacement. The new file has the same path: deleting the old one after
    // creating the new one would remove the new file, so the bridge asks for delete-before-replace.
    s.program(program(files, "hello again"));
    const replacing = YamlScenario.step(await s.preview(), "file");
    expect(replacing?.op).toBe("replace");
    expect(replacing?.detailedDiff).toEqual({ content: { kind: "update-replace", inputDiff: false } });
    const up = await s.up();
    const deleted = up.stdout.search(/local:index:File\s+file\s+deleted original/);
    const createdAgain = up.stdout.search(/local:index:File\s+file\s+created replacement/);
    expect(deleted, up.stdout).toBeGreaterThan(-1);
    expect(createdAgain, up.stdout).toBeGreaterThan(deleted);
    expect(readFileSync(join(files, "hello.txt"), "utf8")).toBe("hello again");

    // The file vanishes behind Pulumi's back: refresh reports the resource deleted, and up writes it again.
    rmSync(join(files, "hello.txt"));
    const refreshed = await s.ok(["refresh", "--yes"]);
    expect(refreshed.stdout).toMatch(/local:index:File\s+file\s+deleted/);
    expect(await s.resource("file")).toBeUndefined();
    await s.up();
    expect(readFileSync(join(files, "hello.txt"), "utf8")).toBe("hello again");

    // local_file does not support import: a clear error from the provider, no crash, no trace of ours.
    writeFileSync(join(files, "stray.txt"), "stray");
    const imp = await s.pulumi(["import", "local:index/file:File", "stray", join(files, "stray.txt"), "--yes", "--protect=false"]);
    expect(imp.code).not.toBe(0);
    expect(imp.stdout + imp.stderr).toMatch(/importing local_file ".*stray\.txt" failed/);
    expect(imp.stdout + imp.stderr).toMatch(/Resource Import Not Implemented/);
    expect(imp.stdout + imp.stderr).not.toMatch(OUR_STACK);
    expect(imp.stdout + imp.stderr).not.toMatch(/exited prematurely|Response contains error diagnostic/);

    await s.ok(["destroy", "--yes"]);
    expect(existsSync(join(files, "hello.txt"))).toBe(false);
    expect(existsSync(join(files, "secret.txt"))).toBe(false);
    expect(existsSync(join(files, "existing.txt"))).toBe(true);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});
