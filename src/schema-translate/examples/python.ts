// Renders a bound example Program as the Python Pulumi program a user would write (`__main__.py`), spelled as Pulumi's
// Python SDKs spell resources, functions and arguments, laid out so that black leaves it as it is.
import type { TypeModel } from "../model.js";
import { pythonInitParamName, pythonKeywordSafe, pythonName, pythonPackage, pythonPropertyName, tokenModule, tokenName } from "../names.js";
import { claimName, ConversionError, holdsOutput, type Builtin, type ConfigVariable, type InvokeNode, type Loop, type ObjectValue, type PathStep, type Program, type ProgramNode, type ResourceNode, type Value } from "./program.js";

const INDENT = "    ";
/** black's default line length: one line when it fits, else one item per line with a trailing comma. */
const WIDTH = 88;

/** Names the rendered program itself uses, which no program variable may shadow. */
const PROGRAM_NAMES = ["pulumi", "json", "os", "config", "read_file"];

/** Python's built-in functions and types: a program variable named so gets a trailing `_` rather than hide one. */
const PYTHON_BUILTINS = [
  "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr",
  "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter",
  "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int",
  "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct",
  "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice",
  "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
];

/** A rendered expression: its code (continuation lines indented already) and what it is at run time. */
interface Expr {
  code: string;
  /** A `pulumi.Output`: strings and calls on it go through `apply` or `pulumi.Output`'s helpers. */
  output: boolean;
  /** An Output, or a list or dict holding one (what `json.dumps` cannot take). */
  holdsOutput: boolean;
  /** Takes `.attr`, `[i]` and `(...)` as it is, with no parentheses around it. */
  atom: boolean;
}

const plain = (code: string, atom = true): Expr => ({ code, output: false, holdsOutput: false, atom });

/**
 * The loop variables of one repeated resource. They outlive their loop at module level, where mypy holds a name to one
 * type: `index` (an int) and `key` (a str) serve every loop, each map's values get a name of their own.
 */
interface LoopNames {
  index: string;
  key: string;
  value?: string;
  /** The kind every map value shares, when they do: a Value's type is the one its position wants, not its own. */
  valueKind?: string;
}

export function renderPython(program: Program): string {
  return new PythonRenderer(program).render();
}

class PythonRenderer {
  private readonly names = new Map<string, string>();
  private readonly nodes = new Map<string, ProgramNode>();
  private readonly config = new Map<string, ConfigVariable>();
  private usesJson = false;
  private usesReadFile = false;
  private readonly loops = new Map<string, LoopNames>();
  /** The loop of the repeated resource being rendered, where `count.index` and `each.*` have names. */
  private loop: LoopNames | undefined;

  constructor(private readonly program: Program) {
    const taken = new Set([...PROGRAM_NAMES, ...PYTHON_BUILTINS, ...this.packages().map((p) => pythonPackage(p).alias)]);
    const claim = (camel: string): void => {
      this.names.set(camel, claimName(taken, pythonKeywordSafe(pythonName(camel))));
    };
    for (const c of program.config) {
      this.config.set(c.variable, c);
      claim(c.variable);
    }
    for (const n of program.nodes) {
      this.nodes.set(n.variable, n);
      claim(n.variable);
    }
    // After the program's own variables, which keep their names.
    const shared = new Map<string, string>();
    const loopName = (base: string, fresh = false): string => {
      const known = shared.get(base);
      if (known !== undefined && !fresh) return known;
      const name = claimName(taken, base);
      if (!shared.has(base)) shared.set(base, name);
      return name;
    };
    for (const n of program.nodes) {
      if (n.kind !== "resource" || n.loop === undefined) continue;
      const isMap = n.loop.kind === "forEach" && n.loop.items.kind === "map";
      const kinds = new Set(n.loop.kind === "forEach" && n.loop.items.kind === "map" ? n.loop.items.entries.map((e) => e.value.kind) : []);
      const valueKind = kinds.size === 1 ? [...kinds][0] : undefined;
      this.loops.set(n.variable, {
        index: loopName("index"),
        key: loopName("key"),
        ...(isMap ? { value: loopName("value", true) } : {}),
        ...(valueKind !== undefined ? { valueKind } : {}),
      });
    }
  }

