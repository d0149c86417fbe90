// Builds the provider model from a Terraform provider schema: names, tokens, types and flags, computed once.
import { readSetting } from "../setting.js";
import { isPrimitiveType, type CtyType } from "../terraform/cty/index.js";
import { attributeType, impliedType } from "../terraform/schema.js";
import type { Attribute, Block, FunctionParameter, NestedBlock, ProviderSchema, Schema } from "../terraform/types.js";
import {
  propertyModel,
  type DataSourceModel,
  type EphemeralResourceModel,
  type ActionModel,
  type FunctionModel,
  type FunctionParameterModel,
  type ModelOptions,
  type ObjectTypeModel,
  type PropertyModel,
  type ProviderModel,
  type ResourceModel,
  type TypeModel,
} from "./model.js";
import { applyDocs } from "./docs.js";
import {
  ACTIONS_MODULE,
  actionFunctionName,
  actionFunctionToken,
  type TypeModule,
  EPHEMERAL_MODULE,
  TokenAllocator,
  EntityMemo,
  TypeRegistry,
  pulumiShape,
  sameOwners,
  ephemeralFunctionName,
  ephemeralFunctionToken,
  inferPrefix,
  lowerFirst,
  moduleToken,
  pascalName,
  distinctPropertyNames,
  plainTfName,
  pluralPropertyTfName,
  propertyName,
  resourceClassName,
  singularize,
  stripPrefix,
  typeToken,
} from "./names.js";

export class SchemaTranslationError extends Error {}

/** How deep blocks, nested attributes and types may nest in a provider's schema (a bound on every recursion over it). */
export const MAX_SCHEMA_DEPTH_ENV = "TF_BRIDGE_MAX_SCHEMA_DEPTH";
/** Far above real providers (the deepest nest some 20 levels) and far below where walking a schema runs out of stack. */
export const DEFAULT_MAX_SCHEMA_DEPTH = 100;

/** The depth limit from the environment: a whole number from 1 to 1000, or the default when unset. */
export function maxSchemaDepth(env: NodeJS.ProcessEnv): number {
  const parse = (raw: string): number | undefined => (/^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 1000 ? Number(raw) : undefined);
  const setting = { name: MAX_SCHEMA_DEPTH_ENV, fallback: DEFAULT_MAX_SCHEMA_DEPTH, shown: DEFAULT_MAX_SCHEMA_DEPTH, what: "a whole number from 1 to 1000", parse };
  return readSetting(env, setting, (message) => new SchemaTranslationError(message));
}

/** Where a nested type's name comes from: the owner's name plus the property path. */
interface TypeContext {
  pkg: string;
  types: TypeRegistry;
  /** `String` for random_string, `getFile` for a data source, `Provider` for the configuration. */
  prefix: string;
  /** Where named types go: `index`, `config` for the types of configuration variables, `ephemeral` for ephemeral resources', `actions` for actions'. */
  module?: TypeModule;
}

const DEFAULT_DEPRECATION = "Deprecated";

function deprecation(deprecated: boolean, message: string): string | undefined {
  if (message !== "") return message;
  return deprecated ? DEFAULT_DEPRECATION : undefined;
}

function isCollection(t: CtyType): boolean {
  return t.kind === "list" || t.kind === "set";
}

/**
 * Registers an object type under its token; a second, different shape under the same name gets a suffix, and the plain
 * name goes to the declaration the reference's type describes (`TypeRegistry`). Building a candidate registers its
 * nested types (named after the candidate), so a candidate that is not kept takes them back out.
 */
