// Naming rules from Terraform names to Pulumi names and tokens, and when a property is required where it appears; the
// only place such a rule is written.
import { createHash } from "node:crypto";
import { memoizeString } from "../memo.js";
import { Pluralize, Singularize } from "./inflector.js";
import type { ObjectTypeModel, TypeModel } from "./model.js";

const digitWords = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];

function upperFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** Where a property appears in a Pulumi schema: what a program gives (inputs, arguments) or what it gets back. */
export type Position = "input" | "output";

/**
 * Whether a property is required where it appears, as the reference's generator decides it (`isOptional` in
 * pulumi-terraform-bridge pkg/tfgen): as an input, what Terraform requires and Pulumi does not fill in itself
 * (autonaming); as an output, everything except what a program may leave out and nothing fills in (Optional, not
 * Computed, no default of Pulumi's own), because the provider answers the rest.
 */
export function requiredIn(position: Position, p: { required: boolean; input: boolean; computed: boolean; autonamed?: boolean }): boolean {
  if (position === "input") return p.required && p.autonamed !== true;
  const optional = p.input && !p.required;
  return !(optional && !p.computed && p.autonamed !== true);
}

export function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

/**
 * Terraform name to a Pulumi property name, as the reference bridge does it: leading underscores stay, every other
 * underscore goes and upper-cases the next character when it is a lower-case letter, one trailing underscore survives.
 * `min_upper` → `minUpper`, `__a_b` → `__aB`, `foo_1x` → `foo1x`.
 */
export function propertyName(tfName: string): string {
  const lead = /^_*/.exec(tfName)![0];
  const rest = tfName.slice(lead.length);
  let out = "";
  let upNext = false;
  for (const ch of rest) {
    if (ch === "_") {
      upNext = true;
      continue;
    }
    out += upNext && ch >= "a" && ch <= "z" ? ch.toUpperCase() : ch;
    upNext = false;
  }
  if (rest.length > 0 && rest.endsWith("_")) out += "_";
  return lead + out;
}

/** A Terraform name every SDK can spell as it is: ASCII letters, digits and `_`, not starting with a digit. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A Terraform attribute, block or parameter name as propertyName can take it: unchanged when it is plain (every name
 * Terraform itself accepts, `^[a-z0-9_]+$`, that does not start with a digit); otherwise each run of other characters
 * becomes `_` (`a.b`, `a-b`, `a b` → `a_b`), a leading digit gets a `_` in front (`1x` → `_1x`), and a name with
 * no letter left is `fallback`, with its digits if any (`_` → `unnamed`, `1` → `unnamed_1`). Names the sanitizing makes equal are told apart by distinctPropertyNames.
 */
export function plainTfName(tfName: string, fallback: string): string {
  const s = PLAIN_NAME.test(tfName) ? tfName : tfName.replace(/[^A-Za-z0-9_]+/g, "_");
  // Pulumi's schema refuses a property name with no ASCII letter (pkg/codegen/schema ReducePropertyName): `_`, `1`.
  if (!/[A-Za-z]/.test(s)) {
    const digits = s.replace(/_+/g, "_").replace(/^_|_$/g, "");
    return digits === "" ? fallback : `${fallback}_${digits}`;
  }
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/**
 * When two property names are one name in some SDK: Python spells both the same (`fooBar` and `fooBAR` are both
 * `foo_bar`), or they differ only in case (Go and C# upper-case the first letter, `foo` and `Foo` are both `Foo`).
 */
function sdkKey(name: string): string {
  return pythonName(name).toLowerCase();
}

/**
 * Distinct Pulumi names for the properties of one object (a resource's, a block's, an object type's, a function's
 * parameters), where propertyName would give several the same name: `foo_bar` and `foo__bar` (or `fooBar`, `to_string`
 * and `toString`) are all `fooBar`. Each entry is the Terraform name, the spelling propertyName was given (after
 * pluralising or renaming), and the name it gave. In a group of equal names (sdkKey), the first by Terraform name whose
 * spelling is the name's own snake_case (`foo_bar` for `fooBar`) keeps it, or the first by Terraform name when none
 * is; the others, in Terraform-name order, get `V2`, `V3`… as tokens do, skipping any name the object already has.
 * The result depends only on the set of names, never on their order in the schema; names without a collision are
 * returned unchanged. The reference bridge gives them all one name, so an input reaches both attributes and reading
 * keeps one value; this is the one place names are told apart, and the bridge converts values by the model's names.
 */
export function distinctPropertyNames(entries: readonly { tfName: string; spelling: string; name: string }[]): string[] {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const key = sdkKey(e.name);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [i]);
    else g.push(i);
  });
  const out = entries.map((e) => e.name);
  if (groups.size === entries.length) return out;
  const taken = new Set(groups.keys());
  const byTfName = (a: number, b: number): number => (entries[a]!.tfName < entries[b]!.tfName ? -1 : entries[a]!.tfName > entries[b]!.tfName ? 1 : 0);
  for (const [, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (group.length === 1) continue;
    const sorted = [...group].sort(byTfName);
    const keeper = sorted.find((i) => formerTfName(entries[i]!.name) === entries[i]!.spelling) ?? sorted[0]!;
    for (const i of sorted) {
      if (i === keeper) continue;
      const candidate = firstFreeName(entries[i]!.name, (c) => taken.has(sdkKey(c)), 2);
      taken.add(sdkKey(candidate));
      out[i] = candidate;
    }
  }
  return out;
}

