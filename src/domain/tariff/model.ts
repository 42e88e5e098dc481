/**
 * The tariff's shapes and codes: fee windows, variable-fee steps, day types, units. The engine
 * (engine.ts) prices a stay with them; the rules are written down with worked examples in
 * docs/fees.md.
 */
import { type CalendarDate, type HolidayCheck, weekdayOf } from "./holidays.ts";

export const UNIT_HOUR = 1;
export const UNIT_DAY = 2;
export const UNIT_WEEK = 3;
export const UNIT_MONTH = 4;

export const DAY_WEEKDAY = 1;
export const DAY_SATURDAY = 2;
export const DAY_SUNDAY_OR_HOLIDAY = 3;

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A unit is elapsed time, not calendar time: a day is 24 hours even on a 23- or 25-hour day. */
export const UNIT_MS: Record<number, number> = {
  [UNIT_HOUR]: HOUR,
  [UNIT_DAY]: DAY,
  [UNIT_WEEK]: 7 * DAY,
  [UNIT_MONTH]: 30 * DAY,
};

/** A time-of-day fee (ParkingLotFee). */
export interface WindowFee {
  id: number;
  cost_per_unit: number;
  unit: number;
  start_time: string;
  end_time: string;
  type_of_day: number;
  round: boolean;
}

/** A price step by time already parked (VariableFee). */
export interface StepFee {
  id: number;
  type_of_day: number;
  from_minute: number;
  to_minute: number | null;
  cost_per_unit: number;
  unit: number;
}

export interface Tariff {
  parking_lot_fee: readonly WindowFee[];
  variable_fees: readonly StepFee[];
  /** Cents; 0 = no cap. */
  max_fee: number;
  /** Seconds; 0 = no limit. */
  max_time: number;
}

export interface Site {
  timezone: string;
  isHoliday: HolidayCheck;
}

export interface Pricing {
  cost_per_unit: number;
  unit: number;
  round: boolean;
}

/** One stretch of the stay charged one way. Consecutive stretches cover the stay without gaps. */
export interface Charge {
  from: number;
  to: number;
  source: "fee" | "variable_fee" | "free";
  /** ids of the ParkingLotFee or VariableFee records that priced this stretch. */
  fee_ids: number[];
  /** Day type of the day whose rule applied at `from` (null for a free stretch). */
  type_of_day: number | null;
  pricing: Pricing | null;
  /** Started minutes in the stretch. */
  minutes: number;
  /** Units charged (whole units when rounding, a fraction when pro rata); 0 when free. */
  units: number;
  amount: number;
}

export interface TariffQuote {
  amount: number;
  amount_before_cap: number;
  capped_by_max_fee: boolean;
  exceeds_max_time: boolean;
  charges: Charge[];
}

export function dayTypeOf(date: CalendarDate, isHoliday: HolidayCheck): number {
  const weekday = weekdayOf(date);
  if (weekday === 7 || isHoliday(date)) return DAY_SUNDAY_OR_HOLIDAY;
  return weekday === 6 ? DAY_SATURDAY : DAY_WEEKDAY;
}

/** "HH:MM:SS" → seconds of the day; "23:59:59" and "24:00:00" as an end mean the end of the day. */
export function secondsOfDay(text: string, isEnd: boolean): number {
  const [h, m, s] = text.split(":").map(Number) as [number, number, number];
  const secs = h * 3600 + m * 60 + s;
  return isEnd && secs >= 86_399 ? 86_400 : secs;
}
