// The environment variables that tune provider acquisition (timeouts, retries, size limits), read and checked in one
// place so that a bad value fails with the variable's name instead of silently falling back.
import { invalidArgument } from "./errors.js";
import { positiveWhole, readSetting, secondsAsMs } from "../setting.js";

/** Seconds a registry or mirror may take to answer a metadata request (and a download its headers); as Terraform. */
export const CLIENT_TIMEOUT_ENV = "TF_REGISTRY_CLIENT_TIMEOUT";
/** Retries of a metadata request that found the host unreachable, slow or failing (5xx, 429); as Terraform. */
export const DISCOVERY_RETRY_ENV = "TF_REGISTRY_DISCOVERY_RETRY";
/** Retries of a package download (also when its body was cut off or stalled); as OpenTofu. */
export const DOWNLOAD_RETRY_ENV = "TF_PROVIDER_DOWNLOAD_RETRY";
/** Seconds without a byte after which a package download counts as stalled. */
export const DOWNLOAD_IDLE_TIMEOUT_ENV = "TF_BRIDGE_DOWNLOAD_IDLE_TIMEOUT";
/** The largest package archive that is downloaded, in bytes. */
export const MAX_ARCHIVE_BYTES_ENV = "TF_BRIDGE_MAX_ARCHIVE_BYTES";
/** The most a package archive may unpack to, in bytes (a zip bomb guard). */
export const MAX_UNPACKED_BYTES_ENV = "TF_BRIDGE_MAX_UNPACKED_BYTES";
/** The most entries a package archive may hold (an inode exhaustion guard: a million empty files unpack to 0 bytes). */
export const MAX_ARCHIVE_ENTRIES_ENV = "TF_BRIDGE_MAX_ARCHIVE_ENTRIES";
/** `true`: install only packages whose SHA256SUMS signature was verified (as OpenTofu's OPENTOFU_ENFORCE_GPG_VALIDATION). */
export const ENFORCE_SIGNATURE_ENV = "TF_BRIDGE_ENFORCE_SIGNATURE";
/** The largest metadata document (a registry or mirror JSON answer, SHA256SUMS, a signature) that is read, in bytes. */
export const MAX_METADATA_BYTES_ENV = "TF_BRIDGE_MAX_METADATA_BYTES";

export interface AcquireSettings {
  timeoutMs: number;
  idleTimeoutMs: number;
  metadataRetries: number;
  downloadRetries: number;
  maxArchiveBytes: number;
  maxUnpackedBytes: number;
  maxArchiveEntries: number;
  maxMetadataBytes: number;
}

// Terraform's and OpenTofu's defaults where the variable is theirs. The size limits sit well above real providers
// (the largest unpack to some hundreds of MiB) and well below what fills a disk by surprise. Metadata is held in
// memory whole: the largest real documents are versions lists of providers with hundreds of releases and a dozen
// platforms each (hashicorp/aws: a few hundred KiB, at most a few MiB; every other document is a few KiB), so 16 MiB
// leaves ample headroom while a hostile server can cost at most that much (and its parse) instead of gigabytes.
export const DEFAULT_SETTINGS: AcquireSettings = {
  timeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  metadataRetries: 1,
  downloadRetries: 2,
  maxArchiveBytes: 1024 ** 3,
  maxUnpackedBytes: 4 * 1024 ** 3,
  // Provider archives hold one to three entries (the executable, a license, a readme); 10,000 leaves room for any
  // package with docs or data beside it, and stays far below the inodes of any file system.
  maxArchiveEntries: 10_000,
  maxMetadataBytes: 16 * 1024 ** 2,
};

/** The parsed value, or `fallback` when the variable is unset; `shown` is the default as the user would write it. */
function read(env: NodeJS.ProcessEnv, name: string, fallback: number, shown: number, what: string, parse: (raw: string) => number | undefined): number {
  return readSetting(env, { name, fallback, shown, what, parse, setTo: what }, invalidArgument);
}

const count = (raw: string): number | undefined => (/^\d+$/.test(raw) && Number(raw) <= 100 ? Number(raw) : undefined);
const entries = (raw: string): number | undefined => (/^\d+$/.test(raw) && Number(raw) > 0 && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined);

/**
 * Whether only signature-verified packages may be used. Read apart from the other settings: it applies to a package
 * found in the cache too, where nothing else is read. As OpenTofu's variable: `true` or `false` (unset: false).
 */
export function enforceSignature(env: NodeJS.ProcessEnv): boolean {
  const raw = env[ENFORCE_SIGNATURE_ENV]?.trim();
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw invalidArgument(`${ENFORCE_SIGNATURE_ENV}=${JSON.stringify(env[ENFORCE_SIGNATURE_ENV])} is not true or false; set it to true or false or unset it (default false)`);
}

export function acquireSettings(env: NodeJS.ProcessEnv): AcquireSettings {
  const d = DEFAULT_SETTINGS;
  return {
    timeoutMs: read(env, CLIENT_TIMEOUT_ENV, d.timeoutMs, d.timeoutMs / 1000, "a number of seconds above 0", secondsAsMs),
    idleTimeoutMs: read(env, DOWNLOAD_IDLE_TIMEOUT_ENV, d.idleTimeoutMs, d.idleTimeoutMs / 1000, "a number of seconds above 0", secondsAsMs),
    metadataRetries: read(env, DISCOVERY_RETRY_ENV, d.metadataRetries, d.metadataRetries, "a whole number of retries from 0 to 100", count),
    downloadRetries: read(env, DOWNLOAD_RETRY_ENV, d.downloadRetries, d.downloadRetries, "a whole number of retries from 0 to 100", count),
    maxArchiveBytes: read(env, MAX_ARCHIVE_BYTES_ENV, d.maxArchiveBytes, d.maxArchiveBytes, "a whole number of bytes above 0", positiveWhole),
    maxUnpackedBytes: read(env, MAX_UNPACKED_BYTES_ENV, d.maxUnpackedBytes, d.maxUnpackedBytes, "a whole number of bytes above 0", positiveWhole),
    maxArchiveEntries: read(env, MAX_ARCHIVE_ENTRIES_ENV, d.maxArchiveEntries, d.maxArchiveEntries, "a whole number of entries above 0", entries),
    maxMetadataBytes: read(env, MAX_METADATA_BYTES_ENV, d.maxMetadataBytes, d.maxMetadataBytes, "a whole number of bytes above 0", positiveWhole),
  };
}
