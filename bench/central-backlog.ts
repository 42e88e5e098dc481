/**
 * A box that was offline comes back with a backlog: how fast it catches up with the office, and
 * what that costs its terminals meanwhile (intake latency through app.handle, before and during
 * the catch-up). Local only (127.0.0.1), bounded, stops by itself:
 *
 *   bun bench/central-backlog.ts [--events 100000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { migrateCentral } from "../src/modules/sync/office/schema.ts";
import { setLogging } from "../src/platform/log.ts";
import { openStore } from "../src/platform/store/db.ts";
import { startPostgres } from "../test/support/postgres.ts";

const i = process.argv.indexOf("--events");
const EVENTS = i > 0 ? Number(process.argv[i + 1]) : 100_000;
const PROBE_MS = 3_000;
/** Terminals send this many events a second meanwhile: a busy site. */
const RATE = 50;
setLogging(false);

const body = (id: string) =>
  JSON.stringify({
    eventType: "TicketCreated",
    ticketId: id,
    zoneCode: "1234",
    parkingLotId: null,
    startDate: "2026-06-15T10:00:00+02:00",
    endDate: "2026-06-15T12:00:00+02:00",
    licenseNumber: `B${id}`,
    ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
  });

const pg = await startPostgres({ durable: true });
const dir = mkdtempSync(join(tmpdir(), "parkd-backlog-"));
const office = new SQL(pg.urlWithPassword, { max: 1 });
try {
  await migrateCentral(office);
  const store = openStore(dir);
  const now = Date.now();
  // The backlog, written as the intake would have left it (one ticket and its create event each).
  store.transaction(() => {
    for (let n = 0; n < EVENTS; n++) {
      const id = `old-${n}`;
      store.tickets.insert({
        ticketId: id,
        zone: 1234,
        parkingLotId: null,
        lotUnknown: false,
        startAt: now,
        endAt: now + 7_200_000,
        plate: `B${id}`,
        plateNorm: `B${id}`,
        amountInclVat: 4000,
        vatRate: 25,
        currencyCode: "SEK",
        status: "running",
        at: now,
      });
      store.tickets.appendEvent({
        ticketId: id,
        eventType: "TicketCreated",
        receivedAt: now,
        credential: "token:terminal-1",
        rawBody: body(id),
        bodyCutFrom: null,
        canonical: body(id),
        outcome: "applied",
      });
    }
  })();
  const ctx = createContext(store, { timezone: "Europe/Stockholm" });
  const box = composeBox(ctx);
  const app = box.app;
  const token = box.credentials.createToken({ name: "bench", scopes: ["tickets:write"] }).token;
  let next = 0;

  /** Intake requests at RATE a second for `ms`; latencies in ms. */
  const probe = async (ms: number, until?: () => boolean) => {
    const out: number[] = [];
    const end = Date.now() + ms;
    while (Date.now() < end && !(until?.() ?? false)) {
      const t = performance.now();
      const r = await app.handle(
        new Request("http://localhost/api/v1/actions/tickets", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body(`new-${next++}`),
        }),
      );
      if (r.status !== 200) throw new Error(`intake answered ${r.status}`);
      const took = performance.now() - t;
      out.push(took);
      if (took < 1000 / RATE) await Bun.sleep(1000 / RATE - took);
    }
    return out.sort((a, b) => a - b);
  };
  const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? 0;
  const line = (name: string, s: number[]) =>
    `${name}: ${s.length} intake events at ${RATE}/s, p50 ${pct(s, 50).toFixed(2)} ms, p99 ${pct(s, 99).toFixed(2)} ms`;

  const before = await probe(PROBE_MS);
  const started = performance.now();
  box.office.connect({ target: { url: pg.url, password: pg.password }, site: "backlog" });
  let caughtUp = 0;
  // Caught up once the office has the whole backlog (new events keep arriving meanwhile).
  const done = () => {
    if (caughtUp === 0 && store.syncCursors.position("events") >= EVENTS)
      caughtUp = performance.now() - started;
    return caughtUp > 0;
  };
  const during = await probe(300_000, done);
  if (!done()) throw new Error("not caught up within 300 s");
  const [held] =
    await office`SELECT count(*)::int AS n FROM parkd.events WHERE site = 'backlog' AND ticket_id LIKE 'old-%'`;
  console.log(
    `backlog of ${EVENTS} events (+ their tickets): all ${held.n} at the office after ${(caughtUp / 1000).toFixed(1)} s, ` +
      `${Math.round(EVENTS / (caughtUp / 1000))} events/s, while the terminals sent ${RATE} events/s`,
  );
  console.log(line("intake before the sync started", before));
  console.log(line("intake during the catch-up", during));
  await ctx.stop();
  store.close();
} finally {
  await office.close({ timeout: 1 }).catch(() => {});
  await pg.destroy();
  rmSync(dir, { recursive: true, force: true });
}
