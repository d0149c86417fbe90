// Reduces a Pulumi package schema to comparable facts (tokens, property names, types, required sets, secrets), for
// differential tests against the reference bridge.
type Json = any;  

/** One fact: a path of names and the value there, e.g. `resource random:index/id:Id / input keepers` → `map<string>`. */
export type Facts = Map<string, string>;

function typeOf(spec: Json): string {
  if (spec === undefined || spec === null) return "none";
  if (typeof spec.$ref === "string") {
    const ref = decodeURIComponent(spec.$ref as string);
    return ref === "pulumi.json#/Any" ? "any" : ref.startsWith("#/types/") ? `ref(${ref.slice("#/types/".length)})` : `ref(${ref})`;
  }
  switch (spec.type) {
    case "array":
      return `array<${typeOf(spec.items)}>`;
    case "object":
      return spec.additionalProperties !== undefined ? `map<${typeOf(spec.additionalProperties)}>` : "object";
    case undefined:
      return "none";
    default:
      return String(spec.type);
  }
}

function propertyFacts(facts: Facts, at: string, props: Json): void {
  for (const [name, spec] of Object.entries<Json>(props ?? {})) {
    facts.set(`${at} property ${name}`, typeOf(spec));
    if (spec.secret === true) facts.set(`${at} property ${name} secret`, "true");
  }
}

function listFact(facts: Facts, at: string, list: Json): void {
  facts.set(at, [...((list as string[] | undefined) ?? [])].sort().join(","));
}

function objectFacts(facts: Facts, at: string, obj: Json): void {
  if (obj === undefined) return;
  if (obj.properties === undefined && obj.type !== "object") {
    facts.set(`${at} type`, typeOf(obj));
    return;
  }
  propertyFacts(facts, at, obj.properties);
  listFact(facts, `${at} required`, obj.required);
}

/** Every fact the interchange promises: change a name, a type, a required set or a secret flag and a fact differs. */
export function schemaFacts(schema: Json): Facts {
  const facts: Facts = new Map();
  facts.set("name", String(schema.name));
  facts.set("version", String(schema.version));
  facts.set("meta moduleFormat", String(schema.meta?.moduleFormat));
  // What SDKs are generated with: import paths, package names, compatibility modes. Prose (readme) is not a fact, nor
  // an empty setting (the reference writes empty Java strings, which mean the defaults).
  for (const [language, settings] of Object.entries<Json>(schema.language ?? {})) {
    for (const [key, value] of Object.entries<Json>(settings ?? {})) {
      if (key === "readme" || value === "") continue;
      facts.set(`language ${language} ${key}`, JSON.stringify(value));
    }
  }
  facts.set("parameterization baseProvider", JSON.stringify(schema.parameterization?.baseProvider));
  // The value bytes SDKs embed and send back in Parameterize: byte for byte the same.
  facts.set("parameterization parameter", Buffer.from(String(schema.parameterization?.parameter), "base64").toString("utf8"));
  for (const [name, spec] of Object.entries<Json>(schema.config?.variables ?? {})) {
    facts.set(`config ${name}`, typeOf(spec));
    if (spec.secret === true) facts.set(`config ${name} secret`, "true");
  }
  listFact(facts, "config required", schema.config?.required);
  propertyFacts(facts, "provider input", schema.provider?.inputProperties);
  listFact(facts, "provider requiredInputs", schema.provider?.requiredInputs);
  propertyFacts(facts, "provider output", schema.provider?.properties);
  listFact(facts, "provider required", schema.provider?.required);
  for (const [method, fn] of Object.entries<Json>(schema.provider?.methods ?? {})) facts.set(`provider method ${method}`, String(fn));
  for (const [token, r] of Object.entries<Json>(schema.resources ?? {})) {
    const at = `resource ${token}`;
    facts.set(at, "resource");
    propertyFacts(facts, `${at} input`, r.inputProperties);
    listFact(facts, `${at} requiredInputs`, r.requiredInputs);
    propertyFacts(facts, `${at} output`, r.properties);
    listFact(facts, `${at} required`, r.required);
    propertyFacts(facts, `${at} state`, r.stateInputs?.properties);
    // What `pulumi do … list` takes: a Terraform list resource's configuration (docs/discover-and-import.md).
    if (r.listInputs !== undefined) objectFacts(facts, `${at} listInputs`, r.listInputs);
    for (const a of (r.aliases as Json[] | undefined) ?? []) facts.set(`${at} alias ${a.type ?? JSON.stringify(a)}`, "alias");
  }
  for (const [token, f] of Object.entries<Json>(schema.functions ?? {})) {
    const at = `function ${token}`;
    facts.set(at, "function");
    objectFacts(facts, `${at} inputs`, f.inputs);
    objectFacts(facts, `${at} outputs`, f.outputs);
    if (f.multiArgumentInputs !== undefined) {
      facts.set(`${at} multiArgumentInputs`, (f.multiArgumentInputs as string[]).join(","));
      // A Terraform function's documentation is in its schema (summary, then description); a data source's is not
      // (the reference leaves it for docs files, we keep the block's description).
      facts.set(`${at} description`, String(f.description ?? "").trimEnd()); // the reference ends its doc comments with a newline
    }
  }
  for (const [token, t] of Object.entries<Json>(schema.types ?? {})) {
    const at = `type ${token}`;
    facts.set(at, String(t.type));
    objectFacts(facts, at, t);
    const outs = t.language?.nodejs?.requiredOutputs as string[] | undefined;
    if (outs !== undefined) listFact(facts, `${at} requiredOutputs`, outs);
    // Types met last as outputs (data sources') carry the input rule here instead, an empty list when never an input.
    const ins = t.language?.nodejs?.requiredInputs as string[] | undefined;
    if (ins !== undefined) facts.set(`${at} requiredInputs`, [...ins].sort().join(","));
  }
  return facts;
}

export interface FactDifference {
  fact: string;
  ours: string | undefined;
  reference: string | undefined;
}

export function diffFacts(ours: Facts, reference: Facts): FactDifference[] {
  const keys = new Set([...ours.keys(), ...reference.keys()]);
  const out: FactDifference[] = [];
  for (const fact of [...keys].sort()) {
    const a = ours.get(fact);
    const b = reference.get(fact);
    if (a !== b) out.push({ fact, ours: a, reference: b });
  }
  return out;
}
