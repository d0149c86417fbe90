// Program code for adopted resources in PCL, Pulumi's program language that `pulumi convert --from pcl` turns into TypeScript, Python, Go or YAML.
import { Secret, isPropertyMap, type PropertyValue } from "../bridge/property-value.js";
import { VERSION } from "../version.js";
import type { AdoptedResource } from "./adopt.js";

/**
 * A PCL program with a `package` block per package (the parameterization that makes the package's SDK) and a
 * `resource` per adopted resource, under its Pulumi name, setting the inputs adoption stored, so that the program
 * previews with no changes. A secret input is written `secret(…)`: its value is in the code.
 */
export function adoptedProgram(resources: readonly AdoptedResource[]): string {
  const out: string[] = [];
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
  for (const r of resources) {
    out.push(`# ${r.address}`, `resource ${r.variable} ${JSON.stringify(r.token)} {`, `  __logicalName = ${JSON.stringify(r.name)}`);
    for (const [k, v] of Object.entries(r.inputs)) out.push(`  ${key(k)} = ${literal(v, "  ")}`);
    out.push("}", "");
  }
  return out.join("\n");
}

function key(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k);
}

function literal(v: PropertyValue, indent: string): string {
  if (v instanceof Secret) return `secret(${literal(v.value, indent)})`;
  if (v === null) return "null";
  if (typeof v === "string") return quoted(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const inner = `${indent}  `;
  if (Array.isArray(v)) return v.length === 0 ? "[]" : `[\n${v.map((e) => `${inner}${literal(e, inner)}`).join(",\n")}\n${indent}]`;
  if (isPropertyMap(v)) {
    const entries = Object.entries(v);
    return entries.length === 0 ? "{}" : `{\n${entries.map(([k, e]) => `${inner}${key(k)} = ${literal(e, inner)}`).join("\n")}\n${indent}}`;
  }
  throw new Error(`an adopted input cannot be written as code: ${String(v)}`);
}

/** An HCL string: JSON's escapes, and `${` / `%{` doubled so they stay text. */
function quoted(s: string): string {
  return JSON.stringify(s).replace(/\$\{/g, "$${").replace(/%\{/g, "%%{");
}
