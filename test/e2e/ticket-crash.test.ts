import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Box } from "../support/binary.ts";

/**
 * An acknowledged ticket event survives kill -9: several connections post events, the server
 * is killed mid-stream, and after a restart every event that got 200 is in the store and the
 * store is intact. Bounded: at most WORKERS × TICKETS_PER_WORKER × 3 events, and a time limit.
 */

const WORKERS = 6;
const TICKETS_PER_WORKER = 60;
/** Kill once this many events have been acknowledged (well before the workers run out). */
const KILL_AFTER_ACKS = 150;
const TIME_LIMIT_MS = 10_000;

const boxes: Box[] = [];
afterAll(async () => {
  await Promise.all(boxes.map((b) => b.cleanup()));
});

interface Ack {
  ticketId: string;
  marker: string;
}

// Dates near now: a restarted serve purges tickets that ended before the retention window.
const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

function events(ticketId: string, marker: (step: number) => string) {
  const base = {
    ticketId,
    zoneCode: "1234",
    parkingLotId: "12",
    startDate: at(-2),
    licenseNumber: `E2E ${ticketId}`,
  };
  return [
    {
      ...base,
      eventType: "TicketCreated",
      endDate: null,
      ticketCost: { amountInclVat: null, vatRate: null, currencyCode: null },
      marker: marker(0),
    },
    {
      ...base,
      eventType: "TicketUpdated",
      endDate: at(1),
      ticketCost: { amountInclVat: "4000", vatRate: "25", currencyCode: "SEK" },
      marker: marker(1),
    },
    {
      ...base,
      eventType: "TicketStopped",
      endDate: at(0),
      ticketCost: { amountInclVat: 2000, vatRate: 25, currencyCode: "SEK" },
      marker: marker(2),
    },
  ];
}

describe("ticket intake survives kill -9", () => {
  test("every event answered 200 is in the store after a crash and restart", async () => {
    const box = new Box();
    boxes.push(box);
    const writer = await box.token("terminal", "tickets:write");
    const admin = await box.token("operator", "admin");
    // Durability at full speed from one token: the per-credential rate limit is not the subject.
    const server = await box.serve(["--http", "--rate-limit-per-second", "0"]);
    const acks: Ack[] = [];
    let killed = false;
    const started = Date.now();

    const worker = async (w: number) => {
      for (let i = 0; i < TICKETS_PER_WORKER && !killed; i++) {
        const ticketId = `w${w}-t${i}`;
        for (const body of events(ticketId, (step) => `${ticketId}-e${step}`)) {
          if (killed || Date.now() - started > TIME_LIMIT_MS) return;
          let res: Response;
          try {
            res = await fetch(`${server.url}/api/v1/actions/tickets`, {
              method: "POST",
              headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
              body: JSON.stringify(body),
            });
          } catch {
            return; // the server is gone: this event was never acknowledged
          }
          const text = await res.text().catch(() => null);
          if (res.status !== 200 || text !== "[]") {
            if (killed) return;
            throw new Error(`${body.eventType} ${ticketId}: ${res.status} ${text}`);
          }
          acks.push({ ticketId, marker: body.marker });
          if (acks.length >= KILL_AFTER_ACKS && !killed) {
            killed = true;
            await server.stop("SIGKILL");
          }
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    expect(killed).toBe(true);
    expect(acks.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    // Restart on the same data folder (the lock dies with the process) and read back.
    const again = await box.serve(["--http"]);
    const byTicket = new Map<string, string[]>();
    for (const a of acks) byTicket.set(a.ticketId, [...(byTicket.get(a.ticketId) ?? []), a.marker]);
    for (const [ticketId, markers] of byTicket) {
      const res = await fetch(`${again.url}/api/v1/tickets/${ticketId}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as {
        data: { status: string; events: { body: { marker: string } }[] };
      };
      const stored = data.events.map((e) => e.body.marker);
      for (const m of markers) expect(stored).toContain(m);
      // The ticket row moved with its events: an acknowledged stop left the ticket stopped.
      if (stored.includes(`${ticketId}-e2`)) expect(data.status).toBe("stopped");
      else expect(data.status).toBe("running");
    }
    expect(await again.stop("SIGTERM")).toBe(0);

    const db = new Database(join(box.dataDir, "parkd.db"), { readonly: true });
    try {
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const markers = new Set(
        (db.query("SELECT raw_body FROM ticket_events").all() as { raw_body: string }[]).map(
          (r) => (JSON.parse(r.raw_body) as { marker: string }).marker,
        ),
      );
      for (const a of acks) expect(markers.has(a.marker)).toBe(true);
      // Every stored event belongs to a stored ticket: the event and its change committed together.
      const orphans = db
        .query(
          "SELECT count(*) AS n FROM ticket_events e LEFT JOIN tickets t USING (ticket_id) WHERE t.ticket_id IS NULL",
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
    } finally {
      db.close();
    }
  }, 30_000);
});
