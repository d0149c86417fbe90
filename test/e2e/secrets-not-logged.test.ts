// Secrets never reach our logs: `pulumi up`, `refresh` and `destroy` at the engine's most verbose (-v=9 --logtostderr
// --logflow) with TF_LOG=TRACE and the call recording on (PULUMI_TF_DEBUG_GRPC), on a program with every kind of
// secret (sensitive provider configuration, a sensitive attribute, a write-only attribute, a program secret in a plain
// attribute, a provider-generated secret); every line that holds one is listed and must be the engine's own.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { pulumisOwn, scratch, YamlScenario } from "../support/lifecycle.js";

const sandbox = e2eSandbox();

const mark = (what: string): string => `${what}-${randomBytes(6).toString("hex")}`;

describe("secrets at the most verbose logging", () => {
  it("appear in no line of ours: not in the plugin's logs, not in the provider's forwarded logs, not in the recording", async () => {
    const secrets = {
      apiToken: mark("tok"),
      sensitive: mark("sens"),
      writeOnly: mark("wo"),
      programSecret: mark("prog"),
    };
    const stateDir = scratch("tfbridge-secrets-state-");
    const recording = join(scratch("tfbridge-secrets-rec-"), "calls.jsonl");
    const s = await YamlScenario.create(sandbox, "secrets-logged", ["bridgetest", "random"], {
      TF_LOG: "TRACE",
      PULUMI_TF_DEBUG_GRPC: recording,
    });
    s.program(
      [
        "resources:",
        "  prov:",
        "    type: pulumi:providers:bridgetest",
        "    properties:",
        `      stateDir: ${stateDir}`,
        `      apiToken: ${secrets.apiToken}`,
        "  obj:",
        "    type: bridgetest:index/objectResource:ObjectResource",
        "    properties:",
        "      name: secret-holder",
        `      secret: ${secrets.sensitive}`,
        `      writeOnlySecret: ${secrets.writeOnly}`,
        "      mapValue:",
        "        a:",
        `          fn::secret: ${secrets.programSecret}`,
        "    options:",
        "      provider: ${prov}",
        "  pw:",
        "    type: random:index/password:Password",
        "    properties:",
        "      length: 24",
        "outputs:",
        "  pw: ${pw.result}",
      ].join("\n"),
    );
    const verbose = ["-v=9", "--logtostderr", "--logflow"];
    const logs: string[] = [];
    for (const args of [["up", "--yes", "--skip-preview"], ["refresh", "--yes", "--skip-preview"]]) {
      const r = await s.ok([...args, ...verbose], 600_000);
      logs.push(r.stdout, r.stderr);
    }
    const generated = String(((await s.outputs(true)) as Record<string, unknown>)["pw"]);
    expect(generated).toHaveLength(24);
    const d = await s.ok(["destroy", "--yes", "--skip-preview", ...verbose], 600_000);
    logs.push(d.stdout, d.stderr);
    const recorded = readFileSync(recording, "utf8");
    // A check that looks at nothing proves nothing: our plugin's messages, the provider's TRACE lines and the
    // recorded calls are all there to be searched.
    const text = logs.join("\n");
    expect(text).toMatch(/parameterized as bridgetest 0\.0\.0/);
    expect(text).toMatch(/bridgetest: creating object .*tf_rpc=ApplyResourceChange/);
    expect(recorded).toMatch(/"method":"ApplyResourceChange"/);

    const all = { ...secrets, generated };
    const report: string[] = [];
    for (const [what, value] of Object.entries(all)) {
      expect(recorded, `${what} in the recording`).not.toContain(value);
      const hits = text.split("\n").filter((l) => l.includes(value));
      expect(hits.filter((l) => !pulumisOwn(l)), `${what} outside Pulumi's own RPC tracing`).toEqual([]);
      report.push(`${what}: ${hits.length} lines of Pulumi's RPC tracing`);
      for (const h of hits.slice(0, 2)) report.push(`  ${h.replace(value, "<SECRET>").trim().slice(0, 200)}`);
    }
    console.log(`secrets in Pulumi's own -v=9 lines (the engine's and the YAML host's RPC tracing):\n${report.join("\n")}`);
  }, 900_000);
});
