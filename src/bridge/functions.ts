// Invoke: data sources, provider functions and ephemeral resources, each read, called or opened within one call (and actions, actions.ts).
import { errorDiagnostics } from "../terraform/diagnostics.js";
import { wholeContainsUnknown, type CtyValue } from "../terraform/cty/index.js";
import type { TerraformProvider } from "../terraform/types.js";
import { propertyModel, type DataSourceModel, type EphemeralResourceModel, type FunctionModel, type ProviderModel } from "../schema-translate/model.js";
import { Actions } from "./actions.js";
import { failuresFromDiagnostics, ProviderCaller } from "./caller.js";
import { ConversionError, fromTfObject, toTfObject } from "./property-cty.js";
import { Secret, type PropertyMap, type PropertyValue } from "./property-value.js";
import { withoutSecrets } from "./secrets.js";
import { BridgeError, type CheckFailure, type InvokeResult, type LogFn } from "./types.js";

/** A renew_at due within this margin is honoured before closing, as Terraform renews what it still holds. */
const EPHEMERAL_RENEW_MARGIN_MS = 5_000;
/** A provider that keeps answering renew with a time already past would otherwise hold the Invoke forever. */
const EPHEMERAL_MAX_RENEWALS = 3;

export class Functions extends ProviderCaller {
  private readonly dataSourcesByToken = new Map<string, DataSourceModel>();
  private readonly functionsByToken = new Map<string, FunctionModel>();
  private readonly ephemeralByToken = new Map<string, EphemeralResourceModel>();
  private readonly actions: Actions;

  constructor(tf: TerraformProvider, model: ProviderModel, log?: LogFn) {
    super(tf, log, model);
    for (const d of model.dataSources.values()) this.dataSourcesByToken.set(d.token, d);
    for (const f of model.functions.values()) this.functionsByToken.set(f.token, f);
    for (const e of model.ephemeralResources.values()) this.ephemeralByToken.set(e.token, e);
    this.actions = new Actions(tf, model, log);
  }

  /** `preview`: the engine is previewing; only actions heed it (a data source is read in a preview, as Terraform plans do). */
  async invoke(token: string, args: PropertyMap, preview = false): Promise<InvokeResult> {
    const ds = this.dataSourcesByToken.get(token);
    if (ds !== undefined) return this.readDataSource(ds, args);
    const fn = this.functionsByToken.get(token);
    if (fn !== undefined) return this.callFunction(fn, args);
    const eph = this.ephemeralByToken.get(token);
    if (eph !== undefined) return this.openEphemeral(eph, args);
    if (this.actions.has(token)) return this.actions.run(token, args, preview);
    throw new BridgeError(`unknown function ${token}`);
  }

  /** A data source's or ephemeral resource's arguments as a Terraform config, or the check failures that prevent it. */
  private functionConfig(m: DataSourceModel | EphemeralResourceModel, args: PropertyMap): { config: CtyValue } | { failures: CheckFailure[] } {
    const unknownArgs = Object.keys(args).filter((k) => !m.properties.some((p) => p.name === k && p.input));
    if (unknownArgs.length > 0) return { failures: unknownArgs.map((k) => ({ property: k, reason: `${m.token} has no argument ${k}` })) };
    try {
      return { config: toTfObject(m.properties, args, this.secrets) };
    } catch (e) {
      if (e instanceof ConversionError) return { failures: [{ property: e.property, reason: e.reason }] };
      throw e;
    }
  }

  private async readDataSource(ds: DataSourceModel, args: PropertyMap): Promise<InvokeResult> {
    const converted = this.functionConfig(ds, args);
    if ("failures" in converted) return { result: {}, failures: converted.failures };
    const { config } = converted;
    const diags = await this.tf.validateDataSourceConfig(ds.tfName, config);
    const failures = failuresFromDiagnostics(diags, ds.properties);
    if (failures.length > 0) return { result: {}, failures };
    const read = await this.tf.readDataSource({ typeName: ds.tfName, config });
    this.warnThenThrow(read.diagnostics, ds.tfName, `reading data source ${ds.tfName} failed`);
    return { result: withoutSecrets(fromTfObject(ds.properties, read.state)) as PropertyMap, failures: [] };
  }

