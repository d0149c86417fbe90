// Renders an example's bound Program as a Go program (package main, gofmt's layout) against the Go SDKs Pulumi's Go
// generator makes from our schemas.
import type { TypeModel, PropertyModel } from "../model.js";
import { exportedName, goFieldName, goFunctionName, requiredIn, stackOutputName, tokenModule, tokenName } from "../names.js";
import { claimName, ConversionError, holdsOutput, type InvokeNode, type Loop, type ObjectValue, type Program, type ProgramNode, type ProviderNode, type ResourceNode, type Value } from "./program.js";

export interface GoRenderOptions {
  /**
   * The resource tokens of the example's own package. Go names a `getX` function `LookupX` when the same module has
   * a resource `X` (whose own `GetX` it would clash with), which only the whole schema tells.
   */
  resourceTokens?: Iterable<string>;
}

/** Renders a Program as the full source of a Go program's main.go. */
export function renderGo(program: Program, options: GoRenderOptions = {}): string {
  return new GoRenderer(program, options).render();
}

const PULUMI = "github.com/pulumi/pulumi/sdk/v3/go/pulumi";
const CONFIG = "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config";

/** Marks a line that continues a raw string literal, which indentation must leave alone; removed at the end. */
const RAW = "\u0000";

/**
 * Names a program variable must not take: Go's keywords, the predeclared names the program itself uses, and the
 * program's own identifiers (imports are added per program).
 */
const GO_TAKEN = [
  "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto",
  "if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
  "string", "float64", "bool", "int", "nil", "true", "false", "panic", "len", "error", "any",
  "ctx", "cfg", "err", "param", "main", "readFileOrPanic", "pulumi", "config", "fmt", "json", "os", "strings",
];

/** The names a repeated resource's loop declares (as `pulumi convert` names them), which the loop body must still see. */
const LOOP_TAKEN = ["index", "key0", "val0", "__res"];

/** An Output as rendered, with what it holds, so it can be fitted to the Input a position takes. */
interface OutputShape {
  code: string;
  kind: "string" | "number" | "bool" | "id" | "other";
  /** A `*PtrOutput`: an optional scalar or object, which a required position takes through `.Elem()`. */
  ptr: boolean;
}

/** Where a value goes: the schema type there (undefined: not known), and whether the field is optional (a pointer). */
interface Slot {
  type: TypeModel | undefined;
  ptr: boolean;
  /** Under a data source, whose object types Pulumi marks required by the output rule. */
  dataSource: boolean;
}

const UNTYPED: Slot = { type: undefined, ptr: true, dataSource: false };

/** A plain Go value (no Outputs) and its Go type. */
interface Plain {
  code: string;
  type: "string" | "float64" | "bool" | "int" | "any";
}

/** The loop around the resource being rendered: what `val0` is, and whether its body reads it. */
interface LoopScope {
  kind: "count" | "map" | "list";
  valueUsed: boolean;
}

class GoRenderer {
  private readonly nodes = new Map<string, ProgramNode>();
  private readonly idents = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly taken = new Set<string>(GO_TAKEN);
  /** Import path → package identifier (an alias when two paths end alike). */
  private readonly imports = new Map<string, string>();
  private readonly resourceNames = new Map<string, Set<string>>();
  private body: string[] = [];
  private errDeclared = false;
  private loop: LoopScope | undefined;
  private tmp = 0;
  private readFile = false;
  /** Standard library packages the program's code uses. */
  private readonly std = new Set<string>();

  constructor(
    private readonly program: Program,
    options: GoRenderOptions,
  ) {
    for (const n of program.nodes) this.nodes.set(n.variable, n);
    const resourceTokens = [...(options.resourceTokens ?? []), ...program.nodes.flatMap((n) => (n.kind === "resource" ? [n.entity.token] : []))];
    for (const token of resourceTokens) {
      const key = `${token.split(":")[0] ?? ""}:${tokenModule(token)}`;
      this.resourceNames.set(key, (this.resourceNames.get(key) ?? new Set()).add(exportedName(tokenName(token))));
    }
  }

  render(): string {
    this.collectUses();
    this.reservePackages();
    if (this.program.nodes.some((n) => n.kind === "resource" && n.loop !== undefined)) for (const t of LOOP_TAKEN) this.taken.add(t);
    for (const c of this.program.config) this.name(c.variable);
    for (const n of this.program.nodes) this.name(n.variable);
    this.config();
    for (const n of this.program.nodes) {
      if (n.kind === "resource") this.resource(n);
      else if (n.kind === "invoke") this.invoke(n);
      else this.provider(n);
    }
    for (const o of this.program.outputs) {
      const value = this.input(o.value, UNTYPED);
      this.statement(`ctx.Export(${goString(stackOutputName(o.name))}, ${value})`);
    }
    const main = ["func main() {", "\tpulumi.Run(func(ctx *pulumi.Context) error {", ...this.body.map((l) => indent(l, 2)), "\t\treturn nil", "\t})", "}"];
    const helper = this.readFile
      ? ["", "func readFileOrPanic(path string) string {", "\tdata, err := os.ReadFile(path)", "\tif err != nil {", "\t\tpanic(err.Error())", "\t}", "\treturn string(data)", "}"]
      : [];
    const text = ["package main", "", ...this.importBlock(), "", ...main, ...helper].join("\n") + "\n";
    return text.replaceAll(RAW, "");
  }