  render(): string {
    // The body first: it decides whether `json` and the file helper are needed.
    const body = [this.configSection(), this.nodesSection(), this.outputs()].filter((s) => s !== "");
    const imports = [...(this.usesJson ? ["import json"] : []), ...(this.usesReadFile ? ["import os"] : []), "import pulumi"];
    for (const pkg of this.packages()) {
      const { module, alias } = pythonPackage(pkg);
      imports.push(`import ${module} as ${alias}`);
    }
    const sections = [imports.join("\n")];
    // PEP 8: two blank lines around a top-level function. `~` expanded, as Terraform's file() does.
    if (this.usesReadFile) {
      sections.push(`\ndef read_file(path: str) -> str:\n${INDENT}with open(os.path.expanduser(path), encoding="utf-8") as f:\n${INDENT}${INDENT}return f.read()\n`);
    }
    return `${[...sections, ...body].join("\n\n")}\n`;
  }

  /** One statement per node; a loop set apart by blank lines, so it reads as one block. */
  private nodesSection(): string {
    const looped = (n: ProgramNode | undefined): boolean => n?.kind === "resource" && n.loop !== undefined;
    return this.program.nodes.map((n, i) => (i > 0 && (looped(n) || looped(this.program.nodes[i - 1])) ? "\n" : "") + this.node(n)).join("\n");
  }

  /** Every package a node uses, sorted as isort sorts the imports. */
  private packages(): string[] {
    const pkgs = new Set(this.program.nodes.map((n) => (n.kind === "provider" ? n.pkg : n.entity.pkg)));
    return [...pkgs].sort();
  }

  private configSection(): string {
    if (this.program.config.length === 0) return "";
    const lines = ["config = pulumi.Config()"];
    for (const c of this.program.config) {
      const name = this.name(c.variable);
      const suffix = c.type === "number" ? "_float" : c.type === "boolean" ? "_bool" : "";
      const key = stringLiteral(c.name);
      const read = (method: string): string => `${name} = ${this.call(`config.${method}${suffix}`, [{ expr: () => plain(key) }], "", name.length + 3)}`;
      if (c.default === undefined) {
        lines.push(read("require"));
        continue;
      }
      lines.push(read("get"));
      // Not `or <default>`: that would replace a configured `false`, `0` or "" too.
      if (c.default.kind !== "null") lines.push(`if ${name} is None:`, `${INDENT}${name} = ${this.value(c.default, INDENT, INDENT.length + name.length + 3, { kind: c.type }).code}`);
    }
    return lines.join("\n");
  }

  private node(n: ProgramNode): string {
    const name = this.name(n.variable);
    const lead = name.length + 3;
    switch (n.kind) {
      case "resource":
        if (n.loop !== undefined) return this.repeated(n, n.loop, name);
        return `${name} = ${this.resource(n, plain(stringLiteral(n.name)), "", lead)}`;
      case "provider":
        return `${name} = ${this.call(`${pythonPackage(n.pkg).alias}.Provider`, [{ expr: () => plain(stringLiteral(n.name)) }, ...this.kwargs(n.args, pythonInitParamName)], "", lead)}`;
      case "invoke":
        return `${name} = ${this.invoke(n, lead)}`;
    }
  }

  private resource(n: ResourceNode, resourceName: Expr, indent: string, lead: number): string {
    const args: Arg[] = [{ expr: () => resourceName }, ...this.kwargs(n.args, pythonInitParamName)];
    const opts: Arg[] = [];
    // Only resources can be waited for: an invoke's result is an Output, which depends_on refuses.
    const dependsOn = n.dependsOn.filter((d) => this.nodes.get(d)?.kind !== "invoke").map((d) => this.dependency(d));
    if (dependsOn.length > 0) opts.push({ keyword: "depends_on", expr: (indent, l) => this.collection("[", "]", dependsOn.map((d) => () => plain(d)), indent, l) });
    if (n.provider !== undefined) opts.push({ keyword: "provider", expr: () => plain(this.name(n.provider!)) });
    if (opts.length > 0) args.push({ keyword: "opts", expr: (indent, l) => plain(this.call("pulumi.ResourceOptions", opts, indent, l)) });
    return this.call(this.entityPath(n.entity.pkg, n.entity.token, tokenName(n.entity.token)), args, indent, lead);
  }

  /** A resource waited for: a repeated one's instances, all of them, spread into the list. */
  private dependency(variable: string): string {
    const n = this.nodes.get(variable);
    const name = this.name(variable);
    if (n?.kind !== "resource" || n.loop === undefined) return name;
    return n.loop.kind === "count" ? `*${name}` : `*${name}.values()`;
  }

