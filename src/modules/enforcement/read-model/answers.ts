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
} from "../../../domain/permits/activity.ts";
import { PlateList, type PlatePatch } from "../../../domain/permits/plate-list.ts";
import { formatMicros } from "../../../domain/time/zoned.ts";
import { type KeptBody, keptBody } from "../../../platform/http/shared-body.ts";
import type { ExtendedInformation } from "../model.ts";
import type { PlateEntries } from "./held.ts";

/** How the read model's answers are written, from the rows it holds: no state of their own. */

/** A ticket or an operator permit, in the one shape both lookups work on. */
export interface Candidate extends Listed {
  plate: string;
  zone: number;
  note: string;
  windows: WindowSpan[] | null;
}

/** An answer the read model keeps while it reads the same (see ReadModel.kept). */
export interface Answer {
  readonly body: KeptBody;
  /** How many entries the answer holds (for the lookup record). */
  readonly results: number;
  /** What it keeps in memory, in characters, where that is more than its body (the zone list). */
  readonly chars?: number;
  /** The first instant at which it could read differently (see nextChange). */
  readonly until: number;
}

/** Held rows as candidates; `lotName` only where notes are written (check-tickets). */
export function candidates(held: PlateEntries, lotName: ((id: number) => string | null) | null): Candidate[] {
  const out: Candidate[] = [];
  for (const t of held.tickets) {
    out.push({
      source: 0,
      id: t.ticketId,
      plate: t.plate,
      plateNorm: t.plateNorm,
      zone: t.zone,
      startAt: t.startAt,
      // A stop always carries an end; should one lack it, the ticket ended when it was stopped.
      endAt: t.endAt ?? (t.status === "stopped" ? t.updatedAt : null),
      note: lotName
        ? ticketNote({
            ticketId: t.ticketId,
            parkingLotId: t.parkingLotId,
            lotName: t.parkingLotId === null ? null : lotName(t.parkingLotId),
            status: t.status,
          })
        : "",
      windows: null,
    });
  }
  for (const p of held.permits) {
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

/** check-tickets' answer: listed now (active, or ended within `recent`), newest first. */
export function checkAnswer(
  rows: Candidate[],
  at: number,
  recent: number,
  timezone: string,
): ExtendedInformation[] {
  const clock = new WallClock(at, timezone);
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

/** The zone list's plates: a permit active now, each once, sorted. */
export function activeList(rows: Candidate[], at: number, timezone: string): PlateList {
  const clock = new WallClock(at, timezone);
  return PlateList.sorted(rows.filter((c) => isActive(c, at, clock)));
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

/**
 * The zone list's tag: a hash of the set of plates it shows, so that a patched list gets its ETag
 * (and the live feed its event id) from the plates added and removed, without its body being
 * written out and hashed. The body is fixed by the set (one order, one text per plate), so equal
 * sets are equal bodies. Each plate adds two 32-bit hashes by XOR, which a removal undoes.
 */
export interface PlateSetTag {
  a: number;
  b: number;
  count: number;
}

function moved(tag: PlateSetTag, added: readonly string[], removed: readonly string[]): PlateSetTag {
  let { a, b } = tag;
  for (const plates of [added, removed])
    for (const p of plates) {
      a ^= Bun.hash.murmur32v3(p, 0x9e3779b9);
      b ^= Bun.hash.murmur32v3(p, 0x85ebca6b);
    }
  return { a, b, count: tag.count + added.length - removed.length };
}

/**
 * The body's format, in the tag: the set alone would keep its tag if the body were written
 * otherwise (another order, another field), and a handheld would get 304 for a list that reads
 * differently. Bump it with any change to how the list is written.
 */
const FORMAT = 1;

/** What plates weigh in a kept list: each held as shown, as a key, and in the body (`"…",`). */
function weight(plates: readonly string[]): number {
  let chars = 0;
  for (const p of plates) chars += 3 * p.length + 3;
  return chars;
}

/** One change of a zone's list, from the list with ETag `from` (the live feed's event). */
export interface ListChange {
  from: string;
  added: string[];
  removed: string[];
}

/**
 * The zone list (plates with a permit active now, in plate order), as the read model keeps it: its
 * `{"data": [...]}` body is written only when a reader asks for it (a GET of the list, a feed
 * client of the first protocol, a feed's first event), not at every change.
 */
export class ZoneList implements Answer {
  readonly etag: string;
  private text: string | undefined;
  private bytes: KeptBody | undefined;
  private shared = false;

  private constructor(
    readonly list: PlateList,
    readonly until: number,
    readonly tag: PlateSetTag,
    /** About what the list holds: its plates, their keys, and its body once written. */
    readonly chars: number,
    /** What a patch changed of the list it was made from. */
    readonly change?: ListChange,
  ) {
    this.etag = `"z${FORMAT}.${(tag.a >>> 0).toString(36)}.${(tag.b >>> 0).toString(36)}.${tag.count.toString(36)}"`;
  }

  static built(list: PlateList, until: number): ZoneList {
    return new ZoneList(list, until, moved({ a: 0, b: 0, count: 0 }, list.plates, []), weight(list.plates));
  }

  /** The list after a patch of `from`: the same tag moved by what was added and removed. */
  static patched(from: ZoneList, next: PlatePatch, until: number): ZoneList {
    return new ZoneList(
      next.list,
      until,
      moved(from.tag, next.added, next.removed),
      from.chars + weight(next.added) - weight(next.removed),
      { from: from.etag, added: next.added, removed: next.removed },
    );
  }

  /** The list's event id in the live feed: its ETag without the quotes. */
  get id(): string {
    return this.etag.slice(1, -1);
  }

  /** The plates in order (a new array at each call: the list itself is kept in chunks). */
  get plates(): string[] {
    return this.list.plates;
  }

  get body(): string {
    this.text ??= JSON.stringify({ data: this.list.plates });
    return this.text;
  }

  /**
   * The body as it is sent: once the read model keeps the list (share), a long one as its bytes,
   * encoded once for every request; before, its text, which the connection counts as its own.
   */
  get sent(): KeptBody {
    if (!this.shared) return this.body;
    this.bytes ??= keptBody(this.body);
    return this.bytes;
  }

  /** The read model keeps this list: requests for it may be written from one buffer. */
  share(): void {
    this.shared = true;
  }

  get results(): number {
    return this.list.size;
  }

  /** What changed from `before` to this list: said by a patch of it, else compared. */
  changeFrom(before: ZoneList): ListChange {
    if (this.change?.from === before.etag) return this.change;
    return { from: before.etag, ...diffLists(before.plates, this.plates) };
  }
}

/**
 * What is in `after` and not in `before`, and the reverse, each in its list's order. Plates are
 * listed in the plate order (Å, Ä, Ö after Z), not by code unit, so this does not walk them as
 * sorted arrays.
 */
export function diffLists(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const was = new Set(before);
  const is = new Set(after);
  return { added: after.filter((p) => !was.has(p)), removed: before.filter((p) => !is.has(p)) };
}
