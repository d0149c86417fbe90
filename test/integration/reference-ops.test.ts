// Differential operation test against the reference bridge (Pulumi's Go pulumi-terraform-provider v3.136.0): for every
// real peer, both plugins get the same requests as the engine sends them (CheckConfig, Configure, Check, Create preview
// and real, Diff without change / in-place / replacing, Update, Read as refresh and as import, Delete, Invoke of data
// sources and provider functions), and their responses must be equal except for the differences listed in
// test/interchange/operation-differences.json. An unlisted difference fails, and so does a listed one that no longer
// occurs.
//
// Each plugin creates its own object, so Create is compared after masking what the provider draws at random (a
// random_string's result and id, an object's id). Every later call runs on the REFERENCE's created state, sent to both
// plugins: Diff, Update, Read and Delete see byte-identical prior state, so any difference is the bridge's, and ours
// is shown to take over state the reference wrote (a stack migrating from it). Side-effecting calls go to the
// reference first, then to ours, on the same object.
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/peers.js";
import type { Msg } from "../support/pulumi.js";
import {
  diffTrees,
  mask,
  outcome,
  startPair,
  toStruct,
  toWire,
  type Difference,
  type Json,
  type Outcome,
  type PluginPair,
} from "../support/reference-ops.js";

type Props = { [k: string]: Json };

interface Listed {
  peers: string[];
  method: string;
  /** The cases (see Observed.case) in which the difference occurs; it must occur in each of them, for every listed peer that runs it. */
  cases: string[];
  path: string;
  ours: Json;
  reference: Json;
  reason: string;
}

/** Systematic differences, applied to both responses before they are compared; the ids are implemented in reconcile(). */
const NORMALIZATIONS = ["ours-null-reference-absent", "reference-raw-state-delta", "meta-as-json", "meta-type"] as const;
type NormalizationId = (typeof NORMALIZATIONS)[number];

const fixture = JSON.parse(readFileSync(join(repoRoot, "test/interchange/operation-differences.json"), "utf8")) as {
  normalizations: { id: NormalizationId; reason: string }[];
  differences: Listed[];
};
const listed = fixture.differences;
const enabled = new Set<string>(fixture.normalizations.map((n) => n.id));

interface Observed extends Difference {
  method: string;
  /** `<resource or function> <step>`, e.g. `random_string diff-replace`. */
  case: string;
}

interface ResourceCase {
  /** Terraform type name, for case labels. */
  tf: string;
  token: { ours: string; reference: string };
  inputs: Props;
  /** Invalid inputs: a wrong type, an unknown property. */
  invalid: Props[];
  /** Inputs that change the object in place (Diff says update; Update is called with them). */
  update?: Props;
  /** Inputs that replace the object (compared with the updated inputs when there is an update). */
  replace?: Props;
  /** Output properties that differ between two creates by nature (drawn at random, the clock); masked in Create. */
  volatile?: string[];
  /** The id `pulumi import` would be given, from the created state; absent when the resource cannot be imported. */
  importId?: (id: string, state: Props) => string;
}

interface InvokeCase {
  label: string;
  tok: string;
  args: Props;
  /** Paths of the return that are volatile (masked in both). */
  volatile?: string[];
}

interface PeerCase {
  peer: string;
  config: Props;
  resources: ResourceCase[];
  invokes: InvokeCase[];
}

const same = (token: string): { ours: string; reference: string } => ({ ours: token, reference: token });

/** Runs one peer's request sequence on both plugins and returns every difference between their responses. */
interface PeerRun {
  observed: Observed[];
  /** Every case label this peer ran. */
  ran: Set<string>;
  /** Normalizations that changed a comparison. */
  fired: Set<NormalizationId>;
  requests: number;
  leaves: number;
}

