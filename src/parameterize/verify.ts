// Package verification as Terraform does it: SHA256SUMS and its OpenPGP signature, the archive's SHA-256 (`zh:`),
// and the `h1:` hash of an unpacked package directory (Go's dirhash Hash1).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

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
}

/**
 * Verifies a detached OpenPGP signature (binary or ASCII-armored) over `data` with the given ASCII-armored public
 * keys. Throws with a message for the user when no key made a valid signature.
 */
export async function verifyDetachedSignature(data: Uint8Array, signatureBytes: Uint8Array, armoredKeys: readonly string[]): Promise<SignatureCheck> {
  const openpgp = await import("openpgp");
  const keys = [];
  for (const armored of armoredKeys) {
    try {
      keys.push(...(await openpgp.readKeys({ armoredKeys: armored })));
    } catch (e) {
      throw new Error(`a signing key the registry gave cannot be read: ${(e as Error).message}`, { cause: e });
    }
  }
  if (keys.length === 0) throw new Error("the registry gave no signing keys");
  const head = Buffer.from(signatureBytes.subarray(0, 64)).toString("latin1");
  let signature;
  try {
    signature = head.includes("-----BEGIN PGP SIGNATURE-----")
      ? await openpgp.readSignature({ armoredSignature: Buffer.from(signatureBytes).toString("utf8") })
      : await openpgp.readSignature({ binarySignature: signatureBytes });
  } catch (e) {
    throw new Error(`the signature file is not an OpenPGP signature: ${(e as Error).message}`, { cause: e });
  }
  const message = await openpgp.createMessage({ binary: data });
  const result = await openpgp.verify({ message, signature, verificationKeys: keys, format: "binary" });
  const problems: string[] = [];
  for (const s of result.signatures) {
    try {
      await s.verified;
      return { keyId: s.keyID.toHex().toUpperCase() };
    } catch (e) {
      problems.push(`key ${s.keyID.toHex().toUpperCase()}: ${(e as Error).message}`);
    }
  }
  const given = keys.map((k) => k.getKeyID().toHex().toUpperCase()).join(", ");
  throw new Error(`no valid signature by the registry's keys (${given}): ${problems.join("; ") || "the signature names no key"}`);
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
