import type { GaugeSource } from "../../../platform/metrics.ts";
import type { AdminDeps } from "../deps.ts";
import { occupancyNow } from "./service.ts";

/**
 * Per lot (lot id as the label: a site has few lots), read at scrape time from the tickets' index.
 * One reading per scrape serves every gauge: a scrape renders them in one synchronous pass.
 */
export function occupancyGauges(ctx: AdminDeps): GaugeSource[] {
  let last: ReturnType<typeof occupancyNow> | null = null;
  const read = () => {
    if (last === null) {
      last = occupancyNow(ctx);
      queueMicrotask(() => {
        last = null;
      });
    }
    return last;
  };
  const lots = () => read().lots.filter((l) => l.name !== null);
  return [
    () => ({
      name: "parkd_lot_occupied_tickets",
      help: "Tickets in the lot now.",
      samples: lots().map((l) => ({ labels: { lot: String(l.id) }, value: l.tickets })),
    }),
    () => ({
      name: "parkd_lot_spaces",
      help: "The lot's number_of_spaces (0: not counted).",
      samples: lots().map((l) => ({ labels: { lot: String(l.id) }, value: l.spaces })),
    }),
    () => ({
      name: "parkd_lot_free_spaces",
      help: "Spaces less tickets, at least 0 (lots with spaces only).",
      samples: lots()
        .filter((l) => l.free !== null)
        .map((l) => ({ labels: { lot: String(l.id) }, value: l.free! })),
    }),
  ];
}
