import { describe, expect, test } from "bun:test";
import { normalizePlate, plateProblem, ticketIdProblem } from "../../src/domain/plates.ts";
import {
  canonicalEvent,
  decide,
  type TicketEvent,
  type TicketFacts,
  type TicketState,
} from "../../src/domain/tickets/rules.ts";

const facts = (over: Partial<TicketFacts> = {}): TicketFacts => ({
  zone: 12,
  parkingLotId: 3,
  startAt: Date.parse("2026-06-15T08:00:00Z"),
  endAt: null,
  plate: "ABC 123",
  plateNorm: "ABC123",
  amountInclVat: null,
  vatRate: null,
  currencyCode: null,
  ...over,
});

const state = (over: Partial<TicketState> = {}): TicketState => ({
  ticketId: "T1",
  status: "running",
  ...facts(),
  ...over,
});

const withFacts = (
  type: "TicketCreated" | "CreateOrUpdate" | "TicketUpdated" | "TicketStopped",
  f = facts(),
) => ({ type, ticketId: "T1", facts: f }) as TicketEvent;

const move = (from: string, to: string): TicketEvent => ({
  type: "TicketMoved",
  ticketId: "T1",
  from,
  fromNorm: normalizePlate(from),
  to,
  toNorm: normalizePlate(to),
});

const cancel: TicketEvent = { type: "TicketCanceled", ticketId: "T1" };

const refusal = (d: ReturnType<typeof decide>) => {
  if (d.kind !== "reject") throw new Error(`expected a rejection, got ${d.kind}`);
  return { status: d.error.status, kind: d.error.type };
};

describe("TicketCreated", () => {
  test("creates a new ticket", () => {
    expect(decide(null, withFacts("TicketCreated"))).toEqual({ kind: "create", facts: facts() });
  });
  test("same content again is a repeat", () => {
    expect(decide(state(), withFacts("TicketCreated")).kind).toBe("repeat");
  });
  test("different content is 409 ticket-exists", () => {
    const d = decide(state(), withFacts("TicketCreated", facts({ zone: 13 })));
    expect(refusal(d)).toEqual({ status: 409, kind: "ticket-exists" });
  });
  test("a late retry of the original create after an update is still a repeat", () => {
    const current = state({ endAt: Date.parse("2026-06-15T10:00:00Z") });
    expect(decide(current, withFacts("TicketCreated"), () => facts()).kind).toBe("repeat");
    const other = decide(current, withFacts("TicketCreated", facts({ plate: "X" })), () => facts());
    expect(refusal(other).kind).toBe("ticket-exists");
  });
  test("the original create is read only when the current state differs", () => {
    let asked = 0;
    decide(state(), withFacts("TicketCreated"), () => {
      asked++;
      return null;
    });
    expect(asked).toBe(0);
  });
  test("a retried create of a canceled ticket is a repeat, not a change", () => {
    expect(decide(state({ status: "canceled" }), withFacts("TicketCreated")).kind).toBe("repeat");
  });
});

describe("TicketUpdated, TicketStopped, CreateOrUpdate", () => {
  test("update and stop of an unknown ticket are 404; CreateOrUpdate creates", () => {
    expect(refusal(decide(null, withFacts("TicketUpdated")))).toEqual({
      status: 404,
      kind: "ticket-not-found",
    });
    expect(refusal(decide(null, withFacts("TicketStopped")))).toEqual({
      status: 404,
      kind: "ticket-not-found",
    });
    expect(decide(null, withFacts("CreateOrUpdate")).kind).toBe("create");
  });
  test("update replaces facts and keeps the status", () => {
    const f = facts({ endAt: Date.parse("2026-06-15T12:00:00Z"), amountInclVat: 4000 });
    expect(decide(state(), withFacts("TicketUpdated", f))).toEqual({
      kind: "replace",
      facts: f,
      status: "running",
    });
    expect(decide(state({ status: "stopped" }), withFacts("TicketUpdated", f))).toEqual({
      kind: "replace",
      facts: f,
      status: "stopped",
    });
    expect(decide(state(), withFacts("CreateOrUpdate", f))).toEqual({
      kind: "replace",
      facts: f,
      status: "running",
    });
  });
  test("stop marks stopped, even with unchanged facts", () => {
    expect(decide(state(), withFacts("TicketStopped"))).toEqual({
      kind: "replace",
      facts: facts(),
      status: "stopped",
    });
    expect(decide(state({ status: "stopped" }), withFacts("TicketStopped")).kind).toBe("repeat");
  });
  test("the same update again is a repeat", () => {
    expect(decide(state(), withFacts("TicketUpdated")).kind).toBe("repeat");
    expect(decide(state(), withFacts("CreateOrUpdate")).kind).toBe("repeat");
  });
  test("any of them on a canceled ticket is 409 ticket-canceled", () => {
    for (const type of ["TicketUpdated", "TicketStopped", "CreateOrUpdate"] as const)
      expect(refusal(decide(state({ status: "canceled" }), withFacts(type)))).toEqual({
        status: 409,
        kind: "ticket-canceled",
      });
  });
});