  // ---- names and imports ----

  /** Every node variable some value, dependsOn or provider option refers to: the others are assigned to `_`. */
  private collectUses(): void {
    const visit = (v: Value): void => walk(v, (x) => (x.kind === "ref" ? this.used.add(x.node) : x.kind === "config" ? this.used.add(`config:${x.variable}`) : undefined));
    for (const n of this.program.nodes) {
      visit(n.args);
      if (n.kind !== "provider" && n.provider !== undefined) this.used.add(n.provider);
      if (n.kind === "resource") for (const d of n.dependsOn) this.used.add(d);
      if (n.kind === "resource" && n.loop !== undefined) visit(n.loop.kind === "count" ? n.loop.count : n.loop.items);
    }
    for (const o of this.program.outputs) visit(o.value);
  }

  /** Gives each package (and module) an identifier before variables are named, so variables step around them. */
  private reservePackages(): void {
    for (const n of this.program.nodes) {
      if (n.kind === "provider") this.pkg(n.pkg, "index");
      else this.pkg(n.entity.pkg, tokenModule(n.entity.token));
      walk(n.args, (v) => {
        if (v.kind === "object" && v.objectType !== undefined) this.pkg(v.objectType.token.split(":")[0] ?? "", tokenModule(v.objectType.token));
      });
    }
    for (const id of this.imports.values()) this.taken.add(id);
  }

  private name(variable: string): void {
    this.idents.set(variable, claimName(this.taken, variable));
  }

  private ident(variable: string): string {
    return this.idents.get(variable) ?? variable;
  }

  /** The identifier a package's module is used by, importing it: `random`, `ephemeral` (the module's subpackage). */
  private pkg(pkg: string, module: string): string {
    const root = this.program.goImports[pkg] ?? `github.com/pulumi/pulumi-terraform-provider/sdks/go/${pkg}/${pkg}`;
    const path = module === "index" || module === "" ? root : `${root}/${module.toLowerCase()}`;
    const existing = this.imports.get(path);
    if (existing !== undefined) return existing;
    const base = (path.split("/").pop() ?? pkg).replace(/[^A-Za-z0-9_]/g, "");
    const clash = [...this.imports.values()].includes(base) || this.taken.has(base);
    const id = clash ? `${pkg}${base}`.replace(/[^A-Za-z0-9_]/g, "") : base;
    this.imports.set(path, id);
    return id;
  }

  private importBlock(): string[] {
    const std = new Set(this.std);
    if (this.readFile) std.add("os");
    const others = new Map<string, string | undefined>([[PULUMI, undefined]]);
    if (this.program.config.length > 0 && this.body[0]?.startsWith("cfg :=") === true) others.set(CONFIG, undefined);
    for (const [path, id] of this.imports) others.set(path, id === path.split("/").pop() ? undefined : id);
    const line = ([path, alias]: [string, string | undefined]): string => `\t${alias !== undefined ? `${alias} ` : ""}"${path}"`;
    const sorted = (m: Map<string, string | undefined>): string[] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(line);
    const stdLines = sorted(new Map([...std].map((p) => [p, undefined])));
    return ["import (", ...stdLines, ...(stdLines.length > 0 ? [""] : []), ...sorted(others), ")"];
  }

  // ---- statements ----

  private statement(line: string): void {
    this.body.push(line);
  }

  /** `lhs, err := call` and the error check; `_` for a variable nothing reads, `=` once `err` exists and `_` is all. */
  private withErr(variable: string, call: string): void {
    const lhs = this.used.has(variable) ? this.ident(variable) : "_";
    const op = lhs === "_" && this.errDeclared ? "=" : ":=";
    this.errDeclared = true;
    this.statement(`${lhs}, err ${op} ${call}`);
    this.statement("if err != nil {\n\treturn err\n}");
  }

