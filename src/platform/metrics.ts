/**
 * In-process counters for `GET /metrics` (Prometheus text format 0.0.4). Features call the small
 * API on `ctx.metrics` (ticketEvent, permitLookup); requests are counted by route template, never
 * by raw path, so the number of series stays bounded however clients call us.
 */

/** Upper bounds in seconds: an attendant's lookup should sit in the first few. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface RequestSample {
  method: string;
  /** The route template (`/api/v1/tickets/zone/:zone`), or "(unmatched)" / "(body limit)". */
  route: string;
  status: number;
  ms: number;
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Read at scrape time: store file sizes, row counts, anything that is cheaper to ask than to track. */
export type GaugeSource = () => { name: string; help: string; type?: "gauge" | "counter"; samples: Sample[] };
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

/** One metric and its series, as the registry holds them. */
export interface MetricFamily {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: FamilySample[];
}
export interface FamilySample extends Sample {
  /** A histogram's series: _bucket, _sum or _count. */
  suffix?: string;
}

export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function labelText(labels: Record<string, string> | undefined): string {
  if (!labels) return "";
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}

interface Count {
  labels: Record<string, string>;
  value: number;
}

/** The methods the front end serves, numbered for a request's series key; any other is 15. */
const METHOD_KEYS: Readonly<Record<string, number>> = {
  GET: 0,
  HEAD: 1,
  POST: 2,
  PUT: 3,
  PATCH: 4,
  DELETE: 5,
  OPTIONS: 6,
  "-": 7,
};

class LabeledCounter {
  private readonly values = new Map<string, Count>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  add(labels: Record<string, string>, by = 1): void {
    this.entry(labels).value += by;
  }

  /** The series for these labels, created at 0 on first use; callers on hot paths keep it. */
  entry(labels: Record<string, string>): Count {
    const key = JSON.stringify(labels);
    let entry = this.values.get(key);
    if (!entry) {
      entry = { labels, value: 0 };
      this.values.set(key, entry);
    }
    return entry;
  }

  get(labels: Record<string, string>): number {
    return this.values.get(JSON.stringify(labels))?.value ?? 0;
  }

  family(): MetricFamily {
    return { name: this.name, help: this.help, type: "counter", samples: [...this.values.values()] };
  }
}

export class Metrics {
  readonly requests = new LabeledCounter(
    "parkd_http_requests_total",
    "HTTP requests answered, by method, route template and status.",
  );
  readonly ticketEvents = new LabeledCounter(
    "parkd_ticket_events_total",
    "Ticket events accepted by the intake, by eventType.",
  );
  readonly permitLookups = new LabeledCounter(
    "parkd_permit_lookups_total",
    "Permit lookups answered, by what was asked for (registration_number, zone, zone_list, verdict, observation, checks, offline_verdict).",
  );
  readonly retentionDeleted = new LabeledCounter(
    "parkd_retention_deleted_rows_total",
    "Rows deleted by retention, by table.",
  );
  readonly authFailures = new LabeledCounter(
    "parkd_auth_failures_total",
    "Refused authentications (401), by reason.",
  );
  readonly authLockouts = new LabeledCounter(
    "parkd_auth_lockouts_total",
    "Addresses locked out after too many failed authentications within a minute.",
  );
  readonly authRateLimitedRequests = new LabeledCounter(
    "parkd_auth_rate_limited_requests_total",
    "Requests refused with 429 because their address was locked out.",
  );
  readonly dropped = new LabeledCounter(
    "parkd_dropped_total",
    "What the service let go rather than hold without bound, by what: lookup records past the memory bound while the store refused them (lookup_records), live zone feeds cut because their client stopped reading (zone_feeds).",
  );
  /** credential label → Unix seconds of its last accepted intake event. */
  private readonly lastEvent = new Map<string, number>();
  readonly rateLimited = new LabeledCounter(
    "parkd_rate_limited_requests_total",
    "Requests answered 429 because their credential went over --rate-limit-per-second (credential_kind token or user), or their address over --public-rate-limit-per-second on a public route (credential_kind address).",
  );
  readonly connectionsRefused = new LabeledCounter(
    "parkd_connections_refused_total",
    "Connections closed at once or evicted by the connection limits, by reason.",
  );
  readonly connectionsTimedOut = new LabeledCounter(
    "parkd_connections_timed_out_total",
    "Connections closed because a request took too long to arrive, or its answer was not read, by phase (headers, body, send).",
  );
  private readonly latency = new Map<string, Histogram>();
  /** Per request: route → status and method (requestKey) → its series, so counting builds no label key. */
  private readonly requestSeries = new Map<string, Map<number, Count>>();
  private readonly gauges: GaugeSource[] = [];

  private readonly ticketEventSeries = new Map<string, Count>();
  private readonly permitLookupSeries = new Map<string, Count>();

