import { and, eq, gt, isNull, lte, ne, sql } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import type { Db } from "../store/db.ts";
import { permits, tickets } from "../store/schema/index.ts";
import { formatMicros } from "../time/zoned.ts";
import {
  isActive,
  isListed,
  type Listed,
  newestFirst,
  ticketNote,
  uniqueSortedPlates,
  WallClock,
  type WindowSpan,
  windowSpans,
} from "./activity.ts";
import { LotNames } from "./lot-names.ts";
import type { ExtendedInformation } from "./model.ts";

/** A ticket or an operator permit, in the one shape both lookups work on. */
interface Candidate extends Listed {
  plate: string;
  zone: number;
  note: string;
  windows: WindowSpan[] | null;
}

const ticketColumns = {
  ticketId: tickets.ticketId,
  zone: tickets.zone,
  parkingLotId: tickets.parkingLotId,
  startAt: tickets.startAt,
  endAt: tickets.endAt,
  plate: tickets.plate,
  plateNorm: tickets.plateNorm,
  status: tickets.status,
  updatedAt: tickets.updatedAt,
};
type TicketRow = {
  ticketId: string;
  zone: number;
  parkingLotId: number | null;
  startAt: number;
  endAt: number | null;
  plate: string;
  plateNorm: string;
  status: "running" | "stopped" | "canceled";
  updatedAt: number;
};

const permitColumns = {
  id: permits.id,
  zone: permits.zone,
  startAt: permits.startAt,
  endAt: permits.endAt,
  plate: permits.plate,
  plateNorm: permits.plateNorm,
  note: permits.note,
  days: permits.days,
};
type PermitRow = {
  id: number;
  zone: number;
  startAt: number;
  endAt: number | null;
  plate: string;
  plateNorm: string;
  note: string;
  days: { weekday: number; start_time: string; end_time: string }[] | null;
};

const now = sql.placeholder("now");
const cutoff = sql.placeholder("cutoff");

/**
 * The attendant's queries, each served from an index: by plate on (plate_norm, start_at), by zone
 * on (zone, end_at) as two range scans (ended after the cutoff, and open-ended), because an OR of
 * the two would scan the zone's whole history. Exported so a test can check the query plans.
 */
export function lookupQueries(db: Db) {
  const liveTicket = and(lte(tickets.startAt, now), ne(tickets.status, "canceled"));
  const ticketEnd = sql`(${tickets.endAt} IS NULL OR ${tickets.endAt} > ${cutoff})`;
  const permitEnd = sql`(${permits.endAt} IS NULL OR ${permits.endAt} > ${cutoff})`;
  return {
    ticketsByPlate: db
      .select(ticketColumns)
      .from(tickets)
      .where(and(eq(tickets.plateNorm, sql.placeholder("plate")), liveTicket, ticketEnd)),
    ticketsInZoneEnding: db
      .select(ticketColumns)
      .from(tickets)
      .where(and(eq(tickets.zone, sql.placeholder("zone")), gt(tickets.endAt, cutoff), liveTicket)),
    ticketsInZoneOpen: db
      .select(ticketColumns)
      .from(tickets)
      .where(and(eq(tickets.zone, sql.placeholder("zone")), isNull(tickets.endAt), liveTicket)),
    permitsByPlate: db
      .select(permitColumns)
      .from(permits)
      .where(and(eq(permits.plateNorm, sql.placeholder("plate")), lte(permits.startAt, now), permitEnd)),
    permitsInZoneEnding: db
      .select(permitColumns)
      .from(permits)
      .where(
        and(eq(permits.zone, sql.placeholder("zone")), gt(permits.endAt, cutoff), lte(permits.startAt, now)),
      ),
    permitsInZoneOpen: db
      .select(permitColumns)
      .from(permits)
      .where(
        and(eq(permits.zone, sql.placeholder("zone")), isNull(permits.endAt), lte(permits.startAt, now)),
      ),
  };
}

/** check-tickets and the zone list; the queries are prepared once. */
export class PermitLookups {
  private readonly ctx: AppContext;
  private readonly lots: LotNames;
  private readonly q;

