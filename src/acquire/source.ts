// The one interface every place a provider can come from implements (registry, network and filesystem mirrors, the
// caches): a version listing and an install of one version into a directory.
import type { ProviderAddress } from "./address.js";
import { ArchiveTooLargeError, CorruptArchiveError, extractZip, TooManyEntriesError, UnsafeArchiveError } from "./archive.js";
import type { AcquireEventSink } from "./events.js";
import { formatBytes, type Http } from "./http.js";
import { redactUrl } from "./redact.js";
import { MAX_ARCHIVE_ENTRIES_ENV, MAX_UNPACKED_BYTES_ENV } from "./settings.js";

/** A source answered, but not as its protocol says (or not with what was asked for); the message says which. */
export class RegistryProtocolError extends Error {
  override name = "RegistryProtocolError";
}

/**
 * A URL a registry or mirror document gives, resolved against the document's own URL. Only http and https name a
 * place to download from; anything else (`file:`, `ftp:`, `data:`) is refused here, at once and without a retry,
 * since asking again cannot change the document's answer.
 */
export function documentUrl(raw: string, base: URL, field: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new RegistryProtocolError(`${source} gives ${field} ${JSON.stringify(redactUrl(raw))} in ${redactUrl(base)}, which is not a URL: tell its operator`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new RegistryProtocolError(
      `${source} gives ${field} ${redactUrl(url)} in ${redactUrl(base)}, a ${url.protocol.slice(0, -1)} URL: only http and https downloads are supported; tell its operator, or install from another source`,
    );
  }
  return url;
}

export interface AvailableVersion {
  version: string;
  /** Plugin protocol versions ("5.0", "6.0"), when the source says. */
  protocols?: string[];
  /** Platforms (`linux_amd64`) with a package, when the source says. */
  platforms?: string[];
}

export interface InstallContext {
  http: Http;
  platform: string;
  /** Where progress lines and lasting notes go. */
  events: AcquireEventSink;
  /** The most an archive may unpack to. */
  maxUnpackedBytes: number;
  /** The most entries an archive may hold. */
  maxArchiveEntries: number;
  /** Told the `zh:` hash of the archive a registry served and its SHA256SUMS lists, so the SDK's value can record it. */
  registryArchive?: (zh: string) => void;
  /** TF_BRIDGE_ENFORCE_SIGNATURE: a source that cannot show a verified signature refuses before downloading. */
  enforceSignature?: boolean;
  /** Told the id of the key whose signature over SHA256SUMS was verified, so the cache can record it. */
  signed?: (keyId: string) => void;
}

export interface Source {
  /** For messages: "the registry at registry.opentofu.org", "network mirror https://…". */
  readonly description: string;
  /**
   * The versions this source has, or undefined when it does not have the provider at all (Terraform's "provider not
   * known", which lets another source answer). A source that cannot be asked throws.
   */
  versions(a: ProviderAddress, ctx: InstallContext): Promise<AvailableVersion[] | undefined>;
  /**
   * Writes the unpacked, verified package of `version` for ctx.platform into `dest`; `scratch` is for downloads.
   * Returns a short note on how it was verified, for the status line.
   */
  install(a: ProviderAddress, version: string, dest: string, scratch: string, ctx: InstallContext): Promise<string>;
}

/** Terraform's protocol versions are "MAJOR.MINOR"; we speak 5 and 6. */
export function protocolsSupported(protocols: readonly string[] | undefined): boolean {
  if (protocols === undefined || protocols.length === 0) return true;
  return protocols.some((p) => /^(5|6)(\.|$)/.test(p.trim()));
}

/** A progress callback that reports at most every second or every 10%, plus the end. */
export function progressReporter(label: string, status: (m: string) => void): (received: number, total: number | undefined) => void {
  let lastAt = 0;
  let lastTenth = -1;
  return (received, total) => {
    const now = Date.now();
    const tenth = total ? Math.floor((received / total) * 10) : -1;
    const done = total !== undefined && received >= total;
    if (!done && now - lastAt < 1000 && tenth === lastTenth) return;
    lastAt = now;
    lastTenth = tenth;
    status(total ? `${label}: ${formatBytes(received)} of ${formatBytes(total)} (${Math.floor((received / total) * 100)}%)` : `${label}: ${formatBytes(received)}`);
  };
}

/**
 * Unpacks a downloaded package archive, with failures worded for the user: over the size limit (and how to raise
 * it), unsafe entries, or not a readable zip at all. File system errors (a full disk) pass through with their code.
 */
export async function unpackArchive(archive: string, dest: string, ctx: InstallContext, label: string, from: string): Promise<void> {
  try {
    await extractZip(archive, dest, { maxBytes: ctx.maxUnpackedBytes, maxEntries: ctx.maxArchiveEntries });
  } catch (e) {
    if (e instanceof ArchiveTooLargeError) {
      throw new UnsafeArchiveError(
        `${label} unpacks to more than the limit of ${formatBytes(e.limit)}: if the provider really is that large, raise ${MAX_UNPACKED_BYTES_ENV} (bytes, now ${e.limit})`,
      );
    }
    if (e instanceof TooManyEntriesError) {
      throw new UnsafeArchiveError(
        `${label} holds ${e.entries} entries, more than the limit of ${e.limit} (provider packages hold a few files): if the provider really has that many, raise ${MAX_ARCHIVE_ENTRIES_ENV} (now ${e.limit})`,
      );
    }
    if (e instanceof CorruptArchiveError) {
      throw new UnsafeArchiveError(
        `${label} is corrupt: ${e.message}; it was damaged on the way or where it is kept. Try again, and if it persists tell the operator of ${from}`,
      );
    }
    if (e instanceof UnsafeArchiveError) throw new UnsafeArchiveError(`${label}: ${e.message}`);
    // An errno code (ENOSPC, EACCES, …) is the file system's trouble, not the archive's; zlib's codes are Z_….
    if (/^E[A-Z]+$/.test(String((e as NodeJS.ErrnoException).code))) throw e;
    throw new UnsafeArchiveError(
      `${label} is not a readable zip archive (${(e as Error).message}): it was damaged on the way or is not a provider package; try again, and if it persists tell the operator of ${from}`,
    );
  }
}
