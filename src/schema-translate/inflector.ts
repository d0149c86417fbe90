// English plurals and singulars exactly as github.com/pulumi/inflector v0.2.1 makes them, since the reference bridge names properties with it.
//
// The tables below are that library's data, copied as written: patterns in Go RE2 syntax and replacements in Go's
// regexp template syntax. The code around them is ours and reproduces the library's observable behaviour, quirks
// included (they decide real property names), checked word by word against the Go library in
// test/unit/inflector.test.ts and test/integration/inflector-peers.test.ts.

type Rule = readonly [pattern: string, template: string];
type Irregular = readonly [word: string, replacement: string];

const uninflectedBoth = [
  "Amoyese", "bison", "Borghese", "bream", "breeches", "britches", "buffalo",
  "cantus", "carp", "chassis", "clippers", "cod", "coitus", "Congoese",
  "contretemps", "corps", "debris", "diabetes", "djinn", "eland", "elk",
  "equipment", "Faroese", "flounder", "Foochowese", "gallows", "Genevese",
  "Genoese", "Gilbertese", "graffiti", "headquarters", "herpes", "hijinks",
  "Hottentotese", "information", "innings", "jackanapes", "Kiplingese",
  "Kongoese", "Lucchese", "mackerel", "Maltese", ".*?media", "mews", "moose",
  "mumps", "Nankingese", "news", "nexus", "Niasese", "Pekingese",
  "Piedmontese", "pincers", "Pistoiese", "pliers", "Portuguese", "proceedings",
  "rabies", "rice", "rhinoceros", "salmon", "Sarawakese", "scissors",
  "sea[- ]bass", "series", "Shavese", "shears", "siemens", "species", "swine",
  "testes", "trousers", "trout", "tuna", "Vermontese", "Wenchowese", "whiting",
  "wildebeest", "Yengeese",
];

const uninflectedPlurals = [".*[nrlm]ese", ".*deer", ".*fish", ".*measles", ".*ois", ".*pox", ".*sheep", "people"];

const uninflectedSingulars = [".*[nrlm]ese", ".*deer", ".*fish", ".*measles", ".*ois", ".*pox", ".*sheep", ".*ss"];

const pluralRules: Rule[] = [
  ["(?i)(s)tatus$", "${1}${2}tatuses"],
  ["(?i)(quiz)$", "${1}zes"],
  ["(?i)^(ox)$", "${1}${2}en"],
  ["(?i)([m|l])ouse$", "${1}ice"],
  ["(?i)(matr|vert|ind)(ix|ex)$", "${1}ices"],
  ["(?i)(x|ch|ss|sh)$", "${1}es"],
  ["(?i)([^aeiouy]|qu)y$", "${1}ies"],
  ["(?i)(hive)$", "$1s"],
  ["(?i)(?:([^f])fe|([lre])f)$", "${1}${2}ves"],
  ["(?i)sis$", "ses"],
  ["(?i)([ti])um$", "${1}a"],
  ["(?i)(p)erson$", "${1}eople"],
  ["(?i)(m)an$", "${1}en"],
  ["(?i)(c)hild$", "${1}hildren"],
  ["(?i)(buffal|tomat)o$", "${1}${2}oes"],
  ["(?i)(alumn|bacill|cact|foc|fung|nucle|radi|stimul|syllab|termin|vir)us$", "${1}i"],
  ["(?i)us$", "uses"],
  ["(?i)(alias)$", "${1}es"],
  ["(?i)(ax|cris|test)is$", "${1}es"],
  ["s$", "s"],
  ["^$", ""],
  ["$", "s"],
];

