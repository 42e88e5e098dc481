import { constants, createPrivateKey, X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import {
  createCertificateAuthority,
  fingerprintOfPem,
  isPermitted,
  issueServerCertificate,
  type NameSpace,
  permittedNamesOf,
} from "./x509.ts";

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
 * Throws unless `certificate` can be served: a PEM certificate and the private key that belongs to
 * it. The front end checks a pair before any handshake is given it (node:crypto, which the box
 * loads anyway, rather than node:tls's secure context, which would load the runtime's TLS module).
 */
export function assertServable(certificate: ServedCertificate): void {
  if (!new X509Certificate(certificate.cert).checkPrivateKey(createPrivateKey(certificate.key)))
    throw new Error("the key does not belong to the certificate");
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
/**
 * A local CA made now lasts five years: long enough for a handheld's working life (installing it
 * again means visiting every handheld), short enough that a copy of its key taken from a stolen
 * box or an old disk stops working within a handheld generation. Earlier CAs lasted ten.
 */
export const CA_DAYS = 1826;
/** The start-up line warns this long before the local CA ends. */
const CA_WARN_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * What a site's box can be called, and so all the local CA may ever issue for: the private and
 * local address blocks, and the DNS names no public site has. Everything else (a public name, a
 * public address) is outside its name constraints, so a copy of its key cannot speak for another
 * site to the handhelds that trust it.
 */
export const SITE_ADDRESS_BLOCKS = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "100.64.0.0/10",
  "fc00::/7",
  "fe80::/10",
  "::1/128",
];
export const SITE_DOMAINS = ["localhost", "local", "lan", "internal", "home.arpa"];

/** What the box's certificate must name: localhost, the host name, every address, and --public-url's host. */
export interface BoxNames {
  host: string;
  dnsNames: string[];
  ips: string[];
  /** The operator's own domains a new local CA may also issue for (--tls-domains). */
  domains?: string[];
}

/**
 * The names a new local CA is constrained to: the site's address blocks and domains, the
 * operator's domains, and the box's own names (its host name, --public-url's host) where those
 * do not already cover them. A single-label host name (`parking-box`) can only be permitted by
 * naming it, so renaming the box later takes --tls-domains and a new CA.
 */
export function caNameSpace(names: BoxNames): NameSpace {
  const dns: string[] = [...SITE_DOMAINS];
  for (const d of [...(names.domains ?? []), ...names.dnsNames].map((n) => n.toLowerCase()))
    if (!isPermitted({ dns, ips: [] }, d)) dns.push(d);
  return { dns, ips: [...SITE_ADDRESS_BLOCKS] };
}

/** A DNS name a certificate may carry: ASCII labels, no wildcard (a host name can be anything). */
const DNS_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A DNS name a certificate (or a name constraint) may carry: ASCII labels, no wildcard. */
export function isDnsName(name: string): boolean {
  return DNS_NAME.test(name) && isIP(name) === 0;
}

export function boxNames(publicUrl?: string, domains: string[] = []): BoxNames {
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
  return { host, dnsNames: [...dnsNames], ips: [...ips], domains };
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

/**
 * The served certificate is still good: issued by the CA, not near its end (unless it already
 * ends with the CA, which a new one could not outlive), naming every name.
 */
function stillGood(x509: X509Certificate, ca: X509Certificate, names: BoxNames, now: number): boolean {
  if (!x509.checkIssued(ca) || !x509.verify(ca.publicKey)) return false;
  const ends = new Date(x509.validTo).getTime();
  if (ends - now < RENEW_BEFORE_DAYS * DAY_MS && ends < new Date(ca.validTo).getTime()) return false;
  return (
    names.dnsNames.every((d) => x509.checkHost(d, { wildcards: false }) === d) &&
    names.ips.every((ip) => x509.checkIP(ip) !== undefined)
  );
}

/** Makes a local CA constrained to the site's names in `dir` (ca.pem and ca-key.pem, which must not exist). */
export async function makeLocalCa(dir: string, names: BoxNames): Promise<{ pem: string; key: string }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const made = await createCertificateAuthority({
    commonName: `parkd local CA (${names.host})`,
    days: CA_DAYS,
    permitted: caNameSpace(names),
  });
  writeAtomically(join(dir, "ca-key.pem"), made.keyPem, 0o600);
  writeAtomically(join(dir, "ca.pem"), made.certPem, 0o644);
  return { pem: made.certPem, key: made.keyPem };
}

async function localCa(dir: string, names: BoxNames): Promise<{ pem: string; key: string; made: boolean }> {
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
  return { ...(await makeLocalCa(dir, names)), made: true };
}

/**
 * What of the box's names the CA may issue for (all, for a CA without name constraints), and what
 * the operator should hear about the CA: no constraints, a --tls-domains domain it does not
 * permit, names left out, its end near.
 */
function withinCa(
  caPem: string,
  caX509: X509Certificate,
  names: BoxNames,
  now: number,
): { names: BoxNames; warnings: string[] } {
  const permitted = permittedNamesOf(caPem);
  const warnings: string[] = [];
  const newCa =
    "make a new one with 'parkd tls new-ca' and install it again on every handheld (docs/network.md)";
  if (!permitted)
    warnings.push(
      `the local CA has no name constraints, so whoever holds tls/ca-key.pem can make certificates for any site that the handhelds trusting it accept; ${newCa}`,
    );
  const foreign = (names.domains ?? []).filter((d) => !isPermitted(permitted, d));
  if (foreign.length)
    warnings.push(
      `--tls-domains names ${foreign.join(", ")}, which the local CA (made before) does not permit; ${newCa}`,
    );
  const dnsNames = names.dnsNames.filter((d) => isPermitted(permitted, d));
  const ips = names.ips.filter((ip) => isPermitted(permitted, ip));
  const left = [
    ...names.dnsNames.filter((d) => !dnsNames.includes(d)),
    ...names.ips.filter((ip) => !ips.includes(ip)),
  ];
  if (left.length)
    warnings.push(
      `left out of the certificate, outside the local CA's name constraints: ${left.join(", ")} (a handheld reaching the box by one of them refuses it; a name of the site's own domain takes --tls-domains and 'parkd tls new-ca', docs/network.md)`,
    );
  const caEnds = new Date(caX509.validTo).getTime();
  if (caEnds - now < CA_WARN_DAYS * DAY_MS)
    warnings.push(
      `the local CA ends on ${new Date(caEnds).toISOString().slice(0, 10)}; ${newCa} before then`,
    );
  const host = dnsNames.includes(names.host) ? names.host : "parkd";
  return { names: { ...names, host, dnsNames, ips }, warnings };
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
  const ca = await localCa(dir, names);
  const caX509 = new X509Certificate(ca.pem);
  const caInfo = { pem: ca.pem, fingerprint: fingerprintOfPem(ca.pem) };
  const { names: issuable, warnings } = withinCa(ca.pem, caX509, names, now);
  const warning = warnings.length ? warnings.join("; ") : undefined;
  names = issuable;
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
      ...(warning ? { warning } : {}),
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
      warning: [
        `a renewed certificate could not be written (${(e as Error).message}); the previous one is still served`,
        ...warnings,
      ].join("; "),
    };
  }
  return {
    cert: issued.certPem,
    key: issued.keyPem,
    fingerprint: issued.fingerprint,
    source: "local-ca",
    ca: caInfo,
    made: ca.made ? "ca" : "certificate",
    ...(warning ? { warning } : {}),
  };
}

