// Random hostile Terraform schemas through schema translation: each ends in a SchemaTranslationError or a package
// schema whose tokens and names every SDK can declare, and whose colliding names still convert values one to one.
// The seed is fixed (34, 300 runs); FUZZ_SEED and FUZZ_RUNS explore further by hand.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { SchemaTranslationError } from "../../src/schema-translate/build.js";
import { fromTfObject, toTfObject } from "../../src/bridge/property-cty.js";
import type { PropertyModel } from "../../src/schema-translate/model.js";
import { arbHostileProvider, packageSchemaProblems } from "../support/hostile-schema.js";

/** Every object's properties (the entities' own and every named type's) in a model. */
function propertySets(model: ReturnType<typeof buildProviderModel>): PropertyModel[][] {
  return [
    model.config,
    model.configVariables,
    ...[...model.resources.values()].map((r) => r.properties),
    ...[...model.dataSources.values()].map((d) => d.properties),
    ...[...model.ephemeralResources.values()].map((d) => d.properties),
    ...[...model.types.values()].map((t) => t.properties),
  ];
}

describe("schema translation of hostile schemas", () => {
  it("is a SchemaTranslationError or a schema every SDK can declare, never another error", () => {
    let translated = 0;
    let refused = 0;
    fc.assert(
      fc.property(arbHostileProvider, (schema) => {
        const warnings: string[] = [];
        let model: ReturnType<typeof buildProviderModel>;
        try {
          model = buildProviderModel(schema, { packageName: "acme", packageVersion: "1.0.0", warn: (m) => warnings.push(m) });
        } catch (e) {
          if (!(e instanceof SchemaTranslationError)) throw e;
          expect(e.message).toMatch(/^acme: /);
          refused++;
          return;
        }
        translated++;
        for (const w of warnings) expect(w).toMatch(/^acme: (resource|data source|ephemeral resource|function) .* is left out of the Pulumi package: .*; tell its authors, or --exclude /);
        const rendered = renderPackageSchema(model, { bridgeVersion: "0.1.0", parameter: Buffer.from("{}"), source: { kind: "local", path: "/x", type: "acme" } }) as Record<string, unknown>;
        expect(packageSchemaProblems(rendered)).toEqual([]);
        // One value per attribute each way: every Pulumi name reaches its own Terraform attribute and comes back.
        for (const props of propertySets(model)) {
          const plain = props.filter((p) => p.type.kind === "string" && !p.maxItemsOne && p.block === undefined);
          const values = Object.fromEntries(plain.map((p, i) => [p.name, `v${i}`]));
          const tf = toTfObject(plain, values);
          expect(Object.fromEntries(plain.map((p) => [p.tfName, tf[p.tfName]]))).toEqual(Object.fromEntries(plain.map((p, i) => [p.tfName, `v${i}`])));
          const back = fromTfObject(plain, tf);
          for (const p of plain) expect(back[p.name] instanceof Object ? (back[p.name] as { value: unknown }).value : back[p.name]).toBe(values[p.name]);
        }
      }),
      { seed: Number(process.env["FUZZ_SEED"] ?? 34), numRuns: Number(process.env["FUZZ_RUNS"] ?? 300) },
    );
    // Both outcomes happen, so neither check above is vacuous.
    expect(translated).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
  });
});
