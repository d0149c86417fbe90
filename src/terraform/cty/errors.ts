// The one error type the cty codec throws, carrying the cty path of the offending value.

/**
 * A value that does not conform to its cty type, or bytes that are not a valid
 * encoding of it. The message reads `<problem> at <path>, <detail>`, for example
 * `expected string at .tags["a"], got number`, and is written for a user.
 */
export class CtyError extends Error {
  /** Where in the value the problem is, in cty path syntax (`.attr`, `["key"]`, `[0]`); empty at the root. */
  readonly path: string;
  /** What was wrong, without the path. */
  readonly problem: string;
  /** What was found instead, when that helps (e.g. `got number`). */
  readonly detail: string;

  constructor(problem: string, detail = "", path = "") {
    super(composeMessage(problem, path, detail));
    this.name = "CtyError";
    this.problem = problem;
    this.detail = detail;
    this.path = path;
  }

  /**
   * Prefixes a path step as the error unwinds out of a container; paths are built
   * on the way out so the encoders do no path bookkeeping on the happy path.
   * @internal
   */
  under(step: string): this {
    // Keep the outermost steps of absurdly deep paths (cyclic values, hostile nesting).
    let path = step + this.path;
    if (path.length > MAX_PATH) path = path.slice(0, MAX_PATH) + "…";
    (this as { path: string }).path = path;
    this.message = composeMessage(this.problem, path, this.detail);
    return this;
  }
}

const MAX_PATH = 300;

function composeMessage(problem: string, path: string, detail: string): string {
  let m = problem;
  if (path !== "") m += ` at ${path}`;
  if (detail !== "") m += `, ${detail}`;
  return m;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The path step for an object attribute. */
export function attrStep(name: string): string {
  return IDENT.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** The path step for a map key. */
export function keyStep(key: string): string {
  return `[${JSON.stringify(key)}]`;
}

/** The path step for a list, set or tuple element. */
export function indexStep(i: number): string {
  return `[${i}]`;
}

/**
 * Re-throws `e` with `step` prepended to its path; anything that is not a CtyError
 * (a stack overflow, a bug) is wrapped so callers only ever see CtyError.
 */
export function rethrowUnder(e: unknown, step: string): never {
  if (e instanceof CtyError) throw e.under(step);
  if (e instanceof RangeError) throw new CtyError("value is nested too deeply").under(step);
  throw e;
}
