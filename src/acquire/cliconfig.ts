// Terraform CLI configuration (`TF_CLI_CONFIG_FILE`, `~/.terraformrc`, `~/.terraform.d/*.tfrc[.json]`): provider
// installation methods, the plugin cache directory and credentials, parsed with @cdktf/hcl2json.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { comparisonHost } from "./credentials.js";
import { ParameterizeError } from "./errors.js";
import { scanHclBlocks } from "./hcl-blocks.js";
import { findJsonSyntaxError } from "./json-syntax.js";
import { redactUrl } from "./redact.js";
import type * as Hcl2JsonModule from "@cdktf/hcl2json";

/** `host/namespace/type` where any part may be `*` (and every part after a `*` is `*` too). */
export interface ProviderPattern {
  host: string;
  namespace: string;
  type: string;
}

interface MethodBase {
  include: ProviderPattern[];
  exclude: ProviderPattern[];
}

export type InstallationMethod =
  | (MethodBase & { kind: "direct" })
  | (MethodBase & { kind: "filesystem_mirror"; path: string })
  | (MethodBase & { kind: "network_mirror"; url: string });

export interface CliConfig {
  /** The files that were read, in order. */
  files: string[];
  /** `plugin_cache_dir` (or `TF_PLUGIN_CACHE_DIR`), with `$VAR`s expanded. */
  pluginCacheDir?: string;
  /** `credentials "<host>" { token = … }`, by comparison host. */
  credentials: Map<string, string>;
  /** The explicit `provider_installation` methods in file order; undefined when the configuration has none. */
  installation?: InstallationMethod[];
  /** Things the configuration asks for that we accept but don't do, for the user to see. */
  warnings: string[];
}

/** One file's settings before merging. */
export interface CliConfigFile {
  pluginCacheDir?: string;
  credentials: Map<string, string>;
  installation?: InstallationMethod[];
  warnings: string[];
}

function configError(file: string, message: string, cause?: unknown): ParameterizeError {
  return new ParameterizeError("failed-precondition", `Terraform CLI configuration ${file}: ${message}`, cause === undefined ? undefined : { cause });
}

// ---- Provider patterns ----

/**
 * Parses an include/exclude pattern. As with provider addresses, a missing host means `defaultHost`
 * (so `hashicorp/*` matches what a bare `hashicorp/random` resolves to).
 */
export function parseProviderPattern(given: string, defaultHost: string, file = "<config>"): ProviderPattern {
  const parts = given.trim().split("/");
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === "")) {
    throw configError(file, `invalid provider pattern "${given}": expected [hostname/]namespace/type, where any part may be *`);
  }
  if (parts.length === 2) parts.unshift(defaultHost);
  const [host, namespace, type] = parts as [string, string, string];
  let wild = false;
  for (const p of [host, namespace, type]) {
    if (p === "*") wild = true;
    else if (wild) throw configError(file, `invalid provider pattern "${given}": after a * every part must be * too`);
    else if (p.includes("*")) throw configError(file, `invalid provider pattern "${given}": * must stand for a whole part`);
  }
  const h = host === "*" ? "*" : comparisonHost(host);
  if (h === undefined) throw configError(file, `invalid provider pattern "${given}": "${host}" is not a host name`);
  return { host: h, namespace: namespace.toLowerCase(), type: type.toLowerCase() };
}

export function describeMethod(m: InstallationMethod): string {
  switch (m.kind) {
    case "direct":
      return "direct (the origin registry)";
    case "filesystem_mirror":
      return `filesystem mirror ${m.path}`;
    case "network_mirror":
      return `network mirror ${redactUrl(m.url)}`;
  }
}

// ---- Parsing one file ----

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** hcl2json writes every block as a list of bodies; JSON CLI configs may use a single object. */
function bodies(v: unknown): Json[] {
  if (Array.isArray(v)) return v.filter(isObject);
  return isObject(v) ? [v] : [];
}

/** `$VAR` and `${VAR}` expansion, as Terraform applies to plugin_cache_dir. */
export function expandEnv(s: string, env: NodeJS.ProcessEnv): string {
  return s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? "");
}

type Hcl2Json = typeof Hcl2JsonModule;
let hcl2json: Hcl2Json | undefined;

/**
 * Parses HCL to JSON. The parser is HashiCorp's own HCL (Go, compiled to WebAssembly, in @cdktf/hcl2json); it is
 * loaded on first use only, because most machines have no CLI configuration at all. The package is CommonJS and
 * stays outside the plugin bundle (it reads its .wasm from beside its code); require() finds it beside the bundle.
 */
