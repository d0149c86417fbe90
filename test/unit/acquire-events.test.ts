// The events object of an acquisition and what arrives through it: the order of status lines of an install from a
// filesystem mirror, silence on a cached pinned version, debug and warning lines, and the offline fallback (with a
// refused local port standing in for an unreachable mirror, so no network is needed).
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProviderAddress } from "../../src/acquire/address.js";
import { parseVersionConstraint } from "../../src/acquire/constraint.js";
import { HostUnreachableError, ParameterizeError } from "../../src/acquire/errors.js";
import { eventSink, type AcquireEvents } from "../../src/acquire/events.js";
import { currentPlatform, formatPlatform } from "../../src/acquire/platform.js";
import { acquireRemote } from "../../src/acquire/remote.js";

const PLATFORM = formatPlatform(currentPlatform());
const foo = parseProviderAddress("hashicorp/foo");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** An unpacked package of terraform-provider-foo in Terraform's mirror (and cache) layout under `root`. */
function putPackage(root: string, version: string): string {
  const dir = join(root, "registry.opentofu.org/hashicorp/foo", version, PLATFORM);
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, `terraform-provider-foo_v${version}`);
  writeFileSync(exe, `#!/bin/sh\necho ${version}\n`);
  chmodSync(exe, 0o755);
  return exe;
}

/** A home with a CLI configuration of the given provider_installation body, a mirror and an empty cache. */
function sandbox(installation: (mirror: string) => string) {
  const home = mkdtempSync(join(tmpdir(), "tfbridge-events-"));
  dirs.push(home);
  const mirror = join(home, "mirror");
  const cache = join(home, "cache");
  mkdirSync(mirror);
  const config = join(home, "terraform.rc");
  writeFileSync(config, `provider_installation {\n${installation(mirror)}\n}\n`);
  const env = { HOME: home, TF_CLI_CONFIG_FILE: config, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: cache, TF_REGISTRY_DISCOVERY_RETRY: "0", XDG_DATA_DIRS: join(home, "none") };
  return { home, mirror, cache, config, env };
}

function recorder() {
  const seen: string[] = [];
  const events: AcquireEvents = { status: (m) => seen.push(`status: ${m}`), warn: (m) => seen.push(`warn: ${m}`), debug: (m) => seen.push(`debug: ${m}`) };
  return { seen, events };
}

// A port just freed: nothing listens there, so the connection is refused at once, which is how an unreachable host
// looks. (fetch refuses to try port 1 at all.)
let DOWN = "";
let PORT = "";
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  PORT = String((server.address() as AddressInfo).port);
  DOWN = `https://127.0.0.1:${PORT}/`;
  await new Promise((r) => server.close(r));
});
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("the events object", () => {
  it("fills absent callbacks with no-ops and passes given ones through, with any URL password masked", () => {
    const warned: string[] = [];
    const sink = eventSink({ warn: (m) => warned.push(m) });
    sink.warn("x");
    sink.warn("could not reach network mirror https://bob:MIRRORPASS@mirror.example/ (ECONNREFUSED)");
    expect(warned).toEqual(["x", "could not reach network mirror https://bob:***@mirror.example/ (ECONNREFUSED)"]);
    expect(() => sink.status("x")).not.toThrow();
    expect(() => eventSink().debug("x")).not.toThrow();
  });

  it("carries an install's progress in order, and nothing at all when a pinned version is cached", async () => {
    const s = sandbox((m) => `  filesystem_mirror { path = "${m}" }`);
    putPackage(s.mirror, "1.0.0");
    const first = recorder();
    const got = await acquireRemote(foo, parseVersionConstraint("~> 1.0"), { env: s.env, events: first.events });
    expect(got.version).toBe("1.0.0");
    expect(got.path).toBe(join(s.cache, "registry.opentofu.org/hashicorp/foo/1.0.0", PLATFORM, "terraform-provider-foo_v1.0.0"));
    expect(first.seen).toEqual([
      'status: Resolving registry.opentofu.org/hashicorp/foo ("~> 1.0")…',
      `status: Copying terraform-provider-foo 1.0.0 from ${join(s.mirror, "registry.opentofu.org/hashicorp/foo/1.0.0", PLATFORM)}…`,
      `status: Installed registry.opentofu.org/hashicorp/foo 1.0.0 from filesystem mirror ${s.mirror} (from a filesystem mirror (mirrors carry no signatures))`,
    ]);
    // Pinned and cached: no configuration is read (even a broken one) and nobody hears anything.
    writeFileSync(s.config, "provider_installation {");
    const second = recorder();
    const again = await acquireRemote(foo, parseVersionConstraint("1.0.0"), { env: s.env, events: second.events, lockHashes: got.hashes });
    expect(again).toEqual(got);
    expect(second.seen).toEqual([]);
    // A value that pins no h1: is a debug line, not a warning.
    const third = recorder();
    await acquireRemote(foo, parseVersionConstraint("1.0.0"), { env: s.env, events: third.events, lockHashes: [] });
    expect(third.seen).toEqual([
      "debug: registry.opentofu.org/hashicorp/foo 1.0.0: the parameter value pins no h1: lock hash (an SDK generated before lock hashes, or by the reference), so the package is not checked against one",
    ]);
  });

  it("works with no listener at all", async () => {
    const s = sandbox((m) => `  filesystem_mirror { path = "${m}" }`);
    putPackage(s.mirror, "2.0.0");
    expect((await acquireRemote(foo, parseVersionConstraint(""), { env: s.env })).version).toBe("2.0.0");
  });
});

