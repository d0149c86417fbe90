// Repairs of what Pulumi's program generators write from a converted Terraform project and that would not run, made to
// the generated program before `convert` checks it; each says what it changed.

/**
 * Go's generator reads a list, map or object variable as `if param := cfg.GetObject("key"); param != nil { v = param }`,
 * which does not compile: the SDK's `GetObject(key, output) error` decodes into `output` and leaves it alone when the
 * key is not set. It is read into the variable, emptied first only when the key is set: decoding into a map merges
 * into what is there, and the default would survive beside the setting.
 */
export function goConfigObjects(text: string): Fixed {
  const notes: string[] = [];
  const fixed = text.replace(/^([ \t]*)if param := cfg\.GetObject\(("[^"\n]*")\); param != nil \{\n[ \t]*(\w+) = param\n[ \t]*\}$/gm, (_all, i: string, key: string, name: string) => {
    notes.push(`${name}: read from configuration with cfg.GetObject(${key}, &${name}) (the generated call does not compile)`);
    return [`${i}if cfg.Get(${key}) != "" {`, `${i}\t${name} = nil`, `${i}\tif err := cfg.GetObject(${key}, &${name}); err != nil {`, `${i}\t\treturn err`, `${i}\t}`, `${i}}`].join("\n");
  });
  return { text: fixed, notes };
}

/**
 * The generators name the program's configuration object `config` (TypeScript `const config = new pulumi.Config();`,
 * Python `config = pulumi.Config()`) without reserving the name, so a Terraform resource or local named `config` gets
 * it too: TypeScript then fails with "Cannot redeclare block-scoped variable 'config'", and Python rebinds it, so every
 * later `config.get…` reads the resource. The configuration object is renamed, with every read of a setting through it;
 * the resource keeps its name (and its logical name, which is in the string the generator wrote).
 */
const CONFIG_RENAME = "pulumiConfig";

/** The methods of a Config object, in each language's spelling. */
const READS: Record<"typescript" | "python", string> = {
  typescript: "(?:get|require)(?:Number|Boolean|Object|Secret|SecretNumber|SecretBoolean|SecretObject)?",
  python: "(?:get|require)(?:_int|_bool|_float|_object|_secret|_secret_int|_secret_bool|_secret_float|_secret_object)?",
};

export interface Fixed {
  text: string;
  /** What was changed, for the user; empty when nothing was. */
  notes: string[];
}

/** Renames the configuration object when the program declares `config` a second time. */
export function renameCollidingConfig(text: string, language: "typescript" | "python"): Fixed {
  const declaration = language === "typescript" ? /^(\s*)const config = new pulumi\.Config\(\);$/m : /^(\s*)config = pulumi\.Config\(\)$/m;
  const others = language === "typescript" ? /^\s*(?:const|let|var) config\b(?! = new pulumi\.Config\(\);)/m : /^config(?::[^=\n]*)? = (?!pulumi\.Config\(\)$)/m;
  if (!declaration.test(text) || !others.test(text)) return { text, notes: [] };
  const reads = new RegExp(`\\bconfig\\.(${READS[language]})\\b(?=\\s*[<(])`, "g");
  const renamed = text
    .replace(declaration, (_all, indent: string) => (language === "typescript" ? `${indent}const ${CONFIG_RENAME} = new pulumi.Config();` : `${indent}${toSnake(CONFIG_RENAME)} = pulumi.Config()`))
    .replace(reads, (_all, method: string) => `${language === "typescript" ? CONFIG_RENAME : toSnake(CONFIG_RENAME)}.${method}`);
  const name = language === "typescript" ? CONFIG_RENAME : toSnake(CONFIG_RENAME);
  return { text: renamed, notes: [`the program's configuration object is \`${name}\`, not \`config\`: a resource of the Terraform project is named config`] };
}

function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
