// A sample of the further real schemas (shared/schemas/more, test/integration/more-schemas.test.ts reads all 66)
// through every stage in TypeScript: the replay peer serving the dump, `pulumi package get-schema` and `gen-sdk` through
// our plugin and the real CLI, and tsc. Two small recent providers, so that CI pays seconds for it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moreDir, morePresent, type Giant } from "../support/giants.js";
import { formatResult, GiantRun } from "../support/giants-matrix.js";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import type { PulumiSandbox } from "../support/pulumi.js";

const SAMPLE: Giant[] = [
  { name: "helm", file: join(moreDir, "helm-3.1.1.json.gz") },
  { name: "azuread", file: join(moreDir, "azuread-3.7.0.json.gz") },
];

it("finds the further schema dumps", () => {
  expect(morePresent, "shared/schemas/more is missing; set TF_BRIDGE_GIANT_SCHEMAS to the schemas directory").toBe(true);
});

describe.skipIf(!morePresent || hostsMissing())("TypeScript SDKs of further real schemas", () => {
  let sandbox: PulumiSandbox;
  let work: string;
  beforeAll(() => {
    sandbox = languageSandbox();
    work = mkdtempSync(join(tmpdir(), "tfbridge-more-sdks-"));
  });
  afterAll(() => {
    sandbox?.cleanup();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it.each(SAMPLE.map((g) => [g.name, g] as const))("%s", async (_name, giant) => {
    const run = new GiantRun(giant, sandbox.env, work);
    try {
      const [figure, schema] = await run.schema();
      expect(figure.resources).toBeGreaterThan(0);
      const r = await run.language("nodejs", undefined, schema);
      console.log(formatResult(r));
      expect(r.error).toBeUndefined();
      expect(r.ok).toBe(true);
      expect(r.sdkBytes).toBeGreaterThan(0);
    } finally {
      run.cleanup();
    }
  }, 600_000);
});
