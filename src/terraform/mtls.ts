// AutoMTLS material for one provider launch: a fresh self-signed client certificate, and the server certificate from the handshake as PEM.
// The certificate is written by src/x509.ts (node:crypto and a tiny DER writer): go-plugin needs one fixed shape.
import { X509Certificate } from "node:crypto";
import { makeCertificate, toPem } from "../x509.js";

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

/**
 * go-plugin's server adds this certificate to its client CA pool and requires it on every connection,
 * so it must be its own CA and allowed for client auth; a new key per launch means no secret outlives the provider.
 */
export async function generateClientCertificate(): Promise<ClientCertificate> {
  return makeClientCertificate();
}

let spare: ClientCertificate | undefined;

/**
 * Makes the next launch's certificate now. The plugin calls this once its port is printed, while it waits for the
 * engine's first call, so the key generation and signing (a few milliseconds on a cold process) are off the path of
 * Parameterize.
 */
export function prepareClientCertificate(): void {
  spare ??= makeClientCertificate();
}

/** The certificate prepared ahead if there is one, else a new one; either way it serves one launch only. */
export function takeClientCertificate(): ClientCertificate {
  const taken = spare ?? makeClientCertificate();
  spare = undefined;
  return taken;
}

function makeClientCertificate(): ClientCertificate {
  const { certPem, keyPem } = makeCertificate({ commonName: "localhost", dnsNames: ["localhost"], ca: true, usage: ["clientAuth", "serverAuth"], validMs: 30 * 24 * 3600_000 });
  return { certPem, keyPem };
}

/** The handshake carries the server's DER certificate in unpadded standard base64. */
export function serverCertificatePem(handshakeCert: string): string {
  const der = Buffer.from(handshakeCert, "base64");
  if (der.length === 0) throw new Error("the handshake's server certificate is empty");
  // Parsing proves it is a certificate before gRPC gets a chance to fail obscurely.
  new X509Certificate(der);
  return toPem("CERTIFICATE", der);
}
