// Pulumi's delete customTimeout for SDKv2 providers goes into the timeouts SDKv2 keeps in its private state (the only
// place it reads a delete deadline from); every other private state passes through byte for byte.
import { describe, expect, it } from "vitest";
import { withDeleteTimeout } from "../../src/bridge/timeouts.js";

const KEY = "e2bfb730-ecaa-11e6-8f88-34363bc7c4c0";
const bytes = (v: unknown): Uint8Array => Buffer.from(JSON.stringify(v));
const parse = (b: Uint8Array): unknown => JSON.parse(Buffer.from(b).toString());

describe("withDeleteTimeout", () => {
  it("sets the delete deadline in nanoseconds (whole seconds, rounded up) and keeps the rest", () => {
    const priv = bytes({ [KEY]: { create: 30e9, delete: 120e9, update: 120e9 }, schema_version: "1" });
    expect(parse(withDeleteTimeout(priv, 1.5))).toEqual({ [KEY]: { create: 30e9, delete: 2e9, update: 120e9 }, schema_version: "1" });
  });

  it("leaves private states without SDKv2 timeouts untouched", () => {
    for (const priv of [Buffer.alloc(0), Buffer.from("not json"), bytes({ schema_version: "0" }), bytes([1, 2]), bytes({ [KEY]: "x" })]) {
      expect(withDeleteTimeout(priv, 5)).toBe(priv);
    }
  });
});
