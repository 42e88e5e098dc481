import type { SQL } from "bun";
import type { StoredLookup } from "../../../platform/store/lookups.ts";
import type { StoredLot } from "../../../platform/store/lots.ts";
import type { SyncedNotice } from "../../../platform/store/notices.ts";
import type { StoredObservation } from "../../../platform/store/observations.ts";
import type { SyncedEvent, SyncedTicket } from "../../../platform/store/tickets/rows.ts";
import type { LocalBatch } from "../local.ts";

/**
 * The office side of a push. Each batch goes in one transaction as a few statements whose rows
 * travel as one JSON parameter (jsonb_to_recordset): the statements stay fixed, so they are
 * prepared once per connection whatever the batch size. Every write is idempotent: events and
 * lookups are keyed by (site, seq|id) and skipped when present, a ticket's state replaces the
 * stored one only if it includes at least the same events (last_seq), lots are replaced whole,
 * a notice only by a later state of itself (sync_seq), a car's mark of a day only by a later
 * mark (id), and a photo file is skipped when present (site, hash).
 * A batch sent twice, or an older one sent after a newer one, changes nothing.
 */

/** PostgreSQL text cannot hold NUL; a NUL that came in a JSON string is stored as U+FFFD. */
function clean(s: string): string;
function clean(s: string | null): string | null;
function clean(s: string | null): string | null {
  return s?.includes("\0") ? s.replaceAll("\0", "\uFFFD") : s;
}

const eventJson = (e: SyncedEvent) => ({
  seq: e.seq,
  ticket_id: clean(e.ticketId),
  event_type: clean(e.eventType),
  received_at: e.receivedAt,
  credential: clean(e.credential),
  outcome: e.outcome,
  raw_body: clean(e.rawBody),
  body_cut_from: e.bodyCutFrom,
});

const ticketJson = (t: SyncedTicket) => ({
  ticket_id: clean(t.ticketId),
  zone: t.zone,
  parking_lot_id: t.parkingLotId,
  lot_unknown: Boolean(t.lotUnknown),
  start_at: t.startAt,
  end_at: t.endAt,
  plate: clean(t.plate),
  plate_norm: clean(t.plateNorm),
  amount_incl_vat: t.amountInclVat,
  vat_rate: t.vatRate,
  currency_code: clean(t.currencyCode),
  status: t.status,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
  canceled_at: t.canceledAt,
  last_seq: t.lastSeq,
});

const lookupJson = (l: StoredLookup) => ({
  id: l.id,
  at: l.at,
  credential: clean(l.credential),
  by: l.by,
  query: clean(l.query),
  results: l.results,
});

const lotJson = (l: StoredLot) => ({
  lot_id: l.id,
  name: clean(l.name),
  number_of_spaces: l.numberOfSpaces,
  zone_number: l.zoneNumber,
  max_time: l.maxTime,
  max_fee: l.maxFee,
  active: l.active,
  fees: l.parkingLotFee,
  variable_fees: l.variableFees,
  opening_hours: l.parkingLotOpen,
  locations: l.parkingLotLocation,
  created_at: l.createdAt,
  updated_at: l.updatedAt,
  updated_by: clean(l.updatedBy),
});

const noticeJson = (n: SyncedNotice) => ({
  notice_id: clean(n.id),
  number: n.number,
  plate: clean(n.plate),
  plate_norm: clean(n.plateNorm),
  zone: n.zone,
  lot_id: n.lotId,
  verdict: n.verdict,
  reason_code: clean(n.reasonCode),
  reason_title: clean(n.reasonTitle),
  amount: n.amount,
  currency: clean(n.currency),
  note: clean(n.note),
  observed_at: n.observedAt,
  mark_seen_at: n.markSeenAt,
  mark_limit_seconds: n.markLimitSeconds,
  marked_by: clean(n.markedBy),
  issued_at: n.issuedAt,
  issued_by: clean(n.issuedBy),
  voided_at: n.voidedAt,
  voided_by: clean(n.voidedBy),
  void_reason: clean(n.voidReason),
  photos: n.photos.map((p) => ({
    hash: p.hash,
    content_type: p.contentType,
    bytes: p.bytes,
    width: p.width,
    height: p.height,
    added_at: new Date(p.addedAt).toISOString(),
  })),
  sync_seq: n.syncSeq,
});

const observationJson = (o: StoredObservation) => ({
  id: o.id,
  plate: clean(o.plate),
  plate_norm: clean(o.plateNorm),
  zone: o.zone,
  day_start: o.dayStart,
  first_seen_at: o.firstSeenAt,
  limit_seconds: o.limitSeconds,
  note: clean(o.note),
  marked_by: clean(o.markedBy),
});

