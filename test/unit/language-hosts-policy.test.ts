// Missing language hosts skip the language tests on a developer's machine and fail them in CI.
import { describe, expect, it, vi } from "vitest";
import { hostsMissing, inCi } from "../support/languages.js";

describe("hostsMissing", () => {
  const missing = () => ({ missing: "no pulumi-language-nodejs on PATH and no ../shared/pulumi-language-hosts" });
  const present = () => ({ dir: "/opt/hosts" });

  it("skips outside CI, saying why", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(hostsMissing({}, missing)).toBe(true);
    expect(hostsMissing({ CI: "false" }, missing)).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("no pulumi-language-nodejs"));
    warn.mockRestore();
  });

  it("fails in CI, naming what is missing", () => {
    expect(() => hostsMissing({ CI: "true" }, missing)).toThrow(/CI=true does not allow skipping: no pulumi-language-nodejs/);
    expect(() => hostsMissing({ CI: "1" }, missing)).toThrow(/does not allow skipping/);
  });

  it("runs the tests wherever the hosts are", () => {
    expect(hostsMissing({ CI: "true" }, present)).toBe(false);
    expect(hostsMissing({}, present)).toBe(false);
  });

  it("knows CI from the variable", () => {
    expect([undefined, "", "false", "0", "true", "1", "yes"].map((v) => inCi(v === undefined ? {} : { CI: v }))).toEqual([false, false, false, false, true, true, true]);
  });
});
