/**
 * Fills a store with realistic data straight through SQLite (not HTTP): 1,000,000 tickets over
 * 200 zones and 300,000 plates spread over the last 85 days with some running now, a few
 * thousand operator permits, and 500 parking lots (through `parkd lots import`, so the lots go
 * in exactly as an operator would load them).
 *
 *   bun bench/generate.ts <data-dir> <parkd-binary> [tickets]
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { spawnSync } from "bun";
import { LOTS, PLATES, plateIndexOfTicket, plateOf, ZONES, zoneOfTicket } from "./plates.ts";

const HOUR = 3_600_000;

function normalize(p: string): string {
  return p.toUpperCase().replace(/[\s.-]/g, "");
}

export function generate(dataDir: string, bin: string, ticketCount = 1_000_000, now = Date.now()): void {
  const migrate = spawnSync([bin, "migrate", "--data-dir", dataDir], { stderr: "pipe" });
  if (migrate.exitCode !== 0) throw new Error(`migrate failed: ${migrate.stderr}`);
  const db = new Database(join(dataDir, "parkd.db"));
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = OFF");
  const insert = db.prepare(
    `INSERT INTO tickets (ticket_id, zone, parking_lot_id, lot_unknown, start_at, end_at, plate, plate_norm,
       amount_incl_vat, vat_rate, currency_code, status, created_at, updated_at, canceled_at)
     VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, 25, 'SEK', ?, ?, ?, ?)`,
  );
  let seed = 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const batch = 50_000;
  for (let from = 0; from < ticketCount; from += batch) {
    db.transaction(() => {
      for (let i = from; i < Math.min(from + batch, ticketCount); i++) {
        const plate = plateOf(plateIndexOfTicket(i));
        // Most tickets are history over 85 days; about 2% run now, spread over every zone (a
        // multiplicative hash, so "running" does not line up with the zone, which is i mod 200).
        // 85, not 90: for five days the store stays clear of serve's 90-day retention, which
        // would otherwise purge its oldest tickets during a run (the intake mix then finds them
        // gone: 404s) and measure its own work.
        const spread = Math.imul(i, 2_654_435_761) >>> 0;
        const running = spread % 50 === 0;
        const start = running
          ? now - Math.floor(rand() * 3 * HOUR)
          : now - Math.floor(rand() * 85 * 24 * HOUR);
        const end = running
          ? now + Math.floor((1 + rand() * 4) * HOUR)
          : start + Math.floor((0.5 + rand() * 4) * HOUR);
        // Every 97th ticket is canceled; the intake scenarios step over these ids.
        const canceled = i % 97 === 0;
        insert.run(
          `bench-${i}`,
          zoneOfTicket(i),
          1 + (i % LOTS),
          start,
          end,
          plate,
          normalize(plate),
          Math.floor(rand() * 20_000),
          canceled ? "canceled" : end < now ? "stopped" : "running",
          start,
          start,
          canceled ? start + 60_000 : null,
        );
      }
    })();
  }
  const permit = db.prepare(
    `INSERT INTO permits (plate, plate_norm, zone, start_at, end_at, note, days, created_at, updated_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 'bench')`,
  );
  db.transaction(() => {
    for (let i = 0; i < 5_000; i++) {
      const plate = plateOf((i * 104_729) % PLATES);
      permit.run(
        plate,
        normalize(plate),
        1000 + (i % ZONES),
        now - 30 * 24 * HOUR,
        i % 3 === 0 ? null : now + 300 * 24 * HOUR,
        `resident ${i}`,
        now,
        now,
      );
    }
  })();
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.run("ANALYZE");
  db.close();

  const lots = Array.from({ length: LOTS }, (_, k) => ({
    id: k + 1,
    name: `Lot ${k + 1}`,
    number_of_spaces: 50 + (k % 400),
    zone_number: 1000 + (k % ZONES),
    max_time: k % 5 === 0 ? 4 * 3600 : 0,
    parking_lot_fee: [
      {
        id: 2 * k + 1,
        cost_per_unit: 2000 + (k % 10) * 100,
        unit: 1,
        start_time: "08:00:00",
        end_time: "18:00:00",
        type_of_day: 1,
        round: k % 2 === 0,
      },
      {
        id: 2 * k + 2,
        cost_per_unit: 1500,
        unit: 1,
        start_time: "10:00:00",
        end_time: "15:00:00",
        type_of_day: 2,
        round: true,
      },
    ],
    variable_fees: [],
    parking_lot_open: [],
    parking_lot_location: [
      { id: k + 1, latitude: 59.3 + (k % 100) / 1000, longitude: 18.0 + (k % 97) / 1000 },
    ],
    active: k % 20 !== 0,
    max_fee: k % 3 === 0 ? 15_000 : 0,
  }));
  const file = join(dataDir, "bench-lots.json");
  Bun.write(file, JSON.stringify({ data: lots }));
  const imported = spawnSync([bin, "lots", "import", file, "--data-dir", dataDir], { stderr: "pipe" });
  if (imported.exitCode !== 0) throw new Error(`lots import failed: ${imported.stderr}`);
}

if (import.meta.main) {
  const [dataDir, bin, count] = process.argv.slice(2);
  if (!dataDir || !bin) throw new Error("usage: bun bench/generate.ts <data-dir> <parkd-binary> [tickets]");
  const t0 = performance.now();
  generate(dataDir, bin, count ? Number(count) : undefined);
  console.log(`generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
