// Resource lifecycle through the real Pulumi CLI with YAML programs, for terraform-provider-bridgetest (protocol 6, our
// stand-in for tfcoremock): every value shape, update in place with nested detailed diffs, replace, refresh after drift
// and after deletion (the objects are real files), import, data source and functions, explicit providers, config from
// stack config with secrets, ignoreChanges, and bad input reported by property name.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { importedResources, isSecretEnvelope, OUR_STACK, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();


interface StoredObject {
  resource: string;
  schema_version: number;
  state: Record<string, unknown>;
}

const objectFile = (dir: string, id: string): string => join(dir, `${id}.json`);
const readObject = (dir: string, id: string): StoredObject => JSON.parse(readFileSync(objectFile(dir, id), "utf8")) as StoredObject;
const objectIds = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();

interface ObjectOptions {
  name: string;
  bool: boolean;
  mapA: string;
  blockValue: string;
  nestedValue: string;
}

const objectProgram = (o: ObjectOptions, extra = ""): string =>
  [
    "variables:",
    "  echo:",
    "    fn::invoke:",
    "      function: bridgetest:index/getEcho:getEcho",
    "      arguments:",
    "        input:",
    "          hello: world",
    "          n: 3",
    "          list: [1, two]",
    "  reversed:",
    "    fn::invoke:",
    "      function: bridgetest:index/reverse:reverse",
    "      arguments:",
    "        s: héllo",
    "  joined:",
    "    fn::invoke:",
    "      function: bridgetest:index/join:join",
    "      arguments:",
    '        sep: "-"',
    "        parts: [a, b, c]",
    "resources:",
    "  obj:",
    "    type: bridgetest:index/objectResource:ObjectResource",
    "    properties:",
    `      name: ${o.name}`,
    `      boolValue: ${o.bool}`,
    "      numberValue: 1.5",
    "      intValue: 7",
    "      listValues: [x, y]",
    "      setValues: [b, a]",
    "      mapValue:",
    `        a: ${o.mapA}`,
    "      objectValue: { a: s, b: 2, c: true }",
    "      singleNested:",
    "        key: nk",
    `        value: ${o.nestedValue}`,
    "      listBlocks:",
    "        - key: k1",
    `          value: ${o.blockValue}`,
    "      dynamicValue:",
    "        any: [1, two]",
    "      secret: s3cret-value",
    extra,
    "outputs:",
    "  id: ${obj.id}",
    "  revision: ${obj.revision}",
    "  optionalComputed: ${obj.optionalComputed}",
    "  withDefault: ${obj.withDefault}",
    "  secret: ${obj.secret}",
    "  echoOutput: ${echo.output}",
    "  echoFiles: ${echo.files}",
    "  reversed: ${reversed}",
    "  joined: ${joined}",
  ].join("\n");

