import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { attachMeta } from "../../src/platform/http/request-meta.ts";
import { testApp } from "../support/app.ts";
import { mulberry32 } from "../support/random.ts";

/**
 * Hostile input against every route the app serves, from a fixed seed: FUZZ_CASES (default
 * 3000) cases in CI, more on demand (FUZZ_CASES=50000 FUZZ_SEED=7 bun test test/security).
 * Every answer must be below 500, every 4xx must be problem+json, and a rejected request must
 * leave the store exactly as it was.
 */
const CASES = Number(process.env.FUZZ_CASES ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

const HOSTILE_STRINGS = [
  "",
  " ",
  "' OR 1=1 --",
  "1; DROP TABLE tickets;--",
  '"; DELETE FROM permits; --',
  "../../../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%00",
  "\u0000",
  "ABC\u0000123",
  "\u202eABC123",
  "A\u200dB\u200dC",
  "🚗🚗🚗",
  "ÅÄÖ-123",
  "a\u0301\u0301\u0301",
  "\ud800",
  "x".repeat(5000),
  "1e309",
  "-1",
  "NaN",
  "Infinity",
  "0x10",
  "12,5,0",
  "2026-02-30T10:00:00Z",
  "99999-01-01T00:00:00Z",
  "2026-06-15T10:00:00+25:00",
  "<script>alert(1)</script>",
  "{{7*7}}",
  "null",
];

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  2 ** 53 + 1,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  [],
  [1, 2, 3],
  {},
  { $ne: null },
  { __proto__: { admin: true } },
  ...HOSTILE_STRINGS,
];

const SAMPLES: Record<string, unknown> = {
  "POST /api/v1/actions/tickets": {
    eventType: "TicketCreated",
    ticketId: "F-1",
    zoneCode: "1234",
    parkingLotId: "1",
    startDate: "2026-06-15T10:00:00+02:00",
    endDate: "2026-06-15T12:00:00+02:00",
    licenseNumber: "ABC123",
    ticketCost: { amountInclVat: 2500, vatRate: 25, currencyCode: "SEK" },
  },
  "POST /api/v1/permits": {
    registration_number: "ABC123",
    zone: 1234,
    start_at: "2026-06-01T00:00:00Z",
    end_at: null,
    note: "resident",
  },
  "POST /api/v1/parkings": {
    id: 900,
    name: "Fuzz lot",
    number_of_spaces: 10,
    zone_number: 1234,
    max_time: 0,
    parking_lot_fee: [
      {
        id: 1,
        cost_per_unit: 1000,
        unit: 1,
        start_time: "08:00:00",
        end_time: "18:00:00",
        type_of_day: 1,
        round: true,
      },
    ],
    variable_fees: [],
    parking_lot_open: [],
    parking_lot_location: [],
    active: true,
    max_fee: 0,
  },
};

/** encodeURIComponent refuses lone surrogates; a client would send their UTF-8 replacement. */
function encode(s: string): string {
  return encodeURIComponent(s.toWellFormed());
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function deep(depth: number): string {
  return `${"[".repeat(depth)}${"]".repeat(depth)}`;
}

/** A copy of `value` with one leaf (or the whole) replaced by something hostile. */
function mutate(rand: () => number, value: unknown): unknown {
  if (value === null || typeof value !== "object" || rand() < 0.15) return pick(rand, HOSTILE_VALUES);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as object) };
  const keys = Object.keys(copy);
  if (keys.length === 0 || rand() < 0.1) {
    (copy as Record<string, unknown>)[pick(rand, ["eventType", "zone", "x", "__proto__", "constructor"])] =
      pick(rand, HOSTILE_VALUES);
    return copy;
  }
  const key = pick(rand, keys);
  if (rand() < 0.1) delete (copy as Record<string, unknown>)[key];
  else (copy as Record<string, unknown>)[key] = mutate(rand, (copy as Record<string, unknown>)[key]);
  return copy;
}

