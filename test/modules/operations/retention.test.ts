import { describe, expect, test } from "bun:test";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiskWatch } from "../../../src/modules/operations/disk-watch.ts";
import {
  DAY_MS,
  purgeExpired,
  restingBesideServe,
  scheduleRetention,
} from "../../../src/modules/operations/retention.ts";
import { openMemoryStore, openStore, type Store } from "../../../src/platform/store/db.ts";
import { DiskPhotoFiles } from "../../../src/platform/store/photos.ts";
import { permitLookups, ticketEvents, tickets } from "../../../src/platform/store/schema/index.ts";

const NOW = Date.parse("2026-06-15T10:00:00Z");
const daysAgo = (d: number) => NOW - d * DAY_MS;

function addTicket(
  store: Store,
  id: string,
  t: {
    endAt: number | null;
    status?: "running" | "stopped" | "canceled";
    canceledAt?: number | null;
    events?: number;
  },
) {
  const start = (t.endAt ?? NOW) - 3_600_000;
  store.db
    .insert(tickets)
    .values({
      ticketId: id,
      zone: 1,
      startAt: start,
      endAt: t.endAt,
      plate: "ABC123",
      plateNorm: "ABC123",
      status: t.status ?? (t.endAt === null ? "running" : "stopped"),
      createdAt: start,
      updatedAt: start,
      canceledAt: t.canceledAt ?? null,
    })
    .run();
  for (let i = 0; i < (t.events ?? 2); i++)
    store.db
      .insert(ticketEvents)
      .values({
        ticketId: id,
        eventType: "TicketCreated",
        receivedAt: start,
        credential: "token:t",
        rawBody: "{}",
        outcome: "applied",
      })
      .run();
}

function addLookup(store: Store, at: number) {
  store.db
    .insert(permitLookups)
    .values({ at, credential: "token:h", by: "zone", query: "1", results: 0 })
    .run();
}

function addNotice(store: Store, id: string, issuedAt: number, voidedAt: number | null, photos: string[]) {
  store.transaction(() => {
    store.notices.insert({
      id,
      plate: "ABC123",
      plateNorm: "ABC123",
      zone: 1,
      lotId: null,
      verdict: "none",
      reasonCode: "no-permit",
      reasonTitle: "No permit",
      amount: 50_000,
      currency: "SEK",
      note: "",
      observedAt: issuedAt,
      issuedAt,
      issuedBy: "token:h",
    });
    if (voidedAt !== null) store.notices.markVoided(id, voidedAt, "user:anna", "shown at the office");
    for (const hash of photos) {
      store.photos.put(hash, new Uint8Array([1, 2, 3]));
      store.notices.addPhoto({
        noticeId: id,
        hash,
        contentType: "image/jpeg",
        bytes: 3,
        width: 1,
        height: 1,
        addedAt: issuedAt,
      });
    }
  })();
}

const ids = (store: Store) =>
  store.db
    .select({ id: tickets.ticketId })
    .from(tickets)
    .all()
    .map((r) => r.id)
    .sort();
const eventIds = (store: Store) =>
  [
    ...new Set(
      store.db
        .select()
        .from(ticketEvents)
        .all()
        .map((e) => e.ticketId),
    ),
  ].sort();

