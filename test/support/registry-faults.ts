// The registry and mirror fault matrix shared by test/integration/registry-faults.test.ts (each scenario once, with
// its expectation asserted) and bench/faults.bench.ts (each scenario several times, as a table): what the fake
// registry does wrong, the settings the run uses, and what the acquisition must answer.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { acquireInChild, sandbox, type AcquireResult, type Sandbox } from "./registry-child.js";
import { CURRENT_PLATFORM, FakeRegistry, type FakeVersion, type FaultRule } from "./registry-server.js";
import { peerPath } from "./peers.js";

/**
 * One version per fault of the fake. In the network mirror an even last digit gets an h1: hash and an odd one zh:
 * (see registry-server.ts), so the two truncated versions check both.
 */
export const FAULT_VERSIONS: FakeVersion[] = [
  { version: "1.0.0" },
  { version: "1.0.1", fault: "bad-checksum" },
  { version: "1.0.3", fault: "bad-signature" },
  { version: "1.0.5", fault: "unknown-key" },
  { version: "1.0.7", fault: "expired-key" },
  { version: "1.0.9", fault: "expired-key-signed-before" },
  { version: "1.1.1", fault: "cut-off" },
  { version: "1.1.3", fault: "truncated" },
  { version: "1.1.4", fault: "truncated" },
  { version: "1.1.5", fault: "redirect-loop" },
  { version: "1.1.7", fault: "oversized" },
  { version: "1.1.9", fault: "oversized-chunked" },
  { version: "1.2.1", fault: "zip-slip" },
];

/** The random provider's archive is about 11.8 MiB; oversized ones carry 4 MiB more. A limit between the two: */
export const ARCHIVE_LIMIT = 14 * 1024 * 1024;

export function startFaultRegistry(): Promise<FakeRegistry> {
  return FakeRegistry.start({ providers: { "faults/random": FAULT_VERSIONS }, binaries: { random: peerPath("random") } });
}

export type Expectation = { ok: true; warning?: RegExp } | { ok: false; kind: string; message: RegExp };

export interface FaultScenario {
  name: string;
  via: "registry" | "mirror";
  version: string;
  rules?: FaultRule[];
  env?: NodeJS.ProcessEnv;
  /** Send the acquisition to a loopback port nobody listens on instead of the fake. */
  unreachable?: true;
  /** A progress line the run must have shown (the retries announce themselves). */
  status?: RegExp;
  /** The archive must not even be fetched (signature failures are found first). */
  noDownload?: true;
  expect: (reg: FakeRegistry) => Expectation;
}

const zip = (version: string): RegExp => new RegExp(`/files/faults/random/${version.replace(/\./g, "\\.")}/[^/]*\\.zip$`);
const VERSIONS = /\/v1\/providers\/faults\/random\/versions$/;
const MIRROR_INDEX = /\/mirror\/[^/]+\/faults\/random\/index\.json$/;
const fail = (message: RegExp): Expectation => ({ ok: false, kind: "failed-precondition", message });
const ok: Expectation = { ok: true };
const day = (d: Date): string => d.toISOString().slice(0, 10);

