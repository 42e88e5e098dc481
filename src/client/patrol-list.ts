/**
 * The zone's patrol list on the phone: the cars of its saved list that need the attendant now,
 * each decided by the domain's patrolDue (the rule the box's verdict gives in `patrol`), most
 * urgent first and nearest first where the car's lot has a map point. Pure but for the clock it
 * is given; the page runs it in slices so a zone of 20,000 cars never holds the phone.
 */
import { type PatrolEntry, patrolOrder } from "../domain/permits/patrol.ts";
import { patrolDue } from "../domain/permits/verdict-answer.ts";
import { type MapPoint, nearest } from "./distance.ts";
import type { SavedZone } from "./offline-verdict.ts";

/** A car on the list, with the lot it stands in (its latest ticket or permit here with one). */
export interface PatrolCar extends PatrolEntry {
  lotName: string | null;
}

/** Where the cars' lots are, and where the attendant stands (null: not known). */
export interface PatrolPlace {
  here: MapPoint | null;
  lots: ReadonlyMap<number, readonly MapPoint[]>;
}

/** The cars among `plates` (normalized plates of the saved zone) that are due at `at`, unordered. */
export function dueCars(
  saved: SavedZone,
  plates: readonly string[],
  at: number,
  place: PatrolPlace,
): PatrolCar[] {
  const out: PatrolCar[] = [];
  for (const plate of plates) {
    const holdings = saved.byPlate.get(plate);
    if (!holdings) continue;
    const due = patrolDue(holdings, saved.marks.get(plate) ?? [], saved.zone, at, saved.rules);
    if (!due) continue;
    let lot: { id: number | null; name: string | null; startAt: number } | null = null;
    for (const h of holdings)
      if (h.zone === saved.zone && h.parkingLotId !== null && (!lot || h.startAt > lot.startAt))
        lot = { id: h.parkingLotId, name: h.lotName, startAt: h.startAt };
    const points = lot?.id != null ? (place.lots.get(lot.id) ?? []) : [];
    out.push({ ...due, plate, lotName: lot?.name ?? null, distance: nearest(place.here, points) });
  }
  return out;
}

/** The zone's whole patrol list at `at`, in order (what the page builds in slices). */
export function patrolList(saved: SavedZone, at: number, place: PatrolPlace): PatrolCar[] {
  return dueCars(saved, [...saved.byPlate.keys()], at, place).sort(patrolOrder);
}
