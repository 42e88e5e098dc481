import type { GaugeSource } from "../../platform/metrics.ts";
import { PUSHED_KINDS, type SyncStatus } from "./job.ts";

const seconds = (ms: number | null) => (ms === null ? 0 : ms / 1000);

/**
 * The sync's lag and health for /metrics, read at scrape time. Times are Unix seconds, 0 before
 * the first success; errors count failed rounds since the start.
 */
export function syncGauges(status: () => SyncStatus): GaugeSource[] {
  let last: SyncStatus | null = null;
  // One status per scrape (it counts the waiting events), not one per gauge: a scrape renders
  // every gauge in one synchronous pass, so the status is dropped once that pass is over.
  const read = () => {
    if (last === null) {
      last = status();
      queueMicrotask(() => {
        last = null;
      });
    }
    return last;
  };
  const site = () => ({ site: read().site });
  return [
    () => ({
      name: "parkd_sync_pending_events",
      help: "Ticket events not yet stored at the office.",
      samples: [{ labels: site(), value: read().pendingEvents }],
    }),
    () => ({
      name: "parkd_sync_oldest_pending_event_age_seconds",
      help: "Age of the oldest ticket event not yet stored at the office (0: none waiting).",
      samples: [{ labels: site(), value: read().oldestPendingAgeSeconds }],
    }),
    () => ({
      name: "parkd_sync_last_push_timestamp_seconds",
      help: "When a push last reached the office (all caught up or a batch stored).",
      samples: [{ labels: site(), value: seconds(read().lastPushAt) }],
    }),
    () => ({
      name: "parkd_sync_last_pull_timestamp_seconds",
      help: "When office permits were last pulled.",
      samples: [{ labels: site(), value: seconds(read().lastPullAt) }],
    }),
    () => ({
      name: "parkd_sync_up",
      help: "1 when the last push and pull reached the office, else 0.",
      samples: [{ labels: site(), value: read().reachable ? 1 : 0 }],
    }),
    () => ({
      name: "parkd_sync_errors_total",
      help: "Failed push and pull rounds (each is tried again within 5 s).",
      type: "counter",
      samples: [
        { labels: { ...site(), direction: "push" }, value: read().errors.push },
        { labels: { ...site(), direction: "pull" }, value: read().errors.pull },
      ],
    }),
    () => ({
      name: "parkd_sync_pushed_rows_total",
      help: "Rows sent to the office since the start, by kind (photos: notice photo files).",
      type: "counter",
      samples: PUSHED_KINDS.map((kind) => ({
        labels: { ...site(), kind },
        value: read().pushed[kind],
      })),
    }),
    () => ({
      name: "parkd_sync_resent_events_total",
      help: "Ticket events sent again because the office no longer held them (restored or failed over).",
      type: "counter",
      samples: [{ labels: site(), value: read().resentEvents }],
    }),
    () => ({
      name: "parkd_sync_clock_skew_seconds",
      help: "This box's clock minus the office's at the last pull (positive: ahead; 0 until a pull has read it).",
      samples: [{ labels: site(), value: seconds(read().clockSkewMs) }],
    }),
    () => ({
      name: "parkd_sync_central_permits",
      help: "Office permits held for this site (served by the lookups).",
      samples: [{ labels: site(), value: read().centralPermits }],
    }),
  ];
}
