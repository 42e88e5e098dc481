import { describe, expect, test } from "bun:test";
import { MemoryPhotoFiles, PhotoStorageFull } from "../../../src/platform/store/photos.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";
import { jpegHead, notPhotos, pngPhoto } from "../../support/photos.ts";

function setup() {
  const clock = testClock("2026-06-15T10:00:00Z");
  const s = testApp({}, clock);
  const admin = s.token("admin");
  const handheld = s.token("permits:read", "notices:write");
  return { s, clock, admin, handheld };
}

async function withReason(s: ReturnType<typeof testApp>, admin: string, code = "no-permit", amount = 50_000) {
  const r = await call(s.app, "POST", "/api/v1/notice-reasons", {
    token: admin,
    body: { code, title: "No valid ticket or permit", amount },
  });
  expect(r.status).toBe(201);
}

const notice = (over: Record<string, unknown> = {}) => ({
  id: "3f2a9c1e-7b44-4c1d-9a51-0d7e2b6f8c10",
  registration_number: "abc 123",
  zone: 1002,
  verdict: "none",
  reason: "no-permit",
  note: "valves 2 and 7",
  observed_at: "2026-06-15T09:58:00Z",
  ...over,
});

function photoRequest(id: string, token: string, bytes: Uint8Array, type: string) {
  return new Request(`http://localhost/api/v1/attendants/notices/${id}/photos`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

async function sendPhoto(
  s: ReturnType<typeof testApp>,
  id: string,
  token: string,
  bytes: Uint8Array,
  type = "image/png",
) {
  const res = await s.app.handle(photoRequest(id, token, bytes, type));
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe("issuing a control notice", () => {
  test("stored with the site's next number, the reason's amount, in the change history", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const r = await call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice() });
    expect(r.status).toBe(201);
    expect(r.json.data).toMatchObject({
      number: 1,
      registration_number: "abc 123",
      reason: "no-permit",
      amount: 50_000,
      currency: "SEK",
      observed_at: "2026-06-15T09:58:00.000000Z",
      issued_at: "2026-06-15T10:00:00.000000Z",
      photos: [],
    });
    const second = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "second-notice-0001" }),
    });
    expect(second.json.data.number).toBe(2);
    const history = await call(s.app, "GET", "/api/v1/changes?subject=notice", { token: admin });
    expect(
      history.json.data.map((c: { subject_id: string; action: string }) => [c.subject_id, c.action]),
    ).toEqual([
      ["2", "issue"],
      ["1", "issue"],
    ]);
    expect(history.json.data[1].actor).toStartWith("token:");
  });

  test("a retry with the same id is answered with the stored notice: one notice, no number used", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const first = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice(),
    });
    const again = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice(),
    });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const next = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "another-notice-1" }),
    });
    expect(next.json.data.number).toBe(2);
    const list = await call(s.app, "GET", "/api/v1/notices", { token: admin });
    expect(list.json.data).toHaveLength(2);
  });

  test("the same id with other content is 409 and changes nothing", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    await call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice() });
    const r = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ registration_number: "XYZ789" }),
    });
    expectProblem(r, 409, "notice-exists");
    const one = await call(s.app, "GET", "/api/v1/notices/1", { token: admin });
    expect(one.json.data.registration_number).toBe("abc 123");
  });

  test("an unknown or retired reason is 400 and takes no number", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const unknown = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ reason: "no-permt" }),
    });
    expect(expectProblem(unknown, 400, "reason-unknown").errors?.[0]?.pointer).toBe("/reason");
    await call(s.app, "PATCH", "/api/v1/notice-reasons/no-permit", { token: admin, body: { active: false } });
    expectProblem(
      await call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice() }),
      400,
      "reason-unknown",
    );
    await call(s.app, "PATCH", "/api/v1/notice-reasons/no-permit", { token: admin, body: { active: true } });
    const ok = await call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice() });
    expect(ok.json.data.number).toBe(1);
  });

  test("bad fields are 400 with their pointers: plate, time ahead of the box, unknown lot, unknown field", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const bad = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ registration_number: "---", observed_at: "2026-06-15T11:00:00Z", parking_lot_id: 99 }),
    });
    const p = expectProblem(bad, 400, "validation");
    expect(p.errors?.map((e) => e.pointer).sort()).toEqual([
      "/observed_at",
      "/parking_lot_id",
      "/registration_number",
    ]);
    expectProblem(
      await call(s.app, "POST", "/api/v1/attendants/notices", {
        token: handheld,
        body: notice({ id: "short" }),
      }),
      400,
      "validation",
    );
    expectProblem(
      await call(s.app, "POST", "/api/v1/attendants/notices", {
        token: handheld,
        body: notice({ amount: 1 }),
      }),
      400,
      "validation",
    );
    expect((await call(s.app, "GET", "/api/v1/notices", { token: admin })).json.data).toEqual([]);
  });

  test("permits:read alone can check but not issue (403); notices:write lists the reasons", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const reader = s.token("permits:read");
    expectProblem(
      await call(s.app, "POST", "/api/v1/attendants/notices", { token: reader, body: notice() }),
      403,
      "insufficient-scope",
    );
    expectProblem(await sendPhoto(s, notice().id, reader, pngPhoto(40, 30)), 403, "insufficient-scope");
    const reasons = await call(s.app, "GET", "/api/v1/attendants/notice-reasons", { token: handheld });
    expect(reasons.json).toEqual({
      data: [
        {
          code: "no-permit",
          title: "No valid ticket or permit",
          amount: 50_000,
          verdicts: ["none", "over_time_limit"],
        },
      ],
      currency: "SEK",
    });
  });
});

