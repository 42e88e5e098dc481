import type { Database } from "bun:sqlite";
import { networkInterfaces } from "node:os";

/** Row counts for the start-up summary; a table a feature has not created yet is left out. */
export function storeCounts(sqlite: Database): Record<string, number> {
  const tables = new Set(
    (sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  const counts: Record<string, number> = {};
  // Candidate table names in order; the lots feature may name its table either way.
  const wanted: [label: string, tables: string[], where?: string][] = [
    ["tickets", ["tickets"]],
    ["permits", ["permits"]],
    ["lots", ["parking_lots", "lots"]],
    ["tokens", ["api_tokens"], "revoked_at IS NULL"],
    ["users", ["api_users"]],
  ];
  for (const [label, candidates, where] of wanted) {
    const table = candidates.find((c) => tables.has(c));
    if (!table) continue;
    const row = sqlite
      .query(`SELECT count(*) AS n FROM "${table}"${where ? ` WHERE ${where}` : ""}`)
      .get() as {
      n: number;
    };
    counts[label] = row.n;
  }
  return counts;
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
