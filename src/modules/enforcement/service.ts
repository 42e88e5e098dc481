import { changedPlates, changesOf } from "../../domain/permits/saved-list-changes.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import { etagOf } from "../../platform/http/conditional.ts";
import { type KeptBody, keptBody } from "../../platform/http/shared-body.ts";
import { knownZones } from "./known-zones.ts";
import type { LookupTarget } from "./lookup-params.ts";
import type { KnownZones, PlateChecks, Verdict, ZonePermitChanges } from "./model.ts";
import type { EnforcementContext } from "./module-context.ts";
import { plateChecksToday } from "./plate-checks.ts";
import { partDigest, savedListParts, zonePermits } from "./saved-list.ts";
import { SavedListVersions } from "./saved-list-versions.ts";
import { plateVerdict } from "./verdict.ts";

/** An answer ready to send: its JSON body, and (zone list) its ETag. */
export interface LookupAnswer {
  body: KeptBody;
  etag?: string;
}

/** A zone's saved list as the read model keeps it (Enforcement.savedList). */
interface SavedListVersion {
  body: KeptBody;
  etag: string;
  results: number;
  madeAt: number;
  digests: ReadonlyMap<string, number>;
  chars: number;
  /** The changes to it from the versions handhelds held, each made once (null: the whole list). */
  changes: Map<string, KeptBody | null>;
}

/** Past this share of a list's plates changed, the whole list is sent: it is made and compressed once. */
const CHANGES_AT_MOST = 0.25;
/** Changes answers kept with a version, one per version held: with CHANGES_AT_MOST, at most the list's size again. */
const CHANGES_KEPT = 4;

/**
 * What an attendant's handheld asks, answered and recorded: every lookup leaves a record of who
 * asked what and how many permits it got back.
 */
export class Enforcement {
  private readonly versions = new SavedListVersions();

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
      cameraRead: null,
    });
    return { body };
  }

  /**
   * The verdict for a plate in the attendant's zone, recorded as `PLATE@ZONE`, with the camera's
   * read of the plate when the camera filled it in.
   */
  verdict(plateNorm: string, zone: number, credential: string, cameraRead: string | null = null): Verdict {
    const at = this.ctx.now();
    const found = plateVerdict(this.ctx, plateNorm, zone, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "verdict",
      query: `${plateNorm}@${zone}`,
      results: found.permits.length,
      verdict: found.state,
      cameraRead,
    });
    return found;
  }

  /**
   * What a handheld saves of a zone to judge its cars while the box does not answer, with its
   * ETag; recorded as a zone list, with the plates it names as its results. `since`: the ETag of
   * the version the handheld holds; when that version is still known, the answer is the changes
   * from it (saved-list-changes.ts) instead of the whole list.
   */
  zonePermits(zone: number, credential: string, since?: string): Required<LookupAnswer> {
    const at = this.ctx.now();
    const version = this.savedList(zone, at);
    this.ctx.lookupRecorder.record({
      at,
      credential,
      by: "zone_list",
      query: String(zone),
      results: version.results,
      verdict: null,
      cameraRead: null,
    });
    const changes =
      since === undefined || since === version.etag ? null : this.changesFrom(zone, since, version);
    return { body: changes ?? version.body, etag: version.etag };
  }

  /**
   * A zone's saved list as made at `madeAt` and kept by the read model until something it reads
   * changes (or the next minute): its bytes, one buffer for every handheld (and compressed once
   * for them all), its ETag (the content's: every plate's part and the list's settings, not the
   * instant), and each plate's digest, which is also kept a few versions on (SavedListVersions).
   */
  private savedList(zone: number, at: number): SavedListVersion {
    return this.ctx.readModel.savedList(zone, at, () => {
      const { list, digests } = zonePermits(this.ctx, zone, at);
      let tag = `${zone}|${list.timezone}|${list.grace_minutes}|${list.recent_hours}`;
      for (const [plate, digest] of digests) tag += `|${plate}:${digest}`;
      const etag = etagOf(tag);
      this.versions.keep(zone, etag, digests);
      const text = JSON.stringify(list);
      return {
        body: keptBody(text),
        etag,
        results: list.plates.length,
        madeAt: at,
        digests,
        changes: new Map(),
        // Each plate's digest and key, besides the body, stay while the answer does.
        chars: text.length + digests.size * 40,
      };
    });
  }

  /**
   * The changes from the version tagged `since` to `now`, as JSON; null when that version is no
   * longer known, when so much changed that the whole list (made once, kept compressed for every
   * handheld) is as cheap, or when the store no longer gives the parts `now` was made of. Made
   * once per version held and kept with `now`: the handhelds coming back in the morning with
   * yesterday's version are answered from one.
   */
  private changesFrom(zone: number, since: string, now: SavedListVersion): KeptBody | null {
    const made = now.changes.get(since);
    if (made !== undefined) return made;
    const answer = this.changesAnswer(zone, since, now);
    if (now.changes.size >= CHANGES_KEPT) now.changes.delete(now.changes.keys().next().value!);
    now.changes.set(since, answer);
    return answer;
  }

  private changesAnswer(zone: number, since: string, now: SavedListVersion): KeptBody | null {
    const before = this.versions.digestsOf(zone, since);
    if (!before) return null;
    const { removed, changed } = changedPlates(before, now.digests);
    if (removed.length + changed.length > now.digests.size * CHANGES_AT_MOST) return null;
    const parts = savedListParts(this.ctx, zone, now.madeAt, changed);
    if (parts.some((part, i) => partDigest(part) !== now.digests.get(changed[i]!))) return null;
    const { config } = this.ctx;
    const text = JSON.stringify({
      zone,
      since,
      taken_at: formatMicros(now.madeAt),
      timezone: config.timezone,
      grace_minutes: config.graceMinutes,
      recent_hours: config.recentHours,
      ...changesOf(
        removed,
        changed.map((plate, i) => [plate, parts[i]!] as const),
      ),
    } satisfies ZonePermitChanges);
    return keptBody(text);
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
      cameraRead: null,
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
      cameraRead: null,
    });
    return { body, etag };
  }
}