describe("an unreachable source", () => {
  it("lets a newer cached match stand in, with a warning that a newer one may exist", async () => {
    const s = sandbox((m) => `  network_mirror { url = "${DOWN}" }\n  filesystem_mirror { path = "${m}" }`);
    putPackage(s.mirror, "1.0.0");
    const cached = putPackage(s.cache, "1.1.0");
    const r = recorder();
    const got = await acquireRemote(foo, parseVersionConstraint("~> 1.0"), { env: s.env, events: r.events });
    expect(got).toMatchObject({ path: cached, version: "1.1.0" });
    const warnings = r.seen.filter((l) => l.startsWith("warn: "));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^warn: could not reach network mirror ${esc(DOWN)}: cannot reach 127\\.0\\.0\\.1:${PORT} \\(ECONNREFUSED`));
    expect(warnings[0]).toMatch(/Using registry\.opentofu\.org\/hashicorp\/foo 1\.1\.0 from the cache, the newest cached version matching "~> 1\.0"; a newer one may have been published\.$/);
  });

  it("otherwise chooses among what the other sources offer, with a warning", async () => {
    const s = sandbox((m) => `  network_mirror { url = "${DOWN}" }\n  filesystem_mirror { path = "${m}" }`);
    putPackage(s.mirror, "1.2.0");
    putPackage(s.cache, "1.1.0");
    const r = recorder();
    const got = await acquireRemote(foo, parseVersionConstraint("~> 1.0"), { env: s.env, events: r.events });
    expect(got.version).toBe("1.2.0");
    expect(r.seen.filter((l) => l.startsWith("warn: "))[0]).toMatch(/; choosing registry\.opentofu\.org\/hashicorp\/foo 1\.2\.0 among the versions the other sources offer$/);
    expect(r.seen.at(-1)).toMatch(/^status: Installed registry\.opentofu\.org\/hashicorp\/foo 1\.2\.0 from filesystem mirror /);
  });

  it("with nothing else to use is a HostUnreachableError, not a not-found", async () => {
    const s = sandbox(() => `  network_mirror { url = "${DOWN}" }`);
    const e = await acquireRemote(foo, parseVersionConstraint("~> 1.0"), { env: s.env }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HostUnreachableError);
    expect(e).toBeInstanceOf(ParameterizeError);
    expect((e as ParameterizeError).kind).toBe("failed-precondition");
    expect((e as HostUnreachableError).unreachable).toEqual([`network mirror ${DOWN}`]);
    expect((e as Error).message).toMatch(
      new RegExp(`^cannot resolve registry\\.opentofu\\.org/hashicorp/foo \\("~> 1\\.0"\\): could not reach network mirror ${esc(DOWN)}: cannot reach 127\\.0\\.0\\.1:${PORT} \\(ECONNREFUSED.*, and no cached version matches$`),
    );
  });
});
