// The one error of a command called wrongly or given something it cannot use: printed as its message alone, exit code 2.

/** A mistake in how a command was called or in what it was given; the message names it and what to do. */
export class UsageError extends Error {}