/**
 * The Terraform name a property most likely had when the current schema no longer has it (a state written before an
 * attribute was renamed): propertyName undone, each upper-case letter back to `_` and lower case. `minUpper` →
 * `min_upper`. Plurals cannot be undone without the old schema, so a renamed list keeps its Pulumi plural.
 */
export function formerTfName(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A name part for tokens and type names: split on `_` and `-`, capitalise each piece, spell out a leading digit
 * (tokens can't start with one). `string` → `String`, `rfc3339_parse` → `Rfc3339Parse`, `2fa` → `TwoFa`.
 */
export function pascalName(name: string): string {
  const joined = name
    .split(/[_-]+/)
    .filter((p) => p.length > 0)
    .map(upperFirst)
    .join("");
  const first = joined[0];
  if (first !== undefined && first >= "0" && first <= "9") return digitWords[Number(first)]! + upperFirst(joined.slice(1));
  return joined;
}

/**
 * Resource class names the generated SDKs cannot declare (TypeScript refuses a class named `Object` under ES modules;
 * C# and Java resolve `Object` to their root type). The reference bridge emits them anyway and its SDKs fail to build.
 */
const reservedClassNames = new Set(["Object"]);

/** A resource's class name: its Pascal name, with `Resource` appended when that name is reserved. */
export function resourceClassName(pascal: string): string {
  return reservedClassNames.has(pascal) ? `${pascal}Resource` : pascal;
}

/**
 * A word's plural as the reference bridge makes it (pulumi/inflector; `uris` stays `uris`, `health` → `healths`). The
 * library answers `hive` with an empty string (a template quirk); no property can be named that, so the word stays.
 */
export function pluralize(word: string): string {
  return Pluralize(word) || word;
}

/** A word's singular as the reference bridge makes it (pulumi/inflector); an empty answer keeps the word, as above. */
export function singularize(word: string): string {
  return Singularize(word) || word;
}

/** How docs name a resource or function for readers of every language: `random:index/password:Password` → `random.Password`. */
export function tokenDisplayName(token: string): string {
  const [pkg, , name] = token.split(":");
  return `${pkg}.${name}`;
}

/** `<pkg>:index/<lowerFirst(Name)>:<Name>` — the single module layout every bridged provider uses. */
export function moduleToken(pkg: string, name: string): string {
  return `${pkg}:index/${lowerFirst(name)}:${name}`;
}

/**
 * The module of ephemeral resources' functions (and of their object types). Data sources and provider functions live
 * in `index`, so an ephemeral resource and a data source of the same Terraform name (tls `tls_public_key` has both)
 * can never share a token, and SDKs group the ephemeral ones apart (`random.ephemeral.getPassword`).
 */
export const EPHEMERAL_MODULE = "ephemeral";

/**
 * An ephemeral resource's function: `get<Name>` in the ephemeral module, named in both halves like every function,
 * `random_password` → `random:ephemeral/getPassword:getPassword` (`name` is the Terraform name without its prefix).
 */
export function ephemeralFunctionToken(pkg: string, name: string): string {
  return `${pkg}:${EPHEMERAL_MODULE}/${name}:${name}`;
}

/** The function name part of an ephemeral resource's token: `password` → `getPassword`. */
export function ephemeralFunctionName(shortTfName: string): string {
  return `get${pascalName(shortTfName)}`;
}

/**
 * The module of Terraform actions' functions (and of their object types). An action runs rather than reads, so it is
 * named by the action itself, not `get…`; its own module keeps it from ever sharing a token with a data source or
 * provider function of the same name, and SDKs group the actions apart (`local.actions.command`).
 */
export const ACTIONS_MODULE = "actions";

/** An action's function: `local_command` → `local:actions/command:command` (`name` is from actionFunctionName). */
export function actionFunctionToken(pkg: string, name: string): string {
  return `${pkg}:${ACTIONS_MODULE}/${name}:${name}`;
}

/** The function name part of an action's token, lower camel case like every function: `run_script` → `runScript`. */
export function actionFunctionName(shortTfName: string): string {
  return lowerFirst(pascalName(shortTfName));
}

/**
 * The one output of an action's function: the progress messages InvokeAction streamed, in order (absent in a preview,
 * which runs nothing). A result with a property is what every SDK can declare: Pulumi's Go generator writes a
 * function without outputs that does not compile (`return nil, err` in a function returning only `error`).
 */
export const ACTION_PROGRESS_OUTPUT = "progress";

/** The modules whose named object types live apart from `index`. */
export type TypeModule = "index" | "config" | typeof EPHEMERAL_MODULE | typeof ACTIONS_MODULE;

/**
 * Object types keep their name as it is in both halves: `<pkg>:index/<Name>:<Name>`; configuration variables' types
 * live in the `config` module under the variable's own name (`tls:config/proxies:proxies`), as the reference has them;
 * ephemeral resources' types in the ephemeral module (`<pkg>:ephemeral/getXxxRule:getXxxRule`), actions' in the
 * actions module.
 */
export function typeToken(pkg: string, name: string, module: TypeModule = "index"): string {
  return `${pkg}:${module}/${name}:${name}`;
}

/** The name a list or set property gets: its plural, unless the schema already uses that plural for something else. */
export function pluralPropertyTfName(tfName: string, siblings: ReadonlySet<string>): string {
  const plural = pluralize(tfName);
  return plural !== tfName && siblings.has(plural) ? tfName : plural;
}

/**
 * The common prefix of resource and data source names (`random` for `random_string`), which tokens drop.
 * Falls back to `fallback` when names disagree or there are none.
 */
export function inferPrefix(names: readonly string[], fallback: string): string {
  const firsts = new Set(names.map((n) => n.split("_")[0]!));
  return firsts.size === 1 ? [...firsts][0]! : fallback;
}

/**
 * The Terraform provider a converter's mapping is for (GetMapping's `provider`), as the reference names it: the first
 * `_`-separated part every resource name shares (names without `_` do not count), or "" when they disagree or there
 * are no resources, and the caller falls back to the package name. Data sources play no part, unlike in inferPrefix.
 */
export function resourcePrefix(resourceNames: Iterable<string>): string {
  const firsts = new Set([...resourceNames].filter((n) => n.includes("_")).map((n) => n.split("_")[0]!));
  return firsts.size === 1 ? [...firsts][0]! : "";
}

/** A TF resource or data source name without the provider prefix: `random_string` → `string`, `http` → `http`. */
export function stripPrefix(tfName: string, prefix: string): string {
  return tfName.startsWith(`${prefix}_`) && tfName.length > prefix.length + 1 ? tfName.slice(prefix.length + 1) : tfName;
}

/**
 * Hands out tokens, resolving names that differ only in case (which break case-insensitive file systems and some
 * languages) with `V2`, `V3`… on the later one, in the order names are requested.
 */
export class TokenAllocator {
  private readonly used = new Set<string>();

  allocate(make: (name: string) => string, name: string): { token: string; name: string } {
    const free = firstFreeName(name, (c) => this.used.has(make(c).toLowerCase()));
    const token = make(free);
    this.used.add(token.toLowerCase());
    return { token, name: free };
  }
}

/** `name` (from `first` = 1), else the first of `nameV2`, `nameV3`… that is not `taken`: how tokens and properties are told apart. */
export function firstFreeName(name: string, taken: (candidate: string) => boolean, first = 1): string {
  for (let n = first; ; n++) {
    const candidate = n === 1 ? name : `${name}V${n}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Nested object types by token, with the reference's rule for two declarations of one type name (pkg/tfgen
 * `schemaNestedTypes.declareType`): the reference keeps one type per name, and each later declaration of it replaces
 * the earlier's definition, so the type is the LAST declaration's (resources in name order, properties in name order).
 * Declarations alike in what a Pulumi schema shows (`pulumiShape`: property names, required inputs and Pulumi types)
 * are one type there, as in the reference, and the schema shows the last one's definition; each declaration keeps its
 * own model, so values still convert by their own Terraform types (a set here, a list there), secrets and write-only
 * flags. Where the shapes differ the reference still makes them one, so an earlier property points at a type with the
 * last one's fields; we keep them apart, give the plain name to the one the reference's type describes, the last, and
 * `V2`, `V3`… to the others. The last declaration of a contested name is only known once every declaration is made, so
 * a provider with such names is built again knowing them (`owners`).
 */
export class TypeRegistry extends Map<string, ObjectTypeModel> {
  /** Per plain token, the shapes its declarations had, in order, without repeats. */
  private readonly seen = new Map<string, string[]>();
  /** Definitions a later alike declaration took the token from, to restore when that declaration is taken back. */
  private readonly journal: { token: string; previous: ObjectTypeModel }[] = [];
  /** What the entity being built did to this registry (`entity`), or undefined outside one. */
  private recording: EntityRecord | undefined;
  /** Tokens whose state in this build may differ from the earlier build's: no entity touching one is replayed. */
  private readonly dirty = new Set<string>();

  /**
   * `owners`: per contested plain token, the shape of its last declaration in an earlier build. `memo`: what each
   * entity (`entity`) did in that build, shared by every build of one model.
   */
  constructor(
    private readonly owners: ReadonlyMap<string, string> = new Map(),
    private readonly memo: EntityMemo = new EntityMemo(),
  ) {
    super();
  }

  override get(token: string): ObjectTypeModel | undefined {
    this.touch(token);
    return super.get(token);
  }

  override set(token: string, type: ObjectTypeModel): this {
    this.touch(token);
    this.recording?.ops.push({ token, type });
    return super.set(token, type);
  }

  override delete(token: string): boolean {
    this.touch(token);
    this.recording?.ops.push({ token, type: undefined });
    return super.delete(token);
  }

  private touch(token: string): void {
    if (this.recording !== undefined) this.recording.touched.add(token);
    else this.dirty.add(token);
  }

  /**
   * One resource's (data source's, function's…) part of the model, built by `build` or, when an earlier build of the
   * model made it and nothing it read has changed since, its earlier result with the same effects on this registry.
   * A rebuild that knows its contested names changes only what declares them (and what shares a token with those):
   * giant providers declare a handful such names among thousands of types, and rebuilding everything cost aws 0.4 s.
   * Nothing it read changed when no token it touched is contested now or was then, nor touched by a part built afresh.
   */
  entity<T>(key: object, label: string, build: () => T): T {
    if (this.recording !== undefined) return build();
    const earlier = this.memo.get(key, label);
    if (earlier !== undefined && ![...earlier.touched].some((t) => this.dirty.has(t) || this.owners.has(t) || earlier.owners.has(t))) {
      for (const op of earlier.ops) (op.type === undefined ? super.delete(op.token) : super.set(op.token, op.type));
      for (const [token, shapes] of earlier.seen) this.seen.set(token, shapes);
      return earlier.result as T;
    }
    const record: EntityRecord = { result: undefined, ops: [], touched: new Set(), seen: new Map(), owners: this.owners };
    this.recording = record;
    try {
      record.result = build();
    } finally {
      this.recording = undefined;
    }
    // Both what it touched then and now may differ from the earlier build: later parts reading them are built afresh.
    for (const t of earlier?.touched ?? []) this.dirty.add(t);
    for (const t of record.touched) this.dirty.add(t);
    this.memo.set(key, label, record);
    return record.result as T;
  }

  /** Whether a declaration of this shape may take the plain token; records the shape either way. */
  mayTakePlain(token: string, type: ObjectTypeModel): boolean {
    this.touch(token);
    const shape = deepShapeKey(type);
    const shapes = this.seen.get(token) ?? [];
    if (shapes[shapes.length - 1] !== shape) {
      const now = [...shapes.filter((s) => s !== shape), shape];
      this.seen.set(token, now);
      this.recording?.seen.set(token, now);
    }
    const owner = this.owners.get(token);
    return owner === undefined || owner === shape;
  }

  /** Plain tokens declared with more than one shape, each with the shape of its last declaration. */
  contested(): Map<string, string> {
    return new Map([...this.seen].filter(([, shapes]) => shapes.length > 1).map(([token, shapes]) => [token, shapes[shapes.length - 1]!]));
  }

  /** An alike later declaration: the token's definition becomes its, as the reference's does. */
  share(later: ObjectTypeModel): ObjectTypeModel {
    const previous = this.get(later.token);
    if (previous !== undefined && previous !== later) this.journal.push({ token: later.token, previous });
    this.set(later.token, later);
    return later;
  }

  mark(): number {
    return this.journal.length;
  }

  /** Restores the definitions taken since `mark`, newest first. */
  undo(mark: number): void {
    while (this.journal.length > mark) {
      const e = this.journal.pop()!;
      this.set(e.token, e.previous);
    }
  }
}

/** What building one part of a model did to the registry: its writes in order, the tokens it read or wrote, its shapes. */
interface EntityRecord {
  result: unknown;
  ops: { token: string; type: ObjectTypeModel | undefined }[];
  touched: Set<string>;
  seen: Map<string, string[]>;
  /** The contested names of the build that recorded it. */
  owners: ReadonlyMap<string, string>;
}

/** Every part's record from the latest build that built it, by schema object and a label for what was built of it. */
export class EntityMemo {
  private readonly records = new WeakMap<object, Map<string, EntityRecord>>();

  get(key: object, label: string): EntityRecord | undefined {
    return this.records.get(key)?.get(label);
  }

  set(key: object, label: string, record: EntityRecord): void {
    let byLabel = this.records.get(key);
    if (byLabel === undefined) this.records.set(key, (byLabel = new Map()));
    byLabel.set(label, record);
  }
}

/** Whether two contested-name tables name the same owners. */
export function sameOwners(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/**
 * What a Pulumi schema shows of an object type, as pkg/tfgen `propertyType.equals` compares two: property names, which
 * are required inputs, and their types, with nested object types as `nested` tells them (by token, or by shape).
 */
export function pulumiShape(t: ObjectTypeModel, nested: (ref: ObjectTypeModel) => string): string {
  const shape = (x: TypeModel): unknown => {
    switch (x.kind) {
      case "array":
        return ["array", shape(x.items)];
      case "map":
        return ["map", shape(x.values)];
      case "object":
        return ["object", nested(x.ref)];
      default:
        return x.kind;
    }
  };
  return JSON.stringify(t.properties.map((p) => [p.name, p.required, shape(p.type)]));
}

const deepShapes = new WeakMap<ObjectTypeModel, string>();

/** `pulumiShape` with nested types by their own shape, never their names: which declaration a name belongs to. */
function deepShapeKey(t: ObjectTypeModel): string {
  const known = deepShapes.get(t);
  if (known !== undefined) return known;
  // A digest, not the text: nested types' keys inside their owner's would grow with every level.
  const key = createHash("sha256").update(pulumiShape(t, deepShapeKey)).digest("base64");
  deepShapes.set(t, key);
  return key;
}

/** The Provider's one method, as the reference declares it: its configuration in Terraform's own names. */
export function terraformConfigToken(pkg: string): string {
  return `pulumi:providers:${pkg}/terraformConfig`;
}

// SDK names per language: how Pulumi's code generators spell a schema's properties, functions and types, which the
// examples' renderers write and the span tags in prose show.

/**
 * A camelCase schema name in Python's snake_case, as Pulumi's Python generator spells it (its `PyName`): a run of
 * capitals is one word (`SHA256Hash` → `sha256_hash`), digits stay with the letters before them (`sha256Hash` →
 * `sha256_hash`), and an acronym followed by a lower-case letter gives that word its last capital (`HTTPServer` →
 * `http_server`).
 */
export const pythonName = memoizeString(spellPythonName, 100_000);

function spellPythonName(name: string): string {
  const words: string[] = [];
  let current = "";
  let state: "first" | "upper" | "acronym" | "lowerOrNumber" = "first";
  for (const ch of name) {
    const upper = ch >= "A" && ch <= "Z";
    const lower = !upper && ch.toLowerCase() === ch && ch.toUpperCase() !== ch;
    const digit = ch >= "0" && ch <= "9";
    if (state === "first") {
      current += ch.toLowerCase();
      state = upper ? "upper" : "lowerOrNumber";
    } else if (state === "upper") {
      current += ch.toLowerCase();
      state = upper ? "acronym" : "lowerOrNumber";
    } else if (state === "acronym") {
      if (upper) current += ch.toLowerCase();
      else if (digit) {
        current += ch;
        state = "lowerOrNumber";
      } else if (lower) {
        words.push(current.slice(0, -1));
        current = current.slice(-1) + ch;
        state = "lowerOrNumber";
      } else current += ch;
    } else if (upper) {
      words.push(current);
      current = ch.toLowerCase();
      state = "upper";
    } else current += ch;
  }
  if (current !== "") words.push(current);
  return words.filter((w) => w !== "").join("_");
}

/** Python 2 and 3 keywords, which Pulumi's Python generator gives a trailing `_` (its EnsureKeywordSafe). */
const pythonKeywords = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
  "else", "except", "exec", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not",
  "or", "pass", "print", "raise", "return", "try", "while", "with", "yield",
]);

/** A name with a trailing `_` when it is a Python keyword (`from` → `from_`), as Pulumi's Python generator writes it. */
export function pythonKeywordSafe(name: string): string {
  return pythonKeywords.has(name) ? `${name}_` : name;
}

/**
 * A property, function or function parameter as a Python SDK spells it (the generator's full `PyName`): pythonName,
 * keyword-safe (`getPublicKey` → `get_public_key`, `from` → `from_`).
 */
export function pythonPropertyName(name: string): string {
  return pythonKeywordSafe(pythonName(name));
}

/**
 * A resource constructor's keyword argument (the generator's `InitParamName`): pythonPropertyName, and a trailing `_`
 * for `resource_name` and `opts`, which are the constructor's own parameters.
 */
export function pythonInitParamName(name: string): string {
  const py = pythonPropertyName(name);
  return py === "resource_name" || py === "opts" ? `${py}_` : py;
}

/** A package's Python SDK module and the name a program imports it as: `google-beta` → `pulumi_google_beta`, `google_beta`. */
export function pythonPackage(pkg: string): { module: string; alias: string } {
  const alias = pkg.replace(/-/g, "_");
  return { module: `pulumi_${alias}`, alias };
}

/** A schema name as a Go or C# member: its first letter upper-cased (`minUpper` → `MinUpper`). */
export function exportedName(name: string): string {
  return upperFirst(name);
}

/**
 * A function's name in a Go SDK: the token's name exported, except that a `get` function whose resource shares its
 * name becomes `Lookup…`, since `Get…` is that resource's own lookup (`local:index/getFile:getFile` → `LookupFile`
 * beside the `File` resource, `tls:index/getCertificate:getCertificate` → `GetCertificate`).
 */
export function goFunctionName(functionName: string, resourceNames: ReadonlySet<string>): string {
  const exported = upperFirst(functionName);
  return exported.startsWith("Get") && resourceNames.has(exported.slice(3)) ? `Lookup${exported.slice(3)}` : exported;
}

/** The module part of a token: `tls:index/getCertificate:getCertificate` → `index`, `random:ephemeral/…` → `ephemeral`. */
export function tokenModule(token: string): string {
  return (token.split(":")[1] ?? "").split("/")[0] ?? "";
}

/** The name part of a token: `random:index/password:Password` → `Password`. */
export function tokenName(token: string): string {
  return token.split(":")[2] ?? "";
}

/**
 * A program variable for an HCL block's label or a variable's name: camelCase over `_` and `-`, a leading digit spelled
 * out as in tokens (`ed25519-example` → `ed25519Example`, `4096_key` → `four096Key`), and a word some language keeps
 * for itself given a trailing `_` in every language, so one program reads the same everywhere (`default` → `default_`).
 */
export function programVariable(label: string): string {
  const camel = lowerFirst(pascalName(label.replace(/[^A-Za-z0-9_-]/g, "_")));
  const name = camel === "" ? "value" : camel;
  return reservedWords.has(name) ? `${name}_` : name;
}

/**
 * Words one of the example languages (TypeScript, Python, Go, C#, Java) reserves, and names the programs themselves
 * use (`pulumi`, `config`, `ctx`, the package imports are checked by the caller).
 */
const reservedWords = new Set([
  "abstract", "and", "as", "assert", "async", "await", "base", "bool", "boolean", "break", "byte", "case", "catch", "char",
  "checked", "class", "const", "continue", "decimal", "def", "default", "defer", "del", "delegate", "delete", "do",
  "double", "elif", "else", "enum", "event", "except", "explicit", "export", "extends", "extern", "fallthrough", "false",
  "final", "finally", "fixed", "float", "for", "foreach", "from", "func", "function", "global", "go", "goto", "if",
  "implements", "implicit", "import", "in", "instanceof", "int", "interface", "internal", "is", "lambda", "let", "lock",
  "long", "map", "namespace", "native", "new", "nil", "nonlocal", "not", "null", "object", "operator", "or", "out",
  "override", "package", "params", "pass", "private", "protected", "public", "raise", "range", "readonly", "record",
  "ref", "return", "sbyte", "sealed", "select", "short", "sizeof", "static", "strictfp", "string", "struct", "super",
  "switch", "synchronized", "this", "throw", "throws", "transient", "true", "try", "type", "typeof", "uint", "ulong",
  "unchecked", "unsafe", "ushort", "using", "var", "virtual", "void", "volatile", "while", "with", "yield",
  "pulumi", "config", "ctx", "cfg", "err", "args", "json", "fs", "os", "id", "urn",
]);

/**
 * C#: a package's or module's namespace as the .NET generator names it (its `Title`: first letter upper-cased, each `-`
 * dropped with the letter after it upper-cased): `random` → `Random` (`Pulumi.Random`), `ephemeral` → `Ephemeral`.
 */
export function csharpNamespace(name: string): string {
  return upperFirst(name.replace(/^\$/, "")).replace(/-+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase());
}

/**
 * C#: the class of a resource or function in its namespace: the token's name as a namespace is spelled
 * (`privateKey:PrivateKey` → `PrivateKey`, `getCertificate` → `GetCertificate`), except that a function named
 * `Invoke` or `InvokeAsync` would clash with its own methods and becomes `InvokeFunction` (`disambiguateFunctionName`).
 */
export function csharpClassName(token: string, isFunction: boolean): string {
  const name = csharpNamespace(tokenName(token));
  return isFunction && /^invoke(async)?$/i.test(name) ? `${name}Function` : name;
}

/**
 * C#: the alias a program imports a package under (`using Random = Pulumi.Random;`): its namespace, except that
 * `Output`, Pulumi's own type, becomes `PulumiOutput` as the .NET program generator has it.
 */
export function csharpNamespaceAlias(pkg: string): string {
  const ns = csharpNamespace(pkg);
  return ns === "Output" ? `Pulumi${ns}` : ns;
}

/** C# keywords, contextual ones included, as the .NET generator lists them (`isReservedWord`). */
const csharpKeywords = new Set([
  "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class", "const", "continue",
  "decimal", "default", "delegate", "do", "double", "else", "enum", "event", "explicit", "extern", "false", "finally",
  "fixed", "float", "for", "foreach", "goto", "if", "implicit", "in", "int", "interface", "internal", "is", "lock",
  "long", "namespace", "new", "null", "object", "operator", "out", "override", "params", "private", "protected",
  "public", "readonly", "ref", "return", "sbyte", "sealed", "short", "sizeof", "stackalloc", "static", "string",
  "struct", "switch", "this", "throw", "true", "try", "typeof", "uint", "ulong", "unchecked", "unsafe", "ushort",
  "using", "virtual", "void", "volatile", "while",
  "add", "alias", "ascending", "async", "await", "by", "descending", "dynamic", "equals", "from", "get", "global",
  "group", "into", "join", "let", "nameof", "on", "orderby", "partial", "remove", "select", "set", "unmanaged",
  "value", "var", "when", "where", "yield",
]);

/**
 * C#: a local or lambda parameter as the .NET program generator writes it (`makeValidIdentifier`): characters an
 * identifier cannot hold become `_`, and a keyword gets `@` (`default` → `@default`).
 */
export function csharpIdentifier(name: string): string {
  const valid = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^([0-9])/, "_$1");
  return csharpKeywords.has(valid) ? `@${valid}` : valid;
}

/**
 * C#: the input class of an object type in the `Inputs` namespace. Under the `tfbridge20` compatibility our schemas
 * declare, a type in a function's arguments is `<Name>InputArgs` in the output form of the invoke (the one examples
 * use), and `<Name>Args` everywhere else (`SelfSignedCertSubjectArgs`).
 */
export function csharpInputTypeName(objectTypeToken: string, inInvoke: boolean): string {
  return `${upperFirst(tokenName(objectTypeToken))}${inInvoke ? "InputArgs" : "Args"}`;
}

/**
 * C#: the lambda parameter for an invoke's result, as the .NET program generator names it after the result type
 * (`tls:index/getCertificate:getCertificate` → `getCertificateResult`).
 */
export function csharpResultParameter(functionToken: string): string {
  return csharpIdentifier(`${lowerFirst(tokenName(functionToken))}Result`);
}

/**
 * A stack output's name in C# and YAML programs: the HCL `output` label in camelCase, as `pulumi convert` names it
 * (`public_key` → `publicKey`).
 */
export function stackOutputName(name: string): string {
  return name.replace(/[-_]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Go: a property's field (and output accessor) name, as Pulumi's Go generator spells it (its `Title` and
 * `fieldName`): a leading `$` dropped, the first letter upper-cased, each `-` dropped with the letter after it
 * upper-cased, a `_` in front of a name that would not start a Go identifier (`1x` → `_1x`), and a `_` after a name
 * its generated types keep for their own methods (`ID`, `URN`, `GetProvider`, `ElementType`, and on a resource's
 * structs `To<Resource>Output[WithContext]`).
 */
export function goFieldName(name: string, resourceName?: string): string {
  const title = upperFirst(name.replace(/^\$+/, "")).replace(/-+([^-]?)/g, (_, c: string) => c.toUpperCase());
  const field = /^[\p{L}_]/u.test(title) || title === "" ? title : `_${title}`;
  const methods = ["ID", "URN", "GetProvider", "ElementType"];
  if (resourceName !== undefined) methods.push(`To${resourceName}Output`, `To${resourceName}OutputWithContext`);
  return methods.includes(field) ? `${field}_` : field;
}

/** Java's keywords and literals (`var` included), which pulumi-java's generator gives a trailing `_` (its names.Ident). */
const javaKeywords = new Set([
  "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue", "default", "do",
  "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import",
  "instanceof", "int", "interface", "long", "native", "new", "package", "private", "protected", "public", "return",
  "short", "static", "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
  "void", "volatile", "while", "_", "false", "null", "true", "var",
]);
/** Methods every generated class already has (Object's, and the builders' `builder`). */
const javaObjectMethods = new Set(["notify", "notifyAll", "toString", "clone", "equals", "hashCode", "getClass", "wait", "finalize", "builder"]);
/** Methods a generated resource class inherits from Pulumi's Resource. */
const javaResourceMethods = new Set(["getResourceType", "getResourceName", "getChildResources", "getUrn", "getId", "pulumiResourceType", "pulumiResourceName", "pulumiChildResources", "urn", "id"]);

/**
 * A schema property as a Java SDK's builder setter and getter name it (pulumi-java's `Ident(name).AsProperty()`):
 * characters Java does not allow become `_` (a `-` is dropped), a keyword gains `_` (`default` → `default_`), and a name
 * the class already has gains another: Object's methods and `builder` everywhere (`toString` → `toString_`), and on a
 * resource (`on: "resource"`, its output getters) Resource's own (`urn` → `urn_`).
 */
export function javaPropertyName(name: string, on: "object" | "resource" = "object"): string {
  let field = javaIdentifier(name);
  if (javaObjectMethods.has(field)) field += "_";
  if (on === "resource" && javaResourceMethods.has(field)) field += "_";
  return field;
}

/** A name as a Java identifier (pulumi-java's `names.Ident`): `-` dropped, other characters Java refuses `_`, a keyword `_` after. */
function javaIdentifier(name: string): string {
  let id = name.replace(/-/g, "").replace(/[^\p{L}\p{N}_$]/gu, "_");
  if (/^\p{N}/u.test(id)) id = `_${id}`;
  return javaKeywords.has(id) ? `${id}_` : id;
}

/**
 * The Java package of a Pulumi package's SDK, or of one of its modules: `com.pulumi.<name>[.<module>]`, each part a
 * Java identifier (`azure-native` → `azurenative`, `null` → `null_`).
 */
export function javaPackage(pkg: string, module?: string): string {
  return ["com", "pulumi", pkg, ...(module !== undefined && module !== "" && module !== "index" ? [module] : [])].map(javaIdentifier).join(".");
}

/**
 * YAML: a token as Pulumi's YAML code generator displays it (`collapseToken`), which Pulumi YAML resolves back: the
 * module's last part dropped when it is the name lower-cased (`tls:index/privateKey:PrivateKey` → `tls:index:PrivateKey`),
 * then `index` dropped (→ `tls:PrivateKey`); functions, whose names start lower-case, stay whole.
 */
export function yamlToken(token: string): string {
  let parts = token.split(":");
  if (parts.length !== 3) return token;
  const mod = parts[1]!.split("/");
  if (mod.length === 2 && upperFirst(mod[1]!) === parts[2]) parts = [parts[0]!, mod[0]!, parts[2]!];
  if (parts[1] === "index" || parts[1] === "") parts = [parts[0]!, parts[2]!];
  return parts.join(":");
}
