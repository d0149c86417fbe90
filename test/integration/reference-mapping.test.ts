// Differential GetMapping test against the reference bridge: for every real peer, a filtered and renamed package, and
// the oracle corpus's 300-odd schema shapes (shapesdk, shapefw), both plugins answer GetMapping for `terraform`, `tf`
// and another key, with and without a provider hint, and GetMappings, and the mapping JSON must be equal after parsing.
// The one allowed difference is a resource token renamed in our schema (test/interchange/schema-differences.json),
// whose mapping names our token, as programs converted for our plugin must.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadShapes } from "../crosstest/corpus.js";
import { peerPath, pins, referenceBin, repoRoot } from "../support/peers.js";
import { argsRequest, startPluginProcess, tempDir, type Msg, type PluginProcess } from "../support/pulumi.js";

interface Rename {
  peer: string;
  reference: string;
  ours: string;
}
const renames = (JSON.parse(readFileSync(join(repoRoot, "test/interchange/schema-differences.json"), "utf8")) as { renamedTokens: Rename[] }).renamedTokens;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A GetMapping answer as a converter reads it: the provider name and the parsed data (null when empty), or the error. */
type Answer = { provider: string; data: Json; size: number } | { code: number; details: string };

async function getMapping(plugin: PluginProcess, key: string, provider = ""): Promise<Answer> {
  try {
    const r = (await plugin.call("GetMapping", { key, provider })) as { provider: string; data: Uint8Array };
    const text = Buffer.from(r.data).toString("utf8");
    return { provider: r.provider, data: text === "" ? null : (JSON.parse(text) as Json), size: text.length };
  } catch (e) {
    const err = e as { code?: unknown; details: string };
    if (typeof err.code !== "number") throw e;
    return { code: err.code, details: err.details };
  }
}

/** The reference's answer with the listed renamed tokens of this peer replaced by ours, and the renames it used. */
function withOurTokens(answer: Answer, peer: string): { answer: Answer; used: Set<string> } {
  const used = new Set<string>();
  if (!("data" in answer) || answer.data === null) return { answer, used };
  const data = structuredClone(answer.data) as { resources?: Record<string, { tok: string }> };
  for (const r of Object.values(data.resources ?? {})) {
    const rename = renames.find((x) => x.peer === peer && x.reference === r.tok);
    if (rename !== undefined) {
      r.tok = rename.ours;
      used.add(rename.reference);
    }
  }
  return { answer: { ...answer, data: data as Json }, used };
}

const sizeless = (a: Answer): unknown => ("size" in a ? { provider: a.provider, data: a.data } : a);

interface Case {
  title: string;
  peer: string;
  flags: string[];
  /** The oracle corpus flavour whose shapes the provider serves. */
  shapes?: "sdkv2" | "framework";
}

const cases: Case[] = [
  ...Object.keys(pins).map((peer): Case => ({ title: peer, peer, flags: [] })),
  { title: "random --include random_id,random_string --provider-name rnd", peer: "random", flags: ["--include", "random_id,random_string", "--provider-name", "rnd"] },
  { title: "tls --exclude tls_cert_request", peer: "tls", flags: ["--exclude", "tls_cert_request"] },
  { title: "shapesdk with the sdkv2 corpus", peer: "shapesdk", flags: [], shapes: "sdkv2" },
  { title: "shapefw with the framework corpus", peer: "shapefw", flags: [], shapes: "framework" },
];

describe.each(cases)("GetMapping of $title against the reference", ({ peer, flags, shapes }) => {
  let ours: PluginProcess;
  let reference: PluginProcess;
  let dir: string | undefined;

  beforeAll(async () => {
    let env: NodeJS.ProcessEnv | undefined;
    if (shapes !== undefined) {
      dir = tempDir("tfbridge-mapping-");
      const file = join(dir, "shapes.json");
      writeFileSync(file, JSON.stringify({ resources: loadShapes(shapes) }));
      env = { ...process.env, SHAPES_SCHEMA: file, SHAPES_STORE: join(dir, "store") };
    }
    [ours, reference] = await Promise.all([startPluginProcess({ env }), startPluginProcess({ bin: referenceBin(), env, reapChildren: true })]);
    const request: Msg = argsRequest(peerPath(peer), ...flags);
    await Promise.all([ours.call("Parameterize", request), reference.call("Parameterize", request)]);
  });

  afterAll(async () => {
    await Promise.all([ours.stop(), reference.stop()]);
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("answers `terraform` and `tf` with the reference's provider name and mapping, and another key with nothing", async () => {
    const used = new Set<string>();
    for (const key of ["terraform", "tf", "pulumi-converter-other"]) {
      const [o, r] = await Promise.all([getMapping(ours, key), getMapping(reference, key)]);
      const expected = withOurTokens(r, peer);
      for (const t of expected.used) used.add(t);
      expect(sizeless(o), `GetMapping ${key}`).toEqual(sizeless(expected.answer));
      if (key === "pulumi-converter-other") expect(o).toEqual({ provider: "", data: null, size: 0 });
      else expect("data" in o && o.data !== null, `GetMapping ${key} has a mapping`).toBe(true);
    }
    // A listed rename that no longer occurs is stale; filters may leave the renamed resource out.
    if (flags.length === 0) expect([...used].sort()).toEqual(renames.filter((r) => r.peer === peer).map((r) => r.reference).sort());
  });

  it("accepts a provider hint naming the mapped provider and fails one naming another, as the reference does", async () => {
    const mapped = await getMapping(reference, "terraform");
    expect("provider" in mapped && mapped.provider !== "").toBe(true);
    const name = (mapped as { provider: string }).provider;
    for (const [key, hint] of [["terraform", name], ["tf", name], ["terraform", `${name}-other`], ["pulumi-converter-other", "x"]] as const) {
      const [o, r] = await Promise.all([getMapping(ours, key, hint), getMapping(reference, key, hint)]);
      expect(sizeless(o), `GetMapping ${key} for ${hint}`).toEqual(sizeless(withOurTokens(r, peer).answer));
    }
  });

  it("lists the mapped provider under `terraform` and `tf` in GetMappings, nothing under another key", async () => {
    for (const key of ["terraform", "tf", "pulumi-converter-other"]) {
      const [o, r] = await Promise.all([ours.call("GetMappings", { key }), reference.call("GetMappings", { key })]);
      expect(o["providers"] ?? [], `GetMappings ${key}`).toEqual(r["providers"] ?? []);
    }
  });
});

describe("GetMapping before Parameterize", () => {
  it("is empty for every key; the reference describes an empty provider named after itself, which maps nothing", async () => {
    const [ours, reference] = await Promise.all([startPluginProcess(), startPluginProcess({ bin: referenceBin(), reapChildren: true })]);
    try {
      for (const key of ["terraform", "tf"]) {
        expect(await getMapping(ours, key)).toEqual({ provider: "", data: null, size: 0 });
        expect(await ours.call("GetMappings", { key })).toEqual({ providers: [] });
        const r = await getMapping(reference, key);
        expect(sizeless(r)).toMatchObject({ provider: "terraform-provider", data: { provider: {}, name: "terraform-provider" } });
      }
    } finally {
      await Promise.all([ours.stop(), reference.stop()]);
    }
  });
});
