import { describe, expect, test } from "bun:test";
import { openMemoryStore } from "../../../src/platform/store/db.ts";
import type { NoticeValues } from "../../../src/platform/store/notices.ts";
import type { ObservationValues } from "../../../src/platform/store/observations.ts";

/** What the office sync reads of notices, their photos and the marks, and how numbering goes on. */

const notice = (id: string): NoticeValues => ({
  id,
  plate: `P ${id}`,
  plateNorm: `P${id}`.toUpperCase(),
  zone: 1234,
  lotId: null,
  verdict: "none",
  reasonCode: "no-permit",
  reasonTitle: "No permit",
  amount: 50_000,
  currency: "SEK",
  note: "",
  observedAt: 1_000,
  issuedAt: 2_000,
  issuedBy: "token:h",
});

const photo = (noticeId: string, hash: string) => ({
  noticeId,
  hash: hash.repeat(64),
  contentType: "image/png" as const,
  bytes: 100,
  width: 8,
  height: 8,
  addedAt: 3_000,
});

const mark = (plateNorm: string, zone: number): ObservationValues => ({
  plate: plateNorm,
  plateNorm,
  zone,
  dayStart: 0,
  firstSeenAt: 10,
  limitSeconds: 60,
  note: "",
  markedBy: "token:h",
  markId: null,
});

describe("notices as the office sync reads them", () => {
  test("in the order of their last write, with their photos; a photo moves its notice", () => {
    const store = openMemoryStore();
    const n = store.notices;
    const first = n.insert(notice("notice-one"));
    const second = n.insert(notice("notice-two"));
    expect(n.syncAfter(0, 10).map((x) => [x.id, x.syncSeq])).toEqual([
      ["notice-one", first.syncSeq],
      ["notice-two", second.syncSeq],
    ]);
    n.addPhoto(photo("notice-one", "b"));
    n.addPhoto(photo("notice-one", "a"));
    const after = n.syncAfter(second.syncSeq, 10);
    expect(after.map((x) => x.id)).toEqual(["notice-one"]);
    expect(after[0]!.photos.map((p) => p.hash[0])).toEqual(["b", "a"]);
    expect(n.syncAfter(0, 1).map((x) => x.id)).toEqual(["notice-two"]);
  });

  test("photos by (notice sync_seq, hash) after the cursor, of notices at or below upTo only", () => {
    const store = openMemoryStore();
    const n = store.notices;
    n.insert(notice("notice-one"));
    n.addPhoto(photo("notice-one", "c"));
    n.addPhoto(photo("notice-one", "a"));
    const one = n.get("notice-one")!.syncSeq;
    n.insert(notice("notice-two"));
    n.addPhoto(photo("notice-two", "b"));
    const two = n.get("notice-two")!.syncSeq;
    const names = (xs: { noticeId: string; hash: string }[]) => xs.map((x) => `${x.noticeId}/${x.hash[0]}`);
    expect(names(n.photosAfter({ seq: 0, hash: "" }, two, 10))).toEqual([
      "notice-one/a",
      "notice-one/c",
      "notice-two/b",
    ]);
    // The office holds notice-one's row only: notice-two's file waits for its row.
    expect(names(n.photosAfter({ seq: 0, hash: "" }, one, 10))).toEqual(["notice-one/a", "notice-one/c"]);
    expect(names(n.photosAfter({ seq: one, hash: "a".repeat(64) }, two, 10))).toEqual([
      "notice-one/c",
      "notice-two/b",
    ]);
    expect(names(n.photosAfter({ seq: 0, hash: "" }, two, 1))).toEqual(["notice-one/a"]);
    expect(n.photosAfter({ seq: two, hash: "b".repeat(64) }, two, 10)).toEqual([]);
  });

  test("numbers and sync sequences go on after the office's, and never back", () => {
    const store = openMemoryStore();
    const n = store.notices;
    n.insert(notice("notice-one"));
    const before = n.lastIds();
    expect(before.number).toBe(1);
    n.continueAfter({ number: 7, sync: 30 });
    expect(n.lastIds()).toEqual({ number: 7, sync: 30 });
    n.continueAfter({ number: 2, sync: 3 });
    expect(n.lastIds()).toEqual({ number: 7, sync: 30 });
    const next = n.insert(notice("notice-two"));
    expect([next.number, next.syncSeq]).toEqual([8, 31]);
  });
});

describe("marks as the office sync reads them", () => {
  test("by id after the cursor; a replaced mark's id is still counted as handed out", () => {
    const store = openMemoryStore();
    const o = store.observations;
    const a = o.replace(null, mark("AAA1", 1));
    const b = o.replace(null, mark("BBB2", 1));
    const moved = o.replace(b, mark("BBB2", 2));
    expect(o.after(0, 10).map((x) => [x.plateNorm, x.zone])).toEqual([
      ["AAA1", 1],
      ["BBB2", 2],
    ]);
    expect(o.after(a.id, 10).map((x) => x.id)).toEqual([moved.id]);
    o.deleteBefore(Number.MAX_SAFE_INTEGER, 10);
    expect(o.lastId()).toBe(moved.id);
    o.continueAfter(40);
    o.continueAfter(5);
    expect(o.lastId()).toBe(40);
    expect(o.replace(null, mark("CCC3", 1)).id).toBe(41);
  });
});
