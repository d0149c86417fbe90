// Rewrites of the PCL that Pulumi's Terraform converter writes, made between `convert`'s two steps, so that Pulumi's
// program generators turn each `for_each` into a loop that keeps Terraform's keys; each rewrite says what it changed.
//
// What the converter (pulumi-converter-terraform 1.3.0-57, pkg/convert/tf.go) writes, and the generators (pulumi
// pkg/v3 v3.276.0 codegen, nodejs/python/go gen_program.go) make of it:
// - `for_each = X` becomes the resource option `range = X'`, `each.key`/`each.value` become `range.key`/`range.value`;
//   `count = N` becomes `range = N'` with `count.index` as `range.value`. For a data source, a top-level
//   `{ for __key, __value in X : __key => invoke(…) }` (`[for __index in range(N) : invoke(…)]` for count).
// - `for_each = toset(Y)` written directly becomes `range = { for entry in Y : entry => entry }` (a map keyed by the
//   values, as Terraform keys such instances); `toset(Y)` anywhere else (a local `s = toset(var.colors)` that the
//   `for_each` names) becomes `invoke("std:index:toset", { input = Y' }).result`, as every function of its table
//   (`upper`, `join`, `file`, …) becomes an invoke of Pulumi's `std` package.
// - A generator chooses the loop from the range's type alone: a number or anything it cannot see as a map or list
//   (the std invoke's result) gives a counting loop (`range < colorSet` in TypeScript, `range(0, color_set)` in Python,
//   `index < colorSet` in Go) where `range.key` does not exist; a map type gives a loop over its entries keyed by the
//   map's keys; an object type (a local written as `{ red = "#f00" }`) is iterated as a list in TypeScript (an array of
//   resources indexed 0, 1) and Python (`enumerate(palette)`: keys 0, 1 and the values replaced by the keys).
// - `count.index` inside an output-valued expression is bound per iteration by these generators (`let range` in
//   TypeScript, a default argument in Python, a per-iteration variable in Go): nothing to rewrite.
// So a range over a set becomes a map keyed by its values, and a range over an object literal a map with its keys.
// The converter writes `notImplemented("<Terraform text>")` for what it cannot convert: that is refused here, with the
// Terraform text, before any code is generated (the generated program would throw when run).

export interface PclFixed {
  text: string;
  /** What was changed, for the user; empty when nothing was. */
  notes: string[];
  /** Why the PCL cannot be carried into a program that means the same, each with the Terraform text; empty when it can. */
  refusals: string[];
}

/** Where the expression that starts at `start` ends: the first newline outside brackets and strings (or the end). */
export function expressionEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "\n" && depth <= 0) return i;
  }
  return text.length;
}

/** The index of the quote closing the string that opens at `open`, past `${…}` interpolations and escapes. */
function stringEnd(text: string, open: number): number {
  let interpolation = 0;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === "$" && text[i + 1] === "{") {
      interpolation++;
      i++;
    } else if (c === "}" && interpolation > 0) interpolation--;
    else if (c === '"' && interpolation > 0) i = stringEnd(text, i);
    else if (c === '"') return i;
  }
  return text.length;
}

/** A top-level definition: a local (`name = …`) or a configuration variable with its type. */
interface Definitions {
  locals: Map<string, string>;
  /** Where each local's expression is in the text. */
  spans: Map<string, { start: number; end: number }>;
  configTypes: Map<string, string>;
}

function definitions(text: string): Definitions {
  const locals = new Map<string, string>();
  const spans = new Map<string, { start: number; end: number }>();
  for (const m of text.matchAll(/^([A-Za-z_][\w]*)[ \t]*=[ \t]*/gm)) {
    const start = m.index + m[0].length;
    const end = expressionEnd(text, start);
    locals.set(m[1]!, text.slice(start, end).trim());
    spans.set(m[1]!, { start, end });
  }
  const configTypes = new Map<string, string>();
  for (const m of text.matchAll(/^config[ \t]+"([^"]+)"[ \t]+"([^"]*)"/gm)) configTypes.set(m[1]!, m[2]!);
  return { locals, spans, configTypes };
}

/** `invoke("std:index:toset", { input = X }).result` → X. */
const TOSET = /^invoke\(\s*"std:index:toset"\s*,\s*\{\s*input\s*=\s*([\s\S]+?)\s*\}\s*\)\.result$/;

