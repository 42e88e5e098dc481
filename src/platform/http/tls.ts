import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import { createSelfSigned, fingerprintOfPem } from "./self-signed.ts";

/** TLS 1.2 only with ECDHE and AEAD suites (no CBC, no SHA-1 MACs, no static RSA), and TLS 1.3. */
export const TLS_CIPHERS = [
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305",
  "ECDHE-RSA-CHACHA20-POLY1305",
].join(":");
/** HTTPS answers tell browsers to keep to HTTPS for a year (no includeSubDomains: not ours to say). */
export const HSTS = "max-age=31536000";

export interface TlsMaterial {
  cert: string;
  key: string;
  /** SHA-256 of the certificate, for handhelds that pin it. */
  fingerprint: string;
  /** Made just now (first start on this data folder). */
  generated: boolean;
}

function boxAddresses(): string[] {
  const out = new Set(["127.0.0.1", "::1"]);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address);
  return [...out];
}

function fromFiles(certPath: string, keyPath: string): TlsMaterial {
  const cert = readFileSync(certPath, "utf8");
  return { cert, key: readFileSync(keyPath, "utf8"), fingerprint: fingerprintOfPem(cert), generated: false };
}

/**
 * The operator's own certificate when given; otherwise the self-signed one kept in the data
 * folder, made at first start (SANs: localhost, the host name and every address of the box).
 */
export async function loadTls(
  dataDir: string,
  own?: { certFile: string; keyFile: string },
): Promise<TlsMaterial> {
  if (own) return fromFiles(own.certFile, own.keyFile);
  const dir = join(dataDir, "tls");
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  if (existsSync(certPath) && existsSync(keyPath)) return fromFiles(certPath, keyPath);
  const host = hostname();
  const made = await createSelfSigned({
    commonName: host || "parkd",
    dnsNames: [...new Set(["localhost", host].filter(Boolean))],
    ips: boxAddresses(),
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, made.keyPem, { mode: 0o600 });
  writeFileSync(certPath, made.certPem, { mode: 0o644 });
  return { cert: made.certPem, key: made.keyPem, fingerprint: made.fingerprint, generated: true };
}