  private config(): void {
    const lines: string[] = [];
    for (const c of this.program.config) {
      const used = this.used.has(`config:${c.variable}`);
      const id = this.ident(c.variable);
      const key = goString(c.name);
      const suffix = c.type === "number" ? "Float64" : c.type === "boolean" ? "Bool" : "";
      if (c.default === undefined) {
        lines.push(`${used ? `${id} :=` : "_ ="} cfg.Require${suffix}(${key})`);
        continue;
      }
      if (!used) continue;
      lines.push(`${id} := ${this.defaultValue(c.default, c.type)}`);
      lines.push(`if param, err := cfg.Try${suffix}(${key}); err == nil {\n\t${id} = param\n}`);
    }
    if (lines.length === 0) return;
    this.statement(`cfg := config.New(ctx, "")`);
    for (const l of lines) this.statement(l);
  }

  private defaultValue(v: Value, type: "string" | "number" | "boolean"): string {
    if (type === "number" && v.kind === "number") return `float64(${goNumber(v.value)})`;
    if (type === "boolean" && v.kind === "bool") return String(v.value);
    if (type === "string" && v.kind === "string") return goString(v.value);
    const p = this.plain(v);
    return type === "string" ? this.asString(p) : p.code;
  }

  private resource(n: ResourceNode): void {
    if (n.loop !== undefined) return this.repeated(n, n.loop);
    this.withErr(n.variable, this.newResource(n, goString(n.name)));
  }

  /** `pkg.NewT(ctx, name, &pkg.TArgs{...}, options...)`. */
  private newResource(n: ResourceNode, name: string): string {
    const pkg = this.pkg(n.entity.pkg, tokenModule(n.entity.token));
    const res = exportedName(tokenName(n.entity.token));
    const args = this.topArgs(n.args, n.entity.foreign ? undefined : n.entity.properties, `&${pkg}.${res}Args`, res, "input", false, true);
    const opts: string[] = [];
    const deps = n.dependsOn.filter((d) => this.nodes.get(d)?.kind !== "invoke");
    // A slice or map of resources is no pulumi.Resource, and Go has no spread into a []pulumi.Resource literal.
    const repeatedDep = deps.find((d) => { const dep = this.nodes.get(d); return dep?.kind === "resource" && dep.loop !== undefined; });
    if (repeatedDep !== undefined) throw new ConversionError(`${n.name}: depends_on a repeated resource (${repeatedDep}) is not rendered in Go`);
    if (deps.length > 0) opts.push(`pulumi.DependsOn([]pulumi.Resource{${deps.map((d) => this.ident(d)).join(", ")}})`);
    if (n.provider !== undefined) opts.push(`pulumi.Provider(${this.ident(n.provider)})`);
    return `${pkg}.New${res}(ctx, ${name}, ${[args, ...opts].join(", ")})`;
  }

  /**
   * A repeated resource as `pulumi convert` writes one in Go: a counting loop appending to a slice (`key0`, `val0`
   * both the index), or a range over a map (`key0`, `val0`) or a slice of keys (`key0` both) filling a map by key;
   * each instance named `<name>-<index or key>`. The loop's body is a scope of its own, statements and `err` included.
   */
  private repeated(n: ResourceNode, loop: Loop): void {
    const cls = `${this.pkg(n.entity.pkg, tokenModule(n.entity.token))}.${exportedName(tokenName(n.entity.token))}`;
    const source = loop.kind === "count" ? loop.count : loop.items;
    if (holdsOutput(source)) {
      throw new ConversionError(`${n.name}: ${loop.kind === "count" ? "a count" : "for_each over values"} known only after deployment cannot drive a Go loop`);
    }
    const header = loop.kind === "count" ? this.countBound(n, loop.count) : this.forEachItems(loop.items);
    const scope: LoopScope = { kind: loop.kind === "count" ? "count" : loop.items.kind === "list" ? "list" : "map", valueUsed: false };
    const outer = { body: this.body, errDeclared: this.errDeclared, loop: this.loop };
    this.body = [];
    this.errDeclared = false;
    this.loop = scope;
    this.std.add("fmt");
    const call = this.newResource(n, `fmt.Sprintf(${goString(`${n.name.replaceAll("%", "%%")}-%v`)}, key0)`);
    const used = this.used.has(n.variable);
    const id = this.ident(n.variable);
    // The arguments may have declared err in the loop's scope already (json.Marshal).
    this.statement(`${used ? "__res" : "_"}, err ${used || !this.hasErr() ? ":=" : "="} ${call}`);
    this.statement("if err != nil {\n\treturn err\n}");
    if (used) this.statement(scope.kind === "count" ? `${id} = append(${id}, __res)` : `${id}[key0] = __res`);
    const inner = this.body;
    this.body = outer.body;
    this.errDeclared = outer.errDeclared;
    this.loop = outer.loop;

    let head: string;
    const prelude: string[] = [];
    if (scope.kind === "count") {
      head = `for index := 0; index < ${header}; index++ {`;
      prelude.push("key0 := index");
      if (scope.valueUsed) prelude.push("val0 := index");
    } else head = `for ${scope.kind === "list" ? "_, key0" : scope.valueUsed ? "key0, val0" : "key0"} := range ${header} {`;
    if (used) this.statement(scope.kind === "count" ? `var ${id} []*${cls}` : `${id} := map[string]*${cls}{}`);
    this.statement([head, ...[...prelude, ...inner].map((l) => indent(l)), "}"].join("\n"));
  }