  constructor(ctx: AppContext) {
    this.ctx = ctx;
    this.lots = new LotNames(ctx.store);
    const b = lookupQueries(ctx.store.db);
    this.q = {
      ticketsByPlate: b.ticketsByPlate.prepare(),
      ticketsInZoneEnding: b.ticketsInZoneEnding.prepare(),
      ticketsInZoneOpen: b.ticketsInZoneOpen.prepare(),
      permitsByPlate: b.permitsByPlate.prepare(),
      permitsInZoneEnding: b.permitsInZoneEnding.prepare(),
      permitsInZoneOpen: b.permitsInZoneOpen.prepare(),
    };
  }

  private recentMs(): number {
    return this.ctx.config.recentHours * 3_600_000;
  }

  /** check-tickets by registration number (already normalized). */
  byPlate(plateNorm: string, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    const args = { plate: plateNorm, now: at, cutoff: at - recent };
    const rows = this.candidates(
      this.q.ticketsByPlate.all(args) as TicketRow[],
      this.q.permitsByPlate.all(args) as PermitRow[],
    );
    return this.answer(rows, at, recent);
  }

  /** check-tickets by zone. */
  byZone(zone: number, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    const args = { zone, now: at, cutoff: at - recent };
    const rows = this.candidates(
      [
        ...(this.q.ticketsInZoneEnding.all(args) as TicketRow[]),
        ...(this.q.ticketsInZoneOpen.all(args) as TicketRow[]),
      ],
      [
        ...(this.q.permitsInZoneEnding.all(args) as PermitRow[]),
        ...(this.q.permitsInZoneOpen.all(args) as PermitRow[]),
      ],
    );
    return this.answer(rows, at, recent);
  }

  /** The zone list: plates with a permit active now, each once, sorted. */
  activePlates(zone: number, at: number): string[] {
    const args = { zone, now: at, cutoff: at };
    const rows = this.candidates(
      [
        ...(this.q.ticketsInZoneEnding.all(args) as TicketRow[]),
        ...(this.q.ticketsInZoneOpen.all(args) as TicketRow[]),
      ],
      [
        ...(this.q.permitsInZoneEnding.all(args) as PermitRow[]),
        ...(this.q.permitsInZoneOpen.all(args) as PermitRow[]),
      ],
      false,
    );
    const clock = new WallClock(at, this.ctx.config.timezone);
    return uniqueSortedPlates(rows.filter((c) => isActive(c, at, clock)));
  }

  private candidates(ticketRows: TicketRow[], permitRows: PermitRow[], withNotes = true): Candidate[] {
    const lotName = this.lots.lookup();
    const out: Candidate[] = [];
    for (const t of ticketRows) {
      out.push({
        source: 0,
        id: t.ticketId,
        plate: t.plate,
        plateNorm: t.plateNorm,
        zone: t.zone,
        startAt: t.startAt,
        // A stop always carries an end; should one lack it, the ticket ended when it was stopped.
        endAt: t.endAt ?? (t.status === "stopped" ? t.updatedAt : null),
        note: withNotes
          ? ticketNote({ ...t, lotName: t.parkingLotId === null ? null : lotName(t.parkingLotId) })
          : "",
        windows: null,
      });
    }
    for (const p of permitRows) {
      out.push({
        source: 1,
        id: String(p.id).padStart(12, "0"),
        plate: p.plate,
        plateNorm: p.plateNorm,
        zone: p.zone,
        startAt: p.startAt,
        endAt: p.endAt,
        note: p.note,
        windows: windowSpans(p.days),
      });
    }
    return out;
  }

  private answer(rows: Candidate[], at: number, recent: number): ExtendedInformation[] {
    const clock = new WallClock(at, this.ctx.config.timezone);
    return rows
      .filter((c) => isListed(c, at, recent))
      .sort(newestFirst)
      .map((c) => ({
        registration_number: c.plate,
        zone: c.zone,
        active: isActive(c, at, clock),
        start_at: formatMicros(c.startAt),
        end_at: c.endAt === null ? null : formatMicros(c.endAt),
        note: c.note,
      }));
  }
}
