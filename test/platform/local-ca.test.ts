import { describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BoxNames,
  boxNames,
  CA_DAYS,
  caNameSpace,
  loadTls,
  permittedNamesText,
  RENEW_BEFORE_DAYS,
  replaceLocalCa,
  SERVER_CERTIFICATE_DAYS,
} from "../../src/platform/http/tls.ts";
import {
  createCertificateAuthority,
  createSelfSigned,
  issueServerCertificate,
  permittedNamesOf,
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

const openssl = Bun.which("openssl");
if (!openssl && process.env.CI === "true")
  throw new Error("openssl is required in CI (./build.sh test installs it)");

function run(cmd: string[], cwd?: string): { code: number; out: string } {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

/** A leaf the CA's key signs for `san` with openssl, as whoever copied tls/ca-key.pem could. */
function mintedWithCaKey(d: string, name: string, san: string): string {
  const tls = join(d, "tls");
  const ext = join(d, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
  const req = run([
    openssl!,
    "req",
    "-new",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    join(d, `${name}.key`),
    "-subj",
    `/CN=${name}`,
    "-out",
    join(d, `${name}.csr`),
  ]);
  expect(req.code, req.out).toBe(0);
  const signed = run([
    openssl!,
    "x509",
    "-req",
    "-in",
    join(d, `${name}.csr`),
    "-CA",
    join(tls, "ca.pem"),
    "-CAkey",
    join(tls, "ca-key.pem"),
    "-CAcreateserial",
    "-days",
    "30",
    "-extfile",
    ext,
    "-out",
    join(d, `${name}.pem`),
  ]);
  expect(signed.code, signed.out).toBe(0);
  return join(d, `${name}.pem`);
}

const verify = (d: string, leaf: string) =>
  run([openssl!, "verify", "-CAfile", join(d, "tls", "ca.pem"), leaf]);

describe.skipIf(!openssl)("the local CA speaks for the site's names only (openssl's view)", () => {
  test("Name Constraints, critical, permit the private addresses, the site's domains and the box's names; five years", async () => {
    const d = dataDir();
    const tls = await loadTls(d, undefined, {
      ...NAMES,
      host: "parking-box",
      dnsNames: ["localhost", "parking-box"],
    });
    const text = run([openssl!, "x509", "-noout", "-text", "-in", join(d, "tls", "ca.pem")]).out;
    expect(text).toContain("X509v3 Name Constraints: critical");
    for (const p of [
      "DNS:localhost",
      "DNS:lan",
      "DNS:local",
      "DNS:internal",
      "DNS:home.arpa",
      "DNS:parking-box",
      "IP:10.0.0.0/255.0.0.0",
      "IP:172.16.0.0/255.240.0.0",
      "IP:192.168.0.0/255.255.0.0",
      "IP:127.0.0.0/255.0.0.0",
      "IP:169.254.0.0/255.255.0.0",
      "IP:100.64.0.0/255.192.0.0",
      "IP:FC00:0:0:0:0:0:0:0/FE00:0:0:0:0:0:0:0",
      "IP:FE80:0:0:0:0:0:0:0/FFC0:0:0:0:0:0:0:0",
      "IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
    ])
      expect(text).toContain(p);
    expect(text).not.toContain("Excluded");
    const ca = new X509Certificate(tls.ca!.pem);
    expect(Math.round((new Date(ca.validTo).getTime() - new Date(ca.validFrom).getTime()) / DAY)).toBe(
      CA_DAYS,
    );
    expect(tls.warning).toBeUndefined();
  });

  test("openssl verify accepts the box's own certificate and refuses one minted with the CA key for a public name or address", async () => {
    const d = dataDir();
    const tls = await loadTls(d, undefined, {
      host: "parking-box",
      dnsNames: ["localhost", "parking-box", "parking-box.lan"],
      ips: ["127.0.0.1", "::1", "192.168.1.20", "10.20.0.5", "fd00::5"],
    });
    writeFileSync(join(d, "served.pem"), tls.cert);
    expect(verify(d, join(d, "served.pem"))).toMatchObject({ code: 0 });
    // Within the constraints, minted by hand: accepted (the constraints, not the minting, refuse).
    expect(verify(d, mintedWithCaKey(d, "printer", "DNS:printer.lan,IP:192.168.1.30")).code).toBe(0);
    for (const [name, san] of [
      ["www", "DNS:www.example.com"],
      ["dns", "IP:8.8.8.8"],
      ["mixed", "DNS:parking-box.lan,DNS:bank.example"],
      ["v6", "IP:2001:db8::1"],
    ] as const) {
      const r = verify(d, mintedWithCaKey(d, name, san));
      expect(r.code, `${san}: ${r.out}`).not.toBe(0);
      expect(r.out).toContain("violation");
    }
  });
});

describe("names outside the local CA's constraints", () => {
  test("a public address or name of the box is left out of its certificate, said in a warning; the certificate stays valid", async () => {
    const d = dataDir();
    await loadTls(d, undefined, NAMES);
    const tls = await loadTls(d, undefined, {
      ...NAMES,
      host: "box2.example.com",
      dnsNames: ["localhost", "box2.example.com"],
      ips: [...NAMES.ips, "203.0.113.7", "10.9.9.9"],
    });
    expect(tls.made).toBe("certificate");
    const leaf = new X509Certificate(tls.cert);
    expect(leaf.subjectAltName).not.toContain("203.0.113.7");
    expect(leaf.subjectAltName).not.toContain("example.com");
    expect(leaf.subject).toBe("CN=parkd");
    expect(tls.warning).toContain("outside the local CA's name constraints: box2.example.com, 203.0.113.7");
    // Not issued again at every start for the names it cannot carry.
    const again = await loadTls(d, undefined, {
      ...NAMES,
      host: "box2.example.com",
      dnsNames: ["localhost", "box2.example.com"],
      ips: [...NAMES.ips, "203.0.113.7", "10.9.9.9"],
    });
    expect(again.made).toBeNull();
    expect(again.fingerprint).toBe(tls.fingerprint);
  });

  test("--tls-domains: a new CA permits the site's own domain, so a box renamed within it needs no new CA", async () => {
    const d = dataDir();
    const names = (host: string): BoxNames => ({
      host,
      dnsNames: ["localhost", host],
      ips: NAMES.ips,
      domains: ["parking.example.org"],
    });
    const first = await loadTls(d, undefined, names("box1.parking.example.org"));
    const renamed = await loadTls(d, undefined, names("gate-2.parking.example.org"));
    expect(renamed.ca!.fingerprint).toBe(first.ca!.fingerprint);
    expect(renamed.warning).toBeUndefined();
    expect(new X509Certificate(renamed.cert).checkHost("gate-2.parking.example.org")).toBe(
      "gate-2.parking.example.org",
    );
    // A domain named after the CA was made: the CA cannot take it, and the operator is told how.
    const later = await loadTls(d, undefined, {
      ...names("box1.parking.example.org"),
      domains: ["other.example"],
    });
    expect(later.warning).toContain(
      "--tls-domains names other.example, which the local CA (made before) does not permit",
    );
  });

  test("a certificate never outlives its CA, and one ending with its CA is not issued again and again", async () => {
    const d = dataDir();
    mkdirSync(join(d, "tls"));
    const ca = await createCertificateAuthority({
      commonName: "short",
      days: 50,
      permitted: caNameSpace(NAMES),
    });
    writeFileSync(join(d, "tls", "ca.pem"), ca.certPem);
    writeFileSync(join(d, "tls", "ca-key.pem"), ca.keyPem, { mode: 0o600 });
    const first = await loadTls(d, undefined, NAMES);
    expect(first.made).toBe("certificate");
    expect(new X509Certificate(first.cert).validTo).toBe(new X509Certificate(ca.certPem).validTo);
    const again = await loadTls(d, undefined, NAMES);
    expect(again.made).toBeNull();
    expect(again.warning).toContain("the local CA ends on");
  });
});

describe("a CA made before name constraints (boxes already deployed)", () => {
  async function unconstrained(d: string): Promise<string> {
    mkdirSync(join(d, "tls"), { recursive: true });
    const old = await createCertificateAuthority({ commonName: "parkd local CA (box)" });
    writeFileSync(join(d, "tls", "ca.pem"), old.certPem);
    writeFileSync(join(d, "tls", "ca-key.pem"), old.keyPem, { mode: 0o600 });
    return old.certPem;
  }

  test("is kept and served (handhelds trust it), with a warning that names the fix", async () => {
    const d = dataDir();
    const old = await unconstrained(d);
    const tls = await loadTls(d, undefined, NAMES);
    expect(tls.ca!.pem).toBe(old);
    expect(tlsFile(d, "ca.pem")).toBe(old);
    expect(tls.warning).toContain("the local CA has no name constraints");
    expect(tls.warning).toContain("parkd tls new-ca");
    expect(permittedNamesText(old)).toBe("any name (no name constraints)");
  });

  test("replaceLocalCa (parkd tls new-ca): the old files are kept aside and a constrained CA issues the served certificate", async () => {
    const d = dataDir();
    const old = await unconstrained(d);
    const before = await loadTls(d, undefined, NAMES);
    const { aside, tls } = await replaceLocalCa(
      d,
      { ...NAMES, domains: ["parking.example.org"] },
      Date.UTC(2026, 5, 1),
    );
    expect(aside.map((p) => p.slice(join(d, "tls").length + 1)).sort()).toEqual(
      ["ca-key.pem", "ca.pem", "cert.pem", "key.pem"]
        .map((f) => `${f}.before-new-ca-20260601T000000Z`)
        .sort(),
    );
    expect(readFileSync(aside.find((p) => p.includes("/ca.pem."))!, "utf8")).toBe(old);
    expect(tls.made).toBe("ca");
    expect(tls.warning).toBeUndefined();
    expect(tls.ca!.fingerprint).not.toBe(before.ca!.fingerprint);
    expect(permittedNamesOf(tls.ca!.pem)!.dns).toContain("parking.example.org");
    expect(permittedNamesText(tls.ca!.pem)).toContain("192.168.0.0/16, 127.0.0.0/8");
    expect(permittedNamesText(tls.ca!.pem)).toContain("fc00::/7, fe80::/10, ::1/128");
    expect(new X509Certificate(tls.cert).checkIssued(new X509Certificate(tls.ca!.pem))).toBe(true);
    expect(statSync(join(d, "tls", "ca-key.pem")).mode & 0o777).toBe(0o600);
  });
});
