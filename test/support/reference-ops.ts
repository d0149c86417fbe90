// Differential operations against the reference bridge: two plugin processes (ours and Pulumi's Go bridge) get the
// same requests; responses are decoded into plain JSON trees (secrets and unknowns marked, protobuf noise dropped)
// and compared leaf by leaf. Used by test/integration/reference-ops.test.ts.
import { peerPath, referenceBin } from "./peers.js";
import { argsRequest, startPluginProcess, type CallError, type Msg, type PluginProcess } from "./pulumi.js";

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** How a secret and an unknown look in decoded trees: `{"<secret>": v}` and the string `<unknown>`. */
export const SECRET_MARK = "<secret>";
export const UNKNOWN_MARK = "<unknown>";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A property value for a request: plain JSON, `secret(v)` and `UNKNOWN` (the engine's unknown string). */
export const secret = (v: Json): Json => ({ [SIG_KEY]: SECRET_SIG, value: v });

/** Plain JSON → google.protobuf.Value in protobuf-js's object form. */
export function toValue(v: Json): Msg {
  if (v === null) return { nullValue: "NULL_VALUE" };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "string") return { stringValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(toValue) } };
  return { structValue: toStruct(v) };
}

export function toStruct(o: { [k: string]: Json }): Msg {
  const fields: Record<string, Msg> = {};
  for (const [k, v] of Object.entries(o)) fields[k] = toValue(v);
  return { fields };
}

/** google.protobuf.Value as decoded (oneofs on) → plain JSON with secrets and unknowns marked. */
export function fromValue(v: Msg | null | undefined): Json {
  if (v === null || v === undefined) return null;
  const kind = v["kind"] as string | undefined;
  switch (kind) {
    case "nullValue":
    case undefined:
      return null;
    case "boolValue":
      return v["boolValue"] as boolean;
    case "numberValue":
      return v["numberValue"] as number;
    case "stringValue": {
      const s = v["stringValue"] as string;
      return s === UNKNOWN ? UNKNOWN_MARK : s;
    }
    case "listValue":
      return (((v["listValue"] as Msg | null)?.["values"] as Msg[] | undefined) ?? []).map(fromValue);
    case "structValue": {
      const o = fromStruct(v["structValue"] as Msg | null);
      if (o !== null && typeof o === "object" && !Array.isArray(o) && o[SIG_KEY] === SECRET_SIG) return { [SECRET_MARK]: o["value"] ?? null };
      return o;
    }
    default:
      throw new Error(`unexpected google.protobuf.Value kind ${kind}`);
  }
}

export function fromStruct(s: Msg | null | undefined): Json {
  if (s === null || s === undefined) return null;
  const out: { [k: string]: Json } = {};
  const fields = (s["fields"] as Record<string, Msg> | undefined) ?? {};
  for (const k of Object.keys(fields).sort()) out[k] = fromValue(fields[k]);
  return out;
}

/** A decoded Struct as a request property map (secrets and unknowns back in their wire form). */
export function toWire(v: Json): Json {
  if (v === UNKNOWN_MARK) return UNKNOWN;
  if (Array.isArray(v)) return v.map(toWire);
  if (v !== null && typeof v === "object") {
    if (SECRET_MARK in v && Object.keys(v).length === 1) return secret(toWire(v[SECRET_MARK] ?? null));
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) out[k] = toWire(x);
    return out;
  }
  return v;
}

const STRUCT_FIELDS = new Set(["properties", "inputs", "news", "olds", "return", "args", "old_inputs", "old_outputs"]);

/**
 * A response as a JSON tree for comparison: Structs decoded, fields at their proto default dropped (protobuf cannot
 * tell them from absent), repeated fields of strings sorted where order carries no meaning.
 */
export function normalizeResponse(res: Msg): Json {
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(res).sort()) {
    const v = res[k];
    if (STRUCT_FIELDS.has(k)) {
      if (v === null || v === undefined) continue;
      out[k] = fromStruct(v as Msg);
      continue;
    }
    const j = plain(v);
    if (j === null || j === "" || j === false || j === 0 || (Array.isArray(j) && j.length === 0) || (typeof j === "object" && !Array.isArray(j) && Object.keys(j).length === 0))
      continue;
    out[k] = Array.isArray(j) && ["replaces", "stables", "diffs"].includes(k) ? [...j].sort() : j;
  }
  return out;
}

