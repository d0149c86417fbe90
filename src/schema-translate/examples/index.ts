// Converts one upstream HCL example into a Pulumi program in every example language, or says why it stays HCL.
import type { ProviderModel } from "../model.js";
import { goImportBase } from "../render.js";
import { bindProgram } from "./bind.js";
import { parseHcl } from "./hcl.js";
import { ConversionError, EXAMPLE_LANGUAGES, type Conversion, type ExampleLanguage, type Program } from "./program.js";
import { renderCSharp } from "./csharp.js";
import { renderGo } from "./go.js";
import { renderJava } from "./java.js";
import { renderPython } from "./python.js";
import { renderTypeScript } from "./typescript.js";
import { renderYaml } from "./yaml.js";

export { EXAMPLE_LANGUAGES, type Conversion, type ExampleLanguage, type Program } from "./program.js";

/**
 * The renderers for one provider. Go needs the provider's resources: its SDKs name a `getX` function `LookupX` when a
 * resource `X` shares the name, whether or not the example uses that resource.
 */
function renderers(model: ProviderModel): Record<ExampleLanguage, (p: Program) => string> {
  const resourceTokens = [...model.resources.values()].map((r) => r.token);
  return {
    typescript: renderTypeScript,
    python: renderPython,
    csharp: renderCSharp,
    go: (p) => renderGo(p, { resourceTokens }),
    java: renderJava,
    yaml: renderYaml,
  };
}

/** The program an example's HCL makes for this provider; throws ConversionError with what could not be rendered. */
export function exampleProgram(hcl: string, model: ProviderModel): Program {
  const program = bindProgram(parseHcl(hcl), model);
  program.goImports[model.name] = goImportBase(model.name, model.version);
  for (const other of program.otherProviders) program.goImports[other] = goImportBase(other, "0.0.0");
  return program;
}

/** An example in every language that can express it, or the one-line reason it keeps its HCL. */
export function convertExample(hcl: string, model: ProviderModel): Conversion {
  let program: Program;
  try {
    program = exampleProgram(hcl, model);
  } catch (e) {
    if (e instanceof ConversionError) return { ok: false, reason: e.message };
    throw e;
  }
  const code: Partial<Record<ExampleLanguage, string>> = {};
  const skipped: { language: ExampleLanguage; reason: string }[] = [];
  const render = renderers(model);
  for (const language of EXAMPLE_LANGUAGES) {
    try {
      code[language] = render[language](program);
    } catch (e) {
      if (!(e instanceof ConversionError)) throw e;
      skipped.push({ language, reason: e.message });
    }
  }
  if (Object.keys(code).length === 0) return { ok: false, reason: skipped.map((s) => `${s.language}: ${s.reason}`).join("; ") };
  return { ok: true, program, code, skipped };
}
