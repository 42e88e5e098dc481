import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp } from "../../support/app.ts";
import { examples } from "./examples.ts";

/**
 * Validation, content rules and authentication of POST /api/v1/actions/tickets, with bodies
 * shaped like the interface's examples (zoneCode and parkingLotId as strings of digits).
 */

const INTAKE = "/api/v1/actions/tickets";

type Body = Record<string, unknown>;
const clone = (b: object): Body => structuredClone(b) as Body;

function setup() {
  const s = testApp({ timezone: "Europe/Stockholm" });
  const writer = s.token("tickets:write");
  const admin = s.token("admin");
  const post = (body: unknown, opts: { token?: string; authorization?: string } = { token: writer }) =>
    call(s.app, "POST", INTAKE, { ...opts, body });
  const view = (id: string) =>
    call(s.app, "GET", `/api/v1/tickets/${encodeURIComponent(id)}`, { token: admin });
  const eventCount = () =>
    (s.ctx.store.sqlite.query("SELECT count(*) AS n FROM ticket_events").get() as { n: number }).n;
  return { ...s, writer, admin, post, view, eventCount };
}

describe("the six event bodies as the interface's examples send them", () => {
  test("every event type answers 200 [] as JSON", async () => {
    const s = setup();
    for (const type of [
      "TicketCreated",
      "TicketUpdated",
      "TicketStopped",
      "TicketMoved",
      "CreateOrUpdate",
      "TicketCanceled",
    ] as const) {
      const body =
        type === "CreateOrUpdate" ? { ...examples[type], licenseNumber: "XYZ789" } : examples[type];
      const res = await s.post(body);
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(res.text).toBe("[]");
      expect(res.headers.get("content-type")).toStartWith("application/json");
    }
    const v = await s.view("100234");
    expect(v.json.data.events.map((e: { event_type: string }) => e.event_type)).toEqual([
      "TicketCreated",
      "TicketUpdated",
      "TicketStopped",
      "TicketMoved",
      "CreateOrUpdate",
      "TicketCanceled",
    ]);
    expect(v.json.data.status).toBe("canceled");
  });

  test("digit strings are ints, ticketId numbers are text, dates become UTC", async () => {
    const s = setup();
    expect((await s.post({ ...examples.TicketCreated, ticketId: 100234 })).status).toBe(200);
    const t = (await s.view("100234")).json.data;
    expect(t).toMatchObject({
      ticket_id: "100234",
      zone: 1234,
      parking_lot_id: 12,
      start_at: "2026-06-15T08:00:00.000000Z",
      end_at: "2026-06-15T10:00:00.000000Z",
      license_number: "ABC123",
      ticket_cost: { amount_incl_vat: 4000, vat_rate: 25, currency_code: "SEK" },
      status: "running",
    });
    // The same ticket whether its id came as a number or a string.
    expect((await s.post({ ...examples.TicketCanceled, ticketId: 100234 })).status).toBe(200);
  });

  test("a date without an offset is read in the site time zone", async () => {
    const s = setup();
    const body = {
      ...examples.TicketCreated,
      startDate: "2026-01-10T08:00:00",
      endDate: "2026-01-10T09:00:00Z",
    };
    expect((await s.post(body)).status).toBe(200);
    const t = (await s.view("100234")).json.data;
    expect(t.start_at).toBe("2026-01-10T07:00:00.000000Z");
    expect(t.end_at).toBe("2026-01-10T09:00:00.000000Z");
  });

  test("CreateOrUpdate reads decimal-comma amounts; others refused", async () => {
    const s = setup();
    const cases: [string | number, number][] = [
      ["12,50", 1250],
      ["12", 1200],
      ["0,05", 5],
      // 1250 again would equal the first event, already applied: a late retry (see item 13).
      [1234, 1234],
    ];
    for (const [sent, cents] of cases) {
      const body = clone(examples.CreateOrUpdate);
      (body.ticketCost as Body).amountInclVat = sent;
      expect((await s.post(body)).status).toBe(200);
      expect((await s.view("100234")).json.data.ticket_cost.amount_incl_vat).toBe(cents);
    }
    for (const bad of ["12,5,0", "abc", "-12,50", -100, "12.50"]) {
      const body = clone(examples.CreateOrUpdate);
      (body.ticketCost as Body).amountInclVat = bad;
      const p = expectProblem(await s.post(body), 400, "validation");
      expect(p.errors!.map((e) => e.pointer)).toEqual(["/ticketCost/amountInclVat"]);
    }
  });

  test("unknown fields are ignored and the raw body is kept as sent", async () => {
    const s = setup();
    const raw = `{"eventType":"TicketCreated","ticketId":"T-9","zoneCode":"7","vendorExtra":{"a":[1,2]},
      "startDate":"2026-06-15T10:00:00Z","licenseNumber":"abc 123","ticketCost":{"amountInclVat":null,"junk":true}}`;
    expect((await s.post(raw)).status).toBe(200);
    const stored = s.ctx.store.sqlite
      .query("SELECT raw_body FROM ticket_events WHERE ticket_id = 'T-9'")
      .get() as {
      raw_body: string;
    };
    expect(stored.raw_body).toBe(raw);
    const t = (await s.view("T-9")).json.data;
    expect(t.license_number).toBe("abc 123");
    expect(t.plate_normalized).toBe("ABC123");
    expect(t.events[0].body.vendorExtra).toEqual({ a: [1, 2] });
  });

  test("a parkingLotId that names no lot is accepted, kept and flagged", async () => {
    const s = setup();
    expect((await s.post({ ...examples.TicketCreated, parkingLotId: "987654321" })).status).toBe(200);
    const t = (await s.view("100234")).json.data;
    expect(t.parking_lot_id).toBe(987654321);
    expect(t.lot_unknown).toBe(true);
    expect((await s.post({ ...examples.TicketUpdated, parkingLotId: null })).status).toBe(200);
    const u = (await s.view("100234")).json.data;
    expect(u.parking_lot_id).toBeNull();
    expect(u.lot_unknown).toBe(false);
  });
});

