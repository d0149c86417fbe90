// parseImportTarget and storedIdentity: how `pulumi import`'s argument becomes an import id or an identity, and what __meta keeps.
import { describe, expect, it } from "vitest";
import { IdentityInputError, parseImportTarget, storedIdentity } from "../../src/bridge/identity.js";
import { BigNum, CtyNumber, CtyString, UNKNOWN } from "../../src/terraform/cty/index.js";
import type { IdentitySchema } from "../../src/terraform/types.js";

const schema: IdentitySchema = {
  version: 1,
  attributes: [
    { name: "id", type: CtyString, requiredForImport: true, optionalForImport: false, description: "" },
    { name: "name", type: CtyString, requiredForImport: false, optionalForImport: true, description: "" },
    { name: "shard", type: CtyNumber, requiredForImport: false, optionalForImport: true, description: "" },
  ],
};
const R = "bridgetest_identified";
const ATTRS = "bridgetest_identified's identity attributes are id (required), name (optional), shard (optional)";

describe("parseImportTarget", () => {
  const ids: [string, string, IdentitySchema | undefined][] = [
    ["a plain id", "identified-abc", schema],
    ["an id with braces inside", "a{b}", schema],
    ["JSON that is not an object (array)", '["id"]', schema],
    ["JSON that is not an object (string)", '"id"', schema],
    ["text that starts like an object but is not JSON", "{id: x}", schema],
    ["an object, for a resource without identity", '{"id":"x"}', undefined],
  ];
  it.each(ids)("%s is an import id, unchanged", (_what, arg, s) => {
    expect(parseImportTarget(R, arg, s)).toEqual({ id: arg });
  });

  const identities: [string, string, Record<string, unknown>][] = [
    ["the required attribute", '{"id":"x"}', { id: "x", name: null, shard: null }],
    ["required and optional ones", '{"id":"x","name":"n","shard":3}', { id: "x", name: "n", shard: 3 }],
    ["leading blanks", '  {"id":"x"}', { id: "x", name: null, shard: null }],
    ["a number given as a string (cty converts, as Terraform does)", '{"id":"x","shard":"7"}', { id: "x", name: null, shard: 7 }],
    ["an explicit null for an optional one", '{"id":"x","name":null}', { id: "x", name: null, shard: null }],
  ];
  it.each(identities)("an object with %s is an identity", (_what, arg, want) => {
    const got = parseImportTarget(R, arg, schema);
    expect("identity" in got).toBe(true);
    expect({ ...(got as { identity: Record<string, unknown> }).identity }).toEqual(want);
  });

  const bad: [string, string, string][] = [
    ["an unknown key", '{"identifier":"x"}', `the import identity has an attribute bridgetest_identified does not know: "identifier"; ${ATTRS}`],
    ["two unknown keys beside a good one", '{"id":"x","Name":"n","region":"r"}', `the import identity has attributes bridgetest_identified does not know: "Name", "region"; ${ATTRS}`],
    ["the required attribute missing", '{"name":"n"}', `the import identity lacks id, required to import bridgetest_identified; ${ATTRS}`],
    ["the required attribute null", '{"id":null}', `the import identity lacks id, required to import bridgetest_identified; ${ATTRS}`],
    ["an empty object", "{}", `the import identity lacks id, required to import bridgetest_identified; ${ATTRS}`],
    ["a value of the wrong type", '{"id":"x","shard":[1]}', "the import identity for bridgetest_identified is not valid: "],
  ];
  it.each(bad)("%s is an error naming the identity attributes", (_what, arg, message) => {
    let err: unknown;
    try {
      parseImportTarget(R, arg, schema);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IdentityInputError);
    expect((err as Error).message.startsWith(message)).toBe(true);
    expect((err as Error).message).toContain(ATTRS);
  });
});

describe("storedIdentity", () => {
  it("keeps a known identity as cty JSON with the schema's version", () => {
    expect(storedIdentity({ id: "x", name: null, shard: new BigNum("12345678901234567890") }, schema)).toEqual({ version: 1, json: '{"id":"x","name":null,"shard":12345678901234567890}' });
  });
  it.each([
    ["undefined (no identity sent)", undefined],
    ["null (none yet)", null],
    ["an identity not yet known (preview)", { id: UNKNOWN, name: null, shard: null }],
  ])("keeps nothing for %s", (_what, v) => {
    expect(storedIdentity(v, schema)).toBeUndefined();
  });
});