export const SCENARIOS: FaultScenario[] = [
  {
    name: "slow answers (versions list later than the timeout, every time)",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: VERSIONS, delayMs: 2500 }],
    env: { TF_REGISTRY_CLIENT_TIMEOUT: "1" },
    expect: () => fail(/did not answer within 1 s .*\(2 attempts\): if 127\.0\.0\.1:\d+ is only slow, raise TF_REGISTRY_CLIENT_TIMEOUT \(seconds, now 1\)/),
  },
  { name: "one slow answer, then fast ones", via: "registry", version: "1.0.0", rules: [{ path: VERSIONS, delayMs: 2500, times: 1 }], env: { TF_REGISTRY_CLIENT_TIMEOUT: "1" }, expect: () => ok },
  {
    name: "503 once, then success",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: VERSIONS, status: 503, times: 1 }],
    status: /listing versions of faults\/random: https:\/\/.*\/versions answered 503 Service Unavailable; trying again in [\d.]+ s \(attempt 2 of 2\)/,
    expect: () => ok,
  },
  {
    name: "503 three times (default: 1 retry)",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: VERSIONS, status: 503, times: 3 }],
    expect: () => fail(/answered 503 Service Unavailable \(2 attempts\): the server is failing; try again later, or raise TF_REGISTRY_DISCOVERY_RETRY \(now 1\)/),
  },
  { name: "503 three times, TF_REGISTRY_DISCOVERY_RETRY=3", via: "registry", version: "1.0.0", rules: [{ path: VERSIONS, status: 503, times: 3 }], env: { TF_REGISTRY_DISCOVERY_RETRY: "3" }, expect: () => ok },
  {
    name: "archive answers 500 twice, then success",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: zip("1.0.0"), status: 500, times: 2 }],
    status: /answered 500 Internal Server Error; trying again in [\d.]+ s \(attempt 3 of 3\)/,
    expect: () => ok,
  },
  {
    name: "archive stalls half-way once, then success",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: zip("1.0.0"), stallMs: 5000, times: 1 }],
    env: { TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "1" },
    expect: () => ok,
  },
  {
    name: "archive stalls half-way every time",
    via: "registry",
    version: "1.0.0",
    rules: [{ path: zip("1.0.0"), stallMs: 5000 }],
    env: { TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT: "1", TF_PROVIDER_DOWNLOAD_RETRY: "1" },
    expect: () => fail(/stalled after \d+ bytes: no data for 1 s \(2 attempts\): if the connection to 127\.0\.0\.1:\d+ is only slow, raise TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT/),
  },
  {
    name: "archive cut off half-way (connection dropped)",
    via: "registry",
    version: "1.1.1",
    expect: () => fail(/cut off after \d+ of \d+ bytes.*\(3 attempts\): try again; if it keeps happening, something between here and 127\.0\.0\.1:\d+ \(a proxy\?\) cuts long downloads/),
  },
  {
    name: "truncated archive (whole answer, half a file)",
    via: "registry",
    version: "1.1.3",
    expect: () => fail(/checksum mismatch for terraform-provider-random_1\.1\.3_\w+\.zip .*altered or damaged on the way/),
  },
  { name: "wrong checksum", via: "registry", version: "1.0.1", expect: () => fail(/checksum mismatch for .*expected SHA-256 [0-9a-f]{64} \(signed SHA256SUMS\), got [0-9a-f]{64}\. The archive was altered/) },
  {
    name: "wrong signature (listed key, altered bytes)",
    via: "registry",
    version: "1.0.3",
    noDownload: true,
    expect: () => fail(/the signature by key [0-9A-F]{16} does not match SHA256SUMS .*SHA256SUMS or its signature was altered: do not use this package/),
  },
  {
    name: "unknown key (signed by a key the registry does not list)",
    via: "registry",
    version: "1.0.5",
    noDownload: true,
    expect: () => fail(/SHA256SUMS is signed by key [0-9A-F]{16}, which is not one of them\. The registry's keys and the key that signed disagree/),
  },
  {
    name: "expired key (signed after it expired)",
    via: "registry",
    version: "1.0.7",
    noDownload: true,
    expect: (reg) =>
      fail(new RegExp(`key ${reg.expired.keyId} expired on ${day(reg.expired.at)}T[\\d:]+Z, before the signature was made \\(.*\\)\\. Ask the provider's publisher to sign with a current key`)),
  },
  {
    name: "expired key (signed while it was valid)",
    via: "registry",
    version: "1.0.9",
    expect: (reg) => ({ ok: true, warning: new RegExp(`signed by key ${reg.expired.keyId}, which expired on ${day(reg.expired.at)}; the signature was made on .* while the key was valid`) }),
  },
  {
    name: "redirect loop",
    via: "registry",
    version: "1.1.5",
    expect: () => fail(/redirects in a loop: https:\/\/127\.0\.0\.1:\d+\/loop\/a\/files\/.* → https:\/\/127\.0\.0\.1:\d+\/loop\/b\/files\/.* → https:\/\/127\.0\.0\.1:\d+\/loop\/a\/files\/.*: the server is misconfigured/),
  },
  {
    name: "oversized archive (Content-Length over the limit)",
    via: "registry",
    version: "1.1.7",
    env: { TF_BRIDGE_MAX_ARCHIVE_BYTES: String(ARCHIVE_LIMIT) },
    expect: () => fail(/is 15\.\d MiB, more than the limit of 14\.0 MiB: if the provider really is that large, raise TF_BRIDGE_MAX_ARCHIVE_BYTES \(bytes, now 14680064\)/),
  },
  {
    name: "oversized archive (no Content-Length)",
    via: "registry",
    version: "1.1.9",
    env: { TF_BRIDGE_MAX_ARCHIVE_BYTES: String(ARCHIVE_LIMIT) },
    expect: () => fail(/sent more than the limit of 14\.0 MiB \(it did not announce a size\): if the provider really is that large, raise TF_BRIDGE_MAX_ARCHIVE_BYTES/),
  },
  {
    name: "archive within the size limit",
    via: "registry",
    version: "1.0.0",
    env: { TF_BRIDGE_MAX_ARCHIVE_BYTES: String(ARCHIVE_LIMIT) },
    expect: () => ok,
  },
  {
    name: "unpacks to more than the limit",
    via: "registry",
    version: "1.0.0",
    env: { TF_BRIDGE_MAX_UNPACKED_BYTES: String(16 * 1024 * 1024) },
    expect: () => fail(/unpacks to more than the limit of 16\.0 MiB: if the provider really is that large, raise TF_BRIDGE_MAX_UNPACKED_BYTES \(bytes, now 16777216\)/),
  },
  { name: "zip entries escaping with ../", via: "registry", version: "1.2.1", expect: () => fail(/entry "\.\.\/escaped-by-zip-slip" would be written outside the target directory/) },
  {
    name: "registry unreachable, nothing cached",
    via: "registry",
    version: "1.0.0",
    unreachable: true,
    expect: () => fail(/cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED.*\) \(2 attempts\): check the network and the host name, or try again later, and no cached version matches/),
  },
  {
    name: "bad setting: TF_REGISTRY_CLIENT_TIMEOUT=soon",
    via: "registry",
    version: "1.0.0",
    env: { TF_REGISTRY_CLIENT_TIMEOUT: "soon" },
    expect: () => ({ ok: false, kind: "invalid-argument", message: /TF_REGISTRY_CLIENT_TIMEOUT="soon" is not a number of seconds above 0; set it to a number of seconds above 0 or unset it \(default 10\)/ }),
  },
  { name: "mirror: index 503 once, then success", via: "mirror", version: "1.0.0", rules: [{ path: MIRROR_INDEX, status: 503, times: 1 }], expect: () => ok },
  {
    name: "mirror: slow index every time",
    via: "mirror",
    version: "1.0.0",
    rules: [{ path: MIRROR_INDEX, delayMs: 2500 }],
    env: { TF_REGISTRY_CLIENT_TIMEOUT: "1" },
    expect: () => fail(/network mirror https:\/\/127\.0\.0\.1:\d+\/mirror\/: listing versions .* did not answer within 1 s .*\(2 attempts\): .*raise TF_REGISTRY_CLIENT_TIMEOUT/),
  },
  { name: "mirror: archive answers 502 once, then success", via: "mirror", version: "1.0.0", rules: [{ path: zip("1.0.0"), status: 502, times: 1 }], expect: () => ok },
  { name: "mirror: archive cut off half-way", via: "mirror", version: "1.1.1", env: { TF_PROVIDER_DOWNLOAD_RETRY: "0" }, expect: () => fail(/cut off after \d+ of \d+ bytes.*\(1 attempt\): try again/) },
  {
    name: "mirror: truncated archive (zh: hash)",
    via: "mirror",
    version: "1.1.3",
    expect: () => fail(/the package of random 1\.1\.3 from network mirror .* matches none of its hashes \(got zh:[0-9a-f]{64}\): it was altered or damaged on the way/),
  },
  {
    name: "mirror: truncated archive (h1: hash)",
    via: "mirror",
    version: "1.1.4",
    expect: () => fail(/the archive https:\/\/.*\.zip is not a readable zip archive \(.*\): it was damaged on the way or is not a provider package; try again/),
  },
  { name: "mirror: wrong checksum", via: "mirror", version: "1.0.1", expect: () => fail(/matches none of its hashes \(got zh:[0-9a-f]{64}\): it was altered or damaged/) },
  { name: "mirror: redirect loop", via: "mirror", version: "1.1.5", expect: () => fail(/redirects in a loop: .*\/loop\/a\/files\/.* → .*\/loop\/b\/files\/.* → .*\/loop\/a\/files\/.*: the server is misconfigured/) },
  {
    name: "mirror: oversized archive (no Content-Length)",
    via: "mirror",
    version: "1.1.9",
    env: { TF_BRIDGE_MAX_ARCHIVE_BYTES: String(ARCHIVE_LIMIT) },
    expect: () => fail(/sent more than the limit of 14\.0 MiB \(it did not announce a size\): .*raise TF_BRIDGE_MAX_ARCHIVE_BYTES/),
  },
];