const pluralIrregulars: Irregular[] = [
  ["atlas", "atlases"], ["beef", "beefs"], ["brother", "brothers"], ["cafe", "cafes"], ["child", "children"],
  ["cookie", "cookies"], ["corpus", "corpuses"], ["cow", "cows"], ["ganglion", "ganglions"], ["genie", "genies"],
  ["genus", "genera"], ["graffito", "graffiti"], ["hoof", "hoofs"], ["loaf", "loaves"], ["man", "men"],
  ["money", "monies"], ["mongoose", "mongooses"], ["move", "moves"], ["mythos", "mythoi"], ["niche", "niches"],
  ["numen", "numina"], ["occiput", "occiputs"], ["octopus", "octopuses"], ["opus", "opuses"], ["ox", "oxen"],
  ["penis", "penises"], ["person", "people"], ["sex", "sexes"], ["soliloquy", "soliloquies"], ["testis", "testes"],
  ["trilby", "trilbys"], ["turf", "turfs"], ["potato", "potatoes"], ["hero", "heroes"], ["tooth", "teeth"],
  ["goose", "geese"], ["foot", "feet"],
];

const singularRules: Rule[] = [
  ["(?i)(s)tatuses$", "${1}${2}tatus"],
  ["(?i)^(.*)(menu)s$", "${1}${2}"],
  ["(?i)(quiz)zes$", "$1"],
  ["(?i)(matr)ices$", "${1}ix"],
  ["(?i)(vert|ind)ices$", "${1}ex"],
  ["(?i)^(ox)en", "$1"],
  ["(?i)(alias)(es)*$", "$1"],
  ["(?i)(alumn|bacill|cact|foc|fung|nucle|radi|stimul|syllab|termin|viri?)i$", "${1}us"],
  ["(?i)([ftw]ax)es", "$1"],
  ["(?i)(cris|ax|test)es$", "${1}is"],
  ["(?i)(shoe|slave)s$", "$1"],
  ["(?i)(o)es$", "$1"],
  ["ouses$", "ouse"],
  ["([^a])uses$", "${1}us"],
  ["(?i)([m|l])ice$", "${1}ouse"],
  ["(?i)(cache)s$", "$1"],
  ["(?i)(x|ch|ss|sh)es$", "$1"],
  ["(?i)(m)ovies$", "${1}${2}ovie"],
  ["(?i)(s)eries$", "${1}${2}eries"],
  ["(?i)([^aeiouy]|qu)ies$", "${1}y"],
  ["(?i)(tive)s$", "$1"],
  ["(?i)([lre])ves$", "${1}f"],
  ["(?i)([^fo])ves$", "${1}fe"],
  ["(?i)(hive)s$", "$1"],
  ["(?i)(drive)s$", "$1"],
  ["(?i)(^analy)ses$", "${1}sis"],
  ["(?i)(analy|diagno|^ba|parenthe|progno|synop|the)ses$", "${1}sis"],
  ["(?i)([ti])a$", "${1}um"],
  ["(?i)(p)eople$", "${1}${2}erson"],
  ["(?i)(m)en$", "${1}an"],
  ["(?i)(c)hildren$", "${1}${2}hild"],
  ["(?i)(n)ews$", "${1}${2}ews"],
  ["eaus$", "eau"],
  ["^(.*us)$", "$1"],
  ["(?i)s$", ""],
];

const singularIrregulars: Irregular[] = [
  ["foes", "foe"], ["waves", "wave"], ["curves", "curve"], ["atlases", "atlas"], ["beefs", "beef"],
  ["brothers", "brother"], ["cafes", "cafe"], ["children", "child"], ["cookies", "cookie"], ["corpuses", "corpus"],
  ["cows", "cow"], ["ganglions", "ganglion"], ["genies", "genie"], ["genera", "genus"], ["graffiti", "graffito"],
  ["hoofs", "hoof"], ["loaves", "loaf"], ["men", "man"], ["monies", "money"], ["mongooses", "mongoose"],
  ["moves", "move"], ["mythoi", "mythos"], ["niches", "niche"], ["caches", "cache"], ["numina", "numen"],
  ["occiputs", "occiput"], ["octopuses", "octopus"], ["opuses", "opus"], ["oxen", "ox"], ["penises", "penis"],
  ["people", "person"], ["sexes", "sex"], ["soliloquies", "soliloquy"], ["testes", "testis"], ["trilbys", "trilby"],
  ["turfs", "turf"], ["potatoes", "potato"], ["heroes", "hero"], ["teeth", "tooth"], ["geese", "goose"],
  ["feet", "foot"],
];