async function hclToJson(filename: string, text: string): Promise<Json> {
  hcl2json ??= createRequire(import.meta.url)("@cdktf/hcl2json") as Hcl2Json;
  const parse = hcl2json.parse;
  return (await parse(filename, text)) as Json;
}

const METHOD_TYPES = ["filesystem_mirror", "network_mirror", "direct"] as const;

/** Parses one CLI configuration file's text (HCL, or JSON when the name ends in `.json`). */
export async function parseCliConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env, defaultHost = "registry.opentofu.org"): Promise<CliConfigFile> {
  const warnings: string[] = [];
  let json: Json;
  /** Method types of each provider_installation block in file order (HCL only). */
  let order: string[][] | undefined;
  if (file.endsWith(".json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the text around the error, which in credentials.tfrc.json is a token: say where
      // and what, quote nothing, and keep its error out of the cause too.
      const at = findJsonSyntaxError(text);
      throw configError(file, `not valid JSON${at === undefined ? "" : `: ${at.problem} at line ${at.line}, column ${at.column}`}; fix the file (or remove it)`);
    }
    if (!isObject(parsed)) throw configError(file, "not valid here: the file must hold a JSON object ({ … })");
    json = parsed;
  } else {
    const blocks = scanHclBlocks(text);
    order = blocks.filter((b) => b.type === "provider_installation").map((b) => b.children.map((c) => c.type));
    // Terraform's CLI config is HCL 1, where dev_overrides' quoted keys ("hashicorp/null" = "…") are legal; HCL 2
    // rejects them. We don't use dev_overrides, so they are blanked out (newlines kept, so error positions hold).
    let parseable = text;
    for (const pi of blocks.filter((b) => b.type === "provider_installation")) {
      for (const child of pi.children.filter((c) => c.type === "dev_overrides")) {
        parseable = parseable.slice(0, child.start) + parseable.slice(child.start, child.end).replace(/[^\n]/g, " ") + parseable.slice(child.end);
      }
    }
    try {
      json = await hclToJson(file, parseable);
    } catch (e) {
      throw configError(file, (e as Error).message.replace(/^parse config: /, ""), e);
    }
  }

  const out: CliConfigFile = { credentials: new Map(), warnings };
  const cacheDir = json["plugin_cache_dir"];
  if (typeof cacheDir === "string" && cacheDir !== "") out.pluginCacheDir = expandEnv(cacheDir, env);

  for (const [host, value] of Object.entries(isObject(json["credentials"]) ? json["credentials"] : {})) {
    const token = bodies(value)[0]?.["token"];
    const h = comparisonHost(host);
    if (h === undefined) throw configError(file, `credentials block for "${host}": not a host name`);
    if (typeof token !== "string" || token === "") throw configError(file, `credentials block for "${host}" needs a token`);
    if (!out.credentials.has(h)) out.credentials.set(h, token);
  }
  if (json["credentials_helper"] !== undefined) {
    warnings.push(`${file}: credentials_helper is not supported by terraform-provider; use TF_TOKEN_<host> variables or credentials blocks`);
  }

  const installs = bodies(json["provider_installation"]);
  if (installs.length > 1) throw configError(file, "only one provider_installation block is allowed");
  const install = installs[0];
  if (install !== undefined) {
    const pattern = (v: unknown, what: string): ProviderPattern[] => {
      if (v === undefined) return [];
      if (!Array.isArray(v) || v.some((p) => typeof p !== "string")) throw configError(file, `${what} must be a list of provider patterns`);
      return (v as string[]).map((p) => parseProviderPattern(p, defaultHost, file));
    };
    for (const key of Object.keys(install)) {
      if (key === "dev_overrides") continue;
      if (!(METHOD_TYPES as readonly string[]).includes(key)) {
        throw configError(file, `unknown provider installation method "${key}"; the methods are filesystem_mirror, network_mirror and direct`);
      }
    }
    if (install["dev_overrides"] !== undefined || order?.[0]?.includes("dev_overrides")) {
      warnings.push(`${file}: dev_overrides is ignored by terraform-provider; to use a development build, pass its path (./terraform-provider-NAME) instead of an address`);
    }
    const byType = new Map<string, Json[]>(METHOD_TYPES.map((t) => [t, bodies(install[t])]));
    // File order when the scan agrees with the parser about how many blocks of each type there are.
    const scanned = (order?.[0] ?? []).filter((t) => (METHOD_TYPES as readonly string[]).includes(t));
    const agrees = METHOD_TYPES.every((t) => scanned.filter((s) => s === t).length === byType.get(t)!.length);
    const sequence = agrees ? scanned : METHOD_TYPES.flatMap((t) => byType.get(t)!.map(() => t));
    const seen = new Map<string, number>();
    const methods: InstallationMethod[] = [];
    for (const type of sequence) {
      const k = seen.get(type) ?? 0;
      seen.set(type, k + 1);
      const body = byType.get(type)![k]!;
      const include = pattern(body["include"], `${type}.include`);
      const exclude = pattern(body["exclude"], `${type}.exclude`);
      if (type === "direct") methods.push({ kind: "direct", include, exclude });
      else if (type === "filesystem_mirror") {
        const path = body["path"];
        if (typeof path !== "string" || path === "") throw configError(file, "filesystem_mirror needs a path");
        methods.push({ kind: "filesystem_mirror", path, include, exclude });
      } else {
        const url = body["url"];
        if (typeof url !== "string" || url === "") throw configError(file, "network_mirror needs a url");
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch (e) {
          throw configError(file, `network_mirror url "${redactUrl(url)}" is not a URL`, e);
        }
        if (parsed.protocol !== "https:") throw configError(file, `network_mirror url "${redactUrl(url)}" must use https`);
        methods.push({ kind: "network_mirror", url: parsed.href.endsWith("/") ? parsed.href : parsed.href + "/", include, exclude });
      }
    }
    out.installation = methods;
  }
  return out;
}

