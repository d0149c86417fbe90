// Terraform 1.16's destroy-time action triggers and `on_failure` modes against their Pulumi equivalents
// (docs/actions.md#destroy-time-actions-and-failures): the same local_command action of the real terraform-provider-local,
// run by Terraform v1.16.4 from `action_trigger` blocks and by the real Pulumi CLI from a TypeScript program's resource
// hooks, and the outcomes compared: which runs happened in which order (the action records whether the file existed),
// whether the operation failed, and what is left.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostsMissing, languageSandbox } from "../support/languages.js";
import { nodeSdk, removeScratch, scratch, TypeScriptScenario } from "../support/lifecycle.js";
import { terraformBin } from "../support/peers.js";
import type { PulumiSandbox, RunResult } from "../support/pulumi.js";
import { spawnAsync } from "../support/processes.js";
import { devOverridesEnv } from "../support/terraform-cli.js";

/** The action's shell script: records `<label> present|absent` (the file) in ran.txt, then fails if `fail` names it. */
function script(label: string, fail: string): string {
  return `if [ -e greeting.txt ]; then s=present; else s=absent; fi; echo ${label} $s >> ran.txt; [ ${fail} != ${label} ]`;
}

const PROGRAM = String.raw`import * as pulumi from "@pulumi/pulumi";
import * as local from "@pulumi/local";

const config = new pulumi.Config();
const dir = config.require("dir");
const fail = config.get("fail") ?? "none";
// on_failure = continue: the hook's error becomes a warning. halt is the default: the hook's error fails the step.
const ignoreErrors = config.getBoolean("continue") ?? false;

function runAction(label: string): pulumi.ResourceHook {
    return new pulumi.ResourceHook(label, async () => {
        await local.actions.command({
            command: "sh",
            arguments: ["-c", ` + "`if [ -e greeting.txt ]; then s=present; else s=absent; fi; echo ${label} $s >> ran.txt; [ ${fail} != ${label} ]`" + String.raw`],
            workingDirectory: dir,
        });
    }, { ignoreErrors });
}
const before = runAction("before");
const after = runAction("after");
const hooks: pulumi.ResourceHookBinding = config.require("events") === "destroy"
    ? { beforeDelete: [before], afterDelete: [after] }
    : { beforeCreate: [before], afterCreate: [after] };
// deleteBeforeReplace: Terraform's order for a replacement (a tainted object is destroyed before its replacement is
// created); Pulumi would create the new file first and then delete the old one, which is the same file.
new local.File("greeting", { filename: dir + "/greeting.txt", content: "hello" }, { hooks, deleteBeforeReplace: true });
`;

/** What an operation left, comparable between the engines. */
interface Outcome {
  failed: boolean;
  ran: string[];
  file: boolean;
}

function outcome(dir: string, failed: boolean): Outcome {
  const ranFile = join(dir, "ran.txt");
  const ran = existsSync(ranFile) ? readFileSync(ranFile, "utf8").trim().split("\n") : [];
  rmSync(ranFile, { force: true });
  return { failed, ran, file: existsSync(join(dir, "greeting.txt")) };
}

let sandbox: PulumiSandbox;
let tfRoot: string;
let tfEnv: NodeJS.ProcessEnv;
let project: TypeScriptScenario;
let work: string;

