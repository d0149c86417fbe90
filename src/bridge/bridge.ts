// Pulumi resource semantics over one Terraform provider: config, check, diff, create/update/delete, read/import.
import { BigNum, decodeJson, encodeJson, isRecord, wholeContainsUnknown, type CtyValue } from "../terraform/cty/index.js";
import { errorDiagnostics, formatDiagnostics, shownValue } from "../terraform/diagnostics.js";
import { ProviderCrashedError } from "../terraform/errors.js";
import { identityType, impliedType } from "../terraform/schema.js";
import type { DeferredReason, Diagnostic, IdentitySchema, ProviderSchema, Schema, TerraformProvider } from "../terraform/types.js";
import { emptiedComputedBlocks, proposedNewState } from "../terraform/values.js";
import { propertyModel, type ProviderModel, type ResourceModel } from "../schema-translate/model.js";
import { autoname } from "./autonaming.js";
import { failuresFromDiagnostics, failuresShownSafely, ProviderCaller } from "./caller.js";
import { ConversionError, fromTfObject, restoreWriteOnly, toTfObject, withoutWriteOnly } from "./property-cty.js";
import { changedReplacePaths, computeDiff, ctyEqual } from "./diff.js";
import { Functions } from "./functions.js";
import { emptyStringsKept, generatedConfig, inputsFromConfig } from "./generate-config.js";
import { Lister, type ListPage, type ListRequest } from "./list.js";
import { IdentityInputError, parseImportTarget, storedIdentity, type StoredIdentity } from "./identity.js";
import { META_KEY, readMeta, writeMeta, type Meta } from "./meta.js";
import { movedDiff, moveState, storedJson, storedObject } from "./move.js";
import { Secret, type PropertyMap, type PropertyValue } from "./property-value.js";
import { PlanMemo, type PlanInputs } from "./plan-memo.js";
import { carrySecrets, markSensitive } from "./secrets.js";
import { unknownSettings } from "./provider-config.js";
import { withDeleteTimeout, withTimeouts, withTimeoutsValue } from "./timeouts.js";
import { randomUuid } from "./uuid.js";
import {
  BridgeError,
  PartialFailure,
  type BridgeHints,
  type CheckFailure,
  type CheckRequest,
  type CheckResult,
  type CreateRequest,
  type DeleteRequest,
  type DiffRequest,
  type DiffResult,
  type InvokeResult,
  type LogFn,
  type ReadRequest,
  type ReadResult,
  type UpdateRequest,
} from "./types.js";

/** A resource instance as a Terraform state file keeps it (src/adopt/tfstate.ts reads it). */
export interface AdoptedInstance {
  schemaVersion: number;
  /** The `attributes` object as the state file holds it (cty JSON). */
  attributesJson: string;
  privateState: Uint8Array;
  identity?: StoredIdentity;
  /** Top-level attribute names the state marks sensitive. */
  sensitive: ReadonlySet<string>;
}

/** A resource with an identity schema: the schema and the identity to send (null when none is known yet). */
interface IdentityContext {
  schema: IdentitySchema;
  value: CtyValue;
}

/** A stored state made current: upgraded to the schema version, or moved from the type that wrote it (movedFrom). */
interface PriorState {
  state: CtyValue;
  meta: Meta;
  identity?: IdentityContext;
  movedFrom?: string;
}

export class TerraformBridge extends ProviderCaller {
  private readonly resourcesByToken = new Map<string, ResourceModel>();
  private readonly functions: Functions;
  /** The configuration this provider instance was configured with, for terraformConfig. */
  private configured: PropertyMap = {};
  /**
   * Write-only inputs by URN, held between check and create/update: the engine stores what check returns, so they
   * live only here, in this process, for one deployment. Never logged.
   */
  private readonly writeOnlyHeld = new Map<string, PropertyMap>();
  /** Diff's plans, for the Update that follows (src/bridge/plan-memo.ts). */
  private readonly diffPlans = new PlanMemo();
  /** The provider's address as Terraform writes it, sent as the source of a move (see src/bridge/move.ts). */
  private readonly providerAddress: string;

  constructor(
    tf: TerraformProvider,
    readonly schema: ProviderSchema,
    readonly model: ProviderModel,
    log: LogFn = () => undefined,
    private readonly hints: BridgeHints = {},
  ) {
    super(tf, log, model);
    for (const r of model.resources.values()) {
      this.resourcesByToken.set(r.token, r);
      // A program or stack that names the resource by its alias (the reference's token) is served as the resource.
      for (const alias of r.aliases) if (!this.resourcesByToken.has(alias)) this.resourcesByToken.set(alias, r);
    }
    this.functions = new Functions(tf, model, log);
    this.providerAddress = hints.providerAddress ?? `registry.terraform.io/hashicorp/${model.name}`;
  }

  private resource(token: string): { model: ResourceModel; schema: Schema } {
    const model = this.resourcesByToken.get(token);
    if (model === undefined) throw new BridgeError(`unknown resource type ${token}; the package has ${this.resourcesByToken.size} resources`);
    return { model, schema: model.tfSchema };
  }