/** Everything under the cache that a finished acquisition must not leave: staging, locks, and on failure any file. */
export function cacheLeftovers(cache: string, succeeded: boolean): string[] {
  if (!existsSync(cache)) return [];
  const all = readdirSync(cache, { recursive: true }).map(String);
  return all.filter((p) => /\.staging-|\.install-lock/.test(p) || (!succeeded && statSync(join(cache, p)).isFile()));
}

/** A loopback address that refuses connections: a port the kernel just gave out and that was closed again. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

export interface ScenarioRun {
  result: AcquireResult;
  /** The answer was the one expected (success, or the failure kind and message); why not, when it was not. */
  asExpected: boolean;
  mismatch?: string;
  leftovers: string[];
}

/** The address and environment of a scenario in a fresh sandbox: straight to the fake, or through it as a network mirror. */
export async function scenarioSetup(reg: FakeRegistry, s: FaultScenario): Promise<{ address: string; sb: Sandbox }> {
  const sb = sandbox(reg.caFile, s.env ?? {});
  if (s.via === "registry") return { address: `${s.unreachable ? await closedPort() : reg.host}/faults/random`, sb };
  const rc = join(sb.home, "mirror.tfrc");
  writeFileSync(rc, `provider_installation {\n  network_mirror {\n    url = "https://${reg.host}/mirror/"\n  }\n}\n`);
  sb.env["TF_CLI_CONFIG_FILE"] = rc;
  return { address: "registry.opentofu.org/faults/random", sb };
}

