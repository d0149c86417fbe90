// Fills the provider model's descriptions from the provider's doc pages, with Terraform names in prose made Pulumi's.
import type { EntityDocs } from "../docs/markdown.js";
import type { ProviderDocs } from "../docs/repo.js";
import { convertExample, EXAMPLE_LANGUAGES } from "./examples/index.js";
import { objectTypeOf, type ObjectTypeModel, type PropertyModel, type ProviderModel } from "./model.js";
import { exportedName, goFunctionName, pythonName, tokenDisplayName, tokenName } from "./names.js";

/** Introduces examples that stay in HCL, because some part of them has no rendering in Pulumi's languages. */
const HCL_EXAMPLES_INTRO = "Examples that stay in Terraform's configuration language (HCL) use something Pulumi programs have no rendering for here. Properties are written in Terraform's snake_case names; in Pulumi programs they are camelCase (`some_name` is `someName`).";

/** Marks a converted example's blocks, one per language, which the registry shows as one tabbed block. */
export const CODE_CHOOSER_START = "<!--Start PulumiCodeChooser -->";
export const CODE_CHOOSER_END = "<!--End PulumiCodeChooser -->";

/**
 * The examples section in Pulumi's schema convention: SDK generators keep only code blocks in the SDK's own language
 * (and `sh`) and drop an `example` without one whole, heading included, so doc comments carry no empty section.
 */
function examplesSection(examples: string): string {
  const intro = /^```hcl$/m.test(examples) ? `${HCL_EXAMPLES_INTRO}\n\n` : "";
  return `{{% examples %}}\n{{% example %}}\n## Example Usage\n\n${intro}${examples}\n{{% /example %}}\n{{% /examples %}}`;
}

/** The `pulumi-lang-*` attributes of a span in prose, in the reference's order. */
const SPAN_LANGUAGES = ["nodejs", "dotnet", "go", "python", "yaml", "java", "hcl"] as const;

/** How each language's SDK (and HCL) spells one name. */
type NameForms = Record<(typeof SPAN_LANGUAGES)[number], string>;

/** TF names (properties, resources, data sources, functions) to the names a Pulumi reader knows them by. */
type Names = ReadonlyMap<string, NameForms>;

const sameEverywhere = (name: string, hcl: string): NameForms => ({ ...formsOf(() => name), hcl });

function formsOf(spell: (lang: keyof NameForms) => string): NameForms {
  return Object.fromEntries(SPAN_LANGUAGES.map((lang) => [lang, spell(lang)])) as NameForms;
}

/** A property: camelCase, PascalCase in C#, snake_case in Python (Pulumi's generators' own spellings). */
function propertyForms(p: { tfName: string; name: string }): NameForms {
  return { ...sameEverywhere(p.name, p.tfName), dotnet: exportedName(p.name), python: pythonName(p.name) };
}

/** A resource or function: `random.Password` in most SDKs; Go and Python import the package's members by name. */
function entityForms(token: string, hcl: string, goName: string, pythonMember: string): NameForms {
  return { ...sameEverywhere(tokenDisplayName(token), hcl), go: goName, python: pythonMember };
}

/** A span that lets each language's docs show its own spelling; the display is the Node.js one, as the reference's. */
function span(forms: NameForms, wrap: (s: string) => string): string {
  const attr = (lang: keyof NameForms): string => `pulumi-lang-${lang}="${wrap(forms[lang])}"`;
  return `<span ${SPAN_LANGUAGES.map(attr).join(" ")}>${wrap(forms.nodejs)}</span>`;
}

/** Every property below `props`, with its dotted TF path; a type reached twice is visited once. */
function walk(props: readonly PropertyModel[], visit: (p: PropertyModel, path: string[]) => void, path: string[] = [], seen = new Set<ObjectTypeModel>()): void {
  for (const p of props) {
    const here = [...path, p.tfName];
    visit(p, here);
    const obj = objectTypeOf(p.type);
    if (obj !== undefined && !seen.has(obj)) {
      seen.add(obj);
      walk(obj.properties, visit, here, seen);
    }
  }
}

