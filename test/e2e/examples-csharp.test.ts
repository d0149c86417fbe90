// Proof by name: every upstream example of the real peers (random, tls, time, local, http) that uses only the peer
// itself, as renderCSharp writes it, names only classes and members that exist in the C# SDK
// `pulumi package gen-sdk --language dotnet` (pulumi-language-dotnet v3.110.0) generates from the same full-docs schema.
// The generated sources are tokenized (comments, which carry the examples themselves, and strings left out) and walked
// for their namespaces, classes, public properties, fields and methods with their declared types. Each example is
// walked alike, its names resolved the way C# would: the `using <Pkg> = Pulumi.<Pkg>;` aliases, `new <Pkg>.X(…)` and
// its target-typed `new() { … }` argument (the constructor's parameter type, `XArgs`), `<Pkg>.GetX.Invoke(…)` (the
// method, its `GetXInvokeArgs` parameter, its `Output<GetXResult>` return), `new <Pkg>.Inputs.XArgs { … }`, every
// object-initializer key `Name = …` against the class being initialized, and member accesses on variables and Apply
// parameters (`cert.Subjects.Apply(subjects => subjects[0].CommonName)`) through the members' declared types.
// Prints per peer: examples found, converted, names checked.
//
// The upstream examples rarely read anything back, so each peer also has a program of our own, converted and checked
// alike, that reaches what they do not: references into nested blocks, list indexes and map keys of resources,
// data sources', ephemeral resources' and provider functions' results, and an explicit provider. Random and tls have
// a repeated-resources program too (LOOP_PROGRAM: count, for_each, references to an instance by index or key), whose
// collections `new List<Pkg.X>()` / `new Dictionary<string, Pkg.X>()` type the references to their instances.
//
// What it cannot prove: that the C# compiles. There is no .NET SDK here, so types of values (a string where a double
// is wanted), overload resolution, Output/Input conversions and the Pulumi core types (`InvokeOptions`, `Output`,
// `Deployment`) are not checked; only names of the package's own classes and members are.
import { createServer, type Server } from "node:http";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCSharp } from "../../src/schema-translate/examples/csharp.js";
import { convertExample, exampleProgram } from "../../src/schema-translate/examples/index.js";
import { EXAMPLE_PEERS, LOOP_PROGRAM, peerExamples, peerModel, peerSchemaFile, type ExamplePeer } from "../support/examples.js";
import { dotnetHost, dotnetHostMissing } from "../support/languages.js";
import { removeScratch, scratch } from "../support/lifecycle.js";
import { expectSuccess, pulumiBinDir, runPulumi } from "../support/pulumi.js";

// ---- Tokens --------------------------------------------------------------------------------------------------------

/** A C# source as identifiers, keywords and punctuation; comments and literals' contents are gone. */
function tokenize(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (/\s/.test(c)) i++;
    else if (src.startsWith("//", i)) i = lineEnd(src, i);
    else if (src.startsWith("/*", i)) i = src.indexOf("*/", i + 2) < 0 ? n : src.indexOf("*/", i + 2) + 2;
    else if (/^(\$@|@\$|\$|@)?"/.test(src.slice(i, i + 3))) i = stringLiteral(src, i, out);
    else if (c === "'") i = charLiteral(src, i, out);
    else if (/[A-Za-z_@]/.test(c)) {
      const m = /^@?[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 200))!;
      out.push(m[0].replace(/^@/, ""));
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][0-9A-Za-z_.]*/.exec(src.slice(i, i + 100))!;
      out.push("0");
      i += m[0].length;
    } else {
      const two = src.slice(i, i + 2);
      const op = ["=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "::", "+=", "-="].includes(two) ? two : c;
      out.push(op);
      i += op.length;
    }
  }
  return out;
}

function lineEnd(src: string, i: number): number {
  const e = src.indexOf("\n", i);
  return e < 0 ? src.length : e + 1;
}

function charLiteral(src: string, i: number, out: string[]): number {
  let j = i + 1;
  while (j < src.length && src[j] !== "'") j += src[j] === "\\" ? 2 : 1;
  out.push("'c'");
  return j + 1;
}