export function judge(result: AcquireResult, want: Expectation, status?: RegExp): string | undefined {
  if (result.stack !== undefined) return `a bug, not a user-facing failure: ${result.stack}`;
  if (status !== undefined && !result.statuses.some((l) => status.test(l))) return `no progress line matching ${status} in ${JSON.stringify(result.statuses)}`;
  if (want.ok) {
    if (!result.ok) return `expected success, got ${result.kind}: ${result.message}`;
    if (want.warning !== undefined && !result.warnings.some((w) => want.warning!.test(w))) return `no warning matching ${want.warning} in ${JSON.stringify(result.warnings)}`;
    return undefined;
  }
  if (result.ok) return `expected a failure matching ${want.message}, got success`;
  if (result.kind !== want.kind) return `expected a ${want.kind} failure, got ${result.kind}: ${result.message}`;
  if (!want.message.test(result.message ?? "")) return `expected a message matching ${want.message}, got: ${result.message}`;
  return undefined;
}

export async function runScenario(reg: FakeRegistry, s: FaultScenario): Promise<ScenarioRun> {
  reg.rules = s.rules ?? [];
  const { address, sb } = await scenarioSetup(reg, s);
  const downloads = reg.count(zip(s.version));
  try {
    const result = await acquireInChild(address, `= ${s.version}`, sb.env);
    let mismatch = judge(result, s.expect(reg), s.status);
    if (mismatch === undefined && s.noDownload && reg.count(zip(s.version)) !== downloads) mismatch = "the archive was downloaded although the signature had failed";
    return { result, asExpected: mismatch === undefined, mismatch, leftovers: cacheLeftovers(sb.cache, result.ok) };
  } finally {
    reg.rules = [];
    rmSync(dirname(sb.home), { recursive: true, force: true });
  }
}

