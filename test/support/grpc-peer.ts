// @grpc/grpc-js clients for the project's services: tests talk to the plugin's server through an independent gRPC implementation, as the engine does.
import * as grpc from "@grpc/grpc-js";
import { loadProtos, serviceOf } from "../../src/wire/proto.js";

/** A grpc-js client constructor for service `name` of proto `files`, with the project's message codecs. */
export function grpcClientConstructor(files: readonly string[], name: string): grpc.ServiceClientConstructor {
  return grpc.makeGenericClientConstructor(serviceOf(loadProtos(files), name) as unknown as grpc.ServiceDefinition, name);
}