  private hasErr(): boolean {
    return this.errDeclared;
  }

  /** A count as the bound of a Go `for`: a whole number as it is, a number from configuration through `int(...)`. */
  private countBound(n: ResourceNode, count: Value): string {
    const p = count.kind === "number" || count.kind === "string" ? (literal(count, { kind: "number" }) ?? this.plain(count)) : this.plain(count);
    if (p.type === "float64" && /^[0-9]+$/.test(p.code)) return p.code;
    if (p.type === "float64") return `int(${p.code})`;
    throw new ConversionError(`${n.name}: a count that is not a number cannot drive a Go loop`);
  }

  /** The keys a for_each ranges over: `[]string{...}`, or a map typed by its values when they share one. */
  private forEachItems(items: Value): string {
    if (items.kind === "list") return composite("[]string", items.items.map((i) => ({ value: this.plain(i).code })), true);
    if (items.kind !== "map") return this.plain(items).code;
    const entries = items.entries.map((e) => ({ key: goString(e.key), plain: this.plain(e.value) }));
    const types = new Set(entries.map((e) => e.plain.type));
    const only = types.size === 1 ? [...types][0]! : "any";
    // An untyped constant in an interface{} would be an int, which each.value's float64 assertion would not match.
    const code = (e: (typeof entries)[number]): string => (only === "any" && e.plain.type === "float64" && /^-?[0-9.]+$/.test(e.plain.code) ? `float64(${e.plain.code})` : e.plain.code);
    return composite(`map[string]${only === "any" ? "interface{}" : only}`, entries.map((e) => ({ key: e.key, value: code(e) })), true);
  }

  /** `count.index`, `each.key`, `each.value` as the loop's variables name them. */
  private loopValue(v: Extract<Value, { kind: "loop" }>): Plain {
    const scope = this.loop;
    if (scope === undefined) throw new ConversionError(`${v.part === "index" ? "count.index" : `each.${v.part}`} outside a repeated resource`);
    if (v.part === "key") return { code: "key0", type: "string" };
    if (scope.kind === "list") return { code: "key0", type: "string" };
    scope.valueUsed = true;
    if (scope.kind === "count") return { code: "val0", type: "int" };
    const t = v.type?.kind;
    return { code: "val0", type: t === "string" ? "string" : t === "number" ? "float64" : t === "boolean" ? "bool" : "any" };
  }

  private provider(n: ProviderNode): void {
    const pkg = this.pkg(n.pkg, "index");
    const args = this.topArgs(n.args, n.properties.length > 0 ? n.properties : undefined, `&${pkg}.ProviderArgs`, "Provider", "config", false, true);
    this.withErr(n.variable, `${pkg}.NewProvider(ctx, ${goString(n.name)}, ${args})`);
  }

  private invoke(n: InvokeNode): void {
    const pkg = this.pkg(n.entity.pkg, tokenModule(n.entity.token));
    const fn = goFunctionName(tokenName(n.entity.token), this.resourceNames.get(`${n.entity.pkg}:${tokenModule(n.entity.token)}`) ?? new Set());
    const args: string[] = [];
    if (n.role === "function" && n.function !== undefined) {
      for (const p of n.function.parameters) {
        const given = n.args.properties.find((a) => a.name === p.name);
        args.push(given === undefined ? "nil" : this.input(given.value, { type: p.type, ptr: !p.required, dataSource: false }));
      }
    } else {
      const inputs = n.entity.properties.filter((p) => p.input);
      if (inputs.length > 0 || n.entity.foreign) {
        const props = n.entity.foreign ? undefined : n.entity.properties;
        args.push(this.topArgs(n.args, props, `${pkg}.${fn}OutputArgs`, undefined, "input", n.role === "dataSource", false));
      }
    }
    if (n.provider !== undefined) args.push(`pulumi.Provider(${this.ident(n.provider)})`);
    const lhs = this.used.has(n.variable) ? `${this.ident(n.variable)} :=` : "_ =";
    this.statement(`${lhs} ${pkg}.${fn}Output(${["ctx", ...args].join(", ")})`);
  }

