// The AutoMTLS client certificate as go-plugin's server checks it: parsed by two independent X.509 readers (node's and @peculiar/x509), with every field go-plugin relies on.
import { X509Certificate, createPrivateKey, createPublicKey } from "node:crypto";
import "reflect-metadata"; // @peculiar/x509 resolves its providers through tsyringe, which needs this first
import * as px509 from "@peculiar/x509";
import { describe, expect, it } from "vitest";
import { generateClientCertificate, serverCertificatePem } from "../../src/terraform/mtls.js";

describe("generateClientCertificate", () => {
  it("is a self-signed P-256 CA for localhost, valid now, whose key matches", async () => {
    const { certPem, keyPem } = await generateClientCertificate();
    const cert = new X509Certificate(certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe(cert.issuer);
    expect(cert.subject).toContain("CN=localhost");
    expect(cert.subjectAltName).toBe("DNS:localhost");
    expect(cert.checkHost("localhost")).toBe("localhost");
    // Node's keyUsage getter lists the extended key usages: client auth (go-plugin requires it) and server auth.
    expect(new Set(cert.keyUsage)).toEqual(new Set(["1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.1"]));
    const from = Date.parse(cert.validFrom);
    const to = Date.parse(cert.validTo);
    expect(from).toBeLessThanOrEqual(Date.now());
    expect(to).toBeGreaterThan(Date.now() + 24 * 3600_000);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: "prime256v1" });
    expect(BigInt("0x" + cert.serialNumber)).toBeGreaterThan(0n);
  });

  it("carries the key usages and basic constraints go-plugin sets, critical, as a second parser reads them", async () => {
    const { certPem } = await generateClientCertificate();
    const cert = new px509.X509Certificate(certPem);
    const bc = cert.getExtension(px509.BasicConstraintsExtension)!;
    expect([bc.ca, bc.critical]).toEqual([true, true]);
    const ku = cert.getExtension(px509.KeyUsagesExtension)!;
    const F = px509.KeyUsageFlags;
    expect(ku.usages).toBe(F.digitalSignature | F.keyEncipherment | F.keyAgreement | F.keyCertSign);
    expect(ku.critical).toBe(true);
    const eku = cert.getExtension(px509.ExtendedKeyUsageExtension)!;
    expect(new Set(eku.usages)).toEqual(new Set([px509.ExtendedKeyUsage.clientAuth, px509.ExtendedKeyUsage.serverAuth]));
    expect(cert.signatureAlgorithm).toMatchObject({ name: "ECDSA", hash: { name: "SHA-256" } });
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBeGreaterThan(29 * 24 * 3600_000);
  });

  it("makes a new key and serial at every call", async () => {
    const [a, b] = await Promise.all([generateClientCertificate(), generateClientCertificate()]);
    expect(a.keyPem).not.toBe(b.keyPem);
    expect(new X509Certificate(a.certPem).serialNumber).not.toBe(new X509Certificate(b.certPem).serialNumber);
    expect(createPublicKey(a.keyPem).export({ format: "jwk" })).not.toEqual(createPublicKey(b.keyPem).export({ format: "jwk" }));
  });
});

describe("serverCertificatePem", () => {
  it("turns the handshake's unpadded base64 DER into PEM, and refuses what is not a certificate", async () => {
    const der = new X509Certificate((await generateClientCertificate()).certPem).raw;
    const pem = serverCertificatePem(der.toString("base64").replace(/=+$/, ""));
    expect(new X509Certificate(pem).raw.equals(der)).toBe(true);
    expect(() => serverCertificatePem("")).toThrow(/empty/);
    expect(() => serverCertificatePem(Buffer.from("not a certificate").toString("base64"))).toThrow();
  });
});