/** A string literal as the token `"s"`; an interpolated one's holes are tokenized in place, as they are code. */
function stringLiteral(src: string, i: number, out: string[]): number {
  const prefix = /^(\$@|@\$|\$|@)?/.exec(src.slice(i, i + 2))![0];
  const verbatim = prefix.includes("@");
  const interpolated = prefix.includes("$");
  let j = i + prefix.length + 1;
  out.push('"s"');
  while (j < src.length) {
    const c = src[j]!;
    if (verbatim && c === '"' && src[j + 1] === '"') j += 2;
    else if (c === '"') return j + 1;
    else if (!verbatim && c === "\\") j += 2;
    else if (interpolated && c === "{" && src[j + 1] === "{") j += 2;
    else if (interpolated && c === "{") {
      let depth = 1;
      let k = j + 1;
      while (k < src.length && depth > 0) {
        if (src[k] === "{") depth++;
        else if (src[k] === "}") depth--;
        k++;
      }
      out.push("(", ...tokenize(src.slice(j + 1, k - 1)), ")");
      j = k;
    } else j++;
  }
  return j;
}

/** The index of the token closing the bracket opened at `open`. */
function closing(t: string[], open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const o = t[open]!;
  const c = pairs[o]!;
  let depth = 0;
  for (let i = open; i < t.length; i++) {
    if (t[i] === o) depth++;
    else if (t[i] === c && --depth === 0) return i;
  }
  return t.length - 1;
}

// ---- Types ---------------------------------------------------------------------------------------------------------

/** A C# type as far as member lookups need it: a class of the package, a collection, an Output, or anything else. */
type CsType =
  | { kind: "class"; name: string }
  | { kind: "list" | "map" | "output"; of: CsType }
  | { kind: "other"; text: string };

const LISTS = new Set(["ImmutableArray", "InputList", "List", "IEnumerable"]);
const MAPS = new Set(["ImmutableDictionary", "InputMap", "Dictionary"]);
const WRAPPERS = new Set(["Output", "Input", "Task"]);

/** Parses a type's tokens (`Output<ImmutableArray<Outputs.X>>?`), names resolved from namespace `ns` in the SDK. */
function parseType(t: string[], ns: string, sdk: Sdk): CsType {
  const [type] = typeAt(t, 0, ns, sdk);
  return type;
}

function typeAt(t: string[], i: number, ns: string, sdk: Sdk): [CsType, number] {
  const parts: string[] = [];
  if (t[i] === "global" && t[i + 1] === "::") i += 2;
  while (/^[A-Za-z_]/.test(t[i] ?? "")) {
    parts.push(t[i]!);
    if (t[i + 1] !== ".") break;
    i += 2;
  }
  i++;
  const args: CsType[] = [];
  if (t[i] === "<") {
    i++;
    while (t[i] !== ">" && i < t.length) {
      const [a, next] = typeAt(t, i, ns, sdk);
      args.push(a);
      i = t[next] === "," ? next + 1 : next;
    }
    i++;
  }
  while (t[i] === "?" || (t[i] === "[" && t[i + 1] === "]")) i += t[i] === "?" ? 1 : 2;
  const last = parts[parts.length - 1] ?? "";
  const text = parts.join(".");
  if (WRAPPERS.has(last) && args.length === 1) return [{ kind: "output", of: args[0]! }, i];
  if (LISTS.has(last) && args.length === 1) return [{ kind: "list", of: args[0]! }, i];
  if (MAPS.has(last) && args.length >= 1) return [{ kind: "map", of: args[args.length - 1]! }, i];
  const cls = sdk.resolve(text, ns);
  return [cls === undefined ? { kind: "other", text } : { kind: "class", name: cls }, i];
}

// ---- The generated SDK ---------------------------------------------------------------------------------------------

interface Member {
  /** The declared type's tokens (a method's return type), and the namespace they are resolved in. */
  type: string[];
  ns: string;
  /** A method's (or constructor's) overloads, each its parameters' type tokens. */
  params?: string[][][];
}