  /**
   * A repeated resource as a list filled in a `for ... in range(...)` loop, or a dict filled per key, each instance
   * named after its index or key. Not `pulumi convert`'s `for range in [{"value": i} ...]`: that hides the built-in
   * `range`, which a second loop then cannot call.
   */
  private repeated(n: ResourceNode, loop: Loop, name: string): string {
    const names = this.loops.get(n.variable)!;
    const cls = this.entityPath(n.entity.pkg, n.entity.token, tokenName(n.entity.token));
    this.loop = names;
    try {
      if (loop.kind === "count") {
        if (holdsOutput(loop.count)) throw new ConversionError(`${n.name}: a count known only after deployment cannot drive a Python loop`);
        const instanceName = plain(`f${fStringLiteral([`${n.name}-`, { code: names.index }])}`);
        const oneLine = `${name}.append(${this.resource(n, instanceName, INDENT, INDENT.length + name.length + ".append(".length)})`;
        // As black splits `x.append(call(...))`: inside append's parentheses first.
        const body =
          !oneLine.includes("\n") && INDENT.length + oneLine.length <= WIDTH
            ? oneLine
            : `${name}.append(\n${INDENT.repeat(2)}${this.resource(n, instanceName, INDENT.repeat(2), 2 * INDENT.length)}\n${INDENT})`;
        return `${name}: list[${cls}] = []\nfor ${names.index} in range(${this.count(loop.count)}):\n${INDENT}${body}`;
      }
      if (holdsOutput(loop.items)) throw new ConversionError(`${n.name}: for_each over values known only after deployment cannot drive a Python loop`);
      const target = names.value === undefined ? names.key : `${names.key}, ${names.value}`;
      const suffix = loop.items.kind === "map" ? ".items():" : ":";
      const items = this.value(loop.items, "", `for ${target} in `.length + suffix.length);
      const assign = `${name}[${names.key}] = `;
      const instance = this.resource(n, plain(`f${fStringLiteral([`${n.name}-`, { code: names.key }])}`), INDENT, INDENT.length + assign.length);
      return `${name}: dict[str, ${cls}] = {}\nfor ${target} in ${items.code}${suffix}\n${INDENT}${assign}${instance}`;
    } finally {
      this.loop = undefined;
    }
  }

  /** `range()`'s argument: an int, where Terraform's numbers are floats (a config value is read as one). */
  private count(v: Value): string {
    if (v.kind === "number" && Number.isInteger(v.value) && v.value >= 0) return numberLiteral(v.value);
    return `int(${this.value(v, "", 0).code})`;
  }

  private invoke(n: InvokeNode, lead: number): string {
    const fn = `${pythonPropertyName(tokenName(n.entity.token))}_output`;
    const args = n.role === "function" && n.function !== undefined ? this.positional(n) : this.kwargs(n.args, pythonPropertyName);
    if (n.provider !== undefined) {
      const provider: Arg = { keyword: "provider", expr: () => plain(this.name(n.provider!)) };
      args.push({ keyword: "opts", expr: (indent, l) => plain(this.call("pulumi.InvokeOptions", [provider], indent, l)) });
    }
    return this.call(this.entityPath(n.entity.pkg, n.entity.token, fn), args, "", lead);
  }

  /**
   * A provider function's arguments in its parameters' order, positional as its SDK signature takes them
   * (multiArgumentInputs); after a parameter left out, the rest by keyword.
   */
  private positional(n: InvokeNode): Arg[] {
    const params = [...n.function!.parameters, ...(n.function!.variadic ? [n.function!.variadic] : [])];
    const given = new Map(n.args.properties.filter((p) => p.value.kind !== "null").map((p) => [p.name, p.value]));
    const args: Arg[] = [];
    let byKeyword = false;
    for (const p of params) {
      const v = given.get(p.name);
      if (v === undefined) {
        byKeyword = true;
        continue;
      }
      const keyword = byKeyword ? pythonPropertyName(p.name) : undefined;
      args.push({ keyword, expr: (indent, l) => this.value(v, indent, l, v.type ?? p.type) });
    }
    return args;
  }

  /** `pkg.Name`, or `pkg.<module>.Name` outside the index module (`random.ephemeral.get_password_output`). */
  private entityPath(pkg: string, token: string, member: string): string {
    const module = tokenModule(token);
    const path = module === "index" || module === "" ? [] : module.split("/").map(pythonPropertyName);
    return [pythonPackage(pkg).alias, ...path, member].join(".");
  }

