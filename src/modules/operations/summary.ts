import type { Database } from "bun:sqlite";
import { networkInterfaces } from "node:os";

/** Row counts for the start-up summary: one cheap count per table. */
export function storeCounts(sqlite: Database): Record<string, number> {
  const count = (sql: string) => (sqlite.query(sql).get() as { n: number }).n;
  return {
    tickets: count("SELECT count(*) AS n FROM tickets"),
    permits: count("SELECT count(*) AS n FROM permits"),
    lots: count("SELECT count(*) AS n FROM parking_lots"),
    tokens: count("SELECT count(*) AS n FROM api_tokens WHERE revoked_at IS NULL"),
    users: count("SELECT count(*) AS n FROM api_users"),
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