/**
 * What resources inherit from Pulumi's core classes (the SDK declares only its own members): `Id` and `Urn`, the
 * members an example can read of any resource.
 */
const CORE_BASES = new Set(["Pulumi.CustomResource", "Pulumi.ProviderResource"]);
const CORE_MEMBERS: Record<string, Member> = {
  Id: { type: ["Output", "<", "string", ">"], ns: "Pulumi" },
  Urn: { type: ["Output", "<", "string", ">"], ns: "Pulumi" },
};

/** The public classes of a generated C# SDK, by full name, with their public members. */
class Sdk {
  readonly classes = new Map<string, Map<string, Member>>();
  /** Each class's base class, as written after `:`. */
  private readonly bases = new Map<string, string>();

  constructor(dir: string) {
    for (const file of csFiles(dir)) this.read(tokenize(readFileSync(file, "utf8")));
  }

  /** A type name as written in namespace `ns` (`Outputs.X` in `Pulumi.Tls`), as C# looks it up: outward. */
  resolve(name: string, ns: string): string | undefined {
    const parts = ns.split(".");
    for (let k = parts.length; k >= 0; k--) {
      const full = [...parts.slice(0, k), name].filter((p) => p !== "").join(".");
      if (this.classes.has(full)) return full;
    }
    return undefined;
  }

  member(cls: string, name: string): Member | undefined {
    const own = this.classes.get(cls)?.get(name);
    if (own !== undefined) return own;
    return CORE_BASES.has(this.bases.get(cls) ?? "") ? CORE_MEMBERS[name] : undefined;
  }

  typeOf(m: Member): CsType {
    return parseType(m.type, m.ns, this);
  }

  /** Walks declarations: namespaces, classes (nested ones too) and the public members directly inside a class. */
  private read(t: string[]): void {
    type Scope = { kind: "namespace"; name: string } | { kind: "class"; name: string; ns: string } | { kind: "body" };
    const stack: Scope[] = [];
    let fileNs = "";
    const ns = (): string => {
      const names = stack.filter((s): s is { kind: "namespace"; name: string } => s.kind === "namespace").map((s) => s.name);
      return [fileNs, ...names].filter((p) => p !== "").join(".");
    };
    let decl: string[] = [];
    let pendingClass: string | undefined;
    let pendingNs: string | undefined;
    for (let i = 0; i < t.length; i++) {
      const tok = t[i]!;
      const top = stack[stack.length - 1];
      const inClass = top?.kind === "class";
      if (top?.kind === "body") {
        if (tok === "{") stack.push({ kind: "body" });
        else if (tok === "}") stack.pop();
        continue;
      }
      if (tok === "namespace") {
        const parts: string[] = [];
        let j = i + 1;
        for (; /^[A-Za-z_]/.test(t[j] ?? ""); j += t[j + 1] === "." ? 2 : 1) {
          parts.push(t[j]!);
          if (t[j + 1] !== ".") {
            j++;
            break;
          }
        }
        if (t[j] === ";") fileNs = parts.join(".");
        else pendingNs = parts.join(".");
        i = j - 1;
        decl = [];
        continue;
      }
      // (`where T : class` is a constraint, not a declaration.)
      if (["class", "struct", "record", "interface"].includes(tok) && /^[A-Za-z_]/.test(t[i + 1] ?? "") && t[i - 1] !== ":" && t[i - 1] !== ",") {
        pendingClass = t[i + 1];
        decl.push(tok);
        continue;
      }
      if (tok === "[" && decl.length === 0) {
        i = closing(t, i);
        continue;
      }
      if (tok === "{") {
        if (pendingNs !== undefined) stack.push({ kind: "namespace", name: pendingNs });
        else if (pendingClass !== undefined) {
          const outer = top?.kind === "class" ? top.name : ns();
          const name = `${outer === "" ? "" : `${outer}.`}${pendingClass}`;
          if (decl.includes("public")) this.classes.set(name, this.classes.get(name) ?? new Map());
          const colon = decl.indexOf(":");
          if (colon >= 0) this.bases.set(name, decl.slice(colon + 1).filter((w) => w !== "global" && w !== "::" && w !== ".").join("."));
          stack.push({ kind: "class", name, ns: top?.kind === "class" ? top.ns : ns() });
        } else {
          if (inClass) this.declare(top, decl);
          stack.push({ kind: "body" });
        }
        pendingNs = pendingClass = undefined;
        decl = [];
        continue;
      }
      if (tok === "}") {
        stack.pop();
        decl = [];
        continue;
      }
      if (inClass && pendingClass === undefined && (tok === "(" || tok === "=>" || tok === "=" || tok === ";")) {
        if (tok === "(") {
          const end = closing(t, i);
          this.declare(top, decl, t.slice(i + 1, end));
          i = end;
        } else this.declare(top, decl);
        // What follows up to the declaration's end (`=> …;`, `= null!;`, a `{ … }` body) declares nothing.
        if (tok === "=>" || tok === "=") {
          let depth = 0;
          while (i < t.length && !(depth === 0 && t[i] === ";")) {
            if (t[i] === "(" || t[i] === "{" || t[i] === "[") depth++;
            else if (t[i] === ")" || t[i] === "}" || t[i] === "]") depth--;
            i++;
          }
        }
        decl = tok === "(" ? ["(declared)"] : [];
        continue;
      }
      if (tok === ";") {
        decl = [];
        continue;
      }
      decl.push(tok);
    }
  }