  /** Call once per accepted intake event (after the commit), with who sent it and when (ms). */
  ticketEvent(type: string, credential?: string, atMs?: number): void {
    let series = this.ticketEventSeries.get(type);
    if (!series) {
      series = this.ticketEvents.entry({ type });
      this.ticketEventSeries.set(type, series);
    }
    series.value++;
    if (credential !== undefined && atMs !== undefined) this.lastTicketEvent(credential, atMs / 1000);
  }

  /** Records (or, at start, seeds from the store) a credential's last accepted event time. */
  lastTicketEvent(credential: string, seconds: number): void {
    if (seconds > (this.lastEvent.get(credential) ?? 0)) this.lastEvent.set(credential, seconds);
  }

  authFailure(reason: string): void {
    this.authFailures.add({ reason });
  }

  authLockout(): void {
    this.authLockouts.add({});
  }

  authRateLimited(): void {
    this.authRateLimitedRequests.add({});
  }

  /** Call once per answered permit lookup. */
  permitLookup(by: string): void {
    let series = this.permitLookupSeries.get(by);
    if (!series) {
      series = this.permitLookups.entry({ by });
      this.permitLookupSeries.set(by, series);
    }
    series.value++;
  }

  retentionDeletedRows(table: string, rows: number): void {
    if (rows > 0) this.retentionDeleted.add({ table }, rows);
  }

  rateLimit(credentialKind: "token" | "user" | "address"): void {
    this.rateLimited.add({ credential_kind: credentialKind });
  }

  connectionRefused(reason: string): void {
    this.connectionsRefused.add({ reason });
  }

  connectionTimedOut(phase: string): void {
    this.connectionsTimedOut.add({ phase });
  }

  request(sample: RequestSample): void {
    const { method, route, status } = sample;
    let byRoute = this.requestSeries.get(route);
    if (!byRoute) {
      byRoute = new Map();
      this.requestSeries.set(route, byRoute);
    }
    // A number key, not "GET 200": no string made per request. Status is three digits.
    const key = status * 16 + (METHOD_KEYS[method] ?? 15);
    let series = byRoute.get(key);
    if (!series || series.labels.method !== method) {
      series = this.requests.entry({ method, route, status: String(status) });
      byRoute.set(key, series);
    }
    series.value++;
    let h = this.latency.get(route);
    if (!h) {
      h = { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.latency.set(route, h);
    }
    const seconds = sample.ms / 1000;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  }

  addGauges(source: GaugeSource): void {
    this.gauges.push(source);
  }

  /**
   * Every series as it stands, grouped by metric: what /metrics renders as text and what the
   * console's status page reads as figures (one registry, never parsed back from the text).
   */
  snapshot(): MetricFamily[] {
    const out: MetricFamily[] = [this.requests.family()];
    const name = "parkd_http_request_duration_seconds";
    const latency: FamilySample[] = [];
    for (const [route, h] of this.latency) {
      LATENCY_BUCKETS.forEach((le, i) => {
        latency.push({ suffix: "_bucket", labels: { route, le: String(le) }, value: h.counts[i]! });
      });
      latency.push({ suffix: "_bucket", labels: { route, le: "+Inf" }, value: h.count });
      latency.push({ suffix: "_sum", labels: { route }, value: h.sum });
      latency.push({ suffix: "_count", labels: { route }, value: h.count });
    }
    out.push({
      name,
      help: "Time from request to answer, by route template.",
      type: "histogram",
      samples: latency,
    });
    // Registered at zero so that rate() and increase() see the first failure.
    this.authFailures.entry({ reason: "unknown, expired or revoked credentials" });
    this.authLockouts.entry({});
    this.authRateLimitedRequests.entry({});
    this.dropped.entry({ what: "lookup_records" });
    this.dropped.entry({ what: "zone_feeds" });
    out.push(
      this.ticketEvents.family(),
      this.permitLookups.family(),
      this.retentionDeleted.family(),
      this.authFailures.family(),
      this.authLockouts.family(),
      this.authRateLimitedRequests.family(),
      {
        name: "parkd_last_ticket_event_timestamp_seconds",
        help: "When the last ticket event was accepted from each credential (Unix seconds); max() over credentials is the site's last event.",
        type: "gauge",
        samples: [...this.lastEvent].map(([credential, value]) => ({ labels: { credential }, value })),
      },
      this.rateLimited.family(),
      this.dropped.family(),
      this.connectionsRefused.family(),
      this.connectionsTimedOut.family(),
    );
    for (const source of this.gauges) {
      try {
        const g = source();
        out.push({ name: g.name, help: g.help, type: g.type ?? "gauge", samples: g.samples });
      } catch {
        // a gauge that cannot be read this time is left out, not a failed scrape
      }
    }
    return out;
  }

  /** The snapshot in the Prometheus text format 0.0.4. */
  render(): string {
    const out: string[] = [];
    for (const f of this.snapshot()) {
      out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
      for (const s of f.samples)
        out.push(`${f.name}${s.suffix ?? ""}${labelText(s.labels)} ${formatValue(s.value)}`);
    }
    return `${out.join("\n")}\n`;
  }
}
