// A check failure describes the offending value unless that value is secret (given as one, inside one, or sensitive in the schema).
import { describe, expect, it } from "vitest";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute } from "../../src/terraform/types.js";
import { block, nested, opt, provider } from "../support/tf-schema.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { failuresShownSafely } from "../../src/bridge/caller.js";
import { ConversionError, toTfObject } from "../../src/bridge/property-cty.js";
import { COMPUTED, OutputValue, Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import type { PropertyModel } from "../../src/schema-translate/model.js";

const S: CtyType = { kind: "string" };
const N: CtyType = { kind: "number" };
const B: CtyType = { kind: "bool" };
const CANARY = "hunter2-canary";

// Attributes here are optional unless told otherwise.
const attr = (name: string, type: CtyType, flags: Partial<Attribute> = {}): Attribute => opt(name, type, flags);

// A provider whose configuration has a sensitive number (a port kept secret), a sensitive object and a plain number;
// its resource has plain attributes of every scalar kind, maps, a list block and a sensitive bool.
const model = buildProviderModel(
  provider({
    config: block([
      attr("pin", N, { sensitive: true }),
      attr("auth", { kind: "object", attributes: { user: S, retries: N } }, { sensitive: true }),
      attr("timeout", N),
    ]),
    resources: {
      acme_thing: block(
        [
          attr("count", N),
          attr("enabled", B),
          attr("locked", B, { sensitive: true }),
          attr("tags", { kind: "map", element: N }),
          attr("limits", { kind: "map", element: { kind: "object", attributes: { max: N } } }),
        ],
        [nested("rule", "list", block([attr("port", N)]))],
      ),
    },
  }),
  { packageName: "acme", packageVersion: "1.0.0" },
);
const config = model.config;
const thing = model.resources.get("acme_thing")!.properties;

/** The ConversionError converting `values` throws (the same call check and checkConfig make). */
function failure(props: readonly PropertyModel[], values: PropertyMap): ConversionError {
  try {
    toTfObject(props, values);
  } catch (e) {
    if (e instanceof ConversionError) return e;
    throw e;
  }
  throw new Error("the conversion did not fail");
}

describe("a check failure on a secret value says [secret] instead of the value", () => {
  const concealed: { name: string; props: readonly PropertyModel[]; in: PropertyMap; property: string; reason: string }[] = [
    { name: "a secret word for a number", props: thing, in: { count: new Secret(CANARY) }, property: "count", reason: "expected a number, got a string ([secret])" },
    { name: "a secret output value for a bool", props: thing, in: { enabled: new OutputValue(CANARY, true, ["urn:x"]) }, property: "enabled", reason: "expected a boolean, got a string ([secret])" },
    { name: "a secret inside a known, non-secret output value", props: thing, in: { enabled: new OutputValue(new Secret(CANARY), false, []) }, property: "enabled", reason: "expected a boolean, got a string ([secret])" },
    { name: "a plain word inside a secret map", props: thing, in: { tags: new Secret({ a: CANARY }) }, property: 'tags["a"]', reason: "expected a number, got a string ([secret])" },
    { name: "a secret map entry", props: thing, in: { tags: { a: new Secret(CANARY) } }, property: 'tags["a"]', reason: "expected a number, got a string ([secret])" },
    { name: "a plain word in an object that is a secret map entry", props: thing, in: { limits: { a: new Secret({ max: CANARY }) } }, property: 'limits["a"].max', reason: "expected a number, got a string ([secret])" },
    { name: "a plain word in a block element inside a secret list", props: thing, in: { rules: new Secret([{ port: 1 }, { port: CANARY }]) }, property: "rules[1].port", reason: "expected a number, got a string ([secret])" },
    { name: "a secret list element", props: thing, in: { rules: [new Secret({ port: CANARY })] }, property: "rules[0].port", reason: "expected a number, got a string ([secret])" },
    { name: "a plain word for a bool the schema marks sensitive", props: thing, in: { locked: CANARY }, property: "locked", reason: "expected a boolean, got a string ([secret])" },
    { name: "a plain word for a provider setting the schema marks sensitive", props: config, in: { pin: CANARY }, property: "pin", reason: "expected a number, got a string ([secret])" },
    { name: "a plain word inside a sensitive provider object", props: config, in: { auth: { user: "u", retries: CANARY } }, property: "auth.retries", reason: "expected a number, got a string ([secret])" },
    { name: "a secret number too large for Terraform", props: thing, in: { count: new Secret(`9${"0".repeat(12000)}${CANARY.length}`) }, property: "count", reason: "expected a number within ±1e10000, got a string ([secret])" },
  ];
  for (const c of concealed) {
    it(c.name, () => {
      const e = failure(c.props, c.in);
      expect(e.property).toBe(c.property);
      expect(e.reason).toBe(c.reason);
      expect(e.message).toBe(`${c.property}: ${c.reason}`);
      expect(e.message).not.toContain(CANARY);
      expect(String(e.stack)).not.toContain(CANARY);
    });
  }
});

describe("a check failure on a plain value still shows it", () => {
  const shown: { name: string; props: readonly PropertyModel[]; in: PropertyMap; message: string }[] = [
    { name: "a word for a number", props: thing, in: { count: "many" }, message: 'count: expected a number, got a string ("many")' },
    { name: "a word for a plain provider setting next to sensitive ones", props: config, in: { pin: 1234, timeout: "soon" }, message: 'timeout: expected a number, got a string ("soon")' },
    { name: "a plain map entry next to a secret one", props: thing, in: { tags: { a: new Secret(1), b: "x" } }, message: 'tags["b"]: expected a number, got a string ("x")' },
    { name: "a plain element of a list whose other element is secret", props: thing, in: { rules: [new Secret({ port: 1 }), { port: "p" }] }, message: 'rules[1].port: expected a number, got a string ("p")' },
    { name: "a number too large for Terraform", props: thing, in: { count: "1e99999999999" }, message: 'count: expected a number within ±1e10000, got a string ("1e99999999999")' },
    { name: "a long word, cut", props: thing, in: { count: "x".repeat(100_000) }, message: `count: expected a number, got a string of 100000 characters ("${"x".repeat(80)}"…)` },
  ];
  for (const c of shown) {
    it(c.name, () => {
      expect(failure(c.props, c.in).message).toBe(c.message);
    });
  }

  it("a non-scalar is named by its kind only, secret or not", () => {
    expect(failure(thing, { count: [CANARY] }).message).toBe("count: expected a number, got a list");
    expect(failure(thing, { count: { a: CANARY } }).message).toBe("count: expected a number, got an object");
  });
});

describe("failures as the engine is to show them", () => {
  // The engine prints `property <name> value {<value>} has a problem`, taking the value of the top-level property named.
  it("names a property holding a secret in the reason, so the engine prints no value", () => {
    const inputs = { count: new Secret(CANARY), tags: { a: new Secret("x"), b: "y" }, name: "n", rules: [{ port: "p" }] };
    expect(
      failuresShownSafely(
        [
          { property: "count", reason: "expected a number, got a string ([secret])" },
          { property: 'tags["b"]', reason: "expected a number" },
          { property: "name", reason: "too short" },
          { property: "rules[0].port", reason: "expected a number" },
          { property: "", reason: "something else" },
        ],
        inputs,
      ),
    ).toEqual([
      { property: "", reason: "count: expected a number, got a string ([secret])" },
      { property: "", reason: 'tags["b"]: expected a number' },
      { property: "name", reason: "too short" },
      { property: "", reason: 'rules[0].port = "p": expected a number' },
      { property: "", reason: "something else" },
    ]);
  });

  it("names a nested path with the value set there, which the engine would print as {<nil>}, or with none where none is set", () => {
    const inputs = { proxies: [{ url: "http://127.0.0.1:1", fromEnv: true }], settings: { mode: "turbo" }, rules: [{ port: COMPUTED }, {}], tags: { "a b": 1 } };
    expect(
      failuresShownSafely(
        [
          { property: "proxies[0].url", reason: "Invalid Attribute Combination: url conflicts with fromEnv" },
          { property: "proxies[0]", reason: "bad element" },
          { property: "settings.mode", reason: "not a mode" },
          { property: "rules[0].port", reason: "must be known" },
          { property: "rules[1].port", reason: "Missing required argument" },
          { property: 'tags["a b"]', reason: "too big" },
        ],
        inputs,
      ),
    ).toEqual([
      { property: "", reason: 'proxies[0].url = "http://127.0.0.1:1": Invalid Attribute Combination: url conflicts with fromEnv' },
      { property: "", reason: 'proxies[0] = {"url":"http://127.0.0.1:1","fromEnv":true}: bad element' },
      { property: "", reason: 'settings.mode = "turbo": not a mode' },
      { property: "", reason: "rules[0].port: must be known" },
      { property: "", reason: "rules[1].port: Missing required argument" },
      { property: "", reason: 'tags["a b"] = 1: too big' },
    ]);
  });
});
