import { constants, createPrivateKey, X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority, fingerprintOfPem, issueServerCertificate } from "./x509.ts";

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

/**
 * Whom a client trusts to reach this box: its local CA (`local-ca`), the self-signed certificate an
 * earlier version made and that is still served (`self-signed`), or the operator's own (`own`).
 */
export type CertificateSource = "local-ca" | "self-signed" | "own";

export interface TlsMaterial extends ServedCertificate {
  /** SHA-256 of the served certificate. */
  fingerprint: string;
  source: CertificateSource;
  /** The box's local CA, when it issued the served certificate: what a handheld installs once. */
  ca?: { pem: string; fingerprint: string };
  /** What this load made: the CA and a certificate (first start), a certificate (renewed), or nothing. */
  made: "ca" | "certificate" | null;
  /** Something the operator should hear of, though the certificate is served. */
  warning?: string;
}

/** Server certificates from the local CA last 825 days, the most Apple's devices accept. */
export const SERVER_CERTIFICATE_DAYS = 825;
/** Renewed when less than this is left, at a start, a SIGHUP or the daily check. */
export const RENEW_BEFORE_DAYS = 60;
const DAY_MS = 86_400_000;

/** What the box's certificate must name: localhost, the host name, every address, and --public-url's host. */
export interface BoxNames {
  host: string;
  dnsNames: string[];
  ips: string[];
}

/** A DNS name a certificate may carry: ASCII labels, no wildcard (a host name can be anything). */
const DNS_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function boxNames(publicUrl?: string): BoxNames {
  const name = hostname();
  const host = DNS_NAME.test(name) ? name : "parkd";
  const dnsNames = new Set(["localhost", host]);
  const ips = new Set(["127.0.0.1", "::1"]);
  // Link-local addresses are left out: a handheld cannot use one in a URL, and they carry the MAC.
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (!/^fe[89ab]/i.test(a.address)) ips.add(a.address.split("%")[0]!);
  if (publicUrl) {
    const name = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
    if (isIP(name)) ips.add(name);
    else if (DNS_NAME.test(name)) dnsNames.add(name);
  }
  return { host, dnsNames: [...dnsNames], ips: [...ips] };
}

function readPair(certPath: string, keyPath: string): { cert: string; key: string; x509: X509Certificate } {
  const cert = readFileSync(certPath, "utf8");
  const key = readFileSync(keyPath, "utf8");
  let x509: X509Certificate;
  let matches: boolean;
  try {
    x509 = new X509Certificate(cert);
    matches = x509.checkPrivateKey(createPrivateKey(key));
  } catch (e) {
    throw new Error(`${certPath} or ${keyPath} is not a PEM certificate and key: ${(e as Error).message}`);
  }
  if (!matches) throw new Error(`the key in ${keyPath} does not belong to the certificate in ${certPath}`);
  return { cert, key, x509 };
}

/**
 * A certificate and key read from PEM files, checked to belong together, so that a half-renewed
 * pair (a new certificate beside the old key) is refused rather than served.
 */
function fromFiles(certPath: string, keyPath: string, source: CertificateSource): TlsMaterial {
  const { cert, key } = readPair(certPath, keyPath);
  return { cert, key, fingerprint: fingerprintOfPem(cert), source, made: null };
}

/** Written beside and renamed into place, so a crash leaves the old file or the new one. */
function writeAtomically(path: string, text: string, mode: number): void {
  const tmp = `${path}.tmp`;
  // A leftover file (or link) at the temporary path would keep its own mode: made afresh.
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { mode, flag: "wx" });
  renameSync(tmp, path);
}

/** A certificate file read and parsed, or an error that names the file. */
function certificateIn(path: string): { pem: string; x509: X509Certificate } {
  try {
    const pem = readFileSync(path, "utf8");
    return { pem, x509: new X509Certificate(pem) };
  } catch (e) {
    throw new Error(`${path} is not a PEM certificate: ${(e as Error).message}`);
  }
}

function isSelfSigned(x509: X509Certificate): boolean {
  return x509.issuer === x509.subject && x509.verify(x509.publicKey);
}

/** The served certificate is still good: issued by the CA, not near its end, naming every name. */
function stillGood(x509: X509Certificate, ca: X509Certificate, names: BoxNames, now: number): boolean {
  if (!x509.checkIssued(ca) || !x509.verify(ca.publicKey)) return false;
  if (new Date(x509.validTo).getTime() - now < RENEW_BEFORE_DAYS * DAY_MS) return false;
  return (
    names.dnsNames.every((d) => x509.checkHost(d, { wildcards: false }) === d) &&
    names.ips.every((ip) => x509.checkIP(ip) !== undefined)
  );
}

