// The one path type into a value (Terraform attribute paths and Pulumi property paths alike) and its string form.

/** A step into a value: an object attribute (or Pulumi property), a map key, or a list, set or tuple index. */
export type PathStep = { attribute: string } | { key: string } | { index: number };

/**
 * Where in a value something is. Terraform's attribute paths (diagnostics, requires-replace, the cty codec) and
 * Pulumi's property paths (check failures, detailed diffs, conversion errors) are both this type; they differ only in
 * the names their attribute steps hold, and `toPropertyPath` in the bridge maps one onto the other.
 */
export type Path = readonly PathStep[];

export const attribute = (name: string): PathStep => ({ attribute: name });
export const key = (k: string): PathStep => ({ key: k });
export const index = (i: number): PathStep => ({ index: i });

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * `rules[0].fromPort`, `tags["a b"]`: attribute names joined by dots (the first without one), map keys quoted in
 * brackets, indexes bare in brackets, and an attribute that is no identifier quoted in brackets like a key. Pulumi
 * parses this syntax in detailed-diff keys and check-failure properties, and it reads as Terraform's own messages do.
 */
export function formatPath(path: Path): string {
  let out = "";
  for (const s of path) {
    if ("attribute" in s) out += IDENT.test(s.attribute) ? (out === "" ? s.attribute : `.${s.attribute}`) : `[${JSON.stringify(s.attribute)}]`;
    else if ("key" in s) out += `[${JSON.stringify(s.key)}]`;
    else out += `[${s.index}]`;
  }
  return out;
}

/** The steps `formatPath` wrote `text` from, or undefined for text it cannot have written. */
export function parsePath(text: string): Path | undefined {
  const steps: PathStep[] = [];
  const token = /\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  while (token.lastIndex < text.length) {
    const at = token.lastIndex;
    const m = token.exec(text);
    if (m === null || (m[1] !== undefined && (at === 0) === text.startsWith(".", at))) return undefined;
    if (m[1] !== undefined) steps.push(attribute(m[1]));
    else if (m[2] !== undefined) steps.push(index(Number(m[2])));
    else {
      // A quoted step is a map key, or an attribute that is no identifier: the first step, or one under an object.
      const name = JSON.parse(m[3]!) as string;
      steps.push(at === 0 ? attribute(name) : key(name));
    }
  }
  return steps;
}

/** A step's name, key or index, the kinds not told apart: a provider may name a map element by attribute or by key. */
function stepValue(s: PathStep): string | number {
  return "attribute" in s ? s.attribute : "key" in s ? s.key : s.index;
}

/** Whether one path lies on the other's way: equal up to the shorter one's length (a change inside, or around, it). */
export function pathsOverlap(a: Path, b: Path): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (stepValue(a[i]!) !== stepValue(b[i]!)) return false;
  return true;
}