export interface LimitedDir {
  dir: string;
  /** What limits it: "tmpfs" (ENOSPC) or "RLIMIT_FSIZE" (EFBIG). */
  how: string;
  /** The command prefix the child runs under. */
  prefix: string[];
  /** Bytes in use on the file system holding it (the tmpfs only). */
  used: () => number | undefined;
  release: () => void;
}

/**
 * A cache directory that holds at most `bytes`: a tmpfs of that size, or else (or when `how` asks for it) a
 * child-process file size limit.
 */
export function limitedDir(dir: string, bytes: number, how: "tmpfs" | "RLIMIT_FSIZE" = "tmpfs"): LimitedDir {
  mkdirSync(dir, { recursive: true });
  try {
    if (how !== "tmpfs") throw new Error("a file size limit was asked for");
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir], { stdio: "pipe" });
    return {
      dir,
      how: "tmpfs",
      prefix: [],
      used: () => {
        const s = statfsSync(dir);
        return (s.blocks - s.bfree) * s.bsize;
      },
      release: () => execFileSync("umount", [dir]),
    };
  } catch {
    return { dir, how: "RLIMIT_FSIZE", prefix: ["prlimit", `--fsize=${bytes}`, "--"], used: () => undefined, release: () => undefined };
  }
}

export interface DiskFullRun {
  result: AcquireResult;
  how: string;
  /** The cache holds nothing afterwards (and, on a tmpfs, every byte is free again). */
  clean: boolean;
}

/**
 * Acquires faults/random 1.0.0 (about 11.8 MiB zipped, 25 MiB unpacked) into a cache that holds `mib` MiB: 8 fills
 * up while downloading, 16 while unpacking.
 */
export async function runDiskFull(reg: FakeRegistry, mib: number, how?: "tmpfs" | "RLIMIT_FSIZE"): Promise<DiskFullRun> {
  const sb = sandbox(reg.caFile);
  const limited = limitedDir(sb.cache, mib * 1024 * 1024, how);
  try {
    const result = await acquireInChild(`${reg.host}/faults/random`, "= 1.0.0", sb.env, limited.prefix);
    const used = limited.used();
    const clean = cacheLeftovers(sb.cache, false).length === 0 && readdirSync(sb.cache).length === 0 && (used === undefined || used === 0);
    return { result, how: limited.how, clean };
  } finally {
    limited.release();
    rmSync(dirname(sb.home), { recursive: true, force: true });
  }
}

/** The message a full cache must give, for a cache at `cache` limited the `how` way. */
export function diskFullMessage(cache: string, how: string): RegExp {
  const [errno, advice] =
    how === "tmpfs"
      ? ["ENOSPC: no space left: the disk is full", "Free some space there, or set PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR to a directory on a disk with room"]
      : ["EFBIG: no space left: a file would grow past this process's file size limit \\(ulimit -f\\)", "Raise the file size limit \\(ulimit -f\\) of the pulumi command"];
  return new RegExp(`the plugin cache at ${cache} cannot be written \\(${errno}\\) while installing ${cache}/.*/faults/random/1\\.0\\.0/\\w+; nothing was installed\\. ${advice}$`);
}

/** The cache directory a "cannot be written" message names. */
export const unwritableCache = (message: string | undefined): string => /the plugin cache at (\S+) cannot be written/.exec(message ?? "")?.[1] ?? "";

/** How the cache of `runUnwritable` is made unwritable. */
export type Unwritable = "read-only mount" | "a file" | "a file above it" | "no permission";

