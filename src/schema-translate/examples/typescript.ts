// Renders an example program as a TypeScript Pulumi program (the `@pulumi/<pkg>` SDKs, invokes in output form).
import { stackOutputName, tokenModule, tokenName } from "../names.js";
import { ConversionError, holdsOutput, type Builtin, type Loop, type ObjectValue, type PathStep, type Program, type ProgramNode, type ResourceNode, type Value } from "./program.js";

const INDENT = "    ";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string): string => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

class TypeScriptWriter {
  private readonly imports = new Set<string>();

  constructor(private readonly program: Program) {}

  /** `random.Password`, `random.ephemeral.getPasswordOutput`. */
  private member(pkg: string, token: string, suffix = ""): string {
    this.imports.add(pkg);
    const module = tokenModule(token);
    return `${pkg}.${module === "index" ? "" : `${module}.`}${tokenName(token)}${suffix}`;
  }

  private path(base: string, path: readonly PathStep[]): string {
    return path.map((s) => (s.kind === "property" ? `.${s.name}` : s.kind === "index" ? `[${s.index}]` : `[${JSON.stringify(s.key)}]`)).reduce((a, b) => a + b, base);
  }

  value(v: Value, depth: number): string {
    const pad = INDENT.repeat(depth + 1);
    const close = INDENT.repeat(depth);
    switch (v.kind) {
      case "string":
        return JSON.stringify(v.value);
      case "number":
        return String(v.value);
      case "bool":
        return String(v.value);
      case "null":
        return "undefined";
      case "list":
        if (v.items.length === 0) return "[]";
        return `[\n${v.items.map((i) => `${pad}${this.value(i, depth + 1)},\n`).join("")}${close}]`;
      case "map":
        if (v.entries.length === 0) return "{}";
        return `{\n${v.entries.map((e) => `${pad}${key(e.key)}: ${this.value(e.value, depth + 1)},\n`).join("")}${close}}`;
      case "object":
        return this.object(v, depth);
      case "template": {
        const body = v.parts.map((p) => (typeof p === "string" ? p.replace(/[`\\]/g, "\\$&").replace(/\$\{/g, "\\${") : `\${${this.value(p, depth)}}`)).join("");
        return holdsOutput(v) ? `pulumi.interpolate\`${body}\`` : `\`${body}\``;
      }
      case "ref":
        return this.path(v.node, v.path);
      case "config":
        return v.variable;
      case "call":
        return this.call(v.fn, v.args[0]!, depth);
      case "loop":
        return v.part === "index" ? "range.value" : `range.${v.part}`;
    }
  }

  private object(v: ObjectValue, depth: number): string {
    if (v.properties.length === 0) return "{}";
    const pad = INDENT.repeat(depth + 1);
    return `{\n${v.properties.map((p) => `${pad}${key(p.name)}: ${this.value(p.value, depth + 1)},\n`).join("")}${INDENT.repeat(depth)}}`;
  }

  private call(fn: Builtin, arg: Value, depth: number): string {
    const a = this.value(arg, depth);
    const out = holdsOutput(arg);
    switch (fn) {
      case "file":
        this.imports.add("fs");
        return out ? `pulumi.output(${a}).apply(path => fs.readFileSync(path, "utf8"))` : `fs.readFileSync(${a}, "utf8")`;
      case "jsonencode":
        return out ? `pulumi.jsonStringify(${a})` : `JSON.stringify(${a})`;
      case "jsondecode":
        return out ? `pulumi.jsonParse(${a})` : `JSON.parse(${a})`;
      case "trimspace":
        return out ? `pulumi.output(${a}).apply(s => s.trim())` : `${a}.trim()`;
    }
  }

  private options(n: ProgramNode, depth = 0): string {
    const opts: string[] = [];
    if (n.kind === "resource" && n.dependsOn.length > 0) opts.push(`dependsOn: [${n.dependsOn.map((d) => this.dependency(d)).join(", ")}]`);
    if (n.kind !== "provider" && n.provider !== undefined) opts.push(`provider: ${n.provider}`);
    return opts.length === 0 ? "" : `, {\n${opts.map((o) => `${INDENT.repeat(depth + 1)}${o},\n`).join("")}${INDENT.repeat(depth)}}`;
  }

  /** A resource to wait for; a repeated one's instances spread into the list, all of them waited for. */
  private dependency(variable: string): string {
    const target = this.program.nodes.find((n) => n.variable === variable);
    if (target?.kind !== "resource" || target.loop === undefined) return variable;
    return target.loop.kind === "count" ? `...${variable}` : `...Object.values(${variable})`;
  }

  /**
   * A repeated resource as `pulumi convert` writes one: an array filled in a counting loop, or a record filled per key
   * (`range.key`/`range.value`), each named after its index or key.
   */
  private repeated(n: ResourceNode, loop: Loop): string {
    const cls = this.member(n.entity.pkg, n.entity.token);
    const make = (name: string): string => `new ${cls}(${name}, ${this.object(n.args, 1)}${this.options(n, 1)})`;
    if (loop.kind === "count") {
      if (holdsOutput(loop.count)) throw new ConversionError(`${n.name}: a count known only after deployment cannot drive a TypeScript loop`);
      return `const ${n.variable}: ${cls}[] = [];\nfor (const range = {value: 0}; range.value < ${this.value(loop.count, 0)}; range.value++) {\n${INDENT}${n.variable}.push(${make(`\`${n.name}-\${range.value}\``)});\n}`;
    }
    if (holdsOutput(loop.items)) throw new ConversionError(`${n.name}: for_each over values known only after deployment cannot drive a TypeScript loop`);
    const entries = loop.items.kind === "list" ? `${this.value(loop.items, 0)}.map(key => ({key, value: key}))` : `Object.entries(${this.value(loop.items, 0)}).map(([key, value]) => ({key, value}))`;
    return `const ${n.variable}: Record<string, ${cls}> = {};\nfor (const range of ${entries}) {\n${INDENT}${n.variable}[range.key] = ${make(`\`${n.name}-\${range.key}\``)};\n}`;
  }

  private node(n: ProgramNode): string {
    switch (n.kind) {
      case "provider":
        return `const ${n.variable} = new ${this.pkgImport(n.pkg)}.Provider(${JSON.stringify(n.name)}, ${this.object(n.args, 0)});`;
      case "resource":
        if (n.loop !== undefined) return this.repeated(n, n.loop);
        return `const ${n.variable} = new ${this.member(n.entity.pkg, n.entity.token)}(${JSON.stringify(n.name)}, ${this.object(n.args, 0)}${this.options(n)});`;
      case "invoke": {
        const fn = this.member(n.entity.pkg, n.entity.token, "Output");
        if (n.function !== undefined) return `const ${n.variable} = ${fn}(${n.args.properties.map((p) => this.value(p.value, 0)).join(", ")});`;
        return `const ${n.variable} = ${fn}(${this.object(n.args, 0)}${this.options(n)});`;
      }
    }
  }

  private pkgImport(pkg: string): string {
    this.imports.add(pkg);
    return pkg;
  }

  render(): string {
    const body: string[] = [];
    if (this.program.config.length > 0) {
      body.push("const config = new pulumi.Config();");
      for (const c of this.program.config) {
        const getter = c.type === "number" ? "Number" : c.type === "boolean" ? "Boolean" : "";
        body.push(c.default !== undefined ? `const ${c.variable} = config.get${getter}(${JSON.stringify(c.name)}) ?? ${this.value(c.default, 0)};` : `const ${c.variable} = config.require${getter}(${JSON.stringify(c.name)});`);
      }
    }
    for (const n of this.program.nodes) body.push(this.node(n));
    for (const o of this.program.outputs) body.push(`export const ${outputName(o.name)} = ${this.value(o.value, 0)};`);
    const imports = ['import * as pulumi from "@pulumi/pulumi";'];
    for (const i of [...this.imports].sort()) imports.push(i === "fs" ? 'import * as fs from "fs";' : `import * as ${i} from "@pulumi/${i}";`);
    return `${imports.join("\n")}\n\n${body.join("\n")}\n`;
  }
}

/** A stack output's name as a module export: camelCase, as `pulumi convert` writes it. */
function outputName(name: string): string {
  const camel = stackOutputName(name);
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

export function renderTypeScript(program: Program): string {
  return new TypeScriptWriter(program).render();
}
