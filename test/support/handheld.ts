import { afterAll, expect } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { type Box, boxesForFile, type Server } from "./binary.ts";
import { openBrowser } from "./browser.ts";

/** What a phone has besides its screen: a camera (Chromium's fake one), the permission to use it. */
export interface PhoneParts {
  args?: string[];
  permissions?: string[];
}

/** A phone's viewport: the attendant page is made for one. */
export const PHONE = { width: 390, height: 844 };

/**
 * A fixed-offset site time zone in which it is about 10:00 now: a mark made now and a box clock
 * moved 2 h 14 min ahead fall on the same site-local day whenever the test runs.
 */
export function morningZone(now = Date.now()): string {
  const offset = ((10 - new Date(now).getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? "Etc/UTC" : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

/**
 * The attendant page's browser tests' own set-up, one per test file: a box serving the built
 * binary, the tokens made for it, and phone-sized Chromium pages signed in to it, one open at a
 * time (each holds a zone feed, and a credential may hold 8). `box` and `server` are set by
 * start(); a test that restarts the server puts the new one in `server`.
 */
export function handheldRig() {
  const newBox = boxesForFile();
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });
  const rig = {
    box: undefined as unknown as Box,
    server: undefined as unknown as Server,
    tokens: {} as Record<string, string>,

    /** A new box with a token per name (name: [token name, ...scopes]), served with `serveArgs`. */
    async start(tokens: Record<string, [string, ...string[]]>, serveArgs: string[]): Promise<void> {
      rig.box = newBox();
      for (const [key, [name, ...scopes]] of Object.entries(tokens))
        rig.tokens[key] = await rig.box.token(name, ...scopes);
      rig.server = await rig.box.serve(serveArgs);
    },

    adminApi(method: string, path: string, body?: unknown): Promise<Response> {
      return fetch(`${rig.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${rig.tokens.admin}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },

    /** A terminal's TicketCreated (with the token named `terminal`), accepted. */
    async sendTicket(
      ticketId: string,
      plate: string,
      zone: number,
      from: number,
      until: number,
    ): Promise<void> {
      const r = await fetch(`${rig.server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${rig.tokens.terminal}`, "content-type": "application/json" },
        body: JSON.stringify({
          eventType: "TicketCreated",
          ticketId,
          zoneCode: String(zone),
          parkingLotId: null,
          startDate: new Date(from).toISOString(),
          endDate: new Date(until).toISOString(),
          licenseNumber: plate,
          ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
        }),
      });
      expect(r.status).toBe(200);
    },

    /** A fresh phone (its own profile folder); the one open before is closed. */
    async browser(name: string, locale?: string, phone: PhoneParts = {}): Promise<Page> {
      for (const c of contexts.splice(0)) await c.close().catch(() => {});
      const ctx = await openBrowser(join(rig.box.dir, `profile-${name}`), PHONE, locale, phone);
      contexts.push(ctx);
      return ctx.pages()[0] ?? (await ctx.newPage());
    },

    /** Signed in with `token`, watching `zone` live when one is given. */
    async signedIn(
      name: string,
      token: string,
      zone?: number,
      locale?: string,
      phone: PhoneParts = {},
    ): Promise<Page> {
      const page = await rig.browser(name, locale, phone);
      await page.goto(`${rig.server.url}/`);
      await page.fill("#token", token);
      await page.click("#token-form button[type=submit]");
      await page.waitForSelector("#plate");
      if (zone !== undefined) {
        await page.fill("#zone", String(zone));
        await page.click("#zone-form button");
        await page.waitForSelector("#zone-state.live");
      }
      return page;
    },

    /** Checks a plate in the zone in the field; the verdict shown (its data-verdict). */
    async check(page: Page, plate: string): Promise<string> {
      await page.fill("#plate", plate);
      await page.click("#check-button");
      await page.waitForFunction(() => !document.querySelector("#result .pending"));
      return (await page.locator("#result [data-verdict]").getAttribute("data-verdict"))!;
    },
  };
  return rig;
}