  /** A public member from its declaration's tokens: modifiers, type, name (and a method's parameter tokens). */
  private declare(scope: { name: string; ns: string }, decl: string[], params?: string[]): void {
    if (!decl.includes("public") || decl.includes("(declared)")) return;
    const words = decl.filter((w) => !["public", "static", "readonly", "new", "async", "override", "virtual", "sealed", "partial", "abstract"].includes(w));
    const name = words[words.length - 1];
    if (name === undefined || !/^[A-Za-z_]/.test(name)) return;
    const members = this.classes.get(scope.name);
    if (members === undefined) return;
    const existing = members.get(name);
    const overload = params === undefined ? undefined : splitParams(params);
    if (existing !== undefined && overload !== undefined) existing.params = [...(existing.params ?? []), overload];
    else members.set(name, { type: words.slice(0, -1), ns: scope.ns, ...(overload === undefined ? {} : { params: [overload] }) });
  }
}

/** A parameter list's types: each parameter's tokens before its name (and default). */
function splitParams(t: string[]): string[][] {
  const params: string[][] = [];
  let cur: string[] = [];
  let depth = 0;
  for (const tok of [...t, ","]) {
    if (tok === "<" || tok === "(") depth++;
    if (tok === ">" || tok === ")") depth--;
    if (tok === "," && depth === 0) {
      const eq = cur.indexOf("=");
      const typed = eq < 0 ? cur : cur.slice(0, eq);
      if (typed.length > 1) params.push(typed.slice(0, -1).filter((w) => w !== "this" && w !== "params"));
      cur = [];
    } else cur.push(tok);
  }
  return params;
}

function csFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? csFiles(p) : f.endsWith(".cs") ? [p] : [];
  });
}

// ---- An example against the SDK ------------------------------------------------------------------------------------

interface Check {
  /** Names of the package (classes, members) looked up and found. */
  found: string[];
  /** Names looked up and not found, with the tokens around them. */
  missing: string[];
}

/**
 * An open bracket of the example: a call's parentheses (the callee's overloads when it is the package's, and the
 * argument reached), an initializer's braces (the package class it initializes, if any, and whether an element starts
 * here), an index's square brackets.
 */
type Bracket = { kind: "paren"; member?: Member; arg: number } | { kind: "brace"; cls?: string; start: boolean } | { kind: "square" };

const isName = (tok: string | undefined): boolean => /^[A-Za-z_]/.test(tok ?? "");