function registerType(ctx: TypeContext, name: string, build: (token: string, name: string) => ObjectTypeModel): ObjectTypeModel {
  const types = ctx.types;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}V${n}`;
    const token = typeToken(ctx.pkg, candidate, ctx.module);
    const registered = types.size;
    const mark = types.mark();
    const built = build(token, candidate);
    const existing = types.get(token);
    // Alike declarations share the token (nested types compared by token: they were shared the same way).
    const allowed = n > 1 || types.mayTakePlain(token, built);
    if (allowed && (existing === undefined || pulumiShape(existing, byToken) === pulumiShape(built, byToken))) return types.share(built);
    dropTypesAfter(types, registered);
    types.undo(mark);
  }
}

const byToken = (t: ObjectTypeModel): string => t.token;

/** Removes the types registered after the first `count` (a Map iterates in insertion order, so they are its tail). */
function dropTypesAfter(types: Map<string, ObjectTypeModel>, count: number): void {
  let i = 0;
  for (const token of [...types.keys()]) if (i++ >= count) types.delete(token);
}

/**
 * The Pulumi type of a plain cty type; object types become named types below `typeName`. Their attributes are never
 * required: Terraform accepts null for any attribute of an object value, and the reference marks none.
 */
function ctyToType(ctx: TypeContext, t: CtyType, typeName: string): TypeModel {
  switch (t.kind) {
    case "string":
      return { kind: "string" };
    case "number":
      return { kind: "number" };
    case "bool":
      return { kind: "boolean" };
    case "dynamic":
      return { kind: "any" };
    case "list":
      return { kind: "array", items: ctyToType(ctx, t.element, typeName) };
    case "set":
      return { kind: "array", items: ctyToType(ctx, t.element, typeName), set: true };
    case "map":
      return { kind: "map", values: ctyToType(ctx, t.element, typeName) };
    case "tuple":
      // Pulumi has no tuple type; the elements' types differ, so the array holds anything.
      return { kind: "array", items: { kind: "any" } };
    case "object":
      return { kind: "object", ref: registerType(ctx, typeName, (token) => objectTypeModel(ctx, t, typeName, token, false)) };
  }
}

/** The properties of a cty object type; `required` marks every attribute the type does not list as optional. */
function objectTypeModel(ctx: TypeContext, t: Extract<CtyType, { kind: "object" }>, typeName: string, token: string, required: boolean): ObjectTypeModel {
  const optional = new Set(t.optional ?? []);
  const attrs = Object.keys(t.attributes).sort();
  const { names } = propertyNames(attrs.map((attr) => ({ tfName: attr, collection: isCollection(t.attributes[attr]!) })), new Set(attrs));
  const properties = attrs.map((attr, i): PropertyModel => {
    const at = t.attributes[attr]!;
    const name = names[i]!;
    return propertyModel({
      tfName: attr,
      name,
      tfType: at,
      type: ctyToType(ctx, at, nestedTypeName(typeName, name, isCollection(at))),
      required: required && !optional.has(attr),
    });
  });
  return { token, properties, description: "" };
}

/** Nested type names append the property name, singular for lists and sets: `Bucket` + `rules` → `BucketRule`. */
function nestedTypeName(parent: string, propName: string, collection: boolean): string {
  const base = collection ? singularize(propName) : propName;
  return parent + base.slice(0, 1).toUpperCase() + base.slice(1);
}

/** The property name Pulumi's schema reserves in every object (pkg/codegen/schema's reservedKeywords), and its stand-in. */
const RESERVED_PROPERTY = "pulumi";
const RESERVED_RENAMED = "pulumiInfo";

/** What an attribute or block with no usable name is called (an empty name, or one of only other characters). */
const UNNAMED = "unnamed";

/**
 * The Pulumi names of one object's properties, in the order given: each Terraform name made plain, pluralised when a
 * collection, renamed when `renames` says so (`id` → `itemId`), then told apart where they collide (`suffixed`: the
 * name is not the one the reference would give, so the converter's mapping must list it).
 */
function propertyNames(props: readonly { tfName: string; collection: boolean; rename?: string }[], siblings: ReadonlySet<string>, fallback = UNNAMED): { names: string[]; suffixed: boolean[] } {
  const entries = props.map((p) => {
    // A renamed property's Terraform spelling is never its name's snake_case: an attribute spelled so keeps the name.
    if (p.rename !== undefined) return { tfName: p.tfName, spelling: p.tfName, name: p.rename };
    const plain = plainTfName(p.tfName, fallback);
    const spelling = p.collection ? pluralPropertyTfName(plain, siblings) : plain;
    const name = propertyName(spelling);
    // Pulumi's schema refuses a property named `pulumi` anywhere; a resource's own is renamed so by resourceRenames.
    if (name === RESERVED_PROPERTY) return { tfName: p.tfName, spelling: p.tfName, name: RESERVED_RENAMED };
    return { tfName: p.tfName, spelling, name };
  });
  const names = distinctPropertyNames(entries);
  return { names, suffixed: names.map((n, i) => n !== entries[i]!.name) };
}

/** The type name for a property's own object type: a configuration variable's is the variable's name as it is. */
function propertyTypeName(ctx: TypeContext, propName: string, collection: boolean): string {
  return ctx.module === "config" && ctx.prefix === "" ? propName : nestedTypeName(ctx.prefix, propName, collection);
}

function attributeProperty(ctx: TypeContext, a: Attribute, name: string, renamed: boolean): PropertyModel {
  const tfType = attributeType(a);
  const collection = isCollection(tfType);
  let type: TypeModel;
  if (a.nestedType !== undefined) {
    const nested = a.nestedType;
    const typeName = propertyTypeName(ctx, name, nested.nesting === "list" || nested.nesting === "set");
    const ref = registerType(ctx, typeName, (token, finalName) => ({
      token,
      properties: blockLikeProperties({ ...ctx, prefix: finalName }, nested.attributes, []),
      description: "",
    }));
    const obj: TypeModel = { kind: "object", ref };
    type = nested.nesting === "single" ? obj : nested.nesting === "map" ? { kind: "map", values: obj } : { kind: "array", items: obj, ...(nested.nesting === "set" ? { set: true } : {}) };
  } else {
    type = ctyToType(ctx, tfType, propertyTypeName(ctx, name, collection));
  }
  return propertyModel({
    tfName: a.name,
    name,
    tfType,
    type,
    required: a.required,
    input: a.required || a.optional,
    computed: a.computed,
    secret: a.sensitive || a.writeOnly,
    writeOnly: a.writeOnly,
    description: a.description,
    deprecationMessage: deprecation(a.deprecated, a.deprecationMessage),
    ...(renamed ? { renamed: true } : {}),
  });
}

/** Whether a block becomes an array property (a list or set block that may hold more than one element). */
function blockIsArray(nb: NestedBlock): boolean {
  return (nb.nesting === "list" || nb.nesting === "set") && nb.maxItems !== 1;
}

function blockProperty(ctx: TypeContext, nb: NestedBlock, name: string, renamed: boolean): PropertyModel {
  const collection = nb.nesting === "list" || nb.nesting === "set";
  const maxItemsOne = collection && nb.maxItems === 1;
  const typeName = propertyTypeName(ctx, name, collection && !maxItemsOne);
  const ref = registerType(ctx, typeName, (token, finalName) => ({
    token,
    properties: blockLikeProperties({ ...ctx, prefix: finalName }, nb.block.attributes, nb.block.blockTypes),
    description: nb.block.description,
  }));
  const obj: TypeModel = { kind: "object", ref };
  const type: TypeModel =
    nb.nesting === "map" ? { kind: "map", values: obj } : collection && !maxItemsOne ? { kind: "array", items: obj, ...(nb.nesting === "set" ? { set: true } : {}) } : obj;
  const inner = impliedType(nb.block);
  const tfType: CtyType =
    nb.nesting === "list" ? { kind: "list", element: inner } : nb.nesting === "set" ? { kind: "set", element: inner } : nb.nesting === "map" ? { kind: "map", element: inner } : inner;
  return propertyModel({
    tfName: nb.typeName,
    name,
    tfType,
    type,
    required: nb.minItems > 0,
    // A computed block (Terraform 1.16) is what a computed attribute is: an output too, and an input only where some
    // attribute or block inside it is optional; a block the provider alone fills in is output-only.
    ...(nb.block.computed === true ? { computed: true, input: configurable(nb.block) } : {}),
    maxItemsOne,
    block: nb.nesting,
    description: nb.block.description,
    deprecationMessage: deprecation(nb.block.deprecated, nb.block.deprecationMessage),
    ...(renamed ? { renamed: true } : {}),
  });
}

/** Whether the configuration may set anything in the block: an optional or required attribute, or a block that is no computed-only one. */
function configurable(block: Block): boolean {
  return block.attributes.some((a) => a.optional || a.required) || block.blockTypes.some((nb) => nb.block.computed !== true || configurable(nb.block));
}

function blockLikeProperties(ctx: TypeContext, attributes: readonly Attribute[], blocks: readonly NestedBlock[], renames?: ReadonlyMap<string, string>): PropertyModel[] {
  const { names, suffixed } = blockPropertyNames(attributes, blocks, renames);
  const props = [
    ...attributes.map((a, i) => attributeProperty(ctx, a, names[i]!, renames?.has(a.name) === true || suffixed[i]!)),
    ...blocks.map((b, i) => blockProperty(ctx, b, names[attributes.length + i]!, renames?.has(b.typeName) === true || suffixed[attributes.length + i]!)),
  ];
  return props.sort((a, b) => (a.tfName < b.tfName ? -1 : a.tfName > b.tfName ? 1 : 0));
}

/**
 * The Pulumi names of a block's attributes then its blocks: a function of the schema's own arrays (and the renames of a
 * resource's top level), kept per array so that a model built again (`buildProviderModel`) names nothing twice.
 */
function blockPropertyNames(attributes: readonly Attribute[], blocks: readonly NestedBlock[], renames?: ReadonlyMap<string, string>): { names: string[]; suffixed: boolean[] } {
  const cacheable = renames === undefined || renames.size === 0;
  const blocksKey = blocks.length === 0 ? NO_BLOCKS : blocks;
  const known = cacheable ? namesOfBlock.get(attributes)?.get(blocksKey) : undefined;
  if (known !== undefined) return known;
  const siblings = new Set([...attributes.map((a) => a.name), ...blocks.map((b) => b.typeName)]);
  const named = propertyNames(
    [
      ...attributes.map((a) => ({ tfName: a.name, collection: isCollection(attributeType(a)), rename: renames?.get(a.name) })),
      ...blocks.map((b) => ({ tfName: b.typeName, collection: blockIsArray(b), rename: renames?.get(b.typeName) })),
    ],
    siblings,
  );
  if (cacheable) {
    let byBlocks = namesOfBlock.get(attributes);
    if (byBlocks === undefined) namesOfBlock.set(attributes, (byBlocks = new WeakMap()));
    byBlocks.set(blocksKey, named);
  }
  return named;
}

/** Per attribute array, then per nested-block array (NO_BLOCKS for none): the properties' names (blockPropertyNames). */
const namesOfBlock = new WeakMap<readonly Attribute[], WeakMap<readonly NestedBlock[], { names: string[]; suffixed: boolean[] }>>();
const NO_BLOCKS: readonly NestedBlock[] = [];

/**
 * Top-level renames a resource needs: Pulumi owns `id` and `urn`, and `pulumi` would clash with SDK internals.
 * A computed-only string `id` is the resource id and no property at all; any other `id` (a block too) is an ordinary
 * property under the first free name among `<res>_id`, `<pkg>_<res>_id`, `resource_id`, `<pkg>_id`, where `<res>` is
 * the Terraform name without the provider prefix (before any renaming of the resource itself), as the reference names
 * it. Where every candidate is taken, or `<pkg>_urn` is, the reference fails; here the first candidate is used and
 * distinctPropertyNames tells the two apart, so one odd resource does not stop the whole provider.
 */
function resourceRenames(block: Block, shortName: string, pkg: string): { renames: Map<string, string>; idIsResourceId: boolean; hasId: boolean } {
  const names = new Set([...block.attributes.map((a) => a.name), ...block.blockTypes.map((b) => b.typeName)]);
  const renames = new Map<string, string>();
  const idAttr = block.attributes.find((a) => a.name === "id");
  const pkgName = pkg.replace(/-/g, "_");
  let idIsResourceId = false;
  if (idAttr !== undefined && idAttr.computed && !idAttr.optional && !idAttr.required && idAttr.type?.kind === "string") {
    idIsResourceId = true;
  } else if (names.has("id")) {
    const res = shortName.replace(/^_+/, "");
    const candidates = [`${res}_id`, `${pkgName}_${res}_id`, "resource_id", `${pkgName}_id`];
    renames.set("id", propertyName(plainTfName(candidates.find((c) => !names.has(c)) ?? candidates[0]!, "resource_id")));
  }
  if (names.has("urn")) renames.set("urn", propertyName(plainTfName(`${pkg}_urn`, "urn_")));
  if (names.has(RESERVED_PROPERTY)) renames.set(RESERVED_PROPERTY, RESERVED_RENAMED);
  return { renames, idIsResourceId, hasId: idAttr !== undefined };
}

/**
 * The reference autonames every resource's string `name` input (required or optional): Pulumi fills it in when the
 * program leaves it out, so it is not a required input.
 */
function markAutonamed(props: PropertyModel[]): PropertyModel[] {
  return props.map((p) => (p.tfName === "name" && p.input && p.type.kind === "string" && p.tfType.kind === "string" ? { ...p, autonamed: true } : p));
}

/**
 * Configuration variables: the provider's properties again, with their object types in the `config` module, named
 * after the variable itself (`proxies`), and nested types below it as elsewhere (`proxiesAuth`).
 */
function configVariableProperties(pkg: string, types: TypeRegistry, attributes: readonly Attribute[], blocks: readonly NestedBlock[]): PropertyModel[] {
  return blockLikeProperties({ pkg, types, prefix: "", module: "config" }, attributes, blocks);
}

/** schemaProblem, kept per root block: a model built again (`buildProviderModel`) walks no schema twice. */
function blockProblem(roots: readonly SchemaNode[], maxDepth: number): string | undefined {
  const only = roots.length === 1 ? roots[0]! : undefined;
  const root = only !== undefined && "block" in only && only.path === "" && only.depth === 0 ? only.block : undefined;
  if (root === undefined) return schemaProblem(roots, maxDepth);
  const known = problems.get(root);
  if (known !== undefined && known.maxDepth === maxDepth) return known.problem;
  const problem = schemaProblem(roots, maxDepth);
  problems.set(root, { maxDepth, problem });
  return problem;
}

const problems = new WeakMap<Block, { maxDepth: number; problem: string | undefined }>();

/** One thing to look at in a schema: where it is (attribute path), how deep, and what it is. */
type SchemaNodeKind = { block: Block } | { attributes: readonly Attribute[] } | { type: CtyType };
type SchemaNode = { path: string; depth: number } & SchemaNodeKind;

/** A path for messages: the first and last few steps of a long one. */
function shownPath(path: string): string {
  const steps = path.split(".");
  return steps.length <= 12 ? path : [...steps.slice(0, 6), "…", ...steps.slice(-5)].join(".");
}

/** A type with nothing inside it to walk. */
const isLeafType = (t: CtyType): boolean => isPrimitiveType(t) || t.kind === "dynamic";

/**
 * What makes a schema one no walk over it should start on, or undefined: nesting deeper than `maxDepth` (blocks, nested
 * attributes and types each count one level), two attributes or blocks of one name, an attribute with no type. The
 * walk is a loop, not a recursion, so it cannot run out of stack on what it is there to refuse.
 */
function schemaProblem(roots: readonly SchemaNode[], maxDepth: number): string | undefined {
  // Each node keeps its parent's step, not its path: the path is spelled only for the message, and most schemas have none.
  type Step = { up: Step | undefined; name: string };
  type Walk = SchemaNodeKind & { depth: number; step: Step };
  const pathOf = (step: Step): string => {
    const parts: string[] = [];
    for (let s: Step | undefined = step; s !== undefined; s = s.up) {
      // A root's name is its path as given; the names below it are quoted where they are not plain.
      if (s.up === undefined) {
        if (s.name !== "") parts.push(s.name);
      } else parts.push(/^[A-Za-z0-9_]+$/.test(s.name) ? s.name : JSON.stringify(s.name));
    }
    return parts.reverse().join(".");
  };
  const child = (up: Step, name: string): Step => ({ up, name });
  const stack: Walk[] = roots.map((r) => ({ ...r, step: { up: undefined, name: r.path } }));
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { step, depth } = node;
    if (depth > maxDepth) {
      return `${shownPath(pathOf(step))} is nested more than ${maxDepth} levels deep (${MAX_SCHEMA_DEPTH_ENV}, default ${DEFAULT_MAX_SCHEMA_DEPTH}); raise ${MAX_SCHEMA_DEPTH_ENV} if the provider really nests this deep`;
    }
    if ("type" in node) {
      const t = node.type;
      // A primitive type holds nothing to check but its depth, so it is walked only when too deep.
      const inner = depth + 1;
      const walk = (type: CtyType, at: Step): void => {
        if (!isLeafType(type) || inner > maxDepth) stack.push({ step: at, depth: inner, type });
      };
      if (t.kind === "list" || t.kind === "set" || t.kind === "map") walk(t.element, step);
      else if (t.kind === "tuple") for (const e of t.elements) walk(e, step);
      else if (t.kind === "object") for (const k of Object.keys(t.attributes)) walk(t.attributes[k]!, child(step, k));
      continue;
    }
    const attributes = "block" in node ? node.block.attributes : node.attributes;
    const blocks = "block" in node ? node.block.blockTypes : [];
    const seen = new Set<string>();
    const twice = (name: string): boolean => seen.size === seen.add(name).size;
    for (const a of attributes) if (twice(a.name)) return `${pathOf(child(step, a.name))} is declared twice`;
    for (const b of blocks) if (twice(b.typeName)) return `${pathOf(child(step, b.typeName))} is declared twice`;
    for (const a of attributes) {
      if (a.nestedType !== undefined) stack.push({ step: child(step, a.name), depth: depth + 1, attributes: a.nestedType.attributes });
      // At its block's own depth, which was checked: a primitive attribute has nothing left to check.
      else if (a.type !== undefined) {
        if (!isLeafType(a.type)) stack.push({ step: child(step, a.name), depth, type: a.type });
      } else return `attribute ${pathOf(child(step, a.name))} has neither a type nor nested attributes`;
    }
    for (const b of blocks) stack.push({ step: child(step, b.typeName), depth: depth + 1, block: b.block });
  }
  return undefined;
}

/**
 * Why a resource, data source, ephemeral resource or function name cannot become a token, or undefined: it must be
 * what a Terraform configuration can write (ASCII letters, digits, `_` and `-`, not starting with a digit), with a
 * letter or digit left after the provider's prefix. No configuration can name `acme_a.b`, and no token can hold it.
 */
function nameProblem(tfName: string, prefix: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(tfName)) {
    return `its name ${JSON.stringify(tfName)} is not one a Terraform configuration can write (ASCII letters, digits, "_" and "-", not starting with a digit), so no Pulumi token can hold it`;
  }
  if (!/[A-Za-z0-9]/.test(stripPrefix(tfName, prefix))) return `its name ${JSON.stringify(tfName)} has no letter or digit after the provider's prefix "${prefix}_" to make a Pulumi token of`;
  return undefined;
}