/** A Terraform configuration directory: the two actions and the file, triggered on `events` with `onFailure`. */
function terraformConfig(name: string, events: "create" | "destroy", onFailure: string): string {
  const dir = join(tfRoot, name);
  mkdirSync(dir);
  const action = (label: string) =>
    `action "local_command" "${label}" {\n  config {\n    command   = "sh"\n    arguments = ["-c", ${JSON.stringify(script(label, "${var.fail}"))}]\n  }\n}\n`;
  const trigger = (event: string, label: string) =>
    `    action_trigger {\n      events     = [${event}]\n      actions    = [action.local_command.${label}]\n      on_failure = ${onFailure}\n    }\n`;
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {\n  required_providers {\n    local = { source = "hashicorp/local" }\n  }\n}\n` +
      `variable "fail" {\n  default = "none"\n}\n${action("before")}${action("after")}` +
      `resource "local_file" "greeting" {\n  filename = "greeting.txt"\n  content  = "hello"\n  lifecycle {\n` +
      trigger(`before_${events}`, "before") +
      trigger(`after_${events}`, "after") +
      `  }\n}\n`,
  );
  return dir;
}

/** Runs Terraform in `dir`; its outcome and output. */
async function terraform(dir: string, args: string[]): Promise<Outcome & { text: string }> {
  const r = await spawnAsync(terraformBin(), [...args, "-auto-approve", "-no-color"], { cwd: dir, env: tfEnv });
  const text = r.stdout + r.stderr;
  return { ...outcome(dir, r.status !== 0), text };
}

/** Runs `pulumi ARGS` in the project; its outcome and output. */
async function pulumi(args: string[]): Promise<Outcome & { text: string; r: RunResult }> {
  const r = await project.pulumi([...args, "--yes", "--skip-preview"]);
  return { ...outcome(work, r.code !== 0), text: r.stdout + r.stderr, r };
}

/** Whether Terraform's state holds the file, and tainted. */
function terraformState(dir: string): { held: boolean; tainted: boolean } {
  const state = existsSync(join(dir, "terraform.tfstate")) ? (JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: { instances: { status?: string }[] }[] }) : { resources: [] };
  const instances = state.resources.flatMap((r) => r.instances);
  return { held: instances.length > 0, tainted: instances.some((i) => i.status === "tainted") };
}

async function pulumiHolds(): Promise<boolean> {
  return (await project.resource("greeting")) !== undefined;
}

async function setConfig(events: "create" | "destroy", fail: string, cont: boolean): Promise<void> {
  await project.config("events", events);
  await project.config("fail", fail);
  await project.config("continue", String(cont));
}

describe.skipIf(hostsMissing())("destroy-time actions and on_failure: Pulumi hooks against Terraform 1.16.4", () => {
  beforeAll(async () => {
    sandbox = languageSandbox();
    tfRoot = scratch("tfbridge-actions-destroy-tf-");
    tfEnv = devOverridesEnv(tfRoot, { "hashicorp/local": "local" });
    work = scratch("tfbridge-actions-destroy-work-");
    project = await TypeScriptScenario.create(sandbox, "actions-destroy", PROGRAM, { "@pulumi/local": await nodeSdk(sandbox, "local") });
    await project.typeCheck();
    await project.config("dir", work);
  }, 1_200_000);
  afterAll(() => {
    sandbox?.cleanup();
    removeScratch();
  });

  it("before_destroy / after_destroy are beforeDelete / afterDelete, run by `pulumi destroy --run-program` only", async () => {
    const tf = terraformConfig("destroy-ok", "destroy", "halt");
    expect(await terraform(tf, ["apply"])).toMatchObject({ failed: false, ran: [], file: true });
    const tfDestroy = await terraform(tf, ["destroy"]);
    expect(tfDestroy).toMatchObject({ failed: false, ran: ["before present", "after absent"], file: false });

    await setConfig("destroy", "none", false);
    expect(await pulumi(["up"])).toMatchObject({ failed: false, ran: [], file: true });
    // Without the program the engine has no hooks to run, and refuses rather than deleting without them.
    const refused = await pulumi(["destroy"]);
    expect(refused).toMatchObject({ failed: true, ran: [], file: true });
    expect(refused.text).toContain("You must run with the `--run-program` flag to use delete hooks during destroy.");
    expect(await pulumiHolds()).toBe(true);
    const destroyed = await pulumi(["destroy", "--run-program"]);
    expect({ ...destroyed, text: undefined, r: undefined }).toEqual({ ...tfDestroy, text: undefined });
    expect(destroyed.text).toContain("local_command: ");
  }, 900_000);

  it("a failing before_destroy: `terraform destroy` goes on with a warning, as a hook with ignoreErrors does; a plain hook stops the delete", async () => {
    const tf = terraformConfig("destroy-fail", "destroy", "halt");
    await terraform(tf, ["apply"]);
    const tfDestroy = await terraform(tf, ["destroy", "-var", "fail=before"]);
    // "a full destroy walk must never be blocked" (Terraform's invokeDestroyActions): every on_failure is a warning.
    expect(tfDestroy).toMatchObject({ failed: false, ran: ["before present", "after absent"], file: false });
    expect(tfDestroy.text).toContain("Warning: Command Execution Failed");
    expect(terraformState(tf).held).toBe(false);

    await setConfig("destroy", "before", false);
    await pulumi(["up"]);
    const halted = await pulumi(["destroy", "--run-program"]);
    expect(halted).toMatchObject({ failed: true, ran: ["before present"], file: true });
    expect(halted.text).toContain('before hook "before" failed');
    expect(await pulumiHolds()).toBe(true);

    await project.config("continue", "true");
    const continued = await pulumi(["destroy", "--run-program"]);
    expect({ ...continued, text: undefined, r: undefined }).toEqual({ ...tfDestroy, text: undefined });
    expect(continued.text).toMatch(/BeforeDelete hook "before" failed/);
  }, 900_000);

  it("on_failure of an after_create action: halt and continue map to a hook and ignoreErrors; taint to `pulumi state taint`", async () => {
    // halt: the apply fails, the created file stays in the state, untainted; the next apply changes nothing.
    const tfHalt = terraformConfig("create-halt", "create", "halt");
    const tfHalted = await terraform(tfHalt, ["apply", "-var", "fail=after"]);
    expect(tfHalted).toMatchObject({ failed: true, ran: ["before absent", "after present"], file: true });
    expect(terraformState(tfHalt)).toEqual({ held: true, tainted: false });
    expect(await terraform(tfHalt, ["apply"])).toMatchObject({ failed: false, ran: [] });

    await setConfig("create", "after", false);
    const halted = await pulumi(["up"]);
    expect({ ...halted, text: undefined, r: undefined }).toEqual({ ...tfHalted, text: undefined });
    expect(halted.text).toContain('after hook "after" failed');
    expect(await pulumiHolds()).toBe(true);
    await project.config("fail", "none");
    expect(await pulumi(["up"])).toMatchObject({ failed: false, ran: [] });

    // taint: Terraform also marks the object tainted, so the next apply replaces it (running both actions again).
    // A Pulumi hook cannot taint; after the failed update `pulumi state taint` does, and the next up replaces.
    const tfTaint = terraformConfig("create-taint", "create", "taint");
    expect(await terraform(tfTaint, ["apply", "-var", "fail=after"])).toMatchObject({ failed: true, ran: ["before absent", "after present"] });
    expect(terraformState(tfTaint)).toEqual({ held: true, tainted: true });
    const tfReplaced = await terraform(tfTaint, ["apply"]);
    expect(tfReplaced.text).toContain("1 added, 0 changed, 1 destroyed");

    const urn = (await project.resource("greeting"))!.urn;
    await project.ok(["state", "taint", urn, "--yes"]);
    const replaced = await pulumi(["up"]);
    expect({ ...replaced, text: undefined, r: undefined }).toEqual({ ...tfReplaced, text: undefined });
    await project.ok(["destroy", "--yes", "--skip-preview", "--run-program"]);
    rmSync(join(work, "ran.txt"), { force: true });

    // continue: the apply succeeds with the action's error as a warning.
    const tfCont = terraformConfig("create-continue", "create", "continue");
    const tfContinued = await terraform(tfCont, ["apply", "-var", "fail=after"]);
    expect(tfContinued).toMatchObject({ failed: false, ran: ["before absent", "after present"], file: true });
    expect(tfContinued.text).toContain("Warning: Command Execution Failed");

    await setConfig("create", "after", true);
    const continued = await pulumi(["up"]);
    expect({ ...continued, text: undefined, r: undefined }).toEqual({ ...tfContinued, text: undefined });
    expect(continued.text).toMatch(/AfterCreate hook "after" failed/);
    await project.ok(["destroy", "--yes", "--skip-preview", "--run-program"]);
  }, 900_000);
});