  private kwargs(args: ObjectValue, spell: (name: string) => string): Arg[] {
    return args.properties
      .filter((p) => p.value.kind !== "null")
      .map((p) => ({ keyword: spell(p.name), expr: (indent: string, lead: number) => this.value(p.value, indent, lead) }));
  }

  private outputs(): string {
    return this.program.outputs
      .map((o) => `${this.call("pulumi.export", [{ expr: () => plain(stringLiteral(o.name)) }, { expr: (indent, l) => this.value(o.value, indent, l) }], "", 0)}`)
      .join("\n");
  }

  /**
   * `callee(args)` on one line when it fits, else one argument per line with a trailing comma. `indent` is the
   * current line's indentation, `lead` the column the call starts at.
   */
  private call(callee: string, args: Arg[], indent: string, lead: number): string {
    const inner = indent + INDENT;
    const rendered = args.map((a) => {
      const prefix = a.keyword === undefined ? "" : `${a.keyword}=`;
      return prefix + a.expr(inner, inner.length + prefix.length).code;
    });
    const oneLine = `${callee}(${rendered.join(", ")})`;
    if (rendered.length === 0 || (!oneLine.includes("\n") && lead + oneLine.length <= WIDTH)) return oneLine;
    return `${callee}(\n${rendered.map((r) => `${inner}${r},\n`).join("")}${indent})`;
  }

  private name(variable: string): string {
    return this.names.get(variable) ?? pythonKeywordSafe(pythonName(variable));
  }

  // ---- values ----

  /** A value where `expected` (its schema type, unless given) is wanted; scalars of another type are converted. */
  private value(v: Value, indent: string, lead: number, expected: TypeModel | { kind: ConfigVariable["type"] } | undefined = v.type): Expr {
    const want = expected?.kind === "boolean" ? "bool" : expected?.kind;
    switch (v.kind) {
      case "loop": {
        const names = this.loop;
        if (names === undefined) throw new ConversionError(`${v.part === "index" ? "count.index" : `each.${v.part}`} outside a repeated resource`);
        if (v.part === "index") return this.converted(plain(names.index), { kind: "number" }, want);
        // A list's strings are each the key and the value.
        if (v.part === "key" || names.value === undefined) return this.converted(plain(names.key), { kind: "string" }, want);
        return this.converted(plain(names.value), names.valueKind === undefined ? undefined : { kind: names.valueKind }, want);
      }
      case "string":
        if (want === "number" && v.value.trim() !== "" && Number.isFinite(Number(v.value))) return plain(numberLiteral(Number(v.value)));
        if (want === "bool" && (v.value === "true" || v.value === "false")) return plain(v.value === "true" ? "True" : "False");
        return plain(stringLiteral(v.value));
      case "number":
        return plain(want === "string" ? stringLiteral(String(v.value)) : numberLiteral(v.value), v.value >= 0);
      case "bool":
        if (want === "string") return plain(stringLiteral(String(v.value)));
        return plain(v.value ? "True" : "False");
      case "null":
        return plain("None");
      case "list":
        return this.collection("[", "]", v.items.map((item) => (i: string, l: number) => this.value(item, i, l)), indent, lead);
      case "map":
        return this.collection("{", "}", v.entries.map((e) => this.entry(stringLiteral(e.key), e.value)), indent, lead);
      case "object":
        return this.collection(
          "{",
          "}",
          v.properties.filter((p) => p.value.kind !== "null").map((p) => this.entry(stringLiteral(pythonPropertyName(p.name)), p.value)),
          indent,
          lead,
        );
      case "template":
        return this.template(v.parts, indent, lead);
      case "ref":
        return this.converted({ code: this.refCode(v.node, v.path), output: true, holdsOutput: true, atom: true }, this.refType(v.node, v.path), want);
      case "config": {
        const c = this.config.get(v.variable);
        return this.converted(plain(this.name(v.variable)), c === undefined ? undefined : { kind: c.type }, want);
      }
      case "call":
        return this.builtin(v.fn, v.args, indent, lead);
    }
  }

  private entry(key: string, v: Value): (indent: string, lead: number) => Expr {
    return (indent, lead) => {
      const e = this.value(v, indent, lead + key.length + 2);
      return { ...e, code: `${key}: ${e.code}` };
    };
  }

