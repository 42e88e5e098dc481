import { describe, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isLoopback } from "../../../src/modules/web/sign-in-codes.ts";
import { loadTls, type TlsMaterial } from "../../../src/platform/http/tls.ts";
import { createSelfSigned } from "../../../src/platform/http/x509.ts";
import { call, expectProblem, testApp } from "../../support/app.ts";

const NAMES = { host: "box", dnsNames: ["localhost", "box"], ips: ["127.0.0.1"] };

async function localCa(): Promise<TlsMaterial> {
  const d = mkdtempSync(join(tmpdir(), "parkd-setup-"));
  try {
    return await loadTls(d, undefined, NAMES);
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

describe("setting a handheld up to trust the box", () => {
  test("with the local CA: its fingerprint, the .crt and the iOS profile, no credential needed", async () => {
    const s = testApp({ publicUrl: "https://parking-box.lan:8443" });
    const tls = await localCa();
    s.ctx.certificate = () => tls;
    const r = await call(s.app, "GET", "/api/v1/handheld-setup");
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({
      certificate: "local_ca",
      fingerprint: tls.ca!.fingerprint,
      ca_certificate_url: "/handheld/parkd-ca.crt",
      ios_profile_url: "/handheld/parkd-ca.mobileconfig",
      setup_url: "https://parking-box.lan:8443/#/setup",
      reachable: true,
    });

    const crt = await s.app.handle(new Request("http://localhost/handheld/parkd-ca.crt"));
    expect(crt.status).toBe(200);
    expect(crt.headers.get("content-type")).toBe("application/x-x509-ca-cert");
    expect(crt.headers.get("content-disposition")).toBe('attachment; filename="parkd-ca.crt"');
    const der = Buffer.from(await crt.arrayBuffer());
    const ca = new X509Certificate(der);
    expect(ca.fingerprint256).toBe(tls.ca!.fingerprint);
    expect(ca.ca).toBe(true);

    const profile = await s.app.handle(new Request("http://localhost/handheld/parkd-ca.mobileconfig"));
    expect(profile.status).toBe(200);
    expect(profile.headers.get("content-type")).toBe("application/x-apple-aspen-config");
    const xml = await profile.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain("<string>com.apple.security.root</string>");
    expect(xml).toContain("<string>parkd local CA (box)</string>");
    const data = /<data>([A-Za-z0-9+/=]+)<\/data>/.exec(xml)![1]!;
    expect(Buffer.from(data, "base64").equals(der)).toBe(true);
    const uuids = [...xml.matchAll(/<key>PayloadUUID<\/key>\s*<string>([^<]+)<\/string>/g)].map((m) => m[1]);
    expect(uuids).toHaveLength(2);
    for (const u of uuids)
      expect(u).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(new Set(uuids).size).toBe(2);
    // The same CA gives the same profile: a second download replaces the first on the phone.
    expect(
      await (await s.app.handle(new Request("http://localhost/handheld/parkd-ca.mobileconfig"))).text(),
    ).toBe(xml);
  });

  test("made from localhost without --public-url: the page's address is said to be unreachable", async () => {
    const s = testApp();
    s.ctx.certificate = () => undefined;
    const r = await call(s.app, "GET", "/api/v1/handheld-setup");
    expect(r.json.data).toEqual({
      certificate: "none",
      fingerprint: null,
      ca_certificate_url: null,
      ios_profile_url: null,
      setup_url: "http://localhost/#/setup",
      reachable: false,
    });
    expectProblem(await call(s.app, "GET", "/handheld/parkd-ca.crt"), 404, "no-local-ca");
    expectProblem(await call(s.app, "GET", "/handheld/parkd-ca.mobileconfig"), 404, "no-local-ca");
  });

  test("the operator's own or an earlier self-signed certificate: its fingerprint, and nothing to install", async () => {
    const s = testApp();
    const cert = await createSelfSigned({ commonName: "box", dnsNames: ["localhost"], ips: [] });
    for (const source of ["own", "self-signed"] as const) {
      s.ctx.certificate = () => ({
        cert: cert.certPem,
        key: cert.keyPem,
        fingerprint: cert.fingerprint,
        source,
        made: null,
      });
      const r = await call(s.app, "GET", "/api/v1/handheld-setup");
      expect(r.json.data).toMatchObject({
        certificate: source === "own" ? "own" : "self_signed",
        fingerprint: cert.fingerprint,
        ca_certificate_url: null,
        ios_profile_url: null,
      });
      const p = expectProblem(await call(s.app, "GET", "/handheld/parkd-ca.crt"), 404, "no-local-ca");
      expect(p.detail).toContain("did not issue");
    }
  });
});

describe("the set-up answer against odd requests", () => {
  test("a Host that is no URL (port past 65535) is said as an unreachable localhost, never a 500; never cached", async () => {
    const s = testApp();
    for (const host of ["a:99999", "[::1]:99999", "a:65536"]) {
      const r = await s.app.handle(
        new Request("http://localhost/api/v1/handheld-setup", { headers: { host } }),
      );
      expect(r.status).toBe(200);
      expect(r.headers.get("cache-control")).toBe("no-store");
      expect(((await r.json()) as { data: { setup_url: string; reachable: boolean } }).data).toMatchObject({
        setup_url: "http://localhost/#/setup",
        reachable: false,
      });
    }
  });

  test("loopback is told by address, not by a name that starts like one", () => {
    for (const url of [
      "https://localhost",
      "https://127.0.0.1:8443",
      "https://[::1]",
      "https://[::ffff:127.0.0.1]",
      "https://0.0.0.0",
    ])
      expect(isLoopback(url), url).toBe(true);
    for (const url of [
      "https://127.evil.example",
      "https://127.0.0.1.evil.example",
      "https://10.0.0.1",
      "https://parking-box.lan",
    ])
      expect(isLoopback(url), url).toBe(false);
  });
});