function checkFilters(schema: ProviderSchema, options: ModelOptions): { keep: (tfName: string) => boolean } {
  const includes = new Set(options.includes ?? []);
  const excludes = new Set(options.excludes ?? []);
  const both = [...includes].filter((n) => excludes.has(n));
  if (both.length > 0) throw new SchemaTranslationError(`--include and --exclude both name ${both.join(", ")}; name each token in one of them only`);
  const known = new Set([...schema.resources.keys(), ...schema.dataSources.keys(), ...schema.ephemeralResources.keys(), ...schema.functions.keys(), ...schema.actions.keys()]);
  const unknown = [...includes, ...excludes].filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new SchemaTranslationError(
      `--include/--exclude name ${unknown.join(", ")}, which the provider does not have; use Terraform names such as ${[...known].slice(0, 3).join(", ")}`,
    );
  }
  return { keep: (n) => (includes.size === 0 || includes.has(n)) && !excludes.has(n) };
}

function functionParameter(ctx: TypeContext, p: FunctionParameter, name: string, required: boolean, variadic: boolean, fnName: string): FunctionParameterModel {
  const inner = ctyToType(ctx, p.type, nestedTypeName(fnName, name, false));
  return {
    tfName: p.name,
    name,
    tfType: p.type,
    type: variadic ? { kind: "array", items: inner } : inner,
    required,
    description: p.description,
  };
}