describe("bridgetest objects (YAML)", () => {
  it("create, update in place, replace, refresh after drift and deletion, import, data source and functions, destroy", async () => {
    const stateDir = scratch("tfbridge-bt-state-");
    const s = await YamlScenario.create(sandbox, "lc-bridgetest", ["bridgetest"]);
    // Provider configuration from stack config.
    await s.ok(["config", "set", "bridgetest:stateDir", stateDir]);
    const v1: ObjectOptions = { name: "first", bool: true, mapA: "b", blockValue: "v1", nestedValue: "n1" };
    s.program(objectProgram(v1));
    await s.up();

    const out = await s.outputs();
    const id = out["id"] as string;
    expect(id).toMatch(/^obj-[0-9a-f]{12}$/);
    expect(out).toMatchObject({ revision: 1, optionalComputed: "provider-chose", withDefault: "default-value", secret: "[secret]" });
    // Data source and provider functions.
    expect(out["echoOutput"]).toEqual({ hello: "world", n: 3, list: [1, "two"] });
    // The data source ran when the program started, before the object existed.
    expect(out["echoFiles"]).toEqual([]);
    expect(out["reversed"]).toBe("olléh");
    expect(out["joined"]).toBe("a-b-c");
    // The real side effect: the object's file, in Terraform's JSON state encoding.
    const stored = readObject(stateDir, id);
    expect(stored.state).toMatchObject({
      id,
      name: "first",
      bool_value: true,
      number_value: 1.5,
      int_value: 7,
      list_value: ["x", "y"],
      map_value: { a: "b" },
      object_value: { a: "s", b: 2, c: true },
      single_nested: { key: "nk", value: "n1", computed_tag: "auto" },
      list_block: [{ key: "k1", value: "v1", computed_tag: "auto" }],
      secret: "s3cret-value",
      revision: 1,
    });
    expect((stored.state["set_value"] as string[]).sort()).toEqual(["a", "b"]);
    // State: the sensitive attribute is a secret, private state rides in __meta.
    const res = await s.resource("obj");
    expect(isSecretEnvelope(res?.outputs?.["secret"])).toBe(true);
    expect(isSecretEnvelope(res?.inputs?.["secret"])).toBe(true);
    expect(JSON.parse(res?.outputs?.["__meta"] as string)).toMatchObject({ schema_version: "1", private_state: expect.any(String) });
    expect(await s.exportText()).not.toContain("s3cret-value");
    await s.ok(["preview", "--expect-no-changes"]);

    // Update in place: a top-level bool, a map entry, a nested block's attribute, a nested attribute's attribute.
    const v2: ObjectOptions = { ...v1, bool: false, mapA: "c", blockValue: "v2", nestedValue: "n2" };
    s.program(objectProgram(v2));
    const updating = YamlScenario.step(await s.preview(), "obj");
    expect(updating?.op).toBe("update");
    expect(updating?.detailedDiff).toMatchObject({
      boolValue: { kind: "update" },
      'mapValue["a"]': { kind: "update" },
      "listBlocks[0].value": { kind: "update" },
      "singleNested.value": { kind: "update" },
    });
    expect(Object.values(updating?.detailedDiff ?? {}).filter((d) => d.kind.endsWith("-replace"))).toEqual([]);
    expect(updating?.diffReasons?.sort()).toEqual(expect.arrayContaining(["boolValue", "listBlocks", "mapValue", "singleNested"]));
    // What the user reads in `pulumi preview --diff`.
    const shown = (await s.ok(["preview", "--diff"])).stdout;
    expect(shown).toMatch(/~ bridgetest:index\/objectResource:ObjectResource: \(update\)/);
    expect(shown).toMatch(/~ boolValue\s*: true => false/);
    expect(shown).toMatch(/~ a: "b" => "c"/);
    expect(shown).toMatch(/~ value\s*: "v1" => "v2"/);
    expect(shown).toMatch(/~ value\s*: "n1" => "n2"/);
    await s.up();
    expect(await s.outputs()).toMatchObject({ id, revision: 2, echoFiles: [id] });
    expect(readObject(stateDir, id).state).toMatchObject({ bool_value: false, map_value: { a: "c" }, list_block: [{ value: "v2" }], single_nested: { value: "n2" }, revision: 2 });

    // name requires replacement: a new object (file), the old one deleted.
    const v3: ObjectOptions = { ...v2, name: "second" };
    s.program(objectProgram(v3));
    const replacing = YamlScenario.step(await s.preview(), "obj");
    expect(replacing?.op).toBe("replace");
    expect(replacing?.replaceReasons).toEqual(["name"]);
    expect(replacing?.detailedDiff?.["name"]).toEqual({ kind: "update-replace", inputDiff: false });
    await s.up();
    const id2 = (await s.outputs())["id"] as string;
    expect(id2).not.toBe(id);
    expect(objectIds(stateDir)).toEqual([id2]);
    expect(readObject(stateDir, id2).state).toMatchObject({ name: "second", revision: 1 });

    // Drift: the object is edited behind Pulumi's back; refresh brings it into state, the next up reverts it.
    const drifted = readObject(stateDir, id2);
    drifted.state["bool_value"] = true;
    drifted.state["map_value"] = { a: "drift" };
    writeFileSync(objectFile(stateDir, id2), JSON.stringify(drifted));
    const refresh = await s.ok(["refresh", "--yes"]);
    expect(refresh.stdout).toMatch(/bridgetest:index:ObjectResource\s+obj\s+updated/);
    expect((await s.resource("obj"))?.outputs).toMatchObject({ boolValue: true, mapValue: { a: "drift" } });
    const reverting = YamlScenario.step(await s.preview(), "obj");
    expect(reverting?.op).toBe("update");
    expect(reverting?.detailedDiff).toMatchObject({ boolValue: { kind: "update" }, 'mapValue["a"]': { kind: "update" } });
    await s.up();
    expect(readObject(stateDir, id2).state).toMatchObject({ bool_value: false, map_value: { a: "c" } });
    await s.ok(["preview", "--expect-no-changes"]);

    // Deletion behind Pulumi's back: refresh drops the resource, up creates a new object.
    rmSync(objectFile(stateDir, id2));
    const gone = await s.ok(["refresh", "--yes"]);
    expect(gone.stdout).toMatch(/bridgetest:index:ObjectResource\s+obj\s+deleted/);
    expect(await s.resource("obj")).toBeUndefined();
    await s.up();
    const id3 = (await s.outputs())["id"] as string;
    expect(objectIds(stateDir)).toEqual([id3]);

    // Import an object made outside Pulumi (a file with a state of its own); the generated code uses it unchanged.
    const outside = readObject(stateDir, id3);
    outside.state = { ...outside.state, id: "made-outside", name: "outsider", list_value: ["p", "q"], secret: "outside-secret", revision: 5 };
    writeFileSync(objectFile(stateDir, "made-outside"), JSON.stringify(outside));
    const gen = join(s.dir, "imported.yaml");
    await s.ok(["import", "bridgetest:index/objectResource:ObjectResource", "adopted", "made-outside", "--yes", "--protect=false", "--out", gen]);
    const adopted = await s.resource("adopted");
    expect(adopted?.id).toBe("made-outside");
    expect(adopted?.inputs).toMatchObject({ name: "outsider", listValues: ["p", "q"] });
    expect(isSecretEnvelope(adopted?.inputs?.["secret"])).toBe(true);
    expect(adopted?.outputs?.["revision"]).toBe(5);
    // ImportState stores private state; Read checks it is passed back.
    expect(Buffer.from(JSON.parse(adopted?.outputs?.["__meta"] as string).private_state, "base64").toString()).toMatch(/created_by/);
    const code = readFileSync(gen, "utf8");
    expect(code).toMatch(/name: outsider/);
    s.program(objectProgram(v3, importedResources(code)));
    await s.ok(["preview", "--expect-no-changes"]);
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);

    await s.ok(["destroy", "--yes"]);
    expect(objectIds(stateDir)).toEqual([]);
    expect(await s.resourceNames()).toEqual([]);
  }, 300_000);
});