  // ---- provider configuration -------------------------------------------------------------------------------

  private configObject(inputs: PropertyMap): CtyValue {
    return toTfObject(this.model.config, inputs, this.secrets);
  }

  /**
   * `urn` is the provider resource's: the configuration's warnings are about it, and it tells a default provider (stack
   * configuration) from an explicit one, for how an unknown key is reported. `earlier` are failures found before the
   * bridge saw the settings (a structured setting whose string is not JSON).
   */
  async checkConfig(news: PropertyMap, urn = "", earlier: readonly CheckFailure[] = []): Promise<CheckResult> {
    // Sensitive settings are secrets from here on: stored as such, and known by value to be scrubbed from what the provider says.
    const inputs = markSensitive(this.model.config, news);
    const shown = (failures: CheckFailure[]): CheckResult => ({ inputs, failures: failuresShownSafely(failures, inputs) });
    const failures = [...earlier, ...unknownSettings(this.model, inputs, urn)];
    let config: CtyValue;
    try {
      config = this.configObject(inputs);
    } catch (e) {
      if (!(e instanceof ConversionError)) throw e;
      // A key already reported as undecodable fails conversion too; it is told once.
      if (!earlier.some((f) => e.property === f.property || e.property.startsWith(`${f.property}.`) || e.property.startsWith(`${f.property}[`))) {
        failures.push({ property: e.property, reason: e.reason });
      }
      return shown(failures);
    }
    if (failures.length > 0) return shown(failures);
    const diags = await this.tf.validateProviderConfig(config);
    this.warn(diags, "provider configuration", urn === "" ? undefined : urn);
    return shown(failuresFromDiagnostics(diags, this.model.config));
  }

  async configure(inputs: PropertyMap, urn?: string): Promise<void> {
    this.configured = inputs;
    const diags = await this.tf.configureProvider(this.configObject((inputs)));
    this.warnThenThrow(diags, "provider configuration", "configuring the Terraform provider failed", { urn });
  }

  /** Any change to the provider configuration may change every resource's behaviour; report it, never replace. */
  diffConfig(olds: PropertyMap, news: PropertyMap): DiffResult {
    return computeDiff(this.model.config, this.configObject((olds)), this.configObject((news)), []);
  }

  // ---- resources --------------------------------------------------------------------------------------------

  /**
   * The returned inputs are what the engine stores, so write-only values are taken out and held in memory under the
   * URN (urnName when none is given) for create/update to put back into the Terraform config.
   */
  async check({ token, name: urnName, olds, news, autonaming, randomSeed, urn }: CheckRequest): Promise<CheckResult> {
    const { model } = this.resource(token);
    const hold = (result: CheckResult): CheckResult => ({
      inputs: this.holdWriteOnly(model, urn ?? urnName, result.inputs),
      failures: failuresShownSafely(result.failures, result.inputs),
    });
    const given: PropertyMap = { ...news };
    delete given[META_KEY];
    autoname(model, urnName, olds, given, autonaming, randomSeed);
    // Sensitive values are secrets from here on: stored as such, and known by value to be scrubbed from what the provider says.
    const inputs = markSensitive(model.properties, given);
    // Every problem the program can fix at once: unknown properties, then each property of the wrong shape.
    const failures: CheckFailure[] = Object.keys(inputs)
      .filter((k) => !model.properties.some((p) => p.name === k && p.input))
      .map((k) => ({
        property: k,
        reason: model.properties.some((p) => p.name === k) ? `${k} is computed by the provider and cannot be set` : `${token} has no input property ${k}`,
      }));
    for (const p of model.properties) {
      const v = inputs[p.name];
      if (!p.input || v === undefined) continue;
      try {
        toTfObject([p], { [p.name]: v }, this.secrets);
      } catch (e) {
        if (!(e instanceof ConversionError)) throw e;
        failures.push({ property: e.property, reason: e.reason });
      }
    }
    if (failures.length > 0) {
      // The provider cannot validate a configuration that does not convert; name what it would have said is missing.
      for (const p of model.properties) {
        const filled = p.autonamed === true && autonaming?.mode !== "disable";
        if (p.required && !filled && (inputs[p.name] === undefined || inputs[p.name] === null)) failures.push({ property: p.name, reason: `missing required property ${p.name}` });
      }
      return hold({ inputs, failures });
    }
    const config = toTfObject(model.properties, inputs, this.secrets);
    const diags = await this.tf.validateResourceConfig(model.tfName, config);
    this.warn(diags, model.tfName, urn);
    return hold({ inputs, failures: failuresFromDiagnostics(diags, model.properties) });
  }

  /** The inputs without their write-only values, which are kept under `key` instead (or forgotten when none is set). */
  private holdWriteOnly(model: ResourceModel, key: string, inputs: PropertyMap): PropertyMap {
    const found = { any: false };
    const kept = withoutWriteOnly(model.properties, inputs, found);
    // A write-only property at the top level leaves no trace in the inputs; nested ones are null in their object.
    for (const p of model.properties) if (p.writeOnly) delete kept[p.name];
    if (found.any) this.writeOnlyHeld.set(key, inputs);
    else this.writeOnlyHeld.delete(key);
    return kept;
  }

