// The one rule for an exact provider version, applied to everything that becomes one: a parameter value's version,
// a registry's or mirror's version list, a constraint's version, and the cache directory named after it.
import semver from "semver";

/**
 * Longer versions are refused: a version names a cache directory, and one path component must fit in 255 bytes on
 * every file system we install to. Real provider versions are under 30 characters.
 */
export const MAX_VERSION_LENGTH = 128;

// MAJOR.MINOR.PATCH without leading zeros, then an optional pre-release and build suffix: Semantic Versioning 2.0.0
// exactly, which is also what Terraform's ParseVersion takes for a complete version.
const NUMBER = "(0|[1-9]\\d*)";
const PRE_ID = "(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)";
const BUILD_ID = "[0-9A-Za-z-]+";
const STRICT = new RegExp(`^${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-${PRE_ID}(?:\\.${PRE_ID})*)?(?:\\+${BUILD_ID}(?:\\.${BUILD_ID})*)?$`);

/** Why `text` is not an exact version, as a phrase for a message; undefined when it is one. */
export function exactVersionProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return "it is not a string";
  if (text === "") return "it is empty";
  if (text.length > MAX_VERSION_LENGTH) return `it is longer than ${MAX_VERSION_LENGTH} characters`;
  if (text.trim() !== text) return "it has spaces around it";
  if (/^[vV=]/.test(text)) return `it starts with "${text[0]}"; write the version alone, e.g. ${text.slice(1)}`;
  const m = STRICT.exec(text);
  if (m === null) return "it is not MAJOR.MINOR.PATCH (three whole numbers without leading zeros, then an optional -pre-release and +build)";
  const parts: [string, string][] = [
    ["major", m[1]!],
    ["minor", m[2]!],
    ["patch", m[3]!],
  ];
  const big = parts.find(([, n]) => !isSafeNumber(n));
  if (big !== undefined) return `its ${big[0]} version ${big[1]} is larger than ${Number.MAX_SAFE_INTEGER}, the largest supported`;
  // The rule above is semver's own; this keeps the two from ever disagreeing, since every later step uses semver.
  if (semver.parse(text) === null) return "it is not a semantic version";
  return undefined;
}

/** Is `text` an exact version by the one rule (and so usable as a value's version and a cache directory name)? */
export function isExactVersion(text: unknown): text is string {
  return exactVersionProblem(text) === undefined;
}

/** A decimal string of digits that semver can hold (numbers up to 2^53 - 1). */
export function isSafeNumber(digits: string): boolean {
  const d = digits.replace(/^0+(?=\d)/, "");
  return d.length < 16 || (d.length === 16 && BigInt(d) <= BigInt(Number.MAX_SAFE_INTEGER));
}
