import type { SQL } from "bun";
import type { PermitWindow } from "../../../domain/permits/activity.ts";
import { normalizePlate } from "../../../domain/plates.ts";
import { ZONE_MAX } from "../../../domain/zones.ts";
import type { OfficePermit as LocalPermit } from "../../../platform/store/permits.ts";

/**
 * The office side of a pull: the permits written since the last pull and the ones deleted since.
 * "Since" is a transaction horizon, not a clock: every permit row carries the id of the
 * transaction that last wrote it (change_xid), and a pull reads the rows whose writer is at or
 * after the previous pull's horizon, the lowest transaction id still running when that pull
 * read. A transaction that was running then and committed later is therefore read the next
 * time; a clock or a sequence would skip it. Rows read twice are applied twice, harmlessly.
 */

const TIME = /^(([01]\d|2[0-3]):[0-5]\d:[0-5]\d|24:00:00)$/;

interface OfficePermit {
  id: string;
  plate: string;
  zone: number;
  start_ms: string;
  end_ms: string | null;
  note: string;
  days: unknown;
  sites: string[] | null;
}

export interface PullResult {
  /** Permits valid at this site, to store. */
  keep: LocalPermit[];
  /** Office permit ids to drop here: deleted, moved to other sites, or not usable. */
  drop: number[];
  /** Rows that could not be used (a weekly window the box cannot read, say). */
  rejected: number;
  horizon: string;
}

function windows(days: unknown): PermitWindow[] | null | undefined {
  if (days === null || days === undefined) return null;
  if (!Array.isArray(days)) return undefined;
  const out: PermitWindow[] = [];
  for (const d of days) {
    if (typeof d !== "object" || d === null) return undefined;
    const { weekday, start_time, end_time } = d as Record<string, unknown>;
    if (typeof weekday !== "number" || !Number.isInteger(weekday) || weekday < 1 || weekday > 7)
      return undefined;
    if (typeof start_time !== "string" || typeof end_time !== "string") return undefined;
    if (
      !TIME.test(start_time) ||
      !TIME.test(end_time) ||
      start_time === end_time ||
      start_time === "24:00:00"
    )
      return undefined;
    out.push({ weekday, start_time, end_time });
  }
  return out;
}

/** The box's form of an office permit, or null when it cannot be served as the box's own are. */
export function localPermit(p: OfficePermit): LocalPermit | null {
  const plateNorm = normalizePlate(p.plate);
  const days = windows(p.days);
  if (plateNorm === "" || days === undefined || !Number.isInteger(p.zone) || p.zone < 0 || p.zone > ZONE_MAX)
    return null;
  return {
    id: Number(p.id),
    plate: p.plate.trim(),
    plateNorm,
    zone: p.zone,
    startAt: Number(p.start_ms),
    endAt: p.end_ms === null ? null : Number(p.end_ms),
    note: p.note,
    days: days === null || days.length === 0 ? null : days,
  };
}

/** Reads what changed at the office since `horizon` ("0" the first time) for `site`. */
export async function pullPermits(sql: SQL, site: string, horizon: string): Promise<PullResult> {
  return sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
    const [h] = await tx.unsafe("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon");
    const changed: OfficePermit[] = await tx.unsafe(
      `SELECT id::text, plate, zone, (extract(epoch FROM start_at) * 1000)::bigint::text AS start_ms,
         (extract(epoch FROM end_at) * 1000)::bigint::text AS end_ms, note, days, sites
       FROM parkd.permits WHERE change_xid >= $1::xid8`,
      [horizon],
    );
    const removed: { id: string }[] = await tx.unsafe(
      "SELECT permit_id::text AS id FROM parkd.permit_removals WHERE change_xid >= $1::xid8",
      [horizon],
    );
    const keep: LocalPermit[] = [];
    const drop: number[] = removed.map((r) => Number(r.id));
    let rejected = 0;
    for (const p of changed) {
      if (p.sites !== null && !p.sites.includes(site)) {
        drop.push(Number(p.id));
        continue;
      }
      const local = localPermit(p);
      if (local) keep.push(local);
      else {
        rejected++;
        drop.push(Number(p.id));
      }
    }
    // A removal read with the permit itself: its `sites` changed and still name this site.
    const kept = new Set(keep.map((p) => p.id));
    return { keep, drop: drop.filter((id) => !kept.has(id)), rejected, horizon: String(h!.horizon) };
  });
}

/** Marks the pull at the office, for its own view of which boxes are in touch (its own site only). */
export async function notePull(sql: SQL, site: string, boxId: string): Promise<void> {
  await sql.unsafe(
    `INSERT INTO parkd.sites AS s (site, last_pull_at, box_id) VALUES ($1, now(), $2)
     ON CONFLICT (site) DO UPDATE SET last_pull_at = now() WHERE s.box_id IS NULL OR s.box_id = excluded.box_id`,
    [site, boxId],
  );
}
