/**
 * The parking lot list with many lots: the first (rendering) request after a change, then the
 * cached answers a kiosk fleet gets, and 304s; plus tariff engine quotes of varied lengths.
 *   bun bench/lots.ts [lots=500]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { createContext } from "../src/context.ts";
import type { ParkingLot } from "../src/domain/lots/lot.ts";
import { priceStay } from "../src/domain/tariff/engine.ts";
import { holidayCalendar } from "../src/domain/tariff/holidays.ts";
import { LotCatalog } from "../src/modules/admin/lots/service.ts";
import { setLogging } from "../src/platform/log.ts";
import { openStore } from "../src/platform/store/db.ts";

setLogging(false);
const n = Number(process.argv[2] ?? 500);
const dir = mkdtempSync(join(tmpdir(), "parkd-bench-"));
const store = openStore(dir);

const pad = (h: number) => `${String(h).padStart(2, "0")}:00:00`;
const lots: ParkingLot[] = Array.from({ length: n }, (_, i) => ({
  id: i + 1,
  name: `Parkering ${i + 1}`,
  number_of_spaces: 50 + (i % 300),
  zone_number: 1000 + i,
  max_time: 86_400,
  parking_lot_fee: [1, 2, 3].flatMap((day) => [
    {
      id: day * 2 - 1,
      cost_per_unit: 2000,
      unit: 1,
      start_time: pad(8),
      end_time: pad(18),
      type_of_day: day,
      round: true,
    },
    {
      id: day * 2,
      cost_per_unit: 500,
      unit: 1,
      start_time: pad(18),
      end_time: pad(8),
      type_of_day: day,
      round: false,
    },
  ]),
  variable_fees: [],
  parking_lot_open: [1, 2, 3].map((day) => ({
    id: day,
    type_of_day: day,
    open_time: pad(6),
    close_time: "23:59:59",
  })),
  parking_lot_location: [
    { id: 1, latitude: 59.3 + i / 1e4, longitude: 18.06 },
    { id: 2, latitude: 59.3 + i / 1e4, longitude: 18.07 },
  ],
  active: i % 10 !== 0,
  max_fee: 25_000,
}));
new LotCatalog(store).importFile({ data: lots }, { who: "bench", via: "cli" }, false);

const app = createApp(createContext(store, { timezone: "Europe/Stockholm", publicRateLimitPerSecond: 0 }));
const get = (headers: Record<string, string> = {}) =>
  app.handle(new Request("http://localhost/api/v1/parkings", { headers }));

async function timed(label: string, runs: number, fn: () => Promise<unknown>) {
  const t = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const ms = (performance.now() - t) / runs;
  console.log(`${label}: ${ms.toFixed(3)} ms each (${runs} runs)`);
}

let t = performance.now();
const first = await get();
const body = await first.text();
console.log(
  `first list after a change (query + render ${n} lots): ${(performance.now() - t).toFixed(1)} ms, ${(body.length / 1024).toFixed(0)} KiB`,
);
const etag = first.headers.get("etag")!;
await timed("cached list", 2000, async () => (await get()).text());
await timed("304 with If-None-Match", 2000, () => get({ "if-none-match": etag }));
await timed("one lot", 2000, async () =>
  (await app.handle(new Request("http://localhost/api/v1/parkings/250"))).text(),
);

const site = { timezone: "Europe/Stockholm", isHoliday: holidayCalendar(["SE"]) };
const start = Date.UTC(2026, 2, 27, 9);
for (const [label, hours] of [
  ["2 h", 2],
  ["3 days", 72],
  ["30 days", 720],
  ["400 days", 9600],
] as const) {
  const runs = hours > 1000 ? 20 : 500;
  t = performance.now();
  for (let i = 0; i < runs; i++) priceStay(lots[1]!, start, start + hours * 3_600_000, site);
  console.log(`quote ${label}: ${((performance.now() - t) / runs).toFixed(3)} ms each`);
}

store.close();
rmSync(dir, { recursive: true, force: true });
