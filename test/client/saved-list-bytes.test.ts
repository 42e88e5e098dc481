import { expect, test } from "bun:test";
import type { ZonePermits } from "../../src/client/api-types.ts";
import { listBytes } from "../../src/client/zone-cache.ts";

const permit = (i: number): ZonePermits["permits"][number] => ({
  kind: "ticket",
  id: `t${i}`,
  registration_number: `ÅBC ${i}`,
  plate_norm: `ÅBC${i}`,
  zone: 1002,
  start_at: "2026-06-15T10:00:00.000000Z",
  end_at: i % 3 === 0 ? null : "2026-06-15T12:30:00.000000Z",
  ticket_status: "running",
  parking_lot_id: i % 2 ? 7 : null,
  lot_name: i % 2 ? 'Torget "norra"' : null,
  note: "",
  windows: null,
});

for (const n of [0, 1, 1_999, 2_000, 2_001, 4_500])
  test(`the saved list written in slices reads back as the list (${n} entries)`, async () => {
    const list: ZonePermits = {
      zone: 1002,
      taken_at: "2026-06-15T10:00:00.000000Z",
      timezone: "Europe/Stockholm",
      grace_minutes: 10,
      recent_hours: 24,
      plates: Array.from({ length: n }, (_, i) => `ÅBC${i}`),
      permits: Array.from({ length: n }, (_, i) => permit(i)),
      observations:
        n === 0
          ? []
          : [
              {
                registration_number: "ÅBC 1",
                plate_norm: "ÅBC1",
                zone: 1002,
                first_seen_at: "2026-06-15T09:00:00.000000Z",
                limit_seconds: 7200,
                note: "valves\n2 and 7",
              },
            ],
    };
    let steps = 0;
    const blob = await listBytes(list, async () => {
      steps++;
    });
    expect(JSON.parse(await blob.text())).toEqual(list);
    expect(steps).toBe(Math.ceil(n / 500) + (n === 0 ? 0 : 1));
  });
