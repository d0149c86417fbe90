// Renders an example program as a Pulumi YAML program (`Main.yaml`): config, resources, invokes as variables, outputs;
// values are interpolations (`${key.publicKeyPem}`) and the builtins Pulumi YAML has (`fn::readFile`, `fn::toJSON`).
import { stackOutputName, yamlToken } from "../names.js";
import { ConversionError, type ObjectValue, type PathStep, type Program, type ProgramNode, type Value } from "./program.js";

/** A YAML document as it is written: scalars already spelled, mappings and sequences in block style. */
type Node = { t: "scalar"; text: string } | { t: "seq"; items: Node[] } | { t: "map"; entries: [string, Node][] };

const scalar = (text: string): Node => ({ t: "scalar", text });
const mapping = (entries: [string, Node][]): Node => ({ t: "map", entries });

/** Words YAML 1.1 or 1.2 reads as something other than a string. */
const RESERVED = /^(?:true|false|yes|no|y|n|on|off|null|~)$/i;
const NUMBER_LIKE = /^[-+.]?[0-9]|^\.(?:inf|nan)$/i;
/** Characters a plain (unquoted) scalar may not start with. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`\s]/;

/** A string scalar: plain where YAML reads it back as the same string, else single- or double-quoted. */
export function yamlString(s: string): string {
  const plain =
    s !== "" &&
    !INDICATOR.test(s) &&
    !RESERVED.test(s) &&
    !NUMBER_LIKE.test(s) &&
    !/: |\s#|:$|\s$/.test(s) &&
    // Printable ASCII and beyond, nothing YAML would fold or escape.
    !/[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(s);
  if (plain) return s;
  if (!/[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(s)) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s).replace(/[\u007f\u0085\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A multi-line string as a literal block (`|-`), where YAML keeps every character as written; undefined if it cannot. */
function literalBlock(s: string, indent: string): string | undefined {
  if (!s.includes("\n") || /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(s)) return undefined;
  const body = s.replace(/\n+$/, "");
  const trailing = s.length - body.length;
  // A first line starting with a space would be read as the block's indentation.
  if (body.startsWith(" ") || body.startsWith("\n")) return undefined;
  const chomp = trailing === 0 ? "-" : trailing === 1 ? "" : "+";
  const lines = s.slice(0, trailing > 1 ? s.length - 1 : body.length).split("\n");
  return `|${chomp}\n${lines.map((l) => (l === "" ? "" : `${indent}${l}`)).join("\n")}`;
}

/** Block-style YAML for a node at the given depth (two spaces a level). */
function emit(node: Node, depth: number): string {
  const pad = "  ".repeat(depth);
  switch (node.t) {
    case "scalar":
      return node.text;
    case "seq":
      if (node.items.length === 0) return "[]";
      return node.items
        .map((i) => {
          const body = i.t === "scalar" ? multiLine(i.text, pad + "  ") : emit(i, depth + 1);
          return i.t === "scalar" || body.startsWith("[") || body.startsWith("{") ? `${pad}- ${body}` : `${pad}- ${body.trimStart()}`;
        })
        .join("\n");
    case "map":
      if (node.entries.length === 0) return "{}";
      return node.entries
        .map(([k, v]) => {
          const key = yamlString(k);
          if (v.t === "scalar") return `${pad}${key}: ${multiLine(v.text, pad + "  ")}`;
          const body = emit(v, depth + 1);
          if (body === "[]" || body === "{}") return `${pad}${key}: ${body}`;
          return `${pad}${key}:\n${body}`;
        })
        .join("\n");
  }
}

/** String scalars carry their text in `text`; a multi-line one is turned into a literal block where it is placed. */
const MULTILINE = "\u0000ml:";
function multiLine(text: string, indent: string): string {
  if (!text.startsWith(MULTILINE)) return text;
  const s = text.slice(MULTILINE.length);
  return literalBlock(s, indent) ?? yamlString(s);
}

/** Every `$` doubled: Pulumi YAML reads `$$` as `$` and `${…}` as an interpolation in every string. */
function escapeDollars(s: string): string {
  return s.replace(/\$/g, "$$$$");
}

function stringNode(s: string): Node {
  const text = escapeDollars(s);
  return scalar(text.includes("\n") ? `${MULTILINE}${text}` : yamlString(text));
}

class YamlWriter {
  /** What each config variable's program variable is called in YAML: its key (`ami_id`). */
  private readonly configKeys = new Map<string, string>();
  /** The YAML name of each node: its program variable. */
  private readonly names = new Set<string>();
  private readonly invokes = new Set<string>();

  constructor(private readonly program: Program) {
    for (const n of program.nodes) {
      this.names.add(n.variable);
      if (n.kind === "invoke") this.invokes.add(n.variable);
    }
    for (const c of program.config) {
      if (this.names.has(c.name)) throw new ConversionError(`config ${c.name} has the name of a resource, which YAML programs cannot tell apart`);
      this.configKeys.set(c.variable, c.name);
    }
  }

  /** `${root.a[0]["k"]}`: a property access Pulumi YAML interpolates. */
  private access(root: string, path: readonly PathStep[]): string {
    const steps = path.map((s) => (s.kind === "property" ? `.${s.name}` : s.kind === "index" ? `[${s.index}]` : `[${JSON.stringify(s.key)}]`)).join("");
    return `\${${root}${steps}}`;
  }

  /** The interpolation a value is, when it is one (a reference or a config variable). */
  private interpolation(v: Value): string | undefined {
    if (v.kind === "ref") return this.access(v.node, v.path);
    if (v.kind === "config") return this.access(this.configKeys.get(v.variable) ?? v.variable, []);
    return undefined;
  }

  value(v: Value, where: string): Node {
    switch (v.kind) {
      case "loop":
        throw new ConversionError("Pulumi YAML has no loops for repeated resources (count, for_each)");
      case "string":
        return stringNode(v.value);
      case "number":
        return scalar(String(v.value));
      case "bool":
        return scalar(String(v.value));
      case "null":
        return scalar("null");
      case "list":
        return { t: "seq", items: v.items.map((i, n) => this.value(i, `${where}[${n}]`)) };
      case "map":
        // Keys are interpolated too, and a lone `fn::` key would call a builtin.
        if (v.entries.length === 1 && v.entries[0]!.key.toLowerCase().startsWith("fn::")) throw new ConversionError(`${where}: the key ${v.entries[0]!.key} reads as a Pulumi YAML builtin`);
        return mapping(v.entries.map((e) => [escapeDollars(e.key), this.value(e.value, `${where}.${e.key}`)]));
      case "object":
        return this.object(v, where);
      case "template":
        return this.template(v.parts, where);
      case "ref":
      case "config":
        return scalar(yamlString(this.interpolation(v)!));
      case "call":
        return this.call(v, where);
    }
  }

  private object(v: ObjectValue, where: string): Node {
    return mapping(v.properties.filter((p) => p.value.kind !== "null").map((p) => [p.name, this.value(p.value, `${where}.${p.name}`)]));
  }

  /**
   * A string with interpolations: one YAML string where every part is text or a property access; otherwise the parts
   * joined by `fn::join`, which takes any expression.
   */
  private template(parts: (string | Value)[], where: string): Node {
    const inline = parts.map((p) => (typeof p === "string" ? escapeDollars(p) : p.kind === "number" || p.kind === "bool" ? String(p.value) : p.kind === "string" ? escapeDollars(p.value) : this.interpolation(p)));
    if (inline.every((p) => p !== undefined)) {
      const text = inline.join("");
      return scalar(text.includes("\n") ? `${MULTILINE}${text}` : yamlString(text));
    }
    return mapping([["fn::join", { t: "seq", items: [scalar('""'), { t: "seq", items: parts.map((p) => (typeof p === "string" ? stringNode(p) : this.value(p, where))) }] }]]);
  }

  private call(v: Extract<Value, { kind: "call" }>, where: string): Node {
    const arg = this.value(v.args[0]!, where);
    switch (v.fn) {
      case "file":
        return mapping([["fn::readFile", arg]]);
      case "jsonencode":
        return mapping([["fn::toJSON", arg]]);
      case "jsondecode":
        throw new ConversionError(`${where}: jsondecode has no Pulumi YAML builtin`);
      case "trimspace":
        throw new ConversionError(`${where}: trimspace has no Pulumi YAML builtin`);
    }
  }

  private options(n: ProgramNode): [string, Node][] {
    const opts: [string, Node][] = [];
    // An invoke is no resource to wait for (dependsOn takes resources); what the example reads of it orders it already.
    const dependsOn = n.kind === "resource" ? n.dependsOn.filter((d) => this.invokes.has(d) === false) : [];
    if (dependsOn.length > 0) opts.push(["dependsOn", { t: "seq", items: dependsOn.map((d) => scalar(this.access(d, []))) }]);
    if (n.kind !== "provider" && n.provider !== undefined) opts.push(["provider", scalar(this.access(n.provider, []))]);
    return opts.length === 0 ? [] : [["options", mapping(opts)]];
  }

  /** A resource (or provider) declaration: its type, its name where the key differs, properties and options. */
  private resource(n: Exclude<ProgramNode, { kind: "invoke" }>): Node {
    const type = n.kind === "provider" ? `pulumi:providers:${n.pkg}` : yamlToken(n.entity.token);
    const entries: [string, Node][] = [["type", scalar(yamlString(type))]];
    if (n.name !== n.variable) entries.push(["name", stringNode(n.name)]);
    const props = this.object(n.args, n.variable);
    if (props.t === "map" && props.entries.length > 0) entries.push(["properties", props]);
    entries.push(...this.options(n));
    return mapping(entries);
  }

  private invoke(n: Extract<ProgramNode, { kind: "invoke" }>): Node {
    const entries: [string, Node][] = [["function", scalar(yamlString(yamlToken(n.entity.token)))]];
    const args = this.object(n.args, n.variable);
    if (args.t === "map" && args.entries.length > 0) entries.push(["arguments", args]);
    entries.push(...this.options(n));
    return mapping([["fn::invoke", mapping(entries)]]);
  }

  render(): string {
    const sections: [string, Node][] = [];
    if (this.program.config.length > 0) {
      sections.push([
        "config",
        mapping(
          this.program.config.map((c) => {
            const entries: [string, Node][] = [["type", scalar(c.type)]];
            if (c.default !== undefined) entries.push(["default", this.value(c.default, `config ${c.name}`)]);
            return [c.name, mapping(entries)];
          }),
        ),
      ]);
    }
    const resources = this.program.nodes.filter((n) => n.kind !== "invoke").map((n): [string, Node] => [n.variable, this.resource(n)]);
    if (resources.length > 0) sections.push(["resources", mapping(resources)]);
    const variables = this.program.nodes.flatMap((n): [string, Node][] => (n.kind === "invoke" ? [[n.variable, this.invoke(n)]] : []));
    if (variables.length > 0) sections.push(["variables", mapping(variables)]);
    if (this.program.outputs.length > 0) {
      sections.push(["outputs", mapping(this.program.outputs.map((o) => [stackOutputName(o.name), this.value(o.value, `output ${o.name}`)]))]);
    }
    return sections.map((s) => emit(mapping([s]), 0)).join("\n\n") + "\n";
  }
}

/** The example as a Pulumi YAML program; throws ConversionError for what Pulumi YAML has no builtin for. */
export function renderYaml(program: Program): string {
  if (program.nodes.some((n) => n.kind === "resource" && n.loop !== undefined)) throw new ConversionError("Pulumi YAML has no loops for repeated resources (count, for_each)");
  return new YamlWriter(program).render();
}
