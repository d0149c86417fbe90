// Resolves a parsed HCL example against the provider model: blocks become program nodes with tokens, attributes
// become Pulumi properties typed by the schema, references become paths through Pulumi names.
import type { ObjectTypeModel, PropertyModel, ProviderModel, TypeModel } from "../model.js";
import { objectTypeOf } from "../model.js";
import { ephemeralFunctionName, ephemeralFunctionToken, inferPrefix, moduleToken, pascalName, pluralize, programVariable, propertyName, stripPrefix, typeToken } from "../names.js";
import type { Block, Body, Expr } from "./hcl.js";
import { ConversionError, type Builtin, type ConfigVariable, type Entity, type InvokeNode, type Loop, type ObjectValue, type PathStep, type Program, type ProgramNode, type Value } from "./program.js";

const BUILTINS: ReadonlySet<string> = new Set<Builtin>(["file", "jsonencode", "jsondecode", "trimspace"]);

/** Meta-arguments and nested blocks that belong to Terraform's own workflow, which no rendering could keep. */
const UNSUPPORTED_META: Record<string, string> = {
  lifecycle: "`lifecycle` (conditions, ignore_changes) has no rendering here",
  provisioner: "provisioners run commands Pulumi programs do not",
  connection: "provisioner connections run commands Pulumi programs do not",
  dynamic: "`dynamic` blocks are not rendered",
};

const IGNORED_TOP_LEVEL = new Set(["terraform"]);

interface Declared {
  kind: "resource" | "dataSource" | "ephemeral";
  tfType: string;
  label: string;
  block: Block;
}

/** Where a reference's root resolves: a node of the program, by variable. */
interface NodeInfo {
  variable: string;
  /** Properties readable from it (a resource's or invoke's, or none for another provider's). */
  properties: readonly PropertyModel[];
  foreign: boolean;
  kind: ProgramNode["kind"];
  /** A repeated resource: referred to through an index (`count`) or a key (`for_each`) first. */
  loop?: Loop["kind"];
}

class Binder {
  private readonly prefix: string;
  private readonly nodes = new Map<string, ProgramNode>();
  private readonly infos = new Map<string, NodeInfo>();
  private readonly deps = new Map<string, Set<string>>();
  private readonly config = new Map<string, ConfigVariable>();
  private readonly declaredVariables = new Map<string, Block>();
  private readonly locals = new Map<string, Expr>();
  private readonly otherProviders = new Set<string>();
  private readonly usedVariables = new Set<string>();
  private current: Set<string> = new Set();
  /** The loop of the resource being bound, where `count.index` and `each.*` mean something. */
  private loop: Loop["kind"] | undefined;
  private loopElement: TypeModel | undefined;
  private providerVariable: Map<string, string> = new Map();

  constructor(private readonly model: ProviderModel) {
    this.prefix = inferPrefix([...model.resources.keys(), ...model.dataSources.keys()], model.name);
    this.usedVariables.add(model.name);
  }

