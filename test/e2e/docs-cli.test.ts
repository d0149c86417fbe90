// Full docs through the real Pulumi CLI and the packaged plugin: `package get-schema` and `package gen-sdk` with
// --upstreamRepoPath after `--`, the docs record in the SDK's parameter value, and a docs warning shown to the user.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostsMissing } from "../support/languages.js";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, withLanguageHosts } from "../support/lifecycle.js";
import { peerModuleDir } from "../support/module-docs.js";
import { peerPath } from "../support/peers.js";
import { runPulumi, type RunResult } from "../support/pulumi.js";

const sandbox = e2eSandbox();

const pulumi = (args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> => runPulumi(args, { cwd: scratch("tfbridge-docs-cli-"), env });

describe("full docs through the Pulumi CLI", () => {
  it("`package get-schema terraform-provider -- <random> --upstreamRepoPath <repo>` answers the full docs", async () => {
    const r = await pulumi(["package", "get-schema", "terraform-provider", "--", peerPath("random"), "--upstreamRepoPath", peerModuleDir("random")], sandbox.env);
    expect(r.code, r.stderr).toBe(0);
    const password = (JSON.parse(r.stdout) as { resources: Record<string, { description: string }> }).resources["random:index/password:Password"]!;
    expect(password.description).toContain("This resource *does* use a cryptographic random number generator.");
    expect(password.description).toContain("pulumi import random:index/password:Password password securepassword");
  }, 120_000);

  it("a repository without docs is a warning the user sees, and the schema's short docs", async () => {
    const empty = scratch("tfbridge-docs-empty-");
    const r = await pulumi(["package", "get-schema", "terraform-provider", "--", peerPath("random"), "--upstreamRepoPath", empty], sandbox.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: --upstreamRepoPath ${empty}: ${empty} has no docs/ or website/docs/ folder`);
    expect(r.stdout).not.toContain("{{% examples %}}");
  }, 120_000);

  it.skipIf(hostsMissing())("`package gen-sdk` writes the docs into the SDK and the docs record into its parameter value", async () => {
    const out = scratch("tfbridge-docs-sdk-");
    const r = await pulumi(["package", "gen-sdk", "--language", "nodejs", "--out", out, "terraform-provider", "--", peerPath("random"), "--upstreamRepoPath", peerModuleDir("random")], withLanguageHosts(sandbox.env));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(out, "nodejs", "password.ts"), "utf8")).toContain("     * Minimum number of uppercase alphabet characters in the result. Default value is `0`.");
    const pkg = JSON.parse(readFileSync(join(out, "nodejs", "package.json"), "utf8")) as { pulumi: { parameterization: { value: string } } };
    expect(JSON.parse(Buffer.from(pkg.pulumi.parameterization.value, "base64").toString("utf8"))).toEqual({
      local: { path: peerPath("random") },
      docs: { upstreamRepoPath: peerModuleDir("random") },
    });
  }, 120_000);
});
