// A Terraform provider's warnings and log lines as the real Pulumi CLI shows them (a YAML project): a deprecation
// warning (random_string's `number`) and a warning of an apply (bridgetest's, asked for by BRIDGETEST_WARN) are each one
// warning, on the resource, in `preview --json` and in `up --json`'s events; the provider's own log lines (the
// framework's "Response contains warning diagnostic", a provider's `[WARN] …` line) are no warning, shown by --debug.
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const PROGRAM = [
  "resources:",
  "  s:",
  "    type: random:index/string:String",
  "    properties:",
  "      length: 8",
  "      number: true",
  "  o:",
  "    type: bridgetest:index/objectResource:ObjectResource",
  "    properties:",
  "      name: warned",
].join("\n");

// `preview --json` puts the severity before the message; `up --json`'s events have it apart.
const DEPRECATED = /^(?:warning: )?random_string: Attribute Deprecated: \*\*NOTE\*\*: This is deprecated, use `numeric` instead\. \(at number\)\s*$/;
const APPLY_WARNING = /^(?:warning: )?bridgetest_object: bridgetest: warning in create: asked for by BRIDGETEST_WARN\s*$/;
/** The provider log lines of these two providers that Pulumi must not show as warnings or errors. */
const PROVIDER_LOG = /Response contains warning diagnostic|bridgetest: logged in create/;

interface Diagnostic {
  urn?: string;
  message: string;
  severity: string;
}

/** The diagnostic events of `pulumi up --json`'s event stream (one engine event a line). */
function diagnosticEvents(stdout: string): Diagnostic[] {
  return stdout
    .split("\n")
    .filter((line) => line.includes('"diagnosticEvent"'))
    .map((line) => (JSON.parse(line) as { diagnosticEvent: Diagnostic }).diagnosticEvent);
}

describe("a provider's warnings and log lines through the CLI", () => {
  it("each warning once, on its resource; the provider's log lines are debug output only", async () => {
    const stateDir = scratch("tfbridge-diag-state-");
    const s = await YamlScenario.create(sandbox, "diag", ["random", "bridgetest"], { BRIDGETEST_WARN: "create", BRIDGETEST_STATE_DIR: stateDir });
    s.program(PROGRAM);
    const stringUrn = "urn:pulumi:dev::diag::random:index/string:String::s";
    const objectUrn = "urn:pulumi:dev::diag::bridgetest:index/objectResource:ObjectResource::o";

    // A preview validates and plans: the deprecation is the one warning.
    const preview = await s.preview();
    const previewWarnings = (preview.diagnostics ?? []).filter((d) => d.severity === "warning");
    expect(previewWarnings).toEqual([{ urn: stringUrn, message: expect.stringMatching(DEPRECATED), severity: "warning" }]);
    expect((preview.diagnostics ?? []).filter((d) => PROVIDER_LOG.test(d.message))).toEqual([]);

    const up = await s.ok(["up", "--yes", "--skip-preview", "--json"]);
    const events = diagnosticEvents(up.stdout);
    const shown = events.filter((d) => d.severity !== "debug");
    // The resources are checked and created side by side: their warnings come in either order.
    const upWarnings = shown.filter((d) => d.severity === "warning").sort((a, b) => (a.urn ?? "").localeCompare(b.urn ?? ""));
    expect(upWarnings.map(({ urn, message }) => ({ urn, message }))).toEqual([
      { urn: objectUrn, message: expect.stringMatching(APPLY_WARNING) },
      { urn: stringUrn, message: expect.stringMatching(DEPRECATED) },
    ]);
    expect(shown.filter((d) => PROVIDER_LOG.test(d.message))).toEqual([]);

    // Asked for with --debug, the provider's log lines are there, as debug lines.
    const debug = await s.ok(["preview", "--debug"]);
    expect(debug.stdout).toMatch(/debug: .*random: Response contains warning diagnostic/);
    await s.ok(["destroy", "--yes", "--skip-preview"]);
  }, 900_000);
});