/** A data source or ephemeral resource: a function whose inputs and outputs are its block's properties. */
function blockFunction(ctx: TypeContext, tfName: string, token: string, s: Schema): DataSourceModel {
  return { ...blockFunctionHead(tfName, token, s), properties: blockLikeProperties(ctx, s.block.attributes, s.block.blockTypes) };
}

function blockFunctionHead(tfName: string, token: string, s: Schema): Omit<DataSourceModel, "properties"> {
  return { tfName, token, tfSchema: s, description: s.block.description, deprecationMessage: deprecation(s.block.deprecated, s.block.deprecationMessage) };
}

/** `target` whose `key` is computed by `make` when first read (and kept), or set. */
function lazily<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): T {
  let value: { v: T[K] } | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= { v: make() }).v,
    set: (v: T[K]) => {
      value = { v };
    },
  });
  return target;
}

/**
 * The provider model. A provider declaring one nested type name with different shapes is built again knowing which
 * declaration each such name belongs to (`TypeRegistry`); its warnings are the last build's, given once.
 */
export function buildProviderModel(schema: ProviderSchema, options: ModelOptions): ProviderModel {
  // No type of a lazy model is named for the package schema, so none is contested: one build.
  if (options.lazy === true) {
    if (options.docs !== undefined) throw new Error("a lazy provider model takes no docs: it is never rendered");
    return buildProviderModelWith(schema, options, new TypeRegistry());
  }
  let owners = new Map<string, string>();
  const memo = new EntityMemo();
  for (let build = 1; ; build++) {
    const warnings: string[] = [];
    const types = new TypeRegistry(owners, memo);
    const model = buildProviderModelWith(schema, { ...options, warn: (m) => warnings.push(m) }, types);
    const contested = types.contested();
    // Owning a name can rename an owner's parent's nested types, which may contest new names: a third build settles them.
    if (build === 3 || sameOwners(contested, owners)) {
      for (const w of warnings) options.warn?.(w);
      // Once, on the model kept: documenting changes the properties, which a later build may reuse (`entity`).
      if (options.docs !== undefined) applyDocs(model, options.docs, options.exampleLog);
      return model;
    }
    owners = contested;
  }
}

