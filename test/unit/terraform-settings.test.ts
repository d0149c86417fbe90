// The settings that bound a launched provider (src/terraform/settings.ts): defaults, values, the timer's limit, and
// refusals naming the variable.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_PROVIDER_MESSAGE_BYTES,
  DEFAULT_PING_TIMEOUT_MS,
  DEFAULT_SCHEMA_TIMEOUT_MS,
  maxProviderMessageBytes,
  pingTimeoutMs,
  schemaTimeoutMs,
  SettingError,
} from "../../src/terraform/settings.js";
import { MAX_TIMER_MS, raiseWaitAdvice } from "../../src/setting.js";

describe("provider bounds", () => {
  it("take their defaults when unset or empty, and the value given otherwise", () => {
    expect([schemaTimeoutMs({}), pingTimeoutMs({ TF_BRIDGE_PROVIDER_PING_TIMEOUT: " " }), maxProviderMessageBytes({})]).toEqual([
      DEFAULT_SCHEMA_TIMEOUT_MS,
      DEFAULT_PING_TIMEOUT_MS,
      DEFAULT_MAX_PROVIDER_MESSAGE_BYTES,
    ]);
    expect(schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "2.5" })).toBe(2500);
    expect(pingTimeoutMs({ TF_BRIDGE_PROVIDER_PING_TIMEOUT: "7" })).toBe(7000);
    expect(maxProviderMessageBytes({ TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES: "1000" })).toBe(1000);
    // A gRPC length prefix holds at most 2^32 - 1: a larger limit is that.
    expect(maxProviderMessageBytes({ TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES: "99999999999" })).toBe(2 ** 32 - 1);
  });

  it("take a timeout past Node's longest timer (3000000 s, meant as never) as that longest wait, and a tiny one as 1 ms", () => {
    expect(schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "3000000" })).toBe(MAX_TIMER_MS);
    expect(pingTimeoutMs({ TF_BRIDGE_PROVIDER_PING_TIMEOUT: "3000000" })).toBe(MAX_TIMER_MS);
    expect(schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "2147483.647" })).toBe(MAX_TIMER_MS);
    expect(schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "2147483.646" })).toBe(MAX_TIMER_MS - 1);
    expect(schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "0.0001" })).toBe(1);
  });

  it("advise raising a wait that ran out, unless it is already the longest there is", () => {
    expect(raiseWaitAdvice("TF_BRIDGE_SCHEMA_TIMEOUT", 300_000)).toBe("raise TF_BRIDGE_SCHEMA_TIMEOUT (seconds, now 300)");
    expect(raiseWaitAdvice("TF_BRIDGE_SCHEMA_TIMEOUT", MAX_TIMER_MS)).toBe(
      "TF_BRIDGE_SCHEMA_TIMEOUT is already at the longest wait there is (2147483.647 s, 24.8 days; a larger value waits no longer)",
    );
  });

  it.each([
    [() => schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "0" }), 'TF_BRIDGE_SCHEMA_TIMEOUT="0" is not a number of seconds above 0; set it to one or unset it (default 300)'],
    [() => schemaTimeoutMs({ TF_BRIDGE_SCHEMA_TIMEOUT: "5m" }), 'TF_BRIDGE_SCHEMA_TIMEOUT="5m" is not a number of seconds above 0'],
    [() => pingTimeoutMs({ TF_BRIDGE_PROVIDER_PING_TIMEOUT: "-1" }), 'TF_BRIDGE_PROVIDER_PING_TIMEOUT="-1" is not a number of seconds above 0; set it to one or unset it (default 30)'],
    [() => maxProviderMessageBytes({ TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES: "1.5" }), 'TF_BRIDGE_MAX_PROVIDER_MESSAGE_BYTES="1.5" is not a whole number of bytes above 0; set it to one or unset it (default 268435456, 256 MiB)'],
  ])("refuses a bad value by name: %#", (read, message) => {
    expect(read).toThrow(SettingError);
    expect(read).toThrow(message);
  });
});
