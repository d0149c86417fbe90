// Package verification as chains of steps composed into one (as Terraform's PackageAuthenticationAll composes its
// checks): a registry package's SHA256SUMS signature, SHA256SUMS entry and archive SHA-256; a network mirror's
// package against the hashes the mirror lists; and for every install path the unpacked package against the lock
// hashes an SDK's value pinned.
import { readFileSync } from "node:fs";
import { DEFAULT_REGISTRY_HOST, formatAddress, type ProviderAddress } from "./address.js";
import { ParameterizeError } from "./errors.js";
import { ENFORCE_SIGNATURE_ENV } from "./settings.js";
import type { AcquireEventSink } from "./events.js";
import { formatBytes } from "./http.js";
import { RegistryProtocolError } from "./source.js";
import { hashV1, hashZh, parseSha256Sums, SignatureError, verifyDetachedSignature, type SignatureProblem } from "./verify.js";

/**
 * One check of a package: throws, with a message for the user, when the package fails it; otherwise returns a
 * short note of what it established (for the status line), or undefined when it has nothing to add.
 */
export type AuthenticationStep<P> = (pkg: P) => Promise<string | undefined>;

/**
 * The steps as one step: each runs only if every earlier one passed, so an expensive step (a download) can sit
 * behind a cheap one (a signature over a small file); the notes of all of them come back, in order.
 */
export function authenticateAll<P>(...steps: AuthenticationStep<P>[]): (pkg: P) => Promise<string[]> {
  return async (pkg) => {
    const notes: string[] = [];
    for (const step of steps) {
      const note = await step(pkg);
      if (note !== undefined) notes.push(note);
    }
    return notes;
  };
}

// ---- A registry's package: signature → SHA256SUMS → archive ----

/** What a registry says about one package, with the archive fetched only when a step needs it. */
export interface RegistryPackage {
  address: ProviderAddress;
  version: string;
  /** The registry host, named in advice. */
  host: string;
  /** The archive's file name, as SHA256SUMS lists it. */
  filename: string;
  /** The archive's SHA-256 (hex) as the download metadata states it. */
  shasum: string;
  /** The SHA256SUMS document. */
  shasums: Uint8Array;
  /** The registry's ASCII-armored signing keys; empty when it gives none. */
  keys: readonly string[];
  /** The detached signature over SHA256SUMS. */
  signature: () => Promise<Uint8Array>;
  /** Downloads the archive (once) and tells its SHA-256, size and the host it came from. */
  archive: () => Promise<{ sha256: string; bytes: number; from: string }>;
  /** Told the key id once the signature is verified. */
  onSigned?: (keyId: string) => void;
}

/**
 * The refusal of a package that cannot show a verified signature while TF_BRIDGE_ENFORCE_SIGNATURE=true: `what` is
 * the package, `why` what it has instead.
 */
export function unsignedRefused(what: string, why: string, remedy = "Install it from a provider registry that signs its packages"): ParameterizeError {
  return new ParameterizeError(
    "failed-precondition",
    `${what}: ${why}, and ${ENFORCE_SIGNATURE_ENV}=true accepts only a package whose SHA256SUMS signature was verified. ${remedy}, or unset ${ENFORCE_SIGNATURE_ENV} to accept it`,
  );
}

/** What to do about each way a signature fails; none of them is safe to ignore. */
const SIGNATURE_ADVICE: Record<SignatureProblem, (host: string) => string> = {
  "unknown-key": (host) =>
    `The registry's keys and the key that signed disagree: do not use this package; tell the operator of ${host}, or choose another version`,
  "expired-key": () => `Ask the provider's publisher to sign with a current key, or choose a version signed before the key expired`,
  mismatch: (host) => `SHA256SUMS or its signature was altered: do not use this package; try again, and if it persists tell the operator of ${host}`,
  unreadable: (host) => `${host} serves a signature or key that cannot be read: tell its operator, or choose another version`,
};

const day = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * SHA256SUMS is signed by one of the registry's keys. A registry without keys is accepted with a warning, since
 * the archive is still checked against SHA256SUMS, unless `enforce` (TF_BRIDGE_ENFORCE_SIGNATURE) refuses it; a key
 * that expired after signing is accepted, as Terraform does.
 */