describe("what a notice may not be", () => {
  test("another handheld's id is 409 without its number or content; a date alone is 400 at /observed_at", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const first = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice(),
    });
    expect(first.status).toBe(201);
    const other = s.token("permits:read", "notices:write");
    const taken = await call(s.app, "POST", "/api/v1/attendants/notices", { token: other, body: notice() });
    const problem = expectProblem(taken, 409, "notice-exists");
    expect(problem.detail).toContain("another handheld's notice");
    expect(problem.detail).not.toContain("number");
    const dateOnly = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "date-only-0001", observed_at: "2026-06-15" }),
    });
    expect(expectProblem(dateOnly, 400, "validation").errors?.[0]?.pointer).toBe("/observed_at");
  });
});

describe("a notice in the audit", () => {
  test("recorded as PLATE@ZONE with the verdict it follows: 1 when stored, 0 for a retry; a refused one not at all; never among the car's checks", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    for (let i = 0; i < 2; i++)
      expect(
        (await call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice() })).status,
      ).toBe(i === 0 ? 201 : 200);
    const refused = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "refused-notice-01", reason: "no-such" }),
    });
    expect(refused.status).toBe(400);
    s.lookupRecorder.flush();
    const kinds = await call(s.app, "GET", "/api/v1/lookups?by=notice", { token: admin });
    expect(
      kinds.json.data.map((r: { by: string; query: string; results: number; verdict: string }) => [
        r.by,
        r.query,
        r.results,
        r.verdict,
      ]),
    ).toEqual([
      ["notice", "ABC123@1002", 0, "none"],
      ["notice", "ABC123@1002", 1, "none"],
    ]);
    const byPlate = await call(s.app, "GET", "/api/v1/lookups?registration_number=abc-123", { token: admin });
    expect(byPlate.json.data).toHaveLength(2);
    const checks = await call(s.app, "GET", "/api/v1/attendants/checks?registration_number=ABC123", {
      token: handheld,
    });
    expect(checks.json.data).toEqual([]);
  });
});

