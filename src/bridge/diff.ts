// Turns a Terraform plan (prior vs planned state, requires-replace paths) into Pulumi's diff: changes, replaces, detailed diff.
import { BigNum, Dynamic, isRecord, isUnknown, type CtyRecord, type CtyValue } from "../terraform/cty/index.js";
import { attribute, formatPath, index, key, pathsOverlap, type Path, type PathStep } from "../terraform/path.js";
import type { AttributePath, Block } from "../terraform/types.js";
import type { PropertyModel, TypeModel } from "../schema-translate/model.js";

export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

export interface DiffResult {
  changes: "none" | "some";
  /** Top-level Pulumi properties whose change forces replacement. */
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Pulumi property paths (`tags.env`, `rules[0].port`) to their kind of change; always computed. */
  detailedDiff: Record<string, DiffKind>;
  /** Top-level properties that differ. */
  changedKeys: string[];
}

type Obj = CtyRecord;

/**
 * Deep equality of cty values for diffing, looser than the codec's `rawEquals` on purpose: an unknown never equals
 * anything (it may still change), a Dynamic equals its plain value, and numbers compare as Pulumi sees them (doubles),
 * so a provider re-reading 0.1 as an exact decimal is no change.
 */
export function ctyEqual(a: CtyValue, b: CtyValue): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (a instanceof Dynamic) return ctyEqual(a.value, b instanceof Dynamic ? b.value : b);
  if (b instanceof Dynamic) return ctyEqual(a, b.value);
  if (a instanceof BigNum || b instanceof BigNum) {
    const x = a instanceof BigNum ? a.text : typeof a === "number" ? String(a) : undefined;
    const y = b instanceof BigNum ? b.text : typeof b === "number" ? String(b) : undefined;
    return x !== undefined && y !== undefined && (x === y || Number(x) === Number(y));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => ctyEqual(x, b[i]!));
  }
  const ka = Object.keys(a as Obj);
  const kb = Object.keys(b as Obj);
  return ka.length === kb.length && ka.every((k) => k in (b as Obj) && ctyEqual((a as Obj)[k]!, (b as Obj)[k]!));
}

/** Set equality ignores order, as sets have none. */
function setEqual(a: CtyValue[], b: CtyValue[]): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => ctyEqual(x, y)));
}

class DiffWalker {
  readonly out: Record<string, DiffKind> = {};
  constructor(private readonly requiresReplace: readonly AttributePath[]) {}

  /** `path` is the Pulumi property path, `tfPath` the same place as a Terraform attribute path. */
  private record(path: Path, tfPath: AttributePath, kind: "add" | "delete" | "update"): void {
    this.out[formatPath(path)] = this.requiresReplace.some((r) => pathsOverlap(r, tfPath)) ? `${kind}-replace` : kind;
  }

  value(t: TypeModel, a: CtyValue, b: CtyValue, path: Path, tfPath: AttributePath): void {
    if (isUnknown(b)) {
      if (!isUnknown(a)) this.record(path, tfPath, a === null ? "add" : "update");
      return;
    }
    if (a === null && b === null) return;
    if (a === null || isUnknown(a)) return this.record(path, tfPath, "add");
    if (b === null) return this.record(path, tfPath, "delete");
    switch (t.kind) {
      case "object":
        if (isRecord(a) && isRecord(b)) return this.properties(t.ref.properties, a, b, path, tfPath);
        break;
      case "map":
        if (isRecord(a) && isRecord(b)) {
          for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
            this.value(t.values, a[k] ?? null, b[k] ?? null, [...path, key(k)], [...tfPath, key(k)]);
          }
          return;
        }
        break;
      case "array":
        if (Array.isArray(a) && Array.isArray(b)) {
          if (t.set === true) {
            if (!setEqual(a, b)) this.record(path, tfPath, "update");
            return;
          }
          const n = Math.max(a.length, b.length);
          for (let i = 0; i < n; i++) this.value(t.items, a[i] ?? null, b[i] ?? null, [...path, index(i)], [...tfPath, index(i)]);
          return;
        }
        break;
      default:
        break;
    }
    if (!ctyEqual(a, b)) this.record(path, tfPath, "update");
  }

  properties(props: readonly PropertyModel[], a: Obj, b: Obj, prefix: Path, tfPrefix: AttributePath, onlyInputs = false): void {
    for (const p of props) {
      if (onlyInputs && !p.input) continue;
      const path = [...prefix, attribute(p.name)];
      const tfPath = [...tfPrefix, attribute(p.tfName)];
      let x = a[p.tfName] ?? null;
      let y = b[p.tfName] ?? null;
      if (p.maxItemsOne) {
        // The flattened element is the property itself; Terraform addresses it as index 0.
        x = Array.isArray(x) ? (x[0] ?? null) : x;
        y = Array.isArray(y) ? (y[0] ?? null) : y;
        this.value(p.type, x, y, path, [...tfPath, index(0)]);
      } else {
        this.value(p.type, x, y, path, tfPath);
      }
    }
  }
}

