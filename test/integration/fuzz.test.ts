// Seeded fuzzing (fast-check) of every input the plugin takes from outside: Parameterize args and value bytes through
// the real plugin process, property values of every shape through Check, Create preview, Diff and Invoke against a real
// provider (bridgetest), and Terraform CLI configuration files. The plugin never crashes or hangs (each call has a
// deadline, and the process must still answer afterwards), never reports an internal error, and says what was wrong.
// Bounded for CI; FUZZ_RUNS multiplies the counts and FUZZ_SEED picks another seed (both printed).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCliConfig } from "../../src/acquire/cliconfig.js";
import { ParameterizeError } from "../../src/acquire/errors.js";
import { parseValue } from "../../src/parameterize/value.js";
import { peerPath } from "../support/peers.js";
import { argsRequest, startPluginProcess, valueRequest, type CallError, type Msg, type PluginProcess } from "../support/pulumi.js";
import { SIG_KEY, SECRET_SIG, UNKNOWN, toStruct, type Json } from "../support/reference-ops.js";

const SCALE = Math.max(1, Number(process.env["FUZZ_RUNS"] ?? "1"));
const SEED = Number(process.env["FUZZ_SEED"] ?? "20261122");
const runs = (n: number): fc.Parameters<unknown> => ({ seed: SEED, numRuns: n * SCALE, endOnFailure: true });
console.log(`fuzz: seed ${SEED}, runs ×${SCALE}`);

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-fuzz-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** gRPC codes: 0 OK; 13 INTERNAL is what our server answers for a bug of ours (a TypeError and the like). */
const INTERNAL = 13;
const OUR_STACK = /(?:plugin|boot|snapshot)\.cjs:\d+|src\/\w+\/[\w-]+\.ts:\d+|\n\s+at /;

/** Calls and returns `{ok}` or `{code, details}`; a deadline turns a hang into a failure of the test. */
async function attempt(plugin: PluginProcess, method: string, request: Msg): Promise<{ ok: Msg } | { code: number; details: string }> {
  try {
    return { ok: await plugin.call(method, request, 20_000) };
  } catch (e) {
    const err = e as CallError;
    if (typeof (e as { code?: unknown }).code !== "number") throw e;
    return { code: err.code, details: err.details };
  }
}

/** The plugin's own failures must be answers: a status that is not INTERNAL, a message, no stack of ours. */
function expectAnswered(r: { ok: Msg } | { code: number; details: string }, what: string): void {
  if ("ok" in r) return;
  expect(r.code, `${what}: ${r.details}`).not.toBe(INTERNAL);
  expect(r.code, `${what}: a deadline means the plugin hung`).not.toBe(4);
  expect(r.details.trim(), what).not.toBe("");
  expect(r.details, what).not.toMatch(OUR_STACK);
}

async function expectAlive(plugin: PluginProcess): Promise<void> {
  expect(plugin.child.exitCode, plugin.stderr()).toBeNull();
  expect(await plugin.call("GetPluginInfo", {}, 10_000)).toHaveProperty("version");
}

// ---- Parameterize ----

const FLAGS = ["--include", "--exclude", "--provider-name", "--package-name", "--fullDocs", "--upstreamRepoPath", "--indexDocOutDir", "--help", "--bogus", "-x", "--", "--include=a", "--provider-name="];
const WORDS = [
  "random", "hashicorp/random", "a/b/c/d", "/", "//", "registry.opentofu.org/hashicorp/random", "127.0.0.1:1/x/y",
  "~> 3.0", ">= 1.0, < 2.0", "= 3.6.3", "~>", ">=>", "v1.2.3", "1.2.3-beta+meta", "*", "./nope", "/nonexistent/terraform-provider-x",
  "../terraform-provider-", "terraform-provider-", "Upper/Case", "ünï/cödé", "a".repeat(300), "", " ", "\n", "random_id,random_pet",
];
const arbArg = fc.oneof(fc.constantFrom(...FLAGS), fc.constantFrom(...WORDS), fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 12 }));

const arbValueBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 80 }),
  fc.json().map((j) => Buffer.from(j)),
  fc
    .record(
      {
        local: fc.oneof(fc.constant(null), fc.record({ path: fc.oneof(fc.string(), fc.constant("/nonexistent/terraform-provider-x"), fc.integer()) }, { requiredKeys: [] })),
        remote: fc.oneof(fc.constant(null), fc.record({ url: fc.oneof(fc.constantFrom(...WORDS), fc.string()), version: fc.oneof(fc.constantFrom("3.7.2", "v3", "", "1.2.3-rc.1"), fc.string(), fc.integer()) }, { requiredKeys: [] })),
        includes: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.string(), fc.constant(null)),
        providerName: fc.oneof(fc.string(), fc.constant("Bad Name"), fc.integer()),
      },
      { requiredKeys: [] },
    )
    .map((o) => Buffer.from(JSON.stringify(o))),
);

