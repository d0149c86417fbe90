// TypeRegistry's rebuilds: which parts of a model built again are replayed from the earlier build and which are built afresh.
import { describe, expect, it } from "vitest";
import type { ObjectTypeModel, PropertyModel } from "../../src/schema-translate/model.js";
import { EntityMemo, TypeRegistry } from "../../src/schema-translate/names.js";
import { block, comp, nested, opt, provider, S, N, B } from "../support/tf-schema.js";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";

/** An object type whose shape is its property names (each a required string). */
function type(token: string, ...names: string[]): ObjectTypeModel {
  return { token, description: "", properties: names.map((name) => ({ name, required: true, type: { kind: "string" } }) as unknown as PropertyModel) };
}

/** Declares `t` as registerType does when it keeps the plain token. */
function declare(r: TypeRegistry, t: ObjectTypeModel): ObjectTypeModel {
  r.mayTakePlain(t.token, t);
  return r.share(t);
}

describe("TypeRegistry rebuilds", () => {
  // Parts, in order: a declares T with one shape, b declares U only, c declares T with another shape (so T is
  // contested) and W, d declares W alike (shares it with c's).
  const keys = { a: {}, b: {}, c: {}, d: {} };
  function build(r: TypeRegistry, built: string[]): Record<string, ObjectTypeModel> {
    const part = (name: keyof typeof keys, make: () => ObjectTypeModel) =>
      r.entity(keys[name], "part", () => {
        built.push(name);
        return make();
      });
    return {
      a: part("a", () => declare(r, type("T", "x"))),
      b: part("b", () => declare(r, type("U", "u"))),
      c: part("c", () => (declare(r, type("W", "w")), declare(r, type("T", "y")))),
      d: part("d", () => declare(r, type("W", "w"))),
    };
  }

  it("replays a part that touched no contested token, and rebuilds those that did and what shares a token with them", () => {
    const memo = new EntityMemo();
    const first: string[] = [];
    const r1 = new TypeRegistry(new Map(), memo);
    const one = build(r1, first);
    expect(first).toEqual(["a", "b", "c", "d"]);
    const owners = r1.contested();
    expect([...owners.keys()]).toEqual(["T"]);

    const second: string[] = [];
    const r2 = new TypeRegistry(owners, memo);
    const two = build(r2, second);
    // b is replayed: not built, the same object, registered again; d is rebuilt because c, rebuilt, touched W.
    expect(second).toEqual(["a", "c", "d"]);
    expect(two.b).toBe(one.b);
    expect(r2.get("U")).toBe(one.b);
    expect(two.a).not.toBe(one.a);
    expect(r2.get("W")).toBe(two.d);
    expect(r2.contested()).toEqual(owners);
    expect([...r2.keys()]).toEqual([...r1.keys()]);
  });

  it("rebuilds every part when nothing was recorded for it, and replays nothing across memos", () => {
    const built: string[] = [];
    build(new TypeRegistry(new Map(), new EntityMemo()), []);
    build(new TypeRegistry(new Map(), new EntityMemo()), built);
    expect(built).toEqual(["a", "b", "c", "d"]);
  });

  it("a provider with contested names gives the same schema however its rebuild reuses parts", () => {
    // ABC is declared by acme_a's b_c and acme_a_b's c with different shapes: the model is built again, acme_q and
    // acme_z (nothing contested) replayed, acme_a and acme_a_b rebuilt; the plain name is the last declaration's.
    const schema = provider({
      resources: {
        acme_a: block([comp("id", S)], [nested("b_c", "single", block([opt("x", N)]))]),
        acme_q: block([comp("id", S)], [nested("r", "list", block([opt("s", S)]))]),
        acme_a_b: block([comp("id", S)], [nested("c", "single", block([opt("y", S)], [nested("qux", "single", block([opt("z", B)]))]))]),
        acme_z: block([comp("id", S)], [nested("y", "single", block([opt("v", S)]))]),
      },
    });
    const render = () =>
      JSON.stringify(
        renderPackageSchema(buildProviderModel(schema, { packageName: "acme", packageVersion: "1.0.0" }), {
          bridgeVersion: "0.1.0",
          parameter: Buffer.from("{}"),
          source: { kind: "local", path: "/x/terraform-provider-acme", type: "acme" },
        }),
      );
    const schemaJson = JSON.parse(render()) as { types: Record<string, unknown>; resources: Record<string, { properties: Record<string, { $ref?: string }> }> };
    expect(Object.keys(schemaJson.types).sort()).toEqual(["acme:index/ABC:ABC", "acme:index/ABCQux:ABCQux", "acme:index/ABCV2:ABCV2", "acme:index/QR:QR", "acme:index/ZY:ZY"]);
    expect(schemaJson.resources["acme:index/a:A"]!.properties["bC"]!.$ref).toBe("#/types/acme:index%2FABCV2:ABCV2");
    expect(schemaJson.resources["acme:index/aB:AB"]!.properties["c"]!.$ref).toBe("#/types/acme:index%2FABC:ABC");
  });
});

describe("lazy provider models (a program's run)", () => {
  const schema = provider({
    resources: {
      acme_a: block([comp("id", S)], [nested("b_c", "single", block([opt("x", N)]))]),
      acme_a_b: block([comp("id", S)], [nested("c", "single", block([opt("y", S)], [nested("qux", "single", block([opt("z", B)]))]))]),
    },
    dataSources: { acme_a: block([comp("id", S), opt("filter", S)], [nested("b_c", "list", block([opt("x", N)]))]) },
  });
  const options = { packageName: "acme", packageVersion: "1.0.0" };
  /** A property tree without type tokens: what conversions and names depend on. */
  const shape = (props: readonly PropertyModel[]): unknown =>
    props.map((p) => {
      const t = p.type.kind === "array" ? p.type.items : p.type.kind === "map" ? p.type.values : p.type;
      return [p.tfName, p.name, p.required, p.secret, p.type.kind, t.kind === "object" ? shape(t.ref.properties) : t.kind];
    });

  it("builds a resource's or data source's properties when first read, the same but for type tokens as the package's model", () => {
    const full = buildProviderModel(schema, options);
    const lazy = buildProviderModel(schema, { ...options, lazy: true });
    expect(lazy.lazy).toBe(true);
    expect(full.lazy).toBeUndefined();
    // Nothing of the resources' or data sources' types is registered until they are read.
    expect(lazy.types.size).toBe(0);
    expect(full.types.size).toBeGreaterThan(0);
    for (const tf of ["acme_a", "acme_a_b"]) {
      expect(lazy.resources.get(tf)!.token).toBe(full.resources.get(tf)!.token);
      expect(shape(lazy.resources.get(tf)!.properties)).toEqual(shape(full.resources.get(tf)!.properties));
    }
    expect(shape(lazy.dataSources.get("acme_a")!.properties)).toEqual(shape(full.dataSources.get("acme_a")!.properties));
    // Read twice, the same objects: built once.
    expect(lazy.resources.get("acme_a")!.properties).toBe(lazy.resources.get("acme_a")!.properties);
  });

  it("takes no docs: it is never rendered", () => {
    expect(() => buildProviderModel(schema, { ...options, lazy: true, docs: { resources: new Map(), dataSources: new Map(), ephemeralResources: new Map(), functions: new Map() } as never })).toThrow(/lazy provider model takes no docs/);
  });
});
