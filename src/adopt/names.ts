// The Pulumi names of adopted Terraform objects: a resource name from the Terraform address, and a program variable name.
import type { StateInstance } from "./tfstate.js";

/**
 * `module.net["eu west"].local_file.conf[0]` → `net-eu_west-conf-0`: the module calls, the resource name and each
 * count or for_each key, joined by `-`; characters other than letters, digits, `_` and `.` in a key become `_`. The
 * type is not part of it: a Pulumi URN holds the type beside the name, as Terraform's address does.
 */
export function pulumiName(i: Pick<StateInstance, "modules" | "name" | "key">): string {
  const parts: string[] = [];
  for (const m of i.modules) parts.push(m.name, ...keyPart(m.key));
  parts.push(i.name, ...keyPart(i.key));
  return parts.join("-");
}

function keyPart(key: number | string | undefined): string[] {
  if (key === undefined) return [];
  const s = String(key).replace(/[^A-Za-z0-9_.]/g, "_");
  return [s === "" ? "_" : s];
}

/** Distinct names for a list of wanted ones, in order: a name taken already gets `-2`, `-3`, … (keys that differ only in punctuation). */
export function uniqueNames(wanted: readonly string[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return wanted.map((w) => {
    let name = w;
    for (let n = 2; used.has(name); n++) name = `${w}-${n}`;
    used.add(name);
    return name;
  });
}

/** A program variable for a resource: `local_file` `net-conf-0` → `local_file_net_conf_0`, as PCL identifiers allow. */
export function variableName(type: string, name: string): string {
  const v = `${type}_${name}`.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[A-Za-z_]/.test(v) ? v : `_${v}`;
}