  /**
   * A resource's, provider's or invoke's arguments: a struct of its properties (`nil` for a resource given none).
   * `rule` is how the schema marks them required: a property optional there is a pointer field.
   */
  private topArgs(
    args: ObjectValue,
    properties: readonly PropertyModel[] | undefined,
    type: string,
    resourceName: string | undefined,
    rule: "input" | "config",
    dataSource: boolean,
    nilWhenEmpty: boolean,
  ): string {
    const fields = args.properties.filter((p) => p.value.kind !== "null");
    if (fields.length === 0 && nilWhenEmpty) return "nil";
    const entries = fields.map((f) => {
      const p = properties?.find((q) => q.name === f.name);
      const required = p === undefined ? properties === undefined : rule === "config" ? p.required : requiredIn("input", p);
      const slot: Slot = { type: p?.type ?? f.value.type, ptr: !required, dataSource };
      return { key: goFieldName(f.name, resourceName), value: this.input(f.value, slot) };
    });
    return composite(type, entries, false);
  }

  // ---- values as Inputs ----

  /** A value as the Input its slot takes. */
  private input(v: Value, slot: Slot): string {
    const t = slot.type?.kind === "any" ? undefined : slot.type;
    switch (v.kind) {
      case "loop":
        return this.scalar(this.loopValue(v), t);
      case "null":
        return "nil";
      case "string":
      case "number":
      case "bool":
        return this.scalar(literal(v, t) ?? this.plain(v), t);
      case "config":
        return this.scalar(this.plain(v), t);
      case "template":
      case "call":
        return this.stringValue(v, t);
      case "ref":
        return fit(this.refShape(v), slot);
      case "list": {
        const items: TypeModel | undefined = t?.kind === "array" ? t.items : undefined;
        const name = t?.kind === "array" ? this.collectionType(t) : "pulumi.Array";
        return composite(name, v.items.map((i) => ({ value: this.input(i, { type: items, ptr: false, dataSource: slot.dataSource }) })), true);
      }
      case "map": {
        const values: TypeModel | undefined = t?.kind === "map" ? t.values : undefined;
        const name = t?.kind === "map" ? this.collectionType(t) : "pulumi.Map";
        const entries = v.entries.map((e) => ({ key: goString(e.key), value: this.input(e.value, { type: values, ptr: false, dataSource: slot.dataSource }) }));
        return composite(name, entries, true);
      }
      case "object":
        return this.object(v, slot);
    }
  }

  /** A plain value wrapped as the Input of the slot's scalar type (or the value's own where the slot says none). */
  private scalar(p: Plain, t: TypeModel | undefined): string {
    const want = t?.kind === "string" ? "string" : t?.kind === "number" ? "float64" : t?.kind === "boolean" ? "bool" : p.type;
    // A loop's index is an int, and a value of a map of mixed values an interface{}: converted, or asserted.
    const code = p.type === want ? p.code : p.type === "int" ? `${want}(${p.code})` : p.type === "any" ? `${p.code}.(${want})` : p.code;
    if (want === "string") return `pulumi.String(${this.asString(p)})`;
    if (want === "float64") return `pulumi.Float64(${code})`;
    if (want === "bool") return `pulumi.Bool(${code})`;
    if (want === "int") return `pulumi.Int(${p.code})`;
    return p.code === "nil" ? "nil" : `pulumi.Any(${p.code})`;
  }

  /** A template or builtin call: a string, plain when nothing in it is an Output. */
  private stringValue(v: Value, t: TypeModel | undefined): string {
    if (v.kind === "call" && v.fn === "jsondecode") return `pulumi.JSONUnmarshal(${this.stringInput(v.args[0])})`;
    if (!hasOutputs(v)) return this.scalar(this.plain(v), t?.kind === "string" || t === undefined ? { kind: "string" } : t);
    if (v.kind === "template") return this.sprintf(v.parts, "pulumi.Sprintf");
    if (v.kind !== "call") return this.input(v, { type: t, ptr: false, dataSource: false });
    const arg = v.args[0];
    switch (v.fn) {
      case "jsonencode":
        return `pulumi.JSONMarshal(${arg === undefined ? "nil" : this.input(arg, UNTYPED)})`;
      case "trimspace":
        this.std.add("strings");
        return `${this.stringOutput(arg)}.ApplyT(strings.TrimSpace).(pulumi.StringOutput)`;
      case "file":
        this.readFile = true;
        return `${this.stringOutput(arg)}.ApplyT(readFileOrPanic).(pulumi.StringOutput)`;
      default:
        return "nil";
    }
  }

  /** A string value as a StringInput. */
  private stringInput(v: Value | undefined): string {
    if (v === undefined) return `pulumi.String("")`;
    return hasOutputs(v) ? this.stringOutput(v) : `pulumi.String(${this.asString(this.plain(v))})`;
  }

  /** A string value with Outputs in it as a StringOutput (ApplyT needs the exact element type). */
  private stringOutput(v: Value | undefined): string {
    if (v?.kind !== "ref") return v === undefined ? `pulumi.String("").ToStringOutput()` : this.stringValue(v, { kind: "string" });
    const s = this.refShape(v);
    if (s.kind === "id") return `${s.code}.ToStringOutput()`;
    if (s.kind === "number" || s.kind === "bool") return `pulumi.Sprintf("%v", ${deref(s)})`;
    return deref(s);
  }