  bind(body: Body): Program {
    if (body.attributes.length > 0) throw new ConversionError(`a top-level attribute (${body.attributes[0]!.name}) is not a configuration`);
    const declared: Declared[] = [];
    const outputs: Block[] = [];
    const providers: Block[] = [];
    for (const b of body.blocks) {
      if (IGNORED_TOP_LEVEL.has(b.type)) continue;
      switch (b.type) {
        case "resource":
        case "data":
        case "ephemeral":
          if (b.labels.length !== 2) throw new ConversionError(`a ${b.type} block needs a type and a name`);
          declared.push({ kind: b.type === "resource" ? "resource" : b.type === "data" ? "dataSource" : "ephemeral", tfType: b.labels[0]!, label: b.labels[1]!, block: b });
          break;
        case "variable":
          this.declaredVariables.set(b.labels[0] ?? "", b);
          break;
        case "locals":
          for (const a of b.body.attributes) this.locals.set(a.name, a.value);
          break;
        case "output":
          outputs.push(b);
          break;
        case "provider":
          providers.push(b);
          break;
        default:
          throw new ConversionError(`\`${b.type}\` blocks have no equivalent in a Pulumi program`);
      }
    }
    // Names first, so references resolve whatever the order of the blocks.
    const keyOf = (d: Declared): string => `${d.kind === "resource" ? "" : `${d.kind === "dataSource" ? "data" : "ephemeral"}.`}${d.tfType}.${d.label}`;
    const entities = new Map<string, Entity>();
    for (const d of declared) {
      const entity = this.entity(d.kind, d.tfType);
      entities.set(keyOf(d), entity);
      const attrs = new Set(d.block.body.attributes.map((a) => a.name));
      const loop = attrs.has("count") ? "count" : attrs.has("for_each") ? "forEach" : undefined;
      if (loop !== undefined && d.kind !== "resource") throw new ConversionError(`${d.tfType}.${d.label}: a repeated data source or ephemeral resource is not rendered`);
      this.infos.set(keyOf(d), { variable: this.variable(d.label, d.tfType), properties: entity.properties, foreign: entity.foreign, kind: d.kind === "resource" ? "resource" : "invoke", ...(loop !== undefined ? { loop } : {}) });
    }
    for (const p of providers) this.provider(p);
    for (const d of declared) this.node(d, entities.get(keyOf(d))!, this.infos.get(keyOf(d))!);
    const programOutputs = outputs.map((o) => {
      const value = o.body.attributes.find((a) => a.name === "value");
      if (value === undefined) throw new ConversionError(`output ${o.labels[0] ?? ""} has no value`);
      this.current = new Set();
      return { name: o.labels[0] ?? "", value: this.value(value.value, undefined, `output ${o.labels[0] ?? ""}`) };
    });
    return {
      pkg: this.model.name,
      config: [...this.config.values()],
      nodes: this.ordered(),
      outputs: programOutputs,
      otherProviders: [...this.otherProviders],
      goImports: {},
    };
  }

  /** A program variable for a label, unique in the program and clear of the packages it imports. */
  private variable(label: string, tfType: string): string {
    let v = programVariable(label);
    if (this.usedVariables.has(v)) v = programVariable(`${label}_${stripPrefix(tfType, tfType.split("_")[0]!)}`);
    for (let n = 2; this.usedVariables.has(v); n++) v = `${programVariable(label)}${n}`;
    this.usedVariables.add(v);
    return v;
  }

  private entity(kind: Declared["kind"], tfType: string): Entity {
    const mine = kind === "resource" ? this.model.resources.get(tfType) : kind === "dataSource" ? this.model.dataSources.get(tfType) : this.model.ephemeralResources.get(tfType);
    if (mine !== undefined) {
      const properties = kind === "resource" && !mine.properties.some((p) => p.tfName === "id") ? [...mine.properties, idProperty] : mine.properties;
      return { pkg: this.model.name, token: mine.token, properties, foreign: false };
    }
    const pkg = tfType.includes("_") ? tfType.split("_")[0]! : tfType;
    if (pkg === this.prefix) throw new ConversionError(`${tfType} is not in this provider's schema`);
    this.otherProviders.add(pkg);
    this.usedVariables.add(pkg);
    const short = stripPrefix(tfType, pkg);
    const token =
      kind === "resource"
        ? moduleToken(pkg, pascalName(short))
        : kind === "dataSource"
          ? typeToken(pkg, `get${pascalName(short)}`)
          : ephemeralFunctionToken(pkg, ephemeralFunctionName(short));
    return { pkg, token, properties: [], foreign: true };
  }

  private provider(b: Block): void {
    const pkg = b.labels[0] ?? "";
    const alias = b.body.attributes.find((a) => a.name === "alias");
    if (alias !== undefined) throw new ConversionError(`provider ${pkg} has an alias; aliased providers are not rendered`);
    const foreign = pkg !== this.model.name && pkg !== this.prefix;
    if (foreign) this.otherProviders.add(pkg);
    const properties = foreign ? [] : this.model.config;
    const variable = this.variable(`${pkg}_provider`, pkg);
    this.current = new Set();
    const node: ProgramNode = { kind: "provider", name: pkg, variable, pkg: foreign ? pkg : this.model.name, args: this.objectBody(b.body, properties, undefined, foreign, `provider ${pkg}`), properties };
    this.nodes.set(variable, node);
    this.deps.set(variable, this.current);
    this.providerVariable.set(foreign ? pkg : this.prefix, variable);
  }

