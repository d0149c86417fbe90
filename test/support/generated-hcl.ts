// Reads the file `terraform plan -generate-config-out` writes (hclwrite-formatted literals, blocks, `jsonencode(…)`) into plain values, resource by resource, without Terraform validating it.

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
