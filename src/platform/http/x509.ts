/**
 * X.509 certificates (EC P-256, ECDSA with SHA-256) made with WebCrypto and a minimal DER writer,
 * so the box needs no openssl to serve HTTPS out of the box: its local certificate authority and
 * the server certificates it issues, or a stand-alone self-signed one.
 */
import { createPublicKey, X509Certificate } from "node:crypto";

function len(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

function tlv(tag: number, content: Uint8Array | number[]): Uint8Array<ArrayBuffer> {
  const c = content instanceof Uint8Array ? content : Uint8Array.from(content);
  return Uint8Array.from([tag, ...len(c.length), ...c]);
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const seq = (...parts: Uint8Array[]) => tlv(0x30, concat(...parts));
const set = (...parts: Uint8Array[]) => tlv(0x31, concat(...parts));
const octets = (b: Uint8Array) => tlv(0x04, b);
const utf8 = (s: string) => tlv(0x0c, new TextEncoder().encode(s));
const bitString = (b: Uint8Array) => tlv(0x03, concat(Uint8Array.of(0), b));
const explicit = (n: number, inner: Uint8Array) => tlv(0xa0 + n, inner);

/** A non-negative INTEGER from big-endian bytes. */
function integer(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  let b = bytes.subarray(i);
  if (b[0]! & 0x80) b = concat(Uint8Array.of(0), b);
  return tlv(0x02, b);
}

function oid(dotted: string): Uint8Array {
  const parts = dotted.split(".").map(Number);
  const out = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = p >> 7; v > 0; v >>= 7) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, out);
}

function time(d: Date): Uint8Array {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, new TextEncoder().encode(`${iso.slice(2)}Z`))
    : tlv(0x18, new TextEncoder().encode(`${iso}Z`));
}

function ipBytes(ip: string): Uint8Array | null {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return Uint8Array.from(ip.split(".").map(Number));
  if (!ip.includes(":")) return null;
  const [head, tail] = ip.split("%")[0]!.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  if (groups.length !== 8) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = Number.parseInt(g, 16);
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der)
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .trimEnd();
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

/** WebCrypto gives r||s; X.509 wants SEQUENCE { INTEGER r, INTEGER s }. */
function derSignature(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  return seq(integer(raw.subarray(0, half)), integer(raw.subarray(half)));
}

/** A certificate and its private key, as PEM, with the certificate's SHA-256 fingerprint. */
export interface Issued {
  certPem: string;
  keyPem: string;
  fingerprint: string;
}
/** Kept for the tests and tools that make a stand-alone certificate. */
export type SelfSigned = Issued;

const ECDSA_SHA256 = () => seq(oid("1.2.840.10045.4.3.2"));
const DAY_MS = 86_400_000;

function commonName(cn: string): Uint8Array {
  return seq(set(seq(oid("2.5.4.3"), utf8(cn))));
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
}

/** The key identifier of RFC 5280 §4.2.1.2 (1): SHA-1 of the whole SubjectPublicKeyInfo, enough here. */
async function keyIdOf(spki: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-1", spki as Uint8Array<ArrayBuffer>));
}

interface Signer {
  name: Uint8Array;
  key: CryptoKey;
  keyId: Uint8Array;
}

async function sign(opts: {
  subject: Uint8Array;
  spki: Uint8Array;
  issuer: Signer;
  days: number;
  /** No later than this (the issuing CA's own end). */
  until?: Date;
  extensions: Uint8Array[];
}): Promise<Uint8Array> {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0]! &= 0x7f;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(
    Math.min(notBefore.getTime() + opts.days * DAY_MS, opts.until?.getTime() ?? Number.POSITIVE_INFINITY),
  );
  const tbs = seq(
    explicit(0, integer(Uint8Array.of(2))),
    integer(serial),
    ECDSA_SHA256(),
    opts.issuer.name,
    seq(time(notBefore), time(notAfter)),
    opts.subject,
    opts.spki,
    explicit(3, seq(...opts.extensions)),
  );
  const raw = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      opts.issuer.key,
      tbs as Uint8Array<ArrayBuffer>,
    ),
  );
  return seq(tbs, ECDSA_SHA256(), bitString(derSignature(raw)));
}

function serverExtensions(dnsNames: string[], ips: string[], keyId: Uint8Array): Uint8Array[] {
  const altNames = [
    ...dnsNames.map((d) => tlv(0x82, new TextEncoder().encode(d))),
    ...ips.flatMap((ip) => {
      const b = ipBytes(ip);
      return b ? [tlv(0x87, b)] : [];
    }),
  ];
  return [
    seq(oid("2.5.29.17"), octets(seq(...altNames))),
    seq(oid("2.5.29.19"), tlv(0x01, [0xff]), octets(seq())),
    seq(oid("2.5.29.15"), tlv(0x01, [0xff]), octets(tlv(0x03, [0x07, 0x80]))),
    seq(oid("2.5.29.37"), octets(seq(oid("1.3.6.1.5.5.7.3.1")))),
    seq(oid("2.5.29.14"), octets(octets(keyId))),
  ];
}

