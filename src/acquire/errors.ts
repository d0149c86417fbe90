// Error values of parameterization, each with a message for the user and the kind of failure the server maps to a status.
import { redactText } from "./redact.js";

/**
 * `invalid-argument`: the args or value are malformed; `failed-precondition`: well-formed but not possible here
 * (e.g. a registry that cannot be reached, a failed verification); `not-found`: the provider or version does not exist.
 */
export type ParameterizeErrorKind = "invalid-argument" | "failed-precondition" | "not-found";

export class ParameterizeError extends Error {
  constructor(
    readonly kind: ParameterizeErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    // The last stop before the user: a proxy or mirror password quoted anywhere in the message is masked.
    super(redactText(message), options);
    this.name = "ParameterizeError";
  }
}

export function invalidArgument(message: string, options?: { cause?: unknown }): ParameterizeError {
  return new ParameterizeError("invalid-argument", message, options);
}

// The acquisition failures a caller may want to tell apart (as Terraform's getproviders does) without parsing
// messages: each keeps the gRPC-facing kind the server already maps, so statuses are unchanged.

/** No installation method that applies has the provider at all (a registry's 404, an empty mirror). */
export class ProviderNotFoundError extends ParameterizeError {
  constructor(
    readonly sources: readonly string[],
    message: string,
  ) {
    super("not-found", message);
    this.name = "ProviderNotFoundError";
  }
}

/** The provider exists, but no version that matches the constraint can be used on this platform. */
export class VersionNotFoundError extends ParameterizeError {
  constructor(
    /** Every valid version the sources offer, newest first. */
    readonly available: readonly string[],
    message: string,
  ) {
    super("not-found", message);
    this.name = "VersionNotFoundError";
  }
}

/**
 * A source gave no answer (refused, DNS, timeout, 502/503/504) and nothing else could stand in for it: no other
 * source offered a match and the cache holds none. Not `not-found`: the provider may well exist.
 */
export class HostUnreachableError extends ParameterizeError {
  constructor(
    /** Descriptions of the sources that could not be reached. */
    readonly unreachable: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super("failed-precondition", message, options);
    this.name = "HostUnreachableError";
  }
}
