// Package verification as Terraform does it: SHA256SUMS and its OpenPGP signature, the archive's SHA-256 (`zh:`),
// and the `h1:` hash of an unpacked package directory (Go's dirhash Hash1).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Key as OpenPgpKey } from "openpgp";

/** `<sha256 hex>  <filename>` lines, as registries publish them. */
export function parseSha256Sums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-fA-F]{64})[ \t]+\*?(.+?)\s*$/.exec(line);
    if (m) out.set(m[2]!, m[1]!.toLowerCase());
  }
  return out;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export interface SignatureCheck {
  /** Hex key id (uppercase) of the key that made the signature. */
  keyId: string;
  /**
   * Set when that key has expired since: the signature was made while it was valid, which OpenPGP (and Terraform)
   * accept, but the user should hear that the publisher signs with an expired key.
   */
  expired?: { at: Date; signedAt: Date | undefined };
}

/**
 * Why no key made a valid signature: `unknown-key`, signed by a key that is not among those given; `expired-key`,
 * signed by one after it expired; `mismatch`, the signature does not fit the data (either was altered);
 * `unreadable`, a key or the signature cannot be parsed.
 */
export type SignatureProblem = "unknown-key" | "expired-key" | "mismatch" | "unreadable";

export class SignatureError extends Error {
  constructor(
    readonly problem: SignatureProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SignatureError";
  }
}

const iso = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Verifies a detached OpenPGP signature (binary or ASCII-armored) over `data` with the given ASCII-armored public
 * keys. Throws SignatureError, with a message for the user, when no key made a valid signature.
 */
export async function verifyDetachedSignature(data: Uint8Array, signatureBytes: Uint8Array, armoredKeys: readonly string[]): Promise<SignatureCheck> {
  const openpgp = await import("openpgp");
  const keys: OpenPgpKey[] = [];
  for (const armored of armoredKeys) {
    try {
      keys.push(...(await openpgp.readKeys({ armoredKeys: armored })));
    } catch (e) {
      throw new SignatureError("unreadable", `a signing key the registry gave cannot be read: ${(e as Error).message}`, { cause: e });
    }
  }
  if (keys.length === 0) throw new SignatureError("unreadable", "the registry gave no signing keys");
  // A signature names the key (or subkey) that made it; map every one of them to its key for expiry.
  const byId = new Map(keys.flatMap((k) => k.getKeys().map((sub) => [sub.getKeyID().toHex().toUpperCase(), k] as const)));
  const head = Buffer.from(signatureBytes.subarray(0, 64)).toString("latin1");
  let signature;
  try {
    signature = head.includes("-----BEGIN PGP SIGNATURE-----")
      ? await openpgp.readSignature({ armoredSignature: Buffer.from(signatureBytes).toString("utf8") })
      : await openpgp.readSignature({ binarySignature: signatureBytes });
  } catch (e) {
    throw new SignatureError("unreadable", `the signature file is not an OpenPGP signature: ${(e as Error).message}`, { cause: e });
  }
  const signedAt = signature.packets[0]?.created ?? undefined;
  const expiry = async (key: OpenPgpKey): Promise<Date | undefined> => {
    const at = await key.getExpirationTime().catch(() => null);
    return at instanceof Date ? at : undefined;
  };
  const message = await openpgp.createMessage({ binary: data });
  const result = await openpgp.verify({ message, signature, verificationKeys: keys, format: "binary" });
  const problems: { problem: SignatureProblem; text: string }[] = [];
  for (const s of result.signatures) {
    const id = s.keyID.toHex().toUpperCase();
    const key = byId.get(id);
    try {
      await s.verified;
      const at = key === undefined ? undefined : await expiry(key);
      return at !== undefined && at.getTime() <= Date.now() ? { keyId: id, expired: { at, signedAt } } : { keyId: id };
    } catch (e) {
      const at = key === undefined ? undefined : await expiry(key);
      if (key === undefined) {
        problems.push({ problem: "unknown-key", text: `SHA256SUMS is signed by key ${id}, which is not one of them` });
      } else if (at !== undefined && signedAt !== undefined && signedAt.getTime() >= at.getTime()) {
        problems.push({ problem: "expired-key", text: `key ${id} expired on ${iso(at)}, before the signature was made (${iso(signedAt)})` });
      } else {
        problems.push({ problem: "mismatch", text: `the signature by key ${id} does not match SHA256SUMS (${(e as Error).message})` });
      }
    }
  }
  const given = keys.map((k) => k.getKeyID().toHex().toUpperCase()).join(", ");
  const first = problems[0] ?? { problem: "unknown-key" as const, text: "the signature names no key" };
  throw new SignatureError(first.problem, `no valid signature by the registry's keys (${given}): ${problems.map((p) => p.text).join("; ") || first.text}`);
}

async function walkFiles(root: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
    const r = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await walkFiles(root, r)));
    else out.push(r);
  }
  return out;
}

/**
 * Terraform's `h1:` package hash: Go's dirhash Hash1 over the unpacked directory — the SHA-256 of the lines
 * `<sha256 hex of file>  <slash path>\n` for every file, sorted by path (byte order), base64-encoded.
 */
export async function hashV1(dir: string): Promise<string> {
  const files = (await walkFiles(dir)).sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))));
  const summary = createHash("sha256");
  for (const f of files) {
    if (f.includes("\n")) throw new Error(`file name with a newline: ${JSON.stringify(f)}`);
    summary.update(`${await sha256File(join(dir, f))}  ${f}\n`);
  }
  return `h1:${summary.digest("base64")}`;
}

/** Terraform's legacy `zh:` hash: the archive's SHA-256 in hex. */
export function hashZh(archiveSha256Hex: string): string {
  return `zh:${archiveSha256Hex}`;
}
