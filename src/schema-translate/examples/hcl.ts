// Terraform's configuration language (HCL native syntax) read into blocks, attributes and expressions in source
// order; @cdktf/hcl2json sorts attributes and hands expressions back as source text, which examples cannot use.
import { ConversionError } from "./program.js";

/** A parsed expression, as written (names not yet resolved). */
export type Expr =
  | { t: "literal"; value: string | number | boolean | null }
  /** A quoted string or heredoc: literal text and interpolated expressions, in order. */
  | { t: "template"; parts: (string | Expr)[] }
  | { t: "tuple"; items: Expr[] }
  | { t: "object"; items: { key: Expr; value: Expr }[] }
  /** The root of a traversal: `var`, `random_pet`, `data`, `path`. */
  | { t: "name"; name: string }
  | { t: "attr"; of: Expr; name: string }
  | { t: "index"; of: Expr; key: Expr }
  /** `provider::time::duration_parse` included as the name. */
  | { t: "call"; name: string; args: Expr[]; expand: boolean }
  | { t: "unary"; op: "-" | "!"; operand: Expr }
  | { t: "binary"; op: string; left: Expr; right: Expr }
  | { t: "conditional"; cond: Expr; then: Expr; else: Expr }
  | { t: "splat"; of: Expr }
  | { t: "for"; source: string };

export interface Attribute {
  name: string;
  value: Expr;
}

export interface Block {
  type: string;
  labels: string[];
  body: Body;
}

export interface Body {
  attributes: Attribute[];
  blocks: Block[];
  /** Attributes and blocks interleaved, in source order. */
  items: ({ kind: "attribute"; attribute: Attribute } | { kind: "block"; block: Block })[];
}

type TokenKind = "ident" | "number" | "string" | "heredoc" | "punct" | "newline" | "eof";
interface Token {
  kind: TokenKind;
  text: string;
  /** For strings and heredocs: the template parts, still as raw source for interpolations. */
  parts?: (string | { source: string })[];
  pos: number;
}

const PUNCT = ["...", "==", "!=", "<=", ">=", "&&", "||", "=>", "::", "{", "}", "[", "]", "(", ")", "=", ",", ".", ":", "?", "!", "<", ">", "+", "-", "*", "/", "%"];

function fail(text: string, pos: number, message: string): never {
  const line = text.slice(0, pos).split("\n").length;
  throw new ConversionError(`HCL line ${line}: ${message}`);
}

/** The end of an interpolation `${ … }` that starts at `from` (just past `${`), skipping nested braces and strings. */
function interpolationEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      i = quotedEnd(text, i + 1) - 1;
    } else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  fail(text, from, "an interpolation `${` is never closed");
}

/** Index just past the closing quote of a string whose body starts at `from`. */
function quotedEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === "$" && text[i + 1] === "{") i = interpolationEnd(text, i + 2);
    else if (c === "\n") fail(text, from, "a quoted string runs past the end of its line");
    else if (c === '"') return i + 1;
  }
  fail(text, from, "a quoted string is never closed");
}

const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/** Splits a template's source into text and interpolation sources; `$${` and `%%{` are literal. */
function templateParts(text: string, body: string, pos: number, escapes: boolean): (string | { source: string })[] {
  const parts: (string | { source: string })[] = [];
  let lit = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (escapes && c === "\\") {
      const n = body[i + 1] ?? "";
      if (n === "u" || n === "U") {
        const len = n === "u" ? 4 : 8;
        lit += String.fromCodePoint(parseInt(body.slice(i + 2, i + 2 + len), 16));
        i += 1 + len;
      } else {
        const e = ESCAPES[n];
        if (e === undefined) fail(text, pos, `unknown escape \\${n} in a string`);
        lit += e;
        i++;
      }
    } else if ((c === "$" || c === "%") && body[i + 1] === c && body[i + 2] === "{") {
      lit += `${c}{`;
      i += 2;
    } else if (c === "%" && body[i + 1] === "{") {
      fail(text, pos, "template directives (%{ if } / %{ for }) have no equivalent in the rendered languages");
    } else if (c === "$" && body[i + 1] === "{") {
      const end = interpolationEnd(body, i + 2);
      if (lit !== "") parts.push(lit);
      lit = "";
      parts.push({ source: body.slice(i + 2, end).replace(/^~|~$/g, "") });
      i = end;
    } else lit += c;
  }
  if (lit !== "") parts.push(lit);
  return parts;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      tokens.push({ kind: "newline", text: "\n", pos: i });
      i++;
    } else if (c === " " || c === "\t" || c === "\r") i++;
    else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) fail(text, i, "a /* comment is never closed");
      i = end + 2;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i))![0];
      tokens.push({ kind: "ident", text: m, pos: i });
      i += m.length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i))![0];
      tokens.push({ kind: "number", text: m, pos: i });
      i += m.length;
    } else if (c === '"') {
      const end = quotedEnd(text, i + 1);
      tokens.push({ kind: "string", text: text.slice(i, end), parts: templateParts(text, text.slice(i + 1, end - 1), i, true), pos: i });
      i = end;
    } else if (c === "<" && text[i + 1] === "<" && /^<<-?[A-Za-z_]/.test(text.slice(i))) {
      const m = /^<<(-?)([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(text.slice(i));
      if (m === null) fail(text, i, "a heredoc marker must end its line");
      const [all, dash, marker] = m as unknown as [string, string, string];
      const start = i + all.length;
      const close = new RegExp(`^[ \\t]*${marker}[ \\t]*$`, "m");
      const rest = text.slice(start);
      const found = close.exec(rest);
      if (found === null) fail(text, i, `the heredoc ${marker} is never closed`);
      let lines = rest.slice(0, found.index).replace(/\n$/, "").split("\n");
      if (dash === "-") {
        const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
        lines = lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
      }
      const body = `${lines.join("\n")}\n`;
      tokens.push({ kind: "heredoc", text: body, parts: templateParts(text, body, i, false), pos: i });
      i = start + found.index + found[0].length;
    } else {
      const p = PUNCT.find((s) => text.startsWith(s, i));
      if (p === undefined) fail(text, i, `unexpected character ${JSON.stringify(c)}`);
      tokens.push({ kind: "punct", text: p, pos: i });
      i += p.length;
    }
  }
  tokens.push({ kind: "eof", text: "", pos: text.length });
  return tokens;
}

