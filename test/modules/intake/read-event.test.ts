import { describe, expect, test } from "bun:test";
import { Problem } from "../../../src/domain/errors.ts";
import { normalizePlate } from "../../../src/domain/plates.ts";
import { parseAmount, readTicketEvent } from "../../../src/modules/intake/read-event.ts";

const TZ = "Europe/Stockholm";

const created = (over: Record<string, unknown> = {}) => ({
  eventType: "TicketCreated",
  ticketId: "T1",
  zoneCode: "12",
  parkingLotId: "3",
  startDate: "2026-06-15T10:00:00+02:00",
  endDate: "2026-06-15T12:00:00+02:00",
  licenseNumber: "ABC123",
  ticketCost: { amountInclVat: 1250, vatRate: 25, currencyCode: "SEK" },
  ...over,
});

function failures(body: unknown): Record<string, string> {
  try {
    readTicketEvent(body, TZ);
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    expect(e.status).toBe(400);
    expect(e.type).toBe("validation");
    return Object.fromEntries((e.errors ?? []).map((x) => [x.pointer, x.message]));
  }
  throw new Error("expected a validation failure");
}

describe("parseAmount (CreateOrUpdate's amountInclVat)", () => {
  test("ints are cents; decimal-comma strings are units", () => {
    expect(parseAmount(1250)).toBe(1250);
    expect(parseAmount("12,50")).toBe(1250);
    expect(parseAmount("12")).toBe(1200);
    expect(parseAmount("0,05")).toBe(5);
    expect(parseAmount("12,5")).toBe(1250);
    expect(parseAmount("0")).toBe(0);
    expect(parseAmount("1234567,89")).toBe(123456789);
  });
  test("anything else is refused", () => {
    for (const bad of [
      "12,5,0",
      "abc",
      "-12",
      "-1,00",
      "12.50",
      "",
      ",50",
      "12,",
      "12,500",
      " 12",
      "1 000,00",
    ])
      expect(parseAmount(bad)).toBeNull();
    expect(parseAmount(-1)).toBeNull();
    expect(parseAmount(1.5)).toBeNull();
  });
});

describe("normalizePlate", () => {
  test("case, spaces, hyphens and dots do not matter; Å Ä Ö stay", () => {
    expect(normalizePlate("ab-123 ")).toBe("AB123");
    expect(normalizePlate("a.b c-1 2 3")).toBe("ABC123");
    expect(normalizePlate("åäö 12")).toBe("ÅÄÖ12");
    expect(normalizePlate("ＡＢＣ１２３")).toBe("ABC123");
  });
});

