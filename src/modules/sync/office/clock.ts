import type { SQL } from "bun";

/** Within this, the box's clock and the office's agree (a round trip on a slow link included). */
export const CLOCK_AGREES_MS = 2_000;

/**
 * How far this box's clock (`now`) is ahead of the office's (negative: behind), read from the
 * office's own clock in one query and taken at the middle of its round trip.
 */
export async function officeClockSkew(sql: SQL, now: () => number): Promise<number> {
  const sent = now();
  const [row] = (await sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`) as {
    ms: number;
  }[];
  const back = now();
  return Math.round((sent + back) / 2 - Number(row!.ms));
}

/** "300.0 s ahead of the office's" */
export function skewText(skewMs: number): string {
  return `${(Math.abs(skewMs) / 1000).toFixed(1)} s ${skewMs >= 0 ? "ahead of" : "behind"} the office's`;
}