  /** `pulumi.Sprintf` (Outputs inside) or `fmt.Sprintf` (plain values) over a template's parts. */
  private sprintf(parts: readonly (string | Value)[], fn: "pulumi.Sprintf" | "fmt.Sprintf"): string {
    let format = "";
    const args: string[] = [];
    for (const part of parts) {
      if (typeof part === "string") format += part.replaceAll("%", "%%");
      else if (part.kind === "string") format += part.value.replaceAll("%", "%%");
      else {
        format += "%v";
        args.push(part.kind === "ref" ? deref(this.refShape(part)) : hasOutputs(part) ? this.stringValue(part, { kind: "string" }) : this.plain(part).code);
      }
    }
    if (fn === "fmt.Sprintf") this.std.add("fmt");
    return `${fn}(${[goString(format), ...args].join(", ")})`;
  }

  private asString(p: Plain): string {
    if (p.type === "string") return p.code;
    this.std.add("fmt");
    return `fmt.Sprint(${p.code})`;
  }

  private object(v: ObjectValue, slot: Slot): string {
    const obj = v.objectType;
    if (obj === undefined) {
      const entries = v.properties.filter((p) => p.value.kind !== "null").map((p) => ({ key: goString(p.name), value: this.input(p.value, UNTYPED) }));
      return composite("pulumi.Map", entries, false);
    }
    const rule = slot.dataSource ? "output" : "input";
    const entries = v.properties
      .filter((p) => p.value.kind !== "null")
      .map((f) => {
        const p = obj.properties.find((q) => q.name === f.name);
        const fieldSlot: Slot = { type: p?.type ?? f.value.type, ptr: p === undefined || !requiredIn(rule, p), dataSource: slot.dataSource };
        return { key: goFieldName(f.name), value: this.input(f.value, fieldSlot) };
      });
    return composite(`&${this.objectTypeName(obj.token)}Args`, entries, false);
  }

  private objectTypeName(token: string): string {
    return `${this.pkg(token.split(":")[0] ?? "", tokenModule(token))}.${exportedName(tokenName(token))}`;
  }

  /** The Input collection type of an array or map: `pulumi.StringArray`, `tls.SelfSignedCertSubjectArray`, `pulumi.Map`. */
  private collectionType(t: TypeModel): string {
    const suffixes: string[] = [];
    let inner = t;
    while (inner.kind === "array" || inner.kind === "map") {
      suffixes.unshift(inner.kind === "array" ? "Array" : "Map");
      inner = inner.kind === "array" ? inner.items : inner.values;
    }
    const base =
      inner.kind === "object" ? this.objectTypeName(inner.ref.token) : `pulumi.${inner.kind === "string" ? "String" : inner.kind === "number" ? "Float64" : inner.kind === "boolean" ? "Bool" : ""}`;
    return base + suffixes.join("");
  }

  // ---- plain values ----

  /** A value without Outputs as a plain Go value. */
  private plain(v: Value): Plain {
    switch (v.kind) {
      case "loop":
        return this.loopValue(v);
      case "string":
        return { code: goString(v.value), type: "string" };
      case "number":
        return { code: goNumber(v.value), type: "float64" };
      case "bool":
        return { code: String(v.value), type: "bool" };
      case "null":
        return { code: "nil", type: "any" };
      case "config": {
        const c = this.program.config.find((x) => x.variable === v.variable);
        return { code: this.ident(v.variable), type: c?.type === "number" ? "float64" : c?.type === "boolean" ? "bool" : "string" };
      }
      case "template":
        return { code: this.sprintf(v.parts, "fmt.Sprintf"), type: "string" };
      case "call":
        return this.plainCall(v.fn, v.args[0]);
      case "list":
        return { code: composite("[]interface{}", v.items.map((i) => ({ value: this.plain(i).code })), true), type: "any" };
      case "map":
        return { code: composite("map[string]interface{}", v.entries.map((e) => ({ key: goString(e.key), value: this.plain(e.value).code })), true), type: "any" };
      case "object":
        return { code: composite("map[string]interface{}", v.properties.map((p) => ({ key: goString(p.tfName), value: this.plain(p.value).code })), true), type: "any" };
      case "ref":
        return { code: "nil", type: "any" };
    }
  }