/** The `using <Alias> = <Namespace>;` directives. */
function usingAliases(t: string[]): Map<string, string> {
  const aliases = new Map<string, string>();
  for (let i = 0; i + 3 < t.length; i++) {
    if (t[i] !== "using" || t[i + 2] !== "=") continue;
    const parts: string[] = [];
    for (let j = i + 3; j < t.length && t[j] !== ";"; j++) if (t[j] !== ".") parts.push(t[j]!);
    aliases.set(t[i + 1]!, parts.join("."));
  }
  return aliases;
}

/**
 * Walks a rendered example's tokens, resolving each name that belongs to the package (the namespace `Pulumi.<Pkg>`
 * behind its `using` alias) against the SDK. Names of the Pulumi core library and of C# itself are not looked up.
 */
function checkExample(code: string, sdk: Sdk, pkgNamespace: string): Check {
  const t = tokenize(code);
  const found: string[] = [];
  const missing: string[] = [];
  const aliases = usingAliases(t);
  /** Variables and Apply parameters of a known type. */
  const vars = new Map<string, CsType>();
  const look = (ok: boolean, name: string, at: number): boolean => {
    if (ok) found.push(name);
    else missing.push(`${name} (at: ${t.slice(Math.max(0, at - 8), at + 4).join(" ")})`);
    return ok;
  };

  /** `Alias.A.B…` at i: the package class it names (the longest prefix that is one), and the index after it. */
  const qualified = (i: number): { cls?: string; next: number; ours: boolean } => {
    const parts = [t[i]!];
    let j = i + 1;
    while (t[j] === "." && isName(t[j + 1])) {
      parts.push(t[j + 1]!);
      j += 2;
    }
    const ns = aliases.get(parts[0]!);
    if (ns !== pkgNamespace) return { next: j, ours: false };
    for (let k = parts.length; k > 1; k--) {
      const full = [ns, ...parts.slice(1, k)].join(".");
      if (sdk.classes.has(full)) {
        look(true, full, i);
        return { cls: full, next: i + 2 * k - 1, ours: true };
      }
    }
    look(false, [ns, ...parts.slice(1)].join("."), i);
    return { next: j, ours: true };
  };

  /** The type argument `index` of a call to `m` has in every overload, if they agree. */
  const paramType = (m: Member | undefined, index: number): CsType | undefined => {
    if (m === undefined) return undefined;
    const types = (m.params ?? []).flatMap((p) => (p[index] === undefined ? [] : [parseType(p[index]!, m.ns, sdk)]));
    return new Set(types.map((x) => JSON.stringify(x))).size === 1 ? types[0] : undefined;
  };

  const stack: Bracket[] = [];
  /** Lambda parameters bound by `.Apply(p => …)` to the Output's value type, unbound after the call's `)`. */
  const lambdas: { name: string; end: number }[] = [];
  /** What the next `(` calls, and what the next `{` initializes. */
  let pendingCall: Member | undefined;
  let pendingInit: string | undefined;
  /** The type a value being written must have: the property's after `Name =`. */
  let target: CsType | undefined;

  /** A member access chain after a typed expression (`.A`, `[0]`, `["k"]`, `.Apply(p =>`), each step looked up. */
  const chain = (type: CsType, i: number): number => {
    let ty: CsType = type;
    let j = i;
    for (;;) {
      if (t[j] === "." && t[j + 1] === "Apply" && t[j + 2] === "(" && isName(t[j + 3]) && t[j + 4] === "=>") {
        vars.set(t[j + 3]!, ty.kind === "output" ? ty.of : ty);
        lambdas.push({ name: t[j + 3]!, end: closing(t, j + 2) });
        return j + 2;
      }
      if (t[j] === "." && isName(t[j + 1]) && ty.kind === "class") {
        const m = sdk.member(ty.name, t[j + 1]!);
        if (!look(m !== undefined, `${ty.name}.${t[j + 1]}`, j + 1)) return j + 2;
        ty = sdk.typeOf(m!);
        j += 2;
      } else if (t[j] === "[" && (ty.kind === "list" || ty.kind === "map")) {
        ty = ty.of;
        j = closing(t, j) + 1;
      } else return j;
    }
  };

  /** `var <v> = ` right before i. */
  const declared = (i: number): string | undefined => (t[i - 3] === "var" && t[i - 1] === "=" ? t[i - 2] : undefined);

  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (tok === "using" && stack.length === 0) {
      i = t.indexOf(";", i);
      continue;
    }
    while (lambdas.length > 0 && i > lambdas[lambdas.length - 1]!.end) vars.delete(lambdas.pop()!.name);
    const top = stack[stack.length - 1];
    const start = top?.kind === "brace" && top.start;
    if (top?.kind === "brace") top.start = false;

    // An object initializer's key: `Name =` opening an element of a package class's initializer.
    if (start && top.cls !== undefined && isName(tok) && t[i + 1] === "=") {
      const m = sdk.member(top.cls, tok);
      look(m !== undefined, `${top.cls}.${tok}`, i);
      target = m === undefined ? undefined : sdk.typeOf(m);
      if (target?.kind === "output") target = target.of;
      i++;
      continue;
    }
    if (tok === "new" && t[i + 1] === "(" && t[i + 2] === ")") {
      // Target-typed: the property's type, or the parameter's where it is a call's argument.
      const ty = target ?? (top?.kind === "paren" ? paramType(top.member, top.arg) : undefined);
      pendingInit = ty?.kind === "class" ? ty.name : undefined;
      target = undefined;
      i += 2;
      continue;
    }
    // A repeated resource's instances: `var x = new List<Alias.X>()` or `new Dictionary<string, Alias.X>()`.
    const collection = tok === "new" && t[i + 2] === "<" ? (t[i + 1] === "List" ? i + 3 : t[i + 1] === "Dictionary" && t[i + 4] === "," ? i + 5 : undefined) : undefined;
    if (collection !== undefined && aliases.get(t[collection] ?? "") === pkgNamespace) {
      const q = qualified(collection);
      const v = declared(i);
      if (q.cls !== undefined && v !== undefined) vars.set(v, { kind: t[i + 1] === "List" ? "list" : "map", of: { kind: "class", name: q.cls } });
      i = q.next - 1;
      continue;
    }
    if (tok === "new" && aliases.get(t[i + 1] ?? "") === pkgNamespace) {
      const q = qualified(i + 1);
      target = undefined;
      if (q.cls === undefined) {
        i = q.next - 1;
        continue;
      }
      const v = declared(i);
      if (v !== undefined) vars.set(v, { kind: "class", name: q.cls });
      if (t[q.next] === "(") pendingCall = sdk.member(q.cls, q.cls.split(".").pop()!);
      if (t[q.next] === "{") pendingInit = q.cls;
      i = q.next - 1;
      continue;
    }
    if (isName(tok) && t[i - 1] !== "." && aliases.get(tok) === pkgNamespace) {
      // `Alias.GetX.Invoke(…)`: a static member of a package class.
      const q = qualified(i);
      if (q.cls !== undefined && t[q.next] === "." && isName(t[q.next + 1])) {
        const m = sdk.member(q.cls, t[q.next + 1]!);
        look(m !== undefined, `${q.cls}.${t[q.next + 1]}`, q.next + 1);
        const v = declared(i);
        if (m !== undefined && v !== undefined) vars.set(v, sdk.typeOf(m));
        if (t[q.next + 2] === "(") pendingCall = m;
        i = q.next + 1;
        continue;
      }
      i = q.next - 1;
      continue;
    }
    if (isName(tok) && t[i - 1] !== "." && t[i - 1] !== "var" && t[i + 1] !== "=>" && vars.has(tok)) {
      i = chain(vars.get(tok)!, i + 1) - 1;
      continue;
    }
    switch (tok) {
      case "(":
        stack.push({ kind: "paren", ...(pendingCall === undefined ? {} : { member: pendingCall }), arg: 0 });
        pendingCall = undefined;
        break;
      case "{":
        stack.push({ kind: "brace", ...(pendingInit === undefined ? {} : { cls: pendingInit }), start: true });
        pendingInit = undefined;
        break;
      case "[":
        stack.push({ kind: "square" });
        break;
      case ")":
      case "}":
      case "]":
        stack.pop();
        break;
      case ",":
        if (top?.kind === "paren") top.arg++;
        if (top?.kind === "brace") top.start = true;
        break;
    }
    if (tok === "," || tok === ";" || tok === "{" || tok === "}" || tok === "(" || tok === ")") target = undefined;
  }
  return { found, missing };
}

