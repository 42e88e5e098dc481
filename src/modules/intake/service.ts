import type { Problem } from "../../domain/errors.ts";
import { revenueChange } from "../../domain/reports/revenue.ts";
import {
  canonicalEvent,
  type Decision,
  decide,
  eventLimitReached,
  MAX_EVENTS_PER_TICKET,
  type TicketEvent,
  type TicketFacts,
  type TicketState,
  type TicketStatus,
} from "../../domain/tickets/rules.ts";
import { isStoreUnavailable } from "../../platform/store/connection.ts";
import type { TicketRow } from "../../platform/store/tickets/rows.ts";
import type { IntakeDeps } from "./deps.ts";
import { readTicketEvent } from "./read-event.ts";
import { storedBody } from "./stored-body.ts";

export interface EventSource {
  /** The body exactly as it arrived. */
  raw: string;
  /** credentialLabel() of the sender. */
  credential: string;
}

interface Pending {
  event: TicketEvent;
  /** The parsed body, for the stored form of a body over the stored-body bound. */
  body: unknown;
  source: EventSource;
  done: (error?: unknown) => void;
}

/** Most events committed by one disk sync; more wait for the next commit. */
const MAX_GROUP = 256;
/**
 * How long a group may wait for more events while they keep arriving: the terminals answered by
 * the last commit send their next events within a turn or two of the event loop, and one disk sync
 * for all of them beats one for each part (on the bench, groups grew from 33 to ~48 of 50
 * connections). A lone event waits one turn.
 */
const GATHER_TURNS = 16;
const GATHER_MS = 1;
/**
 * Groups committed and waiting for the disk at once. The store syncs one at a time (WalSync), so
 * a second group is committed while the first syncs and is synced right after it: the commit's
 * own work (its writes to the WAL) overlaps the disk's instead of following it. A third would
 * only wait for the same syncs; measured on the bench's intake, two gave 8-10 % more events a
 * second than one, three less than two.
 */
const GROUPS_IN_FLIGHT = 2;

/**
 * Stores ticket events. Each event and its ticket change succeed or vanish together (see
 * commitFast and commitGroup); events that arrive while the store is busy share one
 * commit (group commit), because the disk sync, not SQLite, is what limits intake. The sync runs
 * off the event loop (Store.unsynced, then synced): nobody is answered before the disk holds
 * their event, and lookups and the next group go on while it syncs.
 */
export class TicketIntake {
  private readonly commitFast;
  private readonly applyOne;
  private readonly commitGroup;
  private queue: Pending[] = [];
  private gathering = false;
  /** Committed groups waiting for the disk; at GROUPS_IN_FLIGHT the next group gathers. */
  private syncing = 0;

