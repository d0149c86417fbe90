// The slow-first test order names real files, and puts them before the rest in the listed order.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SLOW_FIRST, slowRank } from "../support/slow-first.js";

const root = join(import.meta.dirname, "../..");

describe("slow-first test order", () => {
  it("names only test files that exist, each once", () => {
    expect(SLOW_FIRST.filter((f) => !existsSync(join(root, f)))).toEqual([]);
    expect(new Set(SLOW_FIRST).size).toBe(SLOW_FIRST.length);
  });

  it("ranks the listed files first, in the listed order, and every other file after them", () => {
    const files = ["test/unit/uuid.test.ts", "test/e2e/language-go.test.ts", "test/e2e/giants-sdks.test.ts"];
    expect([...files].sort((a, b) => slowRank(a) - slowRank(b))).toEqual(["test/e2e/giants-sdks.test.ts", "test/e2e/language-go.test.ts", "test/unit/uuid.test.ts"]);
  });
});