  /** A list or dict: on one line when it fits and every item does, else one item per line with a trailing comma. */
  private collection(open: string, close: string, items: ((indent: string, lead: number) => Expr)[], indent: string, lead: number): Expr {
    const inner = indent + INDENT;
    const rendered = items.map((item) => item(inner, inner.length));
    const holdsOutput = rendered.some((r) => r.holdsOutput);
    const oneLine = `${open}${rendered.map((r) => r.code).join(", ")}${close}`;
    if (rendered.length === 0 || (!oneLine.includes("\n") && lead + oneLine.length <= WIDTH)) return { code: oneLine, output: false, holdsOutput, atom: true };
    return { code: `${open}\n${rendered.map((r) => `${inner}${r.code},\n`).join("")}${indent}${close}`, output: false, holdsOutput, atom: true };
  }

  /** `node.attr[0]["key"]`: Outputs lift attribute and item access, so a path reads as it would on plain values. */
  private refCode(node: string, path: PathStep[]): string {
    let code = this.name(node);
    for (const step of path) {
      if (step.kind === "property") code += `.${pythonPropertyName(step.name)}`;
      else if (step.kind === "index") code += `[${step.index}]`;
      else code += `[${stringLiteral(step.key)}]`;
    }
    return code;
  }

  /** The schema type a reference yields, when the referenced entity's schema says. */
  private refType(variable: string, path: PathStep[]): TypeModel | undefined {
    const node = this.nodes.get(variable);
    if (node === undefined) return undefined;
    // A repeated resource's first step picks an instance out of the program's list or dict.
    if (node.kind === "resource" && node.loop !== undefined) path = path.slice(1);
    let props = node.kind === "provider" ? node.properties : node.entity.properties;
    let type: TypeModel | undefined;
    if (node.kind === "invoke" && node.function !== undefined) {
      type = node.function.returnType;
      props = type.kind === "object" ? type.ref.properties : [];
      if (path.length === 0) return type;
    }
    for (const step of path) {
      if (step.kind === "property") {
        type = props.find((p) => p.name === step.name)?.type;
      } else if (type?.kind === "array") type = type.items;
      else if (type?.kind === "map") type = type.values;
      else return undefined;
      if (type === undefined) return undefined;
      props = type.kind === "object" ? type.ref.properties : [];
    }
    return type;
  }

  /** A scalar of one type where another is wanted, converted as Terraform converts it. */
  private converted(e: Expr, from: TypeModel | { kind: string } | undefined, want: string | undefined): Expr {
    const have = from?.kind === "boolean" ? "bool" : from?.kind;
    if (have === undefined || want === undefined || have === want || !["string", "number", "bool"].includes(have) || !["string", "number", "bool"].includes(want)) return e;
    const fn = want === "string" ? (have === "bool" ? "lambda v: str(v).lower()" : "str") : want === "number" ? "float" : 'lambda v: v == "true"';
    if (e.output) return { ...e, code: `${e.code}.apply(${fn})`, atom: true };
    if (want === "string") return plain(have === "bool" ? `str(${e.code}).lower()` : `str(${e.code})`);
    if (want === "number") return plain(`float(${e.code})`);
    return plain(`${e.code} == "true"`, false);
  }