async function exported(keys: CryptoKeyPair): Promise<{ spki: Uint8Array; keyPem: string }> {
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", keys.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  return { spki, keyPem: pem("PRIVATE KEY", pkcs8) };
}

/** A certificate signed by its own new key, with the extensions made for that key's identifier. */
async function signedByItself(
  name: string,
  days: number,
  extensions: (keyId: Uint8Array) => Uint8Array[],
): Promise<Issued> {
  const keys = await newKeys();
  const { spki, keyPem } = await exported(keys);
  const keyId = await keyIdOf(spki);
  const subject = commonName(name);
  const cert = await sign({
    subject,
    spki,
    issuer: { name: subject, key: keys.privateKey, keyId },
    days,
    extensions: extensions(keyId),
  });
  return { certPem: pem("CERTIFICATE", cert), keyPem, fingerprint: fingerprintOfDer(cert) };
}

/** A server certificate (EC P-256) signed by its own key, valid for `days` (10 years by default). */
export function createSelfSigned(opts: {
  commonName: string;
  dnsNames: string[];
  ips: string[];
  days?: number;
}): Promise<Issued> {
  return signedByItself(opts.commonName, opts.days ?? 3650, (keyId) =>
    serverExtensions(opts.dnsNames, opts.ips, keyId),
  );
}

/**
 * The names a CA may issue for (RFC 5280 §4.2.1.10 permitted subtrees): DNS names, each with every
 * name below it, and address blocks in CIDR notation (`10.0.0.0/8`, `fc00::/7`).
 */
export interface NameSpace {
  dns: string[];
  ips: string[];
}

/** An address block as the extension carries it: the address's bytes, then the mask's. */
function cidrBytes(cidr: string): Uint8Array {
  const [address, bits] = cidr.split("/") as [string, string | undefined];
  const a = ipBytes(address);
  const n = Number(bits);
  if (!a || bits === undefined || !Number.isInteger(n) || n < 0 || n > a.length * 8)
    throw new Error(`not an address block: ${cidr}`);
  const mask = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) mask[i] = 0xff & (0xff << Math.max(0, 8 - Math.max(0, n - 8 * i)));
  return concat(
    a.map((b, i) => b & mask[i]!),
    mask,
  );
}

/** nameConstraints, critical, with permitted subtrees only: a name outside them fails verification. */
function nameConstraints(permitted: NameSpace): Uint8Array {
  const subtrees = [
    ...permitted.dns.map((d) => seq(tlv(0x82, new TextEncoder().encode(d)))),
    ...permitted.ips.map((c) => seq(tlv(0x87, cidrBytes(c)))),
  ];
  return seq(oid("2.5.29.30"), tlv(0x01, [0xff]), octets(seq(tlv(0xa0, concat(...subtrees)))));
}

/**
 * A certificate authority that signs server certificates only (path length 0): what a handheld
 * trusts once, so that a new address or a renewed certificate needs nothing more on it. With
 * `permitted`, it can only speak for those names, so its key cannot mint a certificate for any
 * other site that the handhelds trusting it would accept.
 */
export function createCertificateAuthority(opts: {
  commonName: string;
  days?: number;
  permitted?: NameSpace;
}): Promise<Issued> {
  return signedByItself(opts.commonName, opts.days ?? 3650, (keyId) => [
    // basicConstraints, critical: CA, pathLenConstraint 0
    seq(oid("2.5.29.19"), tlv(0x01, [0xff]), octets(seq(tlv(0x01, [0xff]), tlv(0x02, [0])))),
    // keyUsage, critical: keyCertSign and cRLSign
    seq(oid("2.5.29.15"), tlv(0x01, [0xff]), octets(tlv(0x03, [0x01, 0x06]))),
    seq(oid("2.5.29.14"), octets(octets(keyId))),
    ...(opts.permitted ? [nameConstraints(opts.permitted)] : []),
  ]);
}

/** A permitted address block, read back: the network's bytes and the mask's. */
export interface AddressBlock {
  network: Uint8Array;
  mask: Uint8Array;
}

/**
 * The permitted subtrees of a certificate's nameConstraints (DNS names and address blocks), or
 * null when it has none: such a CA may issue for any name. Excluded subtrees are not read (the
 * box never writes them).
 */
export function permittedNamesOf(certPem: string): { dns: string[]; ips: AddressBlock[] } | null {
  const cert = derOfPem(certPem);
  const extensions = tbsFields(cert).find((f) => f[0] === 0xa3);
  if (!extensions) return null;
  const list = element(extensions, element(extensions, 0).start); // [3] { SEQUENCE OF Extension }
  for (let at = list.start; at < list.end; ) {
    const ext = element(extensions, at);
    const parts = children(extensions, ext.start, ext.end);
    const id = parts[0]!;
    if (Buffer.from(id).equals(Buffer.from(oid("2.5.29.30")))) {
      const value = parts[parts.length - 1]!; // OCTET STRING holding NameConstraints
      const nc = value.subarray(element(value, 0).start);
      const out = { dns: [] as string[], ips: [] as AddressBlock[] };
      for (const subtrees of children(nc, element(nc, 0).start, element(nc, 0).end)) {
        if (subtrees[0] !== 0xa0) continue;
        for (const subtree of children(subtrees, element(subtrees, 0).start, subtrees.length)) {
          const base = children(subtree, element(subtree, 0).start, subtree.length)[0]!;
          const content = base.subarray(element(base, 0).start, element(base, 0).end);
          if (base[0] === 0x82) out.dns.push(new TextDecoder().decode(content).toLowerCase());
          else if (base[0] === 0x87)
            out.ips.push({
              network: content.slice(0, content.length / 2),
              mask: content.slice(content.length / 2),
            });
        }
      }
      return out;
    }
    at = ext.end;
  }
  return null;
}

