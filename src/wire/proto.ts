// Finds and loads the project's .proto definitions (proto/) into gRPC service constructors, once per file set.
//
// protobufjs parses the files and does the (de)serialization; this module only shapes its services into the method
// tables src/wire/rpc.ts calls and serves. The message shapes are @grpc/proto-loader's, with the options below (the
// project was first written against it; test/unit/proto-loader.test.ts keeps the two alike).
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { DESCRIPTORS } from "./descriptors.gen.js";
import type { Method, Service } from "./rpc.js";
import { encodeStructField } from "./struct-codec.js";

// protobufjs refuses messages nested more than 100 deep, which a property value reaches at about 33 levels of maps (a
// Helm values document can); the engine's Go protobuf allows 10,000. 3,000 carries any value the Struct decoder
// accepts (src/server/struct.ts stops at MAX_VALUE_DEPTH levels with the path, where this limit would give none).
protobuf.util.recursionLimit = 3_000;
protobuf.Reader.recursionLimit = 3_000;

// protobufjs gives every message type a constructor when its definitions load, and makes each one by generating and
// compiling source text (`new Function`), which V8's code cache cannot keep: about a third of loading the tfplugin and
// Pulumi definitions at every start. messageConstructor builds the same constructor from a closure instead.
type ConstructorFactory = (type: protobuf.Type) => () => protobuf.Constructor<object>;
const typeStatics = protobuf.Type as unknown as { generateConstructor: ConstructorFactory };
/** protobufjs's own generated constructor, kept for the test that compares the two. */
export const generatedConstructor: ConstructorFactory = typeStatics.generateConstructor;

/** A message constructor by protobufjs's rules: map fields start as {}, repeated ones as [], then the given
 * properties that are not null are copied. */
export function messageConstructor(type: protobuf.Type): protobuf.Constructor<object> {
  const maps: string[] = [];
  const lists: string[] = [];
  for (const f of type.fieldsArray) {
    if (f.map) maps.push(f.name);
    else if (f.repeated) lists.push(f.name);
  }
  return function Message(this: Record<string, unknown>, properties?: Record<string, unknown>): void {
    for (const k of maps) this[k] = {};
    for (const k of lists) this[k] = [];
    if (properties) for (const k of Object.keys(properties)) if (properties[k] != null && k !== "__proto__") this[k] = properties[k];
  } as unknown as protobuf.Constructor<object>;
}
typeStatics.generateConstructor = (type) => () => messageConstructor(type);

let foundDir: string | undefined;

/** The `proto/` directory: beside the sources in a checkout, beside the bundle in a packaged plugin. */
export function protoDir(): string {
  if (foundDir !== undefined) return foundDir;
  const fromEnv = process.env["TF_BRIDGE_PROTO_DIR"];
  if (fromEnv !== undefined && existsSync(join(fromEnv, "tfplugin6"))) return (foundDir = fromEnv);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "proto");
    if (existsSync(join(candidate, "tfplugin6"))) return (foundDir = candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error("cannot find the proto/ directory with the wire definitions; set TF_BRIDGE_PROTO_DIR to it");
}

/**
 * How decoded messages look everywhere in this project: field names as written (snake_case), 64-bit integers as
 * strings, enums as names, bytes as Buffers, defaults filled in, and oneofs reported by the name of the field set.
 */
const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true, oneofs: true };
/** The same without defaults: absent fields stay absent, for callers that default them themselves. */
const TO_OBJECT_LEAN: protobuf.IConversionOptions = { ...TO_OBJECT, defaults: false };

export interface LoadOptions {
  /**
   * Methods whose responses decode without defaults filled in. Filling defaults into every one of the ~60,000
   * attribute messages of a large provider's GetProviderSchema response costs about 40 ms of each start-up; the wire
   * layer defaults absent schema fields itself.
   */
  leanResponses?: readonly string[];
}

/** The services of a file set by full name (`tfplugin6.Provider`). */
export type Services = Readonly<Record<string, Service>>;

const cache = new Map<string, Services>();

