import type { Database } from "bun:sqlite";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { isStoreUnavailable } from "../http/errors.ts";
import { problems } from "../http/problem.ts";
import { ticketEvents, tickets } from "../store/schema/index.ts";
import { formatMicros } from "../time/zoned.ts";
import type { TicketView } from "./model.ts";
import { type Decision, decide, type TicketEvent, type TicketFacts, type TicketState } from "./rules.ts";
import { readTicketEvent } from "./validate.ts";

const p = sql.placeholder;
/** update().set() takes placeholders only inside sql``. */
const v = (name: string) => sql`${sql.placeholder(name)}`;

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
 * Stores ticket events. Each event is applied in its own savepoint, so it and its ticket
 * change succeed or vanish together; events that arrive while the store is busy share one
 * commit (group commit), because with synchronous=FULL the disk sync, not SQLite, is what
 * limits intake. Nobody is answered before the commit that holds their event.
 */
export class TicketService {
  private readonly lotKnown: (id: number) => boolean;
  private readonly q;
  private readonly applyOne;
  private readonly commitGroup;
  private queue: Pending[] = [];

  constructor(private readonly ctx: AppContext) {
    const db = ctx.store.db;
    this.lotKnown = lotLookup(ctx.store.sqlite);
    const byId = eq(tickets.ticketId, p("ticketId"));
    const facts = {
      zone: v("zone"),
      parkingLotId: v("parkingLotId"),
      lotUnknown: v("lotUnknown"),
      startAt: v("startAt"),
      endAt: v("endAt"),
      plate: v("plate"),
      plateNorm: v("plateNorm"),
      amountInclVat: v("amountInclVat"),
      vatRate: v("vatRate"),
      currencyCode: v("currencyCode"),
      status: v("status"),
      updatedAt: v("now"),
    };
    this.q = {
      ticket: db.select().from(tickets).where(byId).prepare(),
      insert: db
        .insert(tickets)
        .values({ ...facts, ticketId: v("ticketId"), createdAt: v("now") })
        .prepare(),
      replace: db.update(tickets).set(facts).where(byId).prepare(),
      move: db
        .update(tickets)
        .set({ plate: v("plate"), plateNorm: v("plateNorm"), updatedAt: v("now") })
        .where(byId)
        .prepare(),
      cancel: db
        .update(tickets)
        .set({ status: "canceled", canceledAt: v("now"), updatedAt: v("now") })
        .where(byId)
        .prepare(),
      appendEvent: db
        .insert(ticketEvents)
        .values({
          ticketId: p("ticketId"),
          eventType: p("eventType"),
          receivedAt: p("now"),
          credential: p("credential"),
          rawBody: p("rawBody"),
          outcome: p("outcome"),
        })
        .prepare(),
      events: db
        .select()
        .from(ticketEvents)
        .where(eq(ticketEvents.ticketId, p("ticketId")))
        .orderBy(asc(ticketEvents.seq))
        .prepare(),
      firstApplied: db
        .select({ rawBody: ticketEvents.rawBody })
        .from(ticketEvents)
        .where(and(eq(ticketEvents.ticketId, p("ticketId")), eq(ticketEvents.outcome, "applied")))
        .orderBy(asc(ticketEvents.seq))
        .limit(1)
        .prepare(),
    };
    const sqlite = ctx.store.sqlite;
    // Called inside commitGroup, bun:sqlite runs this as a SAVEPOINT and rolls it back on throw.
    this.applyOne = sqlite.transaction((p: Pending) => this.apply(p.event, p.source));
    this.commitGroup = sqlite.transaction((group: Pending[]) => {
      const outcomes: unknown[] = [];
      for (const p of group) {
        try {
          this.applyOne(p);
          outcomes.push(undefined);
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
      outcomes = this.commitGroup.immediate(group);
    } catch (e) {
      for (const p of group) p.done(e);
      return;
    }
    group.forEach((p, i) => {
      if (outcomes[i] === undefined) this.ctx.metrics.ticketEvent(p.event.type);
      p.done(outcomes[i]);
    });
  }

  private apply(event: TicketEvent, source: EventSource): void {
    const now = this.ctx.now();
    const ticketId = event.ticketId;
    const current = (this.q.ticket.get({ ticketId }) as TicketState | undefined) ?? null;
    const decision = decide(current, event, () => this.createdFacts(ticketId));
    if (decision.kind === "reject") throw decision.problem;
    this.write(ticketId, decision, now);
    this.q.appendEvent.run({
      ticketId,
      eventType: event.type,
      now,
      credential: source.credential,
      rawBody: source.raw,
      outcome: decision.kind === "repeat" ? "repeat" : "applied",
    });
  }

  private write(ticketId: string, d: Exclude<Decision, { kind: "reject" }>, now: number): void {
    switch (d.kind) {
      case "create":
        this.q.insert.run({ ...this.factParams(d.facts), ticketId, status: "running", now });
        return;
      case "replace":
        this.q.replace.run({ ...this.factParams(d.facts), ticketId, status: d.status, now });
        return;
      case "move":
        this.q.move.run({ ticketId, plate: d.plate, plateNorm: d.plateNorm, now });
        return;
      case "cancel":
        this.q.cancel.run({ ticketId, now });
        return;
      case "repeat":
        return;
    }
  }

  private factParams(f: TicketFacts) {
    const lotUnknown = f.parkingLotId !== null && !this.lotKnown(f.parkingLotId);
    return { ...f, lotUnknown: lotUnknown ? 1 : 0 };
  }

  /** The facts of the event that created the ticket; read only when a TicketCreated differs. */
  private createdFacts(ticketId: string): TicketFacts | null {
    const row = this.q.firstApplied.get({ ticketId });
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
