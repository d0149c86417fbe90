// Acquisition against a registry over HTTPS on 127.0.0.1 (a fake of the Terraform registry: see
// test/support/registry-server.ts) serving real provider archives: resolution, verification, credentials, the cache,
// mirrors and offline use. Each acquisition runs in a child process that trusts the test CA via NODE_EXTRA_CA_CERTS.
import { createHash } from "node:crypto";
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeRegistry, CURRENT_PLATFORM } from "../support/registry-server.js";
import { acquireInChild, sandbox, type AcquireResult } from "../support/registry-child.js";
import { buildZip } from "../support/registry-zip.js";
import { peerPath } from "../support/peers.js";

let reg: FakeRegistry;
const random = (): string => peerPath("random");
const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

const RANDOM_VERSIONS = [
  { version: "3.5.1" },
  { version: "3.6.0" },
  { version: "3.6.3" },
  { version: "3.7.2" },
  { version: "4.0.0" },
  { version: "4.1.0-beta1" },
];

beforeAll(async () => {
  reg = await FakeRegistry.start({
    providers: {
      "hashicorp/random": RANDOM_VERSIONS,
      "faulty/random": [
        { version: "1.0.0", fault: "bad-checksum" },
        { version: "1.1.0", fault: "bad-signature" },
        { version: "1.2.0", fault: "cut-off" },
        { version: "1.3.0", fault: "zip-slip" },
        { version: "1.4.0", fault: "no-keys" },
      ],
      "odd/random": [{ version: "2.0.0" }, { version: "2.1.0", protocols: ["4.0"] }, { version: "2.2.0", platforms: ["darwin_arm64"] }],
    },
    binaries: { random: random() },
  });
});

afterAll(async () => {
  await reg?.stop();
});

const zipDownloads = (r: FakeRegistry, ns: string, version: string): number => r.count(new RegExp(`^/files/${ns}/random/${version.replace(/\./g, "\\.")}/.*\\.zip$`));

function expectOk(r: AcquireResult): asserts r is AcquireResult & { ok: true; path: string; version: string } {
  expect(r, JSON.stringify(r, null, 2)).toMatchObject({ ok: true });
}

function expectFailure(r: AcquireResult, kind: string, message: RegExp): void {
  expect(r.ok, JSON.stringify(r, null, 2)).toBe(false);
  expect(r.stack, "a bug, not a user-facing failure").toBeUndefined();
  expect(r.kind).toBe(kind);
  expect(r.message).toMatch(message);
}

/** What the cache holds for a provider: "<version>/<platform>" entries, hidden staging/lock entries included. */
function cacheEntries(cache: string, host: string, ns: string, type = "random"): string[] {
  const dir = join(cache, host, ns, type);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((v) => readdirSync(join(dir, v)).map((p) => `${v}/${p}`)).sort();
}