function storeDigest(sqlite: import("bun:sqlite").Database): string {
  const h = createHash("sha256");
  const tables = sqlite
    .query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('store_probe', 'api_tokens', 'api_users') ORDER BY name",
    )
    .all() as { name: string }[];
  for (const { name } of tables) {
    h.update(name);
    // Rows in a fixed order without rowid: a WITHOUT ROWID table (revenue_days) has none.
    const rows = sqlite
      .query(`SELECT * FROM "${name}"`)
      .all()
      .map((row) => JSON.stringify(row))
      .sort();
    for (const row of rows) h.update(row);
  }
  return h.digest("hex");
}

describe("fuzz", () => {
  test(`${CASES} hostile requests from seed ${SEED}: no 5xx, problem+json on 4xx, nothing changed by a rejection`, async () => {
    const s = testApp();
    const admin = s.token("admin");
    const rand = mulberry32(SEED);
    const routes = s.app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, path: r.path }));
    expect(routes.length).toBeGreaterThan(5);
    let before = storeDigest(s.ctx.store.sqlite);
    const seen = new Map<number, number>();
    for (let i = 0; i < CASES; i++) {
      const route = pick(rand, routes);
      const path = route.path.replace(/:[A-Za-z]+/g, () =>
        encode(String(pick(rand, [...HOSTILE_STRINGS, "1", "42"]))),
      );
      const query =
        rand() < 0.4
          ? `?${pick(rand, ["zone", "registration_number", "start", "end", "active", "x"])}=${encode(pick(rand, HOSTILE_STRINGS))}`
          : "";
      const headers = new Headers();
      if (rand() < 0.9) headers.set("authorization", `Bearer ${admin}`);
      let body: BodyInit | undefined;
      const kind = rand();
      const sample = SAMPLES[`${route.method} ${route.path}`];
      if (kind < 0.45) body = JSON.stringify(mutate(rand, sample ?? {}));
      else if (kind < 0.55) body = deep(1 + Math.floor(rand() * 20_000));
      else if (kind < 0.6) body = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d]);
      else if (kind < 0.65)
        body =
          '{"zone":"1","zone":"2","registration_number":"A","eventType":"TicketCanceled","eventType":"x"}';
      else if (kind < 0.7) body = JSON.stringify({ note: "y".repeat(70_000) });
      else if (kind < 0.75) body = `{"truncated": ${"1".repeat(400)}`;
      else if (kind < 0.8) body = String(pick(rand, HOSTILE_STRINGS));
      const contentType =
        rand() < 0.85
          ? "application/json"
          : pick(rand, [
              "text/plain",
              "application/xml",
              "multipart/form-data; boundary=x",
              "application/x-www-form-urlencoded",
              "",
            ]);
      if (body !== undefined && contentType) headers.set("content-type", contentType);
      const req = new Request(`http://localhost${path}${query}`, { method: route.method, headers, body });
      attachMeta(req, { id: `fuzz-${i}`, ip: `10.1.${i % 250}.${Math.floor(i / 250) % 250}` });
      const res = await s.app.handle(req);
      // An event stream stays open: its answer is its status and headers.
      const streaming = res.headers.get("content-type")?.startsWith("text/event-stream");
      if (streaming) await res.body?.cancel();
      const text = streaming ? "" : await res.text();
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      const label = `case ${i}: ${route.method} ${path}${query} → ${res.status} ${text.slice(0, 200)}`;
      expect(res.status, label).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.headers.get("content-type") ?? "", label).toStartWith("application/problem+json");
        const problem = JSON.parse(text);
        expect(problem.status, label).toBe(res.status);
        expect(typeof problem.type, label).toBe("string");
        expect(text, label).not.toMatch(/SQLITE|sqlite_|at \/|\.ts:\d+/);
        // Lookup records of earlier accepted requests are written on a timer: write them now,
        // so they are not taken for a change made by this rejection.
        s.lookupRecorder.flush();
        const after = storeDigest(s.ctx.store.sqlite);
        expect(after, `${label}: a rejected request changed the store`).toBe(before);
      } else {
        // Lookup records are written in batches on a timer; write them now, so that a batch
        // landing during a later rejected request is not taken for that request's change.
        s.lookupRecorder.flush();
        before = storeDigest(s.ctx.store.sqlite);
      }
    }
    // The run must have reached past authentication into validation and the handlers.
    expect(seen.get(400) ?? 0).toBeGreaterThan(CASES / 10);
  }, 120_000);
});
