// The on-disk cache of Terraform providers' schemas: a provider binary seen before answers Parameterize and GetSchema
// without being started, and is started only when an operation needs it.
//
// Terraform starts every provider and asks GetProviderSchema on every run; a provider that declares
// `get_provider_schema_optional` lets it skip the call for further instances within the run. The plugin is one process
// per Pulumi command, so the run-wide reuse Terraform gets is worth little here; what costs is the start itself (a
// Go binary, its handshake and its schema, hundreds of milliseconds to seconds for the largest). The cache keeps the
// decoded schema per binary and per build of this plugin, so that the second command of a project on the same provider
// pays nothing for it.
//
// What the key holds, and why: the binary's path as given and its file identity (device, inode, size, modification
// and change times: any reinstall or rebuild changes them), this plugin's build (its version and its own file, so a
// new build never reads an older build's decoding), and the environment the provider would inherit, but for what a
// shell or the engine changes from one command to the next (PWD, SHLVL, PULUMI_*…): a provider may read anything
// there (test providers serve the schema a variable names), so an entry serves only the environment it was made in, the
// same session's next commands. A checkout run from sources (not the packaged plugin) has no build file to key on, so
// it uses the cache only when TF_BRIDGE_SCHEMA_CACHE=1; TF_BRIDGE_SCHEMA_CACHE=0 turns it off.
//
// What it does not do: decide when the provider starts (lazy-provider.ts), or trust an entry it cannot read whole (an
// entry that does not parse, or whose stated key differs, is a miss and is written anew).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUNDLED, VERSION } from "../version.js";
import type { ProviderSchema } from "./types.js";

export const SCHEMA_CACHE_ENV = "TF_BRIDGE_SCHEMA_CACHE";

/** Bumped when the cached form changes in a way a build's identity would not show (it always shows in a bundle). */
const FORMAT = 1;

/**
 * Files kept (schemas, and the package schemas rendered from them: server/rendered-schema.ts): the oldest beyond this
 * are removed when one is written (a giant provider's are tens of MB).
 */
const MAX_ENTRIES = 32;

export interface CachedSchema {
  /** The protocol the provider's handshake chose: the bridge speaks it before the provider has started. */
  protocolVersion: 5 | 6;
  schema: ProviderSchema;
  /** A digest of the schema as cached, to tell a started provider's fresh answer from it. */
  fingerprint: string;
}

export interface SchemaCacheOptions {
  /** The cache's directory (the provider cache root's `schemas/`). */
  dir: string;
  env?: NodeJS.ProcessEnv;
}

function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** This plugin's build: undefined when it cannot be told apart from another build (a checkout run from sources). */
function buildIdentity(env: NodeJS.ProcessEnv): string | undefined {
  const files = [process.execPath, process.argv[1]].filter((f): f is string => f !== undefined && f !== "");
  const ids = files.map(fileIdentity);
  if (BUNDLED) return `${VERSION}|${ids.join("|")}`;
  return env[SCHEMA_CACHE_ENV] === "1" ? `checkout ${VERSION}|${ids.join("|")}` : undefined;
}

/** Whether the cache is on: TF_BRIDGE_SCHEMA_CACHE=0 turns it off; a checkout needs =1 (see the header). */
function schemaCacheEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env[SCHEMA_CACHE_ENV]?.trim();
  if (v === "0" || v === "false" || v === "off") return false;
  return buildIdentity(env) !== undefined;
}

/**
 * Variables that change from one command to the next in the same session and that no provider's schema reads: the
 * shell's own, and the engine's (PULUMI_*, which it sets per command).
 */
const VOLATILE = new Set(["PWD", "OLDPWD", "SHLVL", "_", "TERM", "COLUMNS", "LINES", "SSH_TTY", "TTY", "WINDOWID"]);
const volatile = (name: string): boolean => VOLATILE.has(name) || name.startsWith("PULUMI_");

/** The environment the provider inherits, sorted `NAME=value` lines (hashed into the key, never written). */
function environment(env: NodeJS.ProcessEnv): string {
  return Object.keys(env)
    .filter((k) => !volatile(k))
    .sort()
    .map((k) => `${k}=${env[k] ?? ""}`)
    .join("\n");
}

/** The entry's key for a binary, or undefined when the cache is off or the binary cannot be identified. */
export function schemaCacheKey(binary: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!schemaCacheEnabled(env)) return undefined;
  const path = resolve(binary);
  const id = fileIdentity(path);
  if (id === undefined) return undefined;
  return createHash("sha256")
    .update(`format ${FORMAT}\n${buildIdentity(env)}\n${path}\n${id}\n`)
    .update(environment(env))
    .digest("hex");
}

