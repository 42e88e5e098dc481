import type { TicketStatus } from "./rules.ts";

/**
 * What a ticket is at a moment, read from its times and its stored status (not from the name of
 * the last event, which says "running" long after a ticket's end): canceled; not started (starts
 * later); ended (stopped, or its end has passed); else active. One vocabulary for the console's
 * column, the search's filter and the API (docs/web.md); the console's ticket-state.ts reads the
 * same rule in the browser.
 */
export const TICKET_STATES = ["active", "not_started", "ended", "canceled"] as const;
export type TicketState = (typeof TICKET_STATES)[number];

export function ticketStateAt(
  t: { status: TicketStatus; startAt: number; endAt: number | null },
  now: number,
): TicketState {
  if (t.status === "canceled") return "canceled";
  if (t.startAt > now) return "not_started";
  if (t.status === "stopped" || (t.endAt !== null && t.endAt <= now)) return "ended";
  return "active";
}

/** The same rule as SQL terms on `tickets` (status, start_at, end_at), with `$now`. */
export const TICKET_STATE_SQL: Record<TicketState, string> = {
  canceled: "status = 'canceled'",
  not_started: "status <> 'canceled' AND start_at > $now",
  ended: "status <> 'canceled' AND start_at <= $now AND (status = 'stopped' OR end_at <= $now)",
  active: "status = 'running' AND start_at <= $now AND (end_at IS NULL OR end_at > $now)",
};