// ---- The test ----------------------------------------------------------------------------------------------------

/** Per peer, HCL reading back what the upstream examples do not. */
const CONSTRUCTS: Record<ExamplePeer, string> = {
  random: `
resource "random_pet" "p" {
  keepers = { a = "b" }
}
resource "random_shuffle" "sh" {
  input = ["a", random_pet.p.id]
}
ephemeral "random_password" "pw" {
  length = 12
}
output "first" {
  value = random_shuffle.sh.result[0]
}
output "keeper" {
  value = random_pet.p.keepers["a"]
}
output "pw" {
  value = ephemeral.random_password.pw.result
}
`,
  tls: `
provider "tls" {
  proxy {
    url = "http://proxy"
  }
}
resource "tls_private_key" "ca" {
  algorithm = "RSA"
}
resource "tls_self_signed_cert" "ca" {
  private_key_pem       = tls_private_key.ca.private_key_pem
  validity_period_hours = 12
  allowed_uses          = ["cert_signing"]
  subject {
    common_name = "ca"
  }
}
data "tls_certificate" "site" {
  url = "https://example.com"
}
resource "tls_cert_request" "req" {
  private_key_pem = tls_private_key.ca.private_key_pem
  subject {
    common_name = tls_self_signed_cert.ca.subject[0].common_name
    country     = data.tls_certificate.site.certificates[0].serial_number
  }
  depends_on = [tls_self_signed_cert.ca]
}
ephemeral "tls_private_key" "eph" {
  algorithm = "ECDSA"
}
output "certs" {
  value = data.tls_certificate.site.certificates
}
output "eph" {
  value = ephemeral.tls_private_key.eph.public_key_pem
}
`,
  time: `
resource "time_static" "t" {}
resource "time_offset" "o" {
  base_rfc3339 = time_static.t.rfc3339
  offset_days  = 7
}
output "year" {
  value = time_offset.o.year
}
output "parsed" {
  value = provider::time::rfc3339_parse(time_static.t.rfc3339)
}
`,
  local: `
resource "local_file" "f" {
  filename = "out.txt"
  content  = "x"
}
data "local_file" "r" {
  filename = local_file.f.filename
}
output "content" {
  value = data.local_file.r.content_base64
}
`,
  http: `
data "http" "h" {
  url = "https://example.com"
  retry {
    attempts = 2
  }
}
output "content_type" {
  value = data.http.h.response_headers["Content-Type"]
}
output "status" {
  value = data.http.h.status_code
}
`,
};

