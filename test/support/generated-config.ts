// Terraform 1.16.4's `plan -generate-config-out` run over imports, and its file read back (hclwrite-formatted literals, blocks, `jsonencode(…)`) into plain values without Terraform validating it, in the form our configuration values are compared in.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BigNum, Dynamic, isRecord, type CtyValue } from "../../src/terraform/cty/index.js";
import type { Block } from "../../src/terraform/types.js";
import { terraformBin } from "./peers.js";
import { spawnAsync } from "./processes.js";

/** A `jsonencode(…)` call: the value it encodes. */
export class JsonEncode {
  constructor(readonly value: unknown) {}
}

/** One generated resource: attributes as values, each block name as the list of its bodies (labels as `__labels`). */
export type Body = Record<string, unknown>;

type Token = { kind: "string"; value: string } | { kind: "number"; value: number } | { kind: "ident"; value: string } | { kind: "punct"; value: string } | { kind: "nl" };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "\n") {
      out.push({ kind: "nl" });
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === '"') {
      let s = "";
      i++;
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error("unterminated string in generated HCL");
        const ch = text[i]!;
        if (ch === "\\") {
          const e = text[i + 1]!;
          const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
          if (e in simple) {
            s += simple[e];
            i += 2;
          } else if (e === "u") {
            s += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
          } else if (e === "U") {
            s += String.fromCodePoint(parseInt(text.slice(i + 2, i + 10), 16));
            i += 10;
          } else throw new Error(`unknown escape \\${e} in generated HCL`);
        } else if ((ch === "$" || ch === "%") && text[i + 1] === ch && text[i + 2] === "{") {
          s += `${ch}{`;
          i += 3;
        } else {
          s += ch;
          i++;
        }
      }
      i++;
      out.push({ kind: "string", value: s });
    } else if (/[0-9-]/.test(c)) {
      const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i))!;
      out.push({ kind: "number", value: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i))!;
      out.push({ kind: "ident", value: m[0] });
      i += m[0].length;
    } else {
      out.push({ kind: "punct", value: c });
      i++;
    }
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly t: Token[]) {}

  private peek(): Token | undefined {
    return this.t[this.i];
  }
  private next(): Token {
    const tok = this.t[this.i++];
    if (tok === undefined) throw new Error("generated HCL ends early");
    return tok;
  }
  private skipNl(): void {
    while (this.peek()?.kind === "nl") this.i++;
  }
  private punct(p: string): void {
    const tok = this.next();
    if (tok.kind !== "punct" || tok.value !== p) throw new Error(`expected ${p} in generated HCL, got ${JSON.stringify(tok)}`);
  }
  private isPunct(p: string): boolean {
    const tok = this.peek();
    return tok?.kind === "punct" && tok.value === p;
  }

  /** Resources by `type.name`. */
  file(): Map<string, Body> {
    const out = new Map<string, Body>();
    for (this.skipNl(); this.peek() !== undefined; this.skipNl()) {
      const kw = this.next();
      const labels: string[] = [];
      while (this.peek()?.kind === "string") labels.push((this.next() as { value: string }).value);
      this.punct("{");
      const body = this.body();
      if (kw.kind === "ident" && kw.value === "resource") out.set(`${labels[0]}.${labels[1]}`, body);
    }
    return out;
  }

  private body(): Body {
    const out: Body = {};
    for (this.skipNl(); !this.isPunct("}"); this.skipNl()) {
      const name = this.next();
      if (name.kind !== "ident") throw new Error(`expected a name in generated HCL, got ${JSON.stringify(name)}`);
      if (this.isPunct("=")) {
        this.next();
        out[name.value] = this.expr();
        continue;
      }
      const labels: string[] = [];
      while (this.peek()?.kind === "string") labels.push((this.next() as { value: string }).value);
      this.punct("{");
      const block = this.body();
      if (labels.length > 0) block["__labels"] = labels;
      ((out[name.value] ??= []) as Body[]).push(block);
    }
    this.next();
    return out;
  }

  private expr(): unknown {
    const tok = this.next();
    switch (tok.kind) {
      case "string":
      case "number":
        return tok.value;
      case "ident":
        if (tok.value === "true") return true;
        if (tok.value === "false") return false;
        if (tok.value === "null") return null;
        if (tok.value === "jsonencode") {
          this.punct("(");
          this.skipNl();
          const v = this.expr();
          this.skipNl();
          this.punct(")");
          return new JsonEncode(v);
        }
        throw new Error(`unexpected ${tok.value} in generated HCL`);
      case "punct":
        if (tok.value === "[") return this.tuple();
        if (tok.value === "{") return this.object();
        throw new Error(`unexpected ${tok.value} in generated HCL`);
      default:
        throw new Error("unexpected line break in generated HCL");
    }
  }

  private tuple(): unknown[] {
    const out: unknown[] = [];
    for (this.skipNl(); !this.isPunct("]"); this.skipNl()) {
      out.push(this.expr());
      this.skipNl();
      if (this.isPunct(",")) this.next();
    }
    this.next();
    return out;
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (this.skipNl(); !this.isPunct("}"); this.skipNl()) {
      const k = this.next();
      if (k.kind !== "ident" && k.kind !== "string") throw new Error(`expected an object key in generated HCL, got ${JSON.stringify(k)}`);
      const sep = this.next();
      if (sep.kind !== "punct" || (sep.value !== "=" && sep.value !== ":")) throw new Error("expected = after an object key in generated HCL");
      out[String(k.value)] = this.expr();
      if (this.isPunct(",")) this.next();
    }
    this.next();
    return out;
  }
}