/** ms since the epoch (a JSON number) to timestamptz. */
const ts = (col: string) => `to_timestamp((r.${col})::double precision / 1000)`;

const INSERT_EVENTS = `INSERT INTO parkd.events
  (site, seq, ticket_id, event_type, received_at, credential, outcome, raw_body, body_cut_from)
  SELECT $1, r.seq, r.ticket_id, r.event_type, ${ts("received_at")}, r.credential, r.outcome, r.raw_body,
    r.body_cut_from
  FROM jsonb_to_recordset($2::text::jsonb) AS r(seq bigint, ticket_id text, event_type text, received_at bigint,
    credential text, outcome text, raw_body text, body_cut_from bigint)
  ON CONFLICT (site, seq) DO NOTHING`;

const UPSERT_TICKETS = `INSERT INTO parkd.tickets AS t
  (site, ticket_id, zone, parking_lot_id, lot_unknown, start_at, end_at, plate, plate_norm, amount_incl_vat,
   vat_rate, currency_code, status, created_at, updated_at, canceled_at, last_seq)
  SELECT $1, r.ticket_id, r.zone, r.parking_lot_id, r.lot_unknown, ${ts("start_at")}, ${ts("end_at")}, r.plate,
    r.plate_norm, r.amount_incl_vat, r.vat_rate, r.currency_code, r.status, ${ts("created_at")},
    ${ts("updated_at")}, ${ts("canceled_at")}, r.last_seq
  FROM jsonb_to_recordset($2::text::jsonb) AS r(ticket_id text, zone integer, parking_lot_id integer,
    lot_unknown boolean, start_at bigint, end_at bigint, plate text, plate_norm text, amount_incl_vat bigint,
    vat_rate integer, currency_code text, status text, created_at bigint, updated_at bigint,
    canceled_at bigint, last_seq bigint)
  ON CONFLICT (site, ticket_id) DO UPDATE SET zone = excluded.zone, parking_lot_id = excluded.parking_lot_id,
    lot_unknown = excluded.lot_unknown, start_at = excluded.start_at, end_at = excluded.end_at,
    plate = excluded.plate, plate_norm = excluded.plate_norm, amount_incl_vat = excluded.amount_incl_vat,
    vat_rate = excluded.vat_rate, currency_code = excluded.currency_code, status = excluded.status,
    created_at = excluded.created_at, updated_at = excluded.updated_at, canceled_at = excluded.canceled_at,
    last_seq = excluded.last_seq, pushed_at = now()
  WHERE t.last_seq < excluded.last_seq`;

const INSERT_LOOKUPS = `INSERT INTO parkd.lookups (site, id, at, credential, by, query, results)
  SELECT $1, r.id, ${ts("at")}, r.credential, r.by, r.query, r.results
  FROM jsonb_to_recordset($2::text::jsonb) AS r(id bigint, at bigint, credential text, by text, query text,
    results integer)
  ON CONFLICT (site, id) DO NOTHING`;

const UPSERT_LOTS = `INSERT INTO parkd.lots AS l
  (site, lot_id, name, number_of_spaces, zone_number, max_time, max_fee, active, fees, variable_fees,
   opening_hours, locations, created_at, updated_at, updated_by, removed_at)
  SELECT $1, r.lot_id, r.name, r.number_of_spaces, r.zone_number, r.max_time, r.max_fee, r.active, r.fees,
    r.variable_fees, r.opening_hours, r.locations, ${ts("created_at")}, ${ts("updated_at")}, r.updated_by, NULL
  FROM jsonb_to_recordset($2::text::jsonb) AS r(lot_id integer, name text, number_of_spaces integer,
    zone_number integer, max_time integer, max_fee bigint, active boolean, fees jsonb, variable_fees jsonb,
    opening_hours jsonb, locations jsonb, created_at bigint, updated_at bigint, updated_by text)
  ON CONFLICT (site, lot_id) DO UPDATE SET name = excluded.name, number_of_spaces = excluded.number_of_spaces,
    zone_number = excluded.zone_number, max_time = excluded.max_time, max_fee = excluded.max_fee,
    active = excluded.active, fees = excluded.fees, variable_fees = excluded.variable_fees,
    opening_hours = excluded.opening_hours, locations = excluded.locations, created_at = excluded.created_at,
    updated_at = excluded.updated_at, updated_by = excluded.updated_by, removed_at = NULL, pushed_at = now()
  WHERE l.updated_at IS DISTINCT FROM excluded.updated_at OR l.removed_at IS NOT NULL`;

