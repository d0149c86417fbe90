// `npm run giants`: every stage for each giant schema dump (test/support/giants-matrix.ts) through the packaged plugin
// and the real CLI, one stage at a time (a giant's compile can take most of the machine's memory), printing a Markdown
// table of times, peak RSS and SDK sizes for docs/performance.md.
//
//   npm run giants -- [--giants kubernetes,cloudflare] [--languages nodejs,go (empty: the schema stage only)] [--slice go=40,java=40] [--whole]
//                     [--json results.jsonl]   (each result appended as one JSON line, error output included)
//
// --slice <language>=<n> compiles that language from an --include of n resources spread over the provider (default:
// go and java sliced to 40 on aws, azurerm and google: Go does not fit this machine whole, and aws's Java fails on a
// 256-byte file name; --whole lifts it).
// GIANTS_GO_ENV ("GOMEMLIMIT=6GiB GOGC=50") and GIANTS_GO_FLAGS ("-p 1 -gcflags='all=-N -l'", the default being the
// quoted flag alone; "" for Go's own) set the Go compile's environment and `go build` flags (goBuild in
// test/support/giants-matrix.ts).
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { giants, giantsDir, giantsPresent } from "../test/support/giants.js";
import { dumpResources, ensureMypy, formatResult, GiantRun, LANGUAGES, RESULT_HEADER, sampleResources, type Language } from "../test/support/giants-matrix.js";
import { javaSandbox, languageSandbox } from "../test/support/languages.js";

const { values } = parseArgs({
  options: { giants: { type: "string" }, languages: { type: "string" }, slice: { type: "string" }, json: { type: "string" }, whole: { type: "boolean", default: false } },
});
const BIG_THREE = new Set(["aws", "azurerm", "google"]);
const wantedGiants = values.giants?.split(",") ?? giants.map((g) => g.name);
const wantedLanguages = (values.languages?.split(",").filter((l) => l !== "") ?? [...LANGUAGES]) as Language[];
for (const l of wantedLanguages) if (!(LANGUAGES as readonly string[]).includes(l)) throw new Error(`unknown language "${l}"; the languages are ${LANGUAGES.join(", ")}`);
const slices = new Map(Object.entries(Object.fromEntries((values.slice ?? "").split(",").filter((s) => s !== "").map((s) => s.split("=") as [string, string]))).map(([k, v]) => [k, Number(v)]));

if (!giantsPresent) {
  console.error(`the schema dumps are not in ${giantsDir} (TF_BRIDGE_GIANT_SCHEMAS names another directory)`);
  process.exit(2);
}
if (wantedLanguages.includes("python")) ensureMypy();
// The Java host beside the others only when Java is wanted (building it needs Go, Java and Maven).
const sandbox = wantedLanguages.includes("java") ? javaSandbox() : languageSandbox();
const work = mkdtempSync(join(tmpdir(), "tfbridge-giants-matrix-"));
const schemaLines: string[] = [];
const lines: string[] = [];
let failed = 0;
try {
  for (const g of giants.filter((x) => wantedGiants.includes(x.name))) {
    const run = new GiantRun(g, sandbox.env, work);
    try {
      const [s, schema] = await run.schema();
      const line = `| ${g.name} | ${s.resources} | ${s.functions} | ${s.types} | ${(s.bytes / 1048576).toFixed(1)} MiB | ${(s.stage.ms / 1000).toFixed(1)} s | ${s.stage.cliMiB} | ${s.stage.pluginMiB} |`;
      schemaLines.push(line);
      console.error(`schema ${line}`);
      for (const language of wantedLanguages) {
        const n = slices.get(language) ?? (!values.whole && BIG_THREE.has(g.name) && (language === "go" || language === "java") ? 40 : undefined);
        const slice = n === undefined ? undefined : sampleResources(dumpResources(g), n);
        const sliced = slice === undefined ? schema : (await run.schema(slice))[1];
        const r = await run.language(language, slice, sliced);
        lines.push(formatResult(r));
        if (values.json !== undefined) appendFileSync(values.json, `${JSON.stringify(r)}\n`);
        console.error(formatResult(r));
        if (!r.ok) {
          failed++;
          console.error(r.error);
        }
      }
    } finally {
      run.cleanup();
    }
  }
} finally {
  sandbox.cleanup();
  rmSync(work, { recursive: true, force: true });
}
console.log("| provider | resources | functions | types | schema size | Parameterize + GetSchema (`pulumi package get-schema`) | CLI peak RSS MiB | plugin peak RSS MiB |");
console.log("|---|--:|--:|--:|--:|--:|--:|--:|");
console.log(schemaLines.join("\n"));
console.log();
console.log(RESULT_HEADER);
console.log(lines.join("\n"));
process.exit(failed > 0 ? 1 : 0);
