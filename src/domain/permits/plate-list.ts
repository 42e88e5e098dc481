/**
 * The zone list's order and its patching, without I/O: plates in Swedish alphabetical order,
 * each once, kept in chunks so that a change of a few plates copies a chunk, not the list.
 */

const plateOrder = new Intl.Collator("sv-SE", { sensitivity: "variant", numeric: false });
/**
 * Most normalized plates are ASCII capitals and digits, which the Swedish collation orders just
 * as their code units (digits first, V before W, no contractions; checked exhaustively up to
 * two characters and on a million random pairs): such pairs skip the collator, which costs about
 * a tenth of a zone list's build.
 */
const PLAIN = /^[0-9A-Z]*$/;

interface Key {
  key: string;
  plain: boolean;
}

function plateCompare(a: Key, b: Key): number {
  return compareKeys(a.key, a.plain, b.key, b.plain);
}

function compareKeys(x: string, xPlain: boolean, y: string, yPlain: boolean): number {
  if (xPlain && yPlain) return x < y ? -1 : x > y ? 1 : 0;
  return plateOrder.compare(x, y) || (x < y ? -1 : x > y ? 1 : 0);
}

/** The server's plate order over normalized plates. */
export const comparePlateKeys = (x: string, y: string) => compareKeys(x, PLAIN.test(x), y, PLAIN.test(y));

/** Whether a held key sorts before the probe's (a search's step, allocating nothing). */
const before = (held: string, probe: Key) => compareKeys(held, PLAIN.test(held), probe.key, probe.plain) < 0;

/**
 * Plates a chunk holds when the list is built (a full chunk splits in two). A busy zone's list
 * (1,000 plates and more) is patched at every write to it while feeds watch; copying two arrays
 * of the whole list each time was most of the feeds' garbage, and so of their collections.
 */
const CHUNK = 64;

interface Chunk {
  readonly plates: string[];
  /** The plates' normalized forms, in the same order (what a patch searches). */
  readonly keys: string[];
}

/** A patched list, and what it added to and removed from the one before, as a diff of the two would read. */
export interface PlatePatch {
  list: PlateList;
  added: string[];
  removed: string[];
}

/**
 * A sorted zone list: each normalized plate once, shown as its latest entry sends it. Never
 * changed once made: a patch makes another list sharing the chunks it leaves alone.
 */
export class PlateList {
  private constructor(
    private readonly chunks: readonly Chunk[],
    readonly size: number,
    private readonly chunk: number,
  ) {}

  /** Each plate once (by its normalized form, shown as most recently sent), in Swedish alphabetical order. */
  static sorted(
    entries: readonly { plate: string; plateNorm: string; startAt: number }[],
    chunk = CHUNK,
  ): PlateList {
    const sorted = [...shownPlates(entries)]
      .map(([key, plate]) => ({ key, plain: PLAIN.test(key), plate }))
      .sort(plateCompare);
    const chunks: Chunk[] = [];
    for (let i = 0; i < sorted.length; i += chunk) {
      const part = sorted.slice(i, i + chunk);
      chunks.push({ plates: part.map((e) => e.plate), keys: part.map((e) => e.key) });
    }
    return new PlateList(chunks, sorted.length, chunk);
  }

  /** The plates in order, as one array (a new one at each call). */
  get plates(): string[] {
    return this.chunks.flatMap((c) => c.plates);
  }

  /** Their normalized forms, in the same order. */
  get keys(): string[] {
    return this.chunks.flatMap((c) => c.keys);
  }

  /** The first plate, if any. */
  get first(): string | undefined {
    return this.chunks[0]?.plates[0];
  }

  /**
   * The list after some of its plates changed: each key in `changed` is now shown as the given
   * text, or is gone (null). Equal to sorting the whole set again, in time proportional to the
   * changes and the number of chunks (a binary search each, and a copy of the chunks touched).
   */
  patch(changed: ReadonlyMap<string, string | null>): PlatePatch {
    const chunks = this.chunks.slice();
    /** Chunks made by this patch, which it may change in place. */
    const own = new Set<Chunk>();
    const added: string[] = [];
    const removed: string[] = [];
    for (const [key, shown] of changed) {
      const probe: Key = { key, plain: PLAIN.test(key) };
      // The first chunk whose last key is not before the plate's, else the last: it goes there.
      const lastKey = (c: number) => chunks[c]!.keys.at(-1)!;
      const at = Math.min(firstNotBefore(chunks.length, lastKey, probe), chunks.length - 1);
      let chunk = chunks[at];
      const keys = chunk?.keys ?? [];
      const i = firstNotBefore(keys.length, (k) => keys[k]!, probe);
      const held = chunk && chunk.keys[i] === key ? chunk.plates[i]! : null;
      if (held === shown) continue;
      if (held !== null) removed.push(held);
      if (shown !== null) added.push(shown);
      if (!chunk) {
        // An empty list: its first chunk (shown is a plate here, or nothing had changed).
        const first = { plates: [shown!], keys: [key] };
        chunks.push(first);
        own.add(first);
        continue;
      }
      if (!own.has(chunk)) {
        chunk = { plates: chunk.plates.slice(), keys: chunk.keys.slice() };
        chunks[at] = chunk;
        own.add(chunk);
      }
      if (held !== null && shown !== null) chunk.plates[i] = shown;
      else if (held !== null) {
        chunk.plates.splice(i, 1);
        chunk.keys.splice(i, 1);
        // No chunk is left empty: the search above reads each one's last key.
        if (chunk.keys.length === 0) chunks.splice(at, 1);
      } else {
        chunk.plates.splice(i, 0, shown!);
        chunk.keys.splice(i, 0, key);
        if (chunk.keys.length >= 2 * this.chunk) {
          const tail = { plates: chunk.plates.splice(this.chunk), keys: chunk.keys.splice(this.chunk) };
          chunks.splice(at + 1, 0, tail);
          own.add(tail);
        }
      }
    }
    return {
      list: new PlateList(chunks, this.size + added.length - removed.length, this.chunk),
      added,
      removed,
    };
  }
}

/** In keys sorted in plate order (`keyAt(0)` … `keyAt(n - 1)`), the first not before the probe's; n when none. */
function firstNotBefore(n: number, keyAt: (i: number) => string, probe: Key): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(keyAt(mid), probe)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each normalized plate and how it is shown: as sent by its latest-starting entry. */
function shownPlates(
  entries: readonly { plate: string; plateNorm: string; startAt: number }[],
): Map<string, string> {
  const latest = new Map<string, { plate: string; startAt: number }>();
  for (const e of entries) {
    const seen = latest.get(e.plateNorm);
    // Ties go to the first spelling in code-unit order, so the answer never hangs on read order.
    if (!seen || e.startAt > seen.startAt || (e.startAt === seen.startAt && e.plate < seen.plate))
      latest.set(e.plateNorm, { plate: e.plate, startAt: e.startAt });
  }
  return new Map([...latest].map(([key, v]) => [key, v.plate]));
}
