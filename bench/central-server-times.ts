import type { SQL } from "bun";

/**
 * The server's own mean time (planning and execution) of each push statement since the last
 * pg_stat_statements_reset(), as the sites' roles (under the row-level security policies)
 * against the owner (not under them): the policies' cost apart from the client's and the
 * machine's scheduling. Null when one of the two did not push.
 */
export async function serverTimes(office: SQL): Promise<string | null> {
  const rows =
    await office`SELECT CASE WHEN r.rolname LIKE 'parkd_site_%' THEN 'site' ELSE 'owner' END AS who,
      CASE WHEN s.query LIKE 'INSERT INTO parkd.sites%' THEN 'site row'
           WHEN s.query LIKE 'INSERT INTO parkd.events%' THEN 'events'
           WHEN s.query LIKE 'INSERT INTO parkd.tickets%' THEN 'tickets'
           WHEN s.query LIKE 'INSERT INTO parkd.lookups%' THEN 'lookups' END AS stmt,
      ((sum(s.total_exec_time) + sum(s.total_plan_time)) / sum(s.calls))::float8 AS mean_ms
    FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
    WHERE (s.query ~ '^INSERT INTO parkd\\.(events|tickets|lookups)' AND s.query LIKE '%jsonb_to_recordset%')
       OR s.query LIKE 'INSERT INTO parkd.sites AS s%'
    GROUP BY 1, 2`;
  const mean = new Map<string, number>();
  for (const r of rows) mean.set(`${r.who}/${r.stmt}`, Number(r.mean_ms));
  let site = 0;
  let owner = 0;
  const parts: string[] = [];
  for (const stmt of ["site row", "events", "tickets", "lookups"]) {
    const a = mean.get(`site/${stmt}`);
    const b = mean.get(`owner/${stmt}`);
    if (a === undefined || b === undefined) return null;
    site += a;
    owner += b;
    parts.push(`${stmt} ${a.toFixed(3)} vs ${b.toFixed(3)} ms`);
  }
  const diff = site - owner;
  return `${parts.join(", ")}; the four ${site.toFixed(3)} vs ${owner.toFixed(3)} ms (${diff >= 0 ? "+" : ""}${diff.toFixed(3)} ms)`;
}
