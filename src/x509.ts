// X.509 certificates written as DER with node:crypto's keys and signatures: the few shapes this plugin makes (the
// AutoMTLS client certificate, the throwaway CA and server certificate of `convert`'s registry stand-in), with no
// X.509 library, which would cost tens of milliseconds to load at every start.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/** A certificate and its key, both PEM. */
export interface CertificateMaterial {
  certPem: string;
  keyPem: string;
}

/** A certificate that signs others: its PEM, its key, and its subject as DER, which each certificate it signs names as issuer. */
export interface Issuer extends CertificateMaterial {
  key: KeyObject;
  subject: Buffer;
}

export interface CertificateSpec {
  commonName: string;
  /** DNS names (subjectAltName). */
  dnsNames: readonly string[];
  /** A CA: basicConstraints cA, allowed to sign certificates. */
  ca: boolean;
  /** Extended key usages: server and/or client authentication. */
  usage: readonly ("serverAuth" | "clientAuth")[];
  /** Valid from 30 s ago for this long. */
  validMs: number;
  /** The signer; absent: self-signed. */
  issuer?: Issuer;
}

/** A fresh P-256 key and a certificate for it, as `spec` says; returned with what it takes to sign with it. */
export function makeCertificate(spec: CertificateSpec): Issuer {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // serial numbers must be positive
  if (serial[0] === 0) serial[0] = 1; // and DER integers minimal: no leading zero byte
  const now = Date.now();
  const subject = seq(set(seq(oid(OID.commonName), utf8(spec.commonName))), set(seq(oid(OID.organization), utf8("pulumi-terraform-bridge"))));
  const signatureAlgorithm = seq(oid(OID.ecdsaWithSha256));
  // digitalSignature(0), keyEncipherment(2), keyAgreement(4), and for a CA keyCertSign(5): 1010 1100, the last two
  // bits unused; without keyCertSign 1010 1000, the last three.
  const keyUsage = spec.ca ? bitString(Buffer.from([0b1010_1100]), 2) : bitString(Buffer.from([0b1010_1000]), 3);
  const extensions = [
    extension(OID.basicConstraints, true, spec.ca ? seq(boolean(true)) : seq()),
    extension(OID.keyUsage, true, keyUsage),
    ...(spec.usage.length > 0 ? [extension(OID.extKeyUsage, false, seq(...spec.usage.map((u) => oid(OID[u]))))] : []),
    ...(spec.dnsNames.length > 0 ? [extension(OID.subjectAltName, false, seq(...spec.dnsNames.map((n) => tlv(0x82, Buffer.from(n, "ascii")))))] : []), // [2] dNSName
  ];
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))), // [0] EXPLICIT version: v3, for extensions
    integer(serial),
    signatureAlgorithm,
    spec.issuer?.subject ?? subject,
    seq(time(new Date(now - 30_000)), time(new Date(now + spec.validMs))),
    subject,
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, seq(...extensions)), // [3] EXPLICIT extensions
  );
  // ECDSA signatures from node:crypto are DER (SEQUENCE of r and s) by default, as X.509 wants them.
  const signature = sign("sha256", tbs, spec.issuer?.key ?? privateKey);
  const cert = seq(tbs, signatureAlgorithm, bitString(signature, 0));
  return { certPem: toPem("CERTIFICATE", cert), keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string, key: privateKey, subject };
}

export function toPem(label: string, der: Buffer): string {
  const body = der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

// DER: tag, definite length (short form below 128, else long form), content.
function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, content]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
const bitString = (bytes: Buffer, unusedBits: number): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));

/** A non-negative integer from its big-endian bytes: a leading 0 keeps a set high bit from reading as negative. */
function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

/** An object identifier: the first two arcs share a byte, the rest are base-128 with continuation bits. */
function oid(dotted: string): Buffer {
  const arcs = dotted.split(".").map(Number);
  const out: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      groups.unshift((v & 0x7f) | (groups.length ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050; seconds, always in UTC ("Z"). */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, "") + "Z";
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), "ascii")) : tlv(0x18, Buffer.from(digits, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [boolean(true)] : []), tlv(0x04, value));
}