  /**
   * The inputs with the write-only values check held for this URN. Without them (another process, no check in this
   * deployment) the provider sees null, as Terraform sends write-only values only in the run that sets them.
   */
  private withWriteOnly(model: ResourceModel, news: PropertyMap, urn: string | undefined): PropertyMap {
    const held = urn === undefined ? undefined : this.writeOnlyHeld.get(urn);
    return held === undefined ? news : restoreWriteOnly(model.properties, news, held);
  }

  /** Pulumi state → Terraform state of the current schema version (upgraded by the provider when older, as Terraform does). */
  private async priorState(model: ResourceModel, schema: Schema, id: string, state: PropertyMap, urn: string | undefined): Promise<PriorState> {
    const stored = readMeta(state[META_KEY]);
    if (stored.type !== undefined && stored.type !== model.tfName) return this.movedState(model, schema, id, state, stored, stored.type, urn);
    if (stored.schemaVersion > schema.version) {
      // Terraform refuses such a state ("managed by newer provider version"); an upgrader cannot go backwards.
      throw new BridgeError(
        `the stored state of ${model.tfName} ${shownValue(id)} was written with its schema version ${stored.schemaVersion}, but ${this.model.name} ${this.model.version} ` +
          `knows schema version ${schema.version} at most: the stack was last updated with a newer release of the provider. ` +
          `${this.hints.newerRelease ?? `Go back to a release of ${this.model.name} newer than ${this.model.version}`}; ` +
          `or remove the resource from the stack (\`pulumi state delete\`) and import it with this release (\`pulumi import\`)`,
      );
    }
    const obj = storedObject(model, id, state, this.secrets);
    let current: CtyValue = obj;
    let schemaVersion = stored.schemaVersion;
    if (!wholeContainsUnknown(obj) && stored.schemaVersion === schema.version && !alwaysUpgradeState()) {
      // Already at the provider's schema version, and in its shape: the bridge wrote it from the provider's own answer
      // through the current model, so it holds exactly the schema's attributes, blocks as empty collections. What a
      // provider does with such a state is decode it by its schema (the plugin framework intercepts the same-version
      // call to do just that; SDKv2 also drops attributes the schema lacks and fills missing blocks, which the model
      // already did), so the bridge decodes it itself and saves a round trip on every diff, update, read and delete.
      const type = impliedType(schema.block);
      current = decodeJson(encodeJson(obj, type), type);
    } else if (!wholeContainsUnknown(obj)) {
      const raw = storedJson(model, obj, state, this.secrets);
      const upgraded = await this.tf.upgradeResourceState({ typeName: model.tfName, version: stored.schemaVersion, rawStateJson: raw });
      if (errorDiagnostics(upgraded.diagnostics).length > 0) {
        throw new BridgeError(this.failureMessage(model.tfName, `upgrading the stored state of ${model.tfName} from schema version ${stored.schemaVersion}`, upgraded.diagnostics));
      }
      current = upgraded.upgradedState;
      schemaVersion = schema.version;
    }
    // After the state, as Terraform upgrades them.
    const identity = await this.priorIdentity(model, stored.identity);
    if (identity === undefined) return { state: current, meta: { schemaVersion, privateState: stored.privateState } };
    return { state: current, meta: { schemaVersion, privateState: stored.privateState, ...this.keepIdentity(identity) }, identity };
  }

  /**
   * A state another resource type wrote (a Pulumi alias changed the resource's type): the provider moves it to this
   * type, as Terraform does for a `moved` block across types; the result is at the current schema version.
   */
  private async movedState(model: ResourceModel, schema: Schema, id: string, state: PropertyMap, stored: Meta, from: string, urn: string | undefined): Promise<PriorState> {
    const sourceModel = [...this.model.resources.values()].find((r) => r.tfName === from);
    const moved = await moveState(this.tf, { type: from, model: sourceModel, id, state, meta: stored }, model, this.providerAddress, this.secrets);
    this.log("info", `moved ${shownValue(id)} from ${from} to ${model.tfName}`, urn);
    const context = await this.identityContext(model);
    const identity = context === undefined ? undefined : { schema: context.schema, value: moved.identity ?? null };
    const meta: Meta = { schemaVersion: schema.version, privateState: moved.privateState, ...this.keepIdentity(identity) };
    return { state: moved.state, meta, movedFrom: from, ...(identity !== undefined ? { identity } : {}) };
  }

  /** The resource's identity schema and no identity yet, or undefined when its provider gives it no identity. */
  private async identityContext(model: ResourceModel): Promise<IdentityContext | undefined> {
    const schema = (await this.tf.getResourceIdentitySchemas()).get(model.tfName);
    return schema === undefined ? undefined : { schema, value: null };
  }