describe("Parameterize on hostile input", () => {
  let plugin: PluginProcess;
  beforeAll(async () => {
    // Registry lookups go to an empty filesystem mirror only: an address that parses fails at once, with no network.
    const mirror = join(scratch, "mirror");
    mkdirSync(mirror, { recursive: true });
    const rc = join(scratch, "fuzz.tfrc");
    writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
    plugin = await startPluginProcess({
      env: { ...process.env, TF_CLI_CONFIG_FILE: rc, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: join(scratch, "cache"), HOME: scratch },
    });
  }, 60_000);
  afterAll(async () => plugin?.stop());

  it("args: every answer is a refusal that says what was wrong (no internal error, no hang), and the plugin lives", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbArg, { maxLength: 6 }), async (args) => {
        const r = await attempt(plugin, "Parameterize", argsRequest(...args));
        expectAnswered(r, `Parameterize ${JSON.stringify(args)}`);
        // Nothing here names a real provider binary, so nothing can succeed.
        expect("ok" in r, JSON.stringify(args)).toBe(false);
      }),
      runs(150),
    );
    await expectAlive(plugin);
  }, 300_000);

  it("value bytes: refused with the part of the value that is wrong, through the plugin and in parseValue", async () => {
    await fc.assert(
      fc.asyncProperty(arbValueBytes, async (bytes) => {
        let parsed = true;
        try {
          parseValue(bytes);
        } catch (e) {
          parsed = false;
          expect(e, Buffer.from(bytes).toString()).toBeInstanceOf(ParameterizeError);
          expect((e as Error).message).toMatch(/^invalid parameter value: /);
        }
        const r = await attempt(plugin, "Parameterize", valueRequest(bytes, "x", "0.0.0"));
        expectAnswered(r, `Parameterize value ${Buffer.from(bytes).toString()}`);
        if (!parsed && !("ok" in r)) expect(r.details).toMatch(/invalid parameter value: /);
      }),
      runs(150),
    );
    await expectAlive(plugin);
  }, 300_000);
});

// ---- Property values into a real provider ----

const OBJECT = "bridgetest:index/objectResource:ObjectResource";
const URN = `urn:pulumi:dev::fuzz::${OBJECT}::obj`;
const KEYS = [
  "name", "boolValue", "numberValue", "intValue", "listValues", "setValues", "mapValue", "objectValue", "singleNested",
  "listNesteds", "setNesteds", "mapNested", "dynamicValue", "secret", "withDefault", "optionalComputed", "revision",
  "listBlocks", "setBlocks", "singleBlock", "max1Block", "writeOnlySecret", "id", "__meta", "__defaults", "", "bogus", "a.b",
];
const EDGE_NUMBERS = [0, -0, 1, -1, 0.1, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 9007199254740993, 1 / 3];

const arbLeaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constant(UNKNOWN),
);

/** Any property value: plain data, secrets, output values, references, assets and malformed special objects, nested. */
const { value: arbValue } = fc.letrec<{ value: Json; special: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    arbLeaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), tie("value"), { maxKeys: 4 }),
    tie("special"),
  ),
  special: fc.oneof(
    tie("value").map((v) => ({ [SIG_KEY]: SECRET_SIG, value: v })),
    fc.record({ value: tie("value"), secret: fc.boolean(), dependencies: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }) }, { requiredKeys: [] }).map((o) => ({ [SIG_KEY]: "d0e6a833031e9bbcd3f4e8bde6ca49a4", ...o })),
    fc.record({ urn: fc.string(), id: tie("value"), packageVersion: fc.string({ maxLength: 5 }) }, { requiredKeys: [] }).map((o) => ({ [SIG_KEY]: "5cf8f73096256a8f31e491e813e4eb8e", ...o })),
    fc.record({ path: fc.string(), text: fc.string(), hash: fc.string() }, { requiredKeys: [] }).map((o) => ({ [SIG_KEY]: "c44067f5952c0a294b673a41bacd8c17", ...o })),
    // Malformed: an unknown signature, a signature that is not a string, a secret without its value.
    fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(SECRET_SIG)).map((sig) => ({ [SIG_KEY]: sig } as Json)),
  ),
}));

/** Nesting far deeper than any schema, either side of the 512 levels the plugin accepts: answered, never overflowed. */
const arbDeep: fc.Arbitrary<Json> = fc.tuple(fc.integer({ min: 30, max: 700 }), fc.boolean()).map(([depth, lists]) => {
  let v: Json = "bottom";
  for (let i = 0; i < depth; i++) v = lists ? [v] : { singleNested: v };
  return v;
});

