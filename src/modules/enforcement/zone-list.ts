import type { PlateList, PlatePatch } from "../../domain/permits/plate-list.ts";
import type { ZoneAnswer } from "./zone-answers.ts";

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

const EMPTY: PlateSetTag = { a: 0, b: 0, count: 0 };

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

const etagOfTag = (t: PlateSetTag) =>
  `"z${FORMAT}.${(t.a >>> 0).toString(36)}.${(t.b >>> 0).toString(36)}.${t.count.toString(36)}"`;

/** What plates weigh in a kept list: each held as shown, as a key, and in the body (`"…",`). */
function weight(plates: readonly string[]): number {
  let chars = 0;
  for (const p of plates) chars += 3 * p.length + 3;
  return chars;
}

/** What a patched list added to and removed from the list with ETag `from`. */
export interface ListChange {
  from: string;
  added: string[];
  removed: string[];
}

/**
 * The zone list (plates with a permit active now, in plate order), as the lookups keep it: its
 * `{"data": [...]}` body is written only when a reader asks for it (a GET of the list, a feed
 * client of the first protocol, a feed's first event), not at every change.
 */
export class ZoneList implements ZoneAnswer {
  readonly etag: string;
  private text: string | undefined;

  private constructor(
    readonly list: PlateList,
    readonly until: number,
    readonly tag: PlateSetTag,
    /** About what the list holds: its plates, their keys, and its body once written. */
    readonly chars: number,
    readonly change?: ListChange,
  ) {
    this.etag = etagOfTag(tag);
  }

  static built(list: PlateList, until: number): ZoneList {
    const plates = list.plates;
    return new ZoneList(list, until, moved(EMPTY, plates, []), weight(plates));
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

  /** The plates in order (a new array at each call: the list itself is kept in chunks). */
  get plates(): string[] {
    return this.list.plates;
  }

  get body(): string {
    this.text ??= JSON.stringify({ data: this.list.plates });
    return this.text;
  }

  get results(): number {
    return this.list.size;
  }
}
