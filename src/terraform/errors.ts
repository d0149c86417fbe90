// Error values of the Terraform layer: each carries a message written for the user and, where known, a cause.

/** Base class: every error this layer throws is one of these, so callers can tell ours from bugs. */
export class TerraformProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The binary could not be started or never completed the go-plugin handshake. */
export class LaunchError extends TerraformProviderError {}

/** The provider process died while calls were pending; `panicText` holds what it printed when it crashed. */
export class ProviderCrashedError extends TerraformProviderError {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly panicText: string | undefined,
  ) {
    super(message);
  }
}

/** A gRPC call to a live provider failed (transport error, unimplemented method, deadline). */
export class ProviderCallError extends TerraformProviderError {
  constructor(
    message: string,
    readonly method: string,
    readonly grpcCode: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