// A notice is replaced only by a later state of itself (sync_seq). One whose number the office
// holds under another id goes to notice_number_clashes instead (see 0004_notices.sql), so that
// neither notice is lost and the batch still commits; the statement returns those numbers.
const UPSERT_NOTICES = `WITH r AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($2::text::jsonb) AS r(notice_id text, number bigint, plate text,
      plate_norm text, zone integer, lot_id integer, verdict text, reason_code text, reason_title text,
      amount bigint, currency text, note text, observed_at bigint, mark_seen_at bigint,
      mark_limit_seconds integer, marked_by text, issued_at bigint, issued_by text,
      voided_at bigint, voided_by text, void_reason text, photos jsonb, sync_seq bigint)
  ), clash AS (
    SELECT r.* FROM r WHERE EXISTS (SELECT 1 FROM parkd.notices o
      WHERE o.site = $1 AND o.number = r.number AND o.notice_id <> r.notice_id)
  ), kept AS (
    INSERT INTO parkd.notice_number_clashes AS c (site, notice_id, number, sync_seq, notice)
    SELECT $1, clash.notice_id, clash.number, clash.sync_seq, to_jsonb(clash) FROM clash
    ON CONFLICT (site, notice_id) DO UPDATE SET number = excluded.number, sync_seq = excluded.sync_seq,
      notice = excluded.notice, pushed_at = now()
    WHERE c.sync_seq < excluded.sync_seq
  ), stored AS (
    INSERT INTO parkd.notices AS n
      (site, notice_id, number, plate, plate_norm, zone, lot_id, verdict, reason_code, reason_title, amount,
       currency, note, observed_at, mark_seen_at, mark_limit_seconds, marked_by, issued_at, issued_by,
       voided_at, voided_by, void_reason, photos, sync_seq)
    SELECT $1, r.notice_id, r.number, r.plate, r.plate_norm, r.zone, r.lot_id, r.verdict, r.reason_code,
      r.reason_title, r.amount, r.currency, r.note, ${ts("observed_at")}, ${ts("mark_seen_at")},
      r.mark_limit_seconds, r.marked_by, ${ts("issued_at")}, r.issued_by,
      ${ts("voided_at")}, r.voided_by, r.void_reason, r.photos, r.sync_seq
    FROM r WHERE r.notice_id NOT IN (SELECT notice_id FROM clash)
    ON CONFLICT (site, notice_id) DO UPDATE SET plate = excluded.plate, plate_norm = excluded.plate_norm,
      zone = excluded.zone, lot_id = excluded.lot_id, verdict = excluded.verdict,
      reason_code = excluded.reason_code, reason_title = excluded.reason_title, amount = excluded.amount,
      currency = excluded.currency, note = excluded.note, observed_at = excluded.observed_at,
      mark_seen_at = excluded.mark_seen_at, mark_limit_seconds = excluded.mark_limit_seconds,
      marked_by = excluded.marked_by, issued_at = excluded.issued_at, issued_by = excluded.issued_by, voided_at = excluded.voided_at,
      voided_by = excluded.voided_by, void_reason = excluded.void_reason, photos = excluded.photos,
      sync_seq = excluded.sync_seq, pushed_at = now()
    WHERE n.sync_seq < excluded.sync_seq
  )
  SELECT coalesce((SELECT json_agg(number ORDER BY number) FROM clash), '[]')::text AS clashes`;

// One mark a car and day, as at the box: a later one (a higher id) replaces it.
const UPSERT_OBSERVATIONS = `INSERT INTO parkd.observations AS o
  (site, id, plate, plate_norm, zone, day_start, first_seen_at, limit_seconds, note, marked_by)
  SELECT $1, r.id, r.plate, r.plate_norm, r.zone, ${ts("day_start")}, ${ts("first_seen_at")}, r.limit_seconds,
    r.note, r.marked_by
  FROM jsonb_to_recordset($2::text::jsonb) AS r(id bigint, plate text, plate_norm text, zone integer,
    day_start bigint, first_seen_at bigint, limit_seconds integer, note text, marked_by text)
  ON CONFLICT (site, plate_norm, day_start) DO UPDATE SET id = excluded.id, plate = excluded.plate,
    zone = excluded.zone, first_seen_at = excluded.first_seen_at, limit_seconds = excluded.limit_seconds,
    note = excluded.note, marked_by = excluded.marked_by, pushed_at = now()
  WHERE o.id < excluded.id`;

