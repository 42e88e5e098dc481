import { describe, expect, test } from "bun:test";
import { examples } from "../modules/intake/examples.ts";
import { call, expectProblem, testApp, testClock } from "../support/app.ts";
import { cityLot, createdLot } from "../support/lots.ts";

/** Issue 11, items 8, 9 and 14: body encodings, invisible characters, dates. */

function setup() {
  const clock = testClock("2026-06-15T08:05:00Z");
  const s = testApp({ timezone: "Europe/Stockholm" }, clock);
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const reader = s.token("permits:read");
  const raw = (body: BodyInit, contentType = "application/json") =>
    s.app.handle(
      new Request("http://localhost/api/v1/actions/tickets", {
        method: "POST",
        headers: { authorization: `Bearer ${writer}`, "content-type": contentType },
        body,
      }),
    );
  const post = (body: unknown) => call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body });
  const view = async (id = "100234") =>
    (await call(s.app, "GET", `/api/v1/tickets/${encodeURIComponent(id)}`, { token: admin })).json?.data;
  const stored = () =>
    s.ctx.store.sqlite
      .query("SELECT (SELECT count(*) FROM tickets) AS t, (SELECT count(*) FROM ticket_events) AS e")
      .get();
  return { ...s, clock, admin, reader, raw, post, view, stored };
}

async function problemOf(res: Response) {
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    body: (await res.json()) as { type: string },
  };
}

describe("bodies must be UTF-8 (item 8)", () => {
  test("a body with bytes that are not UTF-8 is a 400 and stores nothing", async () => {
    const s = setup();
    const text = JSON.stringify({ ...examples.TicketCreated, licenseNumber: "ÖZB771" });
    const latin1 = Buffer.from(text, "latin1"); // Ö as the single byte 0xD6
    const p = await problemOf(await s.raw(latin1));
    expect(p.status).toBe(400);
    expect(p.type).toStartWith("application/problem+json");
    expect(p.body.type).toBe("/problems/invalid-encoding");
    expect(s.stored()).toEqual({ t: 0, e: 0 });
  });

  test("a charset other than UTF-8 is a 400; charset=UTF-8 is fine", async () => {
    const s = setup();
    const text = JSON.stringify(examples.TicketCreated);
    for (const ct of ["application/json; charset=iso-8859-1", 'application/json; charset="windows-1252"'])
      expect((await problemOf(await s.raw(text, ct))).body.type).toBe("/problems/invalid-encoding");
    expect(s.stored()).toEqual({ t: 0, e: 0 });
    expect((await s.raw(text, "application/json; charset=UTF-8")).status).toBe(200);
  });

  test("the same plate in UTF-8 is stored as sent", async () => {
    const s = setup();
    const res = await s.raw(
      Buffer.from(JSON.stringify({ ...examples.TicketCreated, licenseNumber: "ÖZB771" })),
    );
    expect(res.status).toBe(200);
    expect((await s.view()).license_number).toBe("ÖZB771");
  });
});

describe("control and invisible characters (item 8)", () => {
  test("zero-width and other format characters in a plate are dropped by normalization", async () => {
    const s = setup();
    const plate = "ABC\u200B12\u00AD3\uFEFF";
    expect((await s.post({ ...examples.TicketCreated, licenseNumber: plate })).status).toBe(200);
    expect((await s.view()).plate_normalized).toBe("ABC123");
    const found = await call(s.app, "GET", "/api/v1/attendants/check-tickets?registration_number=abc123", {
      token: s.reader,
    });
    expect(found.json).toHaveLength(1);
    const typed = await call(
      s.app,
      "GET",
      `/api/v1/attendants/check-tickets?registration_number=${encodeURIComponent("ABC\u200D123")}`,
      { token: s.reader },
    );
    expect(typed.json).toHaveLength(1);
  });

  for (const plate of ["ABC\u0000123", "ABC\u001B123", "AB\u007FC", "\uD800ABC"])
    test(`a plate with ${JSON.stringify(plate)} is a 400 everywhere`, async () => {
      const s = setup();
      const p = expectProblem(
        await s.post({ ...examples.TicketCreated, licenseNumber: plate }),
        400,
        "validation",
      );
      expect(p.errors?.[0]).toEqual({
        pointer: "/licenseNumber",
        message: "must not contain control characters",
      });
      expect(s.stored()).toEqual({ t: 0, e: 0 });
      expectProblem(
        await call(s.app, "GET", "/api/v1/attendants/check-tickets", {
          token: s.reader,
          body: { registration_number: plate },
        }),
        400,
        "validation",
      );
      expectProblem(
        await call(s.app, "POST", "/api/v1/permits", {
          token: s.admin,
          body: { registration_number: plate, zone: 1, start_at: "2026-06-15T10:00:00Z" },
        }),
        400,
        "validation",
      );
    });

  for (const id of ["47\u000011", "47\u200B11", "4711\n", "\u202E4711"])
    test(`a ticketId with ${JSON.stringify(id)} is a 400`, async () => {
      const s = setup();
      const p = expectProblem(await s.post({ ...examples.TicketCreated, ticketId: id }), 400, "validation");
      expect(p.errors?.[0]?.pointer).toBe("/ticketId");
      expect(s.stored()).toEqual({ t: 0, e: 0 });
    });

  test("a TicketMoved to a plate with NUL is refused", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    const p = expectProblem(
      await s.post({ ...examples.TicketMoved, toLicenseNumber: "XYZ\u0000789" }),
      400,
      "validation",
    );
    expect(p.errors?.[0]?.pointer).toBe("/toLicenseNumber");
  });
});

