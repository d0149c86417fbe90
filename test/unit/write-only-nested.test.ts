// Write-only values at any depth: nulled in what is stored, held out of the inputs, and put back for create/update.
import { describe, expect, it } from "vitest";
import { restoreWriteOnly, withoutWriteOnly } from "../../src/bridge/property-cty.js";
import { Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import type { PropertyModel, TypeModel } from "../../src/schema-translate/model.js";

const prop = (name: string, type: TypeModel, writeOnly = false): PropertyModel =>
  ({ name, tfName: name, type, tfType: { kind: "string" }, input: true, output: true, required: false, computed: false, secret: false, writeOnly, maxItemsOne: false, description: "" }) as PropertyModel;
const str: TypeModel = { kind: "string" };
const inner = { kind: "object", ref: { token: "t:index/Inner:Inner", properties: [prop("key", str), prop("password", str, true)] } } as TypeModel;
const props = [
  prop("name", str),
  prop("secret", str, true),
  prop("block", { kind: "array", items: inner }),
  prop("single", inner),
  prop("byName", { kind: "map", values: inner }),
];

const full: PropertyMap = {
  name: "n",
  secret: "top-wo",
  block: [{ key: "a", password: "wo-a" }, { key: "b", password: null }],
  single: new Secret({ key: "s", password: "wo-s" }),
  byName: { x: { key: "x", password: "wo-x" } },
};
const nulled: PropertyMap = {
  name: "n",
  secret: null,
  block: [{ key: "a", password: null }, { key: "b", password: null }],
  single: new Secret({ key: "s", password: null }),
  byName: { x: { key: "x", password: null } },
};

describe("withoutWriteOnly", () => {
  it("nulls write-only values at every depth and says whether it found any", () => {
    const found = { any: false };
    expect(withoutWriteOnly(props, full, found)).toEqual(nulled);
    expect(found.any).toBe(true);
    expect(JSON.stringify(withoutWriteOnly(props, full))).not.toMatch(/wo-/);
  });

  it("finds none where every write-only value is null or absent, and leaves the rest alone", () => {
    const found = { any: false };
    expect(withoutWriteOnly(props, { name: "n", block: [{ key: "a" }] }, found)).toEqual({ name: "n", block: [{ key: "a" }] });
    expect(withoutWriteOnly(props, nulled, found)).toEqual(nulled);
    expect(found.any).toBe(false);
  });
});

describe("restoreWriteOnly", () => {
  it("puts every write-only value back where it was", () => {
    expect(restoreWriteOnly(props, nulled, full)).toEqual({ ...full, single: new Secret({ key: "s", password: "wo-s" }) });
  });

  it("leaves a value out where the shapes no longer line up, and adds none the original lacked", () => {
    const news: PropertyMap = { name: "n", block: [{ key: "a" }], byName: { y: { key: "y" } } };
    expect(restoreWriteOnly(props, news, full)).toEqual({ name: "n", secret: "top-wo", block: [{ key: "a" }], byName: { y: { key: "y" } } });
  });
});
