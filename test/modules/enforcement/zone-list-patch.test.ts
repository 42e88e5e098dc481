import { describe, expect, test } from "bun:test";
import { PlateList } from "../../../src/domain/permits/plate-list.ts";
import { diffLists, ZoneList } from "../../../src/modules/enforcement/read-model/answers.ts";
import { ReadModel } from "../../../src/modules/enforcement/read-model/read-model.ts";
import { openStore } from "../../../src/platform/store/db.ts";
import type { PermitValues } from "../../../src/platform/store/permits.ts";
import { seeded } from "../../support/random.ts";
import { ticketRow } from "../../support/seed.ts";
import { tempDirs } from "../../support/temp.ts";

const tempDir = tempDirs("parkd-patch-");

const MIN = 60_000;
const H = 60 * MIN;
const T0 = Date.parse("2026-06-15T12:00:00Z");

/**
 * The zone list is patched from the last one where only some plates' rows were written (the live
 * feed's path): after every random write and clock move, it reads exactly as a list built from
 * the whole zone, and the change it carries is the difference of the two lists.
 */
describe("a patched zone list is the list built whole", () => {
  for (const seed of [3, 17, 29])
    test(`random writes, spellings, permits with windows and clock moves (seed ${seed})`, async () => {
      const store = openStore(tempDir());
      let now = T0;
      const config = { recentHours: 24, timezone: "Europe/Stockholm" };
      const lookups = new ReadModel({ store, config, now: () => now } as never, { versionCheckMs: 0 });
      const { rand, int, pick } = seeded(seed);
      // One plate in two spellings: the list shows the latest-starting one.
      const plates: [string, string][] = [
        ["AAA1", "AAA1"],
        ["BBB 2", "BBB2"],
        ["BBB2", "BBB2"],
        ["ÅÄÖ3", "ÅÄÖ3"],
        ["ZZZ4", "ZZZ4"],
        ["123", "123"],
        ["Ö1", "Ö1"],
      ];
      const near = () => now + Math.round((rand() - 0.6) * 24) * H + int(60) * MIN;
      let tickets = 0;
      const permitIds: number[] = [];
      const randomTicket = (id: string) => {
        const start = near();
        const end = rand() < 0.25 ? null : start + (1 + int(600)) * MIN;
        const [plate, plateNorm] = pick(plates);
        return ticketRow({
          ticketId: id,
          zone: 1 + int(2),
          startAt: start,
          endAt: end,
          plate,
          plateNorm,
          at: now,
        });
      };
      const permitValues = (): PermitValues => {
        const [plate, norm] = pick(plates);
        const start = near();
        return {
          plate,
          plateNorm: norm,
          zone: 1 + int(2),
          startAt: start,
          endAt: rand() < 0.4 ? null : start + (1 + int(3000)) * MIN,
          note: "",
          days: rand() < 0.3 ? [{ weekday: 1 + int(7), start_time: "08:00:00", end_time: "17:00:00" }] : null,
        };
      };
      const someTicket = () => `t${1 + int(Math.max(tickets, 1))}`;
      const last = new Map<number, { etag: string; plates: string[] }>();
      let patched = 0;
      for (let step = 0; step < 500; step++) {
        const r = rand();
        if (r < 0.35) store.tickets.insert(randomTicket(`t${++tickets}`));
        else if (r < 0.45) store.tickets.replace(randomTicket(someTicket()));
        else if (r < 0.52) {
          const [plate, norm] = pick(plates);
          store.tickets.move(someTicket(), plate, norm, now);
        } else if (r < 0.6) store.tickets.cancel(someTicket(), now);
        else if (r < 0.67) permitIds.push(store.permits.insert(permitValues(), now, "t").id);
        else if (r < 0.72 && permitIds.length > 0) store.permits.update(pick(permitIds), permitValues(), now);
        else if (r < 0.75 && permitIds.length > 0) store.permits.delete(pick(permitIds));
        else if (r < 0.9) now += int(20) * MIN + int(1000);
        else if (r < 0.93) now -= int(3) * H;
        if (rand() < 0.2) await new Promise((turned) => setImmediate(turned));
        for (const zone of [1, 2]) {
          const answer = lookups.zoneList(zone, now);
          const whole = lookups.activePlates(zone, now);
          expect(answer.plates).toEqual(whole);
          expect(JSON.parse(answer.body)).toEqual({ data: whole });
          // The tag moved by each patch is the one a whole build of the same plates gets.
          expect(answer.etag).toBe(
            ZoneList.built(PlateList.sorted(whole.map((p) => ({ plate: p, plateNorm: p, startAt: 0 }))), 0)
              .etag,
          );
          const before = last.get(zone);
          if (answer.change && before && answer.change.from === before.etag) {
            patched++;
            const diff = diffLists(before.plates, answer.plates);
            expect(new Set(answer.change.added)).toEqual(new Set(diff.added));
            expect(new Set(answer.change.removed)).toEqual(new Set(diff.removed));
          }
          last.set(zone, { etag: answer.etag, plates: answer.plates });
        }
      }
      // The patch path was taken, not only whole builds.
      expect(patched).toBeGreaterThan(100);
      store.close();
    });
});

/**
 * The logs that make patches possible are kept for the 1,000 zones written last: a zone written
 * before a thousand others is built whole again (still right), a recent one is patched.
 */
test("write logs are bounded by zone; a zone that lost its log is built whole", () => {
  const store = openStore(tempDir());
  const now = T0;
  const config = { recentHours: 24, timezone: "Europe/Stockholm" };
  const lookups = new ReadModel({ store, config, now: () => now } as never, { versionCheckMs: 0 });
  let n = 0;
  const ticket = (zone: number) =>
    ticketRow({ ticketId: `t${++n}`, zone, startAt: now - H, endAt: now + H, plate: `P${n}`, at: now });
  const write = (...zones: number[]) => {
    for (const zone of zones) store.tickets.insert(ticket(zone));
  };
  // The first answer builds the read model; answers are kept once it is built.
  lookups.zoneList(0, now);
  write(1, 2);
  const kept = [lookups.zoneList(1, now), lookups.zoneList(2, now)];
  // Zone 1 written, then 998 others and zone 2 again: 1,000 zones logged, zone 1 the oldest.
  write(1);
  for (let zone = 3; zone < 1_001; zone++) write(zone);
  write(2);
  // One zone more: zone 1 loses its log.
  write(1_001);
  const [one, two] = [lookups.zoneList(1, now), lookups.zoneList(2, now)];
  expect(one.change).toBeUndefined();
  expect(two.change?.from).toBe(kept[1]!.etag);
  expect(one.plates).toEqual(lookups.activePlates(1, now));
  expect(two.plates).toEqual(lookups.activePlates(2, now));
  expect([one.plates.length, two.plates.length]).toEqual([2, 2]);
  store.close();
});
