import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A ticket as the ticket management system last described it. Instants are epoch ms (UTC).
 * Tickets are never deleted by events: a cancel marks them, retention removes them later.
 */
export const tickets = sqliteTable(
  "tickets",
  {
    /** The sender's own id, always stored as text. */
    ticketId: text("ticket_id").primaryKey(),
    zone: integer().notNull(),
    parkingLotId: integer("parking_lot_id"),
    /** parkingLotId named no known lot when the event arrived (kept, flagged). */
    lotUnknown: integer("lot_unknown", { mode: "boolean" }).notNull().default(false),
    startAt: integer("start_at").notNull(),
    endAt: integer("end_at"),
    /** The plate as the sender wrote it; shown in answers. */
    plate: text().notNull(),
    /** normalizePlate(plate); what lookups match on. */
    plateNorm: text("plate_norm").notNull(),
    amountInclVat: integer("amount_incl_vat"),
    vatRate: integer("vat_rate"),
    currencyCode: text("currency_code"),
    status: text({ enum: ["running", "stopped", "canceled"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    canceledAt: integer("canceled_at"),
  },
  (t) => [
    // end_at, start_at and status ride in the index so that a plate lookup filters the plate's
    // whole history there and reads table rows only for the few tickets it returns.
    index("tickets_plate_norm").on(t.plateNorm, t.endAt, t.startAt, t.status),
    index("tickets_zone_time").on(t.zone, t.endAt),
    index("tickets_end").on(t.endAt),
    // Occupancy over a time range reads the tickets that start in it (and the day before) from
    // this index alone, covering every column it needs; stays longer than a day come from the next.
    index("tickets_start").on(t.startAt, t.endAt, t.status, t.parkingLotId, t.zone),
    index("tickets_long_stay")
      .on(t.startAt, t.endAt, t.status, t.parkingLotId, t.zone)
      .where(sql`end_at IS NULL OR end_at - start_at > 86400000`),
  ],
);

/** Append-only log of every accepted intake event, raw body included. */
export const ticketEvents = sqliteTable(
  "ticket_events",
  {
    seq: integer().primaryKey({ autoIncrement: true }),
    ticketId: text("ticket_id").notNull(),
    eventType: text("event_type").notNull(),
    receivedAt: integer("received_at").notNull(),
    /** credentialLabel() of whoever sent it, e.g. "token:terminal-1". */
    credential: text().notNull(),
    /**
     * The body exactly as sent, up to the stored-body bound; a longer one is replaced by its known
     * fields (canonical JSON) and bodyCutFrom holds the length it had.
     */
    rawBody: text("raw_body").notNull(),
    /** Bytes of the body as sent when rawBody holds only its known fields; null when kept whole. */
    bodyCutFrom: integer("body_cut_from"),
    /**
     * What the event says, in one canonical form (canonicalEvent), kept as its digest
     * (canonicalDigest: 22 characters): an event equal to one already applied to the ticket is a
     * retry. The form itself for events logged before digests; null before this column existed.
     */
    canonical: text(),
    /** "applied" changed the ticket; "repeat" was an idempotent retry that changed nothing. */
    outcome: text({ enum: ["applied", "repeat"] }).notNull(),
  },
  (t) => [
    index("ticket_events_ticket").on(t.ticketId, t.seq),
    index("ticket_events_received").on(t.receivedAt),
    // The last event each terminal sent (parkd doctor's silent terminals) without reading the log.
    index("ticket_events_credential").on(t.credential, t.receivedAt),
  ],
);