describe("the registry protocol", () => {
  it("downloads, verifies and caches the newest matching version, in the reference's cache layout", async () => {
    const sb = sandbox(reg.caFile);
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "~> 3.6", sb.env);
    expectOk(r);
    expect(r.version).toBe("3.7.2");
    expect(r.path).toBe(join(sb.cache, reg.host, "hashicorp/random/3.7.2", CURRENT_PLATFORM, "terraform-provider-random_v3.7.2"));
    expect(sha(r.path)).toBe(sha(random()));
    accessSync(r.path, constants.X_OK);
    // Beside the package, the registry's zh: of the archive it came from, for a later `package add` to record.
    expect(cacheEntries(sb.cache, reg.host, "hashicorp")).toEqual([`3.7.2/${CURRENT_PLATFORM}`, `3.7.2/${CURRENT_PLATFORM}.zh`]);
    expect(r.statuses.some((s) => /Downloading terraform-provider-random 3\.7\.2 .*: [\d.]+ MiB of [\d.]+ MiB \(\d+%\)/.test(s))).toBe(true);
    expect(r.statuses.at(-1)).toMatch(/Installed .* 3\.7\.2 from the registry at .* \(signed by key [0-9A-F]{16}\)/);
    expect(r.warnings).toEqual([]);

    // The registry is asked again (it is reachable), but the matching version is cached: no second download.
    const before = zipDownloads(reg, "hashicorp", "3.7.2");
    const again = await acquireInChild(`${reg.host}/hashicorp/random`, "~> 3.6", sb.env);
    expectOk(again);
    expect(again.path).toBe(r.path);
    expect(zipDownloads(reg, "hashicorp", "3.7.2")).toBe(before);
  });

  it("resolves Terraform constraints to the newest matching version, pre-releases only when named exactly", async () => {
    const sb = sandbox(reg.caFile);
    const cases: [string, string][] = [
      ["= 3.6.0", "3.6.0"],
      ["", "4.0.0"],
      ["< 3.7", "3.6.3"],
      ["~> 3.6.0", "3.6.3"],
      [">= 3.0, != 3.7.2, < 4.0", "3.6.3"],
      ["3.5.1", "3.5.1"],
      [">= 4.0", "4.0.0"],
      ["= 4.1.0-beta1", "4.1.0-beta1"],
    ];
    for (const [constraint, want] of cases) {
      const r = await acquireInChild(`${reg.host}/hashicorp/random`, constraint, sb.env);
      expectOk(r);
      expect(r.version, constraint).toBe(want);
    }
  }, 120_000);

  it("resolves the newest version against the registry, not against a stale cache", async () => {
    const sb = sandbox(reg.caFile);
    expect((await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.5.1", sb.env)).version).toBe("3.5.1");
    const latest = await acquireInChild(`${reg.host}/hashicorp/random`, "", sb.env);
    expectOk(latest);
    expect(latest.version).toBe("4.0.0");
    expect(cacheEntries(sb.cache, reg.host, "hashicorp")).toEqual([`3.5.1/${CURRENT_PLATFORM}`, `3.5.1/${CURRENT_PLATFORM}.zh`, `4.0.0/${CURRENT_PLATFORM}`, `4.0.0/${CURRENT_PLATFORM}.zh`]);
  });

  it("an exact version already cached needs no network", async () => {
    const sb = sandbox(reg.caFile);
    expectOk(await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.3", sb.env));
    const hits = reg.hits.length;
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "3.6.3", sb.env);
    expectOk(r);
    expect(reg.hits.length).toBe(hits);
    expect(r.statuses).toEqual([]);
  });

  it("uses a package already in Terraform's plugin_cache_dir (TF_PLUGIN_CACHE_DIR) without downloading, and never writes there", async () => {
    const sb = sandbox(reg.caFile);
    const tfCache = join(sb.home, "tf-plugin-cache");
    const pkg = join(tfCache, reg.host, "hashicorp", "random", "3.6.0", CURRENT_PLATFORM);
    mkdirSync(pkg, { recursive: true });
    copyFileSync(random(), join(pkg, "terraform-provider-random_v3.6.0"));
    const env = { ...sb.env, TF_PLUGIN_CACHE_DIR: tfCache };
    const hits = reg.hits.length;
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.0", env);
    expectOk(r);
    expect(r.path).toBe(join(pkg, "terraform-provider-random_v3.6.0"));
    expect(reg.hits.length).toBe(hits);
    const newer = await acquireInChild(`${reg.host}/hashicorp/random`, "~> 3.6.0", env);
    expectOk(newer);
    expect(newer.version).toBe("3.6.3");
    expect(newer.path.startsWith(sb.cache)).toBe(true);
    expect(readdirSync(join(tfCache, reg.host, "hashicorp", "random"))).toEqual(["3.6.0"]);
  });

  it("skips matching versions that have no package for this platform or speak an old protocol, and says so", async () => {
    const sb = sandbox(reg.caFile);
    const r = await acquireInChild(`${reg.host}/odd/random`, "~> 2.0", sb.env);
    expectOk(r);
    expect(r.version).toBe("2.0.0");
    expect(r.warnings.join("\n")).toMatch(/skipped newer matching versions 2\.2\.0 \(no linux_amd64 package\), 2\.1\.0 \(plugin protocol 4\.0; we speak 5 and 6\)/);
  });

  it("reports a constraint no version matches, with the versions there are", async () => {
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "~> 9.0", sandbox(reg.caFile).env);
    expectFailure(r, "not-found", /no version of 127\.0\.0\.1:\d+\/hashicorp\/random matches "~> 9\.0"; available: 4\.1\.0-beta1, 4\.0\.0, 3\.7\.2, 3\.6\.3, 3\.6\.0, 3\.5\.1/);
  });

  it("reports an unknown provider as not found", async () => {
    const r = await acquireInChild(`${reg.host}/hashicorp/nonesuch`, "", sandbox(reg.caFile).env);
    expectFailure(r, "not-found", /provider 127\.0\.0\.1:\d+\/hashicorp\/nonesuch not found: the registry at 127\.0\.0\.1:\d+ has no provider hashicorp\/nonesuch/);
  });

  it("fails on an untrusted certificate with a hint about NODE_EXTRA_CA_CERTS", async () => {
    const env = { ...sandbox(reg.caFile).env, NODE_EXTRA_CA_CERTS: "" };
    const r = await acquireInChild(`${reg.host}/hashicorp/random`, "", env);
    expectFailure(r, "failed-precondition", /cannot verify the TLS certificate of 127\.0\.0\.1:\d+ .*NODE_EXTRA_CA_CERTS/);
  });
});

