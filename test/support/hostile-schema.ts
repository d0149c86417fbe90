// Random Terraform provider schemas a provider should never send but may (fast-check arbitraries), and the checks a
// Pulumi package schema translated from one must pass; shared by the unit fuzzer and the gen-sdk sample.
import fc from "fast-check";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute, Block, FunctionSignature, NestedBlock, ProviderSchema } from "../../src/terraform/types.js";
import { pythonName } from "../../src/schema-translate/names.js";
import { attr, block, provider } from "./tf-schema.js";

/**
 * Attribute and block names: plain ones, ones that are one Pulumi name (`foo_bar`, `foo__bar`, `fooBar`), ones no SDK
 * can spell (empty, dots, dashes, spaces, a leading digit, non-ASCII), words languages or Pulumi keep for themselves,
 * and a few random strings.
 */
const NAME_POOL = [
  "a", "name", "value", "foo_bar", "foo__bar", "fooBar", "FooBar", "to_string", "toString", "rule", "rules",
  "", "_", "__", "a.b", "a-b", "a b", "1x", "2fa_code", "é", "名前", "x_", "__a_b",
  "id", "urn", "pulumi", "class", "from", "default", "type", "object", "resource_name", "opts",
];
const arbName: fc.Arbitrary<string> = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...NAME_POOL) }, { weight: 1, arbitrary: fc.string({ maxLength: 5 }) });

/** Resource, data source and function names (the provider's prefix is `acme`). */
const ENTITY_POOL = ["acme_thing", "acme_other", "acme_a.b", "acme_", "acme__", "acme_1x", "acme_object", "acme_provider", "acme_thing_v2", "acme_Thing", "acme_x-y", "acme_é", "thing"];
const arbEntityName: fc.Arbitrary<string> = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ENTITY_POOL) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((s) => `acme_${s}`) });

function arbType(depth: number): fc.Arbitrary<CtyType> {
  const leaf = fc.constantFrom<CtyType>({ kind: "string" }, { kind: "number" }, { kind: "bool" }, { kind: "dynamic" });
  if (depth <= 0) return leaf;
  const sub = arbType(depth - 1);
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: sub.map((element): CtyType => ({ kind: "list", element })) },
    { weight: 1, arbitrary: sub.map((element): CtyType => ({ kind: "set", element })) },
    { weight: 1, arbitrary: sub.map((element): CtyType => ({ kind: "map", element })) },
    { weight: 1, arbitrary: fc.array(sub, { maxLength: 2 }).map((elements): CtyType => ({ kind: "tuple", elements })) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.dictionary(arbName, sub, { maxKeys: 3 }), fc.boolean()).map(([attributes, someOptional]): CtyType => ({
        kind: "object",
        attributes,
        ...(someOptional && Object.keys(attributes).length > 0 ? { optional: [Object.keys(attributes)[0]!] } : {}),
      })),
    },
  );
}

const arbFlags = fc
  .record({ mode: fc.constantFrom("required", "optional", "computed", "optional+computed"), sensitive: fc.boolean(), deprecated: fc.boolean(), writeOnly: fc.boolean() })
  .map(({ mode, sensitive, deprecated, writeOnly }): Partial<Attribute> => ({
    required: mode === "required",
    optional: mode.startsWith("optional"),
    computed: mode.endsWith("computed"),
    sensitive,
    deprecated,
    writeOnly: writeOnly && mode !== "computed",
  }));

function arbAttribute(depth: number): fc.Arbitrary<Attribute> {
  const typed = fc.tuple(arbName, arbType(Math.min(depth, 3)), arbFlags).map(([name, type, flags]) => attr(name, type, flags));
  if (depth <= 0) return typed;
  const nestedAttr = fc
    .tuple(arbName, fc.constantFrom("single", "list", "set", "map" as const), fc.array(arbAttribute(depth - 1), { maxLength: 3 }), arbFlags)
    .map(([name, nesting, attributes, flags]) => attr(name, undefined, { ...flags, nestedType: { nesting, attributes } }));
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: nestedAttr });
}

function arbBlock(depth: number): fc.Arbitrary<Block> {
  const attributes = fc.uniqueArray(arbAttribute(depth), { maxLength: 5, selector: (a) => a.name });
  if (depth <= 0) return attributes.map((a) => block(a));
  const nb: fc.Arbitrary<NestedBlock> = fc
    .tuple(arbName, fc.constantFrom("single", "list", "set", "map", "group" as const), arbBlock(depth - 1), fc.nat(2), fc.nat(2), fc.boolean())
    .map(([typeName, nesting, inner, minItems, maxItems, deprecated]) => ({ typeName, nesting, block: { ...inner, deprecated }, minItems, maxItems }));
  return fc
    .tuple(attributes, fc.array(nb, { maxLength: 2 }))
    .map(([a, b]) => {
      // Terraform keys a block's attributes and nested blocks by name; a name used twice is its own test (schema-hostile).
      const taken = new Set(a.map((x) => x.name));
      return block(a, b.filter((x) => !taken.has(x.typeName) && (taken.add(x.typeName), true)));
    });
}

/** A block nested `levels` deep: far past any real provider, to find where a walk over it runs out of stack. */
function deepBlock(levels: number): Block {
  let b = block([attr("leaf", { kind: "string" }, { optional: true })]);
  for (let i = 0; i < levels; i++) b = block([], [{ typeName: "b", nesting: "list", block: b, minItems: 0, maxItems: 0 }]);
  return b;
}