  /**
   * An ephemeral resource as Terraform uses one, within a single Invoke: validate, open, renew when the provider asks
   * for it before we are done, close. Whatever opened is closed, also when a later step fails; a failed or deferred
   * open opened nothing, so there is nothing to close (as in Terraform). The result is secret throughout: nothing
   * of an ephemeral resource is meant to be stored, so wherever the program keeps it, state has it encrypted.
   */
  private async openEphemeral(e: EphemeralResourceModel, args: PropertyMap): Promise<InvokeResult> {
    const converted = this.functionConfig(e, args);
    if ("failures" in converted) return { result: {}, failures: converted.failures };
    const { config } = converted;
    const failures = failuresFromDiagnostics(await this.tf.validateEphemeralResourceConfig(e.tfName, config), e.properties);
    if (failures.length > 0) return { result: {}, failures };
    const opened = await this.tf.openEphemeralResource(e.tfName, config);
    this.warnThenThrow(opened.diagnostics, e.tfName, `opening ephemeral resource ${e.tfName} failed`);
    if (opened.deferred !== undefined) {
      throw new BridgeError(`the provider deferred opening ephemeral resource ${e.tfName} (${opened.deferred}); ${e.token} needs every argument and the provider configuration to be known`);
    }
    let privateData = opened.private;
    let failed = true;
    try {
      // Terraform rejects such a result too: the program would get a value that can never become known.
      if (wholeContainsUnknown(opened.result)) throw new BridgeError(`the provider opened ephemeral resource ${e.tfName} with values still unknown; ${e.token} needs every argument to be known`);
      const result = fromTfObject(e.properties, opened.result);
      let renewAt = opened.renewAt;
      for (let n = 0; renewAt !== undefined && renewAt.getTime() <= Date.now() + EPHEMERAL_RENEW_MARGIN_MS; n++) {
        if (n === EPHEMERAL_MAX_RENEWALS) throw new BridgeError(`ephemeral resource ${e.tfName} asked to be renewed again at once ${n} times in a row; giving up`);
        const renewed = await this.tf.renewEphemeralResource(e.tfName, privateData);
        this.warnThenThrow(renewed.diagnostics, e.tfName, `renewing ephemeral resource ${e.tfName} failed`);
        privateData = renewed.private;
        renewAt = renewed.renewAt;
      }
      const secret: PropertyMap = {};
      for (const [k, v] of Object.entries(result)) secret[k] = v === null || v instanceof Secret ? v : new Secret(v);
      failed = false;
      return { result: secret, failures: [] };
    } finally {
      await this.closeEphemeral(e, privateData, failed);
    }
  }

  /** Closes an opened ephemeral resource; a failure to close fails the Invoke unless an earlier error already does. */
  private async closeEphemeral(e: EphemeralResourceModel, privateData: Uint8Array, failed: boolean): Promise<void> {
    let message: string | undefined;
    try {
      const diags = await this.tf.closeEphemeralResource(e.tfName, privateData);
      this.warn(diags, e.tfName);
      if (errorDiagnostics(diags).length > 0) message = this.failureMessage(e.tfName, `closing ephemeral resource ${e.tfName} failed`, diags);
    } catch (err) {
      message = `closing ephemeral resource ${e.tfName} failed: ${(err as Error).message}`;
    }
    if (message === undefined) return;
    if (failed) this.log("warning", message);
    else throw new BridgeError(message);
  }

  private async callFunction(fn: FunctionModel, args: PropertyMap): Promise<InvokeResult> {
    const values: CtyValue[] = [];
    const failures: CheckFailure[] = [];
    const convert = (p: FunctionModel["parameters"][number], v: PropertyValue): CtyValue => {
      const prop = propertyModel({ tfName: p.tfName, name: p.name, tfType: p.tfType, type: p.type, required: p.required });
      return toTfObject([prop], { [p.name]: v }, this.secrets)[p.tfName]!;
    };
    for (const p of fn.parameters) {
      const v = args[p.name];
      if ((v === undefined || v === null) && p.required) failures.push({ property: p.name, reason: `missing required argument ${p.name}` });
      else values.push(convert(p, v ?? null));
    }
    if (fn.variadic !== undefined) {
      const rest = args[fn.variadic.name];
      const items = rest === undefined || rest === null ? [] : rest;
      if (!Array.isArray(items)) failures.push({ property: fn.variadic.name, reason: `${fn.variadic.name} must be a list` });
      else {
        const element = { ...fn.variadic, type: fn.variadic.type.kind === "array" ? fn.variadic.type.items : fn.variadic.type };
        for (const item of items) values.push(convert(element, item));
      }
    }
    if (failures.length > 0) return { result: {}, failures };
    const called = await this.tf.callFunction(fn.tfName, values);
    if (called.error !== undefined) {
      const arg = called.error.argument;
      const params = [...fn.parameters, ...(fn.variadic ? [fn.variadic] : [])];
      const name = arg === undefined ? "" : (params[Math.min(arg, params.length - 1)]?.name ?? "");
      return { result: {}, failures: [{ property: name, reason: called.error.text }] };
    }
    // The schema names an object return's type, so SDKs call `invoke` and read its fields from the result itself;
    // any other return is wrapped as `{result: value}`, which their `invokeSingle` unwraps.
    if (fn.returnType.kind === "object") return { result: fromTfObject(fn.returnType.ref.properties, called.result), failures: [] };
    const out = propertyModel({ tfName: "result", name: "result", tfType: fn.tfReturnType, type: fn.returnType, required: true, input: false, computed: true });
    return { result: fromTfObject([out], { result: called.result }), failures: [] };
  }
}
