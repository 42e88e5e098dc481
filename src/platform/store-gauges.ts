import { statfsSync } from "node:fs";
import type { Metrics } from "./metrics.ts";
import type { Store } from "./store/db.ts";

/**
 * Gauges read from the store at scrape time, for the alerts a site needs: terminals that went
 * silent, a disk filling up, a store that no longer commits. Each is one indexed query.
 */
export function addStoreGauges(metrics: Metrics, store: Store, now: () => number): void {
  seedLastEvents(metrics, store);
  metrics.addGauges(() => ({
    name: "parkd_active_tickets",
    help: "Tickets whose end is open or still ahead (a canceled ticket counts until its end).",
    samples: [{ value: store.tickets.countNotEnded(now()) }],
  }));
  metrics.addGauges(() => ({
    name: "parkd_active_permits",
    help: "Operator-issued permits whose validity covers now (weekly windows not applied).",
    samples: [{ value: store.permits.countValid(now()) }],
  }));
  metrics.addGauges(() => {
    let writable = 1;
    try {
      store.probe.commit(now());
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

/** The last event time per credential survives a restart: read from the newest stored events. */
function seedLastEvents(metrics: Metrics, store: Store): void {
  try {
    for (const r of store.tickets.lastEventByCredential()) metrics.lastTicketEvent(r.credential, r.at / 1000);
  } catch {
    // A store not migrated yet has no events to read.
  }
}