/**
 * `parkd tls new-ca`: the CA, and the certificate it issued, are moved aside (kept, never deleted)
 * and a new CA constrained to the site's names issues the served certificate. Every handheld that
 * trusted the old CA must install the new one, so this is the operator's explicit step, never
 * something a start does by itself.
 */
export async function replaceLocalCa(
  dataDir: string,
  names: BoxNames,
  now = Date.now(),
): Promise<{ aside: string[]; tls: TlsMaterial }> {
  const dir = join(dataDir, "tls");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const suffix = `.before-new-ca-${new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}`;
  const aside: string[] = [];
  // The key files first: whatever happens next, no key is left under a name the box would serve
  // beside another's certificate.
  for (const f of ["ca-key.pem", "ca.pem", "key.pem", "cert.pem"]) {
    const path = join(dir, f);
    if (!existsSync(path)) continue;
    if (existsSync(path + suffix)) throw new Error(`${path + suffix} exists already; try again in a second`);
    renameSync(path, path + suffix);
    aside.push(path + suffix);
  }
  return { aside, tls: await loadTls(dataDir, undefined, names, now) };
}

/** The names a CA may issue for, as a line for a person ("any name" without constraints). */
export function permittedNamesText(caPem: string): string {
  const permitted = permittedNamesOf(caPem);
  if (!permitted) return "any name (no name constraints)";
  return [
    ...permitted.dns,
    ...permitted.ips.map((b) => {
      const bits = [...b.mask].reduce((n, m) => n + m.toString(2).replace(/0/g, "").length, 0);
      return `${b.network.length === 4 ? [...b.network].join(".") : ipv6Text(b.network)}/${bits}`;
    }),
  ].join(", ");
}

/** An IPv6 address's 16 bytes as text, its longest run of zero groups as `::`. */
function ipv6Text(bytes: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  const text = groups.join(":");
  const runs = text.match(/(?:^|:)0(?::0)+(?::|$)/g) ?? [];
  const longest = runs.sort((a, b) => b.length - a.length)[0];
  return longest ? text.replace(longest, "::") : text;
}