describe("the reasons follow the verdict", () => {
  async function reasons() {
    const ctx = setup();
    for (const [code, title, verdicts] of [
      ["no-permit", "No valid ticket or permit", ["none"]],
      ["over-time", "Over the time limit", ["over_time_limit"]],
      ["bad-parking", "Outside a marked bay", ["over_time_limit", "none"]],
    ] as const) {
      const r = await call(ctx.s.app, "POST", "/api/v1/notice-reasons", {
        token: ctx.admin,
        body: { code, title, amount: 50_000, verdicts },
      });
      expect(r.status).toBe(201);
      // A set, in the one order, whatever order it was sent in.
      expect(r.json.data.verdicts).toEqual(verdicts.length === 2 ? ["none", "over_time_limit"] : verdicts);
    }
    return ctx;
  }

  test("a notice under a reason for its verdict is stored; under a reason for the other verdict, 400 and no number", async () => {
    const { s, admin, handheld } = await reasons();
    for (const [verdict, reason, status] of [
      ["none", "no-permit", 201],
      ["none", "bad-parking", 201],
      ["over_time_limit", "over-time", 201],
      ["over_time_limit", "bad-parking", 201],
    ] as const) {
      const r = await call(s.app, "POST", "/api/v1/attendants/notices", {
        token: handheld,
        body: notice({ id: `notice-${verdict}-${reason}`, verdict, reason }),
      });
      expect([verdict, reason, r.status]).toEqual([verdict, reason, status]);
    }
    for (const [verdict, reason, words] of [
      ["none", "over-time", "NO VALID PERMIT"],
      ["over_time_limit", "no-permit", "OVER TIME LIMIT"],
    ] as const) {
      const r = await call(s.app, "POST", "/api/v1/attendants/notices", {
        token: handheld,
        body: notice({ id: `refused-${verdict}-${reason}`, verdict, reason }),
      });
      const problem = expectProblem(r, 400, "reason-not-for-verdict");
      expect(problem.detail).toContain(`"${reason}" is not for a notice after the verdict ${words}`);
      expect(problem.errors?.[0]?.pointer).toBe("/reason");
    }
    const stored = (await call(s.app, "GET", "/api/v1/notices", { token: admin })).json.data;
    expect(stored.map((n: { number: number }) => n.number)).toEqual([4, 3, 2, 1]);
  });

  test("the handheld's list says each reason's verdicts; a change of them is in the history in words' keys", async () => {
    const { s, admin, handheld } = await reasons();
    const listed = await call(s.app, "GET", "/api/v1/attendants/notice-reasons", { token: handheld });
    expect(listed.json.data.map((r: { code: string; verdicts: string[] }) => [r.code, r.verdicts])).toEqual([
      ["bad-parking", ["none", "over_time_limit"]],
      ["no-permit", ["none"]],
      ["over-time", ["over_time_limit"]],
    ]);
    const changed = await call(s.app, "PATCH", "/api/v1/notice-reasons/no-permit", {
      token: admin,
      body: { verdicts: ["over_time_limit", "none"] },
    });
    expect(changed.json.data.verdicts).toEqual(["none", "over_time_limit"]);
    const history = await call(s.app, "GET", "/api/v1/changes?subject=notice_reason", { token: admin });
    expect(history.json.data[0]).toMatchObject({
      subject_id: "no-permit",
      action: "update",
      before: { verdicts: ["none"] },
      after: { verdicts: ["none", "over_time_limit"] },
    });
  });

  test("no verdict, an unknown one, or one twice is 400 at /verdicts and changes nothing", async () => {
    const { s, admin } = await reasons();
    for (const verdicts of [[], ["grace"], ["none", "none"], "none"]) {
      const r = await call(s.app, "PATCH", "/api/v1/notice-reasons/no-permit", {
        token: admin,
        body: { verdicts },
      });
      expect(expectProblem(r, 400, "validation").errors?.[0]?.pointer).toStartWith("/verdicts");
      const added = await call(s.app, "POST", "/api/v1/notice-reasons", {
        token: admin,
        body: { code: "other", title: "Other", amount: 1, verdicts },
      });
      expect(expectProblem(added, 400, "validation").errors?.[0]?.pointer).toStartWith("/verdicts");
    }
    const all = (await call(s.app, "GET", "/api/v1/notice-reasons", { token: admin })).json.data;
    expect(all.map((r: { code: string }) => r.code)).toEqual(["bad-parking", "no-permit", "over-time"]);
    expect(all.find((r: { code: string }) => r.code === "no-permit").verdicts).toEqual(["none"]);
  });
});

