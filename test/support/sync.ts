import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { type Box, composeBox } from "../../src/app.ts";
import { type AppContext, createContext } from "../../src/context.ts";
import { CentralSync, type SyncOptions } from "../../src/modules/sync/job.ts";
import { addSite, siteRoleName } from "../../src/modules/sync/office/roles.ts";
import { openStore } from "../../src/platform/store/db.ts";
import { call } from "./app.ts";
import type { PgServer } from "./postgres.ts";

/** A site's box for the sync tests: its own data folder, app and intake credential. */
export interface SiteBox {
  site: string;
  dir: string;
  ctx: AppContext;
  app: Box["app"];
  credentials: Box["credentials"];
  lookupRecorder: Box["lookupRecorder"];
  office: Box["office"];
  writer: string;
  admin: string;
  reader: string;
  /** A TicketCreated for `id` in zone 1234. */
  create(id: string, plate?: string): Promise<void>;
  post(body: Record<string, unknown>): Promise<void>;
  /** A sync as the site's own role (made beforehand with enrolSite). */
  sync(pg: PgServer, opts?: Partial<SyncOptions>): CentralSync;
  eventCount(): number;
  /** Closes the store (the folder stays, for a restart). */
  close(): void;
}

export function siteBox(
  site: string,
  dir = mkdtempSync(join(tmpdir(), `parkd-site-${site}-`)),
  now?: () => number,
): SiteBox {
  const store = openStore(dir);
  // Tests post events back to back, faster than the per-credential rate limit allows.
  const ctx = createContext(store, { timezone: "Europe/Stockholm", rateLimitPerSecond: 0 }, now);
  const { app, credentials, lookupRecorder, office } = composeBox(ctx);
  const mint = (name: string, scope: "tickets:write" | "admin" | "permits:read") =>
    credentials.createToken({ name: `${name}-${crypto.randomUUID()}`, scopes: [scope] }).token;
  const writer = mint("terminal", "tickets:write");
  const admin = mint("office", "admin");
  const reader = mint("handheld", "permits:read");
  const box: SiteBox = {
    site,
    dir,
    ctx,
    app,
    credentials,
    lookupRecorder,
    office,
    writer,
    admin,
    reader,
    async post(body) {
      const r = await call(app, "POST", "/api/v1/actions/tickets", { token: writer, body });
      if (r.status !== 200) throw new Error(`intake refused ${JSON.stringify(body)}: ${r.status} ${r.text}`);
    },
    create(id, plate = `P${id}`) {
      return box.post({
        eventType: "TicketCreated",
        ticketId: id,
        zoneCode: "1234",
        parkingLotId: null,
        startDate: "2026-06-15T10:00:00+02:00",
        endDate: "2026-06-15T12:00:00+02:00",
        licenseNumber: plate,
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      });
    },
    sync(pg, opts = {}) {
      return new CentralSync({
        store,
        target: siteTarget(pg, site),
        site,
        version: "test",
        timeZone: "Europe/Stockholm",
        idleMs: 50,
        pullIntervalMs: 200,
        retryMs: 100,
        timeoutMs: 10_000,
        ...opts,
      });
    },
    eventCount: () =>
      (store.sqlite.query("SELECT count(*) AS n FROM ticket_events").get() as { n: number }).n,
    close() {
      credentials.stop();
      store.close();
    },
  };
  return box;
}

export function removeBox(box: SiteBox): void {
  try {
    box.close();
  } catch {}
  rmSync(box.dir, { recursive: true, force: true });
}

/** The password the tests give a site's role. */
export const sitePasswordFor = (site: string) => `site-secret-for-tests-${site}`;

/** Where and as whom a site's box logs in at the office (after enrolSite). */
export function siteTarget(pg: PgServer, site: string): { url: string; password: string } {
  return { url: pg.url.replace(/\/\/[^@]+@/, `//${siteRoleName(site)}@`), password: sitePasswordFor(site) };
}

/** Makes the site's role at the office, as `parkd central add-site` does (again: harmless). */
export async function enrolSite(pg: PgServer, site: string): Promise<void> {
  const owner = officeSql(pg);
  try {
    await addSite(owner, site, sitePasswordFor(site));
  } finally {
    await owner.close({ timeout: 1 });
  }
}

/** The test's own connection to the office database (with the password). */
export function officeSql(pg: PgServer): SQL {
  return new SQL(pg.urlWithPassword, { max: 2 });
}

/** Polls `check` until it holds or the time is up. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await Bun.sleep(50);
  }
}