function plain(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return v.toString("base64");
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object") {
    const out: { [k: string]: Json } = {};
    for (const k of Object.keys(v).sort()) {
      const x = plain((v as Record<string, unknown>)[k]);
      // PropertyDiff and CheckFailure fields at their defaults are dropped as above.
      if (x === null || x === false || x === "") continue;
      out[k] = x;
    }
    return out;
  }
  return v as Json;
}

/** The result of one call: the normalized response, or the gRPC error code and message. */
export type Outcome = { ok: Json } | { error: { code: number; details: string } };

export async function outcome(plugin: PluginProcess, method: string, request: Msg): Promise<Outcome> {
  try {
    return { ok: normalizeResponse(await plugin.call(method, request)) };
  } catch (e) {
    const err = e as CallError;
    if (typeof (e as { code?: unknown }).code !== "number") throw e;
    return { error: { code: err.code, details: err.details } };
  }
}

/** One leaf-level difference between two trees; `(absent)` where one side has no value at that path. */
export interface Difference {
  path: string;
  ours: Json;
  reference: Json;
}

export const ABSENT = "(absent)";

const seg = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/** Differences at the first level where the trees diverge (a key only one side has is one difference). */
export function diffTrees(ours: Json | undefined, reference: Json | undefined, path = ""): Difference[] {
  if (ours === undefined || reference === undefined) {
    if (ours === reference) return [];
    return [{ path: path || "$", ours: ours === undefined ? ABSENT : ours, reference: reference === undefined ? ABSENT : reference }];
  }
  const isObj = (x: Json): x is { [k: string]: Json } => x !== null && typeof x === "object" && !Array.isArray(x);
  if (Array.isArray(ours) && Array.isArray(reference) && ours.length === reference.length) {
    return ours.flatMap((o, i) => diffTrees(o, reference[i], `${path}[${i}]`));
  }
  if (isObj(ours) && isObj(reference)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(reference)])].sort();
    return keys.flatMap((k) => diffTrees(ours[k], reference[k], path + seg(k)));
  }
  return JSON.stringify(ours) === JSON.stringify(reference) ? [] : [{ path: path || "$", ours, reference }];
}

/** Replaces the value at each dotted path (object keys only) with a placeholder, when present. */
export function mask(tree: Json, paths: readonly string[], placeholder = "<volatile>"): Json {
  const copy = JSON.parse(JSON.stringify(tree)) as Json;
  for (const p of paths) {
    const parts = p.split(".");
    let node: Json = copy;
    for (let i = 0; i < parts.length - 1 && node !== null && typeof node === "object" && !Array.isArray(node); i++) node = node[parts[i]!] ?? null;
    const last = parts[parts.length - 1]!;
    if (node !== null && typeof node === "object" && !Array.isArray(node) && last in node) {
      const v = node[last] ?? null;
      // A secret keeps its envelope so the masking does not hide whether the value is secret.
      node[last] = v !== null && typeof v === "object" && !Array.isArray(v) && SECRET_MARK in v ? { [SECRET_MARK]: placeholder } : v === UNKNOWN_MARK ? v : placeholder;
    }
  }
  return copy;
}

/** Both plugins, each parameterized with the same peer. */
export interface PluginPair {
  ours: PluginProcess;
  reference: PluginProcess;
  stop(): Promise<void>;
}

export async function startPair(peer: string, env?: NodeJS.ProcessEnv): Promise<PluginPair> {
  const [ours, reference] = await Promise.all([startPluginProcess({ env }), startPluginProcess({ bin: referenceBin(), env, reapChildren: true })]);
  const stop = async (): Promise<void> => void (await Promise.all([ours.stop(), reference.stop()]));
  try {
    await Promise.all([ours.call("Parameterize", argsRequest(peerPath(peer))), reference.call("Parameterize", argsRequest(peerPath(peer)))]);
  } catch (e) {
    await stop();
    throw e;
  }
  return { ours, reference, stop };
}
