// Decodes provider settings from the strings Pulumi sends them as, by the schema's type: stack configuration reaches a
// provider as strings, and the Node.js and Python SDKs JSON-encode an explicit provider's non-string inputs.
import { describeType } from "./property-cty.js";
import { OutputValue, SECRET_SIG, SIG_KEY, Secret, type PropertyMap, type PropertyValue } from "./property-value.js";
import type { CheckFailure } from "./types.js";
import type { PropertyModel, TypeModel } from "../schema-translate/model.js";

export interface DecodedConfig {
  values: PropertyMap;
  /** Settings of a structured type whose string is not JSON: the program's or the stack's mistake, told per key. */
  failures: CheckFailure[];
}

/**
 * The settings with every string a non-string setting arrived as decoded into the value it encodes (secrets stay
 * secret, JSON-embedded secrets included). A string setting is never decoded, nor is a key the schema does not have,
 * nor a value that is already structured (Go, Java and YAML send those as they are). An empty string means unset, as
 * the reference writes a null setting.
 */
export function decodeConfig(props: readonly PropertyModel[], values: PropertyMap): DecodedConfig {
  const out: PropertyMap = { ...values };
  const failures: CheckFailure[] = [];
  for (const p of props) {
    const v = values[p.name];
    if (v === undefined || p.type.kind === "string") continue;
    const decoded = decodeSetting(p.type, v);
    if (decoded === undefined) {
      failures.push({
        property: p.name,
        reason: `expected ${describeType(p.type)}, written as JSON (as \`pulumi config set\` stores a structured value and the Node.js and Python SDKs send one), but the string given is not JSON`,
      });
    } else out[p.name] = decoded;
  }
  return { values: out, failures };
}

/** The decoded value, or undefined when a structured setting's string is not JSON. */
function decodeSetting(t: TypeModel, v: PropertyValue): PropertyValue | undefined {
  if (v instanceof Secret) {
    const inner = decodeSetting(t, v.value);
    return inner === undefined ? undefined : new Secret(inner);
  }
  if (v instanceof OutputValue) {
    if (!v.known) return v;
    const inner = decodeSetting(t, v.value!);
    return inner === undefined ? undefined : new OutputValue(inner, v.secret, v.dependencies);
  }
  if (typeof v !== "string") return v;
  if (v === "") return null;
  switch (t.kind) {
    case "number": {
      // Numbers keep their exact digits as strings, which the conversion to Terraform reads without rounding; one
      // that a double holds exactly is stored as a number, trailing zeros of a fraction aside (Java's SDK writes a
      // Double 7 as `7.0`).
      const n = Number(v.trim());
      return Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n)) && String(n) === withoutTrailingZeros(v.trim()) ? n : v;
    }
    case "boolean":
      // `true`/`false`; anything else is left for the conversion to reject with the value named.
      return v === "true" ? true : v === "false" ? false : v;
    case "any":
      // A dynamic setting may be a plain string from stack configuration, or JSON from an SDK.
      return parseJson(v) ?? v;
    default:
      return parseJson(v);
  }
}

/** `7.0` as `7`, `0.250` as `0.25`: a decimal's digits as a double prints them when the fraction ends in zeros. */
function withoutTrailingZeros(s: string): string {
  return /^-?\d+\.\d*$/.test(s) ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

function parseJson(s: string): PropertyValue | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    return undefined;
  }
  return fromJson(parsed);
}

/** Plain JSON as property values, with the engine's secret envelope (`{<sig>: <secret sig>, value}`) as a secret. */
function fromJson(j: unknown): PropertyValue {
  if (j === null || typeof j === "string" || typeof j === "number" || typeof j === "boolean") return j;
  if (Array.isArray(j)) return j.map(fromJson);
  const o = j as Record<string, unknown>;
  if (o[SIG_KEY] === SECRET_SIG && "value" in o) return new Secret(fromJson(o["value"]));
  const out: PropertyMap = {};
  for (const [k, x] of Object.entries(o)) out[k] = fromJson(x);
  return out;
}
