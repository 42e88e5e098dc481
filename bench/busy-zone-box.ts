/**
 * The busiest zone for the handheld benches (wifi-bytes.ts, phone-busy-zone.ts): `parkd serve
 * --http` on 127.0.0.1 over a store with CARS running tickets in ZONE, a handheld's token, and a
 * terminal that sends the zone's ticket events (half new cars, half parked cars extended), as
 * a busy site's terminals do. Also the phone: Chromium at phone size, signed in.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../test/support/browser.ts";
import { seedZoneIntoStore } from "../test/support/seed.ts";

export const ZONE = 1234;
export const CARS = 20_000;

export interface BusyZoneBox {
  url: string;
  port: number;
  handheld: string;
  /** Sends the zone's next ticket event (not awaited); how many were sent. */
  sendEvent(): number;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => ok(typeof a === "object" && a ? a.port : 0));
    });
  });

/**
 * `ends`: "later", every ticket ends 2 h ahead or more (a zone that stands still but for the
 * events sent: what the Wi-Fi's idle figure measures); "all day", they end a second apart from
 * 45 min ago to 5.5 h ahead, as cars come and go (about 3,300 cars on the patrol list).
 */
export async function busyZoneBox(bin: string, ends: "later" | "all day" = "later"): Promise<BusyZoneBox> {
  const dir = mkdtempSync(join(tmpdir(), "parkd-busy-zone-"));
  const env = { PATH: "/usr/bin:/bin", TZ: "UTC" };
  const run = (cmd: string[]) => Bun.spawnSync(cmd, { cwd: dir, env }).stdout.toString().trim();
  const token = (name: string, scope: string) =>
    run([bin, "token", "create", "--data-dir", dir, "--name", name, "--scope", scope]);
  run([bin, "migrate", "--data-dir", dir]);
  const handheld = token("handheld", "permits:read");
  const terminal = token("terminal", "tickets:write");
  const now = Date.now();
  seedZoneIntoStore(join(dir, "parkd.db"), {
    zone: ZONE,
    count: CARS,
    prefix: "P",
    idPrefix: "seed-",
    start: now - 3_600_000,
    end: (i) => (ends === "later" ? now + 2 * 3_600_000 : now - 45 * 60_000) + i * 1000,
  });
  const port = await freePort();
  const server = Bun.spawn(
    [bin, "serve", "--http", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dir],
    { cwd: dir, env, stdout: "ignore", stderr: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const up = await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    await Bun.sleep(50);
  }
  let sent = 0;
  return {
    url,
    port,
    handheld,
    sendEvent() {
      const at = Date.now();
      const fresh = sent % 2 === 0;
      const parked = (sent * 7919) % CARS;
      void fetch(`${url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
        body: JSON.stringify({
          eventType: fresh ? "TicketCreated" : "CreateOrUpdate",
          ticketId: fresh ? `new-${sent}` : `seed-${parked}`,
          zoneCode: String(ZONE),
          parkingLotId: null,
          startDate: new Date(at - 60_000).toISOString(),
          endDate: new Date(at + 3 * 3_600_000 + sent * 1000).toISOString(),
          licenseNumber: fresh ? `N${String(sent).padStart(5, "0")}` : `P${String(parked).padStart(5, "0")}`,
          ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
        }),
      });
      return ++sent;
    },
    async close() {
      server.kill("SIGTERM");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Chromium at phone size on `url`, signed in with `token`: the page and a way to close it. */
export async function phoneSignedIn(
  url: string,
  token: string,
): Promise<{ page: Page; ctx: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "parkd-phone-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM!,
    headless: true,
    args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
    viewport: { width: 390, height: 844 },
    locale: "en-GB",
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.goto(`${url}/`);
  await page.fill("#token", token);
  await page.click("#token-form button[type=submit]");
  await page.waitForSelector("#plate");
  return {
    page,
    ctx,
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Sends 5 ticket events a second until `stop()`. */
export function fiveEventsASecond(box: BusyZoneBox): { stop(): Promise<number> } {
  let sending = true;
  let sent = 0;
  const loop = (async () => {
    while (sending) {
      const at = Date.now();
      sent = box.sendEvent();
      await Bun.sleep(Math.max(0, at + 200 - Date.now()));
    }
  })();
  return {
    async stop() {
      sending = false;
      await loop;
      return sent;
    },
  };
}
