// The plan a Diff made, kept for the Update of the same change that the engine sends right after it.
//
// Terraform plans a change once and applies that plan; the engine asks Diff, then Update, and both need the same
// PlanResourceChange. An Update whose plan inputs (type, prior state and private data, configuration, identity) are
// exactly those of the Diff before it applies the Diff's plan, as Terraform applies a saved plan, and saves the
// provider a round trip. Any difference (timeouts or write-only values the Update adds, a changed state) plans anew.
import { encodeJson, type CtyType, type CtyValue } from "../terraform/cty/index.js";
import type { PlanResult } from "../terraform/types.js";

/** Diffs whose Update never comes (a preview) must not pile up. */
const MAX_ENTRIES = 128;

export interface PlanInputs {
  typeName: string;
  id: string;
  stateType: CtyType;
  priorState: CtyValue;
  config: CtyValue;
  priorPrivate?: Uint8Array;
  /** For resources with an identity: the prior one and its type. */
  priorIdentity?: { value: CtyValue; type: CtyType };
}

/** The inputs in one string that is equal only for equal inputs; undefined when they hold unknowns (never reused). */
function keyOf(inputs: PlanInputs): string | undefined {
  try {
    const priv = inputs.priorPrivate === undefined ? "-" : Buffer.from(inputs.priorPrivate).toString("base64");
    const identity = inputs.priorIdentity === undefined ? null : encodeJson(inputs.priorIdentity.value, inputs.priorIdentity.type);
    return JSON.stringify([inputs.typeName, encodeJson(inputs.priorState, inputs.stateType), encodeJson(inputs.config, inputs.stateType), priv, identity]);
  } catch {
    return undefined;
  }
}

export class PlanMemo {
  private readonly plans = new Map<string, { key: string; plan: PlanResult }>();

  /** Keeps a successful plan for the resource's next Update. */
  remember(inputs: PlanInputs, plan: PlanResult): void {
    const key = keyOf(inputs);
    const slot = `${inputs.typeName}\0${inputs.id}`;
    this.plans.delete(slot);
    if (key === undefined) return;
    this.plans.set(slot, { key, plan });
    if (this.plans.size > MAX_ENTRIES) this.plans.delete(this.plans.keys().next().value!);
  }

  /** The kept plan when it was made from exactly these inputs; either way the resource's entry is used up. */
  take(inputs: PlanInputs): PlanResult | undefined {
    const slot = `${inputs.typeName}\0${inputs.id}`;
    const kept = this.plans.get(slot);
    if (kept === undefined) return undefined;
    this.plans.delete(slot);
    return kept.key === keyOf(inputs) ? kept.plan : undefined;
  }
}