/** For each event type, the fields that must not be null, and the nullable ones. */
const nullability: Record<keyof typeof examples, { required: string[]; nullable: string[] }> = {
  TicketCreated: {
    required: ["eventType", "ticketId", "zoneCode", "startDate", "licenseNumber", "ticketCost"],
    nullable: [
      "parkingLotId",
      "endDate",
      "ticketCost/amountInclVat",
      "ticketCost/vatRate",
      "ticketCost/currencyCode",
    ],
  },
  CreateOrUpdate: {
    required: ["eventType", "ticketId", "zoneCode", "startDate", "licenseNumber", "ticketCost"],
    nullable: [
      "parkingLotId",
      "endDate",
      "ticketCost/amountInclVat",
      "ticketCost/vatRate",
      "ticketCost/currencyCode",
    ],
  },
  TicketUpdated: {
    required: [
      "eventType",
      "ticketId",
      "zoneCode",
      "startDate",
      "endDate",
      "licenseNumber",
      "ticketCost",
      "ticketCost/amountInclVat",
      "ticketCost/vatRate",
      "ticketCost/currencyCode",
    ],
    nullable: ["parkingLotId"],
  },
  TicketStopped: {
    required: [
      "eventType",
      "ticketId",
      "zoneCode",
      "startDate",
      "endDate",
      "licenseNumber",
      "ticketCost",
      "ticketCost/amountInclVat",
      "ticketCost/vatRate",
      "ticketCost/currencyCode",
    ],
    nullable: ["parkingLotId"],
  },
  TicketMoved: { required: ["eventType", "ticketId", "fromLicenseNumber", "toLicenseNumber"], nullable: [] },
  TicketCanceled: { required: ["eventType", "ticketId"], nullable: [] },
};

function setPath(body: Body, path: string, value: unknown): Body {
  const keys = path.split("/");
  let at = body;
  for (const k of keys.slice(0, -1)) at = at[k] as Body;
  if (value === undefined) delete at[keys.at(-1)!];
  else at[keys.at(-1)!] = value;
  return body;
}

