import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

/** Debian's chromium, which ./build.sh test installs when missing and it runs as root. */
export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/** Chromium is needed: a test may skip without it on a laptop, never with CI=true. */
export const skipWithoutChromium = !CHROMIUM && process.env.CI !== "true";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Screenshots for a person to look at, beside the /docs ones (dist/ is not committed). */
export const SCREENSHOTS =
  process.env.PARKD_SCREENSHOT_DIR ?? resolve(import.meta.dir, "../../dist/screenshots");

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

/** A fresh Chromium profile in `dir`, driven by Playwright. */
export async function openBrowser(
  dir: string,
  viewport: { width: number; height: number },
  locale = "en-GB",
  /** As a user who clicked through the certificate warning: the page loads, trust is not given. */
  opts: {
    ignoreHTTPSErrors?: boolean;
    home?: string;
    timezoneId?: string;
    /** More of Chromium's switches (a fake camera). */
    args?: string[];
    /** Permissions granted to every origin (camera). */
    permissions?: string[];
  } = {},
): Promise<BrowserContext> {
  if (!CHROMIUM)
    throw new Error("Chromium is not installed (./build.sh test installs the Debian package as root)");
  const { chromium } = await import("playwright-core");
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS.filter((a) => a !== "--headless"), ...(opts.args ?? [])],
    ...(opts.permissions ? { permissions: opts.permissions } : {}),
    viewport,
    locale,
    timezoneId: opts.timezoneId ?? "UTC",
    ignoreHTTPSErrors: opts.ignoreHTTPSErrors ?? false,
    // Chromium on Linux trusts the CAs in $HOME/.pki/nssdb (see trustingCa).
    ...(opts.home ? { env: { ...process.env, HOME: opts.home } } : {}),
  });
}

/** What signedInConsole needs: the box's address, an admin token, and where to keep each profile. */
export interface ConsoleBox {
  url: string;
  token: string;
  /** The folder the browser profiles go in (one per name). */
  dir: string;
  /** The test file's open contexts, which it closes when it is done: the new one is added. */
  contexts: BrowserContext[];
}

/** A fresh browser profile signed in to the console with the token, once the console's bar is drawn. */
export async function signedInConsole(
  box: ConsoleBox,
  name: string,
  viewport: { width: number; height: number },
  locale = "en-GB",
  /** The browser's own zone (UTC unless given): an operator away from the site. */
  timezoneId?: string,
): Promise<Page> {
  const ctx = await openBrowser(join(box.dir, `profile-${name}`), viewport, locale, { timezoneId });
  box.contexts.push(ctx);
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${box.url}/`);
  await page.fill("#token", box.token);
  await page.click("#token-form button[type=submit]");
  // The console's bar, drawn with its navigation in one step, at any size.
  await page.waitForSelector("#signout");
  return page;
}

/**
 * axe-core's findings on the page as it stands (WCAG 2.1 A and AA rules), each as "rule: target".
 * The script goes in through the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(
  page: import("playwright-core").Page,
  opts: { bestPractice?: boolean; targetSize?: boolean } = {},
): Promise<string[]> {
  const source = await Bun.file(require.resolve("axe-core/axe.min.js")).text();
  await page.evaluate(source);
  const tags = [
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    ...(opts.bestPractice ? ["best-practice"] : []),
    // WCAG 2.2's target size: every control at least 24 × 24 px (or spaced as if it were).
    ...(opts.targetSize ? ["wcag22aa"] : []),
  ];
  const found = (await page.evaluate(async (values) => {
    const axe = (globalThis as unknown as { axe: { run(o: unknown): Promise<unknown> } }).axe;
    return axe.run({ runOnly: { type: "tag", values } });
  }, tags)) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
  // Best practices count from "moderate" up: a minor one (an empty header cell) is not a finding.
  return found.violations
    .filter((v) => !opts.bestPractice || v.impact !== "minor")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

/**
 * Waits until `check`, run in the page, resolves truthy. Playwright's waitForFunction takes the
 * promise an async function returns as a truthy answer, so an async check must be polled here.
 */
export async function waitInPage(
  page: import("playwright-core").Page,
  check: () => Promise<unknown>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(check))) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms in the page for ${check}`);
    await Bun.sleep(250);
  }
}

/** NSS's certutil (Debian's libnss3-tools), which ./build.sh test installs when missing as root. */
export const CERTUTIL = Bun.which("certutil");

/**
 * A home folder whose NSS database trusts `caPem` to identify web sites, as a handheld that
 * installed the box's CA: pass it to openBrowser as `home`.
 */
export function trustingCa(home: string, caPem: string): string {
  if (!CERTUTIL)
    throw new Error("certutil is not installed (./build.sh test installs libnss3-tools as root)");
  const db = join(home, ".pki", "nssdb");
  mkdirSync(db, { recursive: true });
  const ca = join(home, "ca.pem");
  writeFileSync(ca, caPem);
  for (const args of [
    ["-N", "--empty-password"],
    ["-A", "-n", "parkd local CA", "-t", "C,,", "-i", ca],
  ]) {
    const r = Bun.spawnSync([CERTUTIL, "-d", `sql:${db}`, ...args], { stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`certutil ${args[0]}: ${r.stderr.toString()}`);
  }
  return home;
}