export function signatureStep(events: AcquireEventSink, enforce = false): AuthenticationStep<RegistryPackage> {
  return async (p) => {
    const what = `${p.address.namespace}/${p.address.type} ${p.version}`;
    if (p.keys.length === 0 && enforce) {
      throw unsignedRefused(`${formatAddress(p.address)} ${p.version} from ${p.host}`, `${p.host} publishes no signing keys for it, so its signature cannot be checked`);
    }
    if (p.keys.length === 0) {
      events.warn(`${p.host} publishes no signing keys for ${what}: its SHA256SUMS signature cannot be checked. The archive is still checked against SHA256SUMS.`);
      return "checksum only: the registry gives no signing keys";
    }
    const signature = await p.signature();
    try {
      const { keyId, expired } = await verifyDetachedSignature(p.shasums, signature, p.keys);
      p.onSigned?.(keyId);
      if (expired === undefined) return `signed by key ${keyId}`;
      events.warn(
        `the SHA256SUMS of ${what} is signed by key ${keyId}, which expired on ${day(expired.at)}; ` +
          `the signature was made${expired.signedAt !== undefined ? ` on ${day(expired.signedAt)}` : ""} while the key was valid, so it is accepted ` +
          `(as Terraform accepts it). Its publisher should sign new releases with a current key.`,
      );
      return `signed by key ${keyId}, expired ${day(expired.at)}`;
    } catch (e) {
      const problem: SignatureProblem = e instanceof SignatureError ? e.problem : "mismatch";
      throw new RegistryProtocolError(
        `the SHA256SUMS of ${p.address.type} ${p.version} failed signature verification: ${(e as Error).message}. ${SIGNATURE_ADVICE[problem](p.host)}`,
        { cause: e },
      );
    }
  };
}

/** The (now trusted) SHA256SUMS lists the archive with the checksum the download metadata gave. */
export const sha256SumsStep: AuthenticationStep<RegistryPackage> = async (p) => {
  const listed = parseSha256Sums(Buffer.from(p.shasums).toString("utf8")).get(p.filename);
  if (listed === undefined) throw new RegistryProtocolError(`the signed SHA256SUMS of ${p.address.type} ${p.version} does not list ${p.filename}`);
  if (listed !== p.shasum) {
    throw new RegistryProtocolError(
      `checksum mismatch for ${p.filename}: the registry says ${p.shasum} but the signed SHA256SUMS says ${listed}. Do not use this package: tell the operator of ${p.host}`,
    );
  }
  return undefined;
};

/** The downloaded archive has that checksum. */
export const archiveChecksumStep: AuthenticationStep<RegistryPackage> = async (p) => {
  const got = await p.archive();
  if (got.sha256 !== p.shasum) {
    throw new RegistryProtocolError(
      `checksum mismatch for ${p.filename} (${formatBytes(got.bytes)}): expected SHA-256 ${p.shasum} (signed SHA256SUMS), got ${got.sha256}. ` +
        `The archive was altered or damaged on the way from ${got.from}: try again, and if it persists tell the operator of ${p.host}`,
    );
  }
  return undefined;
};

/** A registry package's whole chain; the signature comes first so a forged listing never costs a download. */
export function registryAuthentication(events: AcquireEventSink, enforceSignature = false): (p: RegistryPackage) => Promise<string[]> {
  return authenticateAll(signatureStep(events, enforceSignature), sha256SumsStep, archiveChecksumStep);
}

// ---- A network mirror's package: the archive's zh:, else the unpacked package's h1: ----

/** A package downloaded from a network mirror, unpacked only when a step needs it. */
export interface MirrorPackage {
  /** "the package of random 3.6.0 from network mirror https://…", for messages. */
  what: string;
  /** "random 3.6.0", for the warning about an unverified package. */
  short: string;
  /** The mirror's description. */
  mirror: string;
  /** The hashes the mirror lists for this platform's package (`zh:`, `h1:`); may be empty. */
  hashes: readonly string[];
  /** The downloaded archive's SHA-256 (hex). */
  sha256: string;
  /** Unpacks the archive (once) and tells the directory. */
  unpack: () => Promise<string>;
}

const DAMAGED = ": it was altered or damaged on the way; try again, and if it persists tell the mirror's operator";

/**
 * A `zh:` match settles it before anything is unpacked; a mismatch fails here only when the mirror lists no `h1:`,
 * since an `h1:` can only be checked on the unpacked files.
 */
export const mirrorArchiveStep: AuthenticationStep<MirrorPackage> = async (p) => {
  const zh = hashZh(p.sha256);
  if (p.hashes.includes(zh)) return `matches the mirror's ${zh.slice(0, 16)}…`;
  if (p.hashes.length > 0 && !p.hashes.some((h) => h.startsWith("h1:"))) throw new RegistryProtocolError(`${p.what} matches none of its hashes (got ${zh})${DAMAGED}`);
  return undefined;
};

