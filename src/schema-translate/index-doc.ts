// Renders the registry-style `_index.md` of a package: front matter, how to add it, the provider's overview and config.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CODE_CHOOSER_END, CODE_CHOOSER_START } from "./docs.js";
import { objectTypeOf, type ObjectTypeModel, type PropertyModel, type ProviderModel, type TypeModel } from "./model.js";

export interface IndexDocOptions {
  /** What follows `pulumi package add terraform-provider` to get this package (`hashicorp/random`). */
  addArgs: string;
}

/** "Provider: Random" (tfplugindocs' page title) → "Random"; else the package name, capitalised. */
function displayName(model: ProviderModel): string {
  const title = model.overview?.frontMatter["page_title"] ?? "";
  const m = /^Provider:\s*(.+)$/i.exec(title.trim()) ?? /^(.+?)\s+Provider$/i.exec(title.trim());
  if (m) return m[1]!.trim();
  return model.name.charAt(0).toUpperCase() + model.name.slice(1);
}

function typeLabel(t: TypeModel): string {
  switch (t.kind) {
    case "array":
      return `list of ${typeLabel(t.items)}`;
    case "map":
      return `map of ${typeLabel(t.values)}`;
    case "object":
      return "object";
    case "any":
      return "any";
    default:
      return t.kind;
  }
}

/**
 * A schema description's code chooser (one fenced block per language between the chooser comments) as the registry's
 * Hugo chooser, one `choosable` per language, which is how `_index.md` pages show tabs.
 */
export function hugoChoosers(markdown: string): string {
  const start = CODE_CHOOSER_START.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const end = CODE_CHOOSER_END.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return markdown.replace(new RegExp(`${start}\\n([\\s\\S]*?)${end}`, "g"), (_, body: string) => {
    const blocks = [...body.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
    const choosables = blocks.map((b) => `{{% choosable language ${b.lang} %}}\n\`\`\`${b.lang}\n${b.code}\`\`\`\n{{% /choosable %}}`);
    return `{{< chooser language "${blocks.map((b) => b.lang).join(",")}" >}}\n${choosables.join("\n")}\n{{< /chooser >}}\n`;
  });
}

/** One bullet per setting, its object type's fields indented below it (each type once). */
function configEntries(props: readonly PropertyModel[], indent = "", seen = new Set<ObjectTypeModel>()): string[] {
  return props.flatMap((p) => {
    const flags = [typeLabel(p.type), p.required ? "required" : "optional", ...(p.secret ? ["secret"] : [])].join(", ");
    const doc = p.description.replace(/\s*\n\s*/g, " ").trim();
    const line = `${indent}- \`${p.name}\` (${flags})${doc !== "" ? ` ${doc}` : ""}`;
    const obj = objectTypeOf(p.type);
    if (obj === undefined || seen.has(obj)) return [line];
    seen.add(obj);
    return [line, ...configEntries(obj.properties, `${indent}  `, seen)];
  });
}

/** Text with a trailing newline; `---`-delimited front matter first, as Hugo reads it. */
export function renderIndexDoc(model: ProviderModel, options: IndexDocOptions): string {
  const name = displayName(model);
  const parts: string[] = [
    [
      "---",
      "# *** WARNING: This file was auto-generated. Do not edit by hand unless you're certain you know what you are doing! ***",
      `title: ${name} Provider`,
      `meta_desc: Provides an overview on how to configure the Pulumi ${name} provider.`,
      "layout: package",
      "---",
    ].join("\n"),
    [
      "## Generate Provider",
      "",
      `The ${name} provider must be installed as a Local Package by following the [instructions for Any Terraform Provider](https://www.pulumi.com/registry/packages/terraform-provider/):`,
      "",
      "```bash",
      `pulumi package add terraform-provider ${options.addArgs}`,
      "```",
    ].join("\n"),
  ];
  const overview = model.overview?.description ?? "";
  if (overview !== "") parts.push(hugoChoosers(overview.startsWith("## ") ? overview : `## Overview\n\n${overview}`));
  const examples = model.overview?.examples ?? "";
  if (examples !== "") {
    parts.push(`## Example Usage\n\nThe Terraform provider's own examples, in every Pulumi language (those that stay in Terraform's configuration language, HCL, use something with no rendering here); provider settings are stack configuration (\`pulumi config set ${model.name}:<name> <value>\`) or the inputs of an explicit \`${model.name}.Provider\`.\n\n${hugoChoosers(examples)}`);
  }
  const config = model.configVariables;
  parts.push(
    config.length === 0
      ? "## Configuration Reference\n\nThe provider has no configuration."
      : `## Configuration Reference\n\nThe following configuration inputs are supported (as \`${model.name}:<name>\` stack configuration or inputs of \`${model.name}.Provider\`):\n\n${configEntries(config).join("\n")}`,
  );
  return parts.join("\n\n") + "\n";
}

/** Writes `<dir>/_index.md`, creating `dir`; returns the file's path. */
export async function writeIndexDoc(dir: string, model: ProviderModel, options: IndexDocOptions): Promise<string> {
  const file = join(dir, "_index.md");
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, renderIndexDoc(model, options));
  } catch (e) {
    throw new Error(`--indexDocOutDir: cannot write ${file}: ${(e as Error).message}`, { cause: e });
  }
  return file;
}
