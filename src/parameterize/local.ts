// Acquisition of a provider binary already on disk: resolve the path, check it, derive the provider type from its name.
import { accessSync, constants } from "node:fs";
import { resolve } from "node:path";
import { typeFromBinaryName } from "./args.js";
import { ParameterizeError } from "../acquire/errors.js";
import { lookUpPath, whyNotExecutable } from "../terraform/binary.js";

/** A local binary reports no version of its own; the package gets this one (as the reference implementation does). */
export const LOCAL_VERSION = "0.0.0";

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
