import { describe, expect, test } from "bun:test";
import { PermitLookups } from "../../../src/modules/enforcement/lookups.ts";
import { ZoneAnswers } from "../../../src/modules/enforcement/zone-answers.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import { permits } from "../../../src/platform/store/schema/index.ts";
import { testClock, testContext } from "../../support/app.ts";
import { cancelTicket, moveTicket, seedTicket } from "../../support/seed.ts";

const answer =
  (body: string, until = Number.POSITIVE_INFINITY) =>
  () => ({ body, results: 1, until });

describe("ZoneAnswers", () => {
  test("reused while the store and the clock allow, built again after a write or past its end", () => {
    const store = openMemoryStore();
    const answers = new ZoneAnswers(store);
    let builds = 0;
    const build = (until: number) => () => {
      builds++;
      return { body: `b${builds}`, results: 0, until };
    };
    expect(answers.get("list", 1, 100, build(200)).body).toBe("b1");
    expect(answers.get("list", 1, 199, build(200)).body).toBe("b1");
    expect(answers.get("list", 1, 200, build(300)).body).toBe("b2");
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b3"); // clock set back
    // Lookup records are written about once a second: they change no answer.
    store.sqlite.run(
      "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (1, 'token:t', 'zone', '1', 0)",
    );
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b3");
    store.sqlite.run(
      "INSERT INTO permits (plate, plate_norm, zone, start_at, created_at, updated_at, created_by) VALUES ('A', 'A', 1, 0, 0, 0, 't')",
    );
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b4");
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b4");
  });

  test("a write counts for its zone only; a zone change for both zones; a lot for every zone", () => {
    const store = openMemoryStore();
    const answers = new ZoneAnswers(store);
    const at = (zone: number, body: string) => answers.get("check", zone, 0, answer(body)).body;
    expect([at(1, "1a"), at(2, "2a"), at(3, "3a")]).toEqual(["1a", "2a", "3a"]);
    store.sqlite.run(
      "INSERT INTO tickets (ticket_id, zone, start_at, plate, plate_norm, status, created_at, updated_at) VALUES ('t', 1, 0, 'A', 'A', 'running', 0, 0)",
    );
    expect([at(1, "1b"), at(2, "2b"), at(3, "3b")]).toEqual(["1b", "2a", "3a"]);
    store.sqlite.run("UPDATE tickets SET zone = 2 WHERE ticket_id = 't'");
    expect([at(1, "1c"), at(2, "2c"), at(3, "3c")]).toEqual(["1c", "2c", "3a"]);
    store.sqlite.run("DELETE FROM tickets");
    expect([at(1, "1d"), at(2, "2d"), at(3, "3d")]).toEqual(["1c", "2d", "3a"]);
    store.sqlite.run(
      "INSERT INTO permits (plate, plate_norm, zone, start_at, created_at, updated_at, created_by) VALUES ('A', 'A', 3, 0, 0, 0, 't')",
    );
    expect([at(1, "1e"), at(2, "2e"), at(3, "3e")]).toEqual(["1c", "2d", "3e"]);
    store.sqlite.run("UPDATE parking_lots SET name = name");
    expect([at(1, "1f"), at(2, "2f"), at(3, "3f")]).toEqual(["1c", "2d", "3e"]); // no lot, no row changed
    store.sqlite.run(
      `INSERT INTO parking_lots (name, zone_number, parking_lot_fee, variable_fees, parking_lot_open,
         parking_lot_location, created_at, updated_at, updated_by) VALUES ('L', 9, '[]', '[]', '[]', '[]', 0, 0, 't')`,
    );
    expect([at(1, "1g"), at(2, "2g"), at(3, "3g")]).toEqual(["1g", "2g", "3g"]);
  });

  test("a write rolled back leaves the answers as they were", () => {
    const store = openMemoryStore();
    const answers = new ZoneAnswers(store);
    expect(answers.get("list", 1, 0, answer("first")).body).toBe("first");
    try {
      store.sqlite.transaction(() => {
        store.db
          .insert(permits)
          .values({
            plate: "A",
            plateNorm: "A",
            zone: 1,
            startAt: 0,
            createdAt: 0,
            updatedAt: 0,
            createdBy: "t",
          })
          .run();
        throw new Error("rolled back");
      })();
    } catch {}
    expect(answers.get("list", 1, 0, answer("second")).body).toBe("first");
  });

  test("keeps at most its budget of body text, dropping the oldest first", () => {
    const answers = new ZoneAnswers(openMemoryStore(), 25);
    answers.get("list", 1, 0, answer("x".repeat(10)));
    answers.get("list", 2, 0, answer("x".repeat(10)));
    expect(answers.size).toBe(2);
    answers.get("list", 3, 0, answer("x".repeat(10)));
    expect(answers.size).toBe(2);
    expect(answers.get("list", 1, 0, answer("rebuilt")).body).toBe("rebuilt");
    expect(answers.get("list", 3, 0, answer("not rebuilt")).body).toBe("x".repeat(10));
    answers.get("list", 4, 0, answer("x".repeat(100)));
    expect(answers.size).toBe(1);
  });
});

