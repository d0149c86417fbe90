// Prints test/vectors/inflector/words.txt: a deterministic sample of an English word list, the plurals of those words
// the list also holds, every word of pulumi/inflector's tables (lower case and Capitalised), words for its pattern
// entries, and Terraform-like attribute names. Usage (see README.md):
//   node words.mjs /usr/share/dict/words "$(go list -m -f '{{.Dir}}' github.com/pulumi/inflector)/inflector.go"
import { readFileSync } from "node:fs";

const [dictPath, goPath] = process.argv.slice(2);
if (!dictPath || !goPath) throw new Error("usage: node words.mjs <dict words> <inflector.go>");

const dict = readFileSync(dictPath, "utf8").split("\n").filter((w) => /^[a-z]+$/.test(w));
const inDict = new Set(dict);
const out = [];
const seen = new Set();
const add = (w) => {
  if (w !== "" && !seen.has(w)) {
    seen.add(w);
    out.push(w);
  }
};

// Every 16th lower-case word: about 4000 from wamerican's 63875.
const sample = dict.filter((_, i) => i % 16 === 0);
for (const w of sample) add(w);
for (const w of sample) for (const p of [`${w}s`, `${w}es`, `${w.slice(0, -1)}ies`, `${w.slice(0, -1)}ves`, `${w.slice(0, -2)}ves`]) if (inDict.has(p)) add(p);

// The tables: the uninflected lists and both sides of every irregular pair; regex entries are exemplified below.
const go = readFileSync(goPath, "utf8");
const lists = [...go.matchAll(/var (?:uninflected|uninflectedPlurals|uninflectedSingulars) = \[\]string\{([^}]*)\}/g)].map((m) => m[1]);
const irregulars = [...go.matchAll(/\{`([a-z]+)`, `([a-z]+)`\}/g)].flatMap((m) => [m[1], m[2]]);
const tableWords = [...lists.flatMap((l) => [...l.matchAll(/`([^`]*)`/g)].map((m) => m[1])), ...irregulars];
if (irregulars.length < 100 || lists.length !== 3) throw new Error(`could not read the tables from ${goPath}`);
const patternExamples = [
  "media", "multimedia", "social_media", "sea bass", "sea-bass", "chinese", "japanese", "maltese", "deer", "reindeer",
  "fish", "goldfish", "measles", "chamois", "bourgeois", "pox", "smallpox", "sheep", "class", "access", "address",
];
const capitalise = (w) => w[0].toUpperCase() + w.slice(1);
for (const w of [...tableWords.filter((w) => /^[A-Za-z]+$/.test(w)), ...patternExamples]) {
  add(w.toLowerCase());
  add(capitalise(w.toLowerCase()));
  add(w.toUpperCase());
}

// Terraform attribute names as they reach the inflector (snake_case for pluralizing, camelCase for singularizing).
const terraform = [
  "uris", "uri", "health", "ip_addresses", "ip_address", "dns_names", "dns_name", "subject", "status", "statuses",
  "address", "addresses", "alias", "aliases", "analysis", "analyses", "matrix", "matrices", "index", "indexes",
  "indices", "vertex", "vertices", "quiz", "quizzes", "bus", "buses", "octopus", "octopi", "virus", "viruses", "viri",
  "person", "people", "data", "metadata", "media", "criteria", "criterion", "policy", "policies", "key", "keys",
  "proxy", "proxies", "entry", "entries", "tag", "tags", "tags_all", "rule", "rules", "ingress", "egress", "cidr_blocks",
  "subnet_ids", "security_groups", "dns_servers", "nameservers", "certificate_pem", "ca_certificates", "ip_ranges",
  "header", "headers", "request_headers", "response_headers", "retry", "max_retries", "settings", "setting", "config",
  "configs", "environment", "environment_variables", "volume", "volumes", "mount", "mounts", "principal", "principals",
  "actions", "not_actions", "resources", "condition", "conditions", "schema", "schemas", "schemata", "process",
  "processes", "access", "accesses", "class", "classes", "child", "children", "man", "men", "woman", "women", "human",
  "humans", "shoe", "shoes", "cache", "caches", "hive", "hives", "archive", "archives", "drive", "drives", "movie",
  "movies", "menu", "menus", "series", "news", "information", "equipment", "move", "moves", "wave", "waves", "curve",
  "curves", "half", "halves", "leaf", "leaves", "knife", "knives", "life", "lives", "safe", "safes", "bureau",
  "bureaus", "focus", "foci", "radius", "radii", "basis", "bases", "base", "crisis", "crises", "axis", "axes", "tax",
  "taxes", "fax", "faxes", "wax", "waxes", "taxes_faxes", "thesis", "theses", "diagnosis", "diagnoses", "prognosis",
  "synopsis", "parenthesis", "parentheses", "datum", "medium", "stadium", "stadia", "ox", "oxen", "box", "boxes",
  "mouse", "mice", "louse", "lice", "house", "houses", "tomato", "tomatoes", "buffalo", "potato", "hero", "zero",
  "zeros", "photo", "photos", "video", "videos", "cookie", "cookies", "foot", "feet", "tooth", "teeth", "goose",
  "geese", "status_code", "http_status", "allowed_statuses", "email_aliases", "private_key_pem", "public_key_openssh",
  "not_before", "validity_period_hours", "early_renewal_hours", "allowed_uses", "dns_sans", "uri_sans", "ip_sans",
  "keepers", "override_special", "min_numeric", "byte_length", "rfc3339", "triggers", "create_duration",
  "request_timeout_ms", "retry_attempts", "min_delay_ms", "content_base64", "file_permission", "sensitive_content",
  "ipAddresses", "dnsNames", "cidrBlocks", "subnetIds", "requestHeaders", "caCertificates", "emailAliases",
  "allowedStatuses", "environmentVariables", "uriSans", "ipSans", "dnsSans", "allowedUses", "tagsAll", "socialMedia",
  "Person", "People", "Status", "Statuses", "Matrix", "Matrices", "Octopus", "Children", "Men", "Uris",
  "foo man", "foo men", "foo_man", "foo_men", "foo-person", "my-child", "bar person", "x ox", "the cow",
];
for (const w of terraform) add(w);

// Corners where RE2 and JavaScript regexes differ: case folding of ſ and the Kelvin sign, \b, non-ASCII first bytes.
for (const w of ["\u017fex", "a\u017fex", "\u212aey", "coo\u212aies", "\u017ftatus", "\u00e9 man", "caf\u00e9", "na\u00efve", "stra\u00dfe", "\u0130ndex", "\u00c5ngstr\u00f6m men", "tab\tman", "carriage\rman"]) add(w);

process.stdout.write(out.join("\n") + "\n");