describe("the mark that led to an OVER TIME LIMIT notice", () => {
  async function marked() {
    const ctx = setup();
    const { s, admin, handheld, clock } = ctx;
    await withReason(s, admin);
    for (const zone of [1002, 1003]) {
      const lot = await call(s.app, "POST", "/api/v1/parkings", {
        token: admin,
        body: { ...cityLot(), zone_number: zone, max_time: 2 * 3600 },
      });
      expect(lot.status).toBe(201);
    }
    // 12:00 in the site's zone (UTC here): the car is marked, and is over its 2 h at 14:10.
    const mark = await call(s.app, "POST", "/api/v1/attendants/observations", {
      token: handheld,
      body: { registration_number: "ABC 123", zone: 1002 },
    });
    expect(mark.status).toBe(201);
    clock.advance(2 * 3600_000 + 10 * 60_000);
    return ctx;
  }

  test("is copied into the notice: when the car was first seen, the limit then, who marked it", async () => {
    const { s, admin, handheld } = await marked();
    const r = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ verdict: "over_time_limit", observed_at: "2026-06-15T12:09:00Z" }),
    });
    expect(r.status).toBe(201);
    const mark = {
      seen_at: "2026-06-15T10:00:00.000000Z",
      limit_seconds: 7200,
      marked_by: expect.stringMatching(/^token:/),
    };
    expect(r.json.data.mark).toEqual(mark);
    const read = await call(s.app, "GET", `/api/v1/notices/${r.json.data.number}`, { token: admin });
    expect(read.json.data.mark).toEqual(mark);
    // The mark replaced later (the car moved) leaves the notice as it was.
    const moved = await call(s.app, "POST", "/api/v1/attendants/observations", {
      token: handheld,
      body: { registration_number: "ABC123", zone: 1003 },
    });
    expect(moved.status).toBe(201);
    expect(
      (await call(s.app, "GET", `/api/v1/notices/${r.json.data.number}`, { token: admin })).json.data.mark,
    ).toEqual(mark);
  });

  test("a notice in the first minutes of a day follows the mark of the day before (a verdict seen at 23:59)", async () => {
    const ctx = setup();
    const { s, admin, handheld, clock } = ctx;
    await withReason(s, admin);
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), zone_number: 1002, max_time: 3600 },
    });
    expect(lot.status).toBe(201);
    // Stockholm's summer time: marked at 23:00, over at 00:00, the notice sent at 00:10.
    clock.set("2026-06-15T21:00:00Z");
    const marked = await call(s.app, "POST", "/api/v1/attendants/observations", {
      token: handheld,
      body: { registration_number: "NIGHT 1", zone: 1002 },
    });
    expect(marked.status).toBe(201);
    clock.set("2026-06-15T22:10:00Z");
    const sent = (id: string, observed: string) =>
      call(s.app, "POST", "/api/v1/attendants/notices", {
        token: handheld,
        body: notice({
          id,
          registration_number: "NIGHT 1",
          verdict: "over_time_limit",
          observed_at: observed,
        }),
      });
    const early = await sent("night-notice-01", "2026-06-16T00:10:00+02:00");
    expect(early.json.data.mark?.seen_at).toBe("2026-06-15T21:00:00.000000Z");
    // Well into the next day, yesterday's mark is not this notice's.
    clock.set("2026-06-15T23:00:00Z");
    expect((await sent("night-notice-02", "2026-06-16T01:00:00+02:00")).json.data.mark).toBeNull();
  });

  test("none for a NO VALID PERMIT notice, for a mark in another zone, or made after the notice", async () => {
    const { s, handheld } = await marked();
    const none = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "after-none-0001", observed_at: "2026-06-15T12:09:00Z" }),
    });
    expect(none.json.data.mark).toBeNull();
    const elsewhere = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({
        id: "elsewhere-0001",
        zone: 1003,
        verdict: "over_time_limit",
        observed_at: "2026-06-15T12:09:00Z",
      }),
    });
    expect(elsewhere.json.data.mark).toBeNull();
    // Written offline before the car was marked, sent after.
    const before = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({
        id: "before-mark-0001",
        verdict: "over_time_limit",
        observed_at: "2026-06-15T09:59:00Z",
      }),
    });
    expect(before.json.data.mark).toBeNull();
  });
});