  private node(d: Declared, entity: Entity, info: NodeInfo): void {
    const where = `${d.tfType}.${d.label}`;
    for (const item of [...d.block.body.attributes.map((a) => a.name), ...d.block.body.blocks.map((b) => b.type)]) {
      const reason = UNSUPPORTED_META[item];
      if (reason !== undefined && !entity.properties.some((p) => p.tfName === item)) throw new ConversionError(`${where}: ${reason}`);
    }
    this.current = new Set();
    const loop = this.loopOf(d, where);
    const body: Body = {
      attributes: d.block.body.attributes.filter((a) => !["depends_on", "provider", "count", "for_each"].includes(a.name)),
      blocks: d.block.body.blocks,
      items: [],
    };
    this.loop = loop?.kind;
    const args = this.objectBody(body, entity.properties, undefined, entity.foreign, where);
    this.loop = undefined;
    this.loopElement = undefined;
    const dependsOn: string[] = [];
    const dependsAttr = d.block.body.attributes.find((a) => a.name === "depends_on");
    if (dependsAttr !== undefined) {
      if (dependsAttr.value.t !== "tuple") throw new ConversionError(`${where}: depends_on must be a list of resources`);
      for (const item of dependsAttr.value.items) {
        const target = this.traversalNode(item);
        if (target === undefined) throw new ConversionError(`${where}: depends_on names something other than a resource`);
        // An invoke is no resource to wait for: it orders the program, and its result is an Output already.
        if (target.kind === "resource") dependsOn.push(target.variable);
        this.current.add(target.variable);
      }
    }
    const providerAttr = d.block.body.attributes.find((a) => a.name === "provider");
    if (providerAttr !== undefined) throw new ConversionError(`${where}: a provider chosen by alias is not rendered`);
    const provider = this.providerVariable.get(entity.foreign ? entity.pkg : this.prefix);
    if (provider !== undefined) this.current.add(provider);
    const node: ProgramNode =
      d.kind === "resource"
        ? { kind: "resource", name: d.label, variable: info.variable, entity, args, dependsOn, ...(provider !== undefined ? { provider } : {}), ...(loop !== undefined ? { loop } : {}) }
        : { kind: "invoke", role: d.kind, name: d.label, variable: info.variable, entity, args, ...(provider !== undefined ? { provider } : {}) };
    if (d.kind !== "resource" && dependsOn.length > 0) throw new ConversionError(`${where}: depends_on on a data source is not rendered`);
    this.nodes.set(info.variable, node);
    this.deps.set(info.variable, this.current);
  }

  /** A resource's `count` or `for_each`, with the element type `each.value` has. */
  private loopOf(d: Declared, where: string): Loop | undefined {
    const count = d.block.body.attributes.find((a) => a.name === "count");
    const forEach = d.block.body.attributes.find((a) => a.name === "for_each");
    if (count !== undefined) return { kind: "count", count: this.value(count.value, { kind: "number" }, `${where}.count`) };
    if (forEach === undefined) return undefined;
    // toset() only drops duplicates, which a literal list of keys has none of.
    const source = forEach.value.t === "call" && forEach.value.name === "toset" && forEach.value.args.length === 1 ? forEach.value.args[0]! : forEach.value;
    const items = this.value(source, undefined, `${where}.for_each`);
    if (items.kind === "list" && !items.items.every((i) => i.kind === "string")) throw new ConversionError(`${where}: for_each over a list needs strings as keys`);
    if (items.kind !== "list" && items.kind !== "map") throw new ConversionError(`${where}: for_each over a value computed at run time is not rendered`);
    // each.value has the type every element shares (a map's values as written), else none known.
    const kinds = new Set((items.kind === "list" ? items.items : items.entries.map((e) => e.value)).map((v) => v.kind));
    const only = kinds.size === 1 ? [...kinds][0] : undefined;
    this.loopElement = only === "string" ? { kind: "string" } : only === "number" ? { kind: "number" } : only === "bool" ? { kind: "boolean" } : undefined;
    return { kind: "forEach", items };
  }

