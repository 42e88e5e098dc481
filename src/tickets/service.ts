import type { Database } from "bun:sqlite";
import { asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { isStoreUnavailable } from "../http/errors.ts";
import { type Problem, problems } from "../http/problem.ts";
import { ticketEvents, tickets } from "../store/schema/index.ts";
import { formatMicros } from "../time/zoned.ts";
import type { TicketView } from "./model.ts";
import {
  type Decision,
  decide,
  type TicketEvent,
  type TicketFacts,
  type TicketState,
  type TicketStatus,
} from "./rules.ts";
import { readTicketEvent } from "./validate.ts";

const p = sql.placeholder;

/** ticket_id, the facts in column order, lot_unknown after the lot, status, now. */
type FactRow = [
  string,
  number,
  number | null,
  number,
  number,
  number | null,
  string,
  string,
  number | null,
  number | null,
  string | null,
  TicketStatus,
  number,
];

/** Whether a parking lot id names a lot: an unknown lot is accepted on a ticket, but flagged. */
export function lotLookup(sqlite: Database): (id: number) => boolean {
  const q = sqlite.query<{ one: number }, [number]>("SELECT 1 AS one FROM parking_lots WHERE id = ?1");
  return (id) => q.get(id) !== null;
}

export interface EventSource {
  /** The body exactly as it arrived. */
  raw: string;
  /** credentialLabel() of the sender. */
  credential: string;
}

interface Pending {
  event: TicketEvent;
  source: EventSource;
  done: (error?: unknown) => void;
}

/** Most events committed by one disk sync; more wait for the next commit. */
const MAX_GROUP = 256;

/**
 * Stores ticket events. Each event and its ticket change succeed or vanish together (see
 * commitFast and commitGroup); events that arrive while the store is busy share one
 * commit (group commit), because with synchronous=FULL the disk sync, not SQLite, is what
 * limits intake. Nobody is answered before the commit that holds their event.
 */
export class TicketService {
  private readonly lotKnown: (id: number) => boolean;
  private readonly q;
  private readonly hot;
  private readonly commitFast;
  private readonly applyOne;
  private readonly commitGroup;
  private queue: Pending[] = [];
  /** Zones the group being committed writes to, for the live zone feed (ctx.zoneChanges). */
  private touched = new Set<number>();

  constructor(private readonly ctx: AppContext) {
    const db = ctx.store.db;
    const sqlite = ctx.store.sqlite;
    this.lotKnown = lotLookup(sqlite);
    this.q = {
      // The operator's view: drizzle, typed rows.
      ticket: db
        .select()
        .from(tickets)
        .where(eq(tickets.ticketId, p("ticketId")))
        .prepare(),
      events: db
        .select()
        .from(ticketEvents)
        .where(eq(ticketEvents.ticketId, p("ticketId")))
        .orderBy(asc(ticketEvents.seq))
        .prepare(),
    };
    // The intake runs these for every event: plain statements with positional parameters,
    // without drizzle's per-call parameter building and row mapping.
    this.hot = {
      current: sqlite.prepare<TicketState, [string]>(
        `SELECT ticket_id AS ticketId, zone, parking_lot_id AS parkingLotId, start_at AS startAt,
           end_at AS endAt, plate, plate_norm AS plateNorm, amount_incl_vat AS amountInclVat,
           vat_rate AS vatRate, currency_code AS currencyCode, status
         FROM tickets WHERE ticket_id = ?1`,
      ),
      insert: sqlite.prepare<void, FactRow>(
        `INSERT INTO tickets (ticket_id, zone, parking_lot_id, lot_unknown, start_at, end_at, plate,
           plate_norm, amount_incl_vat, vat_rate, currency_code, status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)`,
      ),
      replace: sqlite.prepare<void, FactRow>(
        `UPDATE tickets SET zone = ?2, parking_lot_id = ?3, lot_unknown = ?4, start_at = ?5, end_at = ?6,
           plate = ?7, plate_norm = ?8, amount_incl_vat = ?9, vat_rate = ?10, currency_code = ?11,
           status = ?12, updated_at = ?13
         WHERE ticket_id = ?1`,
      ),
      move: sqlite.prepare<void, [string, string, string, number]>(
        "UPDATE tickets SET plate = ?2, plate_norm = ?3, updated_at = ?4 WHERE ticket_id = ?1",
      ),
      cancel: sqlite.prepare<void, [string, number]>(
        "UPDATE tickets SET status = 'canceled', canceled_at = ?2, updated_at = ?2 WHERE ticket_id = ?1",
      ),
      appendEvent: sqlite.prepare<void, [string, string, number, string, string, string]>(
        `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
      ),
      firstApplied: sqlite.prepare<{ rawBody: string }, [string]>(
        `SELECT raw_body AS rawBody FROM ticket_events
         WHERE ticket_id = ?1 AND outcome = 'applied' ORDER BY seq LIMIT 1`,
      ),
    };
    // The usual way: the group's events one after another in one transaction. A refused event is
    // refused before it writes anything, so no event needs a savepoint of its own here.
    this.commitFast = sqlite.transaction((group: Pending[]) =>
      group.map((p) => this.apply(p.event, p.source)),
    );
    // When a statement fails in the middle of an event (rare), that attempt is rolled back whole
    // and the group is redone this way: each event in its own savepoint (bun:sqlite runs a nested
    // transaction as one, rolled back on throw), so only the failing event is lost.
    this.applyOne = sqlite.transaction((p: Pending) => this.apply(p.event, p.source));
    this.commitGroup = sqlite.transaction((group: Pending[]) => {
      const outcomes: unknown[] = [];
      for (const p of group) {
        try {
          outcomes.push(this.applyOne(p));
        } catch (e) {
          // A store that cannot write fails the whole group: none of it is acknowledged.
          if (isStoreUnavailable(e)) throw e;
          outcomes.push(e ?? new Error("event failed"));
        }
      }
      return outcomes;
    });
  }

  /**
   * Validates an intake event and resolves once it is committed, or rejects with the Problem
   * that refused it. Events are applied in arrival order.
   */
  receive(body: unknown, source: EventSource): Promise<void> {
    const event = readTicketEvent(body, this.ctx.config.timezone);
    return new Promise((resolve, reject) => {
      this.queue.push({ event, source, done: (e) => (e === undefined ? resolve() : reject(e)) });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.queue.splice(0, MAX_GROUP);
    if (this.queue.length > 0) setImmediate(() => this.flush());
    let outcomes: unknown[];
    try {
      // IMMEDIATE: take the write lock up front, so a CLI write cannot make us fail mid-way.
      outcomes = this.commitFast.immediate(group);
    } catch (first) {
      try {
        // A store that cannot write fails the whole group: none of it is acknowledged.
        if (isStoreUnavailable(first)) throw first;
        outcomes = this.commitGroup.immediate(group);
      } catch (e) {
        this.touched.clear();
        for (const p of group) p.done(e);
        return;
      }
    }
    this.ctx.zoneChanges.changed(this.touched);
    this.touched.clear();
    group.forEach((p, i) => {
      if (outcomes[i] === undefined) this.ctx.metrics.ticketEvent(p.event.type);
      p.done(outcomes[i]);
    });
  }

  /** Stores the event and its change, or answers the Problem that refuses it, having written nothing. */
  private apply(event: TicketEvent, source: EventSource): Problem | undefined {
    const now = this.ctx.now();
    const ticketId = event.ticketId;
    const current = this.hot.current.get(ticketId);
    const decision = decide(current, event, () => this.createdFacts(ticketId));
    if (decision.kind === "reject") return decision.problem;
    this.write(ticketId, decision, now);
    if (current) this.touched.add(current.zone);
    if ("facts" in decision) this.touched.add(decision.facts.zone);
    this.hot.appendEvent.run(
      ticketId,
      event.type,
      now,
      source.credential,
      source.raw,
      decision.kind === "repeat" ? "repeat" : "applied",
    );
    return undefined;
  }

  private write(ticketId: string, d: Exclude<Decision, { kind: "reject" }>, now: number): void {
    switch (d.kind) {
      case "create":
        this.hot.insert.run(...this.factRow(ticketId, d.facts, "running", now));
        return;
      case "replace":
        this.hot.replace.run(...this.factRow(ticketId, d.facts, d.status, now));
        return;
      case "move":
        this.hot.move.run(ticketId, d.plate, d.plateNorm, now);
        return;
      case "cancel":
        this.hot.cancel.run(ticketId, now);
        return;
      case "repeat":
        return;
    }
  }

  private factRow(ticketId: string, f: TicketFacts, status: TicketStatus, now: number): FactRow {
    const lotUnknown = f.parkingLotId !== null && !this.lotKnown(f.parkingLotId) ? 1 : 0;
    return [
      ticketId,
      f.zone,
      f.parkingLotId,
      lotUnknown,
      f.startAt,
      f.endAt,
      f.plate,
      f.plateNorm,
      f.amountInclVat,
      f.vatRate,
      f.currencyCode,
      status,
      now,
    ];
  }

  /** The facts of the event that created the ticket; read only when a TicketCreated differs. */
  private createdFacts(ticketId: string): TicketFacts | null {
    const row = this.hot.firstApplied.get(ticketId);
    if (!row) return null;
    try {
      const event = readTicketEvent(JSON.parse(row.rawBody), this.ctx.config.timezone);
      return "facts" in event ? event.facts : null;
    } catch {
      return null;
    }
  }

  /** The ticket as stored now, with every event received for it (oldest first). */
  view(ticketId: string): TicketView["data"] {
    const t = this.q.ticket.get({ ticketId });
    if (!t)
      throw problems.notFound("ticket-not-found", "Ticket not found", `No ticket has ticketId "${ticketId}"`);
    const events = this.q.events.all({ ticketId }).map((e) => ({
      seq: e.seq,
      eventType: e.eventType,
      receivedAt: formatMicros(e.receivedAt),
      credential: e.credential,
      outcome: e.outcome,
      body: parseStored(e.rawBody),
    }));
    return {
      ticketId: t.ticketId,
      status: t.status,
      zone: t.zone,
      parkingLotId: t.parkingLotId,
      lotUnknown: t.lotUnknown,
      startAt: formatMicros(t.startAt),
      endAt: t.endAt === null ? null : formatMicros(t.endAt),
      licenseNumber: t.plate,
      plateNormalized: t.plateNorm,
      ticketCost: { amountInclVat: t.amountInclVat, vatRate: t.vatRate, currencyCode: t.currencyCode },
      createdAt: formatMicros(t.createdAt),
      updatedAt: formatMicros(t.updatedAt),
      canceledAt: t.canceledAt === null ? null : formatMicros(t.canceledAt),
      events,
    };
  }
}

/** Stored bodies were valid JSON when they arrived; show them as JSON, or as text if not. */
function parseStored(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
