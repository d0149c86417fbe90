// Renders a bound example Program as the Java program Pulumi's Java generator writes (package `generated_program`, a
// class App whose `stack` method declares every node), spelled as `pulumi package gen-sdk --language java` SDKs spell it.
import type { PropertyModel, TypeModel } from "../model.js";
import { javaPackage, javaPropertyName, lowerFirst, requiredIn, singularize, tokenModule, tokenName } from "../names.js";
import { claimName, ConversionError, holdsOutput, type Builtin, type ConfigVariable, type InvokeNode, type Loop, type ObjectValue, type PathStep, type Program, type ProgramNode, type ResourceNode, type Value } from "./program.js";

const INDENT = "    ";
/** Past this many characters, a call's arguments go one per line. */
const WIDTH = 80;
/** Output.tuple's largest arity: more Outputs in one value than this are not combined. */
const MAX_TUPLE = 8;

/**
 * Simple names never imported: java.lang's, which an import would shadow (`String` in `main`, `Integer` in random's
 * SDK), and the program's own class.
 */
const NEVER_IMPORTED = new Set([
  "App", "Boolean", "Byte", "Character", "Class", "Double", "Enum", "Error", "Exception", "Float", "Integer", "Iterable",
  "Long", "Math", "Module", "Number", "Object", "Override", "Package", "Process", "Record", "Runtime", "Short", "String",
  "StringBuilder", "System", "Thread", "Throwable", "Void",
]);

/** Names the program itself declares or that begin fully qualified names, which no program variable may take. */
const PROGRAM_NAMES = ["config", "ctx", "args", "com", "java"];

/** Where a class reference sits in the code until the imports are known: `\u0001com.pulumi.random.Password\u0002`. */
const CLASS_REF = /\u0001([^\u0002]*)\u0002/g;

/**
 * A rendered expression: plain Java, or an Output with what `applyValue` still does to its value (kept apart so that
 * a reference's steps, an Optional's unwrapping and a conversion share one lambda).
 */
interface Expr {
  code: string;
  output: boolean;
  /** For an Output: the lambda body applied to its value, given the parameter's name. */
  then?: (param: string) => string;
  /** The lambda parameter's name before it is made unique: `r` for a result, `l` a list, `m` a map, `v` otherwise. */
  param?: string;
  /** The value's schema type, when known. */
  type?: TypeModel;
  /** A java.util.Optional (an optional property the SDK's getter wraps). */
  optional: boolean;
}

/** Outputs a plain Java expression needs the values of: combined into one Output whose lambda gets them. */
interface Lift {
  outputs: Expr[];
  /** The lambda parameter for one Output, and for an Output.tuple of several. */
  one: string;
  tuple: string;
  id: number;
  /** How many lambdas were open when it began: the Outputs it combines are written outside its own lambda. */
  outer: number;
}

/** How Pulumi's Java SDK getters wrap a nested type's properties: by the input or the output `required` rule. */
type Rule = "input" | "output";

const plain = (code: string, type?: TypeModel): Expr => ({ code, output: false, optional: false, ...(type !== undefined ? { type } : {}) });

/** A Java string literal: escapes for quotes, backslashes and control characters; other characters as they are. */
export function javaString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A string literal, or for text of several lines one literal per line joined with `+` (Java 11 has no text blocks). */
function stringLiteral(s: string): string {
  const lines = s.split(/(?<=\n)/);
  if (lines.length <= 2 && s.length <= WIDTH) return javaString(s);
  return lines.map(javaString).join(` +\n${INDENT}`);
}

/** A Terraform number as a Java double (`16.0`), which every Terraform number is in Pulumi's Java SDKs. */
export function javaDouble(n: number): string {
  if (Object.is(n, -0)) return "0.0";
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  return String(n);
}

/** Continuation lines moved right by `indent`: code is rendered as if it started at column 0. */
function shift(code: string, indent: string): string {
  return code.replace(/\n/g, `\n${indent}`);
}

/** How wide code reads: class references by their simple names, as most are imported. */
function width(code: string): number {
  return code.replace(CLASS_REF, (_, fqn: string) => fqn.slice(fqn.lastIndexOf(".") + 1)).length;
}

/** A call's arguments: on one line when they fit, else one per line, the closing parenthesis after the last. */
function argList(items: readonly string[]): string {
  const inline = items.join(", ");
  if (!inline.includes("\n") && (width(inline) <= WIDTH || items.length === 1)) return `(${inline})`;
  // One multi-line argument last (a builder) stays on the call's line, as Pulumi writes `new X("x", XArgs.builder()`.
  const last = items[items.length - 1] ?? "";
  const head = items.slice(0, -1).join(", ");
  if (!head.includes("\n") && width(head) <= WIDTH / 2 && last.includes("\n") && (items.length === 1 || !last.startsWith("\n"))) return `(${items.join(", ")})`;
  return `(\n${items.map((i) => INDENT + shift(i, INDENT)).join(",\n")})`;
}

const upperFirst = (s: string): string => (s === "" ? s : s[0]!.toUpperCase() + s.slice(1));