/** Whether a DNS name or address lies in the permitted names (null: no constraints at all). */
export function isPermitted(permitted: { dns: string[]; ips: AddressBlock[] } | null, name: string): boolean {
  if (!permitted) return true;
  const address = ipBytes(name);
  if (address)
    return permitted.ips.some(
      (b) =>
        b.network.length === address.length && address.every((v, i) => (v & b.mask[i]!) === b.network[i]),
    );
  const n = name.toLowerCase().replace(/\.$/, "");
  return permitted.dns.some((d) => n === d || n.endsWith(`.${d}`));
}

/**
 * A server certificate for these names and addresses, signed by `ca` (from
 * createCertificateAuthority), ending no later than the CA does.
 */
export async function issueServerCertificate(
  ca: { certPem: string; keyPem: string },
  opts: { commonName: string; dnsNames: string[]; ips: string[]; days: number; keyPem?: string },
): Promise<Issued> {
  const caDer = derOfPem(ca.certPem);
  const caKey = await crypto.subtle.importKey(
    "pkcs8",
    derOfPem(ca.keyPem, "PRIVATE KEY") as Uint8Array<ArrayBuffer>,
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  const caSpki = subjectPublicKeyInfoOf(caDer);
  const issuer: Signer = { name: subjectOf(caDer), key: caKey, keyId: await keyIdOf(caSpki) };
  // A renewal keeps the key, so that a client pinning the box's public key keeps working.
  const { spki, keyPem } = opts.keyPem
    ? {
        spki: new Uint8Array(createPublicKey(opts.keyPem).export({ type: "spki", format: "der" })),
        keyPem: opts.keyPem,
      }
    : await exported(await newKeys());
  const cert = await sign({
    subject: commonName(opts.commonName),
    spki,
    issuer,
    days: opts.days,
    // A certificate outliving its CA would only seem to: it fails with the CA.
    until: new Date(new X509Certificate(ca.certPem).validTo),
    extensions: [
      ...serverExtensions(opts.dnsNames, opts.ips, await keyIdOf(spki)),
      // authorityKeyIdentifier: [0] keyIdentifier
      seq(oid("2.5.29.35"), octets(seq(tlv(0x80, issuer.keyId)))),
    ],
  });
  return { certPem: pem("CERTIFICATE", cert), keyPem, fingerprint: fingerprintOfDer(cert) };
}

/** The DER bytes of the first PEM block with this label. */
export function derOfPem(text: string, label = "CERTIFICATE"): Uint8Array {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`).exec(text);
  if (!m) throw new Error(`no ${label.toLowerCase()} found in the PEM text`);
  return new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64"));
}

/** One DER element at `at`: where its content starts and where the element ends. */
function element(der: Uint8Array, at: number): { start: number; end: number } {
  const first = der[at + 1]!;
  if (first < 0x80) return { start: at + 2, end: at + 2 + first };
  const n = first & 0x7f;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + der[at + 2 + i]!;
  return { start: at + 2 + n, end: at + 2 + n + length };
}

/** The elements inside `der` from `start` to `end`, each whole (tag, length and content). */
function children(der: Uint8Array, start: number, end: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = start; at < end; ) {
    const e = element(der, at);
    out.push(der.subarray(at, e.end));
    at = e.end;
  }
  return out;
}

/** The elements of the TBSCertificate in a certificate's DER. */
function tbsFields(cert: Uint8Array): Uint8Array[] {
  const tbs = element(cert, element(cert, 0).start);
  const out: Uint8Array[] = [];
  for (let at = tbs.start; at < tbs.end; ) {
    const e = element(cert, at);
    out.push(cert.subarray(at, e.end));
    at = e.end;
  }
  return out;
}

// With the [0] version present: version, serial, signature, issuer, validity, subject, spki.
const subjectOf = (cert: Uint8Array) => tbsFields(cert)[5]!;
const subjectPublicKeyInfoOf = (cert: Uint8Array) => tbsFields(cert)[6]!;

export function fingerprintOfDer(der: Uint8Array): string {
  const hex = new Bun.CryptoHasher("sha256").update(der).digest("hex").toUpperCase();
  return hex.match(/../g)!.join(":");
}

/** SHA-256 fingerprint of the first certificate in a PEM file. */
export function fingerprintOfPem(certPem: string): string {
  return fingerprintOfDer(derOfPem(certPem));
}