async function runPeer(pc: PeerCase, scrub: (j: Json) => Json): Promise<PeerRun> {
  const pair: PluginPair = await startPair(pc.peer);
  const run: PeerRun = { observed: [], ran: new Set(), fired: new Set(), requests: 0, leaves: 0 };
  const record = (method: string, label: string, o: Outcome, r: Outcome, volatile: string[] = []): void => {
    run.requests++;
    run.ran.add(label);
    const mo = scrub(maskOutcome(o, volatile));
    const mr = scrub(maskOutcome(r, volatile));
    reconcile(mo, mr, run.fired);
    run.leaves += countLeaves(mr);
    for (const d of diffTrees(mo, mr)) run.observed.push({ method, case: label, ...d });
  };
  /** Sends the request to the reference, then to ours; records the difference; returns the reference's outcome. */
  const both = async (method: string, label: string, req: (side: "ours" | "reference") => Msg, volatile?: string[]): Promise<{ o: Outcome; r: Outcome }> => {
    const r = await outcome(pair.reference, method, req("reference"));
    const o = await outcome(pair.ours, method, req("ours"));
    record(method, label, o, r, volatile);
    return { o, r };
  };
  const ok = (x: Outcome, what: string): Props => {
    if (!("ok" in x)) throw new Error(`${what} failed on the reference: ${JSON.stringify(x.error)}`);
    return x.ok as Props;
  };
  try {
    const providerType = `pulumi:providers:${pc.peer}`;
    const providerUrn = `urn:pulumi:dev::proj::${providerType}::default`;
    await both("CheckConfig", "provider check-config", () => ({ urn: providerUrn, name: "default", type: providerType, olds: toStruct({}), news: toStruct(pc.config) }));
    await both("Configure", "provider configure", () => ({
      args: toStruct(pc.config), acceptSecrets: true, acceptResources: true, sends_old_inputs: true, sends_old_inputs_to_delete: true,
      urn: providerUrn, name: "default", type: providerType, id: "00000000-0000-0000-0000-000000000000",
    }));

    // Invokes first: bridgetest's echo lists the objects in its state directory, which is empty now.
    for (const inv of pc.invokes) {
      await both("Invoke", `${inv.label} invoke`, () => ({ tok: inv.tok, args: toStruct(inv.args) }), inv.volatile);
    }

    for (const rc of pc.resources) {
      const tok = (side: "ours" | "reference"): string => rc.token[side];
      const urn = (side: "ours" | "reference"): string => `urn:pulumi:dev::proj::${tok(side)}::r`;
      const base = (side: "ours" | "reference"): Msg => ({ urn: urn(side), name: "r", type: tok(side) });
      const seed = Buffer.alloc(32, 7);
      const check = (label: string, olds: Props, news: Props) =>
        both("Check", `${rc.tf} ${label}`, (s) => ({ ...base(s), olds: toStruct(olds), news: toStruct(news), randomSeed: seed }));

      let inputs = ok((await check("check", {}, rc.inputs)).r, "Check")["inputs"] as Props;
      for (const [i, bad] of rc.invalid.entries()) await check(`check-invalid-${i + 1}`, {}, bad);

      await both("Create", `${rc.tf} create-preview`, (s) => ({ ...base(s), properties: toStruct(toWire(inputs) as Props), preview: true, timeout: 300 }));
      const created = ok((await both("Create", `${rc.tf} create`, (s) => ({ ...base(s), properties: toStruct(toWire(inputs) as Props), timeout: 300 }), ["id", ...(rc.volatile ?? []).map((p) => `properties.${p}`)])).r, "Create");
      const id = created["id"] as string;
      let state = created["properties"] as Props;
      const stateWire = (): Msg => toStruct(toWire(state) as Props);

      const diff = (label: string, news: Props) =>
        both("Diff", `${rc.tf} ${label}`, (s) => ({ ...base(s), id, olds: stateWire(), news: toStruct(toWire(news) as Props), old_inputs: toStruct(toWire(inputs) as Props) }));
      await diff("diff-no-change", inputs);
      if (rc.update !== undefined) {
        const checked = ok((await check("check-update", inputs, rc.update)).r, "Check")["inputs"] as Props;
        await diff("diff-update", checked);
        await both("Update", `${rc.tf} update-preview`, (s) => ({ ...base(s), id, olds: stateWire(), news: toStruct(toWire(checked) as Props), old_inputs: toStruct(toWire(inputs) as Props), preview: true, timeout: 300 }));
        const updated = await both("Update", `${rc.tf} update`, (s) => ({ ...base(s), id, olds: stateWire(), news: toStruct(toWire(checked) as Props), old_inputs: toStruct(toWire(inputs) as Props), timeout: 300 }));
        state = ok(updated.r, "Update")["properties"] as Props;
        inputs = checked;
      }
      if (rc.replace !== undefined) {
        const checked = ok((await check("check-replace", inputs, rc.replace)).r, "Check")["inputs"] as Props;
        await diff("diff-replace", checked);
      }
      await both("Read", `${rc.tf} read`, (s) => ({ ...base(s), id, properties: stateWire(), inputs: toStruct(toWire(inputs) as Props) }));
      if (rc.importId !== undefined) {
        const importId = rc.importId(id, state);
        await both("Read", `${rc.tf} import`, (s) => ({ ...base(s), id: importId, properties: toStruct({}), inputs: toStruct({}) }));
      }
      await both("Delete", `${rc.tf} delete`, (s) => ({ ...base(s), id, properties: stateWire(), old_inputs: toStruct(toWire(inputs) as Props), timeout: 300 }));
    }
  } finally {
    await pair.stop();
  }
  return run;
}

