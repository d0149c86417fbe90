// The plan a Diff made, kept for the Update of the same change that the engine sends right after it.
//
// Terraform plans a change once and applies that plan; the engine asks Diff, then Update, and both need the same
// PlanResourceChange. An Update whose plan inputs (type, prior state and private data, configuration, identity) are
// exactly those of the Diff before it applies the Diff's plan, as Terraform applies a saved plan, and saves the
// provider a round trip. Any difference (timeouts or write-only values the Update adds, a changed state) plans anew.
// The inputs are kept as they are and compared only when an Update comes, so a Diff pays nothing for it.
// An Update that plans anew sends the Diff's planned private data with that plan (protocol 6's store_planned_private),
// as Terraform 1.16 sends a saved plan's private data with the plan it makes just before applying it. A Diff that
// plans a replacement keeps its create plan the same way, under the URN, for the Create of the replacement.
import { rawEquals, wholeContainsUnknown, type CtyValue } from "../terraform/cty/index.js";
import type { PlanResult } from "../terraform/types.js";

/** Diffs whose Update never comes (a preview) must not pile up. */
const MAX_ENTRIES = 128;

export interface PlanInputs {
  typeName: string;
  id: string;
  priorState: CtyValue;
  config: CtyValue;
  priorPrivate?: Uint8Array;
  /** For resources with an identity: the prior one (null when none is stored). */
  priorIdentity?: CtyValue;
}

function bytesEqual(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === undefined || b === undefined ? a === b : Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** go-cty's RawEquals on every value (no unknowns: inputs with them are never kept), the bytes of the private data. */
function sameInputs(a: PlanInputs, b: PlanInputs): boolean {
  return (
    a.typeName === b.typeName &&
    a.id === b.id &&
    rawEquals(a.priorState, b.priorState) &&
    rawEquals(a.config, b.config) &&
    bytesEqual(a.priorPrivate, b.priorPrivate) &&
    "priorIdentity" in a === "priorIdentity" in b &&
    rawEquals(a.priorIdentity, b.priorIdentity)
  );
}

export class PlanMemo {
  private readonly plans = new Map<string, { inputs: PlanInputs; plan: PlanResult }>();

  /** Keeps a successful plan for the resource's next Update. */
  remember(inputs: PlanInputs, plan: PlanResult): void {
    const slot = `${inputs.typeName}\0${inputs.id}`;
    this.plans.delete(slot);
    const unknown = [inputs.priorState, inputs.config, inputs.priorIdentity ?? null].some(wholeContainsUnknown);
    if (unknown) return;
    this.plans.set(slot, { inputs, plan });
    if (this.plans.size > MAX_ENTRIES) this.plans.delete(this.plans.keys().next().value!);
  }

  /**
   * The kept plan (`plan`) when it was made from exactly these inputs, else the kept plan's private data (`plannedPrivate`)
   * for the new plan to carry; either way the resource's entry is used up.
   */
  take(inputs: PlanInputs): { plan?: PlanResult; plannedPrivate?: Uint8Array } {
    const slot = `${inputs.typeName}\0${inputs.id}`;
    const kept = this.plans.get(slot);
    if (kept === undefined) return {};
    this.plans.delete(slot);
    return sameInputs(kept.inputs, inputs) ? { plan: kept.plan } : { plannedPrivate: kept.plan.plannedPrivate };
  }

  /** Keeps the planned private data of a replacement's create plan for the Create of that replacement (by URN). */
  rememberReplacement(urn: string, plan: PlanResult): void {
    const slot = `\0replacement\0${urn}`;
    this.plans.delete(slot);
    this.plans.set(slot, { inputs: { typeName: "", id: "", priorState: null, config: null }, plan });
    if (this.plans.size > MAX_ENTRIES) this.plans.delete(this.plans.keys().next().value!);
  }

  /** The planned private data rememberReplacement kept for this URN, used up. */
  takeReplacement(urn: string): Uint8Array | undefined {
    const slot = `\0replacement\0${urn}`;
    const kept = this.plans.get(slot);
    this.plans.delete(slot);
    return kept?.plan.plannedPrivate;
  }
}
