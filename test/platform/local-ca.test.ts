import { describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BoxNames,
  boxNames,
  loadTls,
  RENEW_BEFORE_DAYS,
  SERVER_CERTIFICATE_DAYS,
} from "../../src/platform/http/tls.ts";
import {
  createCertificateAuthority,
  createSelfSigned,
  issueServerCertificate,
} from "../../src/platform/http/x509.ts";
import { tempDirs } from "../support/temp.ts";

const dataDir = tempDirs("parkd-ca-");
const NAMES: BoxNames = {
  host: "box",
  dnsNames: ["localhost", "box"],
  ips: ["127.0.0.1", "::1", "192.168.1.20"],
};
const DAY = 86_400_000;
const tlsFile = (d: string, f: string) => readFileSync(join(d, "tls", f), "utf8");

describe("the box's local CA and the certificates it issues", () => {
  test("first start: a CA (path length 0) and a server certificate from it, naming every name", async () => {
    const d = dataDir();
    const tls = await loadTls(d, undefined, NAMES);
    expect(tls.source).toBe("local-ca");
    expect(tls.made).toBe("ca");
    const ca = new X509Certificate(tls.ca!.pem);
    const leaf = new X509Certificate(tls.cert);
    expect(ca.ca).toBe(true);
    expect(ca.subject).toBe("CN=parkd local CA (box)");
    expect(ca.fingerprint256).toBe(tls.ca!.fingerprint);
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(ca) && leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.fingerprint256).toBe(tls.fingerprint);
    for (const n of ["localhost", "box"]) expect(leaf.checkHost(n)).toBe(n);
    for (const ip of NAMES.ips) expect(leaf.checkIP(ip)).toBe(ip);
    const days = (new Date(leaf.validTo).getTime() - new Date(leaf.validFrom).getTime()) / DAY;
    expect(Math.round(days)).toBe(SERVER_CERTIFICATE_DAYS);
    expect(leaf.keyUsage ?? []).toContain("1.3.6.1.5.5.7.3.1");
    expect(statSync(join(d, "tls", "ca-key.pem")).mode & 0o777).toBe(0o600);
    expect(statSync(join(d, "tls", "key.pem")).mode & 0o777).toBe(0o600);
    expect(tlsFile(d, "ca.pem")).toBe(tls.ca!.pem);
    expect(tlsFile(d, "cert.pem")).toBe(tls.cert);
  });

  test("kept as it is while it is good; a new address or its end near issues one from the same CA, same key", async () => {
    const d = dataDir();
    const first = await loadTls(d, undefined, NAMES);
    const again = await loadTls(d, undefined, NAMES);
    expect(again.made).toBeNull();
    expect(again.fingerprint).toBe(first.fingerprint);

    const moved = await loadTls(d, undefined, { ...NAMES, ips: [...NAMES.ips, "10.0.0.7"] });
    expect(moved.made).toBe("certificate");
    expect(moved.ca!.fingerprint).toBe(first.ca!.fingerprint);
    expect(moved.fingerprint).not.toBe(first.fingerprint);
    expect(new X509Certificate(moved.cert).checkIP("10.0.0.7")).toBe("10.0.0.7");
    expect(new X509Certificate(moved.cert).publicKey.export({ format: "jwk" })).toEqual(
      new X509Certificate(first.cert).publicKey.export({ format: "jwk" }),
    );

    const validTo = new Date(new X509Certificate(moved.cert).validTo).getTime();
    const early = await loadTls(
      d,
      undefined,
      { ...NAMES, ips: [...NAMES.ips, "10.0.0.7"] },
      validTo - (RENEW_BEFORE_DAYS + 1) * DAY,
    );
    expect(early.made).toBeNull();
    const due = await loadTls(
      d,
      undefined,
      { ...NAMES, ips: [...NAMES.ips, "10.0.0.7"] },
      validTo - (RENEW_BEFORE_DAYS - 1) * DAY,
    );
    expect(due.made).toBe("certificate");
    expect(due.ca!.fingerprint).toBe(first.ca!.fingerprint);
  });

  test("--public-url's host is named too", () => {
    expect(boxNames("https://parking-box.lan:8443").dnsNames).toContain("parking-box.lan");
    expect(boxNames("https://10.1.2.3").ips).toContain("10.1.2.3");
    expect(boxNames("https://[fd00::5]:8443").ips).toContain("fd00::5");
  });

  test("an earlier version's self-signed certificate is still served, and nothing is made beside it", async () => {
    const d = dataDir();
    mkdirSync(join(d, "tls"));
    const old = await createSelfSigned({ commonName: "box", dnsNames: ["localhost"], ips: ["127.0.0.1"] });
    writeFileSync(join(d, "tls", "cert.pem"), old.certPem);
    writeFileSync(join(d, "tls", "key.pem"), old.keyPem);
    const tls = await loadTls(d, undefined, NAMES);
    expect(tls).toMatchObject({ source: "self-signed", fingerprint: old.fingerprint, made: null });
    expect(tls.ca).toBeUndefined();
    expect(existsSync(join(d, "tls", "ca.pem"))).toBe(false);
  });

  test("a certificate the operator put in the folder is served as it is, with or without a local CA", async () => {
    const d = dataDir();
    mkdirSync(join(d, "tls"));
    const theirs = await createCertificateAuthority({ commonName: "Operator CA" });
    const own = await issueServerCertificate(theirs, {
      commonName: "box",
      dnsNames: ["box"],
      ips: [],
      days: 90,
    });
    writeFileSync(join(d, "tls", "cert.pem"), own.certPem);
    writeFileSync(join(d, "tls", "key.pem"), own.keyPem);
    expect(await loadTls(d, undefined, NAMES)).toMatchObject({ source: "own", fingerprint: own.fingerprint });

    const e = dataDir();
    await loadTls(e, undefined, NAMES);
    writeFileSync(join(e, "tls", "cert.pem"), own.certPem);
    writeFileSync(join(e, "tls", "key.pem"), own.keyPem);
    const served = await loadTls(e, undefined, NAMES);
    expect(served).toMatchObject({ source: "own", fingerprint: own.fingerprint });
    expect(tlsFile(e, "cert.pem")).toBe(own.certPem);
  });

  test("a crash between writing the key and the certificate: the next start issues again for the new key", async () => {
    const d = dataDir();
    const first = await loadTls(d, undefined, NAMES);
    const other = await createSelfSigned({ commonName: "x", dnsNames: [], ips: [] });
    writeFileSync(join(d, "tls", "key.pem"), other.keyPem);
    const next = await loadTls(d, undefined, NAMES);
    expect(next.made).toBe("certificate");
    expect(next.ca!.fingerprint).toBe(first.ca!.fingerprint);
    expect(
      new X509Certificate(next.cert).checkPrivateKey(
        await import("node:crypto").then((c) => c.createPrivateKey(other.keyPem)),
      ),
    ).toBe(true);
  });

  test("half a CA is refused, naming the missing file, rather than replaced (that would void every handheld's trust)", async () => {
    const d = dataDir();
    await loadTls(d, undefined, NAMES);
    rmSync(join(d, "tls", "ca-key.pem"));
    await expect(loadTls(d, undefined, NAMES)).rejects.toThrow(/ca-key\.pem is missing/);
  });
});

