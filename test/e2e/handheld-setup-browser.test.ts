import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { issueServerCertificate } from "../../src/platform/http/x509.ts";
import { type Box, boxesForFile, type Server } from "../support/binary.ts";
import {
  axeViolations,
  CERTUTIL,
  openBrowser,
  screenshotPath,
  skipWithoutChromium,
  trustingCa,
} from "../support/browser.ts";
import { fetchTrusting } from "../support/trusted-client.ts";

const newBox = boxesForFile();
// Browser tests on a shared machine: each gets the minute the other browser tests give theirs.
setDefaultTimeout(60_000);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

let box: Box;
let server: Server;
const tokens: Record<string, string> = {};
const contexts: BrowserContext[] = [];

const caPem = () => readFileSync(join(box.dataDir, "tls", "ca.pem"), "utf8");

/** Chromium as a handheld whose user clicked through the certificate warning: nothing trusted. */
async function clickedThrough(name: string, viewport = PHONE): Promise<Page> {
  const ctx = await openBrowser(join(box.dir, `profile-${name}`), viewport, "en-GB", {
    ignoreHTTPSErrors: true,
  });
  contexts.push(ctx);
  return ctx.pages()[0] ?? (await ctx.newPage());
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.waitForSelector("#signout");
}

/**
 * Setting a handheld up to trust the box once, against the built binary serving HTTPS from its
 * local CA, in headless Chromium. Skipped only without Chromium, never with CI=true.
 */
describe.skipIf(skipWithoutChromium)("setting a handheld up to trust the box", () => {
  beforeAll(async () => {
    box = newBox();
    tokens.admin = await box.token("console", "admin");
    tokens.attendant = await box.token("handheld-1", "permits:read");
    server = await box.serve([]);
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  test("a clicked-through certificate: the attendant is told offline use is unavailable, and led to the set-up page", async () => {
    const page = await clickedThrough("attendant");
    await signIn(page, tokens.attendant!);
    const notice = page.locator("#no-offline");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("Offline use is not available on this device");
    await notice.locator("a").click();
    await page.waitForSelector("#ca-fingerprint");
    expect(await page.title()).toBe("Handhelds · parkd");
    const shown = (await page.locator("#ca-fingerprint").textContent())!.replace(/:/g, "");
    expect(shown).toBe(new X509Certificate(caPem()).fingerprint256.replace(/:/g, ""));
    await page.waitForSelector("#device-state.warning");
    expect(await page.locator("#device-state").textContent()).toContain("Does not trust the box yet");
    // What the two download links fetch is the CA, as DER and as an iOS profile.
    const got = await page.evaluate(async () => {
      const crt = new Uint8Array(
        await (await fetch(document.querySelector<HTMLAnchorElement>("#download-crt")!.href)).arrayBuffer(),
      );
      const profile = await fetch(document.querySelector<HTMLAnchorElement>("#download-profile")!.href);
      return { first: crt[0], length: crt.length, profileType: profile.headers.get("content-type") };
    });
    expect(got.first).toBe(0x30);
    expect(got.length).toBeGreaterThan(300);
    expect(got.profileType).toBe("application/x-apple-aspen-config");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("phone-handheld-setup"), fullPage: true });
  });

  test("before anyone signs in: the sign-in page links to it, and /#/setup opens it without a session", async () => {
    const page = await clickedThrough("anonymous");
    await page.goto(`${server.url}/#/setup`);
    await page.waitForSelector("#ca-fingerprint");
    expect(await page.locator("h1").allInnerTexts()).toEqual(["Set up a handheld"]);
    await page.goto(`${server.url}/`);
    await page.click(".setup-link a");
    await page.waitForSelector("#ca-fingerprint");
    expect(await page.locator("a[href='/']").textContent()).toBe("Sign in");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
  });

  test("in the console: a QR code that opens the page on the phone, and a warning when only loopback is known", async () => {
    const page = await clickedThrough("console", DESKTOP);
    await signIn(page, tokens.admin!);
    await page.click("nav a[data-page=setup]");
    await page.waitForSelector(".setup-qr svg.qr");
    await page.waitForSelector("#setup-unreachable");
    expect(await page.locator("#setup-unreachable").textContent()).toContain("--public-url");
    expect(await axeViolations(page, { bestPractice: true })).toEqual([]);
    await page.screenshot({ path: screenshotPath("desktop-handheld-setup"), fullPage: true });
  });
});