/** What a range expression is, as far as its text and the definitions it names tell. */
function rangeKind(expr: string, defs: Definitions): { kind: "set"; over: string } | { kind: "set-local"; over: string } | { kind: "object" } | undefined {
  const toset = TOSET.exec(expr);
  if (toset) return { kind: "set", over: toset[1]! };
  if (!/^[A-Za-z_][\w]*$/.test(expr)) return undefined;
  const local = defs.locals.get(expr);
  if (local !== undefined) {
    const inner = TOSET.exec(local);
    if (inner) return { kind: "set-local", over: inner[1]! };
    // An object literal; a `{ for … => … }` is a map already, which the generators iterate by key.
    if (local.startsWith("{") && !/^\{\s*for\b/.test(local)) return { kind: "object" };
    return undefined;
  }
  if (/^set\(/.test(defs.configTypes.get(expr) ?? "")) return { kind: "set", over: expr };
  return undefined;
}

/** The range options of resources and components: where each expression is, and the resource it belongs to. */
function ranges(text: string): { start: number; end: number; expr: string; resource: string }[] {
  const out: { start: number; end: number; expr: string; resource: string }[] = [];
  for (const m of text.matchAll(/^(resource|component)[ \t]+"([^"]+)"[^\n]*\{\n/gm)) {
    const bodyEnd = expressionEnd(text, m.index);
    const body = text.slice(m.index, bodyEnd);
    const options = /^[ \t]*options[ \t]*\{\n/m.exec(body);
    if (!options) continue;
    const optionsStart = m.index + options.index + options[0].length;
    const range = /^[ \t]*range[ \t]*=[ \t]*/m.exec(text.slice(optionsStart, expressionEnd(text, m.index + options.index)));
    if (!range) continue;
    const start = optionsStart + range.index + range[0].length;
    const end = expressionEnd(text, start);
    out.push({ start, end, expr: text.slice(start, end).trim(), resource: m[2]! });
  }
  return out;
}

/**
 * Rewrites each resource's `range` that a generator would iterate otherwise than Terraform's `for_each`: over a set (the
 * std `toset` invoke, a local holding one, a `set(…)` variable) a map keyed by the values, over an object literal a map
 * with its keys. Refuses what the converter could not convert (`notImplemented`), naming the Terraform text.
 */
export function fixPcl(text: string): PclFixed {
  const defs = definitions(text);
  const notes: string[] = [];
  const edits = new Map<number, { end: number; replacement: string }>();
  const byValues = (over: string): string => `{ for entry in ${over} : entry => entry }`;
  for (const r of ranges(text)) {
    const kind = rangeKind(r.expr, defs);
    if (kind === undefined) continue;
    if (kind.kind === "set-local") {
      // The local itself becomes the map: the std invoke's result is a value the generators cannot loop over (a
      // promise's field in TypeScript), and a map of the values still counts, and iterates, as the set did.
      const span = defs.spans.get(r.expr)!;
      if (!edits.has(span.start)) {
        edits.set(span.start, { end: span.end, replacement: byValues(kind.over) });
        notes.push(`${r.expr}: toset(…) is a map keyed by its values (no std call), so that for_each over it keys instances by element`);
      }
      continue;
    }
    edits.set(r.start, { end: r.end, replacement: kind.kind === "set" ? byValues(kind.over) : `{ for __key, __value in ${r.expr} : __key => __value }` });
    notes.push(
      kind.kind === "set"
        ? `${r.resource}: for_each over a set loops over a map keyed by its values (each.key = each.value = the element), not over indexes`
        : `${r.resource}: for_each over ${r.expr} loops over its keys, not over list positions`,
    );
  }
  let out = "";
  let at = 0;
  for (const [start, e] of [...edits].sort((x, y) => x[0] - y[0])) {
    out += text.slice(at, start) + e.replacement;
    at = e.end;
  }
  out += text.slice(at);
  const refusals = [...out.matchAll(/\bnotImplemented\(\s*("(?:[^"\\]|\\.)*")\s*\)/g)].map((m) => {
    const terraform = JSON.parse(m[1]!) as string;
    return `the Terraform expression \`${terraform}\` has no Pulumi equivalent the converter knows (it wrote notImplemented); rewrite it in the Terraform project or in the program`;
  });
  return { text: out, notes, refusals };
}
