// Generates src/wire/*.gen.ts: TypeScript types for every message, enum and service of proto/, in the exact shapes
// src/proto.ts decodes and encodes (run `npx tsx scripts/gen-wire-types.ts`; test/unit/wire-types.test.ts fails when
// the committed files differ from what this produces).
//
// Per message M two interfaces:
//   M    as decoded (protobufjs toObject with src/proto.ts's options: names as written in the .proto, 64-bit integers
//        as strings, enums as names, bytes as Buffer, defaults filled in; fields of a oneof or proto3 `optional` are
//        absent unless set, and the oneof's own name holds the name of the field that is set);
//   MIn  as accepted for encoding (protobufjs fromObject: every field optional, messages may be null, enums by name
//        or number, 64-bit integers as string or number, bytes as any Uint8Array).
// Responses decoded without defaults (LoadOptions.leanResponses) are typed Lean<M> (src/wire/shape.ts).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every proto file of proto/ that defines messages (go-plugin's broker is never used, but typed all the same). */
export const PROTO_FILES = [
  "pulumi/provider.proto",
  "pulumi/engine.proto",
  "tfplugin5/tfplugin5.proto",
  "tfplugin6/tfplugin6.proto",
  "go-plugin/grpc_broker.proto",
  "go-plugin/grpc_controller.proto",
  "go-plugin/grpc_stdio.proto",
  "google/rpc/status.proto",
];

const LONGS = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const NUMBERS = new Set(["double", "float", "int32", "uint32", "sint32", "fixed32", "sfixed32"]);

function load(): protobuf.Root {
  const r = new protobuf.Root();
  r.resolvePath = (_origin, target) => (target.startsWith("/") ? target : join(root, "proto", target));
  r.loadSync(PROTO_FILES.map((f) => join(root, "proto", f)), { keepCase: true });
  r.resolveAll();
  return r;
}

/** The package a type belongs to: its full name minus the nesting of messages. */
function packageOf(t: protobuf.ReflectionObject): string {
  let p = t.parent;
  while (p instanceof protobuf.Type) p = p.parent;
  return p === null || p.fullName === "" ? "" : p.fullName.slice(1);
}

/** A message's or enum's name within its package: nested names joined by `_` (tfplugin6.Schema.Block → Schema_Block). */
function localName(t: protobuf.ReflectionObject): string {
  const pkg = packageOf(t);
  return t.fullName.slice(1 + pkg.length + (pkg === "" ? 0 : 1)).replace(/\./g, "_");
}

const alias = (pkg: string) => pkg.replace(/\./g, "_");
const fileOf = (pkg: string) => `${pkg}.gen`;

interface Ctx {
  pkg: string;
  imports: Set<string>;
}

function ref(t: protobuf.Type | protobuf.Enum, ctx: Ctx, suffix: string): string {
  const pkg = packageOf(t);
  const name = localName(t) + (t instanceof protobuf.Enum ? "" : suffix);
  if (pkg === ctx.pkg) return name;
  ctx.imports.add(pkg);
  return `${alias(pkg)}.${name}`;
}

function scalar(f: protobuf.Field, type: string, ctx: Ctx, input: boolean): string {
  if (f.resolvedType instanceof protobuf.Enum) return input ? `${ref(f.resolvedType, ctx, "")} | number` : ref(f.resolvedType, ctx, "");
  if (f.resolvedType instanceof protobuf.Type) return ref(f.resolvedType, ctx, input ? "In" : "");
  if (LONGS.has(type)) return input ? "string | number" : "string";
  if (NUMBERS.has(type)) return "number";
  if (type === "bool") return "boolean";
  if (type === "string") return "string";
  if (type === "bytes") return input ? "Uint8Array" : "Buffer";
  throw new Error(`gen-wire-types: field ${f.fullName} has type ${type}, which this generator does not know`);
}

function fieldType(f: protobuf.Field, ctx: Ctx, input: boolean): string {
  const value = scalar(f, f.type, ctx, input);
  if (f instanceof protobuf.MapField) return `Record<string, ${value}>`;
  if (f.repeated) return value.includes(" ") ? `(${value})[]` : `${value}[]`;
  return value;
}