  /** Attributes and nested blocks of a body as an object of the given properties (any names for another provider's). */
  private objectBody(body: Body, properties: readonly PropertyModel[], objectType: ObjectTypeModel | undefined, foreign: boolean, where: string): ObjectValue {
    const out: ObjectValue["properties"] = [];
    for (const a of body.attributes) {
      const p = this.property(properties, a.name, foreign, where);
      out.push({ tfName: a.name, name: p?.name ?? propertyName(a.name), value: this.value(a.value, p?.type, `${where}.${a.name}`) });
    }
    const grouped = new Map<string, Block[]>();
    for (const b of body.blocks) grouped.set(b.type, [...(grouped.get(b.type) ?? []), b]);
    for (const [type, blocks] of grouped) {
      const reason = UNSUPPORTED_META[type];
      const p = this.property(properties, type, foreign, where);
      if (reason !== undefined && p === undefined) throw new ConversionError(`${where}: ${reason}`);
      const obj = p === undefined ? undefined : objectTypeOf(p.type);
      const one = (b: Block): ObjectValue => this.objectBody(b.body, obj?.properties ?? [], obj, foreign, `${where}.${type}`);
      if (p?.type.kind === "object") {
        if (blocks.length > 1) throw new ConversionError(`${where}: ${type} is a single block but appears ${blocks.length} times`);
        out.push({ tfName: type, name: p.name, value: { ...one(blocks[0]!), type: p.type } });
      } else if (p?.type.kind === "map") {
        out.push({ tfName: type, name: p.name, value: this.blockMap(blocks, obj, foreign, `${where}.${type}`, p.type) });
      } else {
        // Another provider's block written once is taken as one object; its name is plural, as the bridge names blocks.
        const items = blocks.map(one);
        const value: Value = p === undefined && blocks.length === 1 ? items[0]! : { kind: "list", items, ...(p !== undefined ? { type: p.type } : {}) };
        out.push({ tfName: type, name: p?.name ?? pluralize(propertyName(type)), value });
      }
    }
    return { kind: "object", properties: out, ...(objectType !== undefined ? { objectType } : {}) };
  }

  private blockMap(blocks: Block[], obj: ObjectTypeModel | undefined, foreign: boolean, where: string, type: TypeModel): Value {
    return {
      kind: "map",
      entries: blocks.map((b) => ({ key: b.labels[0] ?? "", value: this.objectBody(b.body, obj?.properties ?? [], obj, foreign, where) })),
      type,
    };
  }

  /** The schema property an attribute or block sets; undefined for another provider's, whose schema is unknown here. */
  private property(properties: readonly PropertyModel[], tfName: string, foreign: boolean, where: string): PropertyModel | undefined {
    const p = properties.find((q) => q.tfName === tfName);
    if (p !== undefined) {
      if (!p.input) throw new ConversionError(`${where}: ${tfName} is computed by the provider and cannot be set`);
      return p;
    }
    if (!foreign) throw new ConversionError(`${where}: ${tfName} is not in the schema`);
    return undefined;
  }

