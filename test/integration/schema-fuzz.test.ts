// A fixed sample of the hostile schemas test/unit/schema-fuzz.test.ts translates, given as schema files to Pulumi's own
// `pulumi package gen-sdk` for TypeScript and Python: each binds (Pulumi's schema checker: tokens, reserved names) and
// generates with no diagnostics. The SDKs are not compiled here: Pulumi's generators do not escape a few words in some
// places (a function or config variable named `default` in TypeScript, a function argument `opts` in Python), which
// the reference bridge emits alike; the real peers' SDKs are compiled in golden.test.ts and gen-sdk.test.ts.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildProviderModel, renderPackageSchema } from "../../src/schema-translate/index.js";
import { SchemaTranslationError } from "../../src/schema-translate/build.js";
import { arbHostileProvider, packageSchemaProblems } from "../support/hostile-schema.js";
import { hostsMissing } from "../support/languages.js";
import { genSdkDiagnostics, removeScratch, scratch, withLanguageHosts } from "../support/lifecycle.js";
import { runPulumi } from "../support/pulumi.js";

afterAll(() => removeScratch());

const SAMPLE = 5;

/** The first SAMPLE schemas of a fixed seed that translate, each with at least one resource, rendered. */
function sample(): { schema: Record<string, unknown>; resources: number; types: number }[] {
  const out: { schema: Record<string, unknown>; resources: number; types: number }[] = [];
  for (const p of fc.sample(arbHostileProvider, { seed: 34, numRuns: 200 })) {
    if (out.length === SAMPLE) break;
    let model: ReturnType<typeof buildProviderModel>;
    try {
      model = buildProviderModel(p, { packageName: "acme", packageVersion: "1.0.0" });
    } catch (e) {
      if (e instanceof SchemaTranslationError) continue;
      throw e;
    }
    if (model.resources.size === 0) continue;
    const schema = renderPackageSchema(model, { bridgeVersion: "0.1.0", parameter: Buffer.from("{}"), source: { kind: "local", path: "/x", type: "acme" } }) as Record<string, unknown>;
    out.push({ schema, resources: model.resources.size, types: model.types.size });
  }
  return out;
}

describe.skipIf(hostsMissing())("hostile schemas through pulumi package gen-sdk", () => {
  const schemas = sample();

  it(`samples ${SAMPLE} translated schemas with resources and nested types`, () => {
    expect(schemas).toHaveLength(SAMPLE);
    expect(schemas.reduce((n, s) => n + s.types, 0)).toBeGreaterThan(SAMPLE);
    for (const s of schemas) expect(packageSchemaProblems(s.schema)).toEqual([]);
  });

  it.each(schemas.map((s, i) => [i, s] as const))("sample %i: gen-sdk binds it and writes nodejs and python with no diagnostics", async (i, { schema }) => {
    const dir = scratch(`tfbridge-schema-fuzz-${i}-`);
    const file = join(dir, "schema.json");
    writeFileSync(file, JSON.stringify(schema, null, 2));
    mkdirSync(join(dir, "home"));
    const env = withLanguageHosts({ ...process.env, PULUMI_HOME: join(dir, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" });
    for (const language of ["nodejs", "python"]) {
      const r = await runPulumi(["package", "gen-sdk", file, "--language", language, "--out", join(dir, "sdk")], { cwd: dir, env });
      expect(r.code, `${file}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(genSdkDiagnostics(r.stdout + "\n" + r.stderr), `${file} ${language} diagnostics`).toEqual([]);
    }
    expect(existsSync(join(dir, "sdk", "nodejs", "index.ts")) && existsSync(join(dir, "sdk", "python", "pulumi_acme", "__init__.py"))).toBe(true);
  }, 180_000);
});