/**
 * A property's doc: by its full path, else (nested) by its block and name, as the older pages write "The `website`
 * block supports:" without the path above the block.
 */
function propertyDoc(docs: EntityDocs, path: readonly string[]): string | undefined {
  const full = docs.properties.get(path.join("."));
  if (full !== undefined) return full;
  if (path.length >= 2) return docs.properties.get(path.slice(-2).join("."));
  return undefined;
}

function entityNames(global: Names, props: readonly PropertyModel[]): Map<string, NameForms> {
  const names = new Map(global);
  // A nested property's name is used only where no top-level property has the same TF name.
  const nested: [string, NameForms][] = [];
  walk(props, (p, path) => {
    if (path.length === 1) names.set(p.tfName, propertyForms(p));
    else nested.push([p.tfName, propertyForms(p)]);
  });
  for (const [tf, name] of nested) if (!names.has(tf)) names.set(tf, name);
  return names;
}

/** A TF name in prose, or a dotted path of them, in each language's names; undefined when some part is not a known name. */
function rename(word: string, names: Names): NameForms | undefined {
  const direct = names.get(word);
  if (direct !== undefined) return direct;
  if (!word.includes(".")) return undefined;
  const parts = word.split(".").map((p) => (/^\d+$/.test(p) ? sameEverywhere(p, p) : names.get(p)));
  if (!parts.every((p) => p !== undefined)) return undefined;
  return { ...formsOf((lang) => parts.map((p) => p[lang]).join(".")), hcl: word };
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HCL_LANGS = new Set(["terraform", "hcl", "tf"]);

/**
 * Rewrites markdown outside fenced code with `prose`, and each fenced block with `code`. Fences are found line by
 * line (CommonMark's rule: a closing fence is the same character, at least as long), so code inside list items is
 * found too.
 */
function mapMarkdown(md: string, prose: (text: string) => string, code: (lang: string, lines: string[], indent: string, fence: string) => string[]): string {
  const out: string[] = [];
  const lines = md.split("\n");
  let text: string[] = [];
  const flush = (): void => {
    if (text.length > 0) out.push(prose(text.join("\n")));
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (open === null) {
      text.push(lines[i]!);
      continue;
    }
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.trim().startsWith(fence[0]!.repeat(fence.length)) && lines[j]!.trim().replace(/[`~]/g, "") === "")) j++;
    flush();
    out.push(...code(lang.toLowerCase(), lines.slice(i + 1, j), indent, fence));
    i = j;
  }
  flush();
  return out.join("\n");
}

/** Links that lead nowhere outside Terraform's site lose their target; site-relative ones get its host. */
function fixLinks(text: string): string {
  return text.replace(/\[([^\]\n]*)\]\(([^)\s]*)\)/g, (all, label: string, url: string) => {
    if (/^[a-z]+:/i.test(url)) return all;
    if (url.startsWith("/")) return `[${label}](https://www.terraform.io${url})`;
    return label;
  });
}

/** Terraform's note markers (`->`, `~>`, `!>`) become markdown quotes, as Pulumi's docs render them. */
function fixNotes(text: string): string {
  return text.replace(/^(\s*)[-~!]> /gm, "$1> ");
}

function renameInProse(text: string, names: Names): string {
  // Code spans name things exactly; bare snake_case words are renamed only when they are known names.
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => {
      if (i % 2 === 1) {
        const inner = part.slice(1, -1);
        const renamed = rename(inner.replace(/\(\)$/, ""), names);
        const call = inner.endsWith("()") ? "()" : "";
        return renamed === undefined ? part : span(renamed, (n) => `\`${n}${call}\``);
      }
      return part.replace(/(^|[\s"(\[])([a-z0-9]+(?:_[a-z0-9]+)+)(?=[\s".,;:)\]]|$)/g, (all, pre: string, word: string) => {
        const renamed = rename(word, names);
        return renamed === undefined ? all : pre + span(renamed, (n) => n);
      });
    })
    .join("");
}

