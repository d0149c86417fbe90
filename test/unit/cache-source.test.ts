// The caches as a Source: roots searched in order, only complete executable packages for this platform count, the
// newest cached match for offline use, and a copy out of the cache.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { CacheSource } from "../../src/acquire/cache-source.js";
import { parseVersionConstraint } from "../../src/acquire/constraint.js";
import { eventSink } from "../../src/acquire/events.js";
import { Http } from "../../src/acquire/http.js";
import { DEFAULT_SETTINGS } from "../../src/acquire/settings.js";

const PLATFORM = "linux_amd64";
const foo = parseProviderAddress("hashicorp/foo");
const root = mkdtempSync(join(tmpdir(), "tfbridge-cache-source-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(cache: string, version: string, platform = PLATFORM, executable = true): string {
  const dir = join(root, cache, "registry.opentofu.org/hashicorp/foo", version, platform);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, `terraform-provider-foo_v${version}`);
  writeFileSync(exe, "#!/bin/sh\n");
  chmodSync(exe, executable ? 0o755 : 0o644);
  return exe;
}

describe("CacheSource", () => {
  const ours = join(root, "ours");
  const terraforms = join(root, "terraform");
  put("ours", "1.0.0");
  const shared = put("terraform", "1.0.0");
  const onlyShared = put("terraform", "1.2.0");
  put("ours", "1.3.0", "darwin_arm64");
  put("ours", "1.4.0", PLATFORM, false);
  put("terraform", "2.0.0");
  const cache = new CacheSource([ours, terraforms], PLATFORM);

  it("finds a version in the first root that has a complete package for this platform", () => {
    expect(cache.locate(foo, "1.0.0")).toBe(join(ours, "registry.opentofu.org/hashicorp/foo/1.0.0", PLATFORM, "terraform-provider-foo_v1.0.0"));
    expect(new CacheSource([terraforms, ours], PLATFORM).locate(foo, "1.0.0")).toBe(shared);
    expect(cache.locate(foo, "1.2.0")).toBe(onlyShared);
    expect(cache.locate(foo, "1.3.0")).toBeUndefined();
    expect(cache.locate(foo, "1.4.0")).toBeUndefined();
    expect(cache.locate(foo, "9.9.9")).toBeUndefined();
  });

  it("lists usable versions across roots once each, and the newest that matches a constraint", async () => {
    expect((await cache.versions(foo))?.map((v) => v.version)).toEqual(["2.0.0", "1.2.0", "1.0.0"]);
    expect(await cache.versions(parseProviderAddress("hashicorp/bar"))).toBeUndefined();
    expect(cache.newestMatching(foo, parseVersionConstraint("~> 1.0"))).toBe("1.2.0");
    expect(cache.newestMatching(foo, parseVersionConstraint(">= 3.0"))).toBeUndefined();
  });

  it("copies a cached package into a directory, as any Source installs", async () => {
    const dest = join(root, "dest");
    const statuses: string[] = [];
    const ctx = { http: new Http({ ...DEFAULT_SETTINGS, tokenFor: () => undefined }), platform: PLATFORM, events: eventSink({ status: (m) => statuses.push(m) }), maxUnpackedBytes: 1 << 20, maxArchiveEntries: 100 };
    expect(await cache.install(foo, "1.2.0", dest, root, ctx)).toBe("from the provider cache");
    expect(existsSync(join(dest, "terraform-provider-foo_v1.2.0"))).toBe(true);
    expect(statuses).toEqual([`Copying terraform-provider-foo 1.2.0 from ${join(terraforms, "registry.opentofu.org/hashicorp/foo/1.2.0", PLATFORM)}…`]);
    await expect(cache.install(foo, "1.3.0", join(root, "dest2"), root, ctx)).rejects.toThrow(/has no package of hashicorp\/foo 1\.3\.0 for linux_amd64/);
  });
});