const BINARY_PRECEDENCE: Record<string, number> = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6 };

class Parser {
  private i = 0;
  /** Inside (), [] or an object's braces newlines mean nothing, except between an object's items. */
  private nesting = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  private peek(skipNewlines = this.nesting > 0): Token {
    let j = this.i;
    while (skipNewlines && this.tokens[j]!.kind === "newline") j++;
    return this.tokens[j]!;
  }

  private next(skipNewlines = this.nesting > 0): Token {
    while (skipNewlines && this.tokens[this.i]!.kind === "newline") this.i++;
    return this.tokens[this.i++]!;
  }

  private is(text: string, skipNewlines?: boolean): boolean {
    const t = this.peek(skipNewlines);
    return t.kind === "punct" && t.text === text;
  }

  private expect(text: string, skipNewlines?: boolean): void {
    const t = this.next(skipNewlines);
    if (t.kind !== "punct" || t.text !== text) fail(this.text, t.pos, `expected ${text}, found ${t.text === "\n" ? "the end of the line" : JSON.stringify(t.text)}`);
  }

  body(end: "eof" | "}"): Body {
    const body: Body = { attributes: [], blocks: [], items: [] };
    for (;;) {
      const t = this.next(true);
      if (end === "eof" ? t.kind === "eof" : t.kind === "punct" && t.text === "}") return body;
      if (t.kind !== "ident") fail(this.text, t.pos, `expected an attribute or block name, found ${JSON.stringify(t.text)}`);
      if (this.is("=", false)) {
        this.next(false);
        const attribute = { name: t.text, value: this.expression() };
        body.attributes.push(attribute);
        body.items.push({ kind: "attribute", attribute });
        const after = this.peek(false);
        if (after.kind !== "newline" && after.kind !== "eof" && !(after.kind === "punct" && after.text === "}")) fail(this.text, after.pos, `expected the end of the line after ${t.text}`);
        continue;
      }
      const labels: string[] = [];
      for (;;) {
        const l = this.next(false);
        if (l.kind === "string") labels.push(l.parts!.map((p) => (typeof p === "string" ? p : `\${${p.source}}`)).join(""));
        else if (l.kind === "ident") labels.push(l.text);
        else if (l.kind === "punct" && l.text === "{") break;
        else fail(this.text, l.pos, `expected a label or { after the block type ${t.text}`);
      }
      const saved = this.nesting;
      this.nesting = 0;
      const block = { type: t.text, labels, body: this.body("}") };
      this.nesting = saved;
      body.blocks.push(block);
      body.items.push({ kind: "block", block });
    }
  }

  expression(): Expr {
    const cond = this.binary(0);
    if (!this.is("?")) return cond;
    this.next();
    const then = this.expression();
    this.expect(":");
    return { t: "conditional", cond, then, else: this.expression() };
  }