describe("verification failures leave nothing in the cache", () => {
  const sb = () => sandbox(reg.caFile);

  it("a checksum mismatch", async () => {
    const s = sb();
    const r = await acquireInChild(`${reg.host}/faulty/random`, "= 1.0.0", s.env);
    expectFailure(r, "failed-precondition", /checksum mismatch for terraform-provider-random_1\.0\.0_linux_amd64\.zip .*expected SHA-256 [0-9a-f]{64} \(signed SHA256SUMS\), got [0-9a-f]{64}/);
    expect(cacheEntries(s.cache, reg.host, "faulty")).toEqual([]);
  });

  it("a bad signature (and the archive is not even downloaded)", async () => {
    const s = sb();
    const r = await acquireInChild(`${reg.host}/faulty/random`, "= 1.1.0", s.env);
    expectFailure(r, "failed-precondition", /SHA256SUMS of random 1\.1\.0 failed signature verification: no valid signature by the registry's keys \([0-9A-F]{16}\)/);
    expect(zipDownloads(reg, "faulty", "1.1.0")).toBe(0);
    expect(cacheEntries(s.cache, reg.host, "faulty")).toEqual([]);
  });

  it("a download cut off half-way", async () => {
    const s = sb();
    const r = await acquireInChild(`${reg.host}/faulty/random`, "= 1.2.0", s.env);
    expectFailure(r, "failed-precondition", /the download from 127\.0\.0\.1:\d+ (was cut off after \d+ of \d+ bytes|ended after \d+ of \d+ bytes)/);
    expect(cacheEntries(s.cache, reg.host, "faulty")).toEqual([]);
    expect(existsSync(join(s.cache, reg.host, "faulty", "random", "1.2.0"))).toBe(false);
  });

  it("a zip whose entries escape with ../", async () => {
    const s = sb();
    const r = await acquireInChild(`${reg.host}/faulty/random`, "= 1.3.0", s.env);
    expectFailure(r, "failed-precondition", /entry "\.\.\/escaped-by-zip-slip" would be written outside the target directory/);
    expect(cacheEntries(s.cache, reg.host, "faulty")).toEqual([]);
    const everything = readdirSync(s.cache, { recursive: true }).map(String);
    expect(everything.filter((f) => f.includes("escaped-by-zip-slip"))).toEqual([]);
  });

  it("no signing keys: installs on the checksum alone, with a warning", async () => {
    const s = sb();
    const r = await acquireInChild(`${reg.host}/faulty/random`, "= 1.4.0", s.env);
    expectOk(r);
    expect(r.warnings.join("\n")).toMatch(/publishes no signing keys for faulty\/random 1\.4\.0/);
  });
});

describe("credentials", () => {
  let priv: FakeRegistry;
  beforeAll(async () => {
    priv = await FakeRegistry.start({
      providers: { "corp/random": [{ version: "1.0.0" }] },
      binaries: { random: random() },
      token: "s3cret",
      redirectDownloadsToLocalhost: true,
    });
  });
  afterAll(async () => {
    await priv?.stop();
  });

  it("a private registry answers 401 without a token, and the error says which TF_TOKEN_ variable to set", async () => {
    const r = await acquireInChild(`${priv.host}/corp/random`, "", sandbox(priv.caFile).env);
    const port = priv.host.split(":")[1];
    expectFailure(r, "failed-precondition", new RegExp(`answered 401 .*set TF_TOKEN_127_0_0_1:${port}=<token>`));
  });

  it("TF_TOKEN_<host> authenticates every request to that host, and is never sent to another host, even on a redirect", async () => {
    const env = sandbox(priv.caFile, { [`TF_TOKEN_127_0_0_1:${priv.host.split(":")[1]}`]: "s3cret" }).env;
    const from = priv.auth.length;
    const r = await acquireInChild(`${priv.host}/corp/random`, "", env);
    expectOk(r);
    expect(r.version).toBe("1.0.0");
    const sent = priv.auth.slice(from);
    const mine = sent.filter((a) => a.host === priv.host && !a.path.startsWith("/.well-known/"));
    expect(mine.map((a) => a.path)).toEqual(expect.arrayContaining(["/v1/providers/corp/random/versions", expect.stringMatching(/^\/redirect\/files\/.*\.zip$/)]));
    expect(mine.every((a) => a.authorization === "Bearer s3cret")).toBe(true);
    const elsewhere = sent.filter((a) => a.host.startsWith("localhost:"));
    expect(elsewhere.map((a) => a.path)).toEqual([expect.stringMatching(/^\/files\/corp\/random\/1\.0\.0\/.*\.zip$/)]);
    expect(elsewhere[0]!.authorization).toBeUndefined();
  });

  it("a wrong token is reported as refused", async () => {
    const env = sandbox(priv.caFile, { [`TF_TOKEN_127_0_0_1:${priv.host.split(":")[1]}`]: "wrong" }).env;
    expectFailure(await acquireInChild(`${priv.host}/corp/random`, "", env), "failed-precondition", /answered 401 .*the token given for 127\.0\.0\.1:\d+ was refused/);
  });

  it("a credentials block in the CLI configuration (TF_CLI_CONFIG_FILE) works too; TF_TOKEN_ wins over it", async () => {
    const sb = sandbox(priv.caFile);
    const rc = join(sb.home, "test.tfrc");
    writeFileSync(rc, `# private registry\ncredentials "${priv.host}" {\n  token = "s3cret"\n}\n`);
    expectOk(await acquireInChild(`${priv.host}/corp/random`, "", { ...sb.env, TF_CLI_CONFIG_FILE: rc }));
    const port = priv.host.split(":")[1];
    const overridden = await acquireInChild(`${priv.host}/corp/random`, "", { ...sandbox(priv.caFile).env, TF_CLI_CONFIG_FILE: rc, [`TF_TOKEN_127_0_0_1:${port}`]: "wrong" });
    expectFailure(overridden, "failed-precondition", /was refused/);
  });

  it("credentials saved by terraform login (~/.terraform.d/credentials.tfrc.json) are used", async () => {
    const sb = sandbox(priv.caFile);
    mkdirSync(join(sb.home, ".terraform.d"));
    writeFileSync(join(sb.home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { [priv.host]: { token: "s3cret" } } }));
    expectOk(await acquireInChild(`${priv.host}/corp/random`, "", sb.env));
  });
});