describe("bridgetest providers and config (YAML)", () => {
  it("an explicit provider resource and the default provider from stack config, with secret tokens; ignoreChanges", async () => {
    const explicitDir = scratch("tfbridge-bt-explicit-");
    const configDir = scratch("tfbridge-bt-config-");
    const s = await YamlScenario.create(sandbox, "lc-bt-providers", ["bridgetest"]);
    await s.ok(["config", "set", "bridgetest:stateDir", configDir]);
    await s.ok(["config", "set", "--secret", "bridgetest:apiToken", "config-token-value"]);
    const program = (o: { bool: boolean; int: number }): string =>
      [
        "resources:",
        "  prov:",
        "    type: pulumi:providers:bridgetest",
        "    properties:",
        `      stateDir: ${explicitDir}`,
        "      apiToken:",
        "        fn::secret: explicit-token-value",
        "  viaExplicit:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: explicit",
        "    options:",
        "      provider: ${prov}",
        "  viaDefault:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: default",
        `      boolValue: ${o.bool}`,
        `      intValue: ${o.int}`,
        "    options:",
        "      ignoreChanges: [boolValue]",
      ].join("\n");
    s.program(program({ bool: true, int: 1 }));
    await s.up();

    const explicit = await s.resource("viaExplicit");
    const viaDefault = await s.resource("viaDefault");
    expect(objectIds(explicitDir)).toEqual([explicit?.id]);
    expect(objectIds(configDir)).toEqual([viaDefault?.id]);
    // Provider secrets stay secret in state, whether they came from the program or from stack config.
    const text = await s.exportText();
    expect(text).not.toContain("explicit-token-value");
    expect(text).not.toContain("config-token-value");
    const prov = await s.resource("prov");
    expect(isSecretEnvelope(prov?.inputs?.["apiToken"])).toBe(true);
    expect(prov?.inputs?.["stateDir"]).toBe(explicitDir);
    await s.ok(["preview", "--expect-no-changes"]);

    // boolValue is in ignoreChanges: changing it alone is no change; changing intValue updates only that.
    s.program(program({ bool: false, int: 1 }));
    await s.ok(["preview", "--expect-no-changes"]);
    s.program(program({ bool: false, int: 2 }));
    const step = YamlScenario.step(await s.preview(), "viaDefault");
    expect(step?.op).toBe("update");
    expect(step?.detailedDiff).toEqual({ intValue: { kind: "update", inputDiff: false } });
    await s.up();
    expect(readObject(configDir, viaDefault!.id!).state).toMatchObject({ bool_value: true, int_value: 2 });

    await s.ok(["destroy", "--yes"]);
    expect(objectIds(explicitDir)).toEqual([]);
    expect(objectIds(configDir)).toEqual([]);
  }, 300_000);
});

