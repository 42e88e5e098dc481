import type { TicketState } from "../../../domain/tickets/state.ts";
import {
  type CsvVariant,
  decimalAmount,
  field,
  siteTimeCell,
  textCell,
  timeHeading,
} from "../reports/csv.ts";

/** The most rows one CSV holds: a bigger search is refused, to be narrowed by time. */
export const MAX_CSV_TICKETS = 100_000;

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

/**
 * The current ticket search as CSV, in the revenue report's two forms (docs/reports.md): `se` with
 * Swedish headings, semicolons, decimal commas and a byte order mark; `rfc4180` with snake_case
 * headings, commas and decimal points; times in the site's time zone in both, named in the
 * headings (siteTimeCell). Text a terminal
 * sent (ticket id, plate) and lot names are neutralised against formulas like every text cell.
 */
export function ticketsCsv(rows: readonly TicketCsvRow[], variant: CsvVariant, timezone: string): string {
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
        timeHeading("Start", timezone),
        timeHeading("Slut", timezone),
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
        timeHeading("start_at", timezone),
        timeHeading("end_at", timezone),
        "amount",
        "currency",
      ];
  const when = (at: number | null) => (at === null ? "" : siteTimeCell(at, timezone, variant));
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