  /**
   * A string with interpolations: `pulumi.Output.concat` when a part is an Output, else an f-string (or `+`, where an
   * expression cannot sit inside an f-string before Python 3.12: quotes, backslashes, braces, line breaks).
   */
  private template(parts: (string | Value)[], indent: string, lead: number): Expr {
    const merged = mergeText(parts);
    const values = merged.filter((p): p is Value => typeof p !== "string");
    if (values.length === 0) return plain(stringLiteral(merged.join("")));
    const inner = indent + INDENT;
    // As they are for an f-string, which formats any value; as strings for concatenation.
    const strings = (): Map<Value, Expr> => new Map(values.map((v) => [v, this.value(v, inner, inner.length, { kind: "string" })]));
    if (merged.length === 1) return this.value(values[0]!, indent, lead, { kind: "string" });
    const loose = new Map(values.map((v) => [v, this.value(v, inner, inner.length)]));
    if ([...loose.values()].some((e) => e.output)) {
      const exprs = strings();
      const args = merged.map((p): Arg => ({ expr: () => (typeof p === "string" ? plain(stringLiteral(p)) : exprs.get(p)!) }));
      return { code: this.call("pulumi.Output.concat", args, indent, lead), output: true, holdsOutput: true, atom: true };
    }
    if ([...loose.values()].every((e) => !/["'\\{}\n]/.test(e.code))) {
      return plain(`f${fStringLiteral(merged.map((p) => (typeof p === "string" ? p : { code: loose.get(p)!.code })))}`);
    }
    const exprs = strings();
    return plain(merged.map((p) => (typeof p === "string" ? stringLiteral(p) : paren(exprs.get(p)!))).join(" + "), false);
  }

  private builtin(fn: Builtin, args: Value[], indent: string, lead: number): Expr {
    const arg = args[0];
    if (arg === undefined) return plain("None");
    const want = fn === "jsonencode" ? undefined : ({ kind: "string" } as const);
    const first = this.value(arg, indent, lead, want);
    // The argument laid out as a call's, once the callee (which depends on whether it is an Output) is known.
    const callOf = (callee: string, output: boolean): Expr => ({
      code: this.call(callee, [{ expr: (i, l) => this.value(arg, i, l, want) }], indent, lead),
      output,
      holdsOutput: output,
      atom: true,
    });
    switch (fn) {
      case "file":
        this.usesReadFile = true;
        return first.output ? { ...first, code: `${paren(first)}.apply(read_file)` } : callOf("read_file", false);
      case "jsonencode":
        if (first.holdsOutput) return callOf("pulumi.Output.json_dumps", true);
        this.usesJson = true;
        return callOf("json.dumps", false);
      case "jsondecode":
        if (first.output) return callOf("pulumi.Output.json_loads", true);
        this.usesJson = true;
        return callOf("json.loads", false);
      case "trimspace":
        if (first.output) return { ...first, code: `${paren(first)}.apply(lambda s: s.strip())` };
        return plain(`${paren(first)}.strip()`);
    }
  }
}

interface Arg {
  keyword?: string;
  expr: (indent: string, lead: number) => Expr;
}

function paren(e: Expr): string {
  return e.atom ? e.code : `(${e.code})`;
}

/** Adjacent literal parts joined, so a template is text and values in turn. */
function mergeText(parts: (string | Value)[]): (string | Value)[] {
  const out: (string | Value)[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (typeof p === "string" && typeof last === "string") out[out.length - 1] = last + p;
    else if (p !== "") out.push(p);
  }
  return out;
}

/** Integers without a fraction (`20`, which Python accepts where a float is wanted); others as JavaScript prints them. */
function numberLiteral(n: number): string {
  return String(n);
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A character inside a literal quoted with `quote`. */
function escapeChar(ch: string, quote: string): string {
  if (ch === quote) return `\\${ch}`;
  const known = ESCAPES[ch];
  if (known !== undefined) return known;
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : ch;
}

/** Double quotes unless the text holds more of them than single ones: black's choice, the one with fewer escapes. */
function quoteFor(text: string): string {
  const count = (q: string): number => text.split(q).length - 1;
  return count('"') > count("'") ? "'" : '"';
}

/**
 * A Python string literal: quoted as black quotes it, with escapes, or, for text of several lines, triple-quoted with
 * its line breaks kept, so a heredoc still reads as one.
 */
export function stringLiteral(s: string): string {
  const lines = s.split("\n");
  if (lines.length > 2 || (lines.length === 2 && lines[1] !== "")) {
    let out = "";
    for (let i = 0; i < s.length; i++) {
      const ch = s[i]!;
      // A quote escaped only where it could end the literal: before another quote, or last.
      if (ch === '"') out += i === s.length - 1 || s[i + 1] === '"' ? '\\"' : '"';
      else if (ch === "\n" || ch === "\t") out += ch;
      else out += escapeChar(ch, '"');
    }
    return `"""${out}"""`;
  }
  const quote = quoteFor(s);
  return `${quote}${[...s].map((ch) => escapeChar(ch, quote)).join("")}${quote}`;
}

/** The literal of an f-string: text escaped (braces doubled), expressions in braces. */
function fStringLiteral(parts: (string | { code: string })[]): string {
  const quote = quoteFor(parts.filter((p): p is string => typeof p === "string").join(""));
  const text = (p: string): string => [...p].map((ch) => (ch === "{" ? "{{" : ch === "}" ? "}}" : escapeChar(ch, quote))).join("");
  return `${quote}${parts.map((p) => (typeof p === "string" ? text(p) : `{${p.code}}`)).join("")}${quote}`;
}