  private binary(min: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      const prec = t.kind === "punct" ? BINARY_PRECEDENCE[t.text] : undefined;
      if (prec === undefined || prec <= min) return left;
      this.next();
      left = { t: "binary", op: t.text, left, right: this.binary(prec) };
    }
  }

  private unary(): Expr {
    if (this.is("-") || this.is("!")) {
      const op = this.next().text as "-" | "!";
      return { t: "unary", op, operand: this.unary() };
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      if (this.is(".", false)) {
        this.next(false);
        const t = this.next(false);
        if (t.kind === "ident") e = { t: "attr", of: e, name: t.text };
        else if (t.kind === "number") e = { t: "index", of: e, key: { t: "literal", value: Number(t.text) } };
        else if (t.kind === "punct" && t.text === "*") e = { t: "splat", of: e };
        else fail(this.text, t.pos, "expected an attribute name after .");
      } else if (this.is("[", false)) {
        this.next(false);
        this.nesting++;
        if (this.is("*")) {
          this.next();
          this.expect("]");
          e = { t: "splat", of: e };
        } else {
          const key = this.expression();
          this.expect("]");
          e = { t: "index", of: e, key };
        }
        this.nesting--;
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case "number":
        return { t: "literal", value: Number(t.text) };
      case "string":
      case "heredoc":
        return this.template(t);
      case "ident": {
        if (t.text === "true" || t.text === "false") return { t: "literal", value: t.text === "true" };
        if (t.text === "null") return { t: "literal", value: null };
        let name = t.text;
        while (this.is("::", false)) {
          this.next(false);
          name += `::${this.next(false).text}`;
        }
        if (this.is("(", false)) return this.call(name);
        return { t: "name", name };
      }
      case "punct":
        if (t.text === "(") {
          this.nesting++;
          const e = this.expression();
          this.expect(")");
          this.nesting--;
          return e;
        }
        if (t.text === "[") return this.tuple(t);
        if (t.text === "{") return this.object(t);
        break;
      default:
        break;
    }
    fail(this.text, t.pos, `expected an expression, found ${t.kind === "newline" ? "the end of the line" : JSON.stringify(t.text)}`);
  }

  private call(name: string): Expr {
    this.next(false);
    this.nesting++;
    const args: Expr[] = [];
    let expand = false;
    while (!this.is(")")) {
      args.push(this.expression());
      if (this.is("...")) {
        this.next();
        expand = true;
      }
      if (!this.is(")")) this.expect(",");
    }
    this.next();
    this.nesting--;
    return { t: "call", name, args, expand };
  }

  private tuple(open: Token): Expr {
    this.nesting++;
    if (this.peek().kind === "ident" && this.peek().text === "for") return this.forExpression(open);
    const items: Expr[] = [];
    while (!this.is("]")) {
      items.push(this.expression());
      if (!this.is("]")) this.expect(",");
    }
    this.next();
    this.nesting--;
    return { t: "tuple", items };
  }

  private object(open: Token): Expr {
    this.nesting++;
    if (this.peek().kind === "ident" && this.peek().text === "for") return this.forExpression(open);
    const items: { key: Expr; value: Expr }[] = [];
    while (!this.is("}")) {
      const k = this.peek();
      // A bare name is the key itself, as in Terraform (use parentheses for a variable's value).
      let key: Expr;
      if (k.kind === "ident" && !/^(true|false|null)$/.test(k.text)) {
        this.next();
        key = { t: "literal", value: k.text };
      } else key = this.expression();
      const sep = this.next();
      if (sep.kind !== "punct" || (sep.text !== "=" && sep.text !== ":")) fail(this.text, sep.pos, "expected = or : after an object key");
      items.push({ key, value: this.expression() });
      if (this.is(",")) this.next();
    }
    this.next();
    this.nesting--;
    return { t: "object", items };
  }

  private forExpression(open: Token): Expr {
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.kind === "eof") fail(this.text, open.pos, "a for expression is never closed");
      if (t.kind === "punct" && (t.text === "[" || t.text === "{" || t.text === "(")) depth++;
      if (t.kind === "punct" && (t.text === "]" || t.text === "}" || t.text === ")")) depth--;
    }
    this.nesting--;
    return { t: "for", source: this.text.slice(open.pos, this.tokens[this.i - 1]!.pos + 1) };
  }

  private template(t: Token): Expr {
    const parts = t.parts!.map((p) => (typeof p === "string" ? p : parseExpression(p.source)));
    // A template that is one interpolation and nothing else is that value, of whatever type (HCL's rule).
    if (parts.length === 1 && typeof parts[0] !== "string") return parts[0]!;
    if (parts.every((p) => typeof p === "string")) return { t: "literal", value: parts.join("") };
    return { t: "template", parts };
  }
}

/** Parses a whole configuration file (or an example's text). Throws ConversionError naming the line at fault. */
export function parseHcl(text: string): Body {
  return new Parser(text, tokenize(text)).body("eof");
}

/** Parses one expression (an interpolation's source). */
export function parseExpression(source: string): Expr {
  const parser = new Parser(source, tokenize(source).filter((t) => t.kind !== "newline"));
  const e = parser.expression();
  return e;
}
