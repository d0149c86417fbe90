// Terraform 1.14's rules for the configuration it generates on import (genconfig), rule by rule on hand-built schemas;
// test/integration/{generate-config,crosstest-generate-config}.test.ts hold them against Terraform 1.16.4 itself.
import { describe, expect, it } from "vitest";
import { inputsFromConfig, keptForPulumi, legacyConfigFromState, writtenConfig } from "../../src/bridge/generate-config.js";
import { Secret } from "../../src/bridge/property-value.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { Dynamic } from "../../src/terraform/cty/index.js";
import { B, block, comp, D, list, map, N, nested, nestedAttr, opt, provider, req, S } from "../support/tf-schema.js";

const schema = block(
  [
    comp("id", S, { optional: true }),
    req("name", S),
    opt("note", S),
    opt("size", N, { computed: true }),
    comp("etag", S),
    opt("old", S, { deprecated: true }),
    opt("password", S, { sensitive: true }),
    opt("policy", S),
    opt("tags", map(S)),
    opt("names", list(S)),
    opt("anything", D),
    nestedAttr("creds", "single", [opt("user", S), comp("token", S)], { sensitive: true }),
    nestedAttr("endpoints", "list", [opt("url", S), comp("id", S, { optional: true }), comp("status", S)]),
  ],
  [
    nested("rule", "list", block([req("port", N), opt("cidr", S), comp("summary", S)])),
    nested("settings", "list", block([opt("mode", S), opt("enabled", B)]), 0, 1),
    nested("legacy", "list", block([opt("x", S)], [], { deprecated: true })),
  ],
);

const state = {
  id: "r-1",
  name: "n",
  note: "",
  size: 3,
  etag: "e1",
  old: "was",
  password: "hunter2",
  policy: '{"b": [1, 2], "a": "<&>"}',
  tags: { k: "" },
  names: ["", "x"],
  anything: new Dynamic(S, ""),
  creds: { user: "u", token: "t" },
  endpoints: [{ url: "", id: "ep-1", status: "up" }],
  rule: [{ port: 80, cidr: "", summary: "tcp/80" }],
  settings: [{ mode: "fast", enabled: true }],
  legacy: [{ x: "y" }],
};

describe("legacyConfigFromState (Terraform core's fallback, SDKv2's GenerateResourceConfig)", () => {
  const config = legacyConfigFromState(schema, state) as Record<string, unknown>;

  it("drops computed-only attributes at every depth, keeps optional+computed ones", () => {
    expect(config["etag"]).toBeNull();
    expect(config["size"]).toBe(3);
    expect((config["rule"] as Record<string, unknown>[])[0]!["summary"]).toBeNull();
    expect((config["endpoints"] as Record<string, unknown>[])[0]).toMatchObject({ status: null, id: "ep-1" });
  });

  it("drops the top-level optional+computed id SDKv2 adds, not a nested one", () => {
    expect(config["id"]).toBeNull();
    expect((config["endpoints"] as Record<string, unknown>[])[0]!["id"]).toBe("ep-1");
  });

  it("takes an optional string (also in a dynamic attribute) holding \"\" for null; collection elements and map values stay", () => {
    expect(config["note"]).toBeNull();
    expect(config["anything"]).toBeNull();
    expect((config["rule"] as Record<string, unknown>[])[0]!["cidr"]).toBeNull();
    expect((config["endpoints"] as Record<string, unknown>[])[0]!["url"]).toBeNull();
    expect(config["names"]).toEqual(["", "x"]);
    expect(config["tags"]).toEqual({ k: "" });
  });

  it("drops deprecated attributes and blocks", () => {
    expect(config["old"]).toBeNull();
    expect(config["legacy"]).toBeNull();
  });

  it("leaves the rest as the state has it", () => {
    expect(config).toMatchObject({ name: "n", password: "hunter2", settings: [{ mode: "fast", enabled: true }] });
  });
});

