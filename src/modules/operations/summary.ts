import { networkInterfaces } from "node:os";
import type { Store } from "../../platform/store/db.ts";
import { TICKET_COUNT_SQL } from "../../platform/store/tickets/records.ts";

/** Counts `sql` somewhere that holds no request (the store's thread), or with `here` where it runs. */
export type CountOffLoop = (sql: string, here: () => number) => Promise<number>;

const countHere: CountOffLoop = (_sql, here) => Promise.resolve(here());

/**
 * Row counts for the start-up summary. The small tables are counted at once; the tickets, a
 * million rows on a busy site, by `countOffLoop` (and here should that fail).
 */
export async function storeCounts(
  store: Pick<Store, "tickets" | "permits" | "lots" | "credentials">,
  countOffLoop: CountOffLoop = countHere,
): Promise<Record<string, number>> {
  const { tokens, users } = store.credentials.counts();
  const permits = store.permits.count();
  const lots = store.lots.count();
  const here = () => store.tickets.count();
  const tickets = await countOffLoop(TICKET_COUNT_SQL, here).catch(here);
  return { tickets, permits, lots, tokens, users };
}

/** The URLs clients can use: for a wildcard host, one per address of the box. */
export function listenUrls(scheme: string, host: string, port: number): string[] {
  const fmt = (addr: string) => `${scheme}://${addr.includes(":") ? `[${addr}]` : addr}:${port}`;
  if (host !== "0.0.0.0" && host !== "::") return [fmt(host)];
  const out = [fmt("localhost")];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (host === "0.0.0.0" && a.family !== "IPv4") continue;
      if (a.family === "IPv6" && a.address.startsWith("fe80")) continue; // link-local needs a zone id
      out.push(fmt(a.address));
    }
  return out;
}