/** Lots the box no longer has: kept for old tickets' sake, marked removed. */
const REMOVE_LOTS = `UPDATE parkd.lots SET removed_at = now(), pushed_at = now()
  WHERE site = $1 AND removed_at IS NULL
    AND lot_id NOT IN (SELECT (x)::integer FROM jsonb_array_elements_text($2::text::jsonb) AS x)`;

// Only the box that holds the site id may write under it (see SiteClaimedError). It returns
// what the office holds at or below the box's cursors ($6, $7), in the same round trip: the
// office must hold the last event and lookup record the box sent before this batch, or rows
// went missing there (a restore from an older backup, a failover that lost recent commits, rows
// deleted by hand) and the cursors must go back, whether or not a round failed in between.
const TOUCH_SITE = `INSERT INTO parkd.sites AS s (site, last_push_at, pushed_seq, box_version, box_id, time_zone)
  VALUES ($1, now(), $2, $3, $4, $5)
  ON CONFLICT (site) DO UPDATE SET last_push_at = now(), pushed_seq = greatest(s.pushed_seq, excluded.pushed_seq),
    box_version = excluded.box_version, box_id = excluded.box_id, time_zone = excluded.time_zone
  WHERE s.box_id IS NULL OR s.box_id = excluded.box_id
  RETURNING site,
    coalesce((SELECT max(seq) FROM parkd.events WHERE site = $1 AND seq <= $6::bigint), 0)::text AS held_events,
    coalesce((SELECT max(id) FROM parkd.lookups WHERE site = $1 AND id <= $7::bigint), 0)::text AS held_lookups,
    greatest(
      coalesce((SELECT max(sync_seq) FROM parkd.notices WHERE site = $1 AND sync_seq <= $8::bigint), 0),
      coalesce((SELECT max(sync_seq) FROM parkd.notice_number_clashes WHERE site = $1 AND sync_seq <= $8::bigint), 0)
    )::text AS held_notices,
    coalesce((SELECT max(id) FROM parkd.observations WHERE site = $1 AND id <= $9::bigint), 0)::text
      AS held_observations`;

/** Another box already pushes under this site id: its events would be taken for this one's. */
export class SiteClaimedError extends Error {
  constructor(site: string) {
    super(
      `site id "${site}" is held at the office by another box: give this box its own --site ` +
        "(or, if it replaces that box with that box's store, clear parkd.sites.box_id at the office)",
    );
  }
}

/** The office lacks rows below the batch: where it stands, for the box to send again from there. */
export interface OfficeGap {
  events: number;
  lookups: number;
  notices: number;
  observations: number;
}

class GapFound extends Error {
  constructor(readonly gap: OfficeGap) {
    super("the office lacks rows below the batch");
  }
}

export interface PushCounts {
  events: number;
  tickets: number;
  lookups: number;
  lots: number;
  notices: number;
  observations: number;
}

export type PushResult =
  | { stored: PushCounts; clashes: number[]; gap?: undefined }
  | { gap: OfficeGap; stored?: undefined; clashes?: undefined };

export interface PushingBox {
  site: string;
  boxId: string;
  version: string;
  /** The site's IANA time zone, for the office's reports (its days and hours). */
  timeZone?: string;
}

/**
 * Writes one batch for `site` in one transaction; returns how many rows of each kind it sent, or,
 * writing nothing, where the office stands when it lacks rows the box sent before the batch.
 */
export async function pushBatch(sql: SQL, box: PushingBox, b: LocalBatch): Promise<PushResult> {
  const { site } = box;
  const maxSeq = b.events.length > 0 ? b.events[b.events.length - 1]!.seq : 0;
  let clashes: number[] = [];
  try {
    await sql.begin(async (tx) => {
      // The site row first: every other table refers to it, and it says whose site it is.
      const [claimed] = await tx.unsafe(TOUCH_SITE, [
        site,
        maxSeq,
        box.version,
        box.boxId,
        box.timeZone ?? null,
        b.after.events,
        b.after.lookups,
        b.after.notices,
        b.after.observations,
      ]);
      if (!claimed) throw new SiteClaimedError(site);
      const held: OfficeGap = {
        events: Number(claimed.held_events),
        lookups: Number(claimed.held_lookups),
        notices: Number(claimed.held_notices),
        observations: Number(claimed.held_observations),
      };
      if (
        held.events < b.after.events ||
        held.lookups < b.after.lookups ||
        held.notices < b.after.notices ||
        held.observations < b.after.observations
      )
        throw new GapFound(held);
      if (b.events.length > 0)
        await tx.unsafe(INSERT_EVENTS, [site, JSON.stringify(b.events.map(eventJson))]);
      if (b.tickets.length > 0)
        await tx.unsafe(UPSERT_TICKETS, [site, JSON.stringify(b.tickets.map(ticketJson))]);
      if (b.lookups.length > 0)
        await tx.unsafe(INSERT_LOOKUPS, [site, JSON.stringify(b.lookups.map(lookupJson))]);
      if (b.lots) {
        if (b.lots.rows.length > 0)
          await tx.unsafe(UPSERT_LOTS, [site, JSON.stringify(b.lots.rows.map(lotJson))]);
        await tx.unsafe(REMOVE_LOTS, [site, JSON.stringify(b.lots.rows.map((l) => l.id))]);
      }
      if (b.notices.length > 0) {
        const [r] = await tx.unsafe(UPSERT_NOTICES, [site, JSON.stringify(b.notices.map(noticeJson))]);
        clashes = JSON.parse(String(r.clashes)) as number[];
      }
      if (b.observations.length > 0)
        await tx.unsafe(UPSERT_OBSERVATIONS, [site, JSON.stringify(b.observations.map(observationJson))]);
    });
  } catch (e) {
    if (e instanceof GapFound) return { gap: e.gap };
    throw e;
  }
  return {
    stored: {
      events: b.events.length,
      tickets: b.tickets.length,
      lookups: b.lookups.length,
      lots: b.lots ? b.lots.rows.length : 0,
      notices: b.notices.length,
      observations: b.observations.length,
    },
    clashes,
  };
}