function messageTypes(t: protobuf.Type, ctx: Ctx): string {
  const name = localName(t);
  const out: string[] = [];
  const comment = `/** ${t.fullName.slice(1)} */`;
  // Decoded.
  out.push(comment, `export interface ${name} {`);
  for (const f of t.fieldsArray) {
    const ty = fieldType(f, ctx, false);
    const single = !f.repeated && !(f instanceof protobuf.MapField);
    if (f.partOf) out.push(`  ${f.name}?: ${ty};`);
    else if (single && f.resolvedType instanceof protobuf.Type) out.push(`  ${f.name}: ${ty} | null;`);
    else out.push(`  ${f.name}: ${ty};`);
  }
  for (const o of t.oneofsArray) out.push(`  ${o.name}?: ${o.fieldsArray.map((f) => JSON.stringify(f.name)).join(" | ")};`);
  out.push("}");
  // For encoding.
  out.push(`/** ${t.fullName.slice(1)}, for encoding */`, `export interface ${name}In {`);
  for (const f of t.fieldsArray) {
    const ty = fieldType(f, ctx, true);
    const nullable = !f.repeated && !(f instanceof protobuf.MapField) && f.resolvedType instanceof protobuf.Type;
    out.push(`  ${f.name}?: ${ty}${nullable ? " | null" : ""};`);
  }
  out.push("}");
  return out.join("\n");
}

function enumType(e: protobuf.Enum): string {
  const names = Object.keys(e.values).map((n) => JSON.stringify(n));
  return `/** ${e.fullName.slice(1)} */\nexport type ${localName(e)} = ${names.join(" | ")};`;
}

function serviceType(s: protobuf.Service, ctx: Ctx): string {
  const out = [`/** The RPCs of ${s.fullName.slice(1)}: for each, its request and response as decoded and for encoding. */`];
  out.push(`export interface ${s.name}Methods {`);
  for (const m of s.methodsArray) {
    m.resolve();
    const req = m.resolvedRequestType!;
    const res = m.resolvedResponseType!;
    out.push(
      `  ${m.name}: { request: ${ref(req, ctx, "")}; requestIn: ${ref(req, ctx, "In")}; response: ${ref(res, ctx, "")}; responseIn: ${ref(res, ctx, "In")}; ` +
        `requestStream: ${m.requestStream === true}; responseStream: ${m.responseStream === true} };`,
    );
  }
  out.push("}");
  return out.join("\n");
}

function collect(ns: protobuf.NamespaceBase, byPkg: Map<string, protobuf.ReflectionObject[]>): void {
  for (const child of ns.nestedArray) {
    if (child instanceof protobuf.Type || child instanceof protobuf.Enum || child instanceof protobuf.Service) {
      const pkg = packageOf(child);
      if (!byPkg.has(pkg)) byPkg.set(pkg, []);
      byPkg.get(pkg)!.push(child);
    }
    if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) collect(child, byPkg);
  }
}

/** The generated files, by path relative to the repository root. */
export function generate(): Map<string, string> {
  const byPkg = new Map<string, protobuf.ReflectionObject[]>();
  collect(load(), byPkg);
  const files = new Map<string, string>();
  for (const [pkg, objs] of [...byPkg].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ctx: Ctx = { pkg, imports: new Set() };
    const seen = new Set<string>();
    const body: string[] = [];
    for (const o of objs.sort((a, b) => (a.fullName < b.fullName ? -1 : 1))) {
      const parts =
        o instanceof protobuf.Type ? [localName(o), `${localName(o)}In`] : o instanceof protobuf.Enum ? [localName(o)] : [`${o.name}Methods`];
      for (const p of parts) {
        if (seen.has(p)) throw new Error(`gen-wire-types: two definitions of ${pkg}.${p}`);
        seen.add(p);
      }
      body.push(o instanceof protobuf.Type ? messageTypes(o, ctx) : o instanceof protobuf.Enum ? enumType(o) : serviceType(o as protobuf.Service, ctx));
    }
    const head = [
      `// Generated by scripts/gen-wire-types.ts from proto/: the wire types of package ${pkg}. Do not edit; regenerate.`,
      "/* eslint-disable */",
      ...[...ctx.imports].sort().map((p) => `import type * as ${alias(p)} from "./${fileOf(p)}.js";`),
    ];
    files.set(`src/wire/${fileOf(pkg)}.ts`, `${[...head, "", body.join("\n\n")].join("\n")}\n`);
  }
  return files;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, text] of generate()) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    let old = "";
    try {
      old = readFileSync(abs, "utf8");
    } catch {
      // A new file.
    }
    if (old !== text) writeFileSync(abs, text);
    console.log(path);
  }
}
