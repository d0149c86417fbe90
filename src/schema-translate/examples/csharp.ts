// Renders an example program as a C# Pulumi program, written the way Pulumi's .NET program generator writes one
// (top-level `Deployment.RunAsync`, target-typed `new()` args, invokes in their output form). No .NET SDK can be
// installed where this is developed, so the C# is checked for its shape by unit tests only, never compiled.
import type { PropertyModel, TypeModel } from "../model.js";
import {
  csharpClassName,
  csharpIdentifier,
  csharpInputTypeName,
  csharpNamespace,
  csharpNamespaceAlias,
  csharpResultParameter,
  exportedName,
  lowerFirst,
  requiredIn,
  stackOutputName,
  tokenModule,
} from "../names.js";
import { ConversionError, holdsOutput, type InvokeNode, type Loop, type ObjectValue, type PathStep, type Program, type ProgramNode, type ResourceNode, type Value } from "./program.js";

const INDENT = "    ";

/** `Name = value`, or `Name =` and a collection initializer starting on the next line. */
function assign(name: string, value: string): string {
  return `${name} =${value.startsWith("\n") ? "" : " "}${value}`;
}

/**
 * The type a value has where it comes from (a referenced attribute, a config variable, a literal), which may differ
 * from the type its position wants (`value.type`): Terraform converts a number or bool where a string is wanted, the
 * SDKs do not.
 */