  /** A value for an expression, where the schema expects `type` (undefined: not known). */
  private value(e: Expr, type: TypeModel | undefined, where: string): Value {
    const typed = <V extends Value>(v: V): V => (type !== undefined ? { ...v, type } : v);
    switch (e.t) {
      case "literal":
        return typed(this.literal(e.value, type, where));
      case "template": {
        const parts = e.parts.map((p) => (typeof p === "string" ? p : this.value(p, undefined, where)));
        // path.module and other constants fold into the text around them.
        const folded: (string | Value)[] = [];
        for (const p of parts) {
          const text = typeof p === "string" ? p : p.kind === "string" ? p.value : undefined;
          const last = folded[folded.length - 1];
          if (text !== undefined && typeof last === "string") folded[folded.length - 1] = last + text;
          else folded.push(text ?? p);
        }
        if (folded.length === 1 && typeof folded[0] === "string") return typed({ kind: "string", value: folded[0] });
        return typed({ kind: "template", parts: folded });
      }
      case "tuple": {
        const items = type?.kind === "array" ? type.items : undefined;
        const obj = items !== undefined ? objectTypeOf(items) : undefined;
        return typed({
          kind: "list",
          items: e.items.map((i, n) => (obj !== undefined && i.t === "object" ? this.objectLiteral(i, obj, items!, `${where}[${n}]`) : this.value(i, items, `${where}[${n}]`))),
        });
      }
      case "object": {
        const obj = type?.kind === "object" ? type.ref : undefined;
        if (obj !== undefined) return this.objectLiteral(e, obj, type!, where);
        const values = type?.kind === "map" ? type.values : undefined;
        return typed({
          kind: "map",
          entries: e.items.map((i) => {
            const key = this.value(i.key, undefined, where);
            if (key.kind !== "string") throw new ConversionError(`${where}: an object key computed at run time is not rendered`);
            return { key: key.value, value: this.value(i.value, values, `${where}.${key.value}`) };
          }),
        });
      }
      case "call":
        return typed(this.call(e, where));
      case "name":
      case "attr":
      case "index":
        return typed(this.traversal(e, where));
      case "splat":
        throw new ConversionError(`${where}: splat expressions ([*]) are not rendered`);
      case "for":
        throw new ConversionError(`${where}: for expressions are not rendered`);
      case "unary":
        if (e.op === "-" && e.operand.t === "literal" && typeof e.operand.value === "number") return typed({ kind: "number", value: -e.operand.value });
        throw new ConversionError(`${where}: operators are not rendered`);
      case "binary":
      case "conditional":
        throw new ConversionError(`${where}: operators and conditionals are not rendered`);
    }
  }

  private objectLiteral(e: Extract<Expr, { t: "object" }>, obj: ObjectTypeModel, type: TypeModel, where: string): ObjectValue {
    const properties = e.items.map((i) => {
      const key = this.value(i.key, undefined, where);
      if (key.kind !== "string") throw new ConversionError(`${where}: an object key computed at run time is not rendered`);
      const p = this.property(obj.properties, key.value, false, where)!;
      return { tfName: p.tfName, name: p.name, value: this.value(i.value, p.type, `${where}.${key.value}`) };
    });
    return { kind: "object", properties, objectType: obj, type };
  }

  /** A literal, converted as Terraform converts it to the type the schema expects. */
  private literal(v: string | number | boolean | null, type: TypeModel | undefined, where: string): Value {
    if (v === null) return { kind: "null" };
    if (type?.kind === "number" && typeof v === "string") {
      if (!/^-?[0-9]+(\.[0-9]+)?$/.test(v)) throw new ConversionError(`${where}: "${v}" is not a number`);
      return { kind: "number", value: Number(v) };
    }
    if (type?.kind === "string" && typeof v !== "string") return { kind: "string", value: String(v) };
    if (type?.kind === "boolean" && typeof v === "string") return { kind: "bool", value: v === "true" };
    if (typeof v === "string") return { kind: "string", value: v };
    if (typeof v === "number") return { kind: "number", value: v };
    return { kind: "bool", value: v };
  }

  private call(e: Extract<Expr, { t: "call" }>, where: string): Value {
    if (e.expand) throw new ConversionError(`${where}: expanding a list into arguments (...) is not rendered`);
    if (e.name.startsWith("provider::")) return this.providerFunction(e, where);
    if (!BUILTINS.has(e.name)) throw new ConversionError(`${where}: the function ${e.name} has no equivalent rendered here`);
    const args = e.args.map((a) => this.value(a, e.name === "jsonencode" ? undefined : { kind: "string" }, where));
    if (args.length !== 1) throw new ConversionError(`${where}: ${e.name} takes one argument`);
    return { kind: "call", fn: e.name as Builtin, args };
  }