/** Markdown from a doc page made readable in a Pulumi schema: names renamed in prose, HCL fences marked `hcl`. */
function prose(md: string, names: Names, extraCode?: (line: string) => string): string {
  return mapMarkdown(
    md,
    (text) => {
      const fixed = renameInProse(fixNotes(fixLinks(text)), names);
      return extraCode ? fixed.split(/(`[^`\n]+`)/).map((p, i) => (i % 2 === 1 ? `\`${extraCode(p.slice(1, -1))}\`` : p)).join("") : fixed;
    },
    (lang, lines, indent, fence) => {
      const body = extraCode ? lines.map(extraCode) : lines;
      const shown = HCL_LANGS.has(lang) ? "hcl" : lang === "shell" || lang === "console" ? "sh" : lang;
      return [`${indent}${fence}${shown}`, ...body, `${indent}${fence}`];
    },
  ).trim();
}

/** `terraform import random_password.password ID` → `pulumi import random:index/password:Password password ID`. */
function importRewriter(tokens: ReadonlyMap<string, string>): (line: string) => string {
  return (line) =>
    line.replace(/^(\s*)(\$ )?terraform import (?:-\S+ )*([a-z0-9_]+)\.([A-Za-z0-9_-]+(?:\[[^\]]*\])?) (.*)$/, (all, indent: string, prompt: string | undefined, tf: string, name: string, id: string) => {
      const token = tokens.get(tf);
      return token === undefined ? all : `${indent}${prompt ?? ""}pulumi import ${token} ${name.replace(/\[.*$/, "")} ${id}`;
    });
}

/** Converts examples' HCL blocks; says which stay HCL and why (the caller's debug log). */
type ExampleConverter = (markdown: string, where: string) => string;

/**
 * Each HCL block of an examples section as a program in every language, in the code chooser the registry shows as
 * tabs; a block that cannot be converted stays HCL, and `log` gets the one-line reason. Examples using other
 * providers' resources get a note that those are written as if bridged by this plugin.
 */
function exampleConverter(model: ProviderModel, log: (message: string) => void): ExampleConverter {
  return (markdown, where) => {
    let n = 0;
    return mapMarkdown(
      markdown,
      (text) => text,
      (lang, lines, indent, fence) => {
        const original = [`${indent}${fence}${lang}`, ...lines, `${indent}${fence}`];
        if (!HCL_LANGS.has(lang)) return original;
        n++;
        const conversion = convertExample(lines.map((l) => l.slice(indent.length)).join("\n"), model);
        if (!conversion.ok) {
          log(`${where}: example ${n} stays HCL: ${conversion.reason}`);
          return original;
        }
        for (const s of conversion.skipped) log(`${where}: example ${n} has no ${s.language} rendering: ${s.reason}`);
        const blocks = EXAMPLE_LANGUAGES.flatMap((l) => {
          const code = conversion.code[l];
          return code === undefined ? [] : [`\`\`\`${l}\n${code.trimEnd()}\n\`\`\``];
        });
        const others = conversion.program.otherProviders;
        const note =
          others.length === 0
            ? []
            : ["", `The example also uses ${others.map((o) => `\`${o}\``).join(", ")}, written as if bridged by this plugin (\`pulumi package add terraform-provider <namespace>/${others[0]!}\`).`];
        return [CODE_CHOOSER_START, ...blocks, CODE_CHOOSER_END, ...note];
      },
    );
  };
}

function entityDescription(schemaDescription: string, docs: EntityDocs, names: Names, convert: ExampleConverter, where: string, importLine?: (line: string) => string): string {
  const parts: string[] = [];
  const overview = prose(convert(docs.description, where), names);
  parts.push(overview !== "" ? overview : schemaDescription);
  const examples = prose(convert(docs.examples, where), names);
  if (examples !== "") parts.push(examplesSection(examples));
  if (docs.import !== "" && importLine !== undefined) parts.push(`## Import\n\n${prose(docs.import, names, importLine)}`);
  return parts.filter((p) => p !== "").join("\n\n");
}

function documentProperties(props: readonly PropertyModel[], docs: EntityDocs, names: Names): void {
  walk(props, (p, path) => {
    const doc = propertyDoc(docs, path);
    if (doc !== undefined && doc !== "") p.description = prose(doc, names);
    const obj = objectTypeOf(p.type);
    // A block's own text documents its type when the schema gave none.
    if (obj !== undefined && obj.description === "" && doc !== undefined) obj.description = p.description;
  });
}

