// Terraform 1.14 actions as functions: validated and planned in a preview, run (InvokeAction, progress logged) otherwise.
import { wholeContainsUnknown } from "../terraform/cty/index.js";
import type { TerraformProvider } from "../terraform/types.js";
import type { ActionModel, ProviderModel } from "../schema-translate/model.js";
import { ACTION_PROGRESS_OUTPUT } from "../schema-translate/names.js";
import { failuresFromDiagnostics, failuresShownSafely, ProviderCaller } from "./caller.js";
import { ConversionError, toTfObject } from "./property-cty.js";
import { Secret, type PropertyMap } from "./property-value.js";
import { containsSecret } from "./secrets.js";
import { BridgeError, type InvokeResult, type LogFn } from "./types.js";

export class Actions extends ProviderCaller {
  private readonly byToken = new Map<string, ActionModel>();

  constructor(tf: TerraformProvider, model: ProviderModel, log?: LogFn) {
    super(tf, log, model);
    for (const a of model.actions.values()) this.byToken.set(a.token, a);
  }

  has(token: string): boolean {
    return this.byToken.has(token);
  }

  /**
   * As Terraform treats an action: ValidateActionConfig, then PlanAction (all a preview does, so a preview runs
   * nothing), then InvokeAction, whose progress messages become info lines of the engine's log as they arrive.
   * Write-only arguments are handed to the provider's secret sink, so that no diagnostic, progress line or record
   * repeats them; the result is only the progress, so no argument can come back.
   */
  async run(token: string, args: PropertyMap, preview: boolean): Promise<InvokeResult> {
    const a = this.byToken.get(token)!;
    const unknownArgs = Object.keys(args).filter((k) => !a.properties.some((p) => p.name === k && p.input));
    if (unknownArgs.length > 0) return { result: {}, failures: unknownArgs.map((k) => ({ property: k, reason: `${a.token} (Terraform action ${a.tfName}) has no argument ${k}` })) };
    const hidden: PropertyMap = { ...args };
    for (const p of a.properties) {
      const v = hidden[p.name];
      if (p.writeOnly && v !== undefined && v !== null && !(v instanceof Secret)) hidden[p.name] = new Secret(v);
    }
    let config;
    try {
      config = toTfObject(a.properties, hidden, this.secrets);
    } catch (e) {
      if (e instanceof ConversionError) return { result: {}, failures: failuresShownSafely([{ property: e.property, reason: e.reason }], hidden) };
      throw e;
    }
    // The engine prints the value of a property a failure names; a write-only one is named in the reason instead.
    const failures = failuresShownSafely(failuresFromDiagnostics(await this.tf.validateActionConfig(a.tfName, config), a.properties), hidden);
    if (failures.length > 0) return { result: {}, failures };
    const planned = await this.tf.planAction(a.tfName, config);
    this.warnThenThrow(planned.diagnostics, a.tfName, `planning Terraform action ${a.tfName} (${a.token}) failed`);
    if (planned.deferred !== undefined) {
      throw new BridgeError(`the provider deferred Terraform action ${a.tfName} (${planned.deferred}); ${a.token} needs every argument and the provider configuration to be known`);
    }
    if (preview) return { result: {}, failures: [] };
    if (wholeContainsUnknown(config)) throw new BridgeError(`Terraform action ${a.tfName} (${a.token}) cannot run with arguments still unknown`);
    const progress: string[] = [];
    const diags = await this.tf.invokeAction(a.tfName, config, (message) => {
      progress.push(message);
      // local_command's progress is the command's output between blank lines; the log line needs none of them.
      this.log("info", `${a.tfName}: ${message.trim()}`);
    });
    this.warnThenThrow(diags, a.tfName, `Terraform action ${a.tfName} (${a.token}) failed`);
    // The messages are scrubbed of every secret handed over; from a run given secrets they stay secret all the same.
    return { result: { [ACTION_PROGRESS_OUTPUT]: containsSecret(hidden) ? new Secret(progress) : progress }, failures: [] };
  }
}
