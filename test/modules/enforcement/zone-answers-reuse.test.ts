import { describe, expect, test } from "bun:test";
import type { LotInput } from "../../../src/domain/lots/lot.ts";
import { completeLot } from "../../../src/domain/lots/rules.ts";
import { lookupServices } from "../../../src/modules/enforcement/index.ts";
import type { Answer } from "../../../src/modules/enforcement/read-model/answers.ts";
import { ReadModel } from "../../../src/modules/enforcement/read-model/read-model.ts";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import { testClock, testContext } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { seeded } from "../../support/random.ts";
import { cancelTicket, moveTicket, seedTicket, ticketRow } from "../../support/seed.ts";

const answer =
  (body: string, until = Number.POSITIVE_INFINITY) =>
  () => ({ body, results: 1, until });

type Kind = "check" | "list" | "saved";
const config = { recentHours: 0, timezone: "Europe/Stockholm" };

/** The read model's one cache of answers, asked with the version `version` gives (null: not built). */
function cache(version: () => { generation: number; writes: number } | null, maxChars?: number) {
  const model = new ReadModel({ store: openMemoryStore(), config, now: () => 0 } as never, { maxChars });
  return {
    get: <A extends Answer>(kind: Kind, zone: number, at: number, build: () => A): A =>
      model["kept_"](kind, zone, at, version(), build),
    get size() {
      return model.keptAnswers;
    },
  };
}

/** A read model over a fresh in-memory store, built (it builds in one turn while the store is small). */
function modelled() {
  const store = openMemoryStore();
  const model = new ReadModel({ store, config, now: () => 0 } as never);
  model.update(0);
  expect(model.update(0)).toBe(true);
  return {
    store,
    model,
    answers: {
      get: (kind: Kind, zone: number, at: number, build: () => Answer) =>
        model["zoneAnswer"](kind, zone, at, build),
    },
  };
}

const permitValues = (zone: number) => ({
  plate: "A",
  plateNorm: "A",
  zone,
  startAt: 0,
  endAt: null,
  note: "",
  days: null,
});

describe("the read model's kept answers", () => {
  test("only a kept check answer is sent from shared bytes; one built for a single request stays text", () => {
    const big = `[${'"x",'.repeat(5_000)}"x"]`;
    let version: { generation: number; writes: number } | null = null;
    const answers = cache(() => version);
    // Not built yet: the answer is this request's own, and its connection counts it.
    expect(typeof answers.get("check", 7, 0, answer(big)).body).toBe("string");
    expect(answers.size).toBe(0);
    version = { generation: 1, writes: 0 };
    const kept = answers.get("check", 7, 0, answer(big));
    expect(kept.body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(kept.body as unknown as Uint8Array)).toBe(big);
    // Asked again: the same bytes, not a copy.
    expect(answers.get("check", 7, 1, answer("[]")).body).toBe(kept.body);
    // A small answer stays text, kept or not.
    expect(answers.get("check", 8, 0, answer("[]")).body).toBe("[]");
  });

  test("reused while the version and the clock allow, built again when either moves", () => {
    let version: { generation: number; writes: number } | null = { generation: 1, writes: 0 };
    const answers = cache(() => version);
    let builds = 0;
    const build = (until: number) => () => {
      builds++;
      return { body: `b${builds}`, results: 0, until };
    };
    expect(answers.get("list", 1, 100, build(200)).body).toBe("b1");
    expect(answers.get("list", 1, 199, build(200)).body).toBe("b1");
    expect(answers.get("list", 1, 200, build(300)).body).toBe("b2");
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b3"); // clock set back
    version = { generation: 1, writes: 1 };
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b4");
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b4");
    version = null; // the model is being built: nothing is reused
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b5");
    expect(answers.get("list", 1, 150, build(300)).body).toBe("b6");
  });

  test("a write counts for its zone only; a zone change for both zones; a lot for every zone", () => {
    const { store, answers } = modelled();
    const at = (zone: number, body: string) => answers.get("check", zone, 0, answer(body)).body;
    expect([at(1, "1a"), at(2, "2a"), at(3, "3a")]).toEqual(["1a", "2a", "3a"]);
    // Lookup records are written about once a second: they change no answer.
    store.lookups.append([
      { at: 1, credential: "token:t", by: "zone", query: "1", results: 0, verdict: null, cameraRead: null },
    ]);
    expect([at(1, "1x"), at(2, "2x"), at(3, "3x")]).toEqual(["1a", "2a", "3a"]);
    const row = (zone: number) =>
      ticketRow({ ticketId: "t", zone, startAt: 0, endAt: null, plate: "A", at: 0 });
    store.tickets.insert(row(1));
    expect([at(1, "1b"), at(2, "2b"), at(3, "3b")]).toEqual(["1b", "2a", "3a"]);
    store.tickets.replace(row(2));
    expect([at(1, "1c"), at(2, "2c"), at(3, "3c")]).toEqual(["1c", "2c", "3a"]);
    store.tickets.cancel("t", 0);
    expect([at(1, "1d"), at(2, "2d"), at(3, "3d")]).toEqual(["1c", "2d", "3a"]);
    const permit = store.permits.insert(permitValues(3), 0, "t");
    expect([at(1, "1e"), at(2, "2e"), at(3, "3e")]).toEqual(["1c", "2d", "3e"]);
    store.permits.update(permit.id, permitValues(1), 0);
    expect([at(1, "1f"), at(2, "2f"), at(3, "3f")]).toEqual(["1f", "2d", "3f"]);
    store.transaction(() =>
      store.permits.applyOfficePull([{ ...permitValues(2), id: 9, endAt: null }], [], 0, 0),
    )();
    expect([at(1, "1g"), at(2, "2g"), at(3, "3g")]).toEqual(["1f", "2g", "3f"]);
    store.lots.insert(completeLot(cityLot() as unknown as LotInput, 1), true, 0, "t");
    expect([at(1, "1h"), at(2, "2h"), at(3, "3h")]).toEqual(["1h", "2h", "3h"]);
  });

  test("a write rolled back leaves the answers as they were", () => {
    const { store, answers } = modelled();
    expect(answers.get("list", 1, 0, answer("first")).body).toBe("first");
    try {
      store.transaction(() => {
        store.permits.insert(permitValues(1), 0, "t");
        throw new Error("rolled back");
      })();
    } catch {}
    expect(answers.get("list", 1, 0, answer("second")).body).toBe("first");
  });

  test("keeps at most its budget of body text, dropping the oldest first", () => {
    const answers = cache(() => ({ generation: 0, writes: 0 }), 25);
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
    const { rand, pick } = seeded(7);
    const MIN = 60_000;
    const clock = testClock("2026-06-15T12:00:00Z");
    const ctx = testContext({}, clock.now);
    const { readModel: lookups } = lookupServices(ctx);
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
      ctx.store.permits.insert(
        {
          plate: pick(plates),
          plateNorm: pick(plates).toUpperCase().replace(/[\s-]/g, ""),
          zone: 1 + (n++ % 2),
          startAt: start,
          endAt: end,
          note: "",
          days:
            rand() < 0.3
              ? [{ weekday: 1 + Math.floor(rand() * 7), start_time: "14:10:00", end_time: "15:20:30" }]
              : null,
        },
        0,
        "t",
      );
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
        expect(lookups.zoneList(zone, at).body).toBe(
          JSON.stringify({ data: lookups.activePlates(zone, at) }),
        );
        compared++;
      }
    }
    expect(compared).toBe(800);
  });
});