/**
 * Replaces descriptions of the entities the docs cover: an entity's is its page's overview, examples and import
 * instructions; a property's is its entry in the page's lists. Whatever the pages leave out keeps the schema's text.
 */
export function applyDocs(model: ProviderModel, docs: ProviderDocs, log: (message: string) => void = () => undefined): void {
  const global = new Map<string, NameForms>();
  const tokens = new Map<string, string>();
  const resourceNames = new Set([...model.resources.values()].map((r) => tokenName(r.token)));
  const functionForms = (token: string, hcl: string): NameForms => {
    const name = tokenName(token);
    return entityForms(token, hcl, goFunctionName(name, resourceNames), pythonName(name));
  };
  // Only names with an underscore: a bare one (`http`) is as likely the word itself. A resource wins over a data
  // source of the same name (`local_sensitive_file`), the one prose means more often.
  for (const r of model.resources.values()) {
    if (r.tfName.includes("_")) global.set(r.tfName, entityForms(r.token, r.tfName, tokenName(r.token), tokenName(r.token)));
    tokens.set(r.tfName, r.token);
  }
  for (const d of model.dataSources.values()) if (d.tfName.includes("_") && !global.has(d.tfName)) global.set(d.tfName, functionForms(d.token, `data.${d.tfName}`));
  for (const f of model.functions.values()) if (f.tfName.includes("_") && !global.has(f.tfName)) global.set(f.tfName, functionForms(f.token, `provider::${model.name}::${f.tfName}`));
  const convert = exampleConverter(model, log);
  const importLine = importRewriter(tokens);

  for (const r of model.resources.values()) {
    const page = docs.resources.get(r.tfName);
    if (page === undefined) continue;
    const names = entityNames(global, r.properties);
    r.description = entityDescription(r.description, page, names, convert, `resource ${r.tfName}`, importLine);
    documentProperties(r.properties, page, names);
  }
  const blockFunctions = [
    ...[...model.dataSources.values()].map((d) => [d, docs.dataSources.get(d.tfName), "data source"] as const),
    ...[...model.ephemeralResources.values()].map((e) => [e, docs.ephemeralResources.get(e.tfName), "ephemeral resource"] as const),
  ];
  for (const [d, page, kind] of blockFunctions) {
    if (page === undefined) continue;
    const names = entityNames(global, d.properties);
    d.description = entityDescription(d.description, page, names, convert, `${kind} ${d.tfName}`);
    documentProperties(d.properties, page, names);
  }
  for (const f of model.functions.values()) {
    const page = docs.functions.get(f.tfName);
    if (page === undefined) continue;
    const params = [...f.parameters, ...(f.variadic ? [f.variadic] : [])];
    const names = new Map(global);
    for (const p of params) names.set(p.tfName, propertyForms(p));
    const result = f.returnType.kind === "object" ? f.returnType.ref : undefined;
    if (result !== undefined) for (const p of result.properties) if (!names.has(p.tfName)) names.set(p.tfName, propertyForms(p));
    // The summary heads a function's description in the schema; the page's overview usually starts with it.
    const summary = f.description.split("\n\n")[0] ?? "";
    const body = entityDescription("", page, names, convert, `function ${f.tfName}`);
    if (body !== "") f.description = summary !== "" && !body.startsWith(summary) ? `${summary}\n\n${body}` : body;
    for (const p of params) {
      const doc = page.properties.get(p.tfName);
      if (doc !== undefined && doc !== "") p.description = prose(doc, names);
    }
    if (result !== undefined) documentProperties(result.properties, page, names);
  }
  if (docs.provider !== undefined) {
    const names = entityNames(global, model.config);
    documentProperties(model.config, docs.provider, names);
    documentProperties(model.configVariables, docs.provider, entityNames(global, model.configVariables));
    model.overview = {
      description: prose(convert(docs.provider.description, "provider"), names),
      examples: prose(convert(docs.provider.examples, "provider"), names),
      frontMatter: docs.provider.frontMatter,
    };
  }
}