describe("TicketMoved", () => {
  test("unknown ticket is 404", () => {
    expect(refusal(decide(null, move("ABC123", "XYZ789"))).kind).toBe("ticket-not-found");
  });
  test("from matching after normalization moves to the new plate as sent", () => {
    expect(decide(state(), move("abc-123", "xyz 789"))).toEqual({
      kind: "move",
      plate: "xyz 789",
      plateNorm: "XYZ789",
    });
  });
  test("to already matching is a retry", () => {
    expect(decide(state({ plate: "XYZ789", plateNorm: "XYZ789" }), move("ABC123", "xyz-789")).kind).toBe(
      "repeat",
    );
  });
  test("neither matching is 409 plate-mismatch", () => {
    expect(refusal(decide(state(), move("QQQ111", "XYZ789")))).toEqual({
      status: 409,
      kind: "plate-mismatch",
    });
  });
  test("on a canceled ticket: a change is 409, a retry is 200", () => {
    expect(refusal(decide(state({ status: "canceled" }), move("ABC123", "XYZ789"))).kind).toBe(
      "ticket-canceled",
    );
    const moved = state({ status: "canceled", plate: "XYZ789", plateNorm: "XYZ789" });
    expect(decide(moved, move("ABC123", "XYZ789")).kind).toBe("repeat");
  });
  test("a move to the same spelling is a repeat", () => {
    expect(decide(state(), move("ABC123", "ABC 123")).kind).toBe("repeat");
  });
});

describe("TicketCanceled", () => {
  test("unknown is 404, first cancel cancels, again is a repeat", () => {
    expect(refusal(decide(null, cancel))).toEqual({ status: 404, kind: "ticket-not-found" });
    expect(decide(state(), cancel).kind).toBe("cancel");
    expect(decide(state({ status: "stopped" }), cancel).kind).toBe("cancel");
    expect(decide(state({ status: "canceled" }), cancel).kind).toBe("repeat");
  });
});

describe("a late retry (an event equal to one already applied)", () => {
  const stopped = state({ status: "stopped", plate: "XYZ789", plateNorm: "XYZ789" });
  test("is a repeat whatever the current state, even on a canceled ticket", () => {
    for (const e of [withFacts("TicketStopped"), withFacts("TicketUpdated"), move("ABC 123", "XYZ789")])
      for (const current of [stopped, state({ status: "canceled" })])
        expect(decide(current, e, undefined, () => true).kind).toBe("repeat");
  });
  test("is asked only when the ticket exists", () => {
    expect(decide(null, withFacts("CreateOrUpdate"), undefined, () => true).kind).toBe("create");
  });
  test("without one, the Stopped would undo the move", () => {
    const d = decide(stopped, withFacts("TicketStopped"), undefined, () => false);
    expect(d).toEqual({ kind: "replace", facts: facts(), status: "stopped" });
  });
});

describe("canonicalEvent", () => {
  test("equal for what reads the same, different for any fact or type", () => {
    const a = withFacts("TicketUpdated");
    expect(canonicalEvent(a)).toBe(canonicalEvent(withFacts("TicketUpdated", facts())));
    expect(canonicalEvent(a)).not.toBe(canonicalEvent(withFacts("TicketStopped")));
    for (const change of [
      { zone: 13 },
      { endAt: 1 },
      { plate: "ABC123" },
      { amountInclVat: 1 },
      { currencyCode: "EUR" },
    ])
      expect(canonicalEvent(a)).not.toBe(canonicalEvent(withFacts("TicketUpdated", facts(change))));
    expect(canonicalEvent(move("A1", "B2"))).not.toBe(canonicalEvent(move("B2", "A1")));
  });
});

describe("plates and ticket ids: invisible and control characters", () => {
  const cases: [string, string, string | null][] = [
    ["zero-width space", "AB\u200B123", null],
    ["soft hyphen", "AB\u00AD123", null],
    ["byte-order mark", "\uFEFFAB123", null],
    ["tab and newline (white space)", "AB\t123\n", null],
    ["NUL", "AB\u0000123", "must not contain control characters"],
    ["ESC", "AB\u001B123", "must not contain control characters"],
    ["C1 control", "AB\u0085123", "must not contain control characters"],
    ["lone surrogate", "AB\uD800", "must not contain control characters"],
    ["only invisible", "\u200B\u200D", "must contain letters or digits"],
  ];
  for (const [what, plate, problem] of cases)
    test(`plate with ${what}: ${problem ?? "accepted"}`, () => {
      expect(plateProblem(plate)).toBe(problem);
      if (problem === null) expect(normalizePlate(plate)).toBe("AB123");
    });
  test("ticket ids refuse control and format characters, keep the rest", () => {
    for (const bad of ["47\u000011", "4711\t", "47\u200B11", "\u202E4711", "47\uDC0011"])
      expect(ticketIdProblem(bad)).not.toBeNull();
    for (const ok of ["4711", "T-4711 A", "ÅÄÖ-1", "票-1"]) expect(ticketIdProblem(ok)).toBeNull();
  });
});

describe("the lot a zone belongs to", () => {
  test.each([
    { zone: 1, lot: 10, what: "one lot has the zone" },
    { zone: 2, lot: null, what: "two lots share it" },
    { zone: 3, lot: null, what: "no lot has it" },
  ])("$what", async ({ zone, lot }) => {
    const { lotOfZone } = await import("../../src/domain/lots/rules.ts");
    const lots = [
      { id: 10, zone_number: 1 },
      { id: 11, zone_number: 2 },
      { id: 12, zone_number: 2 },
    ];
    expect(lotOfZone(lots, zone)).toBe(lot);
  });
});