const arbNews: fc.Arbitrary<{ [k: string]: Json }> = fc.oneof(
  fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(arbValue, arbDeep), { maxKeys: 8 }),
  // Mostly well-formed: the real shapes with one value swapped for anything.
  fc.record({ name: fc.oneof(fc.constant("fuzzed"), arbValue), listValues: fc.array(arbLeaf, { maxLength: 3 }), singleNested: fc.record({ key: arbLeaf, value: arbValue }, { requiredKeys: [] }), listBlocks: fc.array(fc.record({ key: arbLeaf, value: arbLeaf }, { requiredKeys: [] }), { maxLength: 2 }), mapValue: fc.dictionary(fc.string({ maxLength: 4 }), arbValue, { maxKeys: 3 }) }, { requiredKeys: ["name"] }),
);

describe("property values of every shape against a real provider", () => {
  let plugin: PluginProcess;
  beforeAll(async () => {
    plugin = await startPluginProcess({ env: { ...process.env, BRIDGETEST_STATE_DIR: join(scratch, "objects") } });
    await plugin.call("Parameterize", argsRequest(peerPath("bridgetest")));
    await plugin.call("Configure", { args: toStruct({}), acceptSecrets: true, acceptResources: true });
  }, 60_000);
  afterAll(async () => plugin?.stop());

  it("Check, then Create preview and Diff of what Check accepted, and Invoke of the echo data source: answered, never an internal error", async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(arbNews, async (news) => {
        const what = JSON.stringify(news).slice(0, 400);
        const checked = await attempt(plugin, "Check", { urn: URN, type: OBJECT, name: "obj", olds: toStruct({}), news: toStruct(news), randomSeed: Buffer.alloc(32, 7) });
        expectAnswered(checked, `Check ${what}`);
        if (!("ok" in checked)) return void refused++;
        const failures = (checked.ok["failures"] as { property: string; reason: string }[] | undefined) ?? [];
        for (const f of failures) expect(f.reason.trim(), what).not.toBe("");
        if (failures.length > 0) return void refused++;
        accepted++;
        const inputs = checked.ok["inputs"] as Msg;
        expectAnswered(await attempt(plugin, "Create", { urn: URN, type: OBJECT, name: "obj", properties: inputs, preview: true }), `Create preview ${what}`);
        expectAnswered(await attempt(plugin, "Diff", { urn: URN, type: OBJECT, name: "obj", id: "obj-0", olds: inputs, news: inputs, oldInputs: inputs }), `Diff ${what}`);
        expectAnswered(await attempt(plugin, "Invoke", { tok: "bridgetest:index/getEcho:getEcho", args: toStruct({ input: news }) }), `Invoke ${what}`);
      }),
      runs(120),
    );
    console.log(`fuzz: Check accepted ${accepted}, refused ${refused}`);
    // The generator reaches both sides of Check; a fuzzer that only ever hits refusals tests little.
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    await expectAlive(plugin);
  }, 600_000);
});

// ---- Terraform CLI configuration ----

const CONFIG = `plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"
credentials "app.terraform.io" {
  token = "abc"
}
provider_installation {
  filesystem_mirror {
    path    = "/usr/share/terraform/providers"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url = "https://mirror.example.com/"
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
`;

/** The configuration above with bytes cut, doubled, swapped or inserted. */
const arbConfig: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc
    .array(fc.tuple(fc.nat({ max: CONFIG.length }), fc.nat({ max: 20 }), fc.oneof(fc.constant(""), fc.constantFrom("{", "}", '"', "=", "\n", "[", "]", "#", "/*", "$", "provider_installation", "direct {", "*"), fc.string({ maxLength: 5 }))), { minLength: 1, maxLength: 4 })
    .map((edits) => edits.reduce((s, [at, cut, put]) => s.slice(0, at) + put + s.slice(at + cut), CONFIG)),
);

describe("Terraform CLI configuration files on hostile input", () => {
  it("parse, or fail naming the file, never with an internal error", async () => {
    await fc.assert(
      fc.asyncProperty(arbConfig, async (text) => {
        try {
          const parsed = await parseCliConfig(text, "/fuzz/terraform.rc", { HOME: "/home/u" });
          expect(parsed).toBeDefined();
        } catch (e) {
          expect(e, text).toBeInstanceOf(ParameterizeError);
          expect((e as Error).message, text).toContain("/fuzz/terraform.rc");
        }
      }),
      runs(300),
    );
  }, 300_000);
});
