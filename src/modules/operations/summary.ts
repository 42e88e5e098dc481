import { networkInterfaces } from "node:os";
import type { Store } from "../../platform/store/db.ts";

/** Row counts for the start-up summary: one cheap count per table. */
export function storeCounts(
  store: Pick<Store, "tickets" | "permits" | "lots" | "credentials">,
): Record<string, number> {
  const { tokens, users } = store.credentials.counts();
  return {
    tickets: store.tickets.count(),
    permits: store.permits.count(),
    lots: store.lots.count(),
    tokens,
    users,
  };
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
