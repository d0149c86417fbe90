// The one error type the cty codec throws, carrying the path of the offending value.
import { attribute, formatPath, index, key, type Path, type PathStep } from "../path.js";

/**
 * A value that does not conform to its cty type, or bytes that are not a valid
 * encoding of it. The message reads `<problem> at <path>, <detail>`, for example
 * `expected string at tags["a"], got number`, and is written for a user.
 */
export class CtyError extends Error {
  /** Where in the value the problem is; empty at the root. */
  readonly path: Path;
  /** What was wrong, without the path. */
  readonly problem: string;
  /** What was found instead, when that helps (e.g. `got number`). */
  readonly detail: string;

  private truncated = false;

  constructor(problem: string, detail = "", path: Path = []) {
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
  under(step: PathStep | undefined): this {
    if (step === undefined) return this;
    // Keep the outermost steps of absurdly deep paths (cyclic values, hostile nesting); the innermost fall off.
    const path = [step, ...this.path];
    if (path.length > MAX_STEPS) {
      path.length = MAX_STEPS;
      this.truncated = true;
    }
    (this as { path: Path }).path = path;
    this.message = composeMessage(this.problem, path, this.detail, this.truncated);
    return this;
  }
}

const MAX_STEPS = 64;
const MAX_PATH_CHARS = 300;

function composeMessage(problem: string, path: Path, detail: string, truncated = false): string {
  let m = problem;
  let at = formatPath(path);
  if (at.length > MAX_PATH_CHARS) at = at.slice(0, MAX_PATH_CHARS) + "…";
  else if (truncated) at += "…";
  if (at !== "") m += ` at ${at}`;
  if (detail !== "") m += `, ${detail}`;
  return m;
}

export { attribute as attrStep, index as indexStep, key as keyStep };

/**
 * Re-throws `e` with `step` prepended to its path; anything that is not a CtyError
 * (a stack overflow, a bug) is wrapped so callers only ever see CtyError.
 */
export function rethrowUnder(e: unknown, step: PathStep | undefined): never {
  if (e instanceof CtyError) throw e.under(step);
  if (e instanceof RangeError) throw new CtyError("value is nested too deeply").under(step);
  throw e;
}
