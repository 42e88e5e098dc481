/** What the kept answers hold, in characters; the oldest go first. */
const MAX_CHARS = 16 * 1024 * 1024;

export type ZoneAnswerKind = "check" | "list";

export interface ZoneAnswer {
  readonly body: string;
  /** How many entries the answer holds (for the lookup record). */
  readonly results: number;
  /** What it keeps in memory, in characters, where that is more than its body (the zone list). */
  readonly chars?: number;
  /** The first instant at which it could read differently (see nextChange). */
  readonly until: number;
}

/** An answer made from the last one and what was written since; null: build it whole. */
export type Patch<A extends ZoneAnswer> = (kept: A, keptVersion: string) => A | null;

interface Entry {
  answer: ZoneAnswer;
  version: string;
  from: number;
  chars: number;
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

  /**
   * The answer of this kind for `zone` at `at`: reused if it still holds, else built and kept.
   * One kind is always built by the same code, so a kept answer is of the type its builder makes.
   */
  get<A extends ZoneAnswer>(
    kind: ZoneAnswerKind,
    zone: number,
    at: number,
    build: () => A,
    /**
     * Where the last answer still holds for the clock and only some rows of the zone changed,
     * the answer can be made from it (the zone list: a plate or two in a sorted list).
     */
    patch?: Patch<A>,
  ): A {
    const version = this.versionOf(zone, at);
    const key = `${kind}:${zone}`;
    const kept = this.entries.get(key);
    const inTime = kept !== undefined && kept.from <= at && at < kept.answer.until;
    if (inTime && kept.version === version) return kept.answer as A;
    const patched = inTime && version !== null && patch ? patch(kept.answer as A, kept.version) : null;
    const built = patched ?? build();
    if (version === null) return built;
    const entry: Entry = { answer: built, version, from: at, chars: built.chars ?? built.body.length };
    if (kept) this.forget(key, kept);
    this.entries.set(key, entry);
    this.chars += entry.chars;
    for (const [k, e] of this.entries) {
      if (this.chars <= this.maxChars || k === key) break;
      this.forget(k, e);
    }
    return built;
  }

  private forget(key: string, e: Entry): void {
    this.entries.delete(key);
    this.chars -= e.chars;
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
