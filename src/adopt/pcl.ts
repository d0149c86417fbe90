// Program code for adopted resources in PCL, Pulumi's program language that `pulumi convert --from pcl` turns into TypeScript, Python, Go or YAML.
import { Secret, isPropertyMap, type PropertyValue } from "../bridge/property-value.js";
import { VERSION } from "../version.js";
import type { AdoptedResource } from "./adopt.js";
import { uniqueNames } from "./names.js";

/** A stack configuration value the adopted code reads: a sensitive input's value, kept out of the code. */
export interface SecretSetting {
  key: string;
  value: string | number | boolean;
}

/**
 * A PCL program with a `package` block per package (the parameterization that makes the package's SDK) and a
 * `resource` per adopted resource, under its Pulumi name, setting the inputs adoption stored, so that the program
 * previews with no changes. A secret input is never written into the code: each of its values (each leaf of a
 * structured one) is read from a stack configuration key (`secrets`, to be set with `pulumi config set --secret`)
 * and the input is written `secret(…)` of them.
 */
export function adoptedProgram(resources: readonly AdoptedResource[]): { text: string; secrets: SecretSetting[] } {
  const out: string[] = [];
  const secrets: SecretSetting[] = [];
  const taken = new Set<string>();
  const packages = new Map(resources.map((r) => [r.package.name, r.package]));
  for (const p of [...packages.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    out.push(
      `package ${JSON.stringify(p.name)} {`,
      `  baseProviderName    = "terraform-provider"`,
      `  baseProviderVersion = ${JSON.stringify(VERSION)}`,
      "  parameterization {",
      `    name    = ${JSON.stringify(p.name)}`,
      `    version = ${JSON.stringify(p.version)}`,
      `    value   = ${JSON.stringify(Buffer.from(p.value).toString("base64"))}`,
      "  }",
      "}",
      "",
    );
  }
  const body: string[] = [];
  for (const r of resources) {
    body.push(`# ${r.address}`, `resource ${r.variable} ${JSON.stringify(r.token)} {`, `  __logicalName = ${JSON.stringify(r.name)}`);
    for (const [k, v] of Object.entries(r.inputs)) {
      const fromConfig = (leaf: string | number | boolean, path: string): string => {
        const [name] = uniqueNames([`${r.variable}_${path}`.replace(/[^A-Za-z0-9_]/g, "_")], taken);
        taken.add(name!);
        secrets.push({ key: name!, value: leaf });
        out.push(`config ${name!} ${JSON.stringify(typeof leaf === "boolean" ? "bool" : typeof leaf === "number" ? (Number.isInteger(leaf) ? "int" : "number") : "string")} {`, "}", "");
        return name!;
      };
      body.push(`  ${key(k)} = ${literal(v, "  ", undefined, k, fromConfig)}`);
    }
    body.push("}", "");
  }
  return { text: [...out, ...body].join("\n"), secrets };
}

function key(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k);
}

/**
 * A value as PCL; inside a secret (`config` set), each string, number or boolean is a configuration reference made by
 * `config`, named from its path.
 */
function literal(v: PropertyValue, indent: string, config: ((leaf: string | number | boolean, path: string) => string) | undefined, path: string, fromConfig: (leaf: string | number | boolean, path: string) => string): string {
  if (v instanceof Secret) return `secret(${literal(v.value, indent, fromConfig, path, fromConfig)})`;
  if (v === null) return "null";
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
    if (config !== undefined) return config(v, path);
    return typeof v === "string" ? quoted(v) : String(v);
  }
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((e, i) => `${inner}${literal(e, inner, config, `${path}_${i}`, fromConfig)}`).join(",\n")}\n${indent}]`;
  if (isPropertyMap(v)) {
    const entries = Object.entries(v);
    return entries.length === 0 ? "{}" : `{\n${entries.map(([k, e]) => `${inner}${key(k)} = ${literal(e, inner, config, `${path}_${k}`, fromConfig)}`).join("\n")}\n${indent}}`;
  }
  throw new Error(`an adopted input cannot be written as code: ${String(v)}`);
}

/** An HCL string: JSON's escapes, and `${` / `%{` doubled so they stay text. */
function quoted(s: string): string {
  // A function replacement: in a replacement string "$$" is itself an escape for "$".
  return JSON.stringify(s)
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{");
}
