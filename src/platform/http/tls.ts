import { constants, createPrivateKey, X509Certificate } from "node:crypto";
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
/** Nothing below TLS 1.2 (BoringSSL has no SSLv2 or SSLv3 to turn off). */
const NO_OLD_PROTOCOLS = constants.SSL_OP_NO_TLSv1 | constants.SSL_OP_NO_TLSv1_1;

/** What the front end serves: a PEM certificate (chain) and its private key. */
export interface ServedCertificate {
  cert: string;
  key: string;
}

/** Bun.listen's TLS options for `certificate`, hardened as above. */
export function tlsListenOptions(certificate: ServedCertificate) {
  return {
    cert: certificate.cert,
    key: certificate.key,
    ciphers: TLS_CIPHERS,
    secureOptions: NO_OLD_PROTOCOLS,
  };
}

export interface TlsMaterial extends ServedCertificate {
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

/**
 * A certificate and key read from PEM files, checked to belong together, so that a half-renewed
 * pair (a new certificate beside the old key) is refused rather than served.
 */
function fromFiles(certPath: string, keyPath: string): TlsMaterial {
  const cert = readFileSync(certPath, "utf8");
  const key = readFileSync(keyPath, "utf8");
  let matches: boolean;
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch (e) {
    throw new Error(`${certPath} or ${keyPath} is not a PEM certificate and key: ${(e as Error).message}`);
  }
  if (!matches) throw new Error(`the key in ${keyPath} does not belong to the certificate in ${certPath}`);
  return { cert, key, fingerprint: fingerprintOfPem(cert), generated: false };
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