async function localCa(dir: string, host: string): Promise<{ pem: string; key: string; made: boolean }> {
  const caPath = join(dir, "ca.pem");
  const caKeyPath = join(dir, "ca-key.pem");
  if (existsSync(caPath) || existsSync(caKeyPath)) {
    // A new CA would silently void every handheld's trust: a lost half is the operator's to see.
    for (const p of [caPath, caKeyPath])
      if (!existsSync(p))
        throw new Error(
          `${p} is missing beside the local CA's other file (restore it from a backup, or move both aside to make a new CA)`,
        );
    const { cert, key } = readPair(caPath, caKeyPath);
    return { pem: cert, key, made: false };
  }
  const made = await createCertificateAuthority({ commonName: `parkd local CA (${host})` });
  writeAtomically(caKeyPath, made.keyPem, 0o600);
  writeAtomically(caPath, made.certPem, 0o644);
  return { pem: made.certPem, key: made.keyPem, made: true };
}

/**
 * The operator's own certificate when given. Otherwise the data folder's: at first start the box
 * makes a local CA and issues its server certificate from it, and issues a new one (same key)
 * when it nears its end or the box has a name or address it does not carry; handhelds that trust
 * the CA need nothing more. A self-signed certificate an earlier version made is still served
 * until the operator moves it aside (docs/network.md), so an upgrade never breaks a terminal
 * that trusts it; so is a certificate the operator put in the folder.
 */
export async function loadTls(
  dataDir: string,
  own?: { certFile: string; keyFile: string },
  names: BoxNames = boxNames(),
  now = Date.now(),
): Promise<TlsMaterial> {
  if (own) return fromFiles(own.certFile, own.keyFile, "own");
  const dir = join(dataDir, "tls");
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  const caPath = join(dir, "ca.pem");
  const served = existsSync(certPath) && existsSync(keyPath);
  if (served && !existsSync(caPath) && !existsSync(join(dir, "ca-key.pem"))) {
    const { x509 } = certificateIn(certPath);
    return fromFiles(certPath, keyPath, isSelfSigned(x509) ? "self-signed" : "own");
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await localCa(dir, names.host);
  const caX509 = new X509Certificate(ca.pem);
  const caInfo = { pem: ca.pem, fingerprint: fingerprintOfPem(ca.pem) };
  let keyPem: string | undefined;
  /** The served certificate, paired and from this CA, while it is not yet too old to serve. */
  let stillServable: TlsMaterial | undefined;
  if (served) {
    const { pem: cert, x509 } = certificateIn(certPath);
    keyPem = readFileSync(keyPath, "utf8");
    if (!x509.checkIssued(caX509)) return fromFiles(certPath, keyPath, "own");
    let pairs = false;
    try {
      pairs = x509.checkPrivateKey(createPrivateKey(keyPem));
    } catch {
      keyPem = undefined; // not a key: a new one below
    }
    const current: TlsMaterial = {
      cert,
      key: keyPem!,
      fingerprint: fingerprintOfPem(cert),
      source: "local-ca",
      ca: caInfo,
      made: null,
    };
    if (pairs && stillGood(x509, caX509, names, now)) return current;
    if (pairs && new Date(x509.validTo).getTime() > now) stillServable = current;
  }
  const issued = await issueServerCertificate(
    { certPem: ca.pem, keyPem: ca.key },
    {
      commonName: names.host,
      dnsNames: names.dnsNames,
      ips: names.ips,
      days: SERVER_CERTIFICATE_DAYS,
      keyPem,
    },
  );
  // The key first: a crash between the two leaves the new key beside the old certificate, which
  // the next start sees as not pairing and issues again for.
  try {
    writeAtomically(keyPath, issued.keyPem, 0o600);
    writeAtomically(certPath, issued.certPem, 0o644);
  } catch (e) {
    // A folder that cannot be written (full, read-only) is no reason to stop serving a
    // certificate that still works; it is said, and tried again at the next check.
    if (!stillServable) throw e;
    return {
      ...stillServable,
      warning: `a renewed certificate could not be written (${(e as Error).message}); the previous one is still served`,
    };
  }
  return {
    cert: issued.certPem,
    key: issued.keyPem,
    fingerprint: issued.fingerprint,
    source: "local-ca",
    ca: caInfo,
    made: ca.made ? "ca" : "certificate",
  };
}