// ---- Loading and merging ----

/** The main file: TF_CLI_CONFIG_FILE when set, else ~/.terraformrc. */
export function mainConfigFile(env: NodeJS.ProcessEnv, home: string): { path: string; explicit: boolean } {
  const given = env["TF_CLI_CONFIG_FILE"];
  if (given !== undefined && given !== "") return { path: given, explicit: true };
  return { path: join(home, ".terraformrc"), explicit: false };
}

/**
 * Reads the CLI configuration as Terraform does: the main file, then every `*.tfrc` and `*.tfrc.json` in
 * `~/.terraform.d` (where `terraform login` keeps credentials.tfrc.json). Earlier files win for credentials and
 * plugin_cache_dir; `TF_PLUGIN_CACHE_DIR` overrides plugin_cache_dir; only one provider_installation may exist.
 */
export async function loadCliConfig(env: NodeJS.ProcessEnv = process.env, home: string = env["HOME"] || homedir(), defaultHost?: string): Promise<CliConfig> {
  const config: CliConfig = { files: [], credentials: new Map(), warnings: [] };
  const candidates: string[] = [];
  const main = mainConfigFile(env, home);
  if (existsSync(main.path)) candidates.push(main.path);
  else if (main.explicit) config.warnings.push(`TF_CLI_CONFIG_FILE names ${main.path}, which does not exist; continuing without it`);
  const dir = join(home, ".terraform.d");
  try {
    for (const f of readdirSync(dir).sort()) {
      if ((f.endsWith(".tfrc") || f.endsWith(".tfrc.json")) && statSync(join(dir, f)).isFile()) candidates.push(join(dir, f));
    }
  } catch {
    // no ~/.terraform.d
  }
  let installationFile: string | undefined;
  for (const file of candidates) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw configError(file, `cannot be read: ${(e as Error).message}`, e);
    }
    const parsed = await parseCliConfig(text, file, env, defaultHost);
    config.files.push(file);
    config.warnings.push(...parsed.warnings);
    config.pluginCacheDir ??= parsed.pluginCacheDir;
    for (const [h, t] of parsed.credentials) if (!config.credentials.has(h)) config.credentials.set(h, t);
    if (parsed.installation !== undefined) {
      if (installationFile !== undefined) throw configError(file, `only one provider_installation block is allowed, and ${installationFile} has one too`);
      installationFile = file;
      config.installation = parsed.installation;
    }
  }
  const envCache = env["TF_PLUGIN_CACHE_DIR"];
  if (envCache !== undefined && envCache !== "") config.pluginCacheDir = envCache;
  return config;
}

/**
 * Terraform's implied local mirror directories on Unix-like systems (used when there is no provider_installation):
 * ~/.terraform.d/plugins, and terraform/plugins under the XDG data directories. Only those that exist.
 */
export function impliedMirrorDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const dataHome = env["XDG_DATA_HOME"] || join(home, ".local/share");
  const dataDirs = (env["XDG_DATA_DIRS"] || "/usr/local/share:/usr/share").split(":").filter((d) => d !== "");
  const dirs = [join(home, ".terraform.d/plugins"), ...[dataHome, ...dataDirs].map((d) => join(d, "terraform/plugins"))];
  return [...new Set(dirs)].filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  });
}