/** A 1×1 PNG, served as the package logo. */
const LOGO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

let logoServer: Server;
let logoUrl: string;

beforeAll(async () => {
  logoServer = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "image/png" });
    res.end(LOGO);
  });
  await new Promise<void>((resolve) => logoServer.listen(0, "127.0.0.1", resolve));
  logoUrl = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.png`;
});

const figures: string[] = [];
afterAll(async () => {
  console.log(figures.join("\n"));
  removeScratch();
  await new Promise((resolve) => logoServer.close(resolve));
});

/** The C# namespace of a package, `Pulumi.<Pkg>`, as the .NET generator names it. */
const pkgNamespace = (peer: ExamplePeer): string => `Pulumi.${peer[0]!.toUpperCase()}${peer.slice(1)}`;

/** `pulumi package gen-sdk <schema> --language dotnet`: the generated sources' folder. */
async function csharpSdk(peer: ExamplePeer, dir: string): Promise<string> {
  const host = dotnetHost();
  if ("missing" in host) throw new Error(host.missing);
  // The .NET generator puts the package's logo into the SDK (for its NuGet package) and downloads it from the schema's
  // `logoUrl`, or, when there is none (ours has none), from raw.githubusercontent.com: a test must not need the
  // internet, so a copy of the schema points at a logo served here.
  const schema = JSON.parse(readFileSync(await peerSchemaFile(peer), "utf8")) as Record<string, unknown>;
  const schemaFile = join(dir, "schema.json");
  writeFileSync(schemaFile, JSON.stringify({ ...schema, logoUrl }));
  const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
  env["PATH"] = [pulumiBinDir(), host.dir, env["PATH"] ?? ""].join(":");
  const out = join(dir, "gen");
  const args = ["package", "gen-sdk", schemaFile, "--language", "dotnet", "--out", out];
  expectSuccess(await runPulumi(args, { cwd: dir, env }), `pulumi ${args.join(" ")}`);
  const sdk = join(out, "dotnet");
  expect(readdirSync(sdk), `${peer}'s C# SDK`).toContain("Provider.cs");
  return sdk;
}

