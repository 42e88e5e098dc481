/**
 * The last few versions of each zone's saved list, as the digests of their plates' parts: what
 * tells a handheld that holds one of them the changes to the current version instead of the whole
 * list (GET .../permits?since=ETAG). A version a handheld names that is no longer here gets the
 * whole list, as a handheld with none does.
 *
 * Bounded: VERSIONS_PER_ZONE a zone, and PLATES_KEPT plates across all zones (the zone used
 * least recently goes first): the biggest zone's 20,000 plates, a few versions each, are a few MB.
 */
const VERSIONS_PER_ZONE = 6;
const PLATES_KEPT = 300_000;

interface Version {
  etag: string;
  digests: ReadonlyMap<string, number>;
}

export class SavedListVersions {
  /** By zone, oldest version first; the map's order is the zones' last use. */
  private readonly zones = new Map<number, Version[]>();
  private plates = 0;

  /** A version made now: kept as the zone's newest (once, if it is already). */
  keep(zone: number, etag: string, digests: ReadonlyMap<string, number>): void {
    const versions = this.zones.get(zone) ?? [];
    this.zones.delete(zone);
    if (versions.at(-1)?.etag !== etag) {
      const again = versions.findIndex((v) => v.etag === etag);
      if (again >= 0) this.plates -= versions.splice(again, 1)[0]!.digests.size;
      versions.push({ etag, digests });
      this.plates += digests.size;
      while (versions.length > VERSIONS_PER_ZONE) this.plates -= versions.shift()!.digests.size;
    }
    this.zones.set(zone, versions);
    for (const [z, vs] of this.zones) {
      if (this.plates <= PLATES_KEPT || z === zone) break;
      for (const v of vs) this.plates -= v.digests.size;
      this.zones.delete(z);
    }
  }

  /** The digests of the zone's version tagged `etag`, or null when it is not kept. */
  digestsOf(zone: number, etag: string): ReadonlyMap<string, number> | null {
    return this.zones.get(zone)?.find((v) => v.etag === etag)?.digests ?? null;
  }

  /** Plates kept across all zones' versions (for tests and the bound). */
  get platesKept(): number {
    return this.plates;
  }
}