function fixture() {
  const store = openMemoryStore();
  addTicket(store, "old-stopped", { endAt: daysAgo(91) });
  addTicket(store, "edge-kept", { endAt: daysAgo(90) + 1000 });
  addTicket(store, "recent", { endAt: daysAgo(10) });
  addTicket(store, "running-no-end", { endAt: null });
  addTicket(store, "running-old-start", { endAt: null, status: "running" });
  // Ended long ago but canceled recently: retention counts from the cancel.
  addTicket(store, "canceled-recently", { endAt: daysAgo(200), status: "canceled", canceledAt: daysAgo(5) });
  addTicket(store, "canceled-long-ago", { endAt: null, status: "canceled", canceledAt: daysAgo(120) });
  addTicket(store, "future-end", { endAt: NOW + DAY_MS });
  for (let i = 0; i < 7; i++) addTicket(store, `bulk-${i}`, { endAt: daysAgo(100 + i), events: 1 });
  addLookup(store, daysAgo(95));
  addLookup(store, daysAgo(91));
  addLookup(store, daysAgo(89));
  addLookup(store, NOW);
  // Attendants' marks: one made before the cutoff, one inside it.
  for (const at of [daysAgo(91), daysAgo(89)])
    store.transaction(() =>
      store.observations.replace(null, {
        plate: `OBS ${at}`,
        plateNorm: `OBS${at}`,
        zone: 1,
        dayStart: at,
        firstSeenAt: at,
        limitSeconds: 7200,
        note: "",
        markedBy: "token:h",
        markId: null,
      }),
    )();
  // Notices: one issued before the cutoff with two photos, one of them also on a recent notice;
  // one issued before it but voided since; one recent.
  addNotice(store, "old", daysAgo(91), null, ["a".repeat(64), "b".repeat(64)]);
  addNotice(store, "old-voided-recently", daysAgo(95), daysAgo(10), ["c".repeat(64)]);
  addNotice(store, "recent", daysAgo(5), null, ["b".repeat(64)]);
  // The change history: one change older than the cutoff, one just inside it
  for (const at of [daysAgo(91), daysAgo(89)])
    store.changes.record({
      at,
      actor: "user:anna",
      via: "console",
      subject: "lot",
      subjectId: "1",
      action: "update",
      before: { name: "A" },
      after: { name: "B" },
    });
  return store;
}

const kept = [
  "canceled-recently",
  "edge-kept",
  "future-end",
  "recent",
  "running-no-end",
  "running-old-start",
];

