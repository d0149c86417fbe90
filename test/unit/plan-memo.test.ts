// PlanMemo (src/bridge/plan-memo.ts): a Diff's plan is reused by the Update that follows only for exactly its inputs;
// otherwise its planned private data goes with the Update's new plan.
import { describe, expect, it } from "vitest";
import { PlanMemo, type PlanInputs } from "../../src/bridge/plan-memo.js";
import { UNKNOWN } from "../../src/terraform/cty/index.js";
import type { PlanResult } from "../../src/terraform/types.js";

const base: PlanInputs = {
  typeName: "x_thing",
  id: "abc",
  priorState: { id: "abc", n: 1, tags: ["a"] },
  config: { id: null, n: 2, tags: ["a"] },
  priorPrivate: Uint8Array.from([1, 2, 3]),
};
const plan = (n: number, plannedPrivate = new Uint8Array()): PlanResult => ({ plannedState: { id: "abc", n, tags: ["a"] }, requiresReplace: [], plannedPrivate, diagnostics: [], legacyTypeSystem: false });

describe("PlanMemo", () => {
  it("gives the kept plan back for the same inputs, once", () => {
    const memo = new PlanMemo();
    const p = plan(2);
    memo.remember(base, p);
    expect(memo.take({ ...base, priorState: { id: "abc", n: 1, tags: ["a"] } })).toEqual({ plan: p });
    expect(memo.take(base)).toEqual({});
  });

  it.each<[string, Partial<PlanInputs>]>([
    ["another resource id", { id: "other" }],
    ["another type", { typeName: "x_other" }],
    ["a changed prior state", { priorState: { id: "abc", n: 5, tags: ["a"] } }],
    ["a changed config", { config: { id: null, n: 3, tags: ["a"] } }],
    ["a config with one more element", { config: { id: null, n: 2, tags: ["a", "b"] } }],
    ["other private data", { priorPrivate: Uint8Array.from([1, 2, 4]) }],
    ["no private data", { priorPrivate: undefined }],
    ["an identity where there was none", { priorIdentity: { name: "n" } }],
  ])("plans anew for %s", (_, change) => {
    const memo = new PlanMemo();
    const kept = Uint8Array.from([9, 8]);
    memo.remember(base, plan(2, kept));
    const taken = memo.take({ ...base, ...change });
    expect(taken.plan).toBeUndefined();
    // The new plan is handed the kept plan's private data (store_planned_private), unless it is of another resource.
    expect(taken.plannedPrivate).toBe(change.id !== undefined || change.typeName !== undefined ? undefined : kept);
  });

  it("keeps a replacement's create plan by URN for one Create", () => {
    const memo = new PlanMemo();
    const kept = Uint8Array.from([7]);
    memo.rememberReplacement("urn:a", plan(2, kept));
    expect(memo.takeReplacement("urn:b")).toBeUndefined();
    expect(memo.takeReplacement("urn:a")).toBe(kept);
    expect(memo.takeReplacement("urn:a")).toBeUndefined();
  });

  it("compares identities by value", () => {
    const memo = new PlanMemo();
    const identity = (name: string): PlanInputs["priorIdentity"] => ({ name });
    const p = plan(2);
    memo.remember({ ...base, priorIdentity: identity("n") }, p);
    expect(memo.take({ ...base, priorIdentity: identity("m") }).plan).toBeUndefined();
    memo.remember({ ...base, priorIdentity: identity("n") }, p);
    expect(memo.take({ ...base, priorIdentity: identity("n") }).plan).toBe(p);
  });

  it("never keeps a plan of inputs with unknowns (a preview's)", () => {
    const memo = new PlanMemo();
    const withUnknown = { ...base, config: { id: null, n: UNKNOWN, tags: ["a"] } };
    memo.remember(withUnknown, plan(2));
    expect(memo.take(withUnknown)).toEqual({});
  });

  it("keeps only the latest plan of a resource, and a bounded number overall", () => {
    const memo = new PlanMemo();
    const first = plan(2);
    const second = plan(3);
    memo.remember(base, first);
    memo.remember(base, second);
    expect(memo.take(base).plan).toBe(second);
    for (let i = 0; i < 200; i++) memo.remember({ ...base, id: `r${i}` }, plan(i));
    expect(memo.take({ ...base, id: "r0" })).toEqual({});
    expect(memo.take({ ...base, id: "r199" }).plan?.plannedState).toEqual({ id: "abc", n: 199, tags: ["a"] });
  });
});