/** Whether a value holds an Output that plain Java around it would need the value of (objects take Outputs as they are). */
function lifts(v: Value, throughObjects = false): boolean {
  switch (v.kind) {
    case "ref":
      return true;
    case "list":
      return v.items.some((i) => lifts(i, throughObjects));
    case "map":
      return v.entries.some((e) => lifts(e.value, throughObjects));
    case "object":
      return throughObjects && v.properties.some((p) => lifts(p.value, true));
    case "template":
      return v.parts.some((p) => typeof p !== "string" && lifts(p, throughObjects));
    case "call":
      return v.args.some((a) => lifts(a, true));
    default:
      return false;
  }
}

const isCollection = (t: TypeModel | undefined): boolean => t?.kind === "array" || t?.kind === "map";

/** Inside a repeated resource: what its index (an int), key and value read as in Java, and whether the index was read. */
interface LoopScope {
  index?: string;
  key?: string;
  value?: string;
  /** The type the elements have (a loop Value's type is where it goes, when known, not what it is). */
  valueType?: TypeModel;
  indexRead: boolean;
}

/**
 * The type of a for_each's elements: a list's keys are strings, a map's values share their literals' type, and values
 * of several types are strings, as Terraform converts such an object to a map of strings.
 */
function elementType(items: Value): TypeModel {
  if (items.kind !== "map") return { kind: "string" };
  const kinds = new Set(items.entries.map((e) => e.value.kind));
  const only = kinds.size === 1 ? [...kinds][0] : undefined;
  return only === "number" ? { kind: "number" } : only === "bool" ? { kind: "boolean" } : { kind: "string" };
}

class JavaRenderer {
  private readonly nodes = new Map<string, ProgramNode>();
  private readonly config = new Map<string, ConfigVariable>();
  /** Program variable → its Java name. */
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>(PROGRAM_NAMES);
  /** Lambda parameters of the lambdas being written, which nested ones may not reuse. */
  private readonly open: string[] = [];
  private lifts = 0;
  private usesJson = false;
  private usesReadFile = false;
  private loop: LoopScope | undefined;

  constructor(private readonly program: Program) {
    const claim = (variable: string): void => {
      this.names.set(variable, claimName(this.taken, variable));
    };
    for (const c of program.config) {
      this.config.set(c.variable, c);
      claim(c.variable);
    }
    for (const n of program.nodes) {
      this.nodes.set(n.variable, n);
      claim(n.variable);
    }
  }

  render(): string {
    const body: string[] = [];
    if (this.program.config.length > 0) body.push(["final var config = ctx.config();", ...this.program.config.map((c) => this.configVariable(c))].join("\n"));
    for (const n of this.program.nodes) body.push(this.node(n));
    if (this.program.outputs.length > 0) body.push(this.program.outputs.map((o) => `ctx.export(${javaString(o.name)}, ${this.finish(this.any(o.value, undefined, false))});`).join("\n"));
    const pad = INDENT.repeat(2);
    const stack = body.map((s) => pad + shift(s, pad)).join("\n\n");
    const helper = this.usesReadFile
      ? `\n\n${INDENT}private static String readFile(String path) {\n${pad}try {\n${pad}${INDENT}return ${this.cls("java.nio.file.Files")}.readString(${this.cls("java.nio.file.Paths")}.get(path));\n${pad}} catch (${this.cls("java.io.IOException")} e) {\n${pad}${INDENT}throw new ${this.cls("java.io.UncheckedIOException")}(e);\n${pad}}\n${INDENT}}`
      : "";
    const app = `public class App {\n${INDENT}public static void main(String[] args) {\n${pad}${this.cls("com.pulumi.Pulumi")}.run(App::stack);\n${INDENT}}\n\n${INDENT}public static void stack(${this.cls("com.pulumi.Context")} ctx) {\n${stack}${stack === "" ? "" : "\n"}${INDENT}}${helper}\n}\n`;
    return this.withImports(app);
  }

  /** Resolves class references: imported by simple name when that names one class only, else written in full. */
  private withImports(code: string): string {
    const used = new Set([...code.matchAll(CLASS_REF)].map((m) => m[1]!));
    // Pulumi's generator always imports Output, as a program being edited soon needs it.
    used.add("com.pulumi.core.Output");
    const bySimple = new Map<string, string[]>();
    for (const fqn of used) {
      const simple = fqn.slice(fqn.lastIndexOf(".") + 1);
      bySimple.set(simple, [...(bySimple.get(simple) ?? []), fqn]);
    }
    const imported = new Set([...used].filter((fqn) => {
      const simple = fqn.slice(fqn.lastIndexOf(".") + 1);
      return !NEVER_IMPORTED.has(simple) && bySimple.get(simple)!.length === 1;
    }));
    const first = ["com.pulumi.Context", "com.pulumi.Pulumi", "com.pulumi.core.Output"].filter((f) => imported.has(f));
    const rest = [...imported].filter((f) => !first.includes(f)).sort((a, b) => {
      const rank = (s: string): number => (s.startsWith("java.") ? 1 : 0);
      return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
    });
    const lines = [...first, ...rest].map((f) => `import ${f};`);
    if (this.usesJson) lines.push("import static com.pulumi.codegen.internal.Serialization.*;");
    const resolved = code.replace(CLASS_REF, (_, fqn: string) => (imported.has(fqn) ? fqn.slice(fqn.lastIndexOf(".") + 1) : fqn));
    return `package generated_program;\n\n${lines.join("\n")}\n\n${resolved}`;
  }