  private plainCall(fn: string, arg: Value | undefined): Plain {
    const a = arg === undefined ? { code: '""', type: "string" as const } : this.plain(arg);
    switch (fn) {
      case "file":
        this.readFile = true;
        return { code: `readFileOrPanic(${this.asString(a)})`, type: "string" };
      case "trimspace":
        this.std.add("strings");
        return { code: `strings.TrimSpace(${this.asString(a)})`, type: "string" };
      case "jsonencode": {
        this.std.add("encoding/json");
        const name = this.tmpName("tmpJSON");
        this.errDeclared = true;
        this.statement(`${name}, err := json.Marshal(${a.code})`);
        this.statement("if err != nil {\n\treturn err\n}");
        return { code: `string(${name})`, type: "string" };
      }
      default:
        return { code: "nil", type: "any" };
    }
  }

  private tmpName(prefix: string): string {
    let name = `${prefix}${this.tmp++}`;
    while (this.taken.has(name)) name = `${prefix}${this.tmp++}`;
    this.taken.add(name);
    return name;
  }

  // ---- references ----

  /**
   * A reference as the Output Go reads it: a resource's field (`key.PrivateKeyPem`, `pet.ID()`), an invoke result's
   * accessor (`pub.Algorithm()`), then accessors, `.Index(...)` and `.MapIndex(...)`; whether it is a pointer follows
   * the `required` lists our schemas give (see render.ts): outputs by the output rule at the top level and in data
   * sources' types, inputs' rule in the other object types.
   */
  private refShape(ref: Extract<Value, { kind: "ref" }>): OutputShape {
    const node = this.nodes.get(ref.node);
    let code = this.ident(ref.node);
    let type: TypeModel | undefined;
    let props: readonly PropertyModel[] | undefined;
    let rule: "input" | "output" = "output";
    let nested: "input" | "output" = "input";
    let field = false;
    let resourceName: string | undefined;
    let ptr = false;
    if (node?.kind === "resource") {
      props = node.entity.foreign ? undefined : node.entity.properties;
      field = true;
      resourceName = exportedName(tokenName(node.entity.token));
    } else if (node?.kind === "invoke" && node.role === "function" && node.function !== undefined) {
      type = node.function.returnType;
      props = type.kind === "object" ? type.ref.properties : undefined;
      rule = "input";
    } else if (node?.kind === "invoke") {
      props = node.entity.foreign ? undefined : node.entity.properties;
      nested = node.role === "dataSource" ? "output" : "input";
    } else if (node?.kind === "provider") {
      props = node.properties;
      field = true;
      resourceName = "Provider";
    }
    const foreign = props === undefined && type === undefined;
    let kind: OutputShape["kind"] = "other";
    let path = ref.path;
    const instance = path[0];
    // An instance of a repeated resource: an element of the program's plain slice or map of them.
    if (node?.kind === "resource" && node.loop !== undefined && instance !== undefined && instance.kind !== "property") {
      code += instance.kind === "index" ? `[${instance.index}]` : `[${goString(instance.key)}]`;
      path = path.slice(1);
    }
    for (const [i, step] of path.entries()) {
      if (step.kind === "property") {
        if (i === 0 && node?.kind === "resource" && step.name === "id") {
          code += ".ID()";
          kind = "id";
          type = { kind: "string" };
          continue;
        }
        const p = props?.find((q) => q.name === step.name);
        const name = goFieldName(step.name, i === 0 ? resourceName : undefined);
        code += i === 0 && field ? `.${name}` : `.${name}()`;
        type = p?.type;
        ptr = type !== undefined && pointerable(type) && (ptr || (p !== undefined && !requiredIn(rule, p)));
        rule = nested;
      } else if (step.kind === "index") {
        code += `.Index(pulumi.Int(${step.index}))`;
        type = type?.kind === "array" ? type.items : undefined;
        ptr = false;
      } else {
        code += `.MapIndex(pulumi.String(${goString(step.key)}))`;
        type = type?.kind === "map" ? type.values : undefined;
        ptr = false;
      }
      kind = "other";
      props = type?.kind === "object" ? type.ref.properties : undefined;
    }
    if (kind !== "id" && !foreign && type !== undefined) kind = type.kind === "string" ? "string" : type.kind === "number" ? "number" : type.kind === "boolean" ? "bool" : "other";
    return { code, kind, ptr };
  }
}

/** Fits a reference's Output to a slot: `.Elem()` where a required field takes an optional value, numbers in strings. */
function fit(s: OutputShape, slot: Slot): string {
  const t = slot.type;
  if (t === undefined || t.kind === "any") return s.code;
  if (t.kind === "string") {
    if (s.kind === "number" || s.kind === "bool") return `pulumi.Sprintf("%v", ${deref(s)})`;
    if (s.kind === "id") return slot.ptr ? `${s.code}.ToStringOutput()` : s.code;
  }
  return s.ptr && !slot.ptr && pointerable(t) ? `${s.code}.Elem()` : s.code;
}