describe("concurrent installs", () => {
  let slow: FakeRegistry;
  beforeAll(async () => {
    slow = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.6.0" }] }, binaries: { random: random() }, chunkDelayMs: 20 });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it("two processes installing the same provider into one cache download it once and both succeed", async () => {
    const sb = sandbox(slow.caFile);
    const [a, b] = await Promise.all([
      acquireInChild(`${slow.host}/hashicorp/random`, "~> 3.0", sb.env),
      acquireInChild(`${slow.host}/hashicorp/random`, "~> 3.0", sb.env),
    ]);
    expectOk(a);
    expectOk(b);
    expect(a.path).toBe(b.path);
    expect(sha(a.path)).toBe(sha(random()));
    expect(zipDownloads(slow, "hashicorp", "3.6.0")).toBe(1);
    // The downloads overlapped (each takes seconds here): the second process waited on the install lock.
    expect([a, b].filter((r) => r.statuses.some((s) => /Waiting for another process that is installing into /.test(s)))).toHaveLength(1);
    expect(cacheEntries(sb.cache, slow.host, "hashicorp")).toEqual([`3.6.0/${CURRENT_PLATFORM}`, `3.6.0/${CURRENT_PLATFORM}.zh`]);
  });
});

describe("offline", () => {
  it("with a warm cache, uses the newest cached match with a warning; an exact cached version needs no warning", async () => {
    const gone = await FakeRegistry.start({ providers: { "hashicorp/random": [{ version: "3.6.0" }, { version: "3.7.2" }] }, binaries: { random: random() } });
    const sb = sandbox(gone.caFile);
    const host = gone.host;
    expect((await acquireInChild(`${host}/hashicorp/random`, "", sb.env)).version).toBe("3.7.2");
    await gone.stop();

    const r = await acquireInChild(`${host}/hashicorp/random`, "~> 3.0", sb.env);
    expectOk(r);
    expect(r.version).toBe("3.7.2");
    expect(r.warnings.join("\n")).toMatch(/could not reach the registry at 127\.0\.0\.1:\d+: cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED.*Using .* 3\.7\.2 from the cache/);

    const exact = await acquireInChild(`${host}/hashicorp/random`, "= 3.7.2", sb.env);
    expectOk(exact);
    expect(exact.warnings).toEqual([]);

    const none = await acquireInChild(`${host}/hashicorp/random`, "~> 4.0", sb.env);
    expectFailure(none, "failed-precondition", /could not reach the registry at .*ECONNREFUSED.*and no cached version matches/);
  });
});