  /**
   * The stored identity at the provider's current identity schema version, upgraded by the provider when it was written
   * at an older one, as Terraform does; null when none is stored (a state from before the provider had identities).
   */
  private async priorIdentity(model: ResourceModel, stored: StoredIdentity | undefined): Promise<IdentityContext | undefined> {
    const context = await this.identityContext(model);
    if (context === undefined || stored === undefined) return context;
    const { schema } = context;
    if (stored.version > schema.version) {
      throw new BridgeError(`the stored identity of ${model.tfName} has identity schema version ${stored.version}, newer than the provider's ${schema.version}: it was written by a newer version of the provider; use that version or a later one`);
    }
    if (stored.version === schema.version) return { schema, value: decodeJson(stored.json, identityType(schema)) };
    const upgraded = await this.tf.upgradeResourceIdentity({ typeName: model.tfName, version: stored.version, rawIdentityJson: stored.json });
    if (errorDiagnostics(upgraded.diagnostics).length > 0) {
      throw new BridgeError(this.failureMessage(model.tfName, `upgrading the stored identity of ${model.tfName} from identity schema version ${stored.version}`, upgraded.diagnostics));
    }
    return { schema, value: upgraded.upgradedIdentity };
  }

  /** The first identity the provider or the prior state has, in the form stored; undefined for a resource without identity. */
  private keepIdentity(context: IdentityContext | undefined, ...candidates: (CtyValue | undefined)[]): { identity?: StoredIdentity } {
    if (context === undefined) return {};
    for (const c of [...candidates, context.value]) {
      const kept = storedIdentity(c, context.schema);
      if (kept !== undefined) return { identity: kept };
    }
    return {};
  }

  /**
   * Outputs carry the Terraform `id` too, when it is the resource id and no property: the reference reads it from there
   * on refresh, so a stack this plugin wrote stays usable by the reference.
   */
  private outputs(model: ResourceModel, state: CtyValue, meta: Meta): PropertyMap {
    const props = withoutWriteOnly(model.properties, fromTfObject(model.id.kind === "attribute" && !model.properties.some((p) => p.tfName === "id") ? [...model.properties, ID_OUTPUT] : model.properties, state));
    props[META_KEY] = writeMeta({ ...meta, type: model.tfName });
    return props;
  }

  private idOf(model: ResourceModel, state: CtyValue, fallback: string): string {
    if (model.id.kind === "attribute" && isRecord(state)) {
      const v = state["id"];
      if (typeof v === "string" && v !== "") return v;
      // A number id (cloudflare_logpush_job's) is the resource id as its decimal text, as Terraform shows it; the
      // reference asks each provider to map such an id to a string by hand.
      if (typeof v === "number") return String(v);
      if (v instanceof BigNum) return v.text;
    }
    return fallback;
  }

  /**
   * Terraform's plan step: the proposed new state from prior state and configuration, PlanResourceChange, warnings
   * to the log (about `urn`), errors as a BridgeError. A null config plans the deletion. The configuration is planned
   * in Terraform 1.16's form (empty computed blocks null, see emptiedComputedBlocks); `plannedPrivate` is an earlier
   * plan's private data for the plan that precedes an apply (see plan-memo.ts).
   */
  private async plan(
    model: ResourceModel,
    schema: Schema,
    prior: { state: CtyValue; privateState?: Uint8Array; identity?: IdentityContext; plannedPrivate?: Uint8Array },
    written: CtyValue,
    urn: string | undefined,
    what = "planning",
  ) {
    const config = written === null ? null : emptiedComputedBlocks(schema.block, written);
    const plan = await this.tf.planResourceChange({
      typeName: model.tfName,
      priorState: prior.state,
      proposedNewState: config === null ? null : proposedNewState(schema.block, prior.state, config),
      config,
      priorPrivate: prior.privateState,
      ...(prior.identity !== undefined ? { priorIdentity: prior.identity.value } : {}),
      ...(prior.plannedPrivate !== undefined ? { plannedPrivate: prior.plannedPrivate } : {}),
    });
    this.warnThenThrow(plan.diagnostics, model.tfName, `${what} ${model.tfName} failed`, {
      urn,
      beforeErrors: () => {
        if (plan.deferred !== undefined) throw new BridgeError(deferredMessage(`${what} ${model.tfName}`, plan.deferred, plan.diagnostics));
      },
    });
    return plan;
  }

  async diff({ token, id, olds, news, urn }: DiffRequest): Promise<DiffResult> {
    const { model, schema } = this.resource(token);
    const prior = await this.priorState(model, schema, id, olds, urn);
    const config = toTfObject(model.properties, news, this.secrets);
    const plan = await this.plan(model, schema, { state: prior.state, privateState: prior.meta.privateState, identity: prior.identity }, config, urn);
    this.diffPlans.remember(planInputs(model, id, prior, config), plan);
    const replacing = changedReplacePaths(prior.state, plan.plannedState, plan.requiresReplace);
    const diff = computeDiff(model.properties, prior.state, plan.plannedState, replacing, schema.block);
    if (prior.movedFrom !== undefined && diff.changes === "none") return movedDiff(olds, this.outputs(model, prior.state, prior.meta));
    if (diff.replaces.length === 0) return diff;
    // A replacement creates a new object: Terraform plans it again from a null prior state, and that create plan is
    // what its plan shows (computed values unknown, emptied collections null), so the detailed diff is taken from it.
    // Terraform hands that plan the first plan's private data as its prior private data, and the create plan's to the
    // plan before the replacement's apply: the Create that follows (plan-memo.ts).
    const created = await this.plan(model, schema, { state: null, privateState: plan.plannedPrivate, identity: await this.identityContext(model) }, config, urn);
    if (urn !== undefined) this.diffPlans.rememberReplacement(urn, created);
    return { ...diff, detailedDiff: computeDiff(model.properties, prior.state, created.plannedState, replacing, schema.block).detailedDiff };
  }