describe("writtenConfig (what Terraform's writer keeps of a configuration value)", () => {
  const written = writtenConfig(schema, legacyConfigFromState(schema, state)) as Record<string, unknown>;

  it("writes a sensitive attribute as null, a sensitive single nested attribute as {}", () => {
    expect(written["password"]).toBeNull();
    expect(written["creds"]).toEqual({ user: null, token: null });
    const listSchema = block([nestedAttr("keys", "list", [opt("k", S)], { sensitive: true }), nestedAttr("byName", "map", [opt("k", S)], { sensitive: true })]);
    expect(writtenConfig(listSchema, { keys: [{ k: "a" }], byName: { x: { k: "b" } } })).toEqual({ keys: [], byName: {} });
  });

  it("re-encodes a string holding a JSON object or array as jsonencode does: sorted keys, compact, Go's HTML escapes", () => {
    expect(written["policy"]).toBe('{"a":"\\u003c\\u0026\\u003e","b":[1,2]}');
    const strings = block([opt("a", S), opt("b", S), opt("c", S), opt("d", S)]);
    expect(writtenConfig(strings, { a: "42", b: '"quoted"', c: "not json {", d: '[1e21, 0.5, {"z": null}]' })).toEqual({ a: "42", b: '"quoted"', c: "not json {", d: '[1000000000000000000000,0.5,{"z":null}]' });
  });

  it("keeps blocks element by element and leaves null blocks out", () => {
    expect(written["rule"]).toEqual([{ port: 80, cidr: null, summary: null }]);
    expect(written["legacy"]).toBeNull();
  });
});

describe("inputsFromConfig", () => {
  const model = buildProviderModel(provider({ resources: { acme_thing: schema } }), { packageName: "acme", packageVersion: "1.0.0" }).resources.get("acme_thing")!;
  const inputs = inputsFromConfig(model.properties, writtenConfig(schema, legacyConfigFromState(schema, state)));

  it("holds the inputs the configuration sets, without nulls inside objects, a max-items-1 block as one object", () => {
    expect(inputs).toEqual({
      name: "n",
      size: 3,
      policy: '{"a":"\\u003c\\u0026\\u003e","b":[1,2]}',
      tags: { k: "" },
      names: ["", "x"],
      creds: new Secret({}),
      endpoints: [{ id: "ep-1" }],
      rules: [{ port: 80 }],
      settings: { mode: "fast", enabled: true },
    });
  });
});

describe("keptForPulumi", () => {
  const written = writtenConfig(schema, legacyConfigFromState(schema, state));

  it("keeps a non-computed sensitive or deprecated value from the state (nested ones without their computed fields), so the program does not plan its removal", () => {
    const kept = keptForPulumi(schema, written, state) as Record<string, unknown>;
    expect(kept).toMatchObject({ password: "hunter2", old: "was", creds: { user: "u", token: null } });
    expect(kept["legacy"]).toBeNull(); // a deprecated block: left out, as Terraform does
  });

  it("leaves out what a default fills in again (computed) and an optional \"\"", () => {
    const s2 = block([opt("pw", S, { sensitive: true, computed: true }), opt("old", S, { deprecated: true }), req("key", S, { sensitive: true })]);
    const st = { pw: "p", old: "", key: "k" };
    expect(keptForPulumi(s2, writtenConfig(s2, legacyConfigFromState(s2, st)), st)).toEqual({ pw: null, old: null, key: "k" });
  });

  it("keeps a sensitive attribute inside a nested attribute's objects (single, list, map), element by element", () => {
    const inner = [opt("s", S), opt("sec", S, { sensitive: true }), comp("c", S)];
    const s3 = block([nestedAttr("one", "single", inner), nestedAttr("many", "list", inner), nestedAttr("keyed", "map", inner)]);
    const st = { one: { s: "a", sec: "x", c: "k" }, many: [{ s: "a", sec: "y", c: "k" }, { s: "b", sec: null, c: "k" }], keyed: { k: { s: "a", sec: "z", c: "k" } } };
    expect(keptForPulumi(s3, writtenConfig(s3, legacyConfigFromState(s3, st)), st)).toEqual({
      one: { s: "a", sec: "x", c: null },
      many: [{ s: "a", sec: "y", c: null }, { s: "b", sec: null, c: null }],
      keyed: { k: { s: "a", sec: "z", c: null } },
    });
  });
});