describe("a notice's photos", () => {
  async function issued() {
    const ctx = setup();
    await withReason(ctx.s, ctx.admin);
    await call(ctx.s.app, "POST", "/api/v1/attendants/notices", { token: ctx.handheld, body: notice() });
    return ctx;
  }
  const id = notice().id;

  test("a PNG and a JPEG are kept by hash; the same photo again is 200; the operator reads them back", async () => {
    const { s, admin, handheld } = await issued();
    const png = pngPhoto(64, 48, 7);
    const first = await sendPhoto(s, id, handheld, png);
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      content_type: "image/png",
      width: 64,
      height: 48,
      bytes: png.length,
    });
    expect(first.json.data.hash).toBe(new Bun.CryptoHasher("sha256").update(png).digest("hex"));
    const again = await sendPhoto(s, id, handheld, png);
    expect(again.status).toBe(200);
    const jpeg = await sendPhoto(s, id, handheld, jpegHead(1600, 1200, 30_000), "image/jpeg");
    expect(jpeg.status).toBe(201);
    const opened = await call(s.app, "GET", "/api/v1/notices/1", { token: admin });
    expect(opened.json.data.photos.map((p: { content_type: string }) => p.content_type)).toEqual([
      "image/png",
      "image/jpeg",
    ]);
    const res = await s.app.handle(
      new Request(`http://localhost${opened.json.data.photos[0].url}`, {
        headers: { authorization: `Bearer ${admin}` },
      }),
    );
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
    const missing = await call(s.app, "GET", `/api/v1/notices/1/photos/${"0".repeat(64)}`, { token: admin });
    expectProblem(missing, 404, "photo-not-found");
  });

  test("refused and nothing kept: not an image, a mislabelled one, too small, too large in pixels", async () => {
    const { s, admin, handheld } = await issued();
    const text = new TextEncoder().encode("x".repeat(2000));
    expectProblem(await sendPhoto(s, id, handheld, text, "image/jpeg"), 400, "photo-invalid");
    expectProblem(await sendPhoto(s, id, handheld, pngPhoto(40, 30), "image/jpeg"), 400, "photo-invalid");
    expectProblem(await sendPhoto(s, id, handheld, pngPhoto(1, 1).slice(0, 60)), 400, "photo-invalid");
    expectProblem(await sendPhoto(s, id, handheld, jpegHead(4000, 3000), "image/jpeg"), 400, "photo-invalid");
    expect((await call(s.app, "GET", "/api/v1/notices/1", { token: admin })).json.data.photos).toEqual([]);
  });

  test("refused and nothing kept: each kind of file that only looks like a photo (docs/notices.md)", async () => {
    const { s, admin, handheld } = await issued();
    for (const p of notPhotos()) {
      const refused = expectProblem(await sendPhoto(s, id, handheld, p.bytes, p.type), 400, "photo-invalid");
      expect(`${p.kind}: ${refused.detail}`).toContain(p.why);
    }
    expect((await call(s.app, "GET", "/api/v1/notices/1", { token: admin })).json.data.photos).toEqual([]);
  });

  test("over 500 KB is 413", async () => {
    const { s, handheld } = await issued();
    const big = jpegHead(1600, 1200, 500 * 1024 + 1);
    expectProblem(await sendPhoto(s, id, handheld, big, "image/jpeg"), 413, "payload-too-large");
  });

  test("a fourth photo is 409; a photo for an unknown or another handheld's notice is 404", async () => {
    const { s, handheld } = await issued();
    for (let i = 1; i <= 3; i++)
      expect((await sendPhoto(s, id, handheld, pngPhoto(32, 32, i))).status).toBe(201);
    expectProblem(await sendPhoto(s, id, handheld, pngPhoto(32, 32, 4)), 409, "too-many-photos");
    expectProblem(
      await sendPhoto(s, "no-such-notice", handheld, pngPhoto(32, 32, 5)),
      404,
      "notice-not-found",
    );
    const other = s.token("notices:write");
    expectProblem(await sendPhoto(s, id, other, pngPhoto(32, 32, 6)), 404, "notice-not-found");
  });

  test("a photo whose file a purge beside serve removed while another notice took it is written again", async () => {
    const { s, handheld } = await issued();
    const second = "7d1e2c3b-4a59-4f6e-8d7c-1b2a3c4d5e6f";
    await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: second }),
    });
    const png = pngPhoto(40, 30, 11);
    const hash = new Bun.CryptoHasher("sha256").update(png).digest("hex");
    expect((await sendPhoto(s, id, handheld, png)).status).toBe(201);
    // The first notice still names it when the second counts its uses, so the second writes no
    // file; a purge in another process removed it in between (its notice gone, in its own commit).
    s.ctx.store.photos.remove(hash);
    expect((await sendPhoto(s, second, handheld, png)).status).toBe(201);
    expect(s.ctx.store.photos.read(hash)).toEqual(png);
    // And a photo sent again to a notice whose record names a lost file brings the file back.
    s.ctx.store.photos.remove(hash);
    expect((await sendPhoto(s, second, handheld, png)).status).toBe(200);
    expect(s.ctx.store.photos.has(hash)).toBe(true);
  });

  test("a new photo's file a purge beside serve removes between its write and its record's commit is written again", async () => {
    const { s, handheld } = await issued();
    const png = pngPhoto(40, 30, 12);
    const hash = new Bun.CryptoHasher("sha256").update(png).digest("hex");
    const files = new MemoryPhotoFiles();
    let purged = false;
    s.ctx.store.usePhotoFiles({
      ...files,
      has: (h) => files.has(h),
      read: (h) => files.read(h),
      remove: (h) => files.remove(h),
      leftovers: (n) => files.leftovers(n),
      removeUnfinished: () => {},
      put(h, bytes) {
        files.put(h, bytes);
        // A 'parkd purge' in another process, between this write and the record's commit: it
        // deleted the last notice that held this photo (or listed the file as a leftover) and
        // removes the file under the write lock, where no notice names it yet.
        if (!purged && s.ctx.store.notices.photoUses(h) === 0) {
          purged = true;
          files.remove(h);
        }
      },
    });
    expect((await sendPhoto(s, id, handheld, png)).status).toBe(201);
    expect(purged).toBe(true);
    expect(s.ctx.store.notices.photoUses(hash)).toBe(1);
    expect(s.ctx.store.photos.read(hash)).toEqual(png);
  });

  test("a full disk refuses the photo with 503 and Retry-After, and keeps the notice", async () => {
    const { s, admin, handheld } = await issued();
    s.ctx.store.usePhotoFiles({
      put: () => {
        throw new PhotoStorageFull("ENOSPC: no space left on device");
      },
      read: () => null,
      has: () => false,
      remove: () => {},
      leftovers: () => ({ photos: [], unfinished: [] }),
      removeUnfinished: () => {},
    });
    const r = await sendPhoto(s, id, handheld, pngPhoto(32, 32, 9));
    expectProblem(r, 503, "photo-storage-full");
    expect(r.headers.get("retry-after")).toBe("60");
    const kept = await call(s.app, "GET", "/api/v1/notices/1", { token: admin });
    expect(kept.json.data).toMatchObject({ number: 1, photos: [] });
  });

  test("a disk down to the reserve kept for ticket events refuses the photo, saying so, and keeps the notice", async () => {
    const { s, admin, handheld } = await issued();
    s.ctx.store.usePhotoFiles({
      put: () => {
        throw new PhotoStorageFull("the photo would take the space kept for ticket events", 300 * 1_048_576);
      },
      read: () => null,
      has: () => false,
      remove: () => {},
      leftovers: () => ({ photos: [], unfinished: [] }),
      removeUnfinished: () => {},
    });
    const r = await sendPhoto(s, id, handheld, pngPhoto(32, 32, 9));
    expectProblem(r, 503, "photo-storage-full");
    expect((r.json as { detail: string }).detail).toBe(
      "The disk holding the photos is down to the 300 MB it keeps for ticket events; notice 1 itself is stored. Send the photo again once space is freed",
    );
    const kept = await call(s.app, "GET", "/api/v1/notices/1", { token: admin });
    expect(kept.json.data).toMatchObject({ number: 1, photos: [] });
  });

  test("a voided notice takes no photos (409)", async () => {
    const { s, admin, handheld } = await issued();
    await call(s.app, "POST", "/api/v1/notices/1/void", { token: admin, body: { reason: "shown a permit" } });
    expectProblem(await sendPhoto(s, id, handheld, pngPhoto(32, 32, 3)), 409, "notice-voided");
  });
});