  async create(options: CreateRequest): Promise<{ id: string; properties: PropertyMap }> {
    const { token, news } = options;
    const { model, schema } = this.resource(token);
    const config = withTimeouts(schema, toTfObject(model.properties, this.withWriteOnly(model, news, options.urn), this.secrets), "create", options.timeoutSeconds);
    const identity = await this.identityContext(model);
    // A preview plans as Terraform's plan does; a real create after a Diff that planned this replacement carries that plan's private data.
    const plannedPrivate = options.preview || options.urn === undefined ? undefined : this.diffPlans.takeReplacement(options.urn);
    const plan = await this.plan(model, schema, { state: null, identity, ...(plannedPrivate !== undefined ? { plannedPrivate } : {}) }, config, options.urn);
    const meta: Meta = { schemaVersion: schema.version, privateState: plan.plannedPrivate, ...this.keepIdentity(identity, plan.plannedIdentity) };
    if (options.preview) return { id: "", properties: carrySecrets(model.properties, this.outputs(model, plan.plannedState, meta), news) };

    const applied = await this.tf
      .applyResourceChange({
        typeName: model.tfName,
        priorState: null,
        plannedState: plan.plannedState,
        config,
        plannedPrivate: plan.plannedPrivate,
        ...(identity !== undefined ? { plannedIdentity: plan.plannedIdentity ?? null } : {}),
      })
      .catch((e: unknown) => {
        // A provider that dies mid-create may have made the object, but no id came back to record (Terraform loses it
        // the same way): the user is the one who can find it, so say how to adopt it.
        if (e instanceof ProviderCrashedError) {
          throw new BridgeError(`${e.message}\nThe object may have been created; if it was, adopt it with \`pulumi import ${token} ${options.name ?? "<name>"} <id>\` once the provider works again.`);
        }
        throw e;
      });
    this.warn(applied.diagnostics, model.tfName, options.urn);
    const newMeta: Meta = { schemaVersion: schema.version, privateState: applied.private, ...this.keepIdentity(identity, applied.newIdentity) };
    const failed = errorDiagnostics(applied.diagnostics).length > 0;
    if (failed && applied.newState === null) throw new BridgeError(this.failureMessage(model.tfName, `creating ${model.tfName} failed`, applied.diagnostics));
    const id = this.idOf(model, applied.newState, model.id.kind === "synthesized" ? randomUuid() : "");
    const properties = carrySecrets(model.properties, this.outputs(model, applied.newState, newMeta), news);
    if (failed) throw new PartialFailure(id, properties, news, [this.failureMessage(model.tfName, `creating ${model.tfName} failed part-way`, applied.diagnostics)]);
    if (id === "") throw new BridgeError(`${model.tfName} was created but the provider returned no id`);
    return { id, properties };
  }

  async update(options: UpdateRequest): Promise<{ properties: PropertyMap }> {
    const { token, id, olds, news } = options;
    const { model, schema } = this.resource(token);
    const prior = await this.priorState(model, schema, id, olds, options.urn);
    const config = withTimeouts(schema, toTfObject(model.properties, this.withWriteOnly(model, news, options.urn), this.secrets), "update", options.timeoutSeconds);
    const kept = this.diffPlans.take(planInputs(model, id, prior, config));
    const plannedPrivate = options.preview ? undefined : kept.plannedPrivate;
    const plan =
      kept.plan ??
      (await this.plan(model, schema, { state: prior.state, privateState: prior.meta.privateState, identity: prior.identity, ...(plannedPrivate !== undefined ? { plannedPrivate } : {}) }, config, options.urn));
    if (options.preview) {
      return { properties: carrySecrets(model.properties, this.outputs(model, plan.plannedState, { ...prior.meta, privateState: plan.plannedPrivate, ...this.keepIdentity(prior.identity, plan.plannedIdentity) }), news) };
    }
    // A moved resource the plan leaves as it is: Terraform applies nothing and keeps the moved state; so does the bridge.
    if (prior.movedFrom !== undefined && plan.requiresReplace.length === 0 && ctyEqual(prior.state, plan.plannedState)) {
      return { properties: carrySecrets(model.properties, this.outputs(model, prior.state, prior.meta), news) };
    }
    const applied = await this.tf.applyResourceChange({
      typeName: model.tfName,
      priorState: prior.state,
      plannedState: plan.plannedState,
      config,
      plannedPrivate: plan.plannedPrivate,
      ...(prior.identity !== undefined ? { plannedIdentity: plan.plannedIdentity ?? prior.identity.value } : {}),
    });
    this.warn(applied.diagnostics, model.tfName, options.urn);
    const failed = errorDiagnostics(applied.diagnostics).length > 0;
    if (failed && applied.newState === null) throw new BridgeError(this.failureMessage(model.tfName, `updating ${model.tfName} failed`, applied.diagnostics));
    const newMeta: Meta = { schemaVersion: schema.version, privateState: applied.private, ...this.keepIdentity(prior.identity, applied.newIdentity, plan.plannedIdentity) };
    const properties = carrySecrets(model.properties, this.outputs(model, applied.newState, newMeta), news);
    if (failed) throw new PartialFailure(id, properties, news, [this.failureMessage(model.tfName, `updating ${model.tfName} failed part-way`, applied.diagnostics)]);
    return { properties };
  }

