// Keeps secrets secret across the Terraform round trip: what the program marked secret comes back secret, nested too.
import type { PropertyModel, TypeModel } from "../schema-translate/model.js";
import { OutputValue, Secret, isPropertyMap, type PropertyMap, type PropertyValue } from "./property-value.js";

/** True when the value, or anything inside it, is secret. */
export function containsSecret(v: PropertyValue | undefined): boolean {
  if (v instanceof Secret) return true;
  if (v instanceof OutputValue) return v.secret || containsSecret(v.value);
  if (Array.isArray(v)) return v.some(containsSecret);
  if (isPropertyMap(v)) return Object.values(v).some(containsSecret);
  return false;
}

function secret(out: PropertyValue): PropertyValue {
  return out === null || out instanceof Secret ? out : new Secret(out);
}

function carry(t: TypeModel | undefined, out: PropertyValue, from: PropertyValue | undefined): PropertyValue {
  if (from === undefined || from === null || out instanceof Secret) return out;
  if (from instanceof Secret) return secret(out);
  if (from instanceof OutputValue) return from.secret ? secret(out) : carry(t, out, from.value);
  if (Array.isArray(from) && Array.isArray(out)) {
    // List elements keep their places; a set's do not (the provider may return them in any order), so a set with a
    // secret element is secret as a whole. So is a list whose length the provider changed.
    const set = t?.kind === "array" && t.set === true;
    if (!set && from.length === out.length) return out.map((x, i) => carry(t?.kind === "array" ? t.items : undefined, x, from[i]));
    return containsSecret(from) ? secret(out) : out;
  }
  if (isPropertyMap(from) && isPropertyMap(out)) {
    if (t?.kind === "object") return carryProperties(t.ref.properties, out, from);
    const values = t?.kind === "map" ? t.values : undefined;
    const result: PropertyMap = { ...out };
    for (const [k, v] of Object.entries(out)) if (k in from) result[k] = carry(values, v, from[k]);
    return result;
  }
  return containsSecret(from) ? secret(out) : out;
}

function carryProperties(props: readonly PropertyModel[], outputs: PropertyMap, from: PropertyMap): PropertyMap {
  const result: PropertyMap = { ...outputs };
  for (const [k, v] of Object.entries(outputs)) {
    if (!(k in from)) continue;
    result[k] = carry(props.find((p) => p.name === k)?.type, v, from[k]);
  }
  return result;
}

/**
 * Terraform knows nothing of Pulumi secrets: the bridge unwraps them on the way in and only the schema's sensitive
 * attributes come back as secrets. The engine re-marks top-level outputs whose input was secret, but not what is
 * inside them (`tags.password`, `rules[0].token`), so the bridge marks each output value whose counterpart in
 * `from` (the inputs, or the prior state) is secret, following the model's types (list elements by position, map
 * entries and object properties by name, sets as a whole).
 */
export function carrySecrets(props: readonly PropertyModel[], outputs: PropertyMap, from: PropertyMap | undefined): PropertyMap {
  return from === undefined ? outputs : carryProperties(props, outputs, from);
}

/**
 * The value with every secret unwrapped. Invoke results go out this way: the Go and YAML SDKs refuse a secret in a
 * plain invoke's result (pulumi/pulumi#12710), so a data source with a sensitive attribute would be unusable there; an
 * output-form invoke is secret anyway when its arguments are.
 */
export function withoutSecrets(v: PropertyValue): PropertyValue {
  if (v instanceof Secret) return withoutSecrets(v.value);
  if (v instanceof OutputValue) return new OutputValue(v.value === undefined ? undefined : withoutSecrets(v.value), false, v.dependencies);
  if (Array.isArray(v)) return v.map(withoutSecrets);
  if (isPropertyMap(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutSecrets(x)]));
  return v;
}

/**
 * The inputs with every value of a property the schema marks sensitive (or write-only) made secret, at any depth, as
 * check returns them to the engine: the engine stores checked inputs in the state as given, so a sensitive provider
 * setting or attribute the program did not mark secret would otherwise be written there in the clear. (The reference
 * bridge's MarkSchemaSecrets does the same.)
 */
export function markSensitive(props: readonly PropertyModel[], values: PropertyMap): PropertyMap {
  const out: PropertyMap = { ...values };
  for (const p of props) {
    const v = out[p.name];
    if (v === undefined || v === null) continue;
    out[p.name] = p.secret ? asSecret(v) : sensitiveIn(p.type, v);
  }
  return out;
}

function asSecret(v: PropertyValue): PropertyValue {
  if (v instanceof OutputValue) return v.secret ? v : new OutputValue(v.value, true, v.dependencies);
  return secret(v);
}

function sensitiveIn(t: TypeModel, v: PropertyValue): PropertyValue {
  if (v instanceof Secret) return v;
  switch (t.kind) {
    case "object":
      return isPropertyMap(v) ? markSensitive(t.ref.properties, v) : v;
    case "array":
      return Array.isArray(v) ? v.map((x) => sensitiveIn(t.items, x)) : v;
    case "map":
      return isPropertyMap(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sensitiveIn(t.values, x)])) : v;
    default:
      return v;
  }
}
