// withoutSecrets: what an invoke result looks like once its secrets are unwrapped, for every shape a value takes.
import { describe, expect, it } from "vitest";
import { COMPUTED, OutputValue, Secret, type PropertyValue } from "../../src/bridge/property-value.js";
import { withoutSecrets } from "../../src/bridge/secrets.js";

describe("withoutSecrets", () => {
  const cases: [string, PropertyValue, PropertyValue][] = [
    ["null", null, null],
    ["a plain string", "x", "x"],
    ["the unknown", COMPUTED, COMPUTED],
    ["a secret", new Secret("pw"), "pw"],
    ["a secret of a secret", new Secret(new Secret(1)), 1],
    ["secrets in a list", [new Secret("a"), "b"], ["a", "b"]],
    ["secrets deep in maps", { a: { b: new Secret([new Secret(true)]) }, c: 2 }, { a: { b: [true] }, c: 2 }],
    ["a secret holding a map with a secret", new Secret({ k: new Secret("v") }), { k: "v" }],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(withoutSecrets(input)).toEqual(expected);
  });

  it("an output value loses its secret flag and keeps its dependencies; an unknown one stays unknown", () => {
    const known = withoutSecrets(new OutputValue({ k: new Secret("v") }, true, ["urn:a"])) as OutputValue;
    expect(known).toBeInstanceOf(OutputValue);
    expect([known.value, known.secret, known.dependencies]).toEqual([{ k: "v" }, false, ["urn:a"]]);
    const unknown = withoutSecrets(new OutputValue(undefined, true, [])) as OutputValue;
    expect([unknown.known, unknown.secret]).toEqual([false, false]);
  });
});