describe("readTicketEvent", () => {
  test("digit strings and numbers become ints; ticketId is text; dates are instants", () => {
    const e = readTicketEvent(created({ ticketId: 4711 }), TZ);
    expect(e).toEqual({
      type: "TicketCreated",
      ticketId: "4711",
      facts: {
        zone: 12,
        parkingLotId: 3,
        startAt: Date.parse("2026-06-15T08:00:00Z"),
        endAt: Date.parse("2026-06-15T10:00:00Z"),
        plate: "ABC123",
        plateNorm: "ABC123",
        amountInclVat: 1250,
        vatRate: 25,
        currencyCode: "SEK",
      },
    });
  });
  test("a date without an offset is site time; Z is UTC", () => {
    const e = readTicketEvent(
      created({ startDate: "2026-01-15T10:00:00", endDate: "2026-01-15T10:00:00Z" }),
      TZ,
    );
    if (!("facts" in e)) throw new Error("no facts");
    expect(e.facts.startAt).toBe(Date.parse("2026-01-15T09:00:00Z"));
    expect(e.facts.endAt).toBe(Date.parse("2026-01-15T10:00:00Z"));
  });
  test("CreateOrUpdate reads a decimal-comma amount; TicketCreated reads digit strings as cents", () => {
    const cou = readTicketEvent(
      created({
        eventType: "CreateOrUpdate",
        ticketCost: { amountInclVat: "12,50", vatRate: "25", currencyCode: "SEK" },
      }),
      TZ,
    );
    expect("facts" in cou && cou.facts.amountInclVat).toBe(1250);
    const tc = readTicketEvent(
      created({ ticketCost: { amountInclVat: "1250", vatRate: null, currencyCode: null } }),
      TZ,
    );
    expect("facts" in tc && tc.facts.amountInclVat).toBe(1250);
    expect(failures(created({ ticketCost: { amountInclVat: "12,50" } }))).toHaveProperty([
      "/ticketCost/amountInclVat",
    ]);
    for (const bad of ["12,5,0", "abc", "-12"])
      expect(
        failures(created({ eventType: "CreateOrUpdate", ticketCost: { amountInclVat: bad } })),
      ).toHaveProperty(["/ticketCost/amountInclVat"]);
    expect(
      failures(created({ eventType: "CreateOrUpdate", ticketCost: { amountInclVat: -5 } })),
    ).toHaveProperty(["/ticketCost/amountInclVat"]);
  });
  test("nullable fields may be null or absent on create", () => {
    const e = readTicketEvent(
      created({ parkingLotId: null, endDate: undefined, ticketCost: { amountInclVat: null, vatRate: null } }),
      TZ,
    );
    expect("facts" in e && e.facts).toMatchObject({
      parkingLotId: null,
      endAt: null,
      amountInclVat: null,
      vatRate: null,
      currencyCode: null,
    });
  });
  test("unknown or missing eventType names the allowed values", () => {
    for (const body of [created({ eventType: "TicketDeleted" }), created({ eventType: undefined }), {}]) {
      const f = failures(body);
      expect(f["/eventType"]).toContain(
        "TicketCreated, TicketUpdated, TicketStopped, TicketMoved, TicketCanceled, CreateOrUpdate",
      );
    }
  });
  test("a body that is not an object is refused", () => {
    expect(failures([created()])).toHaveProperty([""]);
    expect(failures("TicketCreated")).toHaveProperty([""]);
    expect(failures(null)).toHaveProperty([""]);
  });
  test("every failing field is listed at once", () => {
    const f = failures(
      created({
        ticketId: "",
        zoneCode: "12a",
        startDate: "yesterday",
        endDate: "2026-13-01T00:00:00Z",
        licenseNumber: " - ",
        ticketCost: { amountInclVat: 1.5, vatRate: 101, currencyCode: 7 },
      }),
    );
    expect(Object.keys(f).sort()).toEqual([
      "/endDate",
      "/licenseNumber",
      "/startDate",
      "/ticketCost/amountInclVat",
      "/ticketCost/currencyCode",
      "/ticketCost/vatRate",
      "/ticketId",
      "/zoneCode",
    ]);
  });
  test("endDate before startDate is refused; equal is fine", () => {
    expect(failures(created({ endDate: "2026-06-15T07:59:59Z" }))["/endDate"]).toContain("before startDate");
    expect(() => readTicketEvent(created({ endDate: "2026-06-15T08:00:00Z" }), TZ)).not.toThrow();
  });
  test("TicketMoved needs both plates; plates that normalize to nothing are refused", () => {
    const e = readTicketEvent(
      { eventType: "TicketMoved", ticketId: 7, fromLicenseNumber: "abc-123", toLicenseNumber: "XYZ 789" },
      TZ,
    );
    expect(e).toEqual({
      type: "TicketMoved",
      ticketId: "7",
      from: "abc-123",
      fromNorm: "ABC123",
      to: "XYZ 789",
      toNorm: "XYZ789",
    });
    expect(
      Object.keys(failures({ eventType: "TicketMoved", ticketId: "7", toLicenseNumber: "--" })).sort(),
    ).toEqual(["/fromLicenseNumber", "/toLicenseNumber"]);
  });
  test("TicketCanceled needs only the ticketId", () => {
    expect(readTicketEvent({ eventType: "TicketCanceled", ticketId: "T1", note: "x" }, TZ)).toEqual({
      type: "TicketCanceled",
      ticketId: "T1",
    });
    expect(failures({ eventType: "TicketCanceled" })["/ticketId"]).toContain("required");
    expect(failures({ eventType: "TicketCanceled", ticketId: null })["/ticketId"]).toContain("null");
  });
});

describe("the intake body for OpenAPI", () => {
  test("is a oneOf of the six schemas, discriminated by eventType", async () => {
    const { TicketEventBody, TicketEventBodies, EVENT_TYPES } = await import(
      "../../../src/modules/intake/model.ts"
    );
    const doc = JSON.parse(JSON.stringify(TicketEventBody));
    expect(doc.oneOf).toHaveLength(6);
    expect(doc.discriminator).toEqual({
      propertyName: "eventType",
      mapping: Object.fromEntries(EVENT_TYPES.map((e) => [e, `#/components/schemas/${e}`])),
    });
    expect(
      doc.oneOf.map((s: { properties: { eventType: { const: string } } }) => s.properties.eventType.const),
    ).toEqual([...EVENT_TYPES]);
    expect(doc.oneOf[0]).toEqual(JSON.parse(JSON.stringify(TicketEventBodies.TicketCreated)));
  });
});
