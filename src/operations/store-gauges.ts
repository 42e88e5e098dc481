import { statfsSync } from "node:fs";
import type { Store } from "../store/db.ts";
import type { Metrics } from "./metrics.ts";

/**
 * Gauges read from the store at scrape time, for the alerts a site needs: terminals that went
 * silent, a disk filling up, a store that no longer commits. Each is one indexed query.
 */
export function addStoreGauges(metrics: Metrics, store: Store, now: () => number): void {
  seedLastEvents(metrics, store);
  const activeTickets = store.sqlite.query<{ n: number }, [number, number]>(
    `SELECT count(*) AS n FROM tickets
     WHERE status <> 'canceled' AND (end_at IS NULL OR end_at > ?1) AND start_at <= ?2`,
  );
  const activePermits = store.sqlite.query<{ n: number }, [number, number]>(
    "SELECT count(*) AS n FROM permits WHERE (end_at IS NULL OR end_at > ?1) AND start_at <= ?2",
  );
  metrics.addGauges(() => {
    const t = now();
    return {
      name: "parkd_active_tickets",
      help: "Tickets not canceled whose time covers now (what lookups answer as active).",
      samples: [{ value: activeTickets.get(t, t)?.n ?? 0 }],
    };
  });
  metrics.addGauges(() => {
    const t = now();
    return {
      name: "parkd_active_permits",
      help: "Operator-issued permits whose validity covers now (weekly windows not applied).",
      samples: [{ value: activePermits.get(t, t)?.n ?? 0 }],
    };
  });
  const probe = store.sqlite.query<unknown, [number]>(
    "INSERT INTO store_probe (id, checked_at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
  );
  metrics.addGauges(() => {
    let writable = 1;
    try {
      probe.run(now());
    } catch {
      writable = 0;
    }
    return {
      name: "parkd_store_writable",
      help: "1 when the store committed a write at this scrape (as /readyz checks), 0 when it could not.",
      samples: [{ value: writable }],
    };
  });
  if (store.path === ":memory:") return;
  metrics.addGauges(() => {
    const fs = statfsSync(store.dataDir);
    return {
      name: "parkd_store_filesystem_avail_bytes",
      help: "Space left for parkd on the file system holding the data folder.",
      samples: [{ value: fs.bavail * fs.bsize }],
    };
  });
  metrics.addGauges(() => {
    const fs = statfsSync(store.dataDir);
    return {
      name: "parkd_store_filesystem_size_bytes",
      help: "Size of the file system holding the data folder.",
      samples: [{ value: fs.blocks * fs.bsize }],
    };
  });
}

/**
 * The last event time per credential survives a restart: read from the newest events at start
 * (bounded, so a store of millions of events starts as fast as an empty one).
 */
function seedLastEvents(metrics: Metrics, store: Store): void {
  try {
    const rows = store.sqlite
      .query<{ credential: string; at: number }, []>(
        `SELECT credential, max(received_at) AS at FROM
           (SELECT credential, received_at FROM ticket_events ORDER BY received_at DESC LIMIT 200000)
         GROUP BY credential`,
      )
      .all();
    for (const r of rows) metrics.lastTicketEvent(r.credential, r.at / 1000);
  } catch {
    // A store not migrated yet has no events to read.
  }
}