describe("the local CA's files, when something is off", () => {
  test("ca.pem lost beside its key: refused naming it, not served as the operator's own", async () => {
    const d = dataDir();
    await loadTls(d, undefined, NAMES);
    rmSync(join(d, "tls", "ca.pem"));
    await expect(loadTls(d, undefined, NAMES)).rejects.toThrow(/ca\.pem is missing/);
  });

  test("a leftover temporary file never leaves a key readable by others", async () => {
    const d = dataDir();
    mkdirSync(join(d, "tls"));
    for (const f of ["ca-key.pem.tmp", "key.pem.tmp"])
      writeFileSync(join(d, "tls", f), "old", { mode: 0o644 });
    await loadTls(d, undefined, NAMES);
    for (const f of ["ca-key.pem", "key.pem"]) expect(statSync(join(d, "tls", f)).mode & 0o777).toBe(0o600);
  });

  test("a renewal that cannot be written keeps serving the certificate it has, and says so", async () => {
    const d = dataDir();
    const first = await loadTls(d, undefined, NAMES);
    mkdirSync(join(d, "tls", "key.pem.tmp")); // the write fails, as on a full or read-only folder
    const next = await loadTls(d, undefined, { ...NAMES, ips: [...NAMES.ips, "10.0.0.9"] });
    expect(next.fingerprint).toBe(first.fingerprint);
    expect(next.warning).toContain("could not be written");
  });

  test("a corrupt certificate file is named in the error", async () => {
    const d = dataDir();
    await loadTls(d, undefined, NAMES);
    writeFileSync(join(d, "tls", "cert.pem"), "not a certificate");
    await expect(loadTls(d, undefined, NAMES)).rejects.toThrow(/cert\.pem is not a PEM certificate/);
  });
});
