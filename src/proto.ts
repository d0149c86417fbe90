// Finds and loads the project's .proto definitions (proto/) into gRPC service constructors, once per file set.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

let protoRoot: string | undefined;

/** The `proto/` directory: beside the sources in a checkout, beside the bundle in a packaged plugin. */
export function protoDir(): string {
  if (protoRoot !== undefined) return protoRoot;
  const fromEnv = process.env["TF_BRIDGE_PROTO_DIR"];
  if (fromEnv !== undefined && existsSync(join(fromEnv, "tfplugin6"))) return (protoRoot = fromEnv);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "proto");
    if (existsSync(join(candidate, "tfplugin6"))) return (protoRoot = candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error("cannot find the proto/ directory with the wire definitions; set TF_BRIDGE_PROTO_DIR to it");
}

const cache = new Map<string, grpc.GrpcObject>();

/**
 * Loads proto files (paths relative to proto/) with the conventions every edge of this project relies on:
 * field names as written (snake_case), 64-bit integers as strings, enums as names, bytes as Buffers,
 * defaults filled in, and oneofs reported by the name of the field that is set.
 */
export function loadProtos(files: readonly string[]): grpc.GrpcObject {
  const key = files.join("\n");
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const definition = protoLoader.loadSync(
    files.map((f) => join(protoDir(), f)),
    { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true, includeDirs: [protoDir()] },
  );
  const loaded = grpc.loadPackageDefinition(definition);
  cache.set(key, loaded);
  return loaded;
}

/** Looks up a service constructor by its dotted name, e.g. `tfplugin6.Provider`. */
export function serviceConstructor(root: grpc.GrpcObject, name: string): grpc.ServiceClientConstructor {
  let node: unknown = root;
  for (const part of name.split(".")) {
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  if (typeof node !== "function") throw new Error(`service ${name} is missing from the loaded proto definitions`);
  return node as grpc.ServiceClientConstructor;
}