export function sourceType(program: Program, v: Value): TypeModel | undefined {
  switch (v.kind) {
    case "string":
    case "template":
      return { kind: "string" };
    case "number":
      return { kind: "number" };
    case "bool":
      return { kind: "boolean" };
    case "config": {
      const c = program.config.find((x) => x.variable === v.variable);
      return c === undefined ? undefined : { kind: c.type };
    }
    case "call":
      return v.fn === "jsondecode" ? undefined : { kind: "string" };
    case "loop":
      return v.type;
    case "ref": {
      const node = program.nodes.find((n) => n.variable === v.node);
      if (node === undefined) return undefined;
      let type: TypeModel | undefined = node.kind === "invoke" && node.function !== undefined ? node.function.returnType : undefined;
      let props: readonly PropertyModel[] | undefined = type === undefined ? (node.kind === "provider" ? node.properties : node.entity.properties) : undefined;
      // A repeated resource's first step picks an instance of the program's list or map of them.
      const path = node.kind === "resource" && node.loop !== undefined ? v.path.slice(1) : v.path;
      if (type === undefined && path.length === 0) return undefined;
      for (const step of path) {
        if (step.kind === "property") {
          const from: readonly PropertyModel[] | undefined = props ?? (type?.kind === "object" ? type.ref.properties : undefined);
          type = from?.find((p) => p.name === step.name)?.type;
          props = undefined;
        } else if (step.kind === "index") type = type?.kind === "array" ? type.items : undefined;
        else type = type?.kind === "map" ? type.values : undefined;
      }
      return type;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a number or bool goes where a string is wanted, which Terraform converts by itself. A loop value's `type` is
 * its own (the index a number, each.value its elements'), so the position's type comes as `wanted`.
 */
export function needsString(program: Program, v: Value, wanted?: TypeModel): "number" | "boolean" | undefined {
  const position = v.kind === "loop" ? wanted : v.type;
  if (position?.kind !== "string" || (v.kind !== "ref" && v.kind !== "config" && v.kind !== "loop")) return undefined;
  const from = sourceType(program, v)?.kind;
  return from === "number" || from === "boolean" ? from : undefined;
}

/** A C# string literal; text with line breaks is a verbatim literal, as the .NET generator writes heredocs. */
export function csharpString(s: string, interpolated = false): string {
  const braces = (t: string): string => (interpolated ? t.replace(/[{}]/g, "$&$&") : t);
  if (s.includes("\n")) return `@"${braces(s.replace(/"/g, '""'))}"`;
  return `"${braces(escapeRegular(s))}"`;
}

function escapeRegular(s: string): string {
  return s.replace(/[\\"\u0000-\u001f]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}

function numberLiteral(n: number): string {
  return String(n);
}

/** The C# element type a value of this schema type deserializes to (for `jsondecode`). */
function clrType(t: TypeModel | undefined): string {
  switch (t?.kind) {
    case "string":
      return "string";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "array":
      return `${clrType(t.items)}[]`;
    case "map":
      return `Dictionary<string, ${clrType(t.values)}>`;
    default:
      return "Dictionary<string, object?>";
  }
}

/**
 * Where a value is written: as a property's initializer (where a collection initializer may fill the property's list
 * or map), inside an invoke's arguments (whose object types are the `…InputArgs` classes), or in a `jsonencode`
 * argument (plain dictionaries and arrays).
 */
interface Slot {
  property: boolean;
  invoke: boolean;
  /** The schema type of the property being written, where known (a loop value's own type is not its position's). */
  wanted?: TypeModel;
}

class CSharpWriter {
  private readonly usings = new Set(["System.Collections.Generic", "System.Linq"]);
  private readonly packages = new Set<string>();
  private readonly nodes = new Map<string, ProgramNode>();

  constructor(private readonly program: Program) {
    for (const n of program.nodes) this.nodes.set(n.variable, n);
  }

  /** `Tls.GetCertificate`, `Random.Ephemeral.GetPassword`, `Tls.PrivateKey`: a member of a package's namespace. */
  private member(pkg: string, token: string, isFunction: boolean): string {
    return `${this.namespace(pkg, token)}.${csharpClassName(token, isFunction)}`;
  }

  private namespace(pkg: string, token: string): string {
    this.packages.add(pkg);
    const module = tokenModule(token);
    return `${csharpNamespaceAlias(pkg)}${module === "index" || module === "" ? "" : `.${csharpNamespace(module)}`}`;
  }

  private block(lines: string[], ind: string): string {
    return `\n${ind}{\n${lines.map((l) => `${ind}${INDENT}${l},\n`).join("")}${ind}}`;
  }

  value(v: Value, ind: string, at: Slot): string {
    // The loop variable `pulumi convert` declares: `new { Value = rangeIndex }`, or a for_each entry's Key and Value.
    if (v.kind === "loop") return this.converted(v, v.part === "key" ? "range.Key" : "range.Value", false, at.wanted);
    // What is inside this value is not at the property's position.
    const slot: Slot = { property: at.property, invoke: at.invoke };
    const inner = ind + INDENT;
    switch (v.kind) {
      case "string":
        return csharpString(v.value);
      case "number":
        return numberLiteral(v.value);
      case "bool":
        return String(v.value);
      case "null":
        return "null";
      case "list":
        return this.list(v.items, ind, slot, v.type);
      case "map": {
        if (slot.property) {
          if (v.entries.length === 0) return "new() { }";
          // A collection initializer filling the property's InputMap; the assignment puts it on the next line.
          return this.block(
            v.entries.map((e) => `{ ${csharpString(e.key)}, ${this.value(e.value, inner, { ...slot, property: false })} }`),
            ind,
          );
        }
        const valueType = v.type?.kind === "map" ? clrType(v.type.values) : "object?";
        return `new Dictionary<string, ${valueType}>${this.block(
          v.entries.map((e) => `[${csharpString(e.key)}] = ${this.value(e.value, inner, { ...slot, property: false })}`),
          ind,
        )}`;
      }
      case "object":
        return this.object(v, ind, slot);
      case "template":
        return this.template(v.parts, ind, slot);
      case "ref":
        return this.converted(v, this.ref(v.node, v.path), true);
      case "config":
        return this.converted(v, csharpIdentifier(v.variable), false);
      case "call":
        return this.call(v, ind, slot);
    }
  }

  /** A number or bool where a string is wanted, made a string as Terraform would (`true`, not C#'s `True`). */
  private converted(v: Value, expr: string, output: boolean, wanted?: TypeModel): string {
    const from = needsString(this.program, v, wanted);
    if (from === undefined) return expr;
    const convert = (x: string): string => (from === "number" ? `${x}.ToString()` : `(${x} ? "true" : "false")`);
    return output ? `${expr}.Apply(v => ${convert("v")})` : convert(expr);
  }

  /**
   * A list: `new[] { … }` where C# infers the element type (strings, bools, numbers as `double`, objects of one input
   * class); a collection initializer of the property's InputList where items mix plain values and Outputs.
   */
  private list(items: Value[], ind: string, slot: Slot, type: TypeModel | undefined): string {
    const inner = ind + INDENT;
    const rendered = items.map((i) => this.value(i, inner, { ...slot, property: false }));
    const kinds = new Set(items.map((i) => (i.kind === "object" && i.objectType !== undefined ? `object:${i.objectType.token}` : i.kind)));
    const [only] = [...kinds];
    if (items.length === 0) return slot.property ? "new() { }" : `new ${type?.kind === "array" ? clrType(type.items) : "object?"}[] { }`;
    if (kinds.size === 1 && only === "number") return `new double[]${this.block(rendered, ind)}`;
    if (kinds.size === 1 && (only === "string" || only === "bool" || only?.startsWith("object:") === true || only === "list")) return `new[]${this.block(rendered, ind)}`;
    if (slot.property) return `new()${this.block(rendered, ind)}`;
    return `new object?[]${this.block(rendered, ind)}`;
  }

  private object(v: ObjectValue, ind: string, slot: Slot): string {
    const inner = ind + INDENT;
    const props = v.properties.filter((p) => p.value.kind !== "null");
    if (v.objectType === undefined) {
      // Another provider's object (its types are unknown here), or a jsonencode argument: a plain dictionary.
      return `new Dictionary<string, object?>${this.block(
        props.map((p) => `[${csharpString(p.name)}] = ${this.value(p.value, inner, { ...slot, property: false })}`),
        ind,
      )}`;
    }
    const type = `${this.namespace(this.program.pkg, v.objectType.token)}.Inputs.${csharpInputTypeName(v.objectType.token, slot.invoke)}`;
    return `new ${type}${this.block(this.properties(v, inner, slot.invoke, v.objectType.properties), ind)}`;
  }

  /** `Name = value` lines of an object's properties (nulls left out: an absent property is null). */
  private properties(v: ObjectValue, ind: string, invoke: boolean, schema: readonly PropertyModel[] = []): string[] {
    return v.properties
      .filter((p) => p.value.kind !== "null")
      .map((p) => {
        const wanted = schema.find((m) => m.name === p.name)?.type;
        return assign(exportedName(p.name), this.value(p.value, ind, { property: true, invoke, ...(wanted !== undefined ? { wanted } : {}) }));
      });
  }

  /** `$"…"`, or `Output.Format($"…")` when a part is an Output. */
  private template(parts: (string | Value)[], ind: string, slot: Slot): string {
    const multiLine = parts.some((p) => typeof p === "string" && p.includes("\n"));
    const body = parts
      .map((p) => {
        if (typeof p !== "string") return `{${this.value(p, ind, { ...slot, property: false })}}`;
        const text = multiLine ? p.replace(/"/g, '""') : escapeRegular(p);
        return text.replace(/[{}]/g, "$&$&");
      })
      .join("");
    const literal = `${multiLine ? "@" : ""}$"${body}"`;
    return parts.some((p) => typeof p !== "string" && holdsOutput(p)) ? `Output.Format(${literal})` : literal;
  }

  private steps(path: readonly PathStep[]): string {
    return path.map((s) => (s.kind === "property" ? `.${exportedName(s.name)}` : s.kind === "index" ? `[${s.index}]` : `[${csharpString(s.key)}]`)).join("");
  }

  /**
   * A reference: a resource's property is an Output of its own (`key.PrivateKeyPem`), and anything inside it is read
   * in an Apply (`cert.Subjects.Apply(subjects => subjects[0].CommonName)`); an invoke's result is one Output, read
   * whole in an Apply (`data.Apply(getFileResult => getFileResult.Content)`).
   */
  private ref(variable: string, path: readonly PathStep[]): string {
    let root = csharpIdentifier(variable);
    const node = this.nodes.get(variable);
    if (node?.kind === "resource" && node.loop !== undefined && path.length > 0) {
      // The instance, from the program's plain List or Dictionary of them; its properties are Outputs as usual.
      root += this.steps(path.slice(0, 1));
      path = path.slice(1);
    }
    if (node?.kind === "invoke") {
      if (path.length === 0) return root;
      const plain = node.function !== undefined && node.function.returnType.kind !== "object";
      const param = plain ? "result" : csharpResultParameter(node.entity.token);
      return `${root}.Apply(${param} => ${param}${this.steps(path)})`;
    }
    const [first, ...rest] = path;
    if (first?.kind !== "property") return `${root}${this.steps(path)}`;
    const head = `${root}.${exportedName(first.name)}`;
    if (rest.length === 0) return head;
    const param = csharpIdentifier(lowerFirst(first.name));
    return `${head}.Apply(${param} => ${param}${this.steps(rest)})`;
  }

  private call(v: Extract<Value, { kind: "call" }>, ind: string, slot: Slot): string {
    const arg = v.args[0]!;
    const out = holdsOutput(arg);
    switch (v.fn) {
      case "file": {
        this.usings.add("System.IO");
        const a = this.value(arg, ind, { ...slot, property: false });
        return out ? `${a}.Apply(path => File.ReadAllText(path))` : `File.ReadAllText(${a})`;
      }
      case "jsonencode": {
        this.usings.add("System.Text.Json");
        const a = this.json(arg, ind);
        return out ? `Output.JsonSerialize(Output.Create(${a}))` : `JsonSerializer.Serialize(${a})`;
      }
      case "jsondecode": {
        this.usings.add("System.Text.Json");
        const a = this.value(arg, ind, { ...slot, property: false });
        return out ? `Output.JsonDeserialize<${clrType(v.type)}>(${a})` : `JsonSerializer.Deserialize<${clrType(v.type)}>(${a})`;
      }
      case "trimspace": {
        const a = this.value(arg, ind, { ...slot, property: false });
        return out ? `${a}.Apply(s => s.Trim())` : `${a}.Trim()`;
      }
    }
  }

  /** A `jsonencode` argument as System.Text.Json serializes it: dictionaries and arrays of plain values. */
  private json(v: Value, ind: string): string {
    const inner = ind + INDENT;
    switch (v.kind) {
      case "map":
        return `new Dictionary<string, object?>${this.block(v.entries.map((e) => `[${csharpString(e.key)}] = ${this.json(e.value, inner)}`), ind)}`;
      case "object":
        return `new Dictionary<string, object?>${this.block(v.properties.map((p) => `[${csharpString(p.tfName)}] = ${this.json(p.value, inner)}`), ind)}`;
      case "list": {
        if (v.items.length === 0) return "new object?[] { }";
        const kinds = new Set(v.items.map((i) => (i.kind === "object" ? "map" : holdsOutput(i) ? "output" : i.kind)));
        const [only] = [...kinds];
        const same = kinds.size === 1 && only !== "output" && only !== "null" && only !== "call" && only !== "template";
        return `${same ? "new[]" : "new object?[]"}${this.block(v.items.map((i) => this.json(i, inner)), ind)}`;
      }
      default:
        return this.value(v, ind, { property: false, invoke: false });
    }
  }

  private resourceOptions(n: ResourceNode | InvokeNode, ind: string, type: string): string {
    const lines: string[] = [];
    // An invoke is no resource to wait for; what the example reads of it orders the program already.
    const dependsOn = n.kind === "resource" ? n.dependsOn.filter((d) => this.nodes.get(d)?.kind !== "invoke") : [];
    if (dependsOn.length > 0) lines.push(`DependsOn =${this.block(dependsOn.map((d) => this.dependency(d)), ind + INDENT)}`);
    if (n.provider !== undefined) lines.push(`Provider = ${csharpIdentifier(n.provider)}`);
    return lines.length === 0 ? "" : `, new ${type}${this.block(lines, ind)}`;
  }

  /**
   * An element of `DependsOn` (an InputList<Resource>): a resource, or a repeated one's instances as a `Resource[]`,
   * which the list's `Add(InputList<Resource>)` takes (a `List<Pkg.X>` converts to no InputList of Resource).
   */
  private dependency(variable: string): string {
    const node = this.nodes.get(variable);
    const id = csharpIdentifier(variable);
    if (node?.kind !== "resource" || node.loop === undefined) return id;
    return `${id}${node.loop.kind === "forEach" ? ".Values" : ""}.ToArray<Resource>()`;
  }

  /** `new()` args: left out when there are none and the resource can be made without (no required input). */
  private args(v: ObjectValue, ind: string, invoke: boolean, required: boolean, schema: readonly PropertyModel[] = []): string | undefined {
    const lines = this.properties(v, ind + INDENT, invoke, schema);
    if (lines.length === 0) return required ? "new()" : undefined;
    return `new()${this.block(lines, ind)}`;
  }

  private node(n: ProgramNode, ind: string): string {
    const variable = csharpIdentifier(n.variable);
    switch (n.kind) {
      case "provider": {
        const args = this.args(n.args, ind, false, n.properties.some((p) => p.input && requiredIn("input", p)));
        return `var ${variable} = new ${csharpNamespaceAlias(this.pkg(n.pkg))}.Provider(${csharpString(n.name)}${args === undefined ? "" : `, ${args}`});`;
      }
      case "resource":
        if (n.loop !== undefined) return this.repeated(n, n.loop, ind);
        return `var ${variable} = ${this.construct(n, csharpString(n.name), ind)};`;
      case "invoke": {
        const fn = `${this.member(n.entity.pkg, n.entity.token, true)}.Invoke`;
        const options = this.resourceOptions(n, ind, "InvokeOptions");
        if (n.function !== undefined) return `var ${variable} = ${fn}(${this.positional(n, ind)}${options});`;
        const args = this.args(n.args, ind, true, options !== "");
        return `var ${variable} = ${fn}(${args ?? ""}${options});`;
      }
    }
  }

  /** `new Pkg.X(name, new() { … }, options)`: a resource. */
  private construct(n: ResourceNode, name: string, ind: string): string {
    const options = this.resourceOptions(n, ind, "CustomResourceOptions");
    const required = n.entity.properties.some((p) => p.input && requiredIn("input", p));
    const args = this.args(n.args, ind, false, required || options !== "", n.entity.properties);
    return `new ${this.member(n.entity.pkg, n.entity.token, false)}(${name}${args === undefined ? "" : `, ${args}`}${options})`;
  }

  /**
   * A repeated resource as Pulumi's .NET program generator writes one: a `List` filled in a counting loop over
   * `range.Value`, or (for_each) a `Dictionary` by key filled from the entries as `range.Key`/`range.Value`; each
   * instance named after its index or key.
   */
  private repeated(n: ResourceNode, loop: Loop, ind: string): string {
    const variable = csharpIdentifier(n.variable);
    const cls = this.member(n.entity.pkg, n.entity.token, false);
    const inner = ind + INDENT;
    const plain: Slot = { property: false, invoke: false };
    const make = (part: "index" | "key"): string => this.construct(n, this.template([`${n.name}-`, { kind: "loop", part }], inner, plain), inner);
    if (loop.kind === "count") {
      if (holdsOutput(loop.count)) throw new ConversionError(`${n.name}: a count known only after deployment cannot drive a C# loop`);
      return [
        `var ${variable} = new List<${cls}>();`,
        `${ind}for (var rangeIndex = 0; rangeIndex < ${this.value(loop.count, ind, plain)}; rangeIndex++)`,
        `${ind}{`,
        `${inner}var range = new { Value = rangeIndex };`,
        `${inner}${variable}.Add(${make("index")});`,
        `${ind}}`,
      ].join("\n");
    }
    if (holdsOutput(loop.items)) throw new ConversionError(`${n.name}: for_each over values known only after deployment cannot drive a C# loop`);
    return [
      `var ${variable} = new Dictionary<string, ${cls}>();`,
      `${ind}foreach (var range in ${this.entries(loop.items, ind)})`,
      `${ind}{`,
      `${inner}${variable}.Add(range.Key, ${make("key")});`,
      `${ind}}`,
    ].join("\n");
  }

  /**
   * A for_each's entries as `range.Key`/`range.Value`: a map's pairs in a dictionary typed by the values they share
   * (so `range.Value` is a string or a double where the example uses it), or each string of a list as key and value.
   */
  private entries(items: Value, ind: string): string {
    const plain: Slot = { property: false, invoke: false };
    if (items.kind === "list") return `${this.value(items, ind, plain)}.Select(v => new { Key = v, Value = v })`;
    if (items.kind !== "map" || items.type !== undefined) return `${this.value(items, ind, plain)}.Select(pair => new { pair.Key, pair.Value })`;
    const kinds = new Set(items.entries.map((e) => e.value.kind));
    const [only] = [...kinds];
    const values: TypeModel | undefined = kinds.size !== 1 ? undefined : only === "string" ? { kind: "string" } : only === "number" ? { kind: "number" } : only === "bool" ? { kind: "boolean" } : undefined;
    const typed: Value = values === undefined ? items : { ...items, type: { kind: "map", values } };
    return `${this.value(typed, ind, plain)}.Select(pair => new { pair.Key, pair.Value })`;
  }

  /** A provider function's arguments, positional in the schema's order (`multiArgumentInputs`), `null` for gaps. */
  private positional(n: InvokeNode, ind: string): string {
    const params = n.function?.parameters ?? [];
    const given = new Map(n.args.properties.map((p) => [p.name, p.value]));
    let last = -1;
    params.forEach((p, i) => {
      if (given.has(p.name)) last = i;
    });
    return params
      .slice(0, last + 1)
      .map((p) => {
        const v = given.get(p.name);
        // A parameter takes a target-typed `new() { … }` list but no bare collection initializer of a map.
        return v === undefined ? "null" : this.value(v, ind, { property: v.kind !== "map", invoke: true });
      })
      .join(", ");
  }

  private pkg(pkg: string): string {
    this.packages.add(pkg);
    return pkg;
  }

  private configLine(c: Program["config"][number]): string {
    const suffix = c.type === "number" ? "Double" : c.type === "boolean" ? "Boolean" : "";
    const variable = csharpIdentifier(c.variable);
    if (c.default === undefined) return `var ${variable} = config.Require${suffix}(${csharpString(c.name)});`;
    return `var ${variable} = config.Get${suffix}(${csharpString(c.name)}) ?? ${this.value(c.default, INDENT, { property: false, invoke: false })};`;
  }

  render(): string {
    const ind = INDENT;
    const sections: string[] = [];
    if (this.program.config.length > 0) {
      sections.push(["var config = new Config();", ...this.program.config.map((c) => this.configLine(c))].map((l) => `${ind}${l}`).join("\n"));
    }
    for (const n of this.program.nodes) sections.push(`${ind}${this.node(n, ind)}`);
    if (this.program.outputs.length > 0) {
      const lines = this.program.outputs.map((o) => `[${csharpString(stackOutputName(o.name))}] = ${this.value(o.value, ind + INDENT, { property: false, invoke: false })}`);
      sections.push(`${ind}return new Dictionary<string, object?>${this.block(lines, ind)};`);
    }
    const usings = [...this.usings].sort().map((u) => `using ${u};`);
    usings.push("using Pulumi;");
    const aliases = [...this.packages].map((p) => `using ${csharpNamespaceAlias(p)} = Pulumi.${csharpNamespace(p)};`).sort();
    return `${[...usings, ...aliases].join("\n")}\n\nreturn await Deployment.RunAsync(() =>\n{\n${sections.join("\n\n")}\n});\n`;
  }
}

/** The example as a C# program (`Program.cs` of a `pulumi new csharp` project using the package's SDK). */
export function renderCSharp(program: Program): string {
  return new CSharpWriter(program).render();
}
