// markSensitive: what check hands back to the engine (and the engine stores) has every sensitive value secret, at any depth.
import { describe, expect, it } from "vitest";
import type { CtyType } from "../../src/terraform/cty/index.js";
import type { Attribute } from "../../src/terraform/types.js";
import { block, nested, opt, provider } from "../support/tf-schema.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { markSensitive } from "../../src/bridge/secrets.js";
import { COMPUTED, OutputValue, Secret, type PropertyMap } from "../../src/bridge/property-value.js";

const S: CtyType = { kind: "string" };

// Attributes here are optional unless told otherwise.
const attr = (name: string, type: CtyType, flags: Partial<Attribute> = {}): Attribute => opt(name, type, flags);

// A sensitive provider setting beside a plain one; a resource with a sensitive attribute, a list block whose elements
// have a sensitive attribute, and a one-element block (flattened to an object) with one.
const model = buildProviderModel(
  provider({
    config: block([attr("token", S, { sensitive: true }), attr("region", S)]),
    resources: {
      acme_thing: block(
        [attr("name", S), attr("password", S, { sensitive: true }), attr("tags", { kind: "map", element: S })],
        [
          nested("rule", "list", block([attr("port", S), attr("key", S, { sensitive: true })])),
          nested("auth", "list", block([attr("user", S), attr("pass", S, { sensitive: true })]), 0, 1),
        ],
      ),
    },
  }),
  { packageName: "acme", packageVersion: "1.0.0" },
);
const thing = model.resources.get("acme_thing")!.properties;

describe("markSensitive", () => {
  const cases: { name: string; in: PropertyMap; want: PropertyMap }[] = [
    { name: "a sensitive provider setting given plain", in: { token: "t", region: "r" }, want: { token: new Secret("t"), region: "r" } },
    { name: "a sensitive attribute given plain", in: { name: "n", password: "p" }, want: { name: "n", password: new Secret("p") } },
    { name: "already secret: kept as it is, not wrapped twice", in: { password: new Secret("p") }, want: { password: new Secret("p") } },
    { name: "a sensitive attribute in every list block element", in: { rules: [{ port: "1", key: "k1" }, { port: "2", key: null }] }, want: { rules: [{ port: "1", key: new Secret("k1") }, { port: "2", key: null }] } },
    { name: "a sensitive attribute of a flattened one-element block", in: { auth: { user: "u", pass: "p" } }, want: { auth: { user: "u", pass: new Secret("p") } } },
    { name: "an unknown sensitive value stays unknown, as a secret", in: { password: COMPUTED }, want: { password: new Secret(COMPUTED) } },
    { name: "null and absent stay so; plain properties are untouched", in: { password: null, tags: { a: "b" } }, want: { password: null, tags: { a: "b" } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(markSensitive(c.name.includes("provider") ? model.config : thing, c.in)).toEqual(c.want);
    });
  }

  it("a known output value for a sensitive attribute becomes a secret output with the same dependencies", () => {
    const got = markSensitive(thing, { password: new OutputValue("p", false, ["urn:a"]) })["password"] as OutputValue;
    expect([got.value, got.secret, got.dependencies]).toEqual(["p", true, ["urn:a"]]);
  });

  it("does not change the values it is given", () => {
    const given = { password: "p", rules: [{ key: "k" }] };
    markSensitive(thing, given);
    expect(given).toEqual({ password: "p", rules: [{ key: "k" }] });
  });
});
