// Terraform 1.14 actions served as functions, against the real bridgetest and local providers, and checked against
// Terraform v1.16.4 itself: the RPCs the provider receives (recorded by bridgetest's actions), progress, failures.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TerraformBridge } from "../../src/bridge/bridge.js";
import { BridgeError } from "../../src/bridge/types.js";
import { COMPUTED, Secret, type PropertyMap } from "../../src/bridge/property-value.js";
import { GrpcTerraformProvider } from "../../src/terraform/client.js";
import { ProviderCrashedError } from "../../src/terraform/errors.js";
import { CallRecorder, RecordingProvider } from "../../src/terraform/recording.js";
import type { TerraformProvider } from "../../src/terraform/types.js";
import { buildProviderModel } from "../../src/schema-translate/index.js";
import { renderPackageSchema } from "../../src/schema-translate/render.js";
import { closedAfterEach } from "../support/launched.js";
import { peerPath, terraformBin } from "../support/peers.js";
import { spawnAsync } from "../support/processes.js";
import { devOverridesEnv } from "../support/terraform-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "tfbridge-actions-"));
const launched = closedAfterEach();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let fileNo = 0;
const recordFile = (): string => join(scratch, `record-${++fileNo}.jsonl`);

/** The RPCs bridgetest's action recorded, one JSON object a line. */
function recorded(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

const rpcs = (file: string): unknown[] => recorded(file).map((r) => r["rpc"]);

async function bridgeFor(name: string, wrap?: (tf: TerraformProvider) => TerraformProvider, env?: Record<string, string>): Promise<{ b: TerraformBridge; logs: string[] }> {
  const tf = await GrpcTerraformProvider.launch({ path: peerPath(name), ...(env ? { env } : {}) });
  launched.push(tf);
  const provider = wrap === undefined ? tf : wrap(tf);
  const schema = await provider.getProviderSchema();
  const model = buildProviderModel(schema, { packageName: name, packageVersion: "1.0.0" });
  const logs: string[] = [];
  const b = new TerraformBridge(provider, schema, model, (sev, msg) => logs.push(`${sev}: ${msg}`));
  await b.configure({});
  return { b, logs };
}

describe("actions in the schema", () => {
  it("become functions of their own module, with their configuration as inputs and the progress as their output", async () => {
    const tf = await GrpcTerraformProvider.launch({ path: peerPath("bridgetest") });
    launched.push(tf);
    const schema = await tf.getProviderSchema();
    expect([...schema.actions.keys()]).toEqual(["bridgetest_progress", "bridgetest_refuse"]);
    const model = buildProviderModel(schema, { packageName: "bridgetest", packageVersion: "1.0.0" });
    const rendered = renderPackageSchema(model, { bridgeVersion: "0.0.0", parameter: new Uint8Array(), source: { kind: "local", path: "/x", type: "bridgetest" } }) as {
      functions: Record<string, { inputs?: { properties: Record<string, { secret?: boolean }>; required?: string[] }; outputs?: { properties: Record<string, unknown>; required?: string[] } }>;
    };
    const progress = rendered.functions["bridgetest:actions/progress:progress"]!;
    expect(Object.keys(progress.inputs!.properties).sort()).toEqual(["message", "recordFile", "steps", "token"]);
    expect(progress.inputs!.required).toEqual(["steps"]);
    expect(progress.inputs!.properties["token"]!.secret).toBe(true);
    expect(Object.keys(progress.outputs!.properties)).toEqual(["progress"]);
    expect(progress.outputs!.required).toBeUndefined();
    expect(rendered.functions["bridgetest:actions/refuse:refuse"]).toBeDefined();
  });

  it("local_command of the real local provider is local:actions/command:command", async () => {
    const tf = await GrpcTerraformProvider.launch({ path: peerPath("local") });
    launched.push(tf);
    const model = buildProviderModel(await tf.getProviderSchema(), { packageName: "local", packageVersion: "1.0.0" });
    expect(model.actions.get("local_command")?.token).toBe("local:actions/command:command");
  });
});

describe("invoking an action", () => {
  it("in a preview validates and plans only; otherwise runs it, each progress event an info line in order", async () => {
    const { b, logs } = await bridgeFor("bridgetest");
    const file = recordFile();
    const args: PropertyMap = { steps: 3, message: "hello", recordFile: file };
    expect(await b.invoke("bridgetest:actions/progress:progress", args, true)).toEqual({ result: {}, failures: [] });
    expect(recorded(file).map((r) => r["rpc"])).toEqual(["ValidateActionConfig", "PlanAction"]);
    expect(logs).toEqual([]);
    expect(await b.invoke("bridgetest:actions/progress:progress", args, false)).toEqual({ result: { progress: ["hello 1/3", "hello 2/3", "hello 3/3"] }, failures: [] });
    expect(recorded(file).map((r) => r["rpc"])).toEqual(["ValidateActionConfig", "PlanAction", "ValidateActionConfig", "PlanAction", "InvokeAction"]);
    expect(logs).toEqual(["info: bridgetest_progress: hello 1/3", "info: bridgetest_progress: hello 2/3", "info: bridgetest_progress: hello 3/3"]);
  });

  it("fails with the action's diagnostic, after logging the progress it sent", async () => {
    const { b, logs } = await bridgeFor("bridgetest");
    const err = await b.invoke("bridgetest:actions/refuse:refuse", { steps: 2 }, false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as Error).message).toMatch(/Terraform action bridgetest_refuse \(bridgetest:actions\/refuse:refuse\) failed/);
    expect((err as Error).message).toContain("Refused: bridgetest_refuse always fails after its progress events");
    expect(logs).toEqual(["info: bridgetest_refuse: step 1/2", "info: bridgetest_refuse: step 2/2"]);
    // In a preview the same action plans fine: nothing has run yet.
    expect(await b.invoke("bridgetest:actions/refuse:refuse", { steps: 2 }, true)).toEqual({ result: {}, failures: [] });
  });

  it("a provider that dies mid-stream: the crash with its panic", async () => {
    const { b, logs } = await bridgeFor("bridgetest", undefined, { BRIDGETEST_PANIC: "action" });
    const err = await b.invoke("bridgetest:actions/progress:progress", { steps: 3 }, false).then(() => new Error("no error"), (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(ProviderCrashedError);
    expect(err.message).toMatch(/during InvokeAction; it printed:\n[^]*bridgetest: deliberate panic in action/);
    // The first event may or may not leave the provider before the panic ends it (plugin-go sends from a goroutine).
    expect(["[]", '["info: bridgetest_progress: step 1/3"]']).toContain(JSON.stringify(logs));
  });

  it("plans with unknown arguments in a preview; refuses to run with them", async () => {
    const { b, logs } = await bridgeFor("bridgetest");
    const file = recordFile();
    const args: PropertyMap = { steps: COMPUTED, message: "later", recordFile: file };
    expect(await b.invoke("bridgetest:actions/progress:progress", args, true)).toEqual({ result: {}, failures: [] });
    await expect(b.invoke("bridgetest:actions/progress:progress", args, false)).rejects.toThrow(
      "Terraform action bridgetest_progress (bridgetest:actions/progress:progress) cannot run with arguments still unknown",
    );
    // The second call validated and planned too, then stopped short of InvokeAction.
    expect(rpcs(file)).toEqual(["ValidateActionConfig", "PlanAction", "ValidateActionConfig", "PlanAction"]);
    expect(logs).toEqual([]);
  });

  it("answers bad arguments with failures naming the property, and runs nothing", async () => {
    const { b } = await bridgeFor("bridgetest");
    const file = recordFile();
    expect((await b.invoke("bridgetest:actions/progress:progress", { steps: -1, recordFile: file }, false)).failures).toEqual([
      { property: "steps", reason: "Invalid steps: steps must be 0 or more, got -1" },
    ]);
    expect((await b.invoke("bridgetest:actions/progress:progress", { steps: 1, nope: 1 }, false)).failures).toEqual([
      { property: "nope", reason: "bridgetest:actions/progress:progress (Terraform action bridgetest_progress) has no argument nope" },
    ]);
    expect(recorded(file).map((r) => r["rpc"])).toEqual(["ValidateActionConfig"]);
  });

  it("never shows a write-only argument: not in the failure, the log or the record of the calls", async () => {
    const calls = join(scratch, "calls.jsonl");
    const { b, logs } = await bridgeFor("bridgetest", (tf) => new RecordingProvider(tf, new CallRecorder(calls), "bridgetest"));
    const file = recordFile();
    // terraform-plugin-framework v1.19.0 refuses any value for an action's write-only attribute (Terraform sends no
    // client capabilities with ValidateActionConfig), as Terraform shows it too: the oracle test below.
    const r = await b.invoke("bridgetest:actions/progress:progress", { steps: 1, token: "wo-token-value", recordFile: file }, false);
    expect(r.failures).toHaveLength(1);
    // The engine prints the value of the property a failure names; this one names none and says which in its reason.
    expect(r.failures[0]!.property).toBe("");
    expect(r.failures[0]!.reason).toMatch(/^token: WriteOnly Attribute Not Allowed/);
    expect(recorded(file)).toEqual([{ action: "bridgetest_progress", rpc: "ValidateActionConfig", steps: 1, message: "", token_set: true }]);
    expect(readFileSync(calls, "utf8")).not.toContain("wo-token-value");
    expect(JSON.stringify([r, logs])).not.toContain("wo-token-value");
    // A secret the program passes is handled the same way.
    const s = await b.invoke("bridgetest:actions/progress:progress", { steps: 1, token: new Secret("wo-secret-value") }, false);
    expect(JSON.stringify(s)).not.toContain("wo-secret-value");
  });

  it("runs local_command of the real local provider, its output as progress", async () => {
    const { b, logs } = await bridgeFor("local");
    const out = join(scratch, "local-out.txt");
    await b.invoke("local:actions/command:command", { command: "sh", arguments: ["-c", `printf %s ran-by-pulumi | tee ${out}`] }, false);
    expect(readFileSync(out, "utf8")).toBe("ran-by-pulumi");
    expect(logs.some((l) => l.startsWith("info: local_command: ") && l.includes("ran-by-pulumi"))).toBe(true);
  });
});

describe("the same action run by Terraform v1.16.4", () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    env = devOverridesEnv(scratch, { "bridge/bridgetest": "bridgetest" });
  });

  /** Runs `terraform apply` with `args` over a configuration of `hcl`; its progress lines, stderr and exit code. */
  async function terraformApply(name: string, hcl: string, args: string[]): Promise<{ progress: string[]; stderr: string; code: number | null }> {
    const dir = join(scratch, `tf-${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    bridgetest = { source = "bridge/bridgetest" }\n  }\n}\n\n${hcl}`);
    const r = await spawnAsync(terraformBin(), ["apply", "-auto-approve", "-json", "-no-color", ...args], { cwd: dir, env });
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    const progress = lines.filter((l) => l["type"] === "action_progress").map((l) => (l["hook"] as { message: string }).message);
    const diagnostics = lines.filter((l) => l["type"] === "diagnostic").map((l) => JSON.stringify(l["diagnostic"]));
    return { progress, stderr: r.stderr + diagnostics.join("\n"), code: r.status };
  }

  const action = (type: string, name: string, file: string, more = ""): string =>
    `action "${type}" "${name}" {\n  config {\n    steps       = 3\n    message     = "hello"\n    record_file = ${JSON.stringify(file)}\n${more}  }\n}\n`;

  it("apply -invoke: the provider receives the same calls with the same configuration, and sends the same progress", async () => {
    const tfFile = recordFile();
    const t = await terraformApply("invoke", action("bridgetest_progress", "x", tfFile), ["-invoke=action.bridgetest_progress.x"]);
    expect(t.code).toBe(0);
    const { b, logs } = await bridgeFor("bridgetest");
    const ourFile = recordFile();
    const ran = await b.invoke("bridgetest:actions/progress:progress", { steps: 3, message: "hello", recordFile: ourFile }, false);
    expect(ran.result).toEqual({ progress: t.progress });
    expect(recorded(tfFile)).toHaveLength(3);
    expect(recorded(ourFile)).toEqual(recorded(tfFile));
    expect(logs.map((l) => l.replace("info: bridgetest_progress: ", ""))).toEqual(t.progress);
  });

  it("an action_trigger after_create: the same calls again", async () => {
    const tfFile = recordFile();
    const hcl = `${action("bridgetest_progress", "after", tfFile)}\nresource "terraform_data" "t" {\n  input = "x"\n  lifecycle {\n    action_trigger {\n      events  = [after_create]\n      actions = [action.bridgetest_progress.after]\n    }\n  }\n}\n`;
    const t = await terraformApply("trigger", hcl, []);
    expect(t.code).toBe(0);
    const { b } = await bridgeFor("bridgetest");
    const ourFile = recordFile();
    await b.invoke("bridgetest:actions/progress:progress", { steps: 3, message: "hello", recordFile: ourFile }, false);
    expect(recorded(ourFile)).toEqual(recorded(tfFile));
    expect(t.progress).toEqual(["hello 1/3", "hello 2/3", "hello 3/3"]);
  });

  it("a failing action: the same calls, the same progress, the same diagnostic", async () => {
    const tfFile = recordFile();
    const t = await terraformApply("refuse", action("bridgetest_refuse", "r", tfFile), ["-invoke=action.bridgetest_refuse.r"]);
    expect(t.code).not.toBe(0);
    expect(t.stderr).toContain("bridgetest_refuse always fails after its progress events");
    const { b, logs } = await bridgeFor("bridgetest");
    const ourFile = recordFile();
    const err = await b.invoke("bridgetest:actions/refuse:refuse", { steps: 3, message: "hello", recordFile: ourFile }, false).then(() => new Error("no error"), (e: unknown) => e as Error);
    expect(err.message).toContain("Refused: bridgetest_refuse always fails after its progress events");
    expect(recorded(ourFile)).toEqual(recorded(tfFile));
    expect(logs.map((l) => l.replace("info: bridgetest_refuse: ", ""))).toEqual(t.progress);
  });

  it("a write-only value: refused by the provider in validation for both, never sent further", async () => {
    const tfFile = recordFile();
    const t = await terraformApply("wo", action("bridgetest_progress", "w", tfFile, `    token       = "wo-tf-value"\n`), ["-invoke=action.bridgetest_progress.w"]);
    expect(t.code).not.toBe(0);
    expect(t.stderr).toContain("WriteOnly Attribute Not Allowed");
    const { b } = await bridgeFor("bridgetest");
    const ourFile = recordFile();
    const r = await b.invoke("bridgetest:actions/progress:progress", { steps: 3, message: "hello", token: "wo-our-value", recordFile: ourFile }, false);
    expect(r.failures[0]!.reason).toContain("WriteOnly Attribute Not Allowed");
    expect(recorded(ourFile)).toEqual(recorded(tfFile));
  });
});
