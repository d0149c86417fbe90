// Converts values between Pulumi property maps and Terraform cty objects, using only the provider model's names and types.
import { BigNum, CtyError, Dynamic, Unknown, isRecord, isUnknown, rawEquals, wholeContainsUnknown, type CtyType, type CtyValue } from "../terraform/cty/index.js";
import { SECRET_MARK } from "../terraform/known-secrets.js";
import { attribute, formatPath, index, key, type Path, type PathStep } from "../terraform/path.js";
import { objectTypeOf, type PropertyModel, type TypeModel } from "../schema-translate/model.js";
import { formerTfName } from "../schema-translate/names.js";
import type { AttributePath, SecretSink } from "../terraform/types.js";
import {
  AssetOrArchive,
  COMPUTED,
  Computed,
  OutputValue,
  ResourceReference,
  Secret,
  isPropertyMap,
  type PropertyMap,
  type PropertyValue,
} from "./property-value.js";

type CtyObject = { [key: string]: CtyValue };

/**
 * A Pulumi value of the wrong shape for its property; `path` is the Pulumi property path to it. The message describes
 * the offending value (`got a string ("many")`) unless the value is secret: given as a secret, inside one, or under a
 * property the schema marks sensitive. Every step of the unwinding says which, so no caller has to remember to.
 */
export class ConversionError extends Error {
  readonly path: Path = [];
  /** Whether the offending value is secret, so that only its kind may be told. */
  private concealed: boolean;
  private readonly got: PropertyValue;

  /** `explain` words the failure around the description of `got` (the value, possibly still secret-wrapped). */
  constructor(
    private readonly explain: (got: string) => string,
    got: PropertyValue,
  ) {
    const concealed = isSecretWrapped(got);
    const plain = unwrap(got);
    super(explain(describeValue(plain, concealed)));
    this.got = plain;
    this.concealed = concealed;
  }

  /** What was wrong, without the path. */
  get reason(): string {
    return this.explain(describeValue(this.got, this.concealed));
  }

  /** The property path as Pulumi prints it (`rules[0].fromPort`), for check failures. */
  get property(): string {
    return formatPath(this.path);
  }

  /**
   * Prefixes a step as the error unwinds; the converters keep no path on the happy path. `through` is the value at
   * that step as given (a secret wrapper conceals everything inside it), `sensitive` whether the schema marks it so.
   */
  under(step: PathStep, through?: PropertyValue, sensitive = false): this {
    if (sensitive || (through !== undefined && isSecretWrapped(through))) this.concealed = true;
    (this as { path: Path }).path = [step, ...this.path];
    this.message = `${this.property}: ${this.reason}`;
    return this;
  }
}

/** `e` with `step` in front of its path when it is a ConversionError (steps are made only when something failed). */
function under(e: unknown, step: PathStep, through: PropertyValue, sensitive = false): unknown {
  return e instanceof ConversionError ? e.under(step, through, sensitive) : e;
}

/** True when the value is a secret, or an output marked secret (possibly wrapped in further wrappers). */
function isSecretWrapped(v: PropertyValue): boolean {
  for (;;) {
    if (v instanceof Secret) return true;
    if (!(v instanceof OutputValue) || v.value === undefined) return false;
    if (v.secret) return true;
    v = v.value;
  }
}

/** Strips secrets and output wrappers; what Terraform sees is the plain value or an unknown. */
export function unwrap(v: PropertyValue, secrets?: SecretSink): PropertyValue {
  for (;;) {
    if (v instanceof Secret) {
      // Terraform is about to see it in the clear; a recording of the calls must not.
      secrets?.note(v.value);
      v = v.value;
    } else if (v instanceof OutputValue) {
      if (!v.known) return COMPUTED;
      if (v.secret) secrets?.note(v.value);
      v = v.value!;
    } else return v;
  }
}

/**
 * The properties of a stored state that the current model does not have, as JSON object members (`"title":"x"`) under
 * their former Terraform names: an older schema version's upgrader reads the state as that version wrote it, so an
 * attribute renamed since then must reach it under its old name. Values go as plain JSON (secrets unwrapped and
 * handed to `secrets`).
 */
export function formerAttributesJson(props: readonly PropertyModel[], values: PropertyMap, secrets?: SecretSink): string[] {
  const known = new Set(props.map((p) => p.name));
  const out: string[] = [];
  for (const [name, v] of Object.entries(values)) {
    if (known.has(name) || name === "id") continue;
    out.push(`${JSON.stringify(formerTfName(name))}:${plainJson(v, secrets)}`);
  }
  return out;
}