describe("nullability and required fields, exactly as the interface's tables", () => {
  for (const [type, rule] of Object.entries(nullability) as [
    keyof typeof examples,
    (typeof nullability)["TicketCreated"],
  ][]) {
    test(`${type}: null where not allowed is 400 with the pointer, and changes nothing`, async () => {
      const s = setup();
      if (type !== "TicketCreated" && type !== "CreateOrUpdate") await s.post(examples.TicketCreated);
      const before = s.eventCount();
      for (const field of rule.required) {
        for (const value of [null, undefined]) {
          const res = await s.post(setPath(clone(examples[type]), field, value));
          const p = expectProblem(res, 400, "validation");
          expect(
            p.errors!.map((e) => e.pointer),
            `${type} ${field}=${value}`,
          ).toEqual([`/${field}`]);
          if (field !== "eventType")
            expect(p.errors![0]!.message).toContain(value === null ? "null" : "required");
        }
      }
      expect(s.eventCount()).toBe(before);
    });
    if (rule.nullable.length > 0)
      test(`${type}: its nullable fields take null and may be left out`, async () => {
        const s = setup();
        if (type !== "TicketCreated" && type !== "CreateOrUpdate") await s.post(examples.TicketCreated);
        const nulls = clone(examples[type]);
        for (const field of rule.nullable) setPath(nulls, field, null);
        expect((await s.post(nulls)).status).toBe(200);
        const absent = clone(examples[type]);
        for (const field of rule.nullable) setPath(absent, field, undefined);
        expect((await s.post(absent)).status).toBe(200);
      });
  }

  test("every failing field is listed in one answer", async () => {
    const s = setup();
    const body = {
      ...examples.TicketUpdated,
      zoneCode: "12x",
      endDate: null,
      ticketCost: { amountInclVat: null, vatRate: "25", currencyCode: null },
    };
    const p = expectProblem(await s.post(body), 400, "validation");
    expect(p.errors!.map((e) => e.pointer).sort()).toEqual([
      "/endDate",
      "/ticketCost/amountInclVat",
      "/ticketCost/currencyCode",
      "/zoneCode",
    ]);
  });

  test("unknown or missing eventType: 400 naming the allowed values", async () => {
    const s = setup();
    for (const eventType of ["TicketDeleted", undefined, 5]) {
      const p = expectProblem(await s.post({ ...examples.TicketCanceled, eventType }), 400, "validation");
      expect(p.errors).toEqual([
        {
          pointer: "/eventType",
          message:
            "must be one of TicketCreated, TicketUpdated, TicketStopped, TicketMoved, TicketCanceled, CreateOrUpdate",
        },
      ]);
    }
  });

  test("endDate before startDate and dates that are no dates are 400", async () => {
    const s = setup();
    const early = expectProblem(
      await s.post({ ...examples.TicketCreated, endDate: "2026-06-15T09:59:00+02:00" }),
      400,
      "validation",
    );
    expect(early.errors!.map((e) => e.pointer)).toEqual(["/endDate"]);
    const bad = expectProblem(
      await s.post({ ...examples.TicketCreated, startDate: "15/06/2026 10:00" }),
      400,
      "validation",
    );
    expect(bad.errors!.map((e) => e.pointer)).toEqual(["/startDate"]);
    expect(s.eventCount()).toBe(0);
  });

  test("malformed JSON, non-JSON, arrays and empty bodies are 4xx problems", async () => {
    const s = setup();
    expectProblem(await s.post('{"eventType":'), 400, "malformed-json");
    expectProblem(
      await call(s.app, "POST", INTAKE, {
        token: s.writer,
        body: "eventType=TicketCanceled",
        headers: { "content-type": "text/plain" },
      }),
      415,
      "unsupported-media-type",
    );
    expectProblem(await s.post([examples.TicketCreated]), 400, "validation");
    expectProblem(await call(s.app, "POST", INTAKE, { token: s.writer }), 400, "validation");
    expect(s.eventCount()).toBe(0);
  });
});

describe("authentication on the intake", () => {
  test("Bearer and Basic with tickets:write both work, and the event records who sent it", async () => {
    const s = setup();
    const basic = await s.user("terminal-7", "a long terminal password", "tickets:write");
    expect((await s.post(examples.TicketCreated, { authorization: basic })).status).toBe(200);
    expect((await s.post(examples.TicketUpdated, { token: s.writer })).status).toBe(200);
    const events = (await s.view("100234")).json.data.events;
    expect(events.map((e: { credential: string }) => e.credential)).toEqual([
      "user:terminal-7",
      expect.stringMatching(/^token:/),
    ]);
  });

  test("no or bad credentials: 401 with both challenges; wrong scope: 403; nothing stored", async () => {
    const s = setup();
    const none = await s.post(examples.TicketCreated, {});
    expectProblem(none, 401, "unauthorized");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="parking", Basic realm="parking"');
    expectProblem(await s.post(examples.TicketCreated, { token: "pk_unknown" }), 401, "unauthorized");
    const wrongPw = `Basic ${Buffer.from("terminal-7:nope").toString("base64")}`;
    expectProblem(await s.post(examples.TicketCreated, { authorization: wrongPw }), 401, "unauthorized");
    const reader = s.token("permits:read");
    expectProblem(await s.post(examples.TicketCreated, { token: reader }), 403, "insufficient-scope");
    const readerUser = await s.user("handheld", "another long password", "permits:read");
    expectProblem(
      await s.post(examples.TicketCreated, { authorization: readerUser }),
      403,
      "insufficient-scope",
    );
    expect(s.eventCount()).toBe(0);
    // admin has every scope
    expect((await s.post(examples.TicketCreated, { token: s.admin })).status).toBe(200);
  });

  test("the ticket view needs admin, Bearer only", async () => {
    const s = setup();
    await s.post(examples.TicketCreated);
    expectProblem(await call(s.app, "GET", "/api/v1/tickets/100234"), 401, "unauthorized");
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets/100234", { token: s.writer }),
      403,
      "insufficient-scope",
    );
    const basicAdmin = await s.user("boss", "a long admin password", "admin");
    expectProblem(
      await call(s.app, "GET", "/api/v1/tickets/100234", { authorization: basicAdmin }),
      401,
      "unauthorized",
    );
    expect((await s.view("100234")).status).toBe(200);
  });
});

describe("the ticket view route", () => {
  test("unknown ticket is 404 ticket-not-found", async () => {
    const s = setup();
    expectProblem(await s.view("nope"), 404, "ticket-not-found");
  });

  test("ids with odd characters round-trip", async () => {
    const s = setup();
    expect((await s.post({ ...examples.TicketCreated, ticketId: "A/B 7åö" })).status).toBe(200);
    expect((await s.view("A/B 7åö")).json.data.ticket_id).toBe("A/B 7åö");
  });
});
