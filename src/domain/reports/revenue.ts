/**
 * What a site earned, without I/O: the rule the box's revenue report and the office's views share
 * (docs/reports.md). Every ticket counts once, with its final cost: an update or a create-or-update
 * replaces what it counted before, a move changes nothing, a cancel makes it count zero. It counts
 * on the day it started, in the site's time zone. Amounts are öre (cents) as integers throughout.
 */
import { toWallTime } from "../time/zoned.ts";

/** What the rule reads of a ticket (a TicketState or a stored row). */
export interface RevenueTicket {
  status: "running" | "stopped" | "canceled";
  startAt: number;
  parkingLotId: number | null;
  zone: number;
  amountInclVat: number | null;
  vatRate: number | null;
  currencyCode: string | null;
}

/** Where a ticket's money is booked. */
export interface RevenueKey {
  /** The ticket's start as a site-local date, YYYY-MM-DD. */
  day: string;
  lotId: number | null;
  zone: number;
  /** Percent; null when the ticket's cost named no rate. */
  vatRate: number | null;
  currency: string;
}

export interface RevenueFigures {
  tickets: number;
  /** Including VAT. */
  gross: number;
  vat: number;
}

export type RevenueEntry = RevenueKey & RevenueFigures;

/**
 * The VAT inside an amount that includes it: gross × rate / (100 + rate), rounded to the öre, half
 * away from zero, in integers (no binary fractions). It is taken per ticket, so the VAT of any
 * group is the sum of its tickets' VAT and a report adds up the same whichever way it is grouped.
 */
export function vatPart(gross: number, rate: number): number {
  const divisor = 100 + rate;
  const magnitude = Math.floor((2 * Math.abs(gross) * rate + divisor) / (2 * divisor));
  return gross < 0 ? -magnitude : magnitude;
}

/** The site-local date of an instant, YYYY-MM-DD. */
export function siteDay(instant: number, tz: string): string {
  const w = toWallTime(instant, tz);
  return `${w.year}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/**
 * What one ticket adds to the revenue, or null when it adds nothing: canceled, or no amount sent.
 * A cost without a currency is in the site's currency; one without a rate is reported under no
 * rate with VAT 0 (it cannot be split, and its gross must still add up).
 */
export function ticketRevenue(t: RevenueTicket, tz: string, siteCurrency: string): RevenueEntry | null {
  if (t.status === "canceled" || t.amountInclVat === null) return null;
  const gross = t.amountInclVat;
  return {
    day: siteDay(t.startAt, tz),
    lotId: t.parkingLotId,
    zone: t.zone,
    vatRate: t.vatRate,
    currency: t.currencyCode ?? siteCurrency,
    tickets: 1,
    gross,
    vat: t.vatRate === null ? 0 : vatPart(gross, t.vatRate),
  };
}

export const sameRevenueKey = (a: RevenueKey, b: RevenueKey): boolean =>
  a.day === b.day &&
  a.lotId === b.lotId &&
  a.zone === b.zone &&
  a.vatRate === b.vatRate &&
  a.currency === b.currency;

/**
 * What a write does to the revenue: the ticket's old contribution taken back and its new one
 * added, as signed entries (none when nothing it counts changed). Summing the changes of every
 * write gives exactly the revenue of the tickets' final states.
 */
export function revenueChange(
  before: RevenueTicket | null,
  after: RevenueTicket | null,
  tz: string,
  siteCurrency: string,
): RevenueEntry[] {
  const old = before && ticketRevenue(before, tz, siteCurrency);
  const now = after && ticketRevenue(after, tz, siteCurrency);
  if (old && now && sameRevenueKey(old, now)) {
    if (old.gross === now.gross && old.vat === now.vat) return [];
    return [{ ...now, tickets: 0, gross: now.gross - old.gross, vat: now.vat - old.vat }];
  }
  const out: RevenueEntry[] = [];
  if (old) out.push({ ...old, tickets: -1, gross: -old.gross, vat: -old.vat });
  if (now) out.push(now);
  return out;
}

/** The dimensions a report can be grouped by; currency always separates rows. */
export const REVENUE_GROUPS = ["day", "lot", "zone", "vat"] as const;
export type RevenueGroup = (typeof REVENUE_GROUPS)[number];

export interface RevenueRow {
  day?: string;
  lotId?: number | null;
  zone?: number;
  vatRate?: number | null;
  currency: string;
  tickets: number;
  net: number;
  vat: number;
  gross: number;
}

/**
 * Sums booked entries into report rows by the chosen dimensions (and currency), in order of those
 * dimensions; a row's net is its gross less its VAT. Rows that sum to no ticket are left out.
 */
export function groupRevenue(entries: Iterable<RevenueEntry>, by: readonly RevenueGroup[]): RevenueRow[] {
  const rows = new Map<string, RevenueRow>();
  for (const e of entries) {
    const row: RevenueRow = { currency: e.currency, tickets: 0, net: 0, vat: 0, gross: 0 };
    for (const g of by) {
      if (g === "day") row.day = e.day;
      else if (g === "lot") row.lotId = e.lotId;
      else if (g === "zone") row.zone = e.zone;
      else row.vatRate = e.vatRate;
    }
    const key = JSON.stringify([row.day, row.lotId, row.zone, row.vatRate, row.currency]);
    const sum = rows.get(key) ?? row;
    rows.set(key, sum);
    sum.tickets += e.tickets;
    sum.gross += e.gross;
    sum.vat += e.vat;
  }
  const out = [...rows.values()].filter((r) => r.tickets !== 0 || r.gross !== 0);
  for (const r of out) r.net = r.gross - r.vat;
  return out.sort((a, b) => compareRows(a, b, by));
}

function compareRows(a: RevenueRow, b: RevenueRow, by: readonly RevenueGroup[]): number {
  const order = (x: string | number | null | undefined) => (x === null || x === undefined ? -Infinity : x);
  for (const g of by) {
    const [x, y] =
      g === "day"
        ? [a.day, b.day]
        : g === "lot"
          ? [order(a.lotId), order(b.lotId)]
          : g === "zone"
            ? [a.zone, b.zone]
            : [order(a.vatRate), order(b.vatRate)];
    if (x !== y) return (x ?? "") < (y ?? "") ? -1 : 1;
  }
  return a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0;
}
