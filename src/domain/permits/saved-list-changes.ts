/**
 * A zone's saved list kept current by its changes: what changed between two versions, plate by
 * plate, and the newer version made from the older one and those changes. Pure, and the same code
 * on the box (which makes the changes) and on the phone (which applies them), so that a list kept
 * by changes is, field for field, the list the box would send whole.
 *
 * A plate is the unit: its entries (every ticket and permit it holds, in the order the list has
 * them) and its mark in the zone. The list orders plates as JavaScript's default sort does, each
 * plate's entries in the list's own order within the plate, and the marks by plate.
 */

/** What a saved list is made of, as far as its changes go. */
export interface PlateListed {
  plate_norm: string;
}
export interface SavedListShape<P extends PlateListed, O extends PlateListed> {
  plates: string[];
  permits: P[];
  observations: O[];
}

/** A plate's part of a list. */
export interface PlatePart<P, O> {
  permits: P[];
  observation: O | null;
}

/** What changed: the plates gone, and each plate added or changed with its whole part now. */
export interface SavedListChanges<P extends PlateListed, O extends PlateListed> {
  removed: string[];
  plates: string[];
  permits: P[];
  observations: O[];
}

/** Each plate's part of `list`, in plate order. */
export function partsByPlate<P extends PlateListed, O extends PlateListed>(
  list: SavedListShape<P, O>,
): Map<string, PlatePart<P, O>> {
  const parts = new Map<string, PlatePart<P, O>>();
  for (const plate of list.plates) parts.set(plate, { permits: [], observation: null });
  for (const p of list.permits) parts.get(p.plate_norm)?.permits.push(p);
  for (const o of list.observations) {
    const part = parts.get(o.plate_norm);
    if (part) part.observation = o;
  }
  return parts;
}

/** A plate's part as one text, for a digest: equal parts, equal texts. */
export function partText<P, O>(part: PlatePart<P, O>): string {
  return JSON.stringify([part.permits, part.observation]);
}

/** The plates gone since a version with the digests `before`, and those added or changed in `now`'s. */
export function changedPlates(
  before: ReadonlyMap<string, number>,
  now: ReadonlyMap<string, number>,
): { removed: string[]; changed: string[] } {
  const removed: string[] = [];
  for (const plate of before.keys()) if (!now.has(plate)) removed.push(plate);
  const changed: string[] = [];
  for (const [plate, digest] of now) if (before.get(plate) !== digest) changed.push(plate);
  return { removed: removed.sort(), changed: changed.sort() };
}

/** The changes from a version with the digests `before` to `now`, whose parts' digests are `digests`. */
export function changesSince<P extends PlateListed, O extends PlateListed>(
  before: ReadonlyMap<string, number>,
  now: SavedListShape<P, O>,
  digests: ReadonlyMap<string, number>,
): SavedListChanges<P, O> {
  const { removed, changed } = changedPlates(before, digests);
  const parts = partsByPlate(now);
  return changesOf(
    removed,
    changed.map((plate) => [plate, parts.get(plate)!] as const),
  );
}

/** The changes that remove `removed` and give each of `parts`' plates its part. */
export function changesOf<P extends PlateListed, O extends PlateListed>(
  removed: string[],
  parts: readonly (readonly [string, PlatePart<P, O>])[],
): SavedListChanges<P, O> {
  return {
    removed,
    plates: parts.map(([plate]) => plate),
    permits: parts.flatMap(([, part]) => part.permits),
    observations: parts.flatMap(([, part]) => (part.observation ? [part.observation] : [])),
  };
}

/** `old` with `changes` applied: the newer version's plates, entries and marks, in its order. */
export function applyChanges<P extends PlateListed, O extends PlateListed>(
  old: SavedListShape<P, O>,
  changes: SavedListChanges<P, O>,
): SavedListShape<P, O> {
  const parts = partsByPlate(old);
  for (const plate of changes.removed) parts.delete(plate);
  const fresh = partsByPlate({
    plates: changes.plates,
    permits: changes.permits,
    observations: changes.observations,
  });
  for (const [plate, part] of fresh) parts.set(plate, part);
  const plates = [...parts.keys()].sort();
  const permits: P[] = [];
  const observations: O[] = [];
  for (const plate of plates) {
    const part = parts.get(plate)!;
    permits.push(...part.permits);
    if (part.observation) observations.push(part.observation);
  }
  return { plates, permits, observations };
}