describe("a quote with an unencoded + offset (item 9)", () => {
  test("…T10:00:00+01:00 typed into a URL (a space on arrival) is read as +01:00", async () => {
    const s = setup();
    const lot = await createdLot({ ...s, admin: s.admin }, cityLot());
    const base = `/api/v1/parkings/${lot.id}/quote`;
    const typed = await call(
      s.app,
      "GET",
      `${base}?start=2026-06-15T10:00:00+01:00&end=2026-06-15T12:00:00+01:00`,
    );
    expect(typed.status).toBe(200);
    expect(typed.json.data.start).toBe("2026-06-15T09:00:00.000000Z");
    expect(typed.json.data.end).toBe("2026-06-15T11:00:00.000000Z");
    const encoded = await call(
      s.app,
      "GET",
      `${base}?start=2026-06-15T10:00:00%2B01:00&end=2026-06-15T12:00:00%2B01:00`,
    );
    expect(encoded.json).toEqual(typed.json);
    const spaced = await call(
      s.app,
      "GET",
      `${base}?start=2026-06-15%2010:00:00%200100&end=2026-06-15T12:00:00Z`,
    );
    expect(spaced.json.data.start).toBe("2026-06-15T09:00:00.000000Z");
  });

  test("what still cannot be read says how to write a +", async () => {
    const s = setup();
    const lot = await createdLot({ ...s, admin: s.admin }, cityLot());
    const res = await call(
      s.app,
      "GET",
      `/api/v1/parkings/${lot.id}/quote?start=2026-06-15T10:00:00++01&end=x`,
    );
    const problem = expectProblem(res, 400, "validation");
    expect((problem.errors as { message: string }[]).map((e) => e.message)).toEqual([
      expect.stringContaining("%2B"),
      expect.stringContaining("%2B"),
    ]);
    // One field wrong: the summary itself says it.
    const one = await call(
      s.app,
      "GET",
      `/api/v1/parkings/${lot.id}/quote?start=2026-06-15T10:00:00++01&end=2026-06-15T12:00:00Z`,
    );
    expect(expectProblem(one, 400, "validation").detail).toContain("%2B");
  });
});

describe("dates (item 14)", () => {
  test("fraction digits past the millisecond are cut, not rounded", async () => {
    const s = setup();
    const body = { ...examples.TicketCreated, startDate: "2026-06-15T10:00:00.123999+02:00" };
    expect((await s.post(body)).status).toBe(200);
    expect((await s.view()).start_at).toBe("2026-06-15T08:00:00.123000Z");
  });

  test("the intake refuses a date without a time of day", async () => {
    const s = setup();
    for (const key of ["startDate", "endDate"]) {
      const p = expectProblem(
        await s.post({ ...examples.TicketCreated, [key]: "2026-06-15" }),
        400,
        "validation",
      );
      expect(p.errors?.[0]?.pointer).toBe(`/${key}`);
    }
    expect(s.stored()).toEqual({ t: 0, e: 0 });
  });

  test("a permit from a date alone starts at midnight, site time", async () => {
    const s = setup();
    const res = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: { registration_number: "ABC123", zone: 1, start_at: "2026-07-01" },
    });
    expect(res.json.data.start_at).toBe("2026-06-30T22:00:00.000000Z");
  });

  test("a ticket whose end has passed keeps status running, and is not active", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    s.clock.set("2026-06-15T11:00:00Z");
    expect((await s.view()).status).toBe("running");
    const found = await call(s.app, "GET", "/api/v1/attendants/check-tickets?registration_number=ABC123", {
      token: s.reader,
    });
    expect(found.json[0].active).toBe(false);
  });
});