describe("the box's local CA, as a client that installed it sees it", () => {
  test("trusting the CA reaches the box; a restart keeps the CA and the certificate", async () => {
    const b = newBox();
    const s1 = await b.serve([]);
    const ca = readFileSync(join(b.dataDir, "tls", "ca.pem"), "utf8");
    const caFingerprint = new X509Certificate(ca).fingerprint256;
    expect(s1.stderr()).toContain(`local CA SHA-256 fingerprint ${caFingerprint} (new local CA)`);
    expect((await fetchTrusting(`${s1.url}/healthz`, ca)).status).toBe(200);
    await expect(fetch(`${s1.url}/healthz`)).rejects.toThrow();
    const setup = JSON.parse((await fetchTrusting(`${s1.url}/api/v1/handheld-setup`, ca)).body) as {
      data: { certificate: string; fingerprint: string };
    };
    expect(setup.data).toMatchObject({ certificate: "local_ca", fingerprint: caFingerprint });
    const served = b.certificatePem();
    expect(await s1.stop()).toBe(0);
    const s2 = await b.serve([]);
    expect(b.certificatePem()).toBe(served);
    expect(readFileSync(join(b.dataDir, "tls", "ca.pem"), "utf8")).toBe(ca);
    expect(s2.stderr()).not.toContain("(new local CA)");
    expect((await fetchTrusting(`${s2.url}/healthz`, ca)).status).toBe(200);
    expect(await s2.stop()).toBe(0);
  });
});

/**
 * Chromium with the box's CA installed (in its NSS database, as a Linux user would add it): the
 * name-constrained CA is trusted for the box, and a certificate its key signs for a public name
 * is refused. Skipped only without Chromium or certutil, never with CI=true.
 */
describe.skipIf(skipWithoutChromium || (!CERTUTIL && process.env.CI !== "true"))(
  "a browser that installed the box's CA",
  () => {
    test("trusts the box's own certificate, and refuses one the CA key signs for a public name", async () => {
      const b = newBox();
      const s = await b.serve([]);
      const ca = readFileSync(join(b.dataDir, "tls", "ca.pem"), "utf8");
      const home = trustingCa(join(b.dir, "home"), ca);
      const ctx = await openBrowser(join(b.dir, "profile-trusting"), PHONE, "en-GB", { home });
      contexts.push(ctx);
      const page = ctx.pages()[0] ?? (await ctx.newPage());
      const answer = await page.goto(`${s.url}/healthz`);
      expect(answer?.status()).toBe(200);

      // Whoever copied tls/ca-key.pem signs a certificate for this address and a public name.
      const forged = await issueServerCertificate(
        { certPem: ca, keyPem: readFileSync(join(b.dataDir, "tls", "ca-key.pem"), "utf8") },
        { commonName: "www.example.com", dnsNames: ["www.example.com"], ips: ["127.0.0.1"], days: 30 },
      );
      const impostor = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        tls: { cert: forged.certPem, key: forged.keyPem },
        fetch: () => new Response("impostor"),
      });
      try {
        const refused = await page.goto(`https://127.0.0.1:${impostor.port}/`).then(
          () => "loaded",
          (e: Error) => e.message,
        );
        expect(refused).toContain("ERR_CERT");
      } finally {
        impostor.stop(true);
      }
      expect(await s.stop()).toBe(0);
    });
  },
);