/** The schema's tables (Maps, which JSON lacks), written as entry lists; they are all at its top level. */
const TABLES = ["resources", "dataSources", "ephemeralResources", "actions", "listResources", "functions"] as const;

/** The schema as the cache writes it; its digest is the fingerprint. */
export function serializeSchema(schema: ProviderSchema): string {
  // Diagnostics are not kept: a schema with errors is never cached, and its warnings are read nowhere.
  const plain: Record<string, unknown> = { ...schema, diagnostics: [] };
  for (const t of TABLES) {
    const table = schema[t];
    if (table !== undefined) plain[t] = [...table.entries()];
  }
  return JSON.stringify(plain);
}

function parseSchema(text: string): ProviderSchema {
  // No reviver: called for every value, it would cost more than the parse itself on a giant provider's schema.
  const plain = JSON.parse(text) as Record<string, unknown>;
  for (const t of TABLES) {
    const entries = plain[t];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) throw new Error(`${t} is not a table`);
    plain[t] = new Map(entries as [string, unknown][]);
  }
  return plain as unknown as ProviderSchema;
}

export function schemaFingerprint(serialized: string): string {
  return createHash("sha256").update(serialized).digest("hex");
}

/** An entry's first line: what it is for. The schema follows on the second, as serializeSchema wrote it. */
interface Header {
  key: string;
  protocolVersion: 5 | 6;
}

/** The cached schema for the key, or undefined on a miss (no entry, or one that cannot be read whole). */
export function readCachedSchema(options: SchemaCacheOptions, key: string): CachedSchema | undefined {
  const text = readCacheFile(options, `${key}.json`);
  if (text === undefined) return undefined;
  try {
    const newline = text.indexOf("\n");
    if (newline < 0) return undefined;
    // Read as unknown: the file may be anything a crash or another program left.
    const header = JSON.parse(text.slice(0, newline)) as Partial<Record<keyof Header, unknown>>;
    const protocolVersion = header.protocolVersion;
    if (header.key !== key || (protocolVersion !== 5 && protocolVersion !== 6)) return undefined;
    const serialized = text.slice(newline + 1);
    return { protocolVersion, schema: parseSchema(serialized), fingerprint: schemaFingerprint(serialized) };
  } catch {
    return undefined;
  }
}

/**
 * Writes a file of the cache (to a temporary file renamed into place, so a reader never sees half of one) and trims
 * the cache to its newest files. A failure to write is not an error: the next start does the work again.
 */
export function writeCacheFile(options: SchemaCacheOptions, name: string, text: string): void {
  const target = join(options.dir, name);
  const temp = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(options.dir, { recursive: true });
    writeFileSync(temp, text);
    renameSync(temp, target);
    trim(options.dir);
  } catch {
    // Not an error (see above), but nothing half-written stays behind (a full disk stops writeFileSync part way).
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder to hold it: nothing was written.
    }
  }
}

export function cacheFileExists(options: SchemaCacheOptions, name: string): boolean {
  return existsSync(join(options.dir, name));
}

/** A file of the cache, or undefined when it is not there. */
export function readCacheFile(options: SchemaCacheOptions, name: string): string | undefined {
  try {
    return readFileSync(join(options.dir, name), "utf8");
  } catch {
    return undefined;
  }
}

/** Writes the schema's entry (see writeCacheFile: a failure leaves the next start to ask the provider again). */
export function writeCachedSchema(options: SchemaCacheOptions, key: string, protocolVersion: 5 | 6, schema: ProviderSchema): void {
  writeCacheFile(options, `${key}.json`, `${JSON.stringify({ key, protocolVersion } satisfies Header)}\n${serializeSchema(schema)}`);
}

/** Removes an entry found wrong (the provider answered otherwise once started), and what was made from it. */
export function dropCachedSchema(options: SchemaCacheOptions, key: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(options.dir).filter((f) => f.startsWith(key));
  } catch {
    // No cache left.
  }
  for (const f of names) {
    try {
      unlinkSync(join(options.dir, f));
    } catch {
      // Already gone.
    }
  }
}

function trim(dir: string): void {
  const entries = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of entries.slice(MAX_ENTRIES)) {
    try {
      unlinkSync(join(dir, f));
    } catch {
      // Another process trimmed it first.
    }
  }
}
