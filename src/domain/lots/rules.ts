/**
 * What makes a lot complete and consistent beyond its schema: defaults, sub-record ids, and
 * fee windows or steps that do not overlap on the same day type.
 */

import { type FieldError, refuse } from "../errors.ts";
import { secondsOfDay } from "../tariff/engine.ts";
import type { LotInput, ParkingLot } from "./lot.ts";

export const lotNotFound = (id: number | string) => refuse("lot-not-found", `There is no parking lot ${id}`);

/** Fills missing sub-record ids after the highest one given, in order. */
function withIds<T extends { id?: number }>(items: readonly T[] | undefined): (T & { id: number })[] {
  const list = items ?? [];
  let next = Math.max(0, ...list.map((i) => i.id ?? 0)) + 1;
  return list.map((i) => ({ ...i, id: i.id ?? next++ }));
}

/** Each sub-record's fields in the interface's order; the input may give them in any order. */
const FEE_FIELDS = ["id", "cost_per_unit", "unit", "start_time", "end_time", "type_of_day", "round"] as const;
const VARIABLE_FEE_FIELDS = [
  "id",
  "type_of_day",
  "from_minute",
  "to_minute",
  "cost_per_unit",
  "unit",
] as const;
const OPENING_FIELDS = ["id", "type_of_day", "open_time", "close_time"] as const;
const LOCATION_FIELDS = ["id", "latitude", "longitude"] as const;

/** The record's `fields`, in that order, and nothing else it carries. */
function inOrder<T, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((k) => [k, record[k]])) as Pick<T, K>;
}

/** The full record from validated input, in the interface's field order. */
export function completeLot(input: LotInput, id: number): ParkingLot {
  return {
    id,
    name: input.name,
    number_of_spaces: input.number_of_spaces ?? 0,
    zone_number: input.zone_number,
    max_time: input.max_time ?? 0,
    parking_lot_fee: withIds(input.parking_lot_fee).map((f) => inOrder(f, FEE_FIELDS)),
    variable_fees: withIds(input.variable_fees).map((v) => ({
      ...inOrder(v, VARIABLE_FEE_FIELDS),
      to_minute: v.to_minute ?? null,
    })),
    parking_lot_open: withIds(input.parking_lot_open).map((o) => inOrder(o, OPENING_FIELDS)),
    parking_lot_location: withIds(input.parking_lot_location).map((l) => inOrder(l, LOCATION_FIELDS)),
    active: input.active ?? true,
    max_fee: input.max_fee ?? 0,
  };
}

const DAY_NAMES: Record<number, string> = { 1: "weekday", 2: "Saturday", 3: "Sunday/holiday" };

function duplicateIds(field: string, items: readonly { id: number }[]): FieldError[] {
  const seen = new Map<number, number>();
  const out: FieldError[] = [];
  items.forEach((item, i) => {
    const first = seen.get(item.id);
    if (first !== undefined)
      out.push({ pointer: `/${field}/${i}/id`, message: `Duplicate id ${item.id} (also at index ${first})` });
    else seen.set(item.id, i);
  });
  return out;
}

/** Consistency errors of a complete lot, with pointers into the lot. */
export function lotRuleErrors(lot: ParkingLot): FieldError[] {
  const errors: FieldError[] = [
    ...duplicateIds("parking_lot_fee", lot.parking_lot_fee),
    ...duplicateIds("variable_fees", lot.variable_fees),
    ...duplicateIds("parking_lot_open", lot.parking_lot_open),
    ...duplicateIds("parking_lot_location", lot.parking_lot_location),
  ];
  // A window's part on its own day; the part after midnight gives way to the next day's windows.
  const spans = lot.parking_lot_fee.map((f) => {
    const s = secondsOfDay(f.start_time, false);
    const e = secondsOfDay(f.end_time, true);
    return [s, e > s ? e : 86_400] as const;
  });
  lot.parking_lot_fee.forEach((f, j) => {
    for (let i = 0; i < j; i++) {
      const other = lot.parking_lot_fee[i]!;
      if (other.type_of_day !== f.type_of_day) continue;
      if (spans[i]![0] < spans[j]![1] && spans[j]![0] < spans[i]![1]) {
        errors.push({
          pointer: `/parking_lot_fee/${j}`,
          message: `Overlaps fee ${other.id} (index ${i}) on ${DAY_NAMES[f.type_of_day]}s`,
        });
        break;
      }
    }
  });
  lot.variable_fees.forEach((v, j) => {
    if (v.to_minute !== null && v.to_minute <= v.from_minute) {
      errors.push({ pointer: `/variable_fees/${j}/to_minute`, message: "Must be greater than from_minute" });
      return;
    }
    for (let i = 0; i < j; i++) {
      const o = lot.variable_fees[i]!;
      if (o.type_of_day !== v.type_of_day) continue;
      const oEnd = o.to_minute ?? Infinity;
      const vEnd = v.to_minute ?? Infinity;
      if (o.from_minute < vEnd && v.from_minute < oEnd) {
        errors.push({
          pointer: `/variable_fees/${j}`,
          message: `Overlaps variable fee ${o.id} (index ${i}) on ${DAY_NAMES[v.type_of_day]}s`,
        });
        break;
      }
    }
  });
  return errors;
}

/**
 * The lot a zone belongs to when exactly one lot has it (a notice written in the zone is then in
 * that lot); null when none or several do, where only the attendant can say which.
 */
export function lotOfZone(
  lots: readonly Pick<ParkingLot, "id" | "zone_number">[],
  zone: number,
): number | null {
  const found = lots.filter((l) => l.zone_number === zone);
  return found.length === 1 ? found[0]!.id : null;
}