describe("mirrors", () => {
  it("a filesystem mirror (packed and unpacked layouts) serves providers its include patterns name, with no network", async () => {
    const sb = sandbox(reg.caFile);
    const mirror = join(sb.home, "mirror");
    const dir = join(mirror, "example.com", "hashicorp", "random");
    mkdirSync(join(dir, "3.2.0", CURRENT_PLATFORM), { recursive: true });
    copyFileSync(random(), join(dir, "3.2.0", CURRENT_PLATFORM, "terraform-provider-random_v3.2.0"));
    writeFileSync(
      join(dir, `terraform-provider-random_3.1.0_${CURRENT_PLATFORM}.zip`),
      buildZip([{ name: "terraform-provider-random_v3.1.0", data: readFileSync(random()), mode: 0o100755, stored: true }]),
    );
    const rc = join(sb.home, "mirror.tfrc");
    writeFileSync(
      rc,
      [
        "provider_installation {",
        "  filesystem_mirror {",
        `    path    = "${mirror}"`,
        '    include = ["example.com/*/*"]',
        "  }",
        "  direct {",
        '    exclude = ["example.com/*/*"]',
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    const env = { ...sb.env, TF_CLI_CONFIG_FILE: rc };
    const hits = reg.hits.length;
    const newest = await acquireInChild("example.com/hashicorp/random", "~> 3.0", env);
    expectOk(newest);
    expect(newest.version).toBe("3.2.0");
    expect(sha(newest.path)).toBe(sha(random()));
    const packed = await acquireInChild("example.com/hashicorp/random", "= 3.1.0", env);
    expectOk(packed);
    accessSync(packed.path, constants.X_OK);
    expect(cacheEntries(sb.cache, "example.com", "hashicorp")).toEqual([`3.1.0/${CURRENT_PLATFORM}`, `3.2.0/${CURRENT_PLATFORM}`]);
    expect(reg.hits.length).toBe(hits);
    // Other providers still go to their registry (direct): here the fake one.
    expectOk(await acquireInChild(`${reg.host}/hashicorp/random`, "= 3.6.0", env));
  });

  it("Terraform's implied mirror ~/.terraform.d/plugins is used when there is no provider_installation", async () => {
    const sb = sandbox(reg.caFile);
    const dir = join(sb.home, ".terraform.d", "plugins", "example.com", "hashicorp", "random", "3.3.0", CURRENT_PLATFORM);
    mkdirSync(dir, { recursive: true });
    copyFileSync(random(), join(dir, "terraform-provider-random"));
    const r = await acquireInChild("example.com/hashicorp/random", "", sb.env);
    expectOk(r);
    expect(r.version).toBe("3.3.0");
  });

  it("a network mirror serves providers of any registry, checked against its h1: and zh: hashes", async () => {
    const sb = sandbox(reg.caFile);
    const rc = join(sb.home, "netmirror.tfrc");
    writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "https://${reg.host}/mirror/"\n  }\n}\n`);
    const env = { ...sb.env, TF_CLI_CONFIG_FILE: rc };
    const h1 = await acquireInChild("registry.opentofu.org/hashicorp/random", "~> 3.6", env);
    expectOk(h1);
    expect(h1.version).toBe("3.7.2");
    expect(h1.statuses.at(-1)).toMatch(/from network mirror https:\/\/127\.0\.0\.1:\d+\/mirror\/ \(matches the mirror's h1:/);
    const zh = await acquireInChild("hashicorp/random", "= 3.6.3", env);
    expectOk(zh);
    expect(zh.statuses.at(-1)).toMatch(/matches the mirror's zh:/);
    expect(zh.warnings).toEqual([]);
    expect(reg.count(/^\/mirror\/registry\.opentofu\.org\/hashicorp\/random\/index\.json$/)).toBeGreaterThanOrEqual(2);
    expect(cacheEntries(sb.cache, "registry.opentofu.org", "hashicorp")).toEqual([`3.6.3/${CURRENT_PLATFORM}`, `3.7.2/${CURRENT_PLATFORM}`]);
  });
});
