/**
 * A self-signed X.509 certificate (EC P-256, ECDSA with SHA-256) made with WebCrypto and a
 * minimal DER writer, so the box needs no openssl to serve HTTPS out of the box.
 */

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

export interface SelfSigned {
  certPem: string;
  keyPem: string;
  fingerprint: string;
}

export async function createSelfSigned(opts: {
  commonName: string;
  dnsNames: string[];
  ips: string[];
  days?: number;
}): Promise<SelfSigned> {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", keys.publicKey));
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0]! &= 0x7f;
  const ecdsaSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const name = seq(set(seq(oid("2.5.4.3"), utf8(opts.commonName))));
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + (opts.days ?? 3650) * 86_400_000);
  const altNames = [
    ...opts.dnsNames.map((d) => tlv(0x82, new TextEncoder().encode(d))),
    ...opts.ips.flatMap((ip) => {
      const b = ipBytes(ip);
      return b ? [tlv(0x87, b)] : [];
    }),
  ];
  const keyId = new Uint8Array(await crypto.subtle.digest("SHA-1", spki)).subarray(0, 20);
  const extensions = seq(
    seq(oid("2.5.29.17"), octets(seq(...altNames))),
    seq(oid("2.5.29.19"), tlv(0x01, [0xff]), octets(seq())),
    seq(oid("2.5.29.15"), tlv(0x01, [0xff]), octets(tlv(0x03, [0x07, 0x80]))),
    seq(oid("2.5.29.37"), octets(seq(oid("1.3.6.1.5.5.7.3.1")))),
    seq(oid("2.5.29.14"), octets(octets(keyId))),
  );
  const tbs = seq(
    explicit(0, integer(Uint8Array.of(2))),
    integer(serial),
    ecdsaSha256,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    explicit(3, extensions),
  );
  const raw = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      keys.privateKey,
      tbs as Uint8Array<ArrayBuffer>,
    ),
  );
  const cert = seq(tbs, ecdsaSha256, bitString(derSignature(raw)));
  return {
    certPem: pem("CERTIFICATE", cert),
    keyPem: pem("PRIVATE KEY", pkcs8),
    fingerprint: fingerprintOfDer(cert),
  };
}

export function fingerprintOfDer(der: Uint8Array): string {
  const hex = new Bun.CryptoHasher("sha256").update(der).digest("hex").toUpperCase();
  return hex.match(/../g)!.join(":");
}

/** SHA-256 fingerprint of the first certificate in a PEM file. */
export function fingerprintOfPem(certPem: string): string {
  const m = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(certPem);
  if (!m) throw new Error("no certificate found in the PEM file");
  return fingerprintOfDer(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64"));
}
