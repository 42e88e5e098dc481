import { describe, expect, test } from "bun:test";
import { escapeLabel, LATENCY_BUCKETS, Metrics } from "../../src/platform/metrics.ts";

describe("Prometheus text", () => {
  test("label values are escaped", () => {
    expect(escapeLabel('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });

  test("a histogram is cumulative and ends with +Inf, sum and count", () => {
    const m = new Metrics();
    m.request({ method: "GET", route: "/r", status: 200, ms: 0.5 });
    m.request({ method: "GET", route: "/r", status: 200, ms: 30 });
    m.request({ method: "GET", route: "/r", status: 503, ms: 20_000 });
    const lines = m.render().split("\n");
    const bucket = (le: string) =>
      Number(
        lines
          .find((l) => l.startsWith(`parkd_http_request_duration_seconds_bucket{route="/r",le="${le}"}`))
          ?.split(" ")[1],
      );
    expect(bucket("0.001")).toBe(1);
    expect(bucket("0.025")).toBe(1);
    expect(bucket("0.05")).toBe(2);
    expect(bucket(String(LATENCY_BUCKETS.at(-1)))).toBe(2);
    expect(bucket("+Inf")).toBe(3);
    expect(lines).toContain('parkd_http_request_duration_seconds_count{route="/r"} 3');
    expect(lines).toContain('parkd_http_requests_total{method="GET",route="/r",status="503"} 1');
    const sum = Number(
      lines.find((l) => l.startsWith("parkd_http_request_duration_seconds_sum"))?.split(" ")[1],
    );
    expect(sum).toBeCloseTo(20.0305, 6);
  });

  test("every family has HELP and TYPE; a failing gauge is left out", () => {
    const m = new Metrics();
    m.addGauges(() => {
      throw new Error("gone");
    });
    m.addGauges(() => ({ name: "x_bytes", help: "X.", samples: [{ labels: { f: "a" }, value: 3 }] }));
    const text = m.render();
    expect(text).toContain('# HELP x_bytes X.\n# TYPE x_bytes gauge\nx_bytes{f="a"} 3\n');
    for (const fam of [
      "parkd_http_requests_total",
      "parkd_ticket_events_total",
      "parkd_permit_lookups_total",
    ])
      expect(text).toContain(`# TYPE ${fam} counter`);
  });
});
