import {
  isActive,
  isListed,
  type Listed,
  newestFirst,
  type PermitWindow,
  ticketNote,
  WallClock,
  type WindowSpan,
  windowSpans,
} from "../../domain/permits/activity.ts";
import { PlateList } from "../../domain/permits/plate-list.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import type { ListedPermit } from "../../platform/store/permits.ts";
import type { ListedTicket } from "../../platform/store/tickets/rows.ts";
import type { EnforcementDeps } from "./deps.ts";
import type { ExtendedInformation } from "./model.ts";
import type { LookupReadModel } from "./read-model.ts";
import { type Patch, ZoneAnswers } from "./zone-answers.ts";
import { ZoneList } from "./zone-list.ts";

/** A ticket or an operator permit, in the one shape both lookups work on. */
interface Candidate extends Listed {
  plate: string;
  zone: number;
  note: string;
  windows: WindowSpan[] | null;
}

/** check-tickets and the zone list; the queries are prepared once. */
export class PermitLookups {
  private readonly answers: ZoneAnswers;

  constructor(
    private readonly ctx: Pick<EnforcementDeps, "store" | "config" | "now">,
    private readonly model: LookupReadModel,
  ) {
    this.answers = new ZoneAnswers((zone, at) =>
      model.zoneVersion(zone, at - this.recentMs(), !this.inRound),
    );
  }

  /** Set while a round of zone answers shares one look for other processes' commits. */
  private inRound = false;

  /**
   * Runs `round` (answers for many zones at once: the live feed after a write) with one look for
   * another process's commits instead of one per zone: the pragma costs more than a zone's
   * version check, and the answers of one round are as of one instant anyway.
   */
  inOneRound(at: number, round: () => void): void {
    this.model.update(at - this.recentMs(), true);
    this.inRound = true;
    try {
      round();
    } finally {
      this.inRound = false;
    }
  }

  private recentMs(): number {
    return this.ctx.config.recentHours * 3_600_000;
  }

  /** check-tickets by registration number (already normalized). */
  byPlate(plateNorm: string, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    const held = this.model.forPlate(plateNorm, at, at - recent);
    return this.answer(this.candidates(held.tickets, held.permits, true), at, recent);
  }

  /** check-tickets by zone. */
  byZone(zone: number, at: number): ExtendedInformation[] {
    const recent = this.recentMs();
    return this.answer(this.inZone(zone, at - recent, at, true), at, recent);
  }

  /** check-tickets by zone as its JSON body, reused while nothing it depends on changes. */
  byZoneJson(zone: number, at: number): { body: string; results: number } {
    return this.answers.get("check", zone, at, () => {
      const recent = this.recentMs();
      const rows = this.inZone(zone, at - recent, at, true);
      const found = this.answer(rows, at, recent);
      return { body: JSON.stringify(found), results: found.length, until: nextChange(rows, at, recent) };
    });
  }

  /** The zone list: plates with a permit active now, each once, sorted. */
  activePlates(zone: number, at: number): string[] {
    return this.activeList(this.inZone(zone, at, at, false), at).plates;
  }

  private activeList(rows: Candidate[], at: number) {
    const clock = new WallClock(at, this.ctx.config.timezone);
    return PlateList.sorted(rows.filter((c) => isActive(c, at, clock)));
  }

  /** The zone list, with its ETag, reused like byZoneJson and patched where few plates changed. */
  zoneList(zone: number, at: number): ZoneList {
    return this.answers.get(
      "list",
      zone,
      at,
      () => {
        const rows = this.inZone(zone, at, at, false);
        return ZoneList.built(this.activeList(rows, at), nextChange(rows, at, 0));
      },
      this.patchList(zone, at),
    );
  }

  /**
   * The zone list from the last one, where only some plates' rows were written since: each such
   * plate is looked at again (is any of its rows in the zone active now, and how is it shown),
   * and the sorted list patched. A write then costs what its plates do, not what the zone holds.
   */
  private patchList(zone: number, at: number): Patch<ZoneList> {
    return (kept, version) => {
      const written = this.model.platesWrittenSince(zone, version);
      if (!written) return null;
      const changed = new Map<string, string | null>();
      let until = Number.POSITIVE_INFINITY;
      for (const plate of written) {
        const held = this.model.plateInZone(plate, zone, at, at - this.recentMs());
        if (!held) return null;
        const rows = this.candidates(held.tickets, held.permits, false);
        until = Math.min(until, nextChange(rows, at, 0));
        changed.set(plate, this.activeList(rows, at).first ?? null);
      }
      // The kept answer's rows change no sooner than it said; the plates read again, as theirs say.
      return ZoneList.patched(kept, kept.list.patch(changed), Math.min(until, kept.until));
    };
  }