function plainJson(v: PropertyValue, secrets: SecretSink | undefined): string {
  const u = unwrap(v, secrets);
  if (u instanceof BigNum) return u.text;
  if (typeof u === "string" || typeof u === "number" || typeof u === "boolean") return JSON.stringify(u);
  if (Array.isArray(u)) return `[${u.map((x) => plainJson(x, secrets)).join(",")}]`;
  if (isPropertyMap(u)) return `{${Object.entries(u).map(([k, x]) => `${JSON.stringify(k)}:${plainJson(x, secrets)}`).join(",")}}`;
  return "null";
}

/**
 * The values with every write-only property nulled, at any depth (inside blocks, nested attributes, lists, sets and
 * maps of them). Providers null them in state already; one that echoed a value back must not get it stored.
 */
export function withoutWriteOnly(props: readonly PropertyModel[], values: PropertyMap, found?: { any: boolean }): PropertyMap {
  const out: PropertyMap = { ...values };
  for (const p of props) {
    const v = out[p.name];
    if (v === undefined) continue;
    if (p.writeOnly) {
      if (found && v !== null) found.any = true;
      out[p.name] = null;
    } else out[p.name] = writeOnlyNulledIn(p.type, v, found);
  }
  return out;
}

function writeOnlyNulledIn(t: TypeModel, v: PropertyValue, found: { any: boolean } | undefined): PropertyValue {
  if (v instanceof Secret) return new Secret(writeOnlyNulledIn(t, v.value, found));
  switch (t.kind) {
    case "object":
      return isPropertyMap(v) ? withoutWriteOnly(t.ref.properties, v, found) : v;
    case "array":
      return Array.isArray(v) ? v.map((x) => writeOnlyNulledIn(t.items, x, found)) : v;
    case "map":
      return isPropertyMap(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, writeOnlyNulledIn(t.values, x, found)])) : v;
    default:
      return v;
  }
}

/**
 * `news` with the write-only values of `original` put back where they were, at any depth: check hands the engine
 * inputs without them, and create or update gets them back from what check held. Where the shapes no longer line
 * up (a list that changed length), the value stays out, as if not given in this run.
 */
export function restoreWriteOnly(props: readonly PropertyModel[], news: PropertyMap, original: PropertyMap): PropertyMap {
  const out: PropertyMap = { ...news };
  for (const p of props) {
    const o = original[p.name];
    if (o === undefined || o === null) continue;
    if (p.writeOnly) out[p.name] = o;
    else {
      const n = out[p.name];
      if (n !== undefined && n !== null) out[p.name] = restoreIn(p.type, n, o);
    }
  }
  return out;
}

function restoreIn(t: TypeModel, n: PropertyValue, o: PropertyValue): PropertyValue {
  if (n instanceof Secret) return new Secret(restoreIn(t, n.value, o));
  if (o instanceof Secret) return restoreIn(t, n, o.value);
  switch (t.kind) {
    case "object":
      return isPropertyMap(n) && isPropertyMap(o) ? restoreWriteOnly(t.ref.properties, n, o) : n;
    case "array":
      return Array.isArray(n) && Array.isArray(o) && n.length === o.length ? n.map((x, i) => restoreIn(t.items, x, o[i]!)) : n;
    case "map":
      return isPropertyMap(n) && isPropertyMap(o) ? Object.fromEntries(Object.entries(n).map(([k, x]) => [k, o[k] === undefined ? x : restoreIn(t.values, x, o[k])])) : n;
    default:
      return n;
  }
}

/** Pulumi inputs (or state) → the TF object for a list of properties; absent properties become null / empty blocks. */
/** `secrets` receives every secret the conversion unwraps (only when the calls are recorded). */
export function toTfObject(props: readonly PropertyModel[], values: PropertyMap, secrets?: SecretSink): CtyObject {
  const out: CtyObject = Object.create(null) as CtyObject;
  for (const p of props) {
    const raw = values[p.name];
    try {
      out[p.tfName] = toTfProperty(p, raw === undefined ? null : raw, secrets);
    } catch (e) {
      throw under(e, attribute(p.name), raw ?? null, p.secret);
    }
  }
  return out;
}

