// Terraform version constraints (`=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`, comma lists): parsing and matching.
import semver from "semver";
import { invalidArgument } from "./errors.js";
import { exactVersionProblem, isExactVersion, isSafeNumber } from "./version.js";

export type ConstraintOp = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~>";

export interface ConstraintClause {
  op: ConstraintOp;
  /** The version as written, normalized to three parts (`1.2` → `1.2.0`). */
  version: string;
  /** How many numeric parts were written; `~>` depends on it. */
  precision: 1 | 2 | 3;
}

export interface VersionConstraint {
  /** As the user wrote it, for messages; "" means any version (the latest). */
  raw: string;
  clauses: ConstraintClause[];
}

// An operator, then MAJOR[.MINOR[.PATCH]] with an optional pre-release and build suffix, as Terraform accepts them.
const CLAUSE = /^(=|!=|>=|<=|>|<|~>)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Parses a constraint string; "" (or only blanks) means any version. */
export function parseVersionConstraint(raw: string): VersionConstraint {
  const trimmed = raw.trim();
  if (trimmed === "") return { raw: "", clauses: [] };
  const clauses = trimmed.split(",").map((part): ConstraintClause => {
    const text = part.trim();
    const m = CLAUSE.exec(text);
    if (!m) {
      const hint = /^v\d/.test(text) ? ' (write versions without a leading "v")' : /[*x]/.test(text) ? " (wildcards are not Terraform syntax; use ~>)" : "";
      throw invalidArgument(
        `invalid version constraint "${raw}": "${text}" is not an operator (=, !=, >, >=, <, <=, ~>) followed by a version${hint}`,
      );
    }
    const [, op, major, minor, patch, pre, build] = m;
    const precision = patch !== undefined ? 3 : minor !== undefined ? 2 : 1;
    if (pre !== undefined && precision !== 3) {
      throw invalidArgument(`invalid version constraint "${raw}": a pre-release needs a full MAJOR.MINOR.PATCH version`);
    }
    const big = [major!, minor, patch].find((n) => n !== undefined && !isSafeNumber(n));
    if (big !== undefined) {
      throw invalidArgument(`invalid version constraint "${raw}": ${big} in "${text}" is larger than ${Number.MAX_SAFE_INTEGER}, the largest version number supported`);
    }
    // Build metadata is kept so that an exact constraint names the very version a value pins (it never orders).
    const version = `${Number(major)}.${Number(minor ?? 0)}.${Number(patch ?? 0)}${pre ?? ""}${build ?? ""}`;
    const problem = exactVersionProblem(version);
    if (problem !== undefined) throw invalidArgument(`invalid version constraint "${raw}": "${text}" does not name a version (${problem})`);
    return { op: (op ?? "=") as ConstraintOp, version, precision };
  });
  return { raw: trimmed, clauses };
}

/** True when the constraint names one exact version (so no registry listing is needed to resolve it). */
export function exactVersion(c: VersionConstraint): string | undefined {
  return c.clauses.length === 1 && c.clauses[0]!.op === "=" ? c.clauses[0]!.version : undefined;
}

function clauseMatches(cl: ConstraintClause, v: semver.SemVer): boolean {
  const cmp = semver.compare(v, cl.version);
  switch (cl.op) {
    case "=":
      return cmp === 0;
    case "!=":
      return cmp !== 0;
    case ">":
      return cmp > 0;
    case ">=":
      return cmp >= 0;
    case "<":
      return cmp < 0;
    case "<=":
      return cmp <= 0;
    case "~>": {
      // Only the rightmost written part may grow: ~> 1.2 is >= 1.2.0, < 2.0.0; ~> 1.2.3 is >= 1.2.3, < 1.3.0.
      const base = new semver.SemVer(cl.version);
      const [major, minor] = cl.precision === 3 ? [base.major, base.minor + 1] : [base.major + 1, 0];
      // Past the largest number a version part may have, the bound is no version: "the same major (and minor)".
      if (!Number.isSafeInteger(major)) return cmp >= 0;
      if (!Number.isSafeInteger(minor)) return cmp >= 0 && v.major === major;
      return cmp >= 0 && semver.lt(v, `${major}.${minor}.0`);
    }
  }
}

/**
 * Does `version` satisfy the constraint? As in Terraform, a pre-release is selected only by an exact `=` clause
 * naming it, never by a range.
 */
export function satisfies(c: VersionConstraint, version: string): boolean {
  if (!isExactVersion(version)) return false;
  const v = semver.parse(version);
  if (v === null) return false;
  if (v.prerelease.length > 0) {
    const exact = c.clauses.some((cl) => cl.op === "=" && semver.eq(v, cl.version));
    if (!exact) return false;
  }
  return c.clauses.every((cl) => clauseMatches(cl, v));
}

/** The highest of `versions` that satisfies the constraint, if any. */
export function newestMatching(c: VersionConstraint, versions: readonly string[]): string | undefined {
  return versions.filter((v) => satisfies(c, v)).sort(semver.rcompare)[0];
}