describe("a notice's lot", () => {
  test("is the zone's when one lot has the zone; none when several do; a retry of a notice stored without one is the same notice", async () => {
    const { cityLot } = await import("../../support/lots.ts");
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const issue = (over: Record<string, unknown>) =>
      call(s.app, "POST", "/api/v1/attendants/notices", { token: handheld, body: notice(over) });
    // Issued before the site had a lot in zone 1234: no lot.
    const early = await issue({ id: "a0000000-0000-4000-8000-000000000001", zone: 1234 });
    expect(early.status).toBe(201);
    expect(early.json.data.parking_lot_id).toBeNull();
    const lot = await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), zone_number: 1234 },
    });
    expect(lot.status).toBe(201);
    const lotId = lot.json.id ?? lot.json.data?.id;
    const one = await issue({ id: "a0000000-0000-4000-8000-000000000002", zone: 1234 });
    expect(one.json.data.parking_lot_id).toBe(lotId);
    // The early one sent again (the handheld never heard the answer): the same notice, not a conflict.
    const again = await issue({ id: "a0000000-0000-4000-8000-000000000001", zone: 1234 });
    expect(again.status).toBe(200);
    expect(again.json.data.parking_lot_id).toBeNull();
    // Two lots in the zone: only the attendant can say which.
    await call(s.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: { ...cityLot(), name: "Annexet", zone_number: 1234 },
    });
    const two = await issue({ id: "a0000000-0000-4000-8000-000000000003", zone: 1234 });
    expect(two.json.data.parking_lot_id).toBeNull();
  });
});

describe("who issued a notice, in the history", () => {
  test("a handheld's browser session is a handheld; a bearer token is the API", async () => {
    const { s, admin, handheld } = setup();
    await withReason(s, admin);
    const signIn = await call(s.app, "POST", "/api/v1/session", { body: { token: handheld } });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const csrf = signIn.json.data.csrf as string;
    const fromPage = await call(s.app, "POST", "/api/v1/attendants/notices", {
      headers: { cookie, "x-csrf-token": csrf },
      body: notice({ id: "b0000000-0000-4000-8000-000000000001" }),
    });
    expect(fromPage.status).toBe(201);
    const fromApi = await call(s.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: notice({ id: "b0000000-0000-4000-8000-000000000002" }),
    });
    expect(fromApi.status).toBe(201);
    const history = await call(s.app, "GET", "/api/v1/changes?subject=notice", { token: admin });
    expect(history.json.data.map((c: { via: string }) => c.via)).toEqual(["api", "handheld"]);
  });
});