function toTfProperty(p: PropertyModel, raw: PropertyValue, secrets: SecretSink | undefined): CtyValue {
  const v = unwrap(raw, secrets);
  if (v instanceof Computed) return new Unknown();
  if (p.maxItemsOne) {
    // A flattened list or set block: Pulumi holds the one object, Terraform a collection of zero or one.
    if (v === null) return [];
    const inner = p.type;
    return [toTfValue(inner, p.tfType.kind === "list" || p.tfType.kind === "set" ? p.tfType.element : p.tfType, v, secrets)];
  }
  if (v === null && p.block !== undefined) {
    // Blocks are never null in Terraform configuration: an absent collection block is empty, an absent group all-null.
    if (p.block === "list" || p.block === "set") return [];
    if (p.block === "map") return Object.create(null) as CtyObject;
    if (p.block === "group" && p.type.kind === "object") return toTfObject(p.type.ref.properties, {}, secrets);
  }
  return toTfValue(p.type, p.tfType, v, secrets);
}

function toTfValue(t: TypeModel, ct: CtyType, raw: PropertyValue, secrets: SecretSink | undefined): CtyValue {
  const v = unwrap(raw, secrets);
  if (v === null) return null;
  if (v instanceof Computed) return new Unknown();
  switch (t.kind) {
    case "string":
      if (typeof v === "string") return v;
      // Terraform converts primitives to strings in configuration; so do we, rather than fail.
      if (typeof v === "number" || typeof v === "boolean") return String(v);
      break;
    case "number":
      if (typeof v === "number") return decimalNumber(v);
      // A numeric string keeps its exact digits, as Terraform's string-to-number conversion does.
      if (typeof v === "string" && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v.trim())) {
        try {
          return new BigNum(v.trim());
        } catch (e) {
          // Numbers beyond cty's range are the program's mistake, told like any other, never with a secret's digits.
          if (e instanceof CtyError) throw new ConversionError((got) => `expected a number within ±1e10000, got ${got}`, raw);
          throw e;
        }
      }
      break;
    case "boolean":
      if (typeof v === "boolean") return v;
      if (v === "true" || v === "false") return v === "true";
      break;
    case "any":
      return plainToCty(v, secrets);
    case "array":
      if (Array.isArray(v)) {
        const el = ct.kind === "list" || ct.kind === "set" ? ct.element : { kind: "dynamic" as const };
        const items = v.map((x, i) => {
          try {
            return toTfValue(t.items, el, x, secrets);
          } catch (e) {
            throw under(e, index(i), x);
          }
        });
        return ct.kind === "set" ? distinct(items) : items;
      }
      break;
    case "map":
      if (isPropertyMap(v)) {
        const el = ct.kind === "map" ? ct.element : { kind: "dynamic" as const };
        const out: CtyObject = Object.create(null) as CtyObject;
        for (const [k, x] of Object.entries(v)) {
          try {
            out[k] = toTfValue(t.values, el, x, secrets);
          } catch (e) {
            throw under(e, key(k), x);
          }
        }
        return out;
      }
      break;
    case "object":
      if (isPropertyMap(v)) return toTfObject(t.ref.properties, v, secrets);
      break;
  }
  throw new ConversionError((got) => `expected ${describeType(t)}, got ${got}`, raw);
}

/**
 * A Pulumi number as Terraform reads the same number written in a configuration: the shortest decimal that gives the
 * double (0.1, not 0.1000000000000000055…), exact, so a value the provider stored as it was configured compares equal.
 */
function decimalNumber(n: number): CtyValue {
  return Number.isInteger(n) || !Number.isFinite(n) ? n : new BigNum(String(n));
}

/** A set's elements as cty holds them: equal known elements are one element. */
function distinct(items: CtyValue[]): CtyValue[] {
  return items.filter((x, i) => wholeContainsUnknown(x) || !items.slice(0, i).some((y) => !wholeContainsUnknown(y) && rawEquals(x, y)));
}

/** Values of dynamic attributes: plain JSON-like data; the codec infers their cty type. */
function plainToCty(v: PropertyValue, secrets: SecretSink | undefined): CtyValue {
  const u = unwrap(v, secrets);
  if (typeof u === "number") return decimalNumber(u);
  if (u === null || typeof u === "string" || typeof u === "boolean") return u;
  if (u instanceof Computed) return new Unknown();
  if (Array.isArray(u)) {
    return u.map((x, i) => {
      try {
        return plainToCty(x, secrets);
      } catch (e) {
        throw under(e, index(i), x);
      }
    });
  }
  if (isPropertyMap(u)) {
    const out: CtyObject = Object.create(null) as CtyObject;
    for (const [k, x] of Object.entries(u)) {
      try {
        out[k] = plainToCty(x, secrets);
      } catch (e) {
        throw under(e, key(k), x);
      }
    }
    return out;
  }
  throw new ConversionError((got) => `cannot pass ${got} to Terraform`, v);
}

