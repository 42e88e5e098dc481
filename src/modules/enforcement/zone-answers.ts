/** Bodies kept, in string length; the oldest go first. 200 busy zones of check-tickets take ~11 M. */
const MAX_CHARS = 16 * 1024 * 1024;

export type ZoneAnswerKind = "check" | "list";

export interface ZoneAnswer {
  body: string;
  /** How many entries the answer holds (for the lookup record). */
  results: number;
  /** Filled in by whoever needs it, once per answer. */
  etag?: string;
  /** The zone list's plates, in order (the live feed works out its changes from them). */
  plates?: string[];
  /** Their normalized forms, in the same order (what a patch searches). */
  keys?: string[];
  /** A patched answer: what it added to and removed from the answer with ETag `from`. */
  change?: { from: string; added: string[]; removed: string[] };
}

/** An answer made from the last one and what was written since; null: build it whole. */
export type Patch = (
  kept: ZoneAnswer & { until: number },
  keptVersion: string,
) => (ZoneAnswer & { until: number }) | null;

interface Entry extends ZoneAnswer {
  version: string;
  from: number;
  until: number;
}

/**
 * Zone answers (check-tickets by zone, the zone list) cost a few hundred µs to build from a busy
 * zone and are asked for again and again while nothing changes. An answer is reused only while
 * it must read the same:
 * - its zone's version (LookupReadModel.zoneVersion) is unchanged: nothing it was built from
 *   has been written since, by this process or another;
 * - the clock is inside [the instant it was built, the next instant it could change), which
 *   the builder works out from the rows (see nextChange); a clock set back rebuilds it too.
 */
export class ZoneAnswers {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    /** The zone's version at `at`, or null when none can be told (nothing is reused then). */
    private readonly versionOf: (zone: number, at: number) => string | null,
    private readonly maxChars = MAX_CHARS,
  ) {}

  /** The answer of this kind for `zone` at `at`: reused if it still holds, else built and kept. */
  get(
    kind: ZoneAnswerKind,
    zone: number,
    at: number,
    build: () => ZoneAnswer & { until: number },
    /**
     * Where the last answer still holds for the clock and only some rows of the zone changed,
     * the answer can be made from it (the zone list: a plate or two in a sorted list).
     */
    patch?: Patch,
  ): ZoneAnswer {
    const version = this.versionOf(zone, at);
    const key = `${kind}:${zone}`;
    const kept = this.entries.get(key);
    const inTime = kept !== undefined && kept.from <= at && at < kept.until;
    if (inTime && kept.version === version) return kept;
    const patched = inTime && version !== null && patch ? patch(kept, kept.version) : null;
    const built = patched ?? build();
    if (version === null) return built;
    const entry: Entry = {
      body: built.body,
      results: built.results,
      plates: built.plates,
      keys: built.keys,
      change: built.change,
      version,
      from: at,
      until: built.until,
    };
    if (kept) this.forget(key, kept);
    this.entries.set(key, entry);
    this.chars += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.chars <= this.maxChars || k === key) break;
      this.forget(k, e);
    }
    return entry;
  }

  private forget(key: string, e: Entry): void {
    this.entries.delete(key);
    this.chars -= e.body.length;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
