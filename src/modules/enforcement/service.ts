import { formatMicros } from "../../domain/time/zoned.ts";
import { etagOf } from "../../platform/http/conditional.ts";
import { knownZones } from "./known-zones.ts";
import type { LookupTarget } from "./lookup-params.ts";
import type { PermitLookups } from "./lookups.ts";
import type { KnownZones, PlateChecks, Verdict } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { plateChecksToday } from "./plate-checks.ts";
import { zonePermits } from "./saved-list.ts";
import { plateVerdict } from "./verdict.ts";

/** An answer ready to send: its JSON body, and (zone list) its ETag. */
export interface LookupAnswer {
  body: string;
  etag?: string;
}

/**
 * What an attendant's handheld asks, answered and recorded: every lookup leaves a record of who
 * asked what and how many permits it got back.
 */
/** Zones whose saved list is kept made (each up to a few MB for the largest zones). */
const SAVED_LISTS_KEPT = 16;

export class Enforcement {
  private readonly lookups: PermitLookups;
  private readonly savedLists = new Map<
    number,
    { key: string; content: string; etag: string; plates: number }
  >();

  constructor(private readonly ctx: EnforcementContext) {
    this.lookups = ctx.lookups;
  }

  /** check-tickets: serialized here, because checking typed rows against the response schema again
   * would cost the hottest route a third of its time. */
  checkTickets(target: LookupTarget, credential: string): LookupAnswer {
    const at = this.ctx.now();
    let body: string;
    let results: number;
    if (target.by === "zone") ({ body, results } = this.lookups.byZoneJson(target.zone, at));
    else {
      const found = this.lookups.byPlate(target.plateNorm, at);
      body = JSON.stringify(found);
      results = found.length;
    }
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: target.by,
      query: target.by === "zone" ? String(target.zone) : target.plateNorm,
      results,
      verdict: null,
    });
    return { body };
  }

  /** The verdict for a plate in the attendant's zone, recorded as `PLATE@ZONE`. */
  verdict(plateNorm: string, zone: number, credential: string): Verdict {
    const at = this.ctx.now();
    const found = plateVerdict(this.ctx, plateNorm, zone, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "verdict",
      query: `${plateNorm}@${zone}`,
      results: found.permits.length,
      verdict: found.state,
    });
    return found;
  }

  /**
   * What a handheld saves of a zone to judge its cars while the box does not answer, with its
   * ETag; recorded as a zone list, with the plates it names as its results.
   */
  zonePermits(zone: number, credential: string): Required<LookupAnswer> {
    const at = this.ctx.now();
    const list = this.savedList(zone, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "zone_list",
      query: String(zone),
      results: list.plates,
      verdict: null,
    });
    // The ETag is the content's, not the instant's: unchanged content is a 304, after which the
    // handheld knows its list is current as of now.
    const body = `${list.content.slice(0, -1)},"taken_at":${JSON.stringify(formatMicros(at))}}`;
    return { body, etag: list.etag };
  }

  /**
   * A zone's saved list, made again only after a write (this process's notes, another process's
   * commit) or a minute on: a big zone's list takes a second to make, and every handheld in the
   * zone asks for it. Within the minute only its edges move (a holding passing the look-back or
   * the day ahead), which the handheld judges by its own clock anyway.
   */
  private savedList(zone: number, at: number): { content: string; etag: string; plates: number } {
    const key = `${this.ctx.store.written.serial}:${this.ctx.store.dataVersion()}:${Math.floor(at / 60_000)}`;
    const held = this.savedLists.get(zone);
    if (held?.key === key) return held;
    const { taken_at: _, ...content } = zonePermits(this.ctx, zone, at);
    const text = JSON.stringify(content);
    const made = { key, content: text, etag: etagOf(text), plates: content.plates.length };
    this.savedLists.delete(zone);
    this.savedLists.set(zone, made);
    if (this.savedLists.size > SAVED_LISTS_KEPT) this.savedLists.delete(this.savedLists.keys().next().value!);
    return made;
  }

  /** A car's checks today at this site, newest first. */
  checksToday(plateNorm: string): PlateChecks {
    return plateChecksToday(this.ctx, plateNorm, this.ctx.now());
  }

  /** The site's zones, for the handheld's zone field. */
  knownZones(): KnownZones {
    return knownZones(this.ctx, this.ctx.now());
  }

  /** The zone list: plates with an active permit, with its ETag. */
  zoneList(zone: number, credential: string): Required<LookupAnswer> {
    const at = this.ctx.now();
    const { body, results, etag } = this.lookups.zoneList(zone, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "zone_list",
      query: String(zone),
      results,
      verdict: null,
    });
    return { body, etag };
  }
}