export function describeType(t: TypeModel): string {
  switch (t.kind) {
    case "array":
      return `a list of ${describeType(t.items)}`;
    case "map":
      return `a map of ${describeType(t.values)}`;
    case "object":
      return "an object";
    case "any":
      return "any value";
    default:
      return `a ${t.kind}`;
  }
}

/** The kind of a value, and the value itself when it is a scalar that is not `concealed` (`[secret]` instead). */
export function describeValue(v: PropertyValue, concealed = false): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (v instanceof ResourceReference) return "a resource reference";
  if (v instanceof AssetOrArchive) return `an ${v.kind}`;
  if (typeof v === "object") return "an object";
  if (concealed) return `a ${typeof v} (${SECRET_MARK})`;
  // A program's mistake is shown as given, but never a megabyte of it.
  if (typeof v === "string" && v.length > MAX_SHOWN) return `a string of ${v.length} characters (${JSON.stringify(v.slice(0, MAX_SHOWN))}…)`;
  return `a ${typeof v} (${JSON.stringify(v)})`;
}

const MAX_SHOWN = 80;

/** TF object → Pulumi property map; sensitive values come back as secrets, unknowns as Computed. */
export function fromTfObject(props: readonly PropertyModel[], obj: CtyValue): PropertyMap {
  const out: PropertyMap = {};
  if (!isRecord(obj)) return out;
  const o = obj;
  for (const p of props) {
    const v = fromTfProperty(p, o[p.tfName] ?? null);
    out[p.name] = p.secret && v !== null ? new Secret(v) : v;
  }
  return out;
}

function fromTfProperty(p: PropertyModel, v: CtyValue): PropertyValue {
  if (p.maxItemsOne) {
    if (isUnknown(v)) return COMPUTED;
    if (!Array.isArray(v) || v.length === 0) return null;
    return fromTfValue(p.type, v[0]!);
  }
  return fromTfValue(p.type, v);
}

function fromTfValue(t: TypeModel, v: CtyValue): PropertyValue {
  if (v === null) return null;
  if (isUnknown(v)) return COMPUTED;
  if (v instanceof Dynamic) return ctyToPlain(v.value);
  if (v instanceof BigNum) return v.toNumber();
  switch (t.kind) {
    case "array":
      return Array.isArray(v) ? v.map((x) => fromTfValue(t.items, x)) : ctyToPlain(v);
    case "map": {
      if (!isRecord(v)) return ctyToPlain(v);
      const out: PropertyMap = {};
      for (const [k, x] of Object.entries(v as CtyObject)) out[k] = fromTfValue(t.values, x);
      return out;
    }
    case "object":
      if (!isRecord(v)) return ctyToPlain(v);
      return fromTfObject(t.ref.properties, v);
    default:
      return ctyToPlain(v);
  }
}

function ctyToPlain(v: CtyValue): PropertyValue {
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  if (isUnknown(v)) return COMPUTED;
  if (v instanceof BigNum) return v.toNumber();
  if (v instanceof Dynamic) return ctyToPlain(v.value);
  if (Array.isArray(v)) return v.map(ctyToPlain);
  const out: PropertyMap = {};
  for (const [k, x] of Object.entries(v as CtyObject)) out[k] = ctyToPlain(x);
  return out;
}

/** Maps a Terraform attribute path onto Pulumi property names, e.g. `rule[0].from_port` → `rules[0].fromPort`. */
export function toPropertyPath(path: AttributePath, props: readonly PropertyModel[]): Path {
  const out: PathStep[] = [];
  let current: readonly PropertyModel[] | undefined = props;
  let flattened = false;
  for (const step of path) {
    if ("attribute" in step) {
      const p: PropertyModel | undefined = current?.find((x) => x.tfName === step.attribute);
      const name = p?.name ?? step.attribute;
      out.push(attribute(name));
      flattened = p?.maxItemsOne ?? false;
      const t: PropertyModel["type"] | undefined = p?.type;
      current = t === undefined ? undefined : objectTypeOf(t)?.properties;
    } else if ("index" in step) {
      // The single element of a flattened block is the property itself.
      if (!flattened) out.push(step);
      flattened = false;
    } else {
      out.push(step);
    }
  }
  return out;
}
