// AutoMTLS material for one provider launch: a fresh self-signed client certificate, and the server certificate from the handshake as PEM.
import { webcrypto, randomBytes } from "node:crypto";
// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the metadata polyfill first.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/**
 * go-plugin's server adds this certificate to its client CA pool and requires it on every connection,
 * so it must be its own CA and allowed for client auth; a new key per launch means no secret outlives the provider.
 */
export async function generateClientCertificate(): Promise<ClientCertificate> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as CryptoKeyPair;
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // serial numbers must be positive
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString("hex"),
    name: "CN=localhost, O=pulumi-terraform-bridge",
    notBefore: new Date(now - 30_000),
    notAfter: new Date(now + 30 * 24 * 3600_000),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment |
          x509.KeyUsageFlags.keyAgreement | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey));
  return { certPem: cert.toString("pem"), keyPem: toPem("PRIVATE KEY", pkcs8) };
}

/** The handshake carries the server's DER certificate in unpadded standard base64. */
export function serverCertificatePem(handshakeCert: string): string {
  const der = Buffer.from(handshakeCert, "base64");
  if (der.length === 0) throw new Error("the handshake's server certificate is empty");
  // Parsing proves it is a certificate before gRPC gets a chance to fail obscurely.
  new x509.X509Certificate(der);
  return toPem("CERTIFICATE", der);
}

function toPem(label: string, der: Buffer): string {
  const body = der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}