/** Encodes a message given in the shape this project decodes messages into (see TO_OBJECT). */
export function encodeMessage(type: protobuf.Type, value: object): Buffer {
  const plan = encodingPlan(type);
  if (plan === undefined || value instanceof protobuf.Message) return protobufjsEncode(type, value);
  // protobufjs writes fields in field-number order; so does this, its Structs written by struct-codec in between.
  const given = value as Record<string, unknown>;
  const parts: Buffer[] = [];
  for (const step of plan) {
    if (step instanceof protobuf.Field) {
      const s = given[step.name];
      if (s != null) parts.push(encodeStructField(step.id, s));
      continue;
    }
    let some: Record<string, unknown> | undefined;
    for (const name of step) {
      if (given[name] == null) continue;
      (some ??= {})[name] = given[name];
    }
    if (some !== undefined) parts.push(protobufjsEncode(type, some));
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function protobufjsEncode(type: protobuf.Type, value: object): Buffer {
  const bytes = type.encode(type.fromObject(value)).finish();
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A message's fields in number order: its singular Struct fields alone, the names of the others between them in runs. */
type EncodingPlan = readonly (protobuf.Field | readonly string[])[];
const plans = new WeakMap<protobuf.Type, EncodingPlan | null>();

/** The plan of a message with Struct fields of its own; undefined for one without, left to protobufjs whole. */
function encodingPlan(type: protobuf.Type): EncodingPlan | undefined {
  let plan = plans.get(type);
  if (plan === undefined) {
    const steps: (protobuf.Field | string[])[] = [];
    let run: string[] = [];
    for (const f of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
      if (!f.repeated && !f.map && f.resolve().resolvedType?.fullName === ".google.protobuf.Struct") {
        if (run.length > 0) steps.push(run);
        run = [];
        steps.push(f);
      } else {
        run.push(f.name);
      }
    }
    if (run.length > 0) steps.push(run);
    plan = steps.some((x) => x instanceof protobuf.Field) ? steps : null;
    plans.set(type, plan);
  }
  return plan ?? undefined;
}

/** A method whose messages are (de)serialized by protobufjs. */
function methodDefinition(service: protobuf.Service, method: protobuf.Method, lean: boolean): Method<object, object> {
  method.resolve();
  const request = method.resolvedRequestType!;
  const response = method.resolvedResponseType!;
  const serialize = (type: protobuf.Type) => (value: object): Buffer => encodeMessage(type, value);
  const deserialize = (type: protobuf.Type, options = TO_OBJECT) => (bytes: Buffer): object => type.toObject(type.decode(bytes), options);
  return {
    path: `/${service.fullName.slice(1)}/${method.name}`,
    requestStream: method.requestStream === true,
    responseStream: method.responseStream === true,
    requestSerialize: serialize(request),
    requestDeserialize: deserialize(request),
    responseSerialize: serialize(response),
    responseDeserialize: deserialize(response, lean ? TO_OBJECT_LEAN : TO_OBJECT),
    originalName: method.name.charAt(0).toLowerCase() + method.name.slice(1),
  };
}

/** Every service under `ns`, by full name. */
function collectServices(ns: protobuf.NamespaceBase, into: Record<string, Service>, lean: ReadonlySet<string>): void {
  for (const child of ns.nestedArray) {
    if (child instanceof protobuf.Service) {
      const methods: Record<string, Method<object, object>> = {};
      for (const m of child.methodsArray) methods[m.name] = methodDefinition(child, m, lean.has(m.name));
      into[child.fullName.slice(1)] = methods;
    } else if (child instanceof protobuf.Namespace && !(child instanceof protobuf.Type)) {
      collectServices(child, into, lean);
    }
  }
}

const roots = new Map<string, protobuf.Root>();

/**
 * The Root of proto files (paths relative to proto/), once per set: from the pre-built descriptors for the sets the
 * plugin loads, else parsed, imports resolving against proto/ and well-known types built in.
 */
export function protoRoot(files: readonly string[]): protobuf.Root {
  const key = files.join("\n");
  const hit = roots.get(key);
  if (hit !== undefined) return hit;
  const prebuilt = DESCRIPTORS[key];
  let root: protobuf.Root;
  if (prebuilt !== undefined) {
    // The sets the plugin loads come pre-parsed (scripts/gen-wire-types.ts), which halves their cost at every start.
    root = protobuf.Root.fromJSON(JSON.parse(prebuilt) as protobuf.INamespace);
  } else {
    root = new protobuf.Root();
    // Imports are written relative to proto/ (`import "pulumi/plugin.proto"`); google/protobuf/* come bundled.
    root.resolvePath = (_origin, target) => (isAbsolute(target) ? target : join(protoDir(), target));
    root.loadSync(files.map((f) => join(protoDir(), f)), { keepCase: true });
  }
  root.resolveAll();
  roots.set(key, root);
  return root;
}

/** The services of proto files, by full name. */
export function loadProtos(files: readonly string[], options: LoadOptions = {}): Services {
  const lean = new Set(options.leanResponses ?? []);
  const key = `${files.join("\n")}\n${[...lean].sort().join(",")}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const loaded: Record<string, Service> = {};
  collectServices(protoRoot(files), loaded, lean);
  cache.set(key, loaded);
  return loaded;
}

/** A service by its full name, e.g. `tfplugin6.Provider`. */
export function serviceOf(services: Services, name: string): Service {
  const service = services[name];
  if (service === undefined) throw new Error(`service ${name} is missing from the loaded proto definitions`);
  return service;
}

/** Generates the codecs of `type` and of every message type it contains, where protobufjs would at their first use. */
function setupReachable(type: protobuf.Type, seen: Set<protobuf.Type>): void {
  if (seen.has(type)) return;
  seen.add(type);
  type.setup();
  for (const field of type.fieldsArray) {
    field.resolve();
    if (field.resolvedType instanceof protobuf.Type) setupReachable(field.resolvedType, seen);
  }
}

/**
 * Generates now the codecs of the named methods' messages and everything in them, which protobufjs otherwise
 * generates and compiles at their first call. The snapshot build (src/server/snapshot.ts) runs this for the calls of
 * every start, so the executable starts with them compiled.
 */
export function prepareCodecs(files: readonly string[], service: string, methods: readonly string[]): void {
  const svc = protoRoot(files).lookupService(service);
  const seen = new Set<protobuf.Type>();
  for (const name of methods) {
    const m = svc.methods[name];
    if (m === undefined) throw new Error(`service ${service} has no method ${name}`);
    m.resolve();
    setupReachable(m.resolvedRequestType!, seen);
    setupReachable(m.resolvedResponseType!, seen);
  }
}
