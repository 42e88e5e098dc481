import { formatMicros } from "../../domain/time/zoned.ts";
import { etagOf } from "../../platform/http/conditional.ts";
import type { KeptBody } from "../../platform/http/shared-body.ts";
import { knownZones } from "./known-zones.ts";
import type { LookupTarget } from "./lookup-params.ts";
import type { KnownZones, PlateChecks, Verdict } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { plateChecksToday } from "./plate-checks.ts";
import { zonePermits } from "./saved-list.ts";
import { plateVerdict } from "./verdict.ts";

/** An answer ready to send: its JSON body, and (zone list) its ETag. */
export interface LookupAnswer {
  body: KeptBody;
  etag?: string;
}

/**
 * What an attendant's handheld asks, answered and recorded: every lookup leaves a record of who
 * asked what and how many permits it got back.
 */
export class Enforcement {
  constructor(private readonly ctx: EnforcementContext) {}

  /** check-tickets: serialized here, because checking typed rows against the response schema again
   * would cost the hottest route a third of its time. */
  checkTickets(target: LookupTarget, credential: string): LookupAnswer {
    const at = this.ctx.now();
    let body: KeptBody;
    let results: number;
    if (target.by === "zone") ({ body, results } = this.ctx.readModel.byZoneJson(target.zone, at));
    else {
      const found = this.ctx.readModel.byPlate(target.plateNorm, at);
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
      results: list.results,
      verdict: null,
    });
    // The ETag is the content's, not the instant's: unchanged content is a 304, after which the
    // handheld knows its list is current as of now.
    const body = `${list.body.slice(0, -1)},"taken_at":${JSON.stringify(formatMicros(at))}}`;
    return { body, etag: list.etag };
  }

  /** A zone's saved list without its instant, kept by the read model until something it reads changes. */
  private savedList(zone: number, at: number): { body: string; etag: string; results: number } {
    return this.ctx.readModel.savedList(zone, at, () => {
      const { taken_at: _, ...content } = zonePermits(this.ctx, zone, at);
      const body = JSON.stringify(content);
      return { body, etag: etagOf(body), results: content.plates.length };
    });
  }

  /**
   * A car's checks today at this site, newest first. Who read them is recorded as a lookup of
   * that car: they tell where and when it was seen, which is as much about the car as a plate
   * lookup is.
   */
  checksToday(plateNorm: string, credential: string): PlateChecks {
    const at = this.ctx.now();
    const checks = plateChecksToday(this.ctx, plateNorm, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "checks",
      query: plateNorm,
      results: checks.data.length,
      verdict: null,
    });
    return checks;
  }

  /** The site's zones, for the handheld's zone field. */
  knownZones(): KnownZones {
    return knownZones(this.ctx, this.ctx.now());
  }

  /** The zone list: plates with an active permit, with its ETag. */
  zoneList(zone: number, credential: string): Required<LookupAnswer> {
    const at = this.ctx.now();
    const { sent: body, results, etag } = this.ctx.readModel.zoneList(zone, at);
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
