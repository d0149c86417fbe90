// `adopt` against OpenTofu: OpenTofu applies a configuration over the real local and random peers, the commands of
// docs/moving-from-terraform.md adopt its state into a stack and preview with no changes, and then the same
// change made on both sides plans the same actions; the same state as `tofu show -json` output adopts alike.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { e2eSandbox } from "../support/e2e-sandbox.js";
import { scratch, type PreviewJson } from "../support/lifecycle.js";
import { peerPath, repoRoot } from "../support/peers.js";
import { devOverridesEnv } from "../support/terraform-cli.js";
import { spawnAsync } from "../support/processes.js";
import { runPulumi } from "../support/pulumi.js";
import { VERSION } from "../../src/version.js";
import { ADOPT_CONFIG, writeAdoptProject } from "../support/adopt-project.js";

const sandbox = e2eSandbox();

const CONFIG = `${ADOPT_CONFIG}data "local_file" "d" {
  filename = local_file.f[0].filename
}
`;

/** The doc's commands, with its registry packages given as the peers (no registry here). */
function docCommands(): string[] {
  const doc = readFileSync(join(repoRoot, "docs/moving-from-terraform.md"), "utf8");
  const block = /<!-- adopt run -->\n```sh\n([\s\S]*?)```/.exec(doc)?.[1];
  if (block === undefined) throw new Error("docs/moving-from-terraform.md has no `<!-- adopt run -->` block");
  return block
    .trim()
    .split("\n")
    .map((l) => l.replace(/^pulumi package add (terraform-provider(?:@[\w.-]+)?) hashicorp\/(\w+) [\d.]+$/, (_, plugin: string, type: string) => `pulumi package add ${plugin} ${peerPath(type)}`));
}