  /**
   * Deletion applies a null plan. There is no configuration to carry a delete timeout, so Pulumi's customTimeouts
   * go where providers read it at delete time: the prior state's `timeouts` (the plugin framework) and, for SDKv2,
   * the timeouts it keeps in its private state (see withDeleteTimeout). A timeouts.delete the program set wins.
   */
  async delete(options: DeleteRequest): Promise<void> {
    const { token, id, olds, urn } = options;
    const { model, schema } = this.resource(token);
    const stored = await this.priorState(model, schema, id, olds, urn);
    if (stored.state === null) return;
    const timed = withTimeoutsValue(schema, stored.state, "delete", options.timeoutSeconds);
    const prior = timed === undefined ? stored : { ...stored, state: timed, meta: { ...stored.meta, privateState: withDeleteTimeout(stored.meta.privateState, options.timeoutSeconds!) } };
    let plannedPrivate = prior.meta.privateState;
    // A deletion's planned identity is the prior one (the plugin framework hands it to Delete as such).
    let plannedIdentity = prior.identity?.value;
    if (this.schema.serverCapabilities.planDestroy) {
      const plan = await this.plan(model, schema, { state: prior.state, privateState: prior.meta.privateState, identity: prior.identity }, null, urn, "planning the deletion of");
      plannedPrivate = plan.plannedPrivate;
      if (plannedIdentity !== undefined && plan.plannedIdentity !== undefined) plannedIdentity = plan.plannedIdentity;
    }
    const applied = await this.tf.applyResourceChange({
      typeName: model.tfName,
      priorState: prior.state,
      plannedState: null,
      config: null,
      plannedPrivate,
      ...(plannedIdentity !== undefined ? { plannedIdentity } : {}),
    });
    this.warnThenThrow(applied.diagnostics, model.tfName, `deleting ${model.tfName} failed`, { urn });
  }

  /**
   * Refresh (state given) or import (no state: the provider imports by id first). Returns undefined when the
   * resource is gone. Inputs are derived from the new state: for a refresh, the inputs the program had set; for an
   * import, the configuration Terraform would generate for it.
   */
  async read({ token, id, state, inputs, urn }: ReadRequest): Promise<ReadResult | undefined> {
    const { model, schema } = this.resource(token);
    let current: CtyValue;
    let meta: Meta;
    let identity: IdentityContext | undefined;
    const importing = state === undefined || Object.keys(state).length === 0;
    if (importing) {
      const imported = await this.importState(model, id, urn);
      current = imported.state;
      meta = { schemaVersion: schema.version, privateState: imported.private };
      identity = imported.identity;
    } else {
      const prior = await this.priorState(model, schema, id, state, urn);
      current = prior.state;
      meta = prior.meta;
      identity = prior.identity;
    }
    const read = await this.tf.readResource({
      typeName: model.tfName,
      currentState: current,
      private: meta.privateState,
      ...(identity !== undefined ? { currentIdentity: identity.value } : {}),
    });
    this.warnThenThrow(read.diagnostics, model.tfName, `reading ${model.tfName} "${shownValue(id)}" failed`, {
      urn,
      beforeErrors: () => {
        if (read.deferred !== undefined) throw new BridgeError(deferredMessage(`reading ${model.tfName} "${shownValue(id)}"`, read.deferred, read.diagnostics));
      },
    });
    if (read.newState === null) return undefined;
    // What was secret before a refresh stays secret: in the prior state and in the inputs the program had set.
    const newMeta: Meta = { schemaVersion: schema.version, privateState: read.private, ...this.keepIdentity(identity, read.newIdentity) };
    const properties = carrySecrets(model.properties, carrySecrets(model.properties, this.outputs(model, read.newState, newMeta), state), inputs);
    const newId = this.idOf(model, read.newState, id);
    if (importing) return { id: newId, properties, inputs: await this.importedInputs(model, schema, read.newState, urn) };
    const derived: PropertyMap = {};
    for (const p of model.properties) {
      if (!p.input) continue;
      const v = properties[p.name];
      const keep = inputs === undefined ? v !== null && v !== undefined : p.name in inputs;
      if (keep) derived[p.name] = v ?? null;
    }
    return { id: newId, properties, inputs: derived };
  }