  /** `provider::time::duration_parse("1h")`: an invoke node of its own, whose result the value refers to. */
  private providerFunction(e: Extract<Expr, { t: "call" }>, where: string): Value {
    const [, pkg, name] = e.name.split("::") as [string, string, string];
    if (pkg !== this.model.name && pkg !== this.prefix) throw new ConversionError(`${where}: ${e.name} is another provider's function`);
    const fn = this.model.functions.get(name);
    if (fn === undefined) throw new ConversionError(`${where}: ${e.name} is not in this provider's schema`);
    const params = [...fn.parameters];
    if (fn.variadic !== undefined) throw new ConversionError(`${where}: ${e.name} takes variadic arguments, which are not rendered`);
    if (e.args.length !== params.length) throw new ConversionError(`${where}: ${e.name} takes ${params.length} arguments, not ${e.args.length}`);
    const args: ObjectValue = {
      kind: "object",
      properties: params.map((p, i) => ({ tfName: p.tfName, name: p.name, value: this.value(e.args[i]!, p.type, `${where}(${p.tfName})`) })),
    };
    const variable = this.variable(`${name}_result`, name);
    const deps = this.current;
    const entity: Entity = { pkg: this.model.name, token: fn.token, properties: [], foreign: false };
    const node: InvokeNode = { kind: "invoke", role: "function", name: variable, variable, entity, args, function: fn };
    this.nodes.set(variable, node);
    this.deps.set(variable, new Set(deps));
    deps.add(variable);
    const resultProperties = fn.returnType.kind === "object" ? fn.returnType.ref.properties : [];
    this.infos.set(`function.${variable}`, { variable, properties: resultProperties, foreign: false, kind: "invoke" });
    return { kind: "ref", node: variable, path: [], type: fn.returnType };
  }

  /** The node a traversal's root names (`random_pet.server`, `data.http.example`), if it names one. */
  private traversalNode(e: Expr): NodeInfo | undefined {
    const steps = flatten(e);
    const names = steps.map((s) => (s.kind === "name" ? s.name : undefined));
    const key = names[0] === "data" || names[0] === "ephemeral" ? names.slice(0, 3).join(".") : names.slice(0, 2).join(".");
    return this.infos.get(key);
  }

  private traversal(e: Expr, where: string): Value {
    const steps = flatten(e);
    const root = steps[0]!.kind === "name" ? steps[0]!.name : "";
    const second = steps[1]?.kind === "name" ? steps[1].name : undefined;
    if (root === "var") {
      if (second === undefined) throw new ConversionError(`${where}: var needs a variable name`);
      if (steps.length > 2) throw new ConversionError(`${where}: parts of a variable's value are not rendered`);
      return { kind: "config", variable: this.configVariable(second).variable };
    }
    if (root === "local") {
      const local = second === undefined ? undefined : this.locals.get(second);
      if (local === undefined || steps.length > 2) throw new ConversionError(`${where}: local.${second ?? ""} is not declared`);
      return this.value(local, undefined, where);
    }
    if (root === "path") return { kind: "string", value: "." };
    if (root === "count" && second === "index" && steps.length === 2 && this.loop === "count") return { kind: "loop", part: "index", type: { kind: "number" } };
    if (root === "each" && (second === "key" || second === "value") && steps.length === 2 && this.loop === "forEach") {
      return { kind: "loop", part: second, ...(second === "key" ? { type: { kind: "string" } } : this.loopElement !== undefined ? { type: this.loopElement } : {}) };
    }
    if (root === "self" || root === "count" || root === "each" || root === "terraform") throw new ConversionError(`${where}: ${root}.* is not rendered here`);
    const skip = root === "data" || root === "ephemeral" ? 3 : 2;
    const info = this.traversalNode(e);
    if (info === undefined) throw new ConversionError(`${where}: nothing in the example is named ${steps.slice(0, skip).map((s) => (s.kind === "name" ? s.name : "?")).join(".")}`);
    this.current.add(info.variable);
    return this.refPath(info, steps.slice(skip), where);
  }