/**
 * An RE2 pattern as a JavaScript RegExp with the same matches. `(?i)` becomes the `i` flag; with `u`, JavaScript folds
 * case by Unicode simple case folding as RE2 does (so `s` also matches `ſ` and `k` the Kelvin sign). RE2's `.` stops
 * only at `\n` where JavaScript's also stops at `\r`, U+2028 and U+2029, hence `[^\n]`.
 */
function toRegExp(pattern: string, extraFlags = ""): RegExp {
  let flags = "u" + extraFlags;
  let source = pattern;
  if (source.startsWith("(?i)")) {
    flags += "i";
    source = source.slice(4);
  }
  // Only (?:…) means the same in both syntaxes; any other group syntax would need translating.
  if (/\(\?[^:]/.test(source)) throw new Error(`inflector: untranslated RE2 group in ${pattern}`);
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "\\") {
      out += ch + (source[i + 1] ?? "");
      i++;
    } else if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
    } else if (ch === "[") {
      inClass = true;
      out += ch;
      // RE2 takes a `]` right after `[` or `[^` as a member; JavaScript needs it escaped.
      if (source[i + 1] === "^") out += source[++i];
      if (source[i + 1] === "]") out += "\\" + source[++i];
    } else {
      out += ch === "." ? "[^\\n]" : ch;
    }
  }
  return new RegExp(out, flags);
}

type Expander = (groups: readonly (string | undefined)[]) => string;

/**
 * A Go regexp replacement template (`$1`, `${1}`, `$$`). Go reads the longest run of letters, digits and `_` after
 * `$` as the name, so `$1s` names a group called `1s`, which no pattern has: it expands to nothing (the plural of
 * `hive` is the empty string, and the reference bridge lives with that).
 */
function compileTemplate(template: string): Expander {
  const parts: (string | number)[] = [];
  let literal = "";
  let rest = template;
  while (rest.length > 0) {
    const dollar = rest.indexOf("$");
    if (dollar < 0) break;
    literal += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith("$")) {
      literal += "$";
      rest = rest.slice(1);
      continue;
    }
    const m = /^(\{)?([\p{L}\p{Nd}_]+)/u.exec(rest);
    const braced = m?.[1] !== undefined;
    if (m === null || (braced && rest[m[0].length] !== "}")) {
      literal += "$"; // malformed: Go keeps the `$` as text
      continue;
    }
    rest = rest.slice(m[0].length + (braced ? 1 : 0));
    const name = m[2]!;
    parts.push(literal);
    literal = "";
    // Only a plain decimal without a leading zero, below 1e8, is a group number; other names (none exist) expand to "".
    const numeric = /^(0|[1-9][0-9]{0,7})$/.test(name) ? Number(name) : -1;
    parts.push(numeric >= 0 ? numeric : "");
  }
  parts.push(literal + rest);
  return (groups) => parts.map((p) => (typeof p === "number" ? (groups[p] ?? "") : p)).join("");
}

interface CompiledRules {
  irregular: Map<string, string>;
  uninflected: RegExp;
  rules: { re: RegExp; expand: Expander }[];
  cache: Map<string, string>;
}

function compile(rules: Rule[], irregulars: Irregular[], uninflected: string[]): CompiledRules {
  return {
    irregular: new Map(irregulars),
    uninflected: toRegExp(`(?i)^(?:${uninflected.join("|")})$`),
    // Global, because Go replaces every match, not only the first (`taxes_faxes` → `tax_fax`).
    rules: rules.map(([pattern, template]) => ({ re: toRegExp(pattern, "g"), expand: compileTemplate(template) })),
    cache: new Map(),
  };
}

