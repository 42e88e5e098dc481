/**
 * Bytes the store takes per ticket event, by table and index (SQLite's dbstat): what a site's
 * intake costs its disk. Events go in through the app as terminals send them: each ticket created,
 * then updated or stopped (two events a ticket), realistic plates, zones, lots and amounts.
 *
 *   bun bench/event-bytes.ts [tickets]      # 20,000 tickets, 40,000 events unless given
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeBox } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import { openStore } from "../src/platform/store/db.ts";
import { plateOf, ZONES } from "./plates.ts";

const TICKETS = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), "parkd-event-bytes-"));
try {
  const ctx = createContext(openStore(dir), {
    timezone: "Europe/Stockholm",
    rateLimitPerSecond: 0,
    publicRateLimitPerSecond: 0,
  });
  const box = composeBox(ctx);
  const token = box.credentials.createToken({ name: "terminal-1", scopes: ["tickets:write"] }).token;
  const send = async (body: unknown) => {
    const res = await box.app.handle(
      new Request("http://localhost/api/v1/actions/tickets", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  };
  const t0 = Date.parse("2026-06-15T06:00:00Z");
  let sent = 0;
  const group: Promise<void>[] = [];
  for (let i = 0; i < TICKETS; i++) {
    const start = t0 + i * 2_000;
    const ticket = {
      ticketId: String(7_000_000 + i),
      zoneCode: String(1000 + (i % ZONES)),
      parkingLotId: String(1 + (i % 500)),
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 2 * 3_600_000).toISOString(),
      licenseNumber: plateOf(i * 7919),
      ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
    };
    group.push(send({ eventType: "TicketCreated", ...ticket }));
    group.push(
      send(
        i % 3 === 0
          ? { eventType: "TicketStopped", ...ticket, endDate: new Date(start + 3_600_000).toISOString() }
          : { eventType: "TicketUpdated", ...ticket, endDate: new Date(start + 3 * 3_600_000).toISOString() },
      ),
    );
    sent += 2;
    if (group.length >= 80) await Promise.all(group.splice(0));
  }
  await Promise.all(group);
  ctx.store.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const rows = ctx.store.sqlite
    .query<{ name: string; bytes: number }, []>(
      `SELECT name, sum(pgsize) AS bytes FROM dbstat
        WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN ('tickets', 'ticket_events', 'revenue_book'))
           OR name IN ('tickets', 'ticket_events') GROUP BY name ORDER BY bytes DESC`,
    )
    .all();
  const total = rows.reduce((n, r) => n + r.bytes, 0);
  console.log(`${sent.toLocaleString("en")} events (${TICKETS.toLocaleString("en")} tickets)`);
  for (const r of rows)
    console.log(`${r.name.padEnd(32)} ${(r.bytes / sent).toFixed(0).padStart(5)} bytes/event`);
  console.log(`${"all of them".padEnd(32)} ${(total / sent).toFixed(0).padStart(5)} bytes/event`);
  const avg = ctx.store.sqlite
    .query<{ raw: number; canon: number }, []>(
      "SELECT avg(length(raw_body)) AS raw, avg(length(canonical)) AS canon FROM ticket_events",
    )
    .get()!;
  console.log(
    `raw_body ${avg.raw.toFixed(0)} characters, canonical ${avg.canon.toFixed(0)} characters on average`,
  );
  ctx.store.sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