  /**
   * A resource instance of a Terraform state adopted as it is (src/adopt): its raw state JSON brought to the schema
   * version the provider serves by the provider's own UpgradeResourceState (what Terraform does before it plans with
   * a state; no Read, no import), its private data and identity kept, and the inputs of the configuration Terraform
   * would generate for it. `sensitive` are the top-level attributes Terraform's state marks sensitive.
   */
  async adopt(token: string, stored: AdoptedInstance): Promise<{ id: string; outputs: PropertyMap; inputs: PropertyMap }> {
    const { model, schema } = this.resource(token);
    if (stored.schemaVersion > schema.version) {
      throw new BridgeError(`its schema version ${stored.schemaVersion} is newer than the ${schema.version} of ${this.model.name} ${this.model.version}: the state was written by a newer provider release; add that release as the package`);
    }
    const upgraded = await this.tf.upgradeResourceState({ typeName: model.tfName, version: stored.schemaVersion, rawStateJson: stored.attributesJson });
    if (errorDiagnostics(upgraded.diagnostics).length > 0) {
      throw new BridgeError(this.failureMessage(model.tfName, `upgrading the state of ${model.tfName} from schema version ${stored.schemaVersion}`, upgraded.diagnostics));
    }
    const state = upgraded.upgradedState;
    if (state === null) throw new BridgeError(`the provider upgraded the state of ${model.tfName} to nothing`);
    const identity = await this.priorIdentity(model, stored.identity);
    const meta: Meta = { schemaVersion: schema.version, privateState: stored.privateState, ...this.keepIdentity(identity) };
    const secretTop = (m: PropertyMap): PropertyMap => {
      const out = markSensitive(model.properties, m);
      for (const p of model.properties) if (stored.sensitive.has(p.tfName) && out[p.name] !== undefined && out[p.name] !== null && !(out[p.name] instanceof Secret)) out[p.name] = new Secret(out[p.name]!);
      return out;
    };
    const outputs = secretTop(this.outputs(model, state, meta));
    const id = this.idOf(model, state, model.id.kind === "synthesized" ? randomUuid() : "");
    if (id === "") throw new BridgeError(`the state of ${model.tfName} has no id`);
    return { id, outputs, inputs: secretTop(await this.adoptedInputs(model, schema, { state, privateState: stored.privateState, identity })) };
  }

  /**
   * An adopted object's inputs: the configuration Terraform would generate for it, except that an optional string
   * holding "" is kept when leaving it out would make the provider plan a change (Terraform's rule takes "" for
   * SDKv2's null; a framework provider keeps "" apart from null), as the program must preview with no changes.
   */
  private async adoptedInputs(model: ResourceModel, schema: Schema, prior: { state: CtyValue; privateState: Uint8Array; identity?: IdentityContext }): Promise<PropertyMap> {
    const generated = await generatedConfig(this.tf, this.schema.serverCapabilities.generateResourceConfig, model.tfName, schema.block, prior.state);
    this.warnThenThrow(generated.diagnostics, model.tfName, `generating the configuration of the adopted ${model.tfName} failed`, {});
    let config = generated.config;
    const withEmpty = emptyStringsKept(schema.block, config, prior.state);
    if (withEmpty !== config) {
      const changes = async (c: CtyValue): Promise<boolean> => {
        const plan = await this.plan(model, schema, prior, c, undefined, "checking the adopted configuration of");
        return computeDiff(model.properties, prior.state, plan.plannedState, [], schema.block).changes !== "none";
      };
      try {
        if ((await changes(config)) && !(await changes(withEmpty))) config = withEmpty;
      } catch (e) {
        if (!(e instanceof BridgeError)) throw e;
      }
    }
    return inputsFromConfig(model.properties, config);
  }

  /**
   * An imported resource's inputs: the configuration Terraform 1.14's `plan -generate-config-out` writes for its state
   * (see generate-config.ts for where they part), so `pulumi import` prints no output-only or conflicting values.
   */
  private async importedInputs(model: ResourceModel, schema: Schema, state: CtyValue, urn: string | undefined): Promise<PropertyMap> {
    const generated = await generatedConfig(this.tf, this.schema.serverCapabilities.generateResourceConfig, model.tfName, schema.block, state);
    this.warnThenThrow(generated.diagnostics, model.tfName, `generating the configuration of the imported ${model.tfName} failed`, { urn });
    return inputsFromConfig(model.properties, generated.config);
  }

