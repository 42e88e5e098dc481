import type { RevenueGroup, RevenueRow } from "../../../domain/reports/revenue.ts";

/** The two CSV forms of a revenue report (docs/reports.md). */
export type CsvVariant = "se" | "rfc4180";

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

/**
 * The report as CSV: `se` with semicolons, decimal commas and a byte order mark (a Swedish
 * spreadsheet reads the commas as decimals and needs the mark to take the file as UTF-8), `rfc4180`
 * with commas and decimal points. Both end lines with CRLF, as RFC 4180 says.
 */
export function revenueCsv(
  rows: readonly RevenueRow[],
  group: readonly RevenueGroup[],
  variant: CsvVariant,
): string {
  const se = variant === "se";
  const sep = se ? ";" : ",";
  const names = se
    ? {
        day: "Dag",
        lot: "Parkering",
        zone: "Zon",
        vat: "Momssats %",
        currency: "Valuta",
        tickets: "Biljetter",
        net: "Netto",
        vatAmount: "Moms",
        gross: "Brutto",
      }
    : {
        day: "day",
        lot: "parking_lot_id",
        zone: "zone",
        vat: "vat_rate",
        currency: "currency",
        tickets: "tickets",
        net: "net",
        vatAmount: "vat",
        gross: "gross",
      };
  const head = [
    ...group.map((g) => names[g]),
    names.currency,
    names.tickets,
    names.net,
    names.vatAmount,
    names.gross,
  ];
  const lines = [head.map((h) => field(h, sep)).join(sep)];
  for (const r of rows) {
    const cells = group.map((g) => {
      if (g === "day") return textCell(r.day ?? "");
      const v = g === "lot" ? r.lotId : g === "zone" ? r.zone : r.vatRate;
      return v === null || v === undefined ? "" : String(v);
    });
    cells.push(
      textCell(r.currency),
      String(r.tickets),
      decimalAmount(r.net, se),
      decimalAmount(r.vat, se),
      decimalAmount(r.gross, se),
    );
    lines.push(cells.map((c) => field(c, sep)).join(sep));
  }
  return `${se ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`;
}
