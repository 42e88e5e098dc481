import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext } from "playwright-core";

/** Debian's chromium (./build.sh test installs it when it runs as root). */
export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/**
 * Browser tests run wherever Chromium is; on a laptop without it they are skipped, but never
 * in CI (CI=true): there a missing browser is a failure.
 */
export function browserMissing(): boolean {
  if (CHROMIUM) return false;
  if (process.env.CI === "true")
    throw new Error(
      "CI=true but no Chromium at /usr/bin/chromium: the browser tests must run (apt-get install chromium)",
    );
  return true;
}

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

/** Screenshots for a person to look at; the folder is gitignored. */
export const SCREENSHOTS = resolve(import.meta.dir, "../../test/screenshots");

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}

/** A fresh Chromium profile in `dir`, driven by Playwright. */
export async function openBrowser(
  dir: string,
  viewport: { width: number; height: number },
  locale = "en-GB",
): Promise<BrowserContext> {
  const { chromium } = await import("playwright-core");
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM!,
    headless: true,
    args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
    viewport,
    locale,
    timezoneId: "UTC",
  });
}
