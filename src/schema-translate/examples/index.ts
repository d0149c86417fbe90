// Converts one upstream HCL example into a Pulumi program in every example language, or says why it stays HCL.
import type { ProviderModel } from "../model.js";
import { goImportBase } from "../render.js";
import { bindProgram } from "./bind.js";
import { parseHcl } from "./hcl.js";
import { ConversionError, EXAMPLE_LANGUAGES, type Conversion, type ExampleLanguage, type Program } from "./program.js";
import { renderPython } from "./python.js";
import { renderTypeScript } from "./typescript.js";

export { EXAMPLE_LANGUAGES, type Conversion, type ExampleLanguage, type Program } from "./program.js";

const RENDERERS: Partial<Record<ExampleLanguage, (p: Program) => string>> = {
  typescript: renderTypeScript,
  python: renderPython,
};

/** The program an example's HCL makes for this provider; throws ConversionError with what could not be rendered. */
export function exampleProgram(hcl: string, model: ProviderModel): Program {
  const program = bindProgram(parseHcl(hcl), model);
  program.goImports[model.name] = goImportBase(model.name, model.version);
  for (const other of program.otherProviders) program.goImports[other] = goImportBase(other, "0.0.0");
  return program;
}

/** An example in every language, or the one-line reason it keeps its HCL. */
export function convertExample(hcl: string, model: ProviderModel): Conversion {
  try {
    const program = exampleProgram(hcl, model);
    const code = {} as Record<ExampleLanguage, string>;
    for (const lang of EXAMPLE_LANGUAGES) {
      const render = RENDERERS[lang];
      if (render === undefined) continue;
      code[lang] = render(program);
    }
    return { ok: true, program, code };
  } catch (e) {
    if (e instanceof ConversionError) return { ok: false, reason: e.message };
    throw e;
  }
}
