// The acquisition settings read from the environment (timeouts, retries, size limits) and the retry backoff.
import { describe, expect, it } from "vitest";
import { backoffMs } from "../../src/acquire/http.js";
import { acquireSettings, DEFAULT_SETTINGS, enforceSignature } from "../../src/acquire/settings.js";

describe("acquisition settings", () => {
  it("defaults to Terraform's and OpenTofu's values when nothing is set, and ignores empty values", () => {
    expect(acquireSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(acquireSettings({ TF_REGISTRY_CLIENT_TIMEOUT: "", TF_PROVIDER_DOWNLOAD_RETRY: " " })).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({ timeoutMs: 10_000, metadataRetries: 1, downloadRetries: 2, maxArchiveBytes: 1024 ** 3 });
  });

  it("reads every variable in its unit", () => {
    expect(
      acquireSettings({
        TF_REGISTRY_CLIENT_TIMEOUT: "2.5",
        TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "7",
        TF_REGISTRY_DISCOVERY_RETRY: "0",
        TF_PROVIDER_DOWNLOAD_RETRY: "5",
        TF_BRIDGE_MAX_ARCHIVE_BYTES: "1000",
        TF_BRIDGE_MAX_UNPACKED_BYTES: "2000",
        TF_BRIDGE_MAX_ARCHIVE_ENTRIES: "50",
        TF_BRIDGE_MAX_METADATA_BYTES: "3000",
      }),
    ).toEqual({ timeoutMs: 2500, idleTimeoutMs: 7000, metadataRetries: 0, downloadRetries: 5, maxArchiveBytes: 1000, maxUnpackedBytes: 2000, maxArchiveEntries: 50, maxMetadataBytes: 3000 });
  });

  it("takes a timeout past Node's longest timer (3000000 s, meant as never) as that longest wait, 24.8 days", () => {
    const never = acquireSettings({ TF_REGISTRY_CLIENT_TIMEOUT: "3000000", TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "99999999999" });
    expect([never.timeoutMs, never.idleTimeoutMs]).toEqual([2 ** 31 - 1, 2 ** 31 - 1]);
  });

  it("caps metadata at 16 MiB unless told otherwise", () => {
    expect(DEFAULT_SETTINGS.maxMetadataBytes).toBe(16 * 1024 * 1024);
  });

  it("TF_BRIDGE_ENFORCE_SIGNATURE: true or false as OpenTofu reads its variable, anything else refused by name", () => {
    expect(enforceSignature({})).toBe(false);
    expect(enforceSignature({ TF_BRIDGE_ENFORCE_SIGNATURE: "" })).toBe(false);
    expect(enforceSignature({ TF_BRIDGE_ENFORCE_SIGNATURE: "false" })).toBe(false);
    expect(enforceSignature({ TF_BRIDGE_ENFORCE_SIGNATURE: "true" })).toBe(true);
    expect(enforceSignature({ TF_BRIDGE_ENFORCE_SIGNATURE: " true " })).toBe(true);
    for (const bad of ["yes", "1", "TRUE"]) {
      expect(() => enforceSignature({ TF_BRIDGE_ENFORCE_SIGNATURE: bad })).toThrow(
        `TF_BRIDGE_ENFORCE_SIGNATURE=${JSON.stringify(bad)} is not true or false; set it to true or false or unset it (default false)`,
      );
    }
  });

  it("refuses a bad value naming the variable, the value, what it should be and the default", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TF_REGISTRY_CLIENT_TIMEOUT: "10s" }, /^TF_REGISTRY_CLIENT_TIMEOUT="10s" is not a number of seconds above 0; .* \(default 10\)$/],
      [{ TF_REGISTRY_CLIENT_TIMEOUT: "0" }, /TF_REGISTRY_CLIENT_TIMEOUT="0" is not a number of seconds above 0/],
      [{ TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "-1" }, /TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT="-1" is not a number of seconds above 0; .* \(default 60\)/],
      [{ TF_REGISTRY_DISCOVERY_RETRY: "1.5" }, /TF_REGISTRY_DISCOVERY_RETRY="1.5" is not a whole number of retries from 0 to 100; .* \(default 1\)/],
      [{ TF_PROVIDER_DOWNLOAD_RETRY: "1000" }, /TF_PROVIDER_DOWNLOAD_RETRY="1000" is not a whole number of retries from 0 to 100/],
      [{ TF_BRIDGE_MAX_ARCHIVE_BYTES: "1GiB" }, /TF_BRIDGE_MAX_ARCHIVE_BYTES="1GiB" is not a whole number of bytes above 0; .* \(default 1073741824\)/],
      [{ TF_BRIDGE_MAX_UNPACKED_BYTES: "0" }, /TF_BRIDGE_MAX_UNPACKED_BYTES="0" is not a whole number of bytes above 0/],
      [{ TF_BRIDGE_MAX_ARCHIVE_ENTRIES: "lots" }, /TF_BRIDGE_MAX_ARCHIVE_ENTRIES="lots" is not a whole number of entries above 0; .* \(default 10000\)/],
      [{ TF_BRIDGE_MAX_ARCHIVE_ENTRIES: "0" }, /TF_BRIDGE_MAX_ARCHIVE_ENTRIES="0" is not a whole number of entries above 0/],
      [{ TF_BRIDGE_MAX_METADATA_BYTES: "16MiB" }, /TF_BRIDGE_MAX_METADATA_BYTES="16MiB" is not a whole number of bytes above 0; .* \(default 16777216\)/],
    ];
    for (const [env, message] of cases) {
      expect(() => acquireSettings(env), JSON.stringify(env)).toThrow(message);
    }
  });
});

describe("retry backoff", () => {
  it("doubles from 1 s up to 30 s, with up to 20% jitter, and honours Retry-After up to the same cap", () => {
    for (let i = 0; i < 50; i++) {
      for (const [failed, base] of [
        [1, 1000],
        [2, 2000],
        [3, 4000],
        [6, 30_000],
        [20, 30_000],
      ] as const) {
        const ms = backoffMs(failed);
        expect(ms).toBeGreaterThanOrEqual(base);
        expect(ms).toBeLessThanOrEqual(base * 1.2);
      }
      expect(backoffMs(1, 5000)).toBeGreaterThanOrEqual(5000);
      expect(backoffMs(1, 3_600_000)).toBeLessThanOrEqual(36_000);
    }
  });
});
