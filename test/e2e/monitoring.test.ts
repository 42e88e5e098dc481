import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { spawnSync } from "bun";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
const ROOT = resolve(import.meta.dir, "../..");
const PROMTOOL = Bun.which("promtool");
/** promtool (Debian's prometheus package) may be missing on a laptop, never with CI=true. */
const skip = !PROMTOOL && process.env.CI !== "true";

function promtool(args: string[], stdin?: string, cwd = ROOT) {
  if (!PROMTOOL) throw new Error("promtool is not installed (./build.sh test installs prometheus as root)");
  const r = spawnSync([PROMTOOL, ...args], {
    cwd,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
}

const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

const event = (id: string) => ({
  eventType: "TicketCreated",
  ticketId: id,
  zoneCode: "12",
  parkingLotId: null,
  startDate: new Date(Date.now() - 60_000).toISOString(),
  endDate: null,
  licenseNumber: "ABC123",
  ticketCost: { amountInclVat: null, vatRate: null, currencyCode: null },
});

describe.skipIf(skip)("monitoring with Prometheus' own tool", () => {
  test("the example alert rules load and fire as their unit tests say", () => {
    const check = promtool(["check", "rules", "deploy/alerts.yml"]);
    expect(check.out).toContain("SUCCESS");
    expect(check.code).toBe(0);
    const unit = promtool(["test", "rules", "alerts.test.yml"], undefined, join(ROOT, "deploy"));
    expect(unit.out).toContain("SUCCESS");
    expect(unit.code).toBe(0);
  }, 30_000);

  test("/metrics of the binary passes promtool and has what the alerts need, across a restart", async () => {
    const box = newBox();
    const terminal = await box.token("terminal-1", "tickets:write");
    const scrape = "scrape-0123456789abcdef";
    const server = await box.serve(["--http", "--metrics-token", scrape]);
    const post = (id: string) =>
      fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
        body: JSON.stringify(event(id)),
      });
    const before = Date.now() / 1000;
    expect((await post("m-1")).status).toBe(200);
    for (let i = 0; i < 10; i++)
      await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: "Bearer wrong-token" } });
    expect((await fetch(`${server.url}/api/v1/whoami`)).status).toBe(429);
    const read = async (url: string) =>
      (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${scrape}` } })).text();
    const text = await read(server.url);

    const check = promtool(["check", "metrics"], text);
    expect(check.out).toBe("");
    expect(check.code).toBe(0);
    const last = sample(text, 'parkd_last_ticket_event_timestamp_seconds{credential="token:terminal-1"}')!;
    expect(last).toBeGreaterThanOrEqual(Math.floor(before));
    expect(last).toBeLessThanOrEqual(Date.now() / 1000);
    expect(sample(text, "parkd_active_tickets")).toBe(1);
    expect(sample(text, "parkd_active_permits")).toBe(0);
    expect(sample(text, "parkd_store_writable")).toBe(1);
    expect(sample(text, "parkd_store_filesystem_avail_bytes")).toBeGreaterThan(0);
    expect(sample(text, "parkd_store_filesystem_size_bytes")).toBeGreaterThan(0);
    expect(sample(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sample(text, "process_open_fds")).toBeGreaterThan(3);
    expect(sample(text, "process_max_fds")).toBeGreaterThan(sample(text, "process_open_fds")!);
    expect(sample(text, 'parkd_auth_failures_total{reason="unknown, expired or revoked credentials"}')).toBe(
      10,
    );
    expect(sample(text, 'parkd_auth_failures_total{reason="no credentials"}')).toBeUndefined();
    expect(sample(text, "parkd_auth_lockouts_total")).toBe(1);
    expect(sample(text, "parkd_auth_rate_limited_requests_total")).toBe(1);
    expect(await server.stop()).toBe(0);

    // The last event time is read back from the store at start.
    const again = await box.serve(["--http", "--metrics-token", scrape]);
    const after = await read(again.url);
    const seeded = sample(after, 'parkd_last_ticket_event_timestamp_seconds{credential="token:terminal-1"}')!;
    // The stored receive time, a few ms before the commit the live gauge records.
    expect(Math.abs(seeded - last)).toBeLessThan(1);
    expect(await again.stop()).toBe(0);
  }, 60_000);
});
