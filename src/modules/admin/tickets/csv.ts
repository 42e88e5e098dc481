import type { TicketState } from "../../../domain/tickets/state.ts";
import { toWallTime } from "../../../domain/time/zoned.ts";
import { type CsvVariant, decimalAmount, field, textCell } from "../reports/csv.ts";

/** A ticket as the search's CSV has it: what the console's list shows. */
export interface TicketCsvRow {
  ticketId: string;
  plate: string;
  zone: number;
  lotId: number | null;
  lotName: string | null;
  state: TicketState;
  startAt: number;
  endAt: number | null;
  amount: number | null;
  currency: string | null;
}

const SE_STATES: Record<TicketState, string> = {
  active: "Aktiv",
  not_started: "Ej påbörjad",
  ended: "Avslutad",
  canceled: "Makulerad",
};

/** Site time as a spreadsheet reads a date and time: `2026-06-15 10:00`. */
function siteTime(at: number, timezone: string): string {
  const w = toWallTime(at, timezone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

/**
 * The current ticket search as CSV, in the revenue report's two forms (docs/reports.md): `se` with
 * Swedish headings, semicolons, decimal commas, site time and a byte order mark; `rfc4180` with
 * snake_case headings, commas, decimal points and instants in UTC (ISO 8601). Text a terminal
 * sent (ticket id, plate) and lot names are neutralised against formulas like every text cell.
 */
export function ticketsCsv(
  rows: readonly TicketCsvRow[],
  variant: CsvVariant,
  timezone: string,
  iso: (at: number) => string,
): string {
  const se = variant === "se";
  const sep = se ? ";" : ",";
  const head = se
    ? [
        "Biljett",
        "Registreringsnummer",
        "Zon",
        "Parkering",
        "Parkeringens namn",
        "Tillstånd",
        "Start",
        "Slut",
        "Belopp",
        "Valuta",
      ]
    : [
        "ticket_id",
        "registration_number",
        "zone",
        "parking_lot_id",
        "lot_name",
        "state",
        "start_at",
        "end_at",
        "amount",
        "currency",
      ];
  const when = (at: number | null) => (at === null ? "" : se ? siteTime(at, timezone) : iso(at));
  const lines = [head.map((h) => field(h, sep)).join(sep)];
  for (const r of rows)
    lines.push(
      [
        textCell(r.ticketId),
        textCell(r.plate),
        String(r.zone),
        r.lotId === null ? "" : String(r.lotId),
        textCell(r.lotName ?? ""),
        se ? SE_STATES[r.state] : r.state,
        when(r.startAt),
        when(r.endAt),
        r.amount === null ? "" : decimalAmount(r.amount, se),
        textCell(r.currency ?? ""),
      ]
        .map((c) => field(c, sep))
        .join(sep),
    );
  return `${se ? "\uFEFF" : ""}${lines.join("\r\n")}\r\n`;
}