describe("secrets inside values (YAML)", () => {
  it("a secret nested in a map or a block stays secret in the outputs, not only at the top level", async () => {
    const stateDir = scratch("tfbridge-bt-nested-");
    const s = await YamlScenario.create(sandbox, "lc-bt-nested", ["bridgetest"], { BRIDGETEST_STATE_DIR: stateDir });
    s.program(
      [
        "resources:",
        "  sec:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: sec",
        "      mapValue:",
        "        open: visible",
        "        hidden:",
        "          fn::secret: nested-map-secret",
        "      listBlocks:",
        "        - key: k",
        "          value:",
        "            fn::secret: nested-block-secret",
        "outputs:",
        "  map: ${sec.mapValue}",
      ].join("\n"),
    );
    await s.up();
    const text = await s.exportText();
    expect(text).not.toContain("nested-map-secret");
    expect(text).not.toContain("nested-block-secret");
    const res = await s.resource("sec");
    const map = res?.outputs?.["mapValue"] as Record<string, unknown>;
    expect(map["open"]).toBe("visible");
    expect(isSecretEnvelope(map["hidden"])).toBe(true);
    expect(isSecretEnvelope((res?.outputs?.["listBlocks"] as Record<string, unknown>[])[0]!["value"])).toBe(true);
    const shown = (await s.outputs())["map"] as Record<string, unknown>;
    expect(shown["open"]).toBe("visible");
    expect(JSON.stringify(shown)).not.toContain("nested-map-secret");
    // A refresh keeps them secret.
    await s.ok(["refresh", "--yes", "--expect-no-changes"]);
    expect(await s.exportText()).not.toContain("nested-map-secret");
    await s.ok(["destroy", "--yes"]);
    expect(objectIds(stateDir)).toEqual([]);
  }, 300_000);
});

describe("bad input (YAML)", () => {
  it("wrong types, missing required and unknown properties fail the preview with the property named, without a crash", async () => {
    const stateDir = scratch("tfbridge-bt-bad-");
    const s = await YamlScenario.create(sandbox, "lc-bt-bad", ["bridgetest", "random"], { BRIDGETEST_STATE_DIR: stateDir });
    const failing = async (program: string): Promise<string> => {
      s.program(program);
      const r = await s.pulumi(["preview"]);
      expect(r.code, r.stdout + r.stderr).not.toBe(0);
      const text = r.stdout + r.stderr;
      expect(text).not.toMatch(OUR_STACK);
      expect(text).not.toMatch(/exited prematurely|panic:/);
      return text;
    };
    const resource = (props: string[]): string =>
      ["resources:", "  bad:", "    type: bridgetest:index/objectResource:ObjectResource", "    properties:", ...props.map((p) => `      ${p}`)].join("\n");

    // Literal values are checked against our schema by Pulumi YAML before anything runs.
    expect(await failing(resource(["name: x", "numberValue: not-a-number"]))).toMatch(/numberValue: Cannot assign type 'string' to type 'number'/);
    expect(await failing(["resources:", "  bad:", "    type: random:index/password:Password", "    properties:", "      special: true"].join("\n"))).toMatch(
      /length: Missing required property 'length'/,
    );
    // A Terraform-required `name` is autonamed, as the reference does: leaving it out is no error.
    s.program(resource(["boolValue: true"]));
    const named = await s.pulumi(["preview"]);
    expect(named.code, named.stdout + named.stderr).toBe(0);
    expect(await failing(resource(["name: x", "bogus: 1"]))).toMatch(/Property bogus does not exist on 'bridgetest:index\/objectResource:ObjectResource'/);

    // Values YAML cannot type (a dynamic data source output) reach our Check, which names the property.
    const dynamic = [
      "variables:",
      "  echo:",
      "    fn::invoke:",
      "      function: bridgetest:index/getEcho:getEcho",
      "      arguments:",
      "        input: { word: abc }",
      resource(["name: x", "numberValue: ${echo.output.word}"]),
    ].join("\n");
    expect(await failing(dynamic)).toMatch(/property numberValue value .* has a problem: expected a number, got a string \("abc"\)/);
    // The provider's own validation, reported on the Pulumi property.
    expect(await failing(resource(["name: x", "max1Blocks:", "  - key: a", "  - key: b"]))).toMatch(
      /property max1Blocks value .* has a problem: .*must contain at most 1 elements, got: 2/,
    );
    expect(existsSync(stateDir) ? objectIds(stateDir) : []).toEqual([]);
  }, 300_000);
});