describe.skipIf(dotnetHostMissing()).each(EXAMPLE_PEERS)("%s examples in C#", (peer) => {
  it("name only classes and members of the generated SDK", async () => {
    const examples = await peerExamples(peer);
    const converted = examples.filter((e) => e.conversion.ok);
    const checked = examples.filter((e) => e.conversion.ok && e.onlyProvider && e.conversion.code.csharp !== undefined);
    const dir = scratch(`tfbridge-examples-csharp-${peer}-`);
    const sdkDir = await csharpSdk(peer, dir);
    const sdk = new Sdk(sdkDir);
    expect(sdk.classes.has(`${pkgNamespace(peer)}.Provider`), `Provider class parsed from ${sdkDir}`).toBe(true);

    const found: string[] = [];
    const missing: string[] = [];
    for (const e of checked) {
      if (!e.conversion.ok) continue;
      const code = e.conversion.code.csharp!;
      // The rendering the schema carries is the one renderCSharp gives for the program.
      expect(code).toBe(renderCSharp(e.conversion.program));
      const r = checkExample(code, sdk, pkgNamespace(peer));
      found.push(...r.found);
      missing.push(...r.missing.map((m) => `${e.page} #${e.index}: ${m}`));
    }
    const total = found.length + missing.length;
    const constructs = checkExample(renderCSharp(exampleProgram(CONSTRUCTS[peer], await peerModel(peer))), sdk, pkgNamespace(peer));
    // The repeated-resources program (count, for_each, references to instances), which the upstream examples lack.
    const loopHcl = LOOP_PROGRAM[peer];
    const loopConversion = loopHcl === undefined ? undefined : convertExample(loopHcl, await peerModel(peer));
    const loops = loopConversion?.ok === true && loopConversion.code.csharp !== undefined ? checkExample(loopConversion.code.csharp, sdk, pkgNamespace(peer)) : undefined;
    figures.push(
      `[examples-csharp] ${peer}: found ${examples.length}, converted ${converted.length}, names checked ${found.length} of ${total} (no .NET SDK here to compile); ` +
        `constructs program: names checked ${constructs.found.length} of ${constructs.found.length + constructs.missing.length}` +
        (loopConversion === undefined ? "" : `; repeated-resources program: ${loops === undefined ? "not converted" : `names checked ${loops.found.length} of ${loops.found.length + loops.missing.length}`}`),
    );
    if (loopConversion !== undefined) {
      expect(loops, `${peer}'s repeated-resources program in C#: ${loopConversion.ok ? JSON.stringify(loopConversion.skipped) : loopConversion.reason}`).toBeDefined();
      expect(loops!.missing, `${peer}'s repeated-resources program names what its C# SDK does not have`).toEqual([]);
      // Each repeated resource's class, its args' members and the instances' outputs read by index or key were looked up.
      expect(loops!.found.length).toBeGreaterThan(5);
    }
    expect(missing, `${peer}'s examples name what its C# SDK (${relative(dir, sdkDir)} in ${dir}) does not have`).toEqual([]);
    expect(constructs.missing, `${peer}'s constructs program names what its C# SDK does not have`).toEqual([]);
    expect(checked.length).toBeGreaterThan(0);
    expect(found.length).toBeGreaterThanOrEqual(checked.length);
  }, 600_000);
});