/** A literal converted as Terraform converts it to the scalar type a position takes (`3` where a string goes: `"3"`). */
function literal(v: Extract<Value, { kind: "string" | "number" | "bool" }>, t: TypeModel | undefined): Plain | undefined {
  if (t?.kind === "string" && v.kind !== "string") return { code: goString(String(v.value)), type: "string" };
  if (t?.kind === "number" && v.kind === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(v.value)) return { code: v.value, type: "float64" };
  if (t?.kind === "boolean" && v.kind === "string" && (v.value === "true" || v.value === "false")) return { code: v.value, type: "bool" };
  return undefined;
}

function deref(s: OutputShape): string {
  return s.ptr ? `${s.code}.Elem()` : s.code;
}

/** Scalars and objects have pointer (optional) forms in Go SDKs; arrays and maps are nil instead. */
function pointerable(t: TypeModel): boolean {
  return t.kind === "string" || t.kind === "number" || t.kind === "boolean" || t.kind === "object";
}

function hasOutputs(v: Value): boolean {
  let found = false;
  walk(v, (x) => {
    if (x.kind === "ref" || (x.kind === "call" && x.fn === "jsondecode")) found = true;
  });
  return found;
}

/** Calls `f` on a value and every value inside it. */
function walk(v: Value, f: (v: Value) => void): void {
  f(v);
  switch (v.kind) {
    case "list":
      for (const i of v.items) walk(i, f);
      break;
    case "map":
      for (const e of v.entries) walk(e.value, f);
      break;
    case "object":
      for (const p of v.properties) walk(p.value, f);
      break;
    case "template":
      for (const p of v.parts) if (typeof p !== "string") walk(p, f);
      break;
    case "call":
      for (const a of v.args) walk(a, f);
      break;
    default:
  }
}

// ---- Go source text ----

/** A Go string literal: a raw string for multi-line text it can hold, else an interpreted one. */
export function goString(s: string): string {
  if (s.includes("\n") && !/[`\r\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/.test(s)) return "`" + s.split("\n").join(`\n${RAW}`) + "`";
  return JSON.stringify(s).replace(/[\u2028\u2029\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function goNumber(n: number): string {
  return String(n);
}

/** Indents every line but the continuation lines of raw strings. */
function indent(code: string, tabs = 1): string {
  return code
    .split("\n")
    .map((l) => (l === "" || l.startsWith(RAW) ? l : "\t".repeat(tabs) + l))
    .join("\n");
}

interface Element {
  key?: string;
  value: string;
}

/**
 * A composite literal: on one line when `inline` allows and it is short, else one element a line with gofmt's key
 * alignment.
 */
function composite(type: string, elements: readonly Element[], inline: boolean): string {
  if (elements.length === 0) return `${type}{}`;
  const flat = elements.map((e) => (e.key !== undefined ? `${e.key}: ${e.value}` : e.value));
  const oneLine = `${type}{${flat.join(", ")}}`;
  if (inline && !oneLine.includes("\n") && oneLine.length <= 80) return oneLine;
  return `${type}{\n${alignKeys(elements).map((l) => indent(`${l},`)).join("\n")}\n}`;
}

/**
 * Key-value lines padded as gofmt pads them (go/printer's exprList): consecutive entries that fit on one line align
 * their values in a section, which a multi-line entry ends, as does a key whose size is far (2.5 times) from the
 * geometric mean of the section's keys when either key is over 40 bytes.
 */
function alignKeys(elements: readonly Element[]): string[] {
  const sections: number[][] = [];
  let size = 0;
  let lnsum = 0;
  let count = 0;
  elements.forEach((e, i) => {
    const prevSize = size;
    size = e.key !== undefined && !e.value.includes("\n") ? Buffer.byteLength(e.key) : e.value.includes("\n") ? 0 : 1;
    let useFF = true;
    if (prevSize > 0 && size > 0) {
      if (count === 0 || (prevSize <= 40 && size <= 40)) useFF = false;
      else {
        const ratio = size / Math.exp(lnsum / count);
        useFF = 2.5 * ratio <= 1 || 2.5 <= ratio;
      }
    }
    if (i === 0 || useFF) {
      sections.push([i]);
      lnsum = 0;
      count = 0;
    } else sections[sections.length - 1]!.push(i);
    if (size > 0) {
      lnsum += Math.log(size);
      count++;
    }
  });
  const lines: string[] = [];
  for (const section of sections) {
    const keyed = section.filter((i) => elements[i]!.key !== undefined && !elements[i]!.value.includes("\n"));
    const width = Math.max(0, ...keyed.map((i) => [...elements[i]!.key!].length + 1));
    for (const i of section) {
      const e = elements[i]!;
      if (e.key === undefined) lines.push(e.value);
      else if (elements.length > 1 && keyed.includes(i)) lines.push(`${`${e.key}:`.padEnd(width)} ${e.value}`);
      else lines.push(`${e.key}: ${e.value}`);
    }
  }
  return lines;
}