const arbFunction: fc.Arbitrary<FunctionSignature> = fc
  .tuple(fc.array(fc.tuple(arbName, arbType(2), fc.boolean()), { maxLength: 3 }), fc.option(fc.tuple(arbName, arbType(1))), arbType(3))
  .map(([params, variadic, returnType]) => {
    const p = (name: string, type: CtyType, allowNullValue: boolean) => ({ name, type, allowNullValue, allowUnknownValues: false, description: "", descriptionKind: "plain" as const });
    return {
      parameters: params.map(([n, t, nullable]) => p(n, t, nullable)),
      ...(variadic !== null ? { variadicParameter: p(variadic[0], variadic[1], true) } : {}),
      returnType,
      summary: "",
      description: "",
      descriptionKind: "plain",
      deprecationMessage: "",
    };
  });

/** A whole provider: configuration, resources, data sources, ephemeral resources and functions, now and then one nested far too deep. */
export const arbHostileProvider: fc.Arbitrary<ProviderSchema> = fc
  .record({
    config: fc.oneof({ weight: 9, arbitrary: arbBlock(2) }, { weight: 1, arbitrary: fc.constant(deepBlock(150)) }),
    resources: fc.dictionary(arbEntityName, fc.oneof({ weight: 9, arbitrary: arbBlock(3) }, { weight: 1, arbitrary: fc.constant(deepBlock(2000)) }), { maxKeys: 3 }),
    dataSources: fc.dictionary(arbEntityName, arbBlock(2), { maxKeys: 2 }),
    ephemeralResources: fc.dictionary(arbEntityName, arbBlock(1), { maxKeys: 1 }),
    functions: fc.dictionary(fc.oneof(arbName, fc.constantFrom("parse", "to_upper")), arbFunction, { maxKeys: 2 }),
  })
  .map((parts) => provider(parts));

/** Pulumi's token pattern (pkg/codegen/schema/pulumi.json), narrowed to names every SDK can declare, in package `pkg`. */
const tokenPattern = (pkg: string): RegExp => new RegExp(`^${pkg}:(index|config|ephemeral)(\\/[A-Za-z_][A-Za-z0-9_]*)?:[A-Za-z_][A-Za-z0-9_]*$`);
const PROPERTY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What is wrong with a rendered package schema, or nothing: a token outside the pattern, a property name no SDK can
 * declare or Pulumi reserves (pkg/codegen/schema/reserved_keywords.go), two properties of one object that are one name in some SDK, a required name that is no property, a
 * reference to a type the schema does not define, two resource or function tokens that differ only in case.
 */
export function packageSchemaProblems(schema: Record<string, any>): string[] {
  const problems: string[] = [];
  const TOKEN = tokenPattern(schema["name"] as string);
  const types = (schema["types"] ?? {}) as Record<string, any>;
  const props = (where: string, properties: Record<string, any> | undefined, required?: string[], reserved: string[] = []) => {
    const names = Object.keys(properties ?? {});
    const seen = new Map<string, string>();
    for (const n of names) {
      if (!PROPERTY.test(n)) problems.push(`${where}: property ${JSON.stringify(n)} is no identifier`);
      if (!/[A-Za-z]/.test(n)) problems.push(`${where}: property ${JSON.stringify(n)} has no ASCII letter, which Pulumi's schema refuses`);
      if (n === "pulumi" || reserved.includes(n)) problems.push(`${where}: property ${n} is reserved in Pulumi's schema`);
      const key = pythonName(n).toLowerCase();
      if (seen.has(key)) problems.push(`${where}: properties ${seen.get(key)} and ${n} are one name in some SDK`);
      seen.set(key, n);
      refs(`${where}.${n}`, properties![n]);
    }
    for (const r of required ?? []) if (!names.includes(r)) problems.push(`${where}: required ${r} is no property`);
  };
  const refs = (where: string, spec: any) => {
    if (spec === null || typeof spec !== "object") return;
    if (typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/")) {
      const token = decodeURIComponent(spec.$ref.slice("#/types/".length));
      if (types[token] === undefined) problems.push(`${where}: $ref to undefined type ${token}`);
    }
    refs(where, spec.items);
    refs(where, spec.additionalProperties);
  };
  for (const [token, t] of Object.entries(types)) {
    if (!TOKEN.test(token)) problems.push(`type token ${token}`);
    props(token, t.properties, t.required);
  }
  for (const [token, r] of Object.entries((schema["resources"] ?? {}) as Record<string, any>)) {
    if (!TOKEN.test(token)) problems.push(`resource token ${token}`);
    // Pulumi's schema reserves `urn` and `id` among a (custom) resource's own properties.
    props(`${token} outputs`, r.properties, r.required, ["urn", "id"]);
    props(`${token} inputs`, r.inputProperties, r.requiredInputs, ["urn", "id"]);
    props(`${token} state`, r.stateInputs?.properties, undefined, ["urn", "id"]);
  }
  for (const [token, f] of Object.entries((schema["functions"] ?? {}) as Record<string, any>)) {
    if (!token.startsWith("pulumi:providers:") && !TOKEN.test(token)) problems.push(`function token ${token}`);
    props(`${token} inputs`, f.inputs?.properties, f.inputs?.required);
    props(`${token} outputs`, f.outputs?.properties, f.outputs?.required);
  }
  // Pulumi's schema binder refuses resource and function tokens that are one but for case ("multiple tokens map to").
  const lowered = new Map<string, string>();
  for (const token of [...Object.keys(schema["resources"] ?? {}), ...Object.keys(schema["functions"] ?? {})]) {
    const other = lowered.get(token.toLowerCase());
    if (other !== undefined) problems.push(`tokens ${other} and ${token} differ only in case`);
    lowered.set(token.toLowerCase(), token);
  }
  props("config", schema["config"]?.variables);
  props("provider inputs", schema["provider"]?.inputProperties, schema["provider"]?.requiredInputs);
  return problems;
}
