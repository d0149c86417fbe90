// The bridge's requests, results and errors: what src/server's operations hand in and get back.
import type { PropertyMap } from "./property-value.js";

export type { DiffKind, DiffResult } from "./diff.js";

/** A problem with one input that the program can fix; `property` is a Pulumi property path (`rules[0].fromPort`). */
export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

/** The engine's autonaming configuration for one resource (Pulumi's `autonaming` stack setting). */
export interface Autonaming {
  proposedName?: string;
  mode: "propose" | "enforce" | "disable";
}

export interface CheckRequest {
  /** The resource's type token (ours or the reference's alias). */
  token: string;
  /** The resource's name in the program, for generated names. */
  name: string;
  olds: PropertyMap;
  news: PropertyMap;
  autonaming?: Autonaming;
  /** The engine's seed for names that stay the same across previews; empty or absent when it sends none. */
  randomSeed?: Uint8Array;
  /** The resource's URN: what its warnings are about, and the key under which write-only inputs are held for create/update (`name` when absent). */
  urn?: string;
}

export interface DiffRequest {
  token: string;
  id: string;
  /** The stored outputs. */
  olds: PropertyMap;
  /** The checked new inputs. */
  news: PropertyMap;
  /** The resource's URN, which its warnings are about. */
  urn?: string;
}

/** What create, update and delete share. */
export interface OperationOptions {
  preview?: boolean;
  /** Pulumi customTimeouts for this operation, in seconds (0: none). */
  timeoutSeconds?: number;
  /** The resource's name in the program, for messages that tell the user what to run. */
  name?: string;
  /** The resource's URN: what its warnings are about, and the key under which check held its write-only values. */
  urn?: string;
}

export interface CreateRequest extends OperationOptions {
  token: string;
  news: PropertyMap;
}

export interface UpdateRequest extends OperationOptions {
  token: string;
  id: string;
  olds: PropertyMap;
  news: PropertyMap;
}

export interface DeleteRequest extends OperationOptions {
  token: string;
  id: string;
  olds: PropertyMap;
}

export interface ReadRequest {
  token: string;
  /** The id, or on import the import target (an id, or an identity as JSON). */
  id: string;
  /** The stored outputs; absent on import. */
  state?: PropertyMap;
  /** The stored inputs; absent on import. */
  inputs?: PropertyMap;
  /** The resource's URN, which its warnings are about. */
  urn?: string;
}

export interface ReadResult {
  id: string;
  properties: PropertyMap;
  inputs: PropertyMap;
}

export interface InvokeResult {
  result: PropertyMap;
  failures: CheckFailure[];
}

/** Where the bridge's messages go; `urn` names the resource a message is about (none: the stack, as for an invoke). */
export type LogFn = (severity: "debug" | "info" | "warning" | "error", message: string, urn?: string) => void;

/** What the layers above know about where the package came from, for the bridge's messages to name. */
export interface BridgeHints {
  /** What to do when a stored state was written by a newer release than this package runs (the command to run). */
  newerRelease?: string;
  /** The provider's address as Terraform writes it (`registry.terraform.io/hashicorp/random`): a move's source. */
  providerAddress?: string;
}

/** A user-facing failure of an operation, with the Terraform diagnostics as the message. */
export class BridgeError extends Error {}

/**
 * Apply failed but the provider returned a new state: the object exists (maybe half-configured). Carries what the
 * engine must record so that the next `pulumi up` completes the job rather than creating a duplicate.
 */
export class PartialFailure extends Error {
  constructor(
    readonly id: string,
    readonly properties: PropertyMap,
    readonly inputs: PropertyMap,
    readonly reasons: string[],
  ) {
    super(reasons.join("\n"));
  }
}