  /**
   * The normalized plates with a ticket or permit in the zone that ends after the cutoff or not
   * at all, started or not (the handheld's saved list is made for them), in plate order.
   */
  platesInZone(zone: number, cutoff: number, at: number): string[] {
    const plates = new Set<string>();
    for (const c of this.inZone(zone, cutoff, at, false)) plates.add(c.plateNorm);
    return [...plates].sort();
  }

  /**
   * Tickets and permits of a zone that end after the cutoff or not at all, started or not: from
   * the read model, or from the queries while it is being built.
   */
  private inZone(zone: number, cutoff: number, at: number, withNotes: boolean): Candidate[] {
    const held = this.model.forZone(zone, cutoff, at - this.recentMs());
    if (held) return this.candidates(held.tickets, held.permits, withNotes);
    const store = this.ctx.store;
    return this.candidates(
      store.tickets.listedInZone(zone, cutoff),
      store.permits.listedInZone(zone, cutoff),
      withNotes,
    );
  }

  private candidates(
    ticketRows: ListedTicket[],
    permitRows: ListedPermit[],
    withNotes: boolean,
  ): Candidate[] {
    // Lot names are kept by their owner (LotRecords.nameOf): no memo of our own per answer.
    const lots = this.ctx.store.lots;
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
          ? ticketNote({
              ticketId: t.ticketId,
              parkingLotId: t.parkingLotId,
              lotName: t.parkingLotId === null ? null : lots.nameOf(t.parkingLotId),
              status: t.status,
            })
          : "",
        windows: null,
      });
    }
    for (const p of permitRows) {
      out.push({
        source: 1,
        // Office ids are another numbering than the site's own.
        id: `${p.office ? "o" : ""}${String(p.id).padStart(12, "0")}`,
        plate: p.plate,
        plateNorm: p.plateNorm,
        zone: p.zone,
        startAt: p.startAt,
        endAt: p.endAt,
        note: p.note,
        windows: p.days === null ? null : windowSpans(JSON.parse(p.days) as PermitWindow[] | null),
      });
    }
    return out;
  }

  private answer(rows: Candidate[], at: number, recent: number): ExtendedInformation[] {
    const clock = new WallClock(at, this.ctx.config.timezone);
    const listed = rows.filter((c) => isListed(c, at, recent)).sort(newestFirst);
    const out: ExtendedInformation[] = new Array(listed.length);
    for (let i = 0; i < listed.length; i++) {
      const c = listed[i]!;
      out[i] = {
        registration_number: c.plate,
        zone: c.zone,
        active: isActive(c, at, clock),
        start_at: formatMicros(c.startAt),
        end_at: c.endAt === null ? null : formatMicros(c.endAt),
        note: c.note,
      };
    }
    return out;
  }
}

/**
 * The first instant after `at` at which an answer built from these rows could read differently:
 * a start (listed and active from then on), an end (no longer active), an end plus the recent
 * window (no longer listed), or, for permits with weekly windows, the next whole second: window
 * bounds are whole wall-clock seconds and zone offsets whole seconds, so nothing changes within
 * one. Rows the queries leave out (ended before the cutoff) are never listed or active again.
 */
export function nextChange(
  rows: readonly { startAt: number; endAt: number | null; windows: readonly WindowSpan[] | null }[],
  at: number,
  recent: number,
): number {
  let until = Number.POSITIVE_INFINITY;
  const nextSecond = Math.floor(at / 1000) * 1000 + 1000;
  for (const r of rows) {
    if (r.startAt > at && r.startAt < until) until = r.startAt;
    if (r.endAt !== null) {
      if (r.endAt > at && r.endAt < until) until = r.endAt;
      const unlisted = r.endAt + recent;
      if (unlisted > at && unlisted < until) until = unlisted;
    }
    if (r.windows && r.windows.length > 0 && (r.endAt === null || r.endAt > at) && nextSecond < until)
      until = nextSecond;
  }
  return until;
}