describe("retention", () => {
  test("deletes tickets, their events, lookups and marks that ended (or were made) before the cutoff, keeps the rest", async () => {
    const store = fixture();
    const report = await purgeExpired(store, { now: NOW, retentionDays: 90, batch: 3 });
    expect(report).toEqual({
      tickets: 9,
      ticketEvents: 2 + 2 + 7,
      permitLookups: 2,
      operatorChanges: 1,
      observations: 1,
      notices: 1,
      noticePhotos: 1,
    });
    expect(ids(store)).toEqual(kept);
    expect(eventIds(store)).toEqual(kept);
    expect(
      store.db
        .select()
        .from(permitLookups)
        .all()
        .map((l) => l.at)
        .sort(),
    ).toEqual([daysAgo(89), NOW]);
    expect(store.changes.page({}, undefined, 10).map((c) => c.at)).toEqual([daysAgo(89)]);
    expect(store.observations.countBefore(Number.MAX_SAFE_INTEGER)).toBe(1);
    expect(store.observations.ofCarOn(`OBS${daysAgo(89)}`, daysAgo(89))).not.toBeNull();
    // The old notice is gone with its photos' records and the file no other notice holds; the
    // one voided recently and the recent one stay, and the numbers are never handed out again.
    expect(store.notices.get("old")).toBeNull();
    expect(store.notices.photos("old")).toEqual([]);
    expect(store.notices.get("old-voided-recently")).not.toBeNull();
    expect(store.notices.get("recent")?.number).toBe(3);
    expect(store.photos.read("a".repeat(64))).toBeNull();
    expect(store.photos.read("b".repeat(64))).not.toBeNull();
    expect(store.photos.read("c".repeat(64))).not.toBeNull();
    addNotice(store, "after", NOW, null, []);
    expect(store.notices.get("after")?.number).toBe(4);
    // A second run finds nothing more.
    const again = await purgeExpired(store, { now: NOW, retentionDays: 90 });
    expect(Object.values(again).every((n) => n === 0)).toBe(true);
  });

  test("dry run counts exactly what a real run deletes, and deletes nothing", async () => {
    const store = fixture();
    const counted = await purgeExpired(store, { now: NOW, retentionDays: 90, dryRun: true });
    expect(ids(store).length).toBe(15);
    const deleted = await purgeExpired(store, { now: NOW, retentionDays: 90 });
    expect(counted).toEqual(deleted);
  });

  test("a longer retention keeps more; a running ticket is never deleted however old", async () => {
    const store = fixture();
    const r = await purgeExpired(store, { now: NOW + 10_000 * DAY_MS, retentionDays: 1 });
    expect(ids(store)).toEqual(["running-no-end", "running-old-start"]);
    expect(r.tickets).toBe(13);
    const store2 = fixture();
    await purgeExpired(store2, { now: NOW, retentionDays: 365 });
    expect(ids(store2).length).toBe(15);
  });

  test("works in bounded steps and yields between them", async () => {
    const store = fixture();
    let pauses = 0;
    await purgeExpired(store, {
      now: NOW,
      retentionDays: 90,
      batch: 2,
      pause: async () => {
        pauses++;
      },
    });
    // 15 tickets in windows of 2 rowids, then lookups in batches of 2.
    expect(pauses).toBeGreaterThanOrEqual(8);
  });

  test("notices go a tenth of the batch at a time, their files in groups with rests between", async () => {
    const store = openMemoryStore();
    const old = daysAgo(200);
    // 120 old notices, a photo file each, and one photo the last of them shares with a recent one.
    const photo = (i: number) => i.toString(16).padStart(64, "0");
    for (let i = 0; i < 120; i++) addNotice(store, `old-${i}`, old + i, null, [photo(i)]);
    addNotice(store, "recent", daysAgo(1), null, [photo(119)]);
    let pauses = 0;
    const r = await purgeExpired(store, {
      now: NOW,
      retentionDays: 90,
      batch: 1000,
      pause: async () => {
        pauses++;
      },
    });
    expect([r.notices, r.noticePhotos]).toEqual([120, 119]);
    // 100 notices, their 100 files with a rest after the 50th and the 100th, a rest; then 20 notices.
    expect(pauses).toBe(3);
    expect(store.photos.read(photo(119))).not.toBeNull();
    expect(store.photos.read(photo(0))).toBeNull();
    expect(store.notices.get("recent")).not.toBeNull();
  });

  test("photo files no notice names, left by a stopped purge, go once an hour old; young, named and foreign files stay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-leftovers-"));
    try {
      const store = openMemoryStore();
      store.usePhotoFiles(new DiskPhotoFiles(dir));
      const [named, left, young, half] = ["a", "b", "c", "d"].map((c) => c.repeat(64)) as [
        string,
        string,
        string,
        string,
      ];
      addNotice(store, "recent", daysAgo(1), null, [named]);
      const photos = join(dir, "photos");
      for (const f of [left, young, `${half}.part`, "notes.txt"]) writeFileSync(join(photos, f), "x");
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      for (const f of [named, left, `${half}.part`, "notes.txt"])
        utimesSync(join(photos, f), twoHoursAgo, twoHoursAgo);
      const r = await purgeExpired(store, { now: NOW, retentionDays: 90 });
      expect(r.noticePhotos).toBe(1);
      expect(readdirSync(photos).sort()).toEqual([named, young, "notes.txt"].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a photo the store set aside by the latest restore names is no leftover; with that store unreadable none is taken for one", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "parkd-leftovers-aside-"));
    const before = mkdtempSync(join(tmpdir(), "parkd-leftovers-before-"));
    try {
      const [named, namedAside, unnamed] = ["a", "b", "c"].map((c) => c.repeat(64)) as [
        string,
        string,
        string,
      ];
      // The store before the restore named `namedAside`; the restored one names `named`.
      const old = openStore(before, { create: true });
      addNotice(old, "before", daysAgo(1), null, [namedAside]);
      old.close();
      const aside = join(dataDir, "parkd.db.before-restore-20260101T000000Z");
      for (const suffix of ["", "-wal"])
        if (existsSync(join(before, `parkd.db${suffix}`)))
          copyFileSync(join(before, `parkd.db${suffix}`), `${aside}${suffix}`);
      const store = openStore(dataDir, { create: true });
      addNotice(store, "restored", daysAgo(1), null, [named]);
      const photos = join(dataDir, "photos");
      for (const f of [namedAside, unnamed]) writeFileSync(join(photos, f), "x");
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      for (const f of [named, namedAside, unnamed]) utimesSync(join(photos, f), twoHoursAgo, twoHoursAgo);
      expect((await purgeExpired(store, { now: NOW, retentionDays: 90 })).noticePhotos).toBe(1);
      expect(readdirSync(photos).sort()).toEqual([named, namedAside].sort());
      // An aside store that cannot be read: no file is taken for a leftover.
      writeFileSync(join(photos, unnamed), "x");
      utimesSync(join(photos, unnamed), twoHoursAgo, twoHoursAgo);
      for (const suffix of ["-wal", "-shm"]) rmSync(`${aside}${suffix}`, { force: true });
      writeFileSync(aside, "not a store, but long enough to be read as one's first page ".repeat(80));
      expect((await purgeExpired(store, { now: NOW, retentionDays: 90 })).noticePhotos).toBe(0);
      expect(readdirSync(photos)).toContain(unnamed);
      store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(before, { recursive: true, force: true });
    }
  });

  test("an aborted run stops early and keeps what it did", async () => {
    const store = fixture();
    const abort = new AbortController();
    const r = await purgeExpired(store, {
      now: NOW,
      retentionDays: 90,
      batch: 1,
      signal: abort.signal,
      pause: async () => abort.abort(),
    });
    expect(r.tickets).toBeLessThanOrEqual(1);
    expect(ids(store).length).toBe(15 - r.tickets);
  });

  test("the schedule runs at start, reports, and stops", async () => {
    const store = fixture();
    const reports: unknown[] = [];
    const schedule = scheduleRetention({
      store,
      now: () => NOW,
      retentionDays: 90,
      everyMs: 60_000,
      onRun: (r) => reports.push(r),
    });
    const deadline = Date.now() + 2000;
    while (reports.length === 0 && Date.now() < deadline) await Bun.sleep(5);
    await schedule.stop();
    expect(reports[0]).toEqual({
      tickets: 9,
      ticketEvents: 11,
      permitLookups: 2,
      operatorChanges: 1,
      observations: 1,
      notices: 1,
      noticePhotos: 1,
    });
    expect(ids(store)).toEqual(kept);
  });
});

