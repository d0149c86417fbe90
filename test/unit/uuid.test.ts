// randomUuid (src/bridge/uuid.ts): version 4 UUIDs from fresh random bytes.
import { describe, expect, it } from "vitest";
import { randomUuid } from "../../src/bridge/uuid.js";

describe("randomUuid", () => {
  it("is a version 4, RFC 9562 variant UUID", () => {
    for (let i = 0; i < 200; i++) expect(randomUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("does not repeat", () => {
    const seen = new Set(Array.from({ length: 10_000 }, randomUuid));
    expect(seen.size).toBe(10_000);
  });
});