/** The value at a path, or undefined where the path leads nowhere (a missing key, index or attribute). */
function valueAt(v: CtyValue, path: readonly PathStep[]): CtyValue | undefined {
  let cur: CtyValue | undefined = v;
  for (const step of path) {
    if (cur === undefined || cur === null || isUnknown(cur)) return cur === null ? undefined : cur;
    if (cur instanceof Dynamic) cur = cur.value;
    if ("index" in step) cur = Array.isArray(cur) ? cur[step.index] : undefined;
    else {
      const name = "attribute" in step ? step.attribute : step.key;
      cur = isRecord(cur) && Object.hasOwn(cur, name) ? cur[name] : undefined;
    }
  }
  return cur;
}

/**
 * The provider's requires-replace paths whose value the plan changes, as Terraform keeps them: a provider may name a
 * path (SDKv2 names `id`) whose value stays, and that forces nothing.
 */
export function changedReplacePaths(prior: CtyValue, planned: CtyValue, paths: readonly AttributePath[]): AttributePath[] {
  if (prior === null) return [...paths];
  return paths.filter((p) => {
    const a = valueAt(prior, p);
    const b = valueAt(planned, p);
    if (a === undefined && b === undefined) return false;
    if (a === undefined || b === undefined) return true;
    return !ctyEqual(a, b);
  });
}

/** Attributes that name an object in the outside world: two objects with the same one cannot coexist. */
const IDENTITY_ATTRIBUTE = /^(name|filename|path|.*_name)$/;

export function computeDiff(
  props: readonly PropertyModel[],
  prior: CtyValue,
  planned: CtyValue,
  requiresReplace: readonly AttributePath[],
  block?: Block,
): DiffResult {
  const walker = new DiffWalker(requiresReplace);
  const a = isRecord(prior) ? prior : {};
  const b = isRecord(planned) ? planned : {};
  walker.properties(props, a, b, [], [], true);
  const changed = !ctyEqual(prior, planned);
  const replaceTop = new Set<string>();
  for (const r of requiresReplace) {
    const first = r[0];
    const p = first !== undefined && "attribute" in first ? props.find((x) => x.tfName === first.attribute) : undefined;
    if (p !== undefined) replaceTop.add(p.name);
  }
  const replaces = changed ? [...replaceTop].sort() : [];
  // Create-before-delete would make the new object collide with the old one when an identifying input keeps its value.
  const deleteBeforeReplace =
    replaces.length > 0 &&
    (block?.attributes ?? []).some(
      (attr) => IDENTITY_ATTRIBUTE.test(attr.name) && (attr.required || attr.optional) && a[attr.name] !== null && a[attr.name] !== undefined && ctyEqual(a[attr.name]!, b[attr.name] ?? null),
    );
  const changedKeys = new Set(Object.keys(walker.out).map((k) => k.split(/[.[]/)[0]!));
  return {
    changes: changed ? "some" : "none",
    replaces,
    deleteBeforeReplace,
    detailedDiff: walker.out,
    changedKeys: [...changedKeys].sort(),
  };
}
