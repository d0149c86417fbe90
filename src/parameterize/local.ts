// A provider binary on disk, the one place for it: the provider type its file name gives, its path resolved and
// checked, a running provider to attach to instead (the reattach variables), and a recorded path that is gone.
import { accessSync, constants } from "node:fs";
import { basename, resolve } from "node:path";
import { invalidArgument, ParameterizeError } from "../acquire/errors.js";
import { lookUpPath, whyNotExecutable } from "../terraform/binary.js";
import { findReattach, type ReattachEntry } from "./reattach.js";

/** A local binary reports no version of its own; the package gets this one (as the reference implementation does). */
export const LOCAL_VERSION = "0.0.0";

const BINARY_NAME = /^terraform-provider-([0-9A-Za-z](?:[0-9A-Za-z_-]*[0-9A-Za-z])?)(?:_v\d+\.\d+\.\d+[0-9A-Za-z._+-]*)?(?:\.exe)?$/;

/**
 * The provider type from a binary's file name: `terraform-provider-random` and registry-style
 * `terraform-provider-random_v3.6.3` (the `_vX.Y.Z` suffix Terraform's installer uses) both give `random`.
 */
export function typeFromBinaryName(path: string): string {
  const file = basename(path);
  const m = BINARY_NAME.exec(file);
  if (!m) {
    throw invalidArgument(
      `"${path}" does not name a Terraform provider binary: the file name must be terraform-provider-<name> ` +
        `(e.g. ./bin/terraform-provider-random)`,
    );
  }
  return m[1]!.toLowerCase();
}

export interface LocalBinary {
  /** Absolute path: the value bytes must name the same file whatever directory a program later runs in. */
  path: string;
  type: string;
}

/** Resolves `path` against `cwd` and checks that it is an executable file named terraform-provider-<type>. */
export function resolveLocalBinary(path: string, cwd: string = process.cwd()): LocalBinary {
  const type = typeFromBinaryName(path);
  const absolute = resolve(cwd, path);
  const looked = lookUpPath(absolute);
  if ("missing" in looked) {
    throw new ParameterizeError(
      "not-found",
      `Terraform provider binary not found: ${absolute}` + (absolute !== path ? ` (from "${path}", relative to ${cwd})` : "") +
        ". Build or download the provider, or fix the path.",
    );
  }
  if ("unreachable" in looked) throw new ParameterizeError("failed-precondition", `cannot use the Terraform provider binary: ${looked.unreachable}`);
  const st = looked.found;
  if (!st.isFile()) throw new ParameterizeError("failed-precondition", `${absolute} is not a file; expected a terraform-provider-${type} executable`);
  try {
    accessSync(absolute, constants.X_OK);
  } catch {
    throw new ParameterizeError("failed-precondition", whyNotExecutable(absolute, st.mode));
  }
  return { path: absolute, type };
}

/**
 * The binary on disk, or the running provider a reattach variable names for its type; then the file need not exist
 * (a debugged build may live elsewhere) and only its absolute path is recorded.
 */
export function localBinary(path: string, cwd: string | undefined): LocalBinary & { attach?: ReattachEntry } {
  const type = typeFromBinaryName(path);
  const attach = findReattach({ kind: "local", type });
  return attach === undefined ? resolveLocalBinary(path, cwd) : { path: resolve(cwd ?? process.cwd(), path), type, attach };
}

/**
 * The binary an SDK (or a YAML `packages:` entry) names by its absolute path. When it is gone, the user moved or
 * deleted it since `package add`: say that the path is recorded there and how to record the new one (`addCommand`:
 * the `pulumi package add` command for a binary at another path).
 */
export function recordedBinary(path: string, cwd: string | undefined, addCommand: (binary: string) => string): LocalBinary & { attach?: ReattachEntry } {
  try {
    return localBinary(path, cwd);
  } catch (e) {
    if (!(e instanceof ParameterizeError) || e.kind !== "not-found") throw e;
    throw new ParameterizeError(
      "not-found",
      `Terraform provider binary not found: ${path}. The package's SDK (or the packages: entry of Pulumi.yaml) was generated for that path; ` +
        `put the provider back there, or regenerate the SDK for where it is now: \`${addCommand(`<new dir>/${basename(path)}`)}\``,
      { cause: e },
    );
  }
}