  constructor(private readonly ctx: IntakeDeps) {
    const store = ctx.store;
    // The usual way: the group's events one after another in one transaction. A refused event is
    // refused before it writes anything, so no event needs a savepoint of its own here.
    this.commitFast = store.transaction((group: Pending[]) => group.map((p) => this.apply(p)));
    // When a statement fails in the middle of an event (rare), that attempt is rolled back whole
    // and the group is redone this way: each event in its own savepoint (bun:sqlite runs a nested
    // transaction as one, rolled back on throw), so only the failing event is lost.
    this.applyOne = store.transaction((p: Pending) => this.apply(p));
    this.commitGroup = store.transaction((group: Pending[]) => {
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
   * Validates an intake event and resolves once it is committed, or rejects with the refusal
   * that refused it. Events are applied in arrival order.
   */
  receive(body: unknown, source: EventSource): Promise<void> {
    const event = readTicketEvent(body, this.ctx.config.timezone);
    return new Promise((resolve, reject) => {
      this.queue.push({ event, body, source, done: (e) => (e === undefined ? resolve() : reject(e)) });
      if (!this.gathering) this.gather();
    });
  }

  /** Commits the waiting events once no more arrive within a turn of the loop (or the bounds). */
  private gather(): void {
    this.gathering = true;
    const since = performance.now();
    let seen = 0;
    let turns = 0;
    const turn = () => {
      const n = this.queue.length;
      if (n > seen && n < MAX_GROUP && turns < GATHER_TURNS && performance.now() - since < GATHER_MS) {
        seen = n;
        turns++;
        setImmediate(turn);
        return;
      }
      this.gathering = false;
      this.flush();
    };
    setImmediate(turn);
  }

  private flush(): void {
    // Events that arrive while GROUPS_IN_FLIGHT groups wait for the disk make the next group,
    // committed once a sync is done, so a busy intake commits about as often as the disk syncs.
    if (this.syncing >= GROUPS_IN_FLIGHT) return;
    const group = this.queue.splice(0, MAX_GROUP);
    if (group.length === 0) return;
    if (this.queue.length > 0) this.gather();
    const store = this.ctx.store;
    let outcomes: unknown[];
    try {
      // IMMEDIATE: take the write lock up front, so a CLI write cannot make us fail mid-way.
      outcomes = store.unsynced(() => this.commitFast.immediate(group));
    } catch (first) {
      try {
        // A store that cannot write fails the whole group: none of it is acknowledged.
        if (isStoreUnavailable(first)) throw first;
        outcomes = store.unsynced(() => this.commitGroup.immediate(group));
      } catch (e) {
        for (const p of group) p.done(e);
        return;
      }
    }
    // Answered once the group is on the disk; the event loop serves other requests meanwhile.
    this.syncing++;
    const answer = (error?: unknown) => {
      this.syncing--;
      group.forEach((p, i) => {
        if (error === undefined && outcomes[i] === undefined)
          this.ctx.metrics.ticketEvent(p.event.type, p.source.credential, this.ctx.now());
        p.done(error ?? outcomes[i]);
      });
      if (!this.gathering) this.flush();
    };
    store.synced().then(() => answer(), answer);
  }

  /** Stores the event and its change, or answers the refusal, having written nothing. */
  private apply({ event, body, source }: Pending): Problem | undefined {
    const tickets = this.ctx.store.tickets;
    const now = this.ctx.now();
    const ticketId = event.ticketId;
    const current = tickets.state(ticketId);
    if (current && tickets.eventCount(ticketId) >= MAX_EVENTS_PER_TICKET) return eventLimitReached(ticketId);
    const canonical = canonicalEvent(event);
    const decision = decide(
      current,
      event,
      () => this.createdFacts(ticketId),
      () => tickets.appliedBefore(ticketId, canonical),
    );
    if (decision.kind === "reject") return decision.error;
    // Before the write: a book built now from the tickets must not already hold this change.
    const { timezone, currency } = this.ctx.config;
    this.ctx.store.reports.revenue.ensureBasis(timezone, currency, now);
    this.write(ticketId, decision, now);
    this.bookRevenue(current, decision);
    tickets.appendEvent({
      ticketId,
      eventType: event.type,
      receivedAt: now,
      credential: source.credential,
      ...storedBody(source.raw, event.type, body),
      canonical,
      outcome: decision.kind === "repeat" ? "repeat" : "applied",
    });
    return undefined;
  }

  private write(ticketId: string, d: Exclude<Decision, { kind: "reject" }>, now: number): void {
    const tickets = this.ctx.store.tickets;
    switch (d.kind) {
      case "create":
        tickets.insert(this.row(ticketId, d.facts, "running", now));
        return;
      case "replace":
        tickets.replace(this.row(ticketId, d.facts, d.status, now));
        return;
      case "move":
        tickets.move(ticketId, d.plate, d.plateNorm, now);
        return;
      case "cancel":
        tickets.cancel(ticketId, now);
        return;
      case "repeat":
        return;
    }
  }

  /**
   * The revenue book moves with the ticket, in the same transaction: two upserts at most, on a
   * small table, where reading a month of tickets back for a report would cost a scan (docs/reports.md).
   */
  private bookRevenue(current: TicketState | null, d: Exclude<Decision, { kind: "reject" }>): void {
    if (d.kind === "move" || d.kind === "repeat") return;
    const { timezone, currency } = this.ctx.config;
    const after =
      d.kind === "cancel"
        ? current && { ...current, status: "canceled" as const }
        : { ...d.facts, status: d.kind === "create" ? ("running" as const) : d.status };
    const change = revenueChange(current, after, timezone, currency);
    if (change.length > 0) this.ctx.store.reports.revenue.book(change);
  }

  /** An unknown lot is accepted on a ticket, but flagged. */
  private row(ticketId: string, f: TicketFacts, status: TicketStatus, now: number): TicketRow {
    return {
      ticketId,
      zone: f.zone,
      parkingLotId: f.parkingLotId,
      lotUnknown: f.parkingLotId !== null && !this.ctx.store.lots.exists(f.parkingLotId),
      startAt: f.startAt,
      endAt: f.endAt,
      plate: f.plate,
      plateNorm: f.plateNorm,
      amountInclVat: f.amountInclVat,
      vatRate: f.vatRate,
      currencyCode: f.currencyCode,
      status,
      at: now,
    };
  }

  /** The facts of the event that created the ticket; read only when a TicketCreated differs. */
  private createdFacts(ticketId: string): TicketFacts | null {
    const raw = this.ctx.store.tickets.createdBody(ticketId);
    if (raw === null) return null;
    try {
      const event = readTicketEvent(JSON.parse(raw), this.ctx.config.timezone);
      return "facts" in event ? event.facts : null;
    } catch {
      return null;
    }
  }
}
