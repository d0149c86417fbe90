// The diagnostics module (src/terraform/diagnostics.ts): split, format, and the warn-then-throw rule, as tables.
import { describe, expect, it } from "vitest";
import {
  errorDiagnostics,
  failureMessage,
  formatDiagnostic,
  formatDiagnostics,
  splitDiagnostics,
  warnThenThrow,
} from "../../src/terraform/diagnostics.js";
import type { AttributePath, Diagnostic } from "../../src/terraform/types.js";

const err = (summary: string, detail = "", attribute?: AttributePath): Diagnostic => ({ severity: "error", summary, detail, ...(attribute ? { attribute } : {}) });
const warn = (summary: string, detail = ""): Diagnostic => ({ severity: "warning", summary, detail });

describe("splitDiagnostics / errorDiagnostics", () => {
  const cases: [string, Diagnostic[], number, number][] = [
    ["none", [], 0, 0],
    ["one error", [err("e")], 1, 0],
    ["one warning", [warn("w")], 0, 1],
    ["mixed, order kept", [warn("w1"), err("e1"), warn("w2"), err("e2")], 2, 2],
  ];
  for (const [name, diags, errors, warnings] of cases) {
    it(name, () => {
      const split = splitDiagnostics(diags);
      expect([split.errors.length, split.warnings.length]).toEqual([errors, warnings]);
      expect(errorDiagnostics(diags)).toEqual(split.errors);
      expect([...split.errors, ...split.warnings].sort((a, b) => diags.indexOf(a) - diags.indexOf(b))).toEqual(diags);
    });
  }
});

describe("formatDiagnostic(s)", () => {
  const cases: [string, Diagnostic, string][] = [
    ["summary only", err("bad"), "error: bad"],
    ["with detail", err("bad", "very"), "error: bad: very"],
    ["with path", err("bad", "", [{ attribute: "a" }, { index: 2 }]), "error: bad (at a[2])"],
    ["warning", warn("careful", "d"), "warning: careful: d"],
  ];
  for (const [name, d, want] of cases) it(name, () => expect(formatDiagnostic(d)).toBe(want));
  it("one per line", () => expect(formatDiagnostics([err("a"), warn("b")])).toBe("error: a\nwarning: b"));
  it("none: empty", () => expect(formatDiagnostics([])).toBe(""));
  it("failureMessage lists the errors only", () => expect(failureMessage("creating x failed", [warn("w"), err("e", "d")])).toBe("creating x failed:\nerror: e: d"));
});

describe("warnThenThrow", () => {
  const run = (diags: Diagnostic[], beforeErrors?: () => void) => {
    const warned: string[] = [];
    let thrown: string | undefined;
    try {
      warnThenThrow(diags, { context: "random_pet", failure: "creating random_pet failed", warn: (m) => warned.push(m), makeError: (m) => new RangeError(m), beforeErrors });
    } catch (e) {
      expect(e).toBeInstanceOf(RangeError);
      thrown = (e as Error).message;
    }
    return { warned, thrown };
  };
  const cases: [string, Diagnostic[], string[], string | undefined][] = [
    ["nothing: no warning, no error", [], [], undefined],
    ["warnings only: logged with their context, no error", [warn("w", "d"), warn("x")], ["random_pet: w: d", "random_pet: x"], undefined],
    ["errors only: thrown", [err("e")], [], "creating random_pet failed:\nerror: e"],
    ["both: warnings logged, then errors thrown", [warn("w"), err("e1"), err("e2")], ["random_pet: w"], "creating random_pet failed:\nerror: e1\nerror: e2"],
  ];
  for (const [name, diags, warned, thrown] of cases) it(name, () => expect(run(diags)).toEqual({ warned, thrown }));
  it("beforeErrors runs after the warnings and may throw in place of the errors", () => {
    const r = run([warn("w"), err("e")], () => {
      throw new RangeError("deferred");
    });
    expect(r).toEqual({ warned: ["random_pet: w"], thrown: "deferred" });
  });
  it("beforeErrors that returns leaves the errors to be thrown", () => {
    expect(run([err("e")], () => undefined).thrown).toBe("creating random_pet failed:\nerror: e");
  });
});