/**
 * Reused answers against answers built afresh, over random tickets and permits (starts and ends
 * near the clock, some open-ended, some with weekly windows), random writes and a clock moving
 * forward by random steps that often land exactly on a start, an end or an end plus 24 h.
 */
describe("reused zone answers are the answers built afresh", () => {
  test("random stores, writes and clock steps", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const MIN = 60_000;
    const clock = testClock("2026-06-15T12:00:00Z");
    const ctx = testContext({}, clock.now);
    const lookups = new PermitLookups(ctx);
    const plates = ["AAA 1", "aaa-1", "BBB 2", "ÅÄÖ 3", "ZZZ 4", "Ö 5", "W 6", "V 7"];
    const instants: number[] = [];
    let n = 0;
    const near = () => {
      const t = clock.now() + Math.round((rand() - 0.4) * 120) * MIN;
      instants.push(t, t + 24 * 3_600_000);
      return t;
    };
    const addTicket = () => {
      const start = near();
      const end = rand() < 0.3 ? null : start + Math.round(1 + rand() * 90) * MIN;
      if (end !== null) instants.push(end, end + 24 * 3_600_000);
      seedTicket(ctx, {
        ticketId: `t${++n}`,
        plate: pick(plates),
        zone: 1 + (n % 2),
        start,
        end,
        status: end !== null && end < clock.now() && rand() < 0.5 ? "stopped" : "running",
      });
    };
    const addPermit = () => {
      const start = near();
      const end = rand() < 0.5 ? null : start + Math.round(1 + rand() * 300) * MIN;
      if (end !== null) instants.push(end, end + 24 * 3_600_000);
      ctx.store.db
        .insert(permits)
        .values({
          plate: pick(plates),
          plateNorm: pick(plates).toUpperCase().replace(/[\s-]/g, ""),
          zone: 1 + (n++ % 2),
          startAt: start,
          endAt: end,
          days:
            rand() < 0.3
              ? [{ weekday: 1 + Math.floor(rand() * 7), start_time: "14:10:00", end_time: "15:20:30" }]
              : null,
          createdAt: 0,
          updatedAt: 0,
          createdBy: "t",
        })
        .run();
    };
    for (let i = 0; i < 20; i++) addTicket();
    for (let i = 0; i < 8; i++) addPermit();
    let compared = 0;
    for (let step = 0; step < 400; step++) {
      const r = rand();
      if (r < 0.05) addTicket();
      else if (r < 0.08) addPermit();
      else if (r < 0.1) cancelTicket(ctx, `t${1 + Math.floor(rand() * n)}`);
      else if (r < 0.12) moveTicket(ctx, `t${1 + Math.floor(rand() * n)}`, pick(plates));
      else {
        const ahead = instants.filter((t) => t > clock.now());
        const next =
          ahead.length > 0 && rand() < 0.5 ? Math.min(...ahead) : clock.now() + Math.floor(rand() * 20 * MIN);
        clock.set(rand() < 0.2 ? next - 1 : next);
      }
      for (const zone of [1, 2]) {
        const at = clock.now();
        expect(lookups.byZoneJson(zone, at).body).toBe(JSON.stringify(lookups.byZone(zone, at)));
        expect(lookups.activePlatesJson(zone, at).body).toBe(
          JSON.stringify({ data: lookups.activePlates(zone, at) }),
        );
        compared++;
      }
    }
    expect(compared).toBe(800);
  });
});
