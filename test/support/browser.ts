import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BrowserContext } from "playwright-core";

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
): Promise<BrowserContext> {
  if (!CHROMIUM)
    throw new Error("Chromium is not installed (./build.sh test installs the Debian package as root)");
  const { chromium } = await import("playwright-core");
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
    viewport,
    locale,
    timezoneId: "UTC",
  });
}
