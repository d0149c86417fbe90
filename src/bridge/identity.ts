// Terraform resource identity in Pulumi terms: the import argument read as an identity, and identity kept in `__meta`.
import { CtyError, decodeJson, encodeJson, isRecord, wholeContainsUnknown, type CtyValue } from "../terraform/cty/index.js";
import { identityType } from "../terraform/schema.js";
import type { IdentitySchema } from "../terraform/types.js";

/** What `pulumi import` asked for: the provider's import id, or an identity given as a JSON object. */
export type ImportTarget = { id: string } | { identity: CtyValue };

/** A bad identity given to import; the message names the resource's identity attributes. */
export class IdentityInputError extends Error {}

/** `id (required), name (optional)`: how a message lists a resource's identity attributes. */
export function describeIdentity(schema: IdentitySchema): string {
  return schema.attributes
    .map((a) => `${a.name} (${a.requiredForImport ? "required" : "optional"})`)
    .join(", ");
}

/**
 * The import argument of a resource with the given identity schema. A string that parses as a JSON object is an
 * identity, checked against the schema: every key an identity attribute, every attribute required for import present,
 * values of the attribute's type. Anything else (and every argument of a resource without identity) is an import id.
 */
export function parseImportTarget(resource: string, arg: string, schema: IdentitySchema | undefined): ImportTarget {
  if (schema === undefined || !arg.trimStart().startsWith("{")) return { id: arg };
  let parsed: unknown;
  try {
    parsed = JSON.parse(arg);
  } catch {
    return { id: arg };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { id: arg };
  const given = parsed as Record<string, unknown>;
  const known = new Set(schema.attributes.map((a) => a.name));
  const attrs = `${resource}'s identity attributes are ${describeIdentity(schema)}`;
  const unknown = Object.keys(given).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    const names = unknown.map((k) => JSON.stringify(k)).join(", ");
    throw new IdentityInputError(`the import identity has ${unknown.length === 1 ? "an attribute" : "attributes"} ${resource} does not know: ${names}; ${attrs}`);
  }
  const missing = schema.attributes.filter((a) => a.requiredForImport && (given[a.name] === undefined || given[a.name] === null)).map((a) => a.name);
  if (missing.length > 0) throw new IdentityInputError(`the import identity lacks ${missing.join(", ")}, required to import ${resource}; ${attrs}`);
  try {
    return { identity: decodeJson(arg, identityType(schema)) };
  } catch (e) {
    if (e instanceof CtyError) throw new IdentityInputError(`the import identity for ${resource} is not valid: ${e.message}; ${attrs}`);
    throw e;
  }
}

/** An identity as stored in `__meta`: its schema version and its value as cty JSON (an object, readable in exports). */
export interface StoredIdentity {
  version: number;
  json: string;
}

/** The identity to store, or undefined when there is none to keep (null, or not yet known during a preview). */
export function storedIdentity(value: CtyValue | undefined, schema: IdentitySchema): StoredIdentity | undefined {
  if (value === undefined || value === null || !isRecord(value) || wholeContainsUnknown(value)) return undefined;
  return { version: schema.version, json: encodeJson(value, identityType(schema)) };
}