/** Unpacks, then (unless the archive's zh: already matched) the package's h1: must be listed; no hashes at all is a warning. */
export function mirrorPackageStep(events: AcquireEventSink): AuthenticationStep<MirrorPackage> {
  return async (p) => {
    const dir = await p.unpack();
    if (p.hashes.length === 0) {
      events.warn(`${p.mirror} gives no hashes for ${p.short}: the package is not verified`);
      return "not verified: the mirror gives no hashes";
    }
    const zh = hashZh(p.sha256);
    if (p.hashes.includes(zh)) return undefined;
    const h1 = await hashV1(dir);
    if (p.hashes.includes(h1)) return `matches the mirror's ${h1}`;
    throw new RegistryProtocolError(`${p.what} matches none of its hashes (got ${h1} and ${zh})${DAMAGED}`);
  };
}

/** A network mirror package's whole chain. */
export function mirrorAuthentication(events: AcquireEventSink): (p: MirrorPackage) => Promise<string[]> {
  return authenticateAll(mirrorArchiveStep, mirrorPackageStep(events));
}

// ---- An installed package against the value's lock hashes ----

export interface InstalledPackage {
  address: ProviderAddress;
  version: string;
  /** The unpacked package directory (what `h1:` hashes). */
  dir: string;
  /** Its `h1:` hash. */
  h1: string;
}

/**
 * The installed package matches one of the `h1:` lock hashes the SDK's value pinned. `pinned` undefined is
 * `package add`, about to record the hash; a value that pins none skips the check and says so in the debug log.
 */
export function lockHashStep(pinned: readonly string[] | undefined, events: AcquireEventSink): AuthenticationStep<InstalledPackage> {
  return async (p) => {
    if (pinned === undefined) return undefined;
    const label = `${formatAddress(p.address)} ${p.version}`;
    const h1 = pinned.filter((h) => h.startsWith("h1:"));
    if (h1.length === 0) {
      events.debug(`${label}: the parameter value pins no h1: lock hash (an SDK generated before lock hashes, or by the reference), so the package is not checked against one`);
      return undefined;
    }
    if (h1.includes(p.h1)) return `matches the pinned ${p.h1}`;
    const a = p.address.host === DEFAULT_REGISTRY_HOST ? `${p.address.namespace}/${p.address.type}` : formatAddress(p.address);
    throw new ParameterizeError(
      "failed-precondition",
      `the package of ${label} at ${p.dir} has lock hash ${p.h1}, but the SDK was generated from one with ${h1.join(", ")}: ` +
        `the registry, a mirror or the cache now holds a different package under that version. If the new package is trusted, regenerate the SDK ` +
        `with \`pulumi package add terraform-provider ${a} ${p.version}\` (or replace "hashes" in its parameter value); otherwise remove ${p.dir} and find out who changed it`,
    );
  };
}

/**
 * The lock hashes of an installed package, checked against the pinned ones: its `h1:` (the one hash every install
 * path can compute, since mirrors and caches hold no archive) and, when a registry served it, the archive's `zh:`.
 * The directory is hashed on every use rather than trusting a stamp written at install: a stamp would not catch a
 * cache altered after it was written, and hashing some tens of megabytes costs tens of milliseconds next to starting
 * the provider.
 */
export async function authenticateInstalled(
  address: ProviderAddress,
  version: string,
  dir: string,
  pinned: readonly string[] | undefined,
  events: AcquireEventSink,
): Promise<string[]> {
  const h1 = await hashV1(dir);
  await authenticateAll(lockHashStep(pinned, events))({ address, version, dir, h1 });
  const zh = registryArchiveHash(dir);
  return zh === undefined ? [h1] : [h1, zh];
}

/**
 * The registry's `zh:` of the archive a cached package was unpacked from, kept beside the package (not in it: the
 * package directory is what `h1:` hashes) so a later `package add` records it as `.terraform.lock.hcl` would.
 */
export function registryArchiveHash(packageDir: string): string | undefined {
  return /^(zh:[0-9a-f]{64})\s*$/.exec(readZhFile(packageDir)?.split("\n")[0] ?? "")?.[1];
}

/**
 * The id of the key whose signature was verified when a cached package was installed, on the second line of the
 * `.zh` beside it (`signed-by <key id>`); undefined for a package installed without one (a mirror, a registry
 * without keys, another tool's cache).
 */
export function signatureRecord(packageDir: string): string | undefined {
  return /^signed-by ([0-9A-F]{16})\s*$/m.exec(readZhFile(packageDir) ?? "")?.[1];
}

function readZhFile(packageDir: string): string | undefined {
  try {
    return readFileSync(`${packageDir}.zh`, "utf8");
  } catch {
    return undefined;
  }
}