describe("a purge beside a serving box rests between its steps", () => {
  test("at least 50 ms, and twice as long as the step took", async () => {
    let clock = 0;
    const pause = restingBesideServe(() => clock);
    let t = performance.now();
    await pause(); // a step that took no time: the least rest
    expect(performance.now() - t).toBeGreaterThanOrEqual(45);
    clock += 100; // a step of 100 ms
    t = performance.now();
    await pause();
    expect(performance.now() - t).toBeGreaterThanOrEqual(195);
  });
});

describe("retention on a disk at the reserve kept for ticket events", () => {
  const MB = 1_048_576;
  /** A disk where each lookup record takes 1 MB of 700, and 100 MB are kept for ticket events. */
  function pressed(minDays: number) {
    const store = openMemoryStore();
    for (let d = 1; d <= 60; d++) for (let i = 0; i < 10; i++) addLookup(store, daysAgo(d) + i * 1000);
    const records = () => store.lookups.countBefore(NOW + DAY_MS);
    const disk = {
      reserveBytes: 100 * MB,
      room: () => ({ freeBytes: (700 - records()) * MB, reusableBytes: 0, sizeBytes: 1000 * MB }),
    };
    const watch = new DiskWatch(disk, { retentionDays: 90, minDays });
    const runs: number[] = [];
    const short: number[] = [];
    const schedule = scheduleRetention({
      store,
      now: () => NOW,
      retentionDays: 90,
      watch,
      everyMs: 3_600_000,
      roomEveryMs: 3_600_000,
      onRun: (_, daysKept) => runs.push(daysKept),
      onShort: (daysKept) => short.push(daysKept),
    });
    return { store, watch, records, runs, short, schedule };
  }

  test("deletes the oldest day at a time, from the oldest record's age, until the disk has room; keeps that many days", async () => {
    const { store, watch, records, runs, schedule } = pressed(7);
    expect(records()).toBe(600); // 100 MB left: at the reserve
    await schedule.runNow();
    // The 60th day's ten records made room (110 MB left, near the reserve): 59 days are kept.
    expect(records()).toBe(590);
    expect(runs.at(-1)).toBe(59);
    expect(watch.latest?.state).toBe("near");
    // Held there while the disk is near the reserve, even by the hourly run.
    await schedule.runNow();
    expect(records()).toBe(590);
    expect(runs.at(-1)).toBe(59);
    // Twenty more records today: at the reserve again, and a day less kept (the 59th goes).
    for (let i = 0; i < 20; i++) addLookup(store, NOW - i * 1000);
    await schedule.runNow();
    expect(runs.at(-1)).toBe(57);
    expect(records()).toBe(590);
    await schedule.stop();
  });

  test("never deletes records younger than the minimum of days, and says it is short of room", async () => {
    const { store, records, runs, short, schedule } = pressed(58);
    await schedule.runNow();
    expect(runs.at(-1)).toBe(59);
    // Thirty records more today: only the 59th day may go, and that is not room enough.
    for (let i = 0; i < 30; i++) addLookup(store, NOW - i * 1000);
    await schedule.runNow();
    await schedule.stop();
    expect(runs.at(-1)).toBe(58);
    expect(short).toEqual([58]);
    expect(records()).toBe(58 * 10 + 30);
    expect(store.lookups.countBefore(daysAgo(58))).toBe(0);
  });

  test("a disk with room keeps the setting; a store in memory has no disk to watch", async () => {
    const store = openMemoryStore();
    const watch = new DiskWatch(store, { retentionDays: 90, minDays: 7 });
    expect(watch.read()).toBeNull();
    addLookup(store, daysAgo(100));
    addLookup(store, daysAgo(80));
    const runs: number[] = [];
    const schedule = scheduleRetention({
      store,
      now: () => NOW,
      retentionDays: 90,
      watch,
      everyMs: 3_600_000,
      onRun: (_, d) => runs.push(d),
    });
    await schedule.runNow();
    await schedule.stop();
    expect(runs.at(-1)).toBe(90);
    expect(store.lookups.countBefore(NOW)).toBe(1);
  });
});

describe("the disk watch's log", () => {
  test("says near, at and room again once each, and nothing while the room wavers at a boundary", async () => {
    const { setLogging } = await import("../../../src/platform/log.ts");
    const { spyOn } = await import("bun:test");
    const MB = 1_048_576;
    let free = 500 * MB;
    const watch = new DiskWatch(
      { reserveBytes: 100 * MB, room: () => ({ freeBytes: free, reusableBytes: 0, sizeBytes: 1000 * MB }) },
      { retentionDays: 90, minDays: 7 },
    );
    setLogging(true);
    const write = spyOn(process.stderr, "write").mockImplementation(() => true);
    let said: string[];
    try {
      for (const mb of [500, 199, 201, 199, 201, 150, 90, 110, 90, 150, 210, 215, 230, 210, 230]) {
        free = mb * MB;
        watch.read();
      }
      said = write.mock.calls.map((c) => (JSON.parse(String(c[0])) as { msg: string }).msg.slice(0, 22));
    } finally {
      write.mockRestore();
      setLogging(false);
    }
    expect(said).toEqual(["the disk nears the 100", "the disk is at the 100", "the disk has room agai"]);
  });
});