/** The resources of a generated configuration file, by `type.name`. */
export function parseGeneratedConfig(text: string): Map<string, Body> {
  return new Parser(tokenize(text)).file();
}

/** A configuration value as the generated file shows it: set attributes only, blocks as lists of bodies. */
export function asBody(block: Block, v: CtyValue): Body {
  const out: Body = {};
  if (!isRecord(v)) return out;
  for (const a of block.attributes) if (v[a.name] !== null && v[a.name] !== undefined) out[a.name] = plain(v[a.name]!);
  for (const b of block.blockTypes) {
    const value = v[b.typeName] ?? null;
    if (value === null) continue;
    const bodies = b.nesting === "single" || b.nesting === "group" ? [asBody(b.block, value)] : Array.isArray(value) ? value.map((e) => asBody(b.block, e)) : [];
    if (bodies.length > 0) out[b.typeName] = bodies;
  }
  return out;
}

function plain(v: CtyValue): unknown {
  if (v instanceof BigNum) return v.toNumber();
  if (v instanceof Dynamic) return plain(v.value);
  if (typeof v === "string") {
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed !== null && typeof parsed === "object") return parsed;
    } catch {
      // not JSON: the string itself
    }
    return v;
  }
  if (Array.isArray(v)) return v.map(plain);
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).filter(([, e]) => e !== null).map(([k, e]) => [k, plain(e)]));
  return v;
}

/** The body with the elements of set blocks and set-typed attributes in one order (JSON text), for either side. */
export function setsSorted(block: Block, body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const byText = (a: unknown, b: unknown): number => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0);
  for (const a of block.attributes) {
    const v = out[a.name];
    if (Array.isArray(v) && (a.type?.kind === "set" || a.nestedType?.nesting === "set")) out[a.name] = [...v].sort(byText);
  }
  for (const b of block.blockTypes) {
    const v = out[b.typeName];
    if (!Array.isArray(v)) continue;
    const inner = v.map((e) => setsSorted(b.block, e));
    out[b.typeName] = b.nesting === "set" ? inner.sort(byText) : inner;
  }
  return out;
}

/** Terraform's parsed body with `x = null` left out (as asBody leaves null attributes out) and jsonencode evaluated. */
export function normalized(v: unknown): unknown {
  if (v instanceof JsonEncode) return normalized(v.value);
  if (Array.isArray(v)) return v.map(normalized);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, e]) => e !== null).map(([k, e]) => [k, normalized(e)]));
  return v;
}

/**
 * Runs `terraform plan -generate-config-out` in `dir` (holding the configuration with its import blocks), the providers
 * given by source address → binary through dev_overrides. The plan fails where a generated configuration is invalid;
 * the file is written all the same, so its output is returned for the test to read.
 */
export async function terraformGenerate(dir: string, providers: Record<string, string>, env: Record<string, string> = {}): Promise<{ output: string; resources: Map<string, Body> }> {
  const bin = join(dir, ".providers");
  mkdirSync(bin);
  const overrides: string[] = [];
  for (const [source, path] of Object.entries(providers)) {
    const sub = join(bin, source.replace(/\//g, "_"));
    mkdirSync(sub);
    symlinkSync(path, join(sub, `terraform-provider-${source.split("/").at(-1)!}`));
    overrides.push(`    "${source}" = "${sub}"`);
  }
  const rc = join(dir, ".terraformrc");
  writeFileSync(rc, `provider_installation {\n  dev_overrides {\n${overrides.join("\n")}\n  }\n  direct {}\n}\n`);
  const r = await spawnAsync(terraformBin(), ["plan", "-generate-config-out=generated.tf", "-no-color"], {
    cwd: dir,
    env: { ...process.env, ...env, TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" },
  });
  const output = `${r.stdout}\n${r.stderr}`;
  let text: string;
  try {
    text = readFileSync(join(dir, "generated.tf"), "utf8");
  } catch {
    throw new Error(`terraform wrote no generated.tf:\n${output.slice(-4000)}`);
  }
  return { output, resources: parseGeneratedConfig(text) };
}