  private refPath(info: NodeInfo, steps: TraversalStep[], where: string): Value {
    const path: PathStep[] = [];
    if (info.loop !== undefined) {
      const first = steps[0];
      // `x.a` and `x["a"]` name the same instance of a for_each resource.
      const fits = info.loop === "count" ? first?.kind === "index" : first !== undefined;
      if (first === undefined || !fits) throw new ConversionError(`${where}: a repeated resource is referred to here without ${info.loop === "count" ? "an index" : "a key"}`);
      path.push(first.kind === "index" ? (info.loop === "count" ? first : { kind: "key", key: String(first.index) }) : first.kind === "key" ? first : { kind: "key", key: first.name });
      steps = steps.slice(1);
    }
    let properties: readonly PropertyModel[] | undefined = info.foreign ? undefined : info.properties;
    let type: TypeModel | undefined;
    for (const s of steps) {
      if (s.kind === "name" && type?.kind === "map") {
        path.push({ kind: "key", key: s.name });
        type = type.values;
      } else if (s.kind === "name") {
        if (properties === undefined) {
          path.push({ kind: "property", tfName: s.name, name: propertyName(s.name) });
          type = undefined;
          continue;
        }
        const p = properties.find((q) => q.tfName === s.name);
        if (p === undefined) throw new ConversionError(`${where}: ${s.name} is not an attribute here`);
        path.push({ kind: "property", tfName: p.tfName, name: p.name });
        type = p.type;
      } else if (s.kind === "index") {
        path.push({ kind: "index", index: s.index });
        type = type?.kind === "array" ? type.items : undefined;
      } else {
        path.push({ kind: "key", key: s.key });
        type = type?.kind === "map" ? type.values : undefined;
      }
      properties = info.foreign || type === undefined ? undefined : objectTypeOf(type)?.properties;
    }
    return { kind: "ref", node: info.variable, path, ...(type !== undefined ? { type } : {}) };
  }

  private configVariable(name: string): ConfigVariable {
    const existing = this.config.get(name);
    if (existing !== undefined) return existing;
    const declared = this.declaredVariables.get(name);
    const typeAttr = declared?.body.attributes.find((a) => a.name === "type");
    const typeName = typeAttr?.value.t === "name" ? typeAttr.value.name : "string";
    const type = typeName === "number" ? "number" : typeName === "bool" ? "boolean" : typeName === "string" ? "string" : undefined;
    if (type === undefined) throw new ConversionError(`variable ${name} has the type ${typeName}, which stack configuration is not rendered as`);
    const def = declared?.body.attributes.find((a) => a.name === "default");
    const v: ConfigVariable = { name, variable: this.variable(name, "var"), type, ...(def !== undefined ? { default: this.literalOnly(def.value, name) } : {}) };
    this.config.set(name, v);
    return v;
  }

  private literalOnly(e: Expr, name: string): Value {
    if (e.t !== "literal" || e.value === null) throw new ConversionError(`variable ${name} has a default other than a string, number or bool`);
    return this.literal(e.value, undefined, name);
  }

  /** Nodes with each after what it refers to, otherwise in the order the example declares them. */
  private ordered(): ProgramNode[] {
    const out: ProgramNode[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (v: string): void => {
      if (state.get(v) === "done") return;
      if (state.get(v) === "visiting") throw new ConversionError(`${v} refers to itself through other resources`);
      state.set(v, "visiting");
      for (const d of this.deps.get(v) ?? []) if (d !== v) visit(d);
      state.set(v, "done");
      out.push(this.nodes.get(v)!);
    };
    for (const v of this.nodes.keys()) visit(v);
    return out;
  }
}

type TraversalStep = { kind: "name"; name: string } | { kind: "index"; index: number } | { kind: "key"; key: string };

/** A traversal as its steps from the root: `a.b[0]["k"]` → name a, name b, index 0, key k. */
function flatten(e: Expr): TraversalStep[] {
  switch (e.t) {
    case "name":
      return [{ kind: "name", name: e.name }];
    case "attr":
      return [...flatten(e.of), { kind: "name", name: e.name }];
    case "index": {
      const k = e.key;
      if (k.t !== "literal" || k.value === null || typeof k.value === "boolean") throw new ConversionError("an index computed at run time is not rendered");
      return [...flatten(e.of), typeof k.value === "number" ? { kind: "index", index: k.value } : { kind: "key", key: k.value }];
    }
    default:
      throw new ConversionError("a reference into the result of an expression is not rendered");
  }
}

/** Every resource's `id`, which Pulumi holds apart from its properties. */
const idProperty: PropertyModel = {
  tfName: "id",
  name: "id",
  tfType: { kind: "string" },
  type: { kind: "string" },
  required: false,
  input: false,
  computed: true,
  secret: false,
  writeOnly: false,
  maxItemsOne: false,
  description: "",
};

/** Binds a parsed example to the provider model. Throws ConversionError saying what could not be rendered. */
export function bindProgram(body: Body, model: ProviderModel): Program {
  return new Binder(model).bind(body);
}