const plural = compile(pluralRules, pluralIrregulars, [...uninflectedBoth, ...uninflectedPlurals]);
const singular = compile(singularRules, singularIrregulars, [...uninflectedBoth, ...uninflectedSingulars]);

// RE2's \b is ASCII-only, unlike JavaScript's under the `iu` flags (which counts `ſ` and the Kelvin sign as word
// characters), so the irregular-word match is done by hand.
function isWordChar(cp: string | undefined): boolean {
  return cp !== undefined && /^[0-9A-Za-z_]$/.test(cp);
}

/** The key RE2's case folding reaches for one code point of an irregular word, or undefined when none can match. */
function foldToAscii(cp: string): string | undefined {
  if (/^[A-Za-z]$/.test(cp)) return cp.toLowerCase();
  if (cp === "\u212a") return "k";
  if (cp === "\u017f") return "s";
  return undefined;
}

/**
 * The library's irregular-word step: the pattern `(?i)(.*)\b(word|…)$`, then `prefix + s[0:1] + replacement[1:]`.
 * The Go code takes the first byte of the whole input, not of the matched word, so `foo man` pluralizes to `foo fen`;
 * a word that starts with a non-ASCII character gets half a UTF-8 sequence there, which encoding/json (and so our
 * vectors) shows as U+FFFD. It looks the replacement up by `strings.ToLower` of the match, which leaves `ſ` alone
 * though the match folded it to `s`: the lookup misses, and slicing the empty string panics; we throw instead.
 */
function irregularForm(word: string, irregular: Map<string, string>): string | undefined {
  const cps = Array.from(word);
  // `.` never crosses `\n`, and the words hold none, so a match starts after the last newline.
  const start = cps.lastIndexOf("\n") + 1;
  // Greedy `.*`: the longest prefix, i.e. the shortest irregular suffix, wins.
  for (let j = cps.length - 1; j >= start; j--) {
    if (isWordChar(cps[j - 1]) === isWordChar(cps[j])) continue;
    const suffix = cps.slice(j);
    const folded = suffix.map(foldToAscii);
    if (folded.includes(undefined)) continue;
    const replacement = irregular.get(folded.join(""));
    if (replacement === undefined) continue;
    if (suffix.includes("\u017f")) {
      throw new Error(`inflector: pulumi/inflector panics on ${JSON.stringify(word)} (\`ſ\` folds to \`s\` but does not lower-case to it)`);
    }
    const first = word.charCodeAt(0) < 0x80 ? word[0]! : "\ufffd";
    return cps.slice(start, j).join("") + first + replacement.slice(1);
  }
  return undefined;
}

function inflect(set: CompiledRules, word: string): string {
  const cached = set.cache.get(word);
  if (cached !== undefined) return cached;
  let out = irregularForm(word, set.irregular);
  if (out === undefined && set.uninflected.test(word)) out = word;
  for (let i = 0; out === undefined && i < set.rules.length; i++) {
    const { re, expand } = set.rules[i]!;
    let matched = false;
    const replaced = word.replace(re, (...args: unknown[]) => {
      matched = true;
      // The callback gets the match, its groups, then offset and input (no named groups here).
      return expand(args.slice(0, -2) as (string | undefined)[]);
    });
    // Set by the replace callback, which TypeScript does not see running.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (matched) out = replaced;
  }
  out ??= word;
  set.cache.set(word, out);
  return out;
}

/** The plural of `word` as pulumi/inflector's `Pluralize` gives it. */
export function Pluralize(word: string): string {
  return inflect(plural, word);
}

/** The singular of `word` as pulumi/inflector's `Singularize` gives it. */
export function Singularize(word: string): string {
  return inflect(singular, word);
}
