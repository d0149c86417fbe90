// Every stage at full size, in CI: the giant schema dumps served by the replay peer through the packaged plugin and the
// real CLI; Parameterize + GetSchema, `pulumi package gen-sdk`, and the SDK compiled (tsc, py_compile plus mypy on a
// sample, go build, Maven) or a YAML program previewed (test/support/giants-matrix.ts). kubernetes and cloudflare whole
// in every language; aws, azurerm and google whole in TypeScript and a slice (--include of SLICE resources spread over
// the provider) in the others, as they would not fit this machine's 24 GB whole in Go and Java. `npm run giants` runs
// the whole matrix and prints its figures (docs/performance.md).
//
// The Go SDK is one package that one compile process builds: kubernetes' takes 13.5 GB (optimizations and inlining
// off, goBuild), cloudflare's ~9 GB. The cases of this file run one after another, so no other giant compile runs
// beside it; what runs in the other test worker is far smaller.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giants, giantsDir, giantsPresent } from "../support/giants.js";
import { dumpResources, ensureMypy, formatResult, GiantRun, LANGUAGES, RESULT_HEADER, sampleResources, type Language, type LanguageResult } from "../support/giants-matrix.js";
import { hostsMissing, javaHostMissing, javaSandbox } from "../support/languages.js";
import type { PulumiSandbox } from "../support/pulumi.js";

/** Resources per slice: enough to reach nested types, data sources of the same names and the provider's config. */
const SLICE = 12;

/** What each giant compiles whole; the rest is sliced. */
const WHOLE: Record<string, readonly Language[]> = {
  kubernetes: LANGUAGES,
  cloudflare: LANGUAGES,
  aws: ["nodejs"],
  azurerm: ["nodejs"],
  google: ["nodejs"],
};

const figures: LanguageResult[] = [];

it("finds the five giant schema dumps", () => {
  expect(giantsPresent, `the schema dumps are not all in ${giantsDir}; set TF_BRIDGE_GIANT_SCHEMAS to their directory`).toBe(true);
});

describe.skipIf(!giantsPresent || hostsMissing() || javaHostMissing())("every stage of the giants' SDKs", () => {
  let sandbox: PulumiSandbox;
  let work: string;

  beforeAll(() => {
    ensureMypy();
    sandbox = javaSandbox();
    work = mkdtempSync(join(tmpdir(), "tfbridge-giants-sdks-"));
  }, 900_000);

  afterAll(() => {
    sandbox?.cleanup();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
    console.log([RESULT_HEADER, ...figures.map(formatResult)].join("\n"));
  });

  describe.each(giants.map((g) => [g.name, g] as const))("%s", (_name, giant) => {
    let run: GiantRun;
    let sliceNames: string[];

    beforeAll(() => {
      run = new GiantRun(giant, sandbox.env, work);
      sliceNames = sampleResources(dumpResources(giant), SLICE);
    });
    afterAll(() => run?.cleanup());

    it.each(LANGUAGES.map((l) => [l]))("%s", async (language) => {
      const whole = WHOLE[giant.name]!.includes(language);
      const slice = whole ? undefined : sliceNames;
      const [figure, schema] = await run.schema(slice);
      // The slice is what --include names: each named resource maps, no other.
      if (slice !== undefined) expect(figure.resources).toBe(slice.length);
      else expect(figure.resources).toBe(dumpResources(giant).length);
      const r = await run.language(language, slice, schema);
      figures.push(r);
      console.log(formatResult(r));
      expect(r.error, `${giant.name} ${language}`).toBeUndefined();
      expect(r.ok).toBe(true);
      if (language !== "yaml") expect(r.sdkBytes).toBeGreaterThan(0);
    }, 1_200_000);
  });
});
