import { invalid } from "../../domain/errors.ts";
import { lotFill, occupancyCurves } from "../../domain/reports/occupancy.ts";
import { priceStay, type Site } from "../../domain/tariff/engine.ts";
import { holidayCalendar } from "../../domain/tariff/holidays.ts";
import type { KioskDeps } from "./deps.ts";

/** The most lots one board shows: a screen across a lobby holds a handful. */
export const MAX_BOARD_LOTS = 24;
const HOUR = 3_600_000;

/** One lot as the kiosk board shows it; nothing here names a plate or a ticket. */
export interface BoardLot {
  id: number;
  name: string;
  /** null: the lot does not count its spaces. */
  free: number | null;
  full: boolean;
  /** What the next hour from now costs, in cents incl. VAT (the tariff, caps applied). */
  price_per_hour: number;
}

export interface Board {
  at: number;
  currency: string;
  lots: BoardLot[];
}

/** `1,2,3` as lot ids (refused past MAX_BOARD_LOTS); absent: every active lot. */
export function boardLotIds(text: string | undefined): number[] | null {
  if (text === undefined || text === "") return null;
  const ids = text.split(",").map((s) => (/^[0-9]{1,9}$/.test(s) ? Number(s) : Number.NaN));
  if (ids.some((n) => Number.isNaN(n)) || ids.length > MAX_BOARD_LOTS)
    throw invalid([
      { pointer: "/lots", message: `must be up to ${MAX_BOARD_LOTS} lot ids joined by commas`, in: "query" },
    ]);
  return [...new Set(ids)];
}

/** The board's figures now: free spaces from the tickets' index, the price from each lot's tariff. */
export function boardNow(ctx: KioskDeps, ids: number[] | null, site: Site): Board {
  const at = ctx.now();
  const wanted = ids && new Set(ids);
  const lots = ctx.store.lots.all().filter((l) => (wanted ? wanted.has(l.id) : l.active));
  const counts = occupancyCurves(
    ctx.store.reports.tickets.staysOverlapping(at, at + 1),
    [],
    {
      from: at,
      step: 1,
      count: 1,
    },
    site.timezone,
  ).lots;
  const order = ids ?? lots.map((l) => l.id);
  const byId = new Map(lots.map((l) => [l.id, l]));
  const out: BoardLot[] = [];
  for (const id of order) {
    const l = byId.get(id);
    if (!l) continue; // a lot deleted since the board was set up: left out, not an error on the screen
    const fill = lotFill(l.number_of_spaces, counts.get(l.id)?.[0] ?? 0);
    out.push({
      id: l.id,
      name: l.name,
      free: fill?.free ?? null,
      full: fill !== null && fill.free === 0,
      price_per_hour: priceStay(l, at, at + HOUR, site).amount,
    });
  }
  return { at, currency: ctx.config.currency, lots: out };
}

export const siteOf = (ctx: KioskDeps): Site => ({
  timezone: ctx.config.timezone,
  isHoliday: holidayCalendar(ctx.config.holidays),
});