const isObject = (x: Json | undefined): x is { [k: string]: Json } => x !== null && x !== undefined && typeof x === "object" && !Array.isArray(x);

/**
 * Applies the listed normalizations to both trees in place, walking them side by side:
 * - ours-null-reference-absent: a property ours has as null and the reference leaves out is dropped from ours;
 * - reference-raw-state-delta: the reference's `__pulumi_raw_state_delta` output is dropped when ours has none;
 * - meta-as-json: `__meta` strings are compared as the JSON they hold (key order is not a difference);
 * - meta-type: the Terraform type ours keeps in `__meta` (`type`) is dropped where the reference's `__meta` has none or is absent.
 */
function reconcile(o: Json, r: Json, fired: Set<NormalizationId>): void {
  if (Array.isArray(o) && Array.isArray(r) && o.length === r.length) {
    o.forEach((x, i) => reconcile(x, r[i]!, fired));
    return;
  }
  if (!isObject(o) || !isObject(r)) return;
  for (const k of [...new Set([...Object.keys(o), ...Object.keys(r)])]) {
    if (k === "__pulumi_raw_state_delta" && enabled.has("reference-raw-state-delta") && k in r && !(k in o)) {
      delete r[k];
      fired.add("reference-raw-state-delta");
      continue;
    }
    if (k === "__meta" && enabled.has("meta-as-json")) {
      const parse = (x: { [k: string]: Json }): void => {
        if (typeof x[k] === "string") x[k] = JSON.parse(x[k] as string) as Json;
      };
      const [so, sr] = [o[k], r[k]];
      parse(o);
      parse(r);
      const [mo, mr] = [o[k], r[k]];
      if (enabled.has("meta-type") && isObject(mo) && "type" in mo && !(isObject(mr) && "type" in mr)) {
        delete mo["type"];
        fired.add("meta-type");
      }
      if (typeof so === "string" && typeof sr === "string" && so !== sr && JSON.stringify(sortKeys(o[k]!)) === JSON.stringify(sortKeys(r[k]!))) {
        o[k] = sortKeys(o[k]!);
        r[k] = sortKeys(r[k]!);
        fired.add("meta-as-json");
      }
      continue;
    }
    if (enabled.has("ours-null-reference-absent") && k in o && o[k] === null && !(k in r)) {
      delete o[k];
      fired.add("ours-null-reference-absent");
      continue;
    }
    if (k in o && k in r) reconcile(o[k]!, r[k]!, fired);
  }
}