function buildProviderModelWith(schema: ProviderSchema, options: ModelOptions, types: TypeRegistry): ProviderModel {
  const pkg = options.packageName;
  const { keep } = checkFilters(schema, options);
  const prefix = inferPrefix([...schema.resources.keys(), ...schema.dataSources.keys()], pkg);
  const tokens = new TokenAllocator();
  const maxDepth = options.maxSchemaDepth ?? maxSchemaDepth(process.env);
  // A provider's schema may hold what no Terraform configuration could use; that entity is left out with a warning,
  // the rest of the provider stays usable.
  const usable = (kind: string, tfName: string, roots: SchemaNode[]): boolean => {
    const problem = nameProblem(tfName, prefix) ?? blockProblem(roots, maxDepth);
    if (problem === undefined) return true;
    options.warn?.(`${pkg}: ${kind} ${tfName} is left out of the Pulumi package: ${problem}. The provider's schema is at fault; tell its authors, or --exclude ${tfName} to leave it out without this warning`);
    return false;
  };
  // A part of the model: built now through the registry (and its earlier build, `TypeRegistry.entity`), or in a lazy
  // model on first use, with a registry of its own.
  const part = <T extends object, K extends keyof T>(target: T, key: K, label: string, schemaKey: object, build: (registry: TypeRegistry) => T[K]): T => {
    if (options.lazy === true) return lazily(target, key, () => build(new TypeRegistry()));
    target[key] = types.entity(schemaKey, label, () => build(types));
    return target;
  };
  const configProblem = schemaProblem([{ path: "", depth: 0, block: schema.provider.block }], maxDepth);
  if (configProblem !== undefined) {
    throw new SchemaTranslationError(`${pkg}: the provider's configuration schema cannot be translated: ${configProblem}. The provider's schema is at fault; use another version of it`);
  }

  const resources = new Map<string, ResourceModel>();
  for (const [tfName, s] of schema.resources) {
    if (!keep(tfName) || !usable("resource", tfName, [{ path: "", depth: 0, block: s.block }])) continue;
    const stripped = stripPrefix(tfName, prefix);
    // `<prefix>_provider` would collide with the package's own Provider resource.
    const short = stripped === "provider" ? `${prefix}_provider` : stripped;
    const pascal = pascalName(short);
    const className = resourceClassName(pascal);
    const { token, name } = tokens.allocate((n) => moduleToken(pkg, n), className);
    // A class renamed because its name is reserved keeps the reference's token as an alias, and the reference's
    // nested type names (`ObjectListBlock`), so that its stacks and programs carry on.
    const aliases = className !== pascal && name === className ? [moduleToken(pkg, pascal)] : [];
    const { renames, idIsResourceId, hasId } = resourceRenames(s.block, stripped, pkg);
    const typePrefix = aliases.length > 0 ? pascal : name;
    const attributes = idIsResourceId ? s.block.attributes.filter((a) => a.name !== "id") : s.block.attributes;
    const model: ResourceModel = {
      tfName,
      token,
      aliases,
      tfSchema: s,
      properties: [],
      id: hasId ? { kind: "attribute", tfName: "id" } : { kind: "synthesized" },
      description: s.block.description,
      deprecationMessage: deprecation(s.block.deprecated, s.block.deprecationMessage),
    };
    resources.set(tfName, part(model, "properties", "resource", s, (registry) => markAutonamed(blockLikeProperties({ pkg, types: registry, prefix: typePrefix }, attributes, s.block.blockTypes, renames))));
  }

  const dataSources = new Map<string, DataSourceModel>();
  for (const [tfName, s] of schema.dataSources) {
    if (!keep(tfName) || !usable("data source", tfName, [{ path: "", depth: 0, block: s.block }])) continue;
    const { token, name } = tokens.allocate((n) => moduleToken(pkg, n), `get${pascalName(stripPrefix(tfName, prefix))}`);
    const model: DataSourceModel = { ...blockFunctionHead(tfName, token, s), properties: [] };
    dataSources.set(tfName, part(model, "properties", "data source", s, (registry) => blockLikeProperties({ pkg, types: registry, prefix: name }, s.block.attributes, s.block.blockTypes)));
  }

  const functions = new Map<string, FunctionModel>();
  for (const [tfName, f] of [...schema.functions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const signature = [...f.parameters, ...(f.variadicParameter ? [f.variadicParameter] : [])].map((p): SchemaNode => ({ path: p.name, depth: 0, type: p.type }));
    if (!keep(tfName) || !usable("function", tfName, [...signature, { path: "(result)", depth: 0, type: f.returnType }])) continue;
    const camel = pascalName(tfName);
    // Functions are named like functions in every language: lower camel case in both halves of the token.
    const { token, name } = tokens.allocate((n) => `${pkg}:index/${lowerFirst(n)}:${lowerFirst(n)}`, camel);
    const ctx: TypeContext = { pkg, types, prefix: name };
    // A parameter may be left out only if it accepts null and so does every parameter after it.
    const params = f.parameters;
    const all = f.variadicParameter ? [...params, f.variadicParameter] : params;
    const { names } = propertyNames(all.map((p) => ({ tfName: p.name, collection: false })), new Set(), "arg");
    const optionalFrom = (() => {
      let i = params.length;
      while (i > 0 && params[i - 1]!.allowNullValue) i--;
      return i;
    })();
    functions.set(tfName, types.entity(f, "function", () => ({
      tfName,
      token,
      parameters: params.map((p, i) => functionParameter(ctx, p, names[i]!, i < optionalFrom, false, name)),
      variadic: f.variadicParameter ? functionParameter(ctx, f.variadicParameter, names[params.length]!, false, true, name) : undefined,
      tfReturnType: f.returnType,
      // An object result is spelled out inline as the function's outputs (every attribute present), not a named type.
      returnType:
        f.returnType.kind === "object"
          ? { kind: "object", ref: objectTypeModel(ctx, f.returnType, `${name}Result`, typeToken(pkg, `${name}Result`), true) }
          : ctyToType(ctx, f.returnType, `${name}Result`),
      // The summary heads the description, as in the reference's schemas.
      description: [f.summary, f.description].filter((d) => d !== "").join("\n\n"),
      deprecationMessage: f.deprecationMessage !== "" ? f.deprecationMessage : undefined,
    })));
  }

  // Last, so that no existing token or type name can change because a provider gained ephemeral resources.
  const ephemeralResources = new Map<string, EphemeralResourceModel>();
  for (const [tfName, s] of schema.ephemeralResources) {
    if (!keep(tfName) || !usable("ephemeral resource", tfName, [{ path: "", depth: 0, block: s.block }])) continue;
    const { token, name } = tokens.allocate((n) => ephemeralFunctionToken(pkg, n), ephemeralFunctionName(stripPrefix(tfName, prefix)));
    ephemeralResources.set(tfName, types.entity(s, "ephemeral resource", () => blockFunction({ pkg, types, prefix: name, module: EPHEMERAL_MODULE }, tfName, token, s)));
  }

  // After the ephemeral resources, for the same reason: a provider gaining actions renames nothing it had.
  const actions = new Map<string, ActionModel>();
  for (const [tfName, s] of schema.actions) {
    if (!keep(tfName) || !usable("action", tfName, [{ path: "", depth: 0, block: s.block }])) continue;
    const { token, name } = tokens.allocate((n) => actionFunctionToken(pkg, n), actionFunctionName(stripPrefix(tfName, prefix)));
    actions.set(tfName, types.entity(s, "action", () => blockFunction({ pkg, types, prefix: name, module: ACTIONS_MODULE }, tfName, token, s)));
  }

  // A list resource's configuration is its managed resource's `listInputs`, named like every other block; after the
  // ephemeral resources for the same reason. Core lists only types that are also managed resources.
  for (const [tfName, s] of schema.listResources ?? []) {
    const r = resources.get(tfName);
    if (r === undefined || !usable("list resource", tfName, [{ path: "", depth: 0, block: s.block }])) continue;
    const ctx: TypeContext = { pkg, types, prefix: `${r.token.split(":")[2]!}List` };
    r.list = { tfSchema: s, properties: types.entity(s, "list resource", () => blockLikeProperties(ctx, s.block.attributes, s.block.blockTypes)) };
  }

  const configCtx: TypeContext = { pkg, types, prefix: "Provider" };
  const config = types.entity(schema.provider, "config", () => blockLikeProperties(configCtx, schema.provider.block.attributes, schema.provider.block.blockTypes));
  const configVariables = types.entity(schema.provider, "config variables", () => configVariableProperties(pkg, types, schema.provider.block.attributes, schema.provider.block.blockTypes));

  return { name: pkg, version: options.packageVersion, config, configVariables, resources, dataSources, functions, ephemeralResources, actions, types, ...(options.lazy === true ? { lazy: true as const } : {}) };
}
