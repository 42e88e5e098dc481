import type { MetricFamily } from "../../platform/metrics.ts";

/** The registry's series (Metrics.snapshot()), as the figures the console's status page shows. */
export interface MetricFigures {
  startTime: number | null;
  storeBytes: number | null;
  diskFreeBytes: number | null;
  storeWritable: boolean | null;
  rss: number | null;
  activeTickets: number | null;
  activePermits: number | null;
  events: Record<string, number>;
  lookups: Record<string, number>;
  /** Unix seconds of the last accepted event, per credential. */
  lastEvent: Record<string, number>;
  authFailures: number;
  requests: { total: number; clientErrors: number; serverErrors: number };
}

export function statusFromMetrics(families: readonly MetricFamily[]): MetricFigures {
  const out: MetricFigures = {
    startTime: null,
    storeBytes: null,
    diskFreeBytes: null,
    storeWritable: null,
    rss: null,
    activeTickets: null,
    activePermits: null,
    events: {},
    lookups: {},
    lastEvent: {},
    authFailures: 0,
    requests: { total: 0, clientErrors: 0, serverErrors: 0 },
  };
  for (const { name, samples } of families)
    for (const { labels = {}, value, suffix } of samples) {
      if (suffix !== undefined) continue;
      switch (name) {
        case "process_start_time_seconds":
          out.startTime = value;
          break;
        case "parkd_store_file_bytes":
          out.storeBytes = (out.storeBytes ?? 0) + value;
          break;
        case "parkd_store_filesystem_avail_bytes":
          out.diskFreeBytes = value;
          break;
        case "parkd_store_writable":
          out.storeWritable = value === 1;
          break;
        case "process_resident_memory_bytes":
          out.rss = value;
          break;
        case "parkd_active_tickets":
          out.activeTickets = value;
          break;
        case "parkd_active_permits":
          out.activePermits = value;
          break;
        case "parkd_ticket_events_total":
          out.events[labels.type ?? "?"] = value;
          break;
        case "parkd_permit_lookups_total":
          out.lookups[labels.by ?? "?"] = value;
          break;
        case "parkd_last_ticket_event_timestamp_seconds":
          out.lastEvent[labels.credential ?? "?"] = value;
          break;
        case "parkd_auth_failures_total":
          out.authFailures += value;
          break;
        case "parkd_http_requests_total": {
          out.requests.total += value;
          const status = labels.status ?? "";
          if (status.startsWith("4")) out.requests.clientErrors += value;
          if (status.startsWith("5")) out.requests.serverErrors += value;
          break;
        }
      }
    }
  return out;
}