function sortKeys(j: Json): Json {
  if (Array.isArray(j)) return j.map(sortKeys);
  if (isObject(j)) return Object.fromEntries(Object.keys(j).sort().map((k) => [k, sortKeys(j[k]!)]));
  return j;
}

function maskOutcome(x: Outcome, paths: string[]): Json {
  return "ok" in x ? { ok: mask(x.ok, paths) } : { error: x.error };
}

function countLeaves(j: Json): number {
  if (Array.isArray(j)) return j.reduce<number>((n, x) => n + countLeaves(x), 0);
  if (j !== null && typeof j === "object") return Object.values(j).reduce<number>((n, x) => n + countLeaves(x), 0);
  return 1;
}

// ---- The peers ----

const RFC3339 = "2024-02-29T13:14:15Z";
const pem = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

function peerCases(ctx: { dir: string; httpUrl: string; stateDir: string }): PeerCase[] {
  return [
    {
      peer: "random",
      config: {},
      resources: [
        {
          tf: "random_string",
          token: same("random:index/string:String"),
          inputs: { length: 12, special: false, keepers: { k: "1" } },
          invalid: [{ length: "twelve" }, { length: 12, bogus: true }],
          replace: { length: 12, special: false, keepers: { k: "2" } },
          volatile: ["id", "result"],
          importId: (id) => id,
        },
        {
          tf: "random_integer",
          token: same("random:index/integer:Integer"),
          inputs: { min: 1, max: 1000, seed: "fixed" },
          invalid: [{ min: "one", max: 1000 }, { min: 1, max: 1000, color: "blue" }],
          replace: { min: 1, max: 1000, seed: "other" },
          importId: (_id, state) => `${String(state["result"])},1,1000,fixed`,
        },
      ],
      invokes: [],
    },
    {
      peer: "tls",
      config: {},
      resources: [
        {
          tf: "tls_private_key",
          token: same("tls:index/privateKey:PrivateKey"),
          inputs: { algorithm: "ECDSA", ecdsaCurve: "P256" },
          invalid: [{ algorithm: 7 }, { algorithm: "ECDSA", bits: 256 }],
          replace: { algorithm: "ECDSA", ecdsaCurve: "P384" },
          volatile: ["id", "privateKeyOpenssh", "privateKeyPem", "privateKeyPemPkcs8", "publicKeyFingerprintMd5", "publicKeyFingerprintSha256", "publicKeyOpenssh", "publicKeyPem"],
        },
      ],
      invokes: [{ label: "getPublicKey", tok: "tls:index/getPublicKey:getPublicKey", args: { privateKeyPem: pem } }],
    },
    {
      peer: "local",
      config: {},
      resources: [
        {
          tf: "local_file",
          token: same("local:index/file:File"),
          inputs: { filename: join(ctx.dir, "file.txt"), content: "first\n" },
          invalid: [{ filename: join(ctx.dir, "file.txt"), content: ["not", "a", "string"] }, { filename: join(ctx.dir, "file.txt"), content: "x", owner: "me" }],
          replace: { filename: join(ctx.dir, "file.txt"), content: "second\n" },
        },
      ],
      invokes: [
        { label: "getFile", tok: "local:index/getFile:getFile", args: { filename: join(ctx.dir, "input.txt") } },
        { label: "direxists", tok: "local:index/direxists:direxists", args: { path: ctx.dir } },
      ],
    },
    {
      peer: "time",
      config: {},
      resources: [
        {
          tf: "time_static",
          token: same("time:index/static:Static"),
          inputs: { rfc3339: RFC3339, triggers: { t: "1" } },
          invalid: [{ rfc3339: 20240229 }, { rfc3339: RFC3339, zone: "UTC" }],
          replace: { rfc3339: RFC3339, triggers: { t: "2" } },
          importId: () => RFC3339,
        },
        {
          tf: "time_offset",
          token: same("time:index/offset:Offset"),
          inputs: { baseRfc3339: RFC3339, offsetDays: 1 },
          invalid: [{ baseRfc3339: RFC3339, offsetDays: "one" }, { baseRfc3339: RFC3339, offsetDays: 1, offsetWeeks: 1 }],
          update: { baseRfc3339: RFC3339, offsetDays: 2 },
          replace: { baseRfc3339: RFC3339, offsetDays: 2, triggers: { t: "2" } },
        },
      ],
      invokes: [
        { label: "rfc3339Parse", tok: "time:index/rfc3339Parse:rfc3339Parse", args: { timestamp: RFC3339 } },
        { label: "durationParse", tok: "time:index/durationParse:durationParse", args: { duration: "1h30m" } },
      ],
    },
    {
      peer: "http",
      config: {},
      resources: [],
      invokes: [
        { label: "getHttp", tok: "http:index/getHttp:getHttp", args: { url: `${ctx.httpUrl}/hello`, requestHeaders: { Accept: "application/json" } } },
        { label: "getHttp-404", tok: "http:index/getHttp:getHttp", args: { url: `${ctx.httpUrl}/missing` } },
      ],
    },
    {
      peer: "bridgetest",
      config: { stateDir: ctx.stateDir, apiToken: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "tok" } },
      resources: [
        {
          tf: "bridgetest_object",
          // Each plugin's own token: ours renames the reference's `Object` (schema-differences.json, renamedTokens) and
          // is to accept the reference's token through its alias as well; until it does, each gets its own.
          token: { ours: "bridgetest:index/objectResource:ObjectResource", reference: "bridgetest:index/object:Object" },
          inputs: {
            name: "obj",
            numberValue: 1.5,
            intValue: 3,
            boolValue: true,
            listValues: ["a", "b"],
            mapValue: { k: "v" },
            objectValue: { a: "x", b: 2, c: false },
            singleNested: { key: "s" },
            listNesteds: [{ key: "l1", value: "v1" }],
            dynamicValue: { any: ["thing", 1] },
            secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "hush" },
            listBlocks: [{ key: "b1", subs: [{ note: "n" }] }],
            max1Blocks: [{ key: "m", value: "1" }],
          },
          invalid: [{ name: "obj", intValue: "three" }, { name: "obj", unknownThing: 1 }],
          update: { name: "obj", numberValue: 2.5, intValue: 3, boolValue: false, listValues: ["a", "c"], mapValue: { k: "w" } },
          replace: { name: "obj2", numberValue: 2.5, intValue: 3, boolValue: false, listValues: ["a", "c"], mapValue: { k: "w" } },
          volatile: ["id"],
          importId: (id) => id,
        },
      ],
      invokes: [
        { label: "getEcho", tok: "bridgetest:index/getEcho:getEcho", args: { input: { a: [1, "two", true] } } },
        { label: "reverse", tok: "bridgetest:index/reverse:reverse", args: { s: "héllo" } },
        { label: "join", tok: "bridgetest:index/join:join", args: { sep: "-", parts: ["a", "b", "c"] } },
      ],
    },
  ];
}