export interface UnwritableRun {
  result: AcquireResult;
  cache: string;
  /** Set when this process cannot make that fault here (it may not mount, or may not drop its capabilities). */
  skipped?: string;
}

/**
 * Acquires faults/random 1.0.0 into a cache that cannot be written: a read-only tmpfs mounted over it (root only), a
 * file where it should be or where one of its parents should be, or a directory without write permission, which as
 * root needs the child to run without CAP_DAC_OVERRIDE (setpriv drops it from the bounding set, as a container's
 * runtime does for a non-root user).
 */
export async function runUnwritable(reg: FakeRegistry, how: Unwritable): Promise<UnwritableRun> {
  const sb = sandbox(reg.caFile);
  let prefix: string[] = [];
  let release = (): void => undefined;
  try {
    if (how === "read-only mount") {
      mkdirSync(sb.cache);
      try {
        execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", sb.cache], { stdio: "pipe" });
      } catch (e) {
        return { result: undefined as unknown as AcquireResult, cache: sb.cache, skipped: `this process may not mount a tmpfs: ${(e as Error).message.split("\n")[0]}` };
      }
      release = () => execFileSync("umount", [sb.cache]);
    } else if (how === "a file") {
      writeFileSync(sb.cache, "not a directory\n");
    } else if (how === "a file above it") {
      writeFileSync(sb.cache, "not a directory\n");
      sb.env["PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR"] = join(sb.cache, "plugins");
    } else {
      mkdirSync(sb.cache, { mode: 0o555 });
      if (process.getuid?.() === 0) {
        prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"];
        try {
          execFileSync(prefix[0]!, [...prefix.slice(1), "true"], { stdio: "pipe" });
        } catch (e) {
          return { result: undefined as unknown as AcquireResult, cache: sb.cache, skipped: `this root process may not drop CAP_DAC_OVERRIDE: ${(e as Error).message.split("\n")[0]}` };
        }
      }
    }
    const result = await acquireInChild(`${reg.host}/faults/random`, "= 1.0.0", sb.env, prefix);
    return { result, cache: sb.env["PULUMI_DYNAMIC_TF_PLUGIN_CACHE_DIR"]! };
  } finally {
    release();
    rmSync(dirname(sb.home), { recursive: true, force: true });
  }
}

export interface ConcurrentRun {
  results: AcquireResult[];
  downloads: number;
  /** Exactly one complete package, nothing else. */
  clean: boolean;
  /** Every process got the same path, holding exactly the provider's binary. */
  identical: boolean;
}

const sha256File = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

/** `n` processes acquire the same provider from `reg` (start it with chunkDelayMs so they overlap) into one cache. */
export async function runConcurrent(reg: FakeRegistry, n: number): Promise<ConcurrentRun> {
  const sb = sandbox(reg.caFile);
  const zips = /^\/files\/hashicorp\/random\/3\.6\.0\/.*\.zip$/;
  const before = reg.count(zips);
  try {
    const results = await Promise.all(Array.from({ length: n }, () => acquireInChild(`${reg.host}/hashicorp/random`, "~> 3.0", sb.env)));
    const versionDir = join(sb.cache, reg.host, "hashicorp", "random", "3.6.0");
    const pkg = join(versionDir, CURRENT_PLATFORM);
    const clean =
      cacheLeftovers(sb.cache, true).length === 0 &&
      existsSync(pkg) &&
      // The package and, beside it, the registry's zh: of its archive (src/acquire/remote.ts).
      readdirSync(versionDir).sort().join() === `${CURRENT_PLATFORM},${CURRENT_PLATFORM}.zh` &&
      readdirSync(pkg).join() === "terraform-provider-random_v3.6.0";
    const paths = new Set(results.map((r) => r.path));
    const [path] = paths;
    const identical = paths.size === 1 && path !== undefined && existsSync(path) && sha256File(path) === sha256File(peerPath("random"));
    return { results, downloads: reg.count(zips) - before, clean, identical };
  } finally {
    rmSync(dirname(sb.home), { recursive: true, force: true });
  }
}
