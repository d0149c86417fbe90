// Lock hashes against the fake registry: the h1: an acquisition reports, and the check of a pinned h1: on every
// install path (cache, fresh download, filesystem mirror, network mirror), a changed package and a tampered cache.
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashV1 } from "../../src/acquire/verify.js";
import { FakeRegistry, CURRENT_PLATFORM } from "../support/registry-server.js";
import { acquireInChild, sandbox, type AcquireResult } from "../support/registry-child.js";
import { peerPath } from "../support/peers.js";
import { callError, startPluginProcess, valueRequest } from "../support/pulumi.js";

let reg: FakeRegistry;
const EXE = "terraform-provider-random_v3.6.3";

beforeAll(async () => {
  reg = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.6.3" }] }, binaries: { random: peerPath("random") } });
});

afterAll(async () => {
  await reg?.stop();
});

function expectOk(r: AcquireResult): asserts r is AcquireResult & { ok: true; path: string; hashes: string[] } {
  expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true });
}

function expectMismatch(r: AcquireResult, pinned: string): void {
  expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
  expect(r.kind).toBe("failed-precondition");
  expect(r.message).toContain(pinned);
  expect(r.message).toMatch(/has lock hash h1:[A-Za-z0-9+/]{43}=, but the SDK was generated from one with h1:/);
  expect(r.message).toContain("hashicorp/random 3.6.3");
  expect(r.message).toMatch(/regenerate the SDK with `pulumi package add terraform-provider .*hashicorp\/random 3\.6\.3`/);
}

/** A filesystem mirror (unpacked layout) holding `binary` as registry.opentofu.org/hashicorp/random 3.6.3. */
function fsMirror(home: string, binary: string): string {
  const dir = join(home, "mirror", "registry.opentofu.org", "hashicorp", "random", "3.6.3", CURRENT_PLATFORM);
  mkdirSync(dir, { recursive: true });
  copyFileSync(binary, join(dir, EXE));
  const rc = join(home, "fs.tfrc");
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${join(home, "mirror")}"\n  }\n}\n`);
  return rc;
}

describe("lock hashes", () => {
  let pinned: string;

  it("an acquisition reports the package's h1: (Terraform's hash of the unpacked package) and the registry's zh: of its archive, also from the cache", async () => {
    const sb = sandbox(reg.caFile);
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.6.3", sb.env);
    expectOk(r);
    const archive = await reg.build("hashicorp", "random", { version: "3.6.3" });
    expect(r.hashes).toEqual([await hashV1(dirname(r.path)), `zh:${archive.sha256}`]);
    expect(r.hashes[0]).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
    pinned = r.hashes[0]!;
    expect(r.debugs, "no value yet, so no note about a missing pin").toEqual([]);
    // A later `package add` served from the cache records the same pair.
    const again = await acquireInChild(`${reg.host}/hashicorp/random`, "3.6.3", sb.env);
    expectOk(again);
    expect(again.statuses.some((s) => /^Installed /.test(s))).toBe(false);
    expect(again.hashes).toEqual(r.hashes);
  });

  it("the same package passes from the cache, a fresh download, a filesystem mirror and a network mirror", async () => {
    const sb = sandbox(reg.caFile);
    const download = await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.3", sb.env, [], [pinned]);
    expectOk(download);
    expect(download.statuses.at(-1)).toMatch(/^Installed /);
    const cached = await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.3", sb.env, [], [pinned]);
    expectOk(cached);
    expect(cached.statuses.some((s) => /^Installed /.test(s))).toBe(false);

    const fs = sandbox(reg.caFile);
    const fsEnv = { ...fs.env, TF_CLI_CONFIG_FILE: fsMirror(fs.home, peerPath("random")) };
    expectOk(await acquireInChild("registry.opentofu.org/hashicorp/random", "= 3.6.3", fsEnv, [], [pinned]));

    const net = sandbox(reg.caFile);
    const rc = join(net.home, "net.tfrc");
    writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "https://${reg.host}/mirror/"\n  }\n}\n`);
    expectOk(await acquireInChild("registry.opentofu.org/hashicorp/random", "= 3.6.3", { ...net.env, TF_CLI_CONFIG_FILE: rc }, [], [pinned]));
  });

  it("a different package under the same version fails, naming both hashes and how to regenerate the SDK", async () => {
    const sb = sandbox(reg.caFile);
    const env = { ...sb.env, TF_CLI_CONFIG_FILE: fsMirror(sb.home, peerPath("tls")) };
    expectMismatch(await acquireInChild("registry.opentofu.org/hashicorp/random", "= 3.6.3", env, [], [pinned]), pinned);
  });

  it("a cached package altered after install fails", async () => {
    const sb = sandbox(reg.caFile);
    const first = await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.3", sb.env, [], [pinned]);
    expectOk(first);
    appendFileSync(first.path, Buffer.from([0]));
    expectMismatch(await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.3", sb.env, [], [pinned]), pinned);
  });

  it("a value without hashes (an older or reference-made SDK) skips the check with a debug note", async () => {
    const sb = sandbox(reg.caFile);
    const env = { ...sb.env, TF_CLI_CONFIG_FILE: fsMirror(sb.home, peerPath("tls")) };
    const r = await acquireInChild("registry.opentofu.org/hashicorp/random", "= 3.6.3", env, [], []);
    expectOk(r);
    expect(r.debugs).toEqual([expect.stringMatching(/registry\.opentofu\.org\/hashicorp\/random 3\.6\.3: the parameter value pins no h1: lock hash/)]);
  });
});

describe("a value with lock hashes, through the plugin's Parameterize", () => {
  it("runs from a cache holding the pinned package, and answers FAILED_PRECONDITION naming both hashes for another pin", async () => {
    const root = mkdtempSync(join(tmpdir(), "tfbridge-lock-"));
    const dir = join(root, "registry.opentofu.org", "hashicorp", "random", "3.6.3", CURRENT_PLATFORM);
    mkdirSync(dir, { recursive: true });
    copyFileSync(peerPath("random"), join(dir, EXE));
    const h1 = await hashV1(dir);
    const value = (hashes: string[]): string => JSON.stringify({ remote: { url: "registry.opentofu.org/hashicorp/random", version: "3.6.3", hashes } });
    // No network: an exact version in the cache is used before any registry is asked.
    const env = { ...process.env, PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR: root };
    const [good, bad] = await Promise.all([startPluginProcess({ env }), startPluginProcess({ env })]);
    try {
      expect(await good.call("Parameterize", valueRequest(value([h1]), "random", "3.6.3"))).toMatchObject({ name: "random", version: "3.6.3" });
      const other = `h1:${"A".repeat(43)}=`;
      const e = await callError(bad, "Parameterize", valueRequest(value([other]), "random", "3.6.3"));
      expect(e.code).toBe(9);
      expect(e.message).toContain(other);
      expect(e.message).toContain(h1);
    } finally {
      await Promise.all([good.stop(), bad.stop()]);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