// ---- The test ----

let dir = "";
let server: Server | undefined;
let cases: PeerCase[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tfbridge-refops-"));
  writeFileSync(join(dir, "input.txt"), "read me\n");
  mkdirSync(join(dir, "state"));
  server = createServer((req, res) => {
    res.sendDate = false;
    if (req.url === "/hello") {
      res.writeHead(200, { "content-type": "application/json", "x-test": "yes" });
      res.end(JSON.stringify({ hello: "world", accept: req.headers["accept"] ?? null }));
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("nothing here");
    }
  });
  server.keepAliveTimeout = 0;
  const port = await new Promise<number>((resolve) => server!.listen(0, "127.0.0.1", () => resolve((server!.address() as { port: number }).port)));
  cases = peerCases({ dir, httpUrl: `http://127.0.0.1:${port}`, stateDir: join(dir, "state") });
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const PEERS = ["random", "tls", "local", "time", "http", "bridgetest"];

/**
 * This run's temporary directory, loopback port and test key vary; the listed differences name them as <dir>, <port>
 * and <test private key>.
 */
function scrubber(): (j: Json) => Json {
  const port = (server?.address() as { port: number } | null)?.port;
  const walk = (j: Json): Json => {
    if (typeof j === "string") {
      if (j === pem) return "<test private key>";
      let s = j.split(dir).join("<dir>");
      if (port !== undefined) s = s.split(`127.0.0.1:${port}`).join("127.0.0.1:<port>");
      return s;
    }
    if (Array.isArray(j)) return j.map(walk);
    if (j !== null && typeof j === "object") return Object.fromEntries(Object.entries(j).map(([k, v]) => [walk(k) as string, walk(v)]));
    return j;
  };
  return walk;
}

const runs = new Map<string, PeerRun>();

describe.each(PEERS)("operations on %s against the reference", (peer) => {
  it("answer every request as the reference does, except for the listed differences", async () => {
    const pc = cases.find((c) => c.peer === peer)!;
    const started = Date.now();
    const run = await runPeer(pc, scrubber());
    runs.set(peer, run);
    // REFOPS_DUMP=<dir> writes each peer's observed differences there, to review a change of the list.
    if (process.env["REFOPS_DUMP"]) writeFileSync(join(process.env["REFOPS_DUMP"], `${peer}.json`), JSON.stringify(run.observed, null, 2) + "\n");
    const expected = listed.filter((l) => l.peers.includes(peer));
    const unlisted = run.observed.filter((d) => !expected.some((l) => matches(l, d)));
    const stale = expected.flatMap((l) =>
      l.cases.filter((c) => run.ran.has(c) && !run.observed.some((d) => d.case === c && matches(l, d))).map((c) => ({ ...l, peers: [peer], cases: [c] })),
    );
    console.log(
      `${peer}: ${run.requests} request pairs, ${run.leaves} response fields compared, ${run.observed.length} differences, all listed: ${unlisted.length === 0}, ` +
        `normalized: ${[...run.fired].join(", ") || "nothing"} (${Date.now() - started} ms)`,
    );
    expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
    expect(run.requests).toBeGreaterThan(3);
  }, 120_000);
});

function matches(l: Listed, d: Observed): boolean {
  return l.method === d.method && l.cases.includes(d.case) && l.path === d.path && JSON.stringify(l.ours) === JSON.stringify(d.ours) && JSON.stringify(l.reference) === JSON.stringify(d.reference);
}

describe("the operation differences list", () => {
  it("names only peers, cases and normalizations that exist, each with a reason, and every normalization still applies", () => {
    for (const n of fixture.normalizations) {
      expect(NORMALIZATIONS).toContain(n.id);
      expect(n.reason.length).toBeGreaterThan(10);
    }
    for (const l of listed) {
      for (const p of l.peers) expect(PEERS).toContain(p);
      expect(l.reason.length).toBeGreaterThan(10);
      expect(l.cases.length).toBeGreaterThan(0);
    }
    // The rest needs every peer's run (a filtered run checks only the above).
    if (runs.size < PEERS.length) return;
    const fired = new Set([...runs.values()].flatMap((r) => [...r.fired]));
    expect(fixture.normalizations.map((n) => n.id).filter((id) => !fired.has(id))).toEqual([]);
    const neverRun = listed.flatMap((l) => l.cases.filter((c) => !l.peers.some((p) => runs.get(p)!.ran.has(c))).map((c) => `${l.method} ${c} ${l.path}`));
    expect(neverRun).toEqual([]);
  });
});
