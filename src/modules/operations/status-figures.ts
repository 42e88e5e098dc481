/** The /metrics text, read back into the few figures the console shows. */
export interface MetricFigures {
  startTime: number | null;
  storeBytes: number | null;
  rss: number | null;
  events: Record<string, number>;
  lookups: Record<string, number>;
  requests: { total: number; clientErrors: number; serverErrors: number };
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function statusFromMetrics(text: string): MetricFigures {
  const out: MetricFigures = {
    startTime: null,
    storeBytes: null,
    rss: null,
    events: {},
    lookups: {},
    requests: { total: 0, clientErrors: 0, serverErrors: 0 },
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, name, labelText, raw] = m;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const labels: Record<string, string> = {};
    for (const l of (labelText ?? "").matchAll(LABEL)) labels[l[1]!] = l[2]!;
    switch (name) {
      case "process_start_time_seconds":
        out.startTime = value;
        break;
      case "parkd_store_file_bytes":
        out.storeBytes = (out.storeBytes ?? 0) + value;
        break;
      case "process_resident_memory_bytes":
        out.rss = value;
        break;
      case "parkd_ticket_events_total":
        out.events[labels.type ?? "?"] = value;
        break;
      case "parkd_permit_lookups_total":
        out.lookups[labels.by ?? "?"] = value;
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