  /**
   * ImportResourceState by the import argument: the provider's import id, or, for a resource with an identity schema, an
   * identity given as a JSON object (see parseImportTarget).
   */
  private async importState(model: ResourceModel, arg: string, urn: string | undefined): Promise<{ state: CtyValue; private: Uint8Array; identity?: IdentityContext }> {
    const context = await this.identityContext(model);
    let target;
    try {
      target = parseImportTarget(model.tfName, arg, context?.schema);
    } catch (e) {
      if (e instanceof IdentityInputError) throw new BridgeError(`cannot import ${model.tfName} ${shownValue(arg)}: ${e.message}`);
      throw e;
    }
    const imported = "identity" in target ? await this.tf.importResourceState(model.tfName, "", target.identity) : await this.tf.importResourceState(model.tfName, target.id);
    this.warnThenThrow(imported.diagnostics, model.tfName, `importing ${model.tfName} "${shownValue(arg)}" failed`, {
      urn,
      beforeErrors: () => {
        if (imported.deferred !== undefined) throw new BridgeError(deferredMessage(`importing ${model.tfName} ${JSON.stringify(shownValue(arg))}`, imported.deferred, imported.diagnostics));
      },
    });
    const mine = imported.imported.find((r) => r.typeName === model.tfName);
    if (mine === undefined) throw new BridgeError(`importing ${model.tfName} "${shownValue(arg)}" returned no ${model.tfName}`);
    if (context === undefined) return { state: mine.state, private: mine.private };
    return { state: mine.state, private: mine.private, identity: { schema: context.schema, value: mine.identity ?? ("identity" in target ? target.identity : null) } };
  }

  // ---- data sources, functions and ephemeral resources -----------------------------------------------------

  invoke(token: string, args: PropertyMap, preview = false): Promise<InvokeResult> {
    return this.functions.invoke(token, args, preview);
  }

  /**
   * The Provider's `terraformConfig` method: its configuration as Terraform sees it (Terraform's attribute names, null
   * for what is unset), for Pulumi's Terraform module provider. Every value is secret, since any may be a credential.
   */
  terraformConfig(): PropertyMap {
    const config = this.configObject(this.configured);
    if (wholeContainsUnknown(config)) {
      throw new BridgeError("terraformConfig needs every input of the provider configuration to be known; it is meant for the configuration of a Terraform module's required provider");
    }
    const plain = JSON.parse(encodeJson(config, impliedType(this.schema.provider.block))) as Record<string, PropertyValue>;
    const result: PropertyMap = {};
    for (const [k, v] of Object.entries(plain)) result[k] = new Secret(v);
    return { result };
  }

  /** Interrupt: ask the provider to stop in-flight work; the caller shuts the process down afterwards. */
  /** One page of Pulumi's List over the resource's Terraform list resource (list.ts). */
  list(token: string, request: ListRequest, cancelled?: () => boolean): Promise<ListPage> {
    return new Lister(this.tf, this.log).list(this.resource(token).model, request, cancelled);
  }

  async cancel(): Promise<void> {
    try {
      const err = await this.tf.stopProvider();
      if (err !== undefined) this.log("warning", `the Terraform provider reported while stopping: ${err}`);
    } catch (e) {
      this.log("debug", `StopProvider failed: ${(e as Error).message}`);
    }
  }
}

/** What a plan of an existing resource is made from, as PlanMemo compares it. */
function planInputs(model: ResourceModel, id: string, prior: PriorState, config: CtyValue): PlanInputs {
  return {
    typeName: model.tfName,
    id,
    priorState: prior.state,
    config,
    priorPrivate: prior.meta.privateState,
    ...(prior.identity !== undefined ? { priorIdentity: prior.identity.value } : {}),
  };
}

/**
 * TF_BRIDGE_UPGRADE_STATE=always sends every stored state through the provider's UpgradeResourceState, as Terraform
 * does, also when it is already at the provider's schema version (for a provider that normalizes state there).
 */
function alwaysUpgradeState(): boolean {
  return process.env["TF_BRIDGE_UPGRADE_STATE"] === "always";
}

/**
 * We advertise deferral_allowed: false and Pulumi has no later round to apply a deferred change in, so a deferral is a
 * failure. terraform-plugin-go adds its own "Invalid Deferred Response" error to such a response; ours says the same
 * in Pulumi's terms, so that diagnostic is dropped and any other error kept.
 */
function deferredMessage(what: string, reason: DeferredReason, diags: readonly Diagnostic[]): string {
  const others = errorDiagnostics(diags).filter((d) => d.summary !== "Invalid Deferred Response");
  const message = `${what} failed: the provider deferred the change (${DEFERRED_REASONS[reason] ?? reason}); Pulumi cannot defer a resource, so make what it waits for known first`;
  return others.length > 0 ? `${message}\n${formatDiagnostics(others)}` : message;
}

/** Terraform's deferral reasons, as a user can act on them. */
const DEFERRED_REASONS: Partial<Record<string, string>> = {
  unknown: "reason not given",
  resource_config_unknown: "resource configuration unknown",
  provider_config_unknown: "provider configuration unknown",
  absent_prereq: "a prerequisite is absent",
};

/** The `id` output (see TerraformBridge.outputs): the Terraform `id` attribute under its own name, never an input. */
const ID_OUTPUT = propertyModel({ tfName: "id", name: "id", tfType: { kind: "string" }, type: { kind: "string" }, input: false, computed: true });