/** The doc's Pulumi.yaml, which its reader makes before the commands. */
function docProject(): string {
  const doc = readFileSync(join(repoRoot, "docs/moving-from-terraform.md"), "utf8");
  const block = /<!-- adopt project -->\n```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
  if (block === undefined) throw new Error("docs/moving-from-terraform.md has no `<!-- adopt project -->` block");
  return block;
}

function tofu(dir: string, env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(join(repoRoot, ".peers/tofu"), [...args, "-no-color"], { cwd: dir, env, encoding: "utf8" });
}

describe("adopt: an OpenTofu state into a Pulumi stack", () => {
  it("adopts every managed instance, previews clean, and plans the same change as OpenTofu", async () => {
    const root = scratch("tfbridge-adopt-");
    const infra = join(root, "infra");
    const proj = join(root, "proj");
    writeAdoptProject(infra, CONFIG);
    mkdirSync(proj);
    const pulumi = (args: string[]) => runPulumi(args, { cwd: proj, env: sandbox.env });
    const tfEnv = devOverridesEnv(root, { "hashicorp/local": "local", "hashicorp/random": "random" });
    tofu(infra, tfEnv, ["get"]); // the module; the providers come from dev_overrides
    tofu(infra, tfEnv, ["apply", "-auto-approve"]);
    const stateBefore = readFileSync(join(infra, "terraform.tfstate"), "utf8");

    writeFileSync(join(proj, "Pulumi.yaml"), docProject());
    let adoptOutput = "";
    for (const line of docCommands()) {
      const r = await spawnAsync("bash", ["-c", line], { cwd: proj, env: sandbox.env });
      expect(r.status, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      if (line.includes(" adopt ")) adoptOutput = r.stdout;
    }
    // The state file is only read.
    expect(readFileSync(join(infra, "terraform.tfstate"), "utf8")).toBe(stateBefore);
    const adopted = new Map([...adoptOutput.matchAll(/^adopted (.+) as \S+ (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(Object.fromEntries(adopted)).toEqual({
      "local_file.f[0]": "f-0",
      "local_file.f[1]": "f-1",
      "local_sensitive_file.s": "s",
      "random_password.pw": "pw",
      'random_pet.pet["a"]': "pet-a",
      'random_pet.pet["b c"]': "pet-b_c",
      "module.m.random_id.i": "m-i",
    });
    expect(adoptOutput).toMatch(/^not adopted data\.local_file\.d: a data source/m);

    // The exact state: the password's result is a secret, and the stack holds OpenTofu's values.
    const exported = JSON.parse((await pulumi(["stack", "export", "--show-secrets"])).stdout) as {
      deployment: { resources: { urn: string; id?: string; outputs?: Record<string, unknown> }[] };
    };
    const tfState = JSON.parse(stateBefore) as { resources: { type: string; name: string; instances: { attributes: Record<string, unknown> }[] }[] };
    const pw = tfState.resources.find((r) => r.type === "random_password")!.instances[0]!.attributes;
    const pwOut = exported.deployment.resources.find((r) => r.urn.endsWith("::pw"))!;
    expect(pwOut.id).toBe(pw["id"]);
    const result = pwOut.outputs?.["result"] as { plaintext?: string } | undefined;
    expect(JSON.parse(result?.plaintext ?? "null")).toBe(pw["result"]);

    // A sensitive input is not in the code: the code reads it from the stack's secret configuration, which adopt set.
    const main0 = readFileSync(join(proj, "Main.yaml"), "utf8");
    expect(main0).not.toContain(String(pw["result"]));
    expect(adoptOutput).toMatch(/^the code reads 1 sensitive values from the stack's secret configuration \(set\): local_sensitive_file_s_content$/m);
    const stackConfig = readFileSync(join(proj, "Pulumi.dev.yaml"), "utf8");
    expect(stackConfig).toMatch(/adopted:local_sensitive_file_s_content:\n\s+secure: /);
    expect(stackConfig).not.toContain(String(pw["result"]));
    const configured = await pulumi(["config", "get", "local_sensitive_file_s_content"]);
    expect(configured.stdout.trim()).toBe(pw["result"]);

    // The same change on both sides: a file's content (local_file replaces) and the module's byte_length (replaces).
    writeAdoptProject(infra, CONFIG.replace('"hello ', '"changed '), 8);
    tofu(infra, tfEnv, ["plan", "-out=plan.bin"]);
    const plan = JSON.parse(tofu(infra, tfEnv, ["show", "-json", "plan.bin"])) as { resource_changes: { address: string; mode: string; change: { actions: string[] } }[] };
    const main = readFileSync(join(proj, "Main.yaml"), "utf8");
    writeFileSync(join(proj, "Main.yaml"), main.replace(/content: hello /g, "content: changed ").replace("byteLength: 4", "byteLength: 8"));
    const preview = JSON.parse((await pulumi(["preview", "--json"])).stdout) as PreviewJson;
    const action = (ops: string[]) => (ops.some((o) => o === "replace" || o === "create-replacement") ? "replace" : ops.includes("update") ? "update" : "none");
    const tfAction = (a: string[]) => (a.join(",") === "update" ? "update" : a.join(",") === "no-op" || a.join(",") === "read" ? "none" : "replace");
    const ours: Record<string, string> = {};
    const theirs: Record<string, string> = {};
    for (const [address, name] of adopted) {
      ours[address] = action((preview.steps ?? []).filter((s) => s.urn.endsWith(`::${name}`)).map((s) => s.op));
      theirs[address] = tfAction(plan.resource_changes.find((c) => c.address === address && c.mode === "managed")?.change.actions ?? ["no-op"]);
    }
    expect(ours).toEqual(theirs);
    expect(theirs["local_file.f[0]"]).toBe("replace");
    expect(theirs["module.m.random_id.i"]).toBe("replace");

    // The same state through `tofu show -json`, into a stack of its own: the same resources, a clean preview.
    writeFileSync(join(root, "show.json"), tofu(infra, tfEnv, ["show", "-json"]));
    expect((await pulumi(["stack", "init", "fromshow"])).code).toBe(0);
    const fromShow = await pulumi(["plugin", "run", "--kind", "resource", `terraform-provider@${VERSION}`, "--", "adopt", "--language", "yaml", "--out", "adopted-show", join(root, "show.json")]);
    expect(fromShow.code, fromShow.stderr).toBe(0);
    expect(fromShow.stderr).toContain("is `terraform show -json` output, which has no private data");
    expect(new Map([...fromShow.stdout.matchAll(/^adopted (.+) as \S+ (\S+)$/gm)].map((m) => [m[1]!, m[2]!]))).toEqual(adopted);
    writeFileSync(join(proj, "Main.yaml"), readFileSync(join(proj, "adopted-show", "Main.yaml"), "utf8"));
    const clean = await pulumi(["preview", "--expect-no-changes"]);
    expect(clean.code, `${clean.stdout}\n${clean.stderr}`).toBe(0);
  }, 900_000);
});
