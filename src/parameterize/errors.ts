// Error values of parameterization, each with a message for the user and the kind of failure the server maps to a status.

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
    super(message, options);
    this.name = "ParameterizeError";
  }
}

export function invalidArgument(message: string, options?: { cause?: unknown }): ParameterizeError {
  return new ParameterizeError("invalid-argument", message, options);
}
