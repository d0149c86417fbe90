// memoizeString: answers kept per key, and never more than its bound at once.
import { describe, expect, it } from "vitest";
import { memoizeString } from "../../src/memo.js";

describe("memoizeString", () => {
  it("asks the function once per key while the key is kept", () => {
    const asked: string[] = [];
    const upper = memoizeString((k) => (asked.push(k), k.toUpperCase()), 10);
    expect([upper("a"), upper("b"), upper("a"), upper("a")]).toEqual(["A", "B", "A", "A"]);
    expect(asked).toEqual(["a", "b"]);
  });

  it("forgets everything when the bound is reached, then keeps answers again", () => {
    const asked: string[] = [];
    const same = memoizeString((k) => (asked.push(k), k), 2);
    same("a");
    same("b");
    same("c"); // the third key clears the two before it and is kept
    same("a"); // asked again: forgotten
    same("c"); // kept since
    expect(asked).toEqual(["a", "b", "c", "a"]);
  });
});
