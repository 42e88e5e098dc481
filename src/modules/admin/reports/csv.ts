import type { RevenueGroup, RevenueRow } from "../../../domain/reports/revenue.ts";
import { offsetAt, toWallTime } from "../../../domain/time/zoned.ts";

/** The two CSV forms of a revenue report (docs/reports.md). */
export type CsvVariant = "se" | "rfc4180";

/** A CSV answered as a file to save under `filename`; every CSV here starts with its header row. */
export function csvDownload(text: string, filename: string): Response {
  return new Response(text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${filename}"`,
    },
  });
}

/** Öre as a decimal amount in whole currency units, exactly (no floating point): 123456 → 1234,56. */
export function decimalAmount(ore: number, comma: boolean): string {
  const sign = ore < 0 ? "-" : "";
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)}${comma ? "," : "."}${String(abs % 100).padStart(2, "0")}`;
}

/** A field quoted when it holds the separator, a quote or a line break (RFC 4180 §2.6-2.7). */
export function field(value: string, separator: string): string {
  return value.includes(separator) || /["\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A text cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage
 * return before one) gets a leading `'`, which makes it text there (the OWASP advice against CSV
 * injection). Only text: numbers and amounts are written by us, and a refund's `-12,50` must stay
 * a number.
 */
export function textCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** What a CSV adds to the report's rows: lots' names, and a totals row per currency. */
export interface CsvExtras {
  /** A lot's name (null: no lot has the id); with a lot group, a column beside the id. */
  lotName?: (id: number) => string | null;
  /** A last row per currency summing every row above: "Summa" in `se`, "total" in `rfc4180`. */
  totals?: boolean;
  /** The site's time zone, named in the day column's heading (its days are the site's). */
  timezone?: string;
}

/** A time column's heading, naming the site's time zone its times are in: `Start (Europe/Stockholm)`. */
export function timeHeading(name: string, timezone: string): string {
  return `${name} (${timezone})`;
}

/**
 * An instant as the site's time, in every CSV: `2026-06-15 12:00:00` in `se` (a spreadsheet reads
 * it as a date and time), `2026-06-15T12:00:00+02:00` in `rfc4180` (ISO 8601 with the site's
 * offset at that instant, so a program reads the instant whatever the season).
 */
export function siteTimeCell(at: number, timezone: string, variant: CsvVariant): string {
  const w = toWallTime(at, timezone);
  const p = (n: number) => String(n).padStart(2, "0");
  const date = `${w.year}-${p(w.month)}-${p(w.day)}`;
  const time = `${p(w.hour)}:${p(w.minute)}:${p(w.second)}`;
  if (variant === "se") return `${date} ${time}`;
  const offset = Math.round(offsetAt(at, timezone) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${date}T${time}${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`;
}

/**
 * The report as CSV: `se` with semicolons, decimal commas and a byte order mark (a Swedish
 * spreadsheet reads the commas as decimals and needs the mark to take the file as UTF-8), `rfc4180`
 * with commas and decimal points. Both end lines with CRLF, as RFC 4180 says.
 */
export function revenueCsv(
  rows: readonly RevenueRow[],
  group: readonly RevenueGroup[],
  variant: CsvVariant,
  extras: CsvExtras = {},
): string {
  const se = variant === "se";
  const sep = se ? ";" : ",";
  const names = se
    ? {
        day: "Dag",
        lot: "Parkering",
        lotName: "Parkeringens namn",
        zone: "Zon",
        vat: "Momssats %",
        currency: "Valuta",
        tickets: "Biljetter",
        net: "Netto",
        vatAmount: "Moms",
        gross: "Brutto",
        total: "Summa",
      }
    : {
        day: "day",
        lot: "parking_lot_id",
        lotName: "lot_name",
        zone: "zone",
        vat: "vat_rate",
        currency: "currency",
        tickets: "tickets",
        net: "net",
        vatAmount: "vat",
        gross: "gross",
        total: "total",
      };
  const named = extras.lotName !== undefined && group.includes("lot");
  const dims = group.flatMap((g) => (g === "lot" && named ? ["lot", "lotName"] : [g])) as (
    | RevenueGroup
    | "lotName"
  )[];
  const head = [
    ...dims.map((g) => (g === "day" && extras.timezone ? timeHeading(names.day, extras.timezone) : names[g])),
    names.currency,
    names.tickets,
    names.net,
    names.vatAmount,
    names.gross,
  ];
  const line = (cells: string[]) => cells.map((c) => field(c, sep)).join(sep);
  const sums = (r: Pick<RevenueRow, "currency" | "tickets" | "net" | "vat" | "gross">) => [
    textCell(r.currency),
    String(r.tickets),
    decimalAmount(r.net, se),
    decimalAmount(r.vat, se),
    decimalAmount(r.gross, se),
  ];
  const lines = [line(head)];
  for (const r of rows) {
    const cells = dims.map((g) => {
      if (g === "day") return textCell(r.day ?? "");
      if (g === "lotName")
        return r.lotId === null || r.lotId === undefined ? "" : textCell(extras.lotName?.(r.lotId) ?? "");
      const v = g === "lot" ? r.lotId : g === "zone" ? r.zone : r.vatRate;
      return v === null || v === undefined ? "" : String(v);
    });
    lines.push(line([...cells, ...sums(r)]));
  }
  if (extras.totals) {
    const byCurrency = new Map<
      string,
      { currency: string; tickets: number; net: number; vat: number; gross: number }
    >();
    for (const r of rows) {
      const t = byCurrency.get(r.currency) ?? { currency: r.currency, tickets: 0, net: 0, vat: 0, gross: 0 };
      t.tickets += r.tickets;
      t.net += r.net;
      t.vat += r.vat;
      t.gross += r.gross;
      byCurrency.set(r.currency, t);
    }
    for (const t of byCurrency.values())
      lines.push(line([...dims.map((_, i) => (i === 0 ? names.total : "")), ...sums(t)]));
  }
  return `${se ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`;
}