/** What the office holds for a site: the highest of each kind's cursor, and of its notice numbers. */
export interface OfficePositions {
  events: number;
  lookups: number;
  /** The highest notice sync_seq (a clashing notice's too). */
  notices: number;
  observations: number;
  noticeNumber: number;
}

/**
 * Where the office stands for this site (after checking that the site is this box's). A box whose
 * cursor is ahead of this (the office restored an older backup) goes back and sends again what is
 * missing.
 */
export async function officePositions(sql: SQL, site: string, boxId: string): Promise<OfficePositions> {
  const [row] = await sql.unsafe(
    `SELECT (SELECT box_id::text FROM parkd.sites WHERE site = $1) AS holder,
       coalesce((SELECT max(seq) FROM parkd.events WHERE site = $1), 0)::text AS events,
       coalesce((SELECT max(id) FROM parkd.lookups WHERE site = $1), 0)::text AS lookups,
       greatest(coalesce((SELECT max(sync_seq) FROM parkd.notices WHERE site = $1), 0),
         coalesce((SELECT max(sync_seq) FROM parkd.notice_number_clashes WHERE site = $1), 0))::text AS notices,
       coalesce((SELECT max(id) FROM parkd.observations WHERE site = $1), 0)::text AS observations,
       greatest(coalesce((SELECT max(number) FROM parkd.notices WHERE site = $1), 0),
         coalesce((SELECT max(number) FROM parkd.notice_number_clashes WHERE site = $1), 0))::text AS numbers`,
    [site],
  );
  if (row.holder !== null && row.holder !== boxId) throw new SiteClaimedError(site);
  return {
    events: Number(row.events),
    lookups: Number(row.lookups),
    notices: Number(row.notices),
    observations: Number(row.observations),
    noticeNumber: Number(row.numbers),
  };
}

/** A notice photo's file, as a push sends it. */
export interface PhotoFile {
  hash: string;
  contentType: string;
  data: Uint8Array;
}

/** Of these hashes, the ones whose files the office already holds for the site. */
export async function photosHeld(sql: SQL, site: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows: { hash: string }[] = await sql.unsafe(
    `SELECT hash FROM parkd.notice_photos
     WHERE site = $1 AND hash IN (SELECT jsonb_array_elements_text($2::text::jsonb))`,
    [site, JSON.stringify(hashes)],
  );
  return new Set(rows.map((r) => r.hash));
}

/**
 * Stores photo files for the site (after the notices that name them), in one transaction; a file
 * the office has already is left as it is.
 */
export async function pushPhotos(sql: SQL, site: string, files: PhotoFile[]): Promise<void> {
  if (files.length === 0) return;
  const rows = files.map((f) => ({
    hash: f.hash,
    content_type: f.contentType,
    size: f.data.byteLength,
    data: Buffer.from(f.data).toString("base64"),
  }));
  await sql.unsafe(
    `INSERT INTO parkd.notice_photos (site, hash, content_type, size, data)
     SELECT $1, r.hash, r.content_type, r.size, decode(r.data, 'base64')
     FROM jsonb_to_recordset($2::text::jsonb) AS r(hash text, content_type text, size integer, data text)
     ON CONFLICT (site, hash) DO NOTHING`,
    [site, JSON.stringify(rows)],
  );
}
