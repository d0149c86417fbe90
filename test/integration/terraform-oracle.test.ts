// Proves the Terraform oracle (scripts/build-terraform.sh) runs Terraform 1.14's actions against the real `local` peer
// through dev_overrides, so later comparisons of actions, list resources and generated configuration can rely on it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terraformBin } from "../support/peers.js";
import { devOverridesEnv } from "../support/terraform-cli.js";
import { execAsync } from "../support/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-terraform-oracle-"));
let env: NodeJS.ProcessEnv;

/** Terraform's machine-readable UI lines (`-json`), one object a line. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A configuration directory holding `main.tf`. */
function config(name: string, hcl: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    local = { source = "hashicorp/local" }\n  }\n}\n\n${hcl}`);
  return dir;
}

/** The numbers of the apply's closing summary (`Apply complete! … Actions: N invoked.`). */
function applySummary(lines: Record<string, unknown>[]): unknown {
  return lines.find((l) => l["type"] === "change_summary" && (l["changes"] as { operation?: string }).operation === "apply")?.["changes"];
}

/** An action whose command writes `text` to `out.txt` beside the configuration and prints it. */
function writeAction(name: string, text: string): string {
  return `action "local_command" "${name}" {\n  config {\n    command   = "sh"\n    arguments = ["-c", "printf %s ${text} | tee out.txt"]\n  }\n}\n`;
}

beforeAll(() => {
  env = devOverridesEnv(scratch, { "hashicorp/local": "local" });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the Terraform oracle", () => {
  it("is Terraform 1.16.4", async () => {
    const r = await execAsync(terraformBin(), ["version", "-json"], { cwd: scratch, env });
    expect(JSON.parse(r.stdout)).toMatchObject({ terraform_version: "1.16.4" });
  });

  it("reads the local peer's action schema", async () => {
    const dir = config("schema", "");
    const r = await execAsync(terraformBin(), ["providers", "schema", "-json"], { cwd: dir, env });
    const schemas = JSON.parse(r.stdout) as { provider_schemas: Record<string, { action_schemas?: Record<string, { block: { attributes: Record<string, unknown> } }> }> };
    const local = schemas.provider_schemas["registry.terraform.io/hashicorp/local"];
    expect(Object.keys(local?.action_schemas ?? {})).toEqual(["local_command"]);
    expect(Object.keys(local!.action_schemas!["local_command"]!.block.attributes).sort()).toEqual(["arguments", "command", "environment", "stdin", "working_directory"]);
  });

  it("invokes the action with apply -invoke, streaming its output as progress", async () => {
    const dir = config("invoke", writeAction("x", "invoked"));
    const r = await execAsync(terraformBin(), ["apply", "-invoke=action.local_command.x", "-auto-approve", "-json", "-no-color"], { cwd: dir, env });
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("invoked");
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l["type"])).toEqual(expect.arrayContaining(["action_start", "action_progress", "action_complete"]));
    expect(lines.find((l) => l["type"] === "action_progress")?.["@message"]).toContain("invoked");
    expect(applySummary(lines)).toMatchObject({ add: 0, change: 0, remove: 0, action_invocation: 1 });
  });

  it("runs the action from an action_trigger after the resource is created", async () => {
    const dir = config(
      "trigger",
      `${writeAction("after", "triggered")}\nresource "terraform_data" "t" {\n  input = "x"\n  lifecycle {\n    action_trigger {\n      events  = [after_create]\n      actions = [action.local_command.after]\n    }\n  }\n}\n`,
    );
    const r = await execAsync(terraformBin(), ["apply", "-auto-approve", "-json", "-no-color"], { cwd: dir, env });
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("triggered");
    const lines = jsonLines(r.stdout);
    // The create starts before the action; Terraform 1.16.4 reports the action's start, progress and completion before
    // the resource's own apply_complete (1.14.9 reported them after it).
    const creating = lines.findIndex((l) => l["type"] === "apply_start");
    const started = lines.findIndex((l) => l["type"] === "action_start");
    expect(creating).toBeGreaterThanOrEqual(0);
    expect(started).toBeGreaterThan(creating);
    expect(lines.map((l) => l["type"])).toContain("apply_complete");
    expect(lines.map((l) => l["type"])).toContain("action_complete");
    expect(applySummary(lines)).toMatchObject({ add: 1, action_invocation: 1 });
  });
});
