/**
 * What a ticket is at a moment, read from its time and its events (not from the name of the last
 * event, which says "running" long after a ticket's end): canceled, not started yet, ended, or
 * active. A stopped ticket ended when it was stopped (its end is the stop's time).
 */
export type TicketState = "active" | "ended" | "canceled" | "not_started";

export function ticketState(
  t: { status: string; start_at: string; end_at: string | null },
  now: number,
): TicketState {
  if (t.status === "canceled") return "canceled";
  if (Date.parse(t.start_at) > now) return "not_started";
  if (t.status === "stopped" || (t.end_at !== null && Date.parse(t.end_at) <= now)) return "ended";
  return "active";
}