  /** A class by its fully qualified name, resolved to a simple name once every class used is known. */
  private cls(fqn: string): string {
    return `\u0001${fqn}\u0002`;
  }

  private name(variable: string): string {
    return this.names.get(variable) ?? variable;
  }

  /** A lambda parameter no variable and no enclosing lambda has. */
  private fresh(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name) || this.open.includes(name); n++) name = `${base}${n}`;
    return name;
  }

  // Nodes.

  private configVariable(c: ConfigVariable): string {
    const suffix = c.type === "number" ? "Double" : c.type === "boolean" ? "Boolean" : "";
    const key = javaString(c.name);
    const type: TypeModel = { kind: c.type };
    return c.default !== undefined
      ? `final var ${this.name(c.variable)} = config.get${suffix}(${key}).orElse(${this.literal(c.default, type)});`
      : `final var ${this.name(c.variable)} = config.require${suffix}(${key});`;
  }

  private node(n: ProgramNode): string {
    switch (n.kind) {
      case "provider":
        return `var ${this.name(n.variable)} = ${this.construct(javaString(n.name), `${javaPackage(n.pkg)}.Provider`, n.args, n.pkg, "Provider", [])};`;
      case "resource":
        return this.resource(n);
      case "invoke":
        return n.function !== undefined ? this.functionCall(n) : this.invoke(n);
    }
  }

  /** `<pkg>[.<module>]`: where an entity's classes live (modules other than `index` are subpackages). */
  private packageOf(pkg: string, token: string): string {
    return javaPackage(pkg, tokenModule(token));
  }

  private resource(n: ResourceNode): string {
    if (n.loop !== undefined) return this.repeated(n, n.loop);
    return `var ${this.name(n.variable)} = ${this.newResource(n, javaString(n.name))};`;
  }

  /** `new Class(name, ClassArgs.builder()…build(), options)` for a resource named by the Java expression `name`. */
  private newResource(n: ResourceNode, name: string): string {
    const cls = upperFirst(tokenName(n.entity.token));
    const options: string[] = [];
    const dependsOn = this.dependsOn(n.dependsOn.filter((d) => this.nodes.get(d)?.kind !== "invoke"));
    if (dependsOn !== undefined) options.push(`.dependsOn(${dependsOn})`);
    if (n.provider !== undefined) options.push(`.provider(${this.name(n.provider)})`);
    return this.construct(name, `${this.packageOf(n.entity.pkg, n.entity.token)}.${cls}`, n.args, n.entity.pkg, cls, options);
  }

  /**
   * `dependsOn`'s argument: the resources as varargs; a repeated one is a collection, which (its type not being
   * `List<Resource>`) is copied into one, or with others streamed into one.
   */
  private dependsOn(variables: readonly string[]): string | undefined {
    if (variables.length === 0) return undefined;
    const loopOf = (d: string): Loop["kind"] | undefined => {
      const node = this.nodes.get(d);
      return node?.kind === "resource" ? node.loop?.kind : undefined;
    };
    if (variables.every((d) => loopOf(d) === undefined)) return variables.map((d) => this.name(d)).join(", ");
    const Resource = this.cls("com.pulumi.resources.Resource");
    const collection = (d: string): string => (loopOf(d) === "forEach" ? `${this.name(d)}.values()` : loopOf(d) === "count" ? this.name(d) : `${this.cls("java.util.List")}.of(${this.name(d)})`);
    if (variables.length === 1) return `new ${this.cls("java.util.ArrayList")}<${Resource}>(${collection(variables[0]!)})`;
    const Collection = this.cls("java.util.Collection");
    return `${this.cls("java.util.stream.Stream")}.<${Collection}<? extends ${Resource}>>of(${variables.map(collection).join(", ")})\n${INDENT}${INDENT}${INDENT}.flatMap(${Collection}::stream)\n${INDENT}${INDENT}${INDENT}.collect(${this.cls("java.util.stream.Collectors")}.<${Resource}>toList())`;
  }

  /**
   * A repeated resource as a list filled in a counting loop, or a map filled per key (of a map's entries, or of a list
   * of strings), each instance named after its index or key. Lambdas may only read effectively final variables, so
   * when one reads the index, the loop copies it first.
   */
  private repeated(n: ResourceNode, loop: Loop): string {
    const variable = this.name(n.variable);
    const cls = this.cls(`${this.packageOf(n.entity.pkg, n.entity.token)}.${upperFirst(tokenName(n.entity.token))}`);
    if (loop.kind === "count") {
      if (holdsOutput(loop.count)) throw new ConversionError(`${n.name}: a count known only after deployment cannot drive a Java loop`);
      const count = loop.count.kind === "number" && Number.isInteger(loop.count.value) ? String(loop.count.value) : this.plain(loop.count, { kind: "number" }, this.bare());
      const i = this.fresh("i");
      const add = (scope: LoopScope): string => this.inLoop(scope, [i], () => `${variable}.add(${this.newResource(n, `${javaString(`${n.name}-`)} + ${scope.index!}`)});`);
      const direct: LoopScope = { index: i, indexRead: false };
      let body = add(direct);
      // Rendered again when a lambda may read the index: then of a copy.
      if (direct.indexRead && body.includes(" -> ")) {
        const copy = this.fresh("index");
        body = `final var ${copy} = ${i};\n${add({ index: copy, indexRead: false })}`;
      }
      return `final var ${variable} = new ${this.cls("java.util.ArrayList")}<${cls}>();\nfor (var ${i} = 0; ${i} < ${count}; ${i}++) {\n${INDENT}${shift(body, INDENT)}\n}`;
    }
    if (holdsOutput(loop.items)) throw new ConversionError(`${n.name}: for_each over values known only after deployment cannot drive a Java loop`);
    const items = loop.items;
    const element = this.fresh(items.kind === "list" ? "key" : "range");
    const valueType = elementType(items);
    const scope: LoopScope = items.kind === "list" ? { key: element, value: element, valueType, indexRead: false } : { key: `${element}.getKey()`, value: `${element}.getValue()`, valueType, indexRead: false };
    const source = items.kind === "list" ? this.plain(items, { kind: "array", items: valueType }, this.bare()) : `${this.plain(items, { kind: "map", values: valueType }, this.bare())}.entrySet()`;
    const body = this.inLoop(scope, [element], () => `${variable}.put(${scope.key!}, ${this.newResource(n, `${javaString(`${n.name}-`)} + ${scope.key!}`)});`);
    return `final var ${variable} = new ${this.cls("java.util.HashMap")}<String, ${cls}>();\nfor (final var ${element} : ${shift(source, INDENT)}) {\n${INDENT}${shift(body, INDENT)}\n}`;
  }

  /** Code rendered inside a loop: its variables known, and kept from the lambdas' parameters. */
  private inLoop(scope: LoopScope, variables: readonly string[], f: () => string): string {
    const open = this.open.length;
    this.open.push(...variables, ...(scope.index !== undefined ? [scope.index] : []));
    this.loop = scope;
    try {
      return f();
    } finally {
      this.loop = undefined;
      this.open.length = open;
    }
  }

  /** `new Class(name, ClassArgs.builder()…build(), CustomResourceOptions.builder()…build())` */
  private construct(name: string, fqn: string, args: ObjectValue, pkg: string, typeName: string, options: string[]): string {
    const parts = [name];
    const set = args.properties.filter((p) => p.value.kind !== "null");
    if (set.length > 0) parts.push(this.builder(`${fqn}Args`, args, pkg, typeName));
    else if (options.length > 0) parts.push(`${this.cls(`${fqn}Args`)}.Empty`);
    let call = `new ${this.cls(fqn)}(${parts.join(", ")}`;
    if (options.length > 0) {
      const lines = [...options, ".build()"].map((o) => `\n${INDENT}${INDENT}${o}`).join("");
      call += `, ${this.cls("com.pulumi.resources.CustomResourceOptions")}.builder()${lines}`;
    }
    return `${call})`;
  }

  /** A data source or ephemeral resource: `final var x = TlsFunctions.getCertificate(GetCertificateArgs.builder()…build());` */
  private invoke(n: InvokeNode): string {
    const where = this.packageOf(n.entity.pkg, n.entity.token);
    const fn = tokenName(n.entity.token);
    const args: string[] = [];
    const inputs = n.entity.properties.filter((p) => p.input);
    const argsClass = `${where}.inputs.${upperFirst(fn)}Args`;
    if (n.args.properties.some((p) => p.value.kind !== "null")) args.push(this.builder(argsClass, n.args, n.entity.pkg, upperFirst(fn)));
    else if (n.provider !== undefined) args.push(!n.entity.foreign && inputs.length === 0 ? `${this.cls("com.pulumi.resources.InvokeArgs")}.Empty` : `${this.cls(argsClass)}.Empty`);
    else if (inputs.some((p) => requiredIn("input", p))) args.push(`${this.cls(argsClass)}.builder().build()`);
    if (n.provider !== undefined) args.push(`${this.cls("com.pulumi.deployment.InvokeOptions")}.builder()\n${INDENT}.provider(${this.name(n.provider)})\n${INDENT}.build()`);
    return `final var ${this.name(n.variable)} = ${this.functionsClass(n.entity.pkg, n.entity.token)}.${lowerFirst(upperFirst(fn))}${argList(args)};`;
  }

  /** `TlsFunctions`, or for a module's functions `com.pulumi.random.ephemeral.EphemeralFunctions`. */
  private functionsClass(pkg: string, token: string): string {
    const module = tokenModule(token);
    const owner = module === "" || module === "index" ? pkg.replace(/-/g, "") : module;
    return this.cls(`${this.packageOf(pkg, token)}.${upperFirst(owner)}Functions`);
  }

  /**
   * A provider function: its parameters in the schema's order (absent ones `null`), each a plain value in the SDK's
   * signature, so Outputs among them are waited for first (`x.apply(v -> TimeFunctions.durationParse(v))`).
   */
  private functionCall(n: InvokeNode): string {
    const fn = n.function!;
    // pulumi-java's generator does not unwrap a single-value result (liftSingleValueMethodReturns): it types the method
    // `Output<Void>`, whose value no program can read.
    if (fn.returnType.kind !== "object") throw new ConversionError(`${fn.tfName} returns a ${fn.returnType.kind}, which Java SDKs type as Output<Void>`);
    const params = [...fn.parameters, ...(fn.variadic !== undefined ? [fn.variadic] : [])];
    const byName = new Map(n.args.properties.map((p) => [p.name, p.value]));
    const { code, scope } = this.scoped((scope) => {
      const args = params.map((p) => {
        const v = byName.get(p.name);
        return v === undefined || v.kind === "null" ? "null" : this.plain(v, p.type, scope);
      });
      return `${this.functionsClass(n.entity.pkg, n.entity.token)}.${lowerFirst(tokenName(n.entity.token))}${argList(args)}`;
    });
    return `final var ${this.name(n.variable)} = ${this.combine(scope, code, "apply")};`;
  }

  /** `ClassArgs.builder()`, a setter per property, `.build()`. */
  private builder(fqn: string, v: ObjectValue, pkg: string, typeName: string): string {
    const props = v.properties.filter((p) => p.value.kind !== "null");
    const lines = props.map((p) => {
      const known = v.objectType?.properties.find((q) => q.name === p.name);
      const target = p.value.type ?? known?.type;
      // Only another provider's objects use it, and their blocks are named in the plural, their types in the singular.
      const nested = `${typeName}${upperFirst(singularize(p.name))}`;
      return `\n${INDENT}.${javaPropertyName(p.name)}(${shift(this.setterArg(p.value, target, pkg, nested), INDENT)})`;
    });
    return `${this.cls(fqn)}.builder()${lines.join("")}\n${INDENT}.build()`;
  }

  /**
   * A builder setter's argument: setters take a value or an Output of it, and a list's items as varargs
   * (`.allowedUses("a", "b")`); a list of plain values with Outputs among them is `Output.all(...)`.
   */
  private setterArg(v: Value, target: TypeModel | undefined, pkg: string, typeName: string): string {
    if (v.kind !== "list" || v.items.length === 0) return this.finish(this.any(v, target, true, pkg, typeName));
    const itemType = target?.kind === "array" ? target.items : undefined;
    if (!lifts(v)) return argList(v.items.map((i) => this.plain(i, i.type ?? itemType, this.bare(), pkg, typeName))).slice(1, -1);
    const scalar = (i: Value): boolean => i.kind === "ref" || i.kind === "template" || i.kind === "config" || i.kind === "string" || i.kind === "number" || i.kind === "bool";
    if (v.items.every(scalar) && (itemType === undefined || ["string", "number", "boolean"].includes(itemType.kind))) {
      const items = v.items.map((i) => {
        const e = this.any(i, i.type ?? itemType, true, pkg, typeName);
        return e.output ? this.finish(e) : `${this.cls("com.pulumi.core.Output")}.of(${e.code})`;
      });
      return `${this.cls("com.pulumi.core.Output")}.all${argList(items)}`;
    }
    return this.finish(this.any(v, target, true, pkg, typeName));
  }

  // Values.

  /** A value as Java code that may be an Output, fitted to the type expected where it goes (unless `fit` is false). */
  private any(v: Value, target: TypeModel | undefined, fit: boolean, pkg = this.program.pkg, typeName = ""): Expr {
    switch (v.kind) {
      case "ref": {
        const e = this.ref(v.node, v.path);
        return fit ? this.fit(e, target) : e;
      }
      case "config":
        return this.fit(this.configExpr(v.variable), target);
      case "template":
        if (lifts(v)) return this.outputTemplate(v.parts, target);
        return this.fit(plain(this.plain(v, target, this.bare(), pkg, typeName), { kind: "string" }), target);
      case "list":
      case "map":
      case "call": {
        const { code, scope } = this.scoped((scope) => this.plain(v, target, scope, pkg, typeName));
        const type = v.kind === "call" ? this.callType(v.fn, target) : target;
        return scope.outputs.length === 0 ? this.fit(plain(code, type), target) : { code: this.combine(scope, code, "applyValue"), output: true, optional: false, ...(type !== undefined ? { type } : {}) };
      }
      case "object":
        return plain(this.object(v, pkg, typeName), target);
      case "loop":
        return this.loopValue(v.part, target);
      default:
        return plain(this.literal(v, target), target);
    }
  }

  private callType(fn: Builtin, target: TypeModel | undefined): TypeModel | undefined {
    return fn === "jsondecode" ? target : { kind: "string" };
  }

  /** `Output.format("web-%s", x.id())`: a template with Outputs in it. */
  private outputTemplate(parts: readonly (string | Value)[], target: TypeModel | undefined): Expr {
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only !== undefined && typeof only !== "string") return this.any(only, { kind: "string" }, true);
    let format = "";
    const args: string[] = [];
    for (const p of parts) {
      if (typeof p === "string") format += p.replace(/%/g, "%%");
      else {
        format += "%s";
        args.push(this.finish(this.any(p, undefined, true)));
      }
    }
    return this.fit({ code: `${this.cls("com.pulumi.core.Output")}.format${argList([stringLiteral(format), ...args])}`, output: true, optional: false, type: { kind: "string" } }, target);
  }

  /**
   * A value as plain Java: Outputs in it are handed to `scope`, which combines them around the code that uses them,
   * and stand for their values here.
   */
  private plain(v: Value, target: TypeModel | undefined, scope: Lift, pkg = this.program.pkg, typeName = ""): string {
    switch (v.kind) {
      case "loop":
        return this.loopValue(v.part, target).code;
      case "string":
      case "number":
      case "bool":
      case "null":
        return this.literal(v, target);
      case "config":
        return this.fit(this.configExpr(v.variable), target).code;
      case "ref":
        return this.hoist(scope, this.fit(this.ref(v.node, v.path), target));
      case "template": {
        const values = v.parts.filter((p): p is Value => typeof p !== "string");
        if (values.length === 0) return stringLiteral(v.parts.join(""));
        if (v.parts.length === 1) return this.plain(values[0]!, { kind: "string" }, scope, pkg, typeName);
        const format = v.parts.map((p) => (typeof p === "string" ? p.replace(/%/g, "%%") : "%s")).join("");
        return `String.format${argList([stringLiteral(format), ...values.map((p) => this.plain(p, undefined, scope, pkg, typeName))])}`;
      }
      case "object":
        return this.object(v, pkg, typeName);
      case "list": {
        const itemType = target?.kind === "array" ? target.items : undefined;
        const items = argList(v.items.map((i) => this.plain(i, i.type ?? itemType, scope, pkg, typeName)));
        // List.of refuses nulls.
        return v.items.some((i) => i.kind === "null") ? `${this.cls("java.util.Arrays")}.asList${items}` : `${this.cls("java.util.List")}.of${items}`;
      }
      case "map":
        return this.map(v.entries, target?.kind === "map" ? target.values : undefined, scope, pkg, typeName);
      case "call":
        return this.call(v.fn, v.args[0]!, target, scope);
    }
  }

  /** An object: its SDK's args class, or for another provider's (whose schema is unknown) the class the bridge would name. */
  private object(v: ObjectValue, pkg: string, typeName: string): string {
    if (v.objectType !== undefined) {
      const token = v.objectType.token;
      const owner = token.split(":")[0] ?? pkg;
      return this.builder(`${this.packageOf(owner, token)}.inputs.${upperFirst(tokenName(token))}Args`, v, owner, upperFirst(tokenName(token)));
    }
    return this.builder(`${javaPackage(pkg)}.inputs.${typeName}Args`, v, pkg, typeName);
  }

  /** `Map.of("k", v, …)`, or `Map.ofEntries(Map.entry(…), …)` past Map.of's ten pairs. */
  private map(entries: readonly { key: string; value: Value }[], valueType: TypeModel | undefined, scope: Lift, pkg: string, typeName: string): string {
    const Map = this.cls("java.util.Map");
    const pairs = entries.map((e) => [javaString(e.key), this.plain(e.value, e.value.type ?? valueType, scope, pkg, typeName)] as const);
    if (pairs.length > 10) return `${Map}.ofEntries${argList(pairs.map(([k, val]) => `${Map}.entry(${k}, ${val})`))}`;
    // A pair a line when they do not fit on one (argList would split a key from its value).
    const inline = pairs.map(([k, val]) => `${k}, ${val}`).join(", ");
    if (pairs.length === 1 || (!inline.includes("\n") && width(inline) <= WIDTH)) return `${Map}.of(${inline})`;
    return `${Map}.of(\n${pairs.map(([k, val]) => `${INDENT}${k}, ${shift(val, INDENT)}`).join(",\n")})`;
  }

  /** A literal, converted to the type expected where it goes, as Terraform converts it. */
  private literal(v: Value, target: TypeModel | undefined): string {
    switch (v.kind) {
      case "string":
        if (target?.kind === "number" && /^-?[0-9]+(\.[0-9]+)?$/.test(v.value)) return javaDouble(Number(v.value));
        if (target?.kind === "boolean" && (v.value === "true" || v.value === "false")) return v.value;
        return stringLiteral(v.value);
      case "number":
        return target?.kind === "string" ? javaString(String(v.value)) : javaDouble(v.value);
      case "bool":
        return target?.kind === "string" ? javaString(String(v.value)) : String(v.value);
      default:
        return "null";
    }
  }

  /**
   * `count.index` (an int: cast where a Double goes), `each.key` or `each.value`, converted to the type where it goes
   * (none in a template, where the int prints as it should).
   */
  private loopValue(part: "index" | "key" | "value", target: TypeModel | undefined): Expr {
    const code = this.loop?.[part];
    if (this.loop === undefined || code === undefined) throw new ConversionError(`${part === "index" ? "count.index" : `each.${part}`} outside a resource repeated by ${part === "index" ? "count" : "for_each"}`);
    if (part === "index") {
      this.loop.indexRead = true;
      if (target?.kind === "number") return plain(`(double) ${code}`, target);
    }
    const own: TypeModel | undefined = part === "index" ? { kind: "number" } : part === "key" ? { kind: "string" } : this.loop.valueType;
    return this.fit(plain(code, own), target);
  }

  private configExpr(variable: string): Expr {
    const c = this.config.get(variable);
    return plain(this.name(variable), c !== undefined ? { kind: c.type } : undefined);
  }

  private call(fn: Builtin, arg: Value, target: TypeModel | undefined, scope: Lift): string {
    switch (fn) {
      case "file":
        this.usesReadFile = true;
        return `readFile(${this.plain(arg, { kind: "string" }, scope)})`;
      case "trimspace":
        return `${this.plain(arg, { kind: "string" }, scope)}.strip()`;
      case "jsonencode":
        this.usesJson = true;
        return `serializeJson${argList([this.json(arg, scope)])}`;
      case "jsondecode": {
        const text = this.plain(arg, { kind: "string" }, scope);
        if (target === undefined || target.kind === "any") return `${this.cls("com.google.gson.JsonParser")}.parseString(${text})`;
        const type = this.javaType(target);
        return `new ${this.cls("com.google.gson.Gson")}().<${type}>fromJson(${text}, new ${this.cls("com.google.gson.reflect.TypeToken")}<${type}>() {}.getType())`;
      }
    }
  }

  /** The Java type a schema type is held as, for a decoded JSON value. */
  private javaType(t: TypeModel): string {
    switch (t.kind) {
      case "string":
        return "String";
      case "number":
        return "Double";
      case "boolean":
        return "Boolean";
      case "any":
        return "Object";
      case "array":
        return `${this.cls("java.util.List")}<${this.javaType(t.items)}>`;
      case "map":
        return `${this.cls("java.util.Map")}<String, ${this.javaType(t.values)}>`;
      case "object":
        throw new ConversionError(`jsondecode into ${tokenName(t.ref.token)} is not rendered in Java`);
    }
  }

  /** A value for `serializeJson`: `jsonObject(jsonProperty(…))`, `jsonArray(…)`, numbers as written. */
  private json(v: Value, scope: Lift): string {
    switch (v.kind) {
      case "number":
        return String(v.value);
      case "list": {
        const items = v.items.map((i) => this.json(i, scope));
        // A lone array or null would be taken as the varargs array itself.
        if (items.length === 1 && (v.items[0]!.kind === "list" || v.items[0]!.kind === "null")) return `jsonArray((Object) ${items[0]!})`;
        return `jsonArray${argList(items)}`;
      }
      case "map":
        return `jsonObject${argList(v.entries.map((e) => `jsonProperty(${javaString(e.key)}, ${this.json(e.value, scope)})`))}`;
      case "object":
        return `jsonObject${argList(v.properties.map((p) => `jsonProperty(${javaString(p.tfName)}, ${this.json(p.value, scope)})`))}`;
      default:
        return this.plain(v, undefined, scope);
    }
  }

  // References and Outputs.

  /**
   * A reference: a resource's output getter (`x.result()`), an invoke's Output, and any further steps in one lambda
   * (`x.applyValue(r -> r.certificates().get(0).certPem())`), through the Optionals the SDK's getters return.
   */
  private ref(variable: string, path: readonly PathStep[]): Expr {
    const node = this.nodes.get(variable);
    if (node === undefined) throw new ConversionError(`nothing in the example is named ${variable}`);
    let name = this.name(variable);
    let steps = path;
    if (node.kind === "resource" && node.loop !== undefined) {
      // One instance of a repeated resource: an element of the program's plain list or map of them.
      const first = steps[0];
      if (first === undefined || first.kind === "property") throw new ConversionError(`${variable}: a repeated resource is read through one instance`);
      name = `${name}.get(${first.kind === "index" ? first.index : javaString(first.key)})`;
      steps = steps.slice(1);
    }
    let type: TypeModel | undefined;
    let props: readonly PropertyModel[] | undefined;
    let optional = false;
    let rule: Rule = "input";
    let code = name;
    let param = "r";
    if (node.kind === "invoke") {
      if (node.function !== undefined) {
        type = node.function.returnType;
        props = type.kind === "object" ? type.ref.properties : undefined;
      } else {
        props = node.entity.foreign ? undefined : node.entity.properties;
        rule = node.role === "dataSource" ? "output" : "input";
      }
    } else {
      const first = steps[0];
      if (first === undefined) return plain(name);
      if (first.kind !== "property") throw new ConversionError(`${variable}: a resource is read by attribute`);
      const all = node.kind === "provider" ? node.properties : node.entity.properties;
      const p = all.find((q) => q.name === first.name);
      const base = first.name === "id" || first.name === "urn" ? (p === undefined || (p.tfName === first.name && p.renamed !== true) ? first.name : undefined) : undefined;
      code = `${name}.${base ?? javaPropertyName(first.name, "resource")}()`;
      type = base !== undefined ? { kind: "string" } : p?.type;
      optional = base === undefined && p !== undefined && !requiredIn("output", p);
      props = type?.kind === "object" ? type.ref.properties : undefined;
      param = type?.kind === "array" ? "l" : type?.kind === "map" ? "m" : "v";
      steps = steps.slice(1);
    }
    if (steps.length === 0) return { code, output: true, optional, ...(type !== undefined ? { type } : {}) };
    const ops: ((x: string) => string)[] = [];
    // A data source's or ephemeral resource's own results follow the output rule whatever their nested types follow.
    let stepRule: Rule = node.kind === "invoke" && node.function === undefined ? "output" : rule;
    for (const s of steps) {
      if (optional) ops.push((x) => `${x}.get()`);
      optional = false;
      if (s.kind === "property") {
        const p = props?.find((q) => q.name === s.name);
        ops.push((x) => `${x}.${javaPropertyName(s.name)}()`);
        type = p?.type;
        optional = p !== undefined && !isCollection(p.type) && !requiredIn(stepRule, p);
        stepRule = rule;
      } else if (s.kind === "index") {
        ops.push((x) => `${x}.get(${s.index})`);
        type = type?.kind === "array" ? type.items : undefined;
      } else {
        ops.push((x) => `${x}.get(${javaString(s.key)})`);
        type = type?.kind === "map" ? type.values : undefined;
      }
      props = type !== undefined && type.kind === "object" ? type.ref.properties : undefined;
    }
    return { code, output: true, then: (p) => ops.reduce((x, op) => op(x), p), param, optional, ...(type !== undefined ? { type } : {}) };
  }

  /** An expression with what it needs to fit where it goes: an Optional unwrapped, a number or bool as text, text as a number. */
  private fit(e: Expr, target: TypeModel | undefined): Expr {
    let out = e;
    if (out.optional) out = this.then(out, (x) => `${x}.orElse(null)`, out.type);
    const from = out.type?.kind;
    const to = target?.kind;
    if (to === "string" && (from === "number" || from === "boolean")) out = this.then(out, (x) => `String.valueOf(${x})`, { kind: "string" });
    else if (to === "number" && from === "string") out = this.then(out, (x) => `Double.parseDouble(${x})`, { kind: "number" });
    else if (to === "boolean" && from === "string") out = this.then(out, (x) => `Boolean.parseBoolean(${x})`, { kind: "boolean" });
    return out;
  }

  /** `f` applied to the value: to the code of a plain value, inside the lambda of an Output. */
  private then(e: Expr, f: (x: string) => string, type: TypeModel | undefined): Expr {
    const base: Expr = { code: e.code, output: e.output, optional: false, ...(type !== undefined ? { type } : {}), ...(e.param !== undefined ? { param: e.param } : {}) };
    if (!e.output) return { ...base, code: f(e.code) };
    const prev = e.then;
    return { ...base, then: (p) => f(prev !== undefined ? prev(p) : p) };
  }

  /** The code of an expression: an Output's pending lambda written as `applyValue`. */
  private finish(e: Expr): string {
    if (!e.output || e.then === undefined) return e.code;
    const param = this.fresh(e.param ?? "v");
    return `${e.code}.applyValue(${param} -> ${e.then(param)})`;
  }

  /** Opens a scope for Outputs that plain code needs (its lambda parameters held until `close`). */
  private lift(): Lift {
    const outer = this.open.length;
    const one = this.fresh("v");
    this.open.push(one);
    const tuple = this.fresh("t");
    this.open.push(tuple);
    return { outputs: [], one, tuple, id: this.lifts++, outer };
  }

  /** A scope for plain code known to hold no Outputs (objects hold theirs in their own setters). */
  private bare(): Lift {
    return { outputs: [], one: "", tuple: "", id: -1, outer: this.open.length };
  }

  private close(scope: Lift): void {
    this.open.length = scope.outer;
  }

  /** Plain code rendered in a scope of its own, and that scope. */
  private scoped(f: (scope: Lift) => string): { code: string; scope: Lift } {
    const scope = this.lift();
    try {
      return { code: f(scope), scope };
    } finally {
      this.close(scope);
    }
  }

  /** An Output a plain expression needs: it stands as a placeholder until the scope knows how many there are. */
  private hoist(scope: Lift, output: Expr): string {
    if (scope.id < 0) throw new Error(`an Output in a value said to hold none: ${output.code}`);
    const key = (e: Expr): string => `${e.code}\u0004${e.then?.("\u0004") ?? ""}`;
    let i = scope.outputs.findIndex((o) => key(o) === key(output));
    if (i < 0) i = scope.outputs.push(output) - 1;
    return `\u0003${scope.id}:${i}\u0003`;
  }

  /**
   * Plain code that uses Outputs, as one Output: `o.applyValue(v -> code)`, or `Output.tuple(a, b).applyValue(t -> code)`
   * (with `apply` when the code itself makes an Output).
   */
  private combine(scope: Lift, code: string, method: "applyValue" | "apply"): string {
    const n = scope.outputs.length;
    if (n === 0) return code;
    if (n > MAX_TUPLE) throw new ConversionError(`a value combines ${n} outputs, more than Java's Output.tuple takes`);
    const placeholder = new RegExp(`\u0003${scope.id}:(\\d+)\u0003`, "g");
    if (n === 1) {
      // One Output: its own steps go into the same lambda (`x.applyValue(r -> List.of(r.name()))`), its parameter named
      // for what it gets unless a lambda in the code has that name.
      const only = scope.outputs[0]!;
      const inner = new Set([...code.matchAll(/([A-Za-z_$][\w$]*) ->/g)].map((m) => m[1]!));
      let param = this.fresh(only.param ?? "v");
      if (inner.has(param)) param = scope.one;
      const value = only.then !== undefined ? only.then(param) : param;
      return `${only.code}.${method}(${param} -> ${code.replace(placeholder, () => value)})`;
    }
    const body = code.replace(placeholder, (_, i: string) => `${scope.tuple}.t${Number(i) + 1}`);
    return `${this.cls("com.pulumi.core.Output")}.tuple${argList(scope.outputs.map((o) => this.finish(o)))}.${method}(${scope.tuple} -> ${body})`;
  }
}

/** The program as Java source: `package generated_program;`, its imports and class App. */
export function renderJava(program: Program): string {
  return new JavaRenderer(program).render();
}
