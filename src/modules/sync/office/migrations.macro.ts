import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface CentralMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Runs at bundle time (imported with `type: "macro"`): the binary carries the central schema's
 * SQL files, numbered `NNNN_name.sql` in db/central, in order.
 */
export function centralMigrations(): CentralMigration[] {
  const dir = join(import.meta.dir, "../../../../db/central");
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 4)),
      name: f.slice(5, -4),
      sql: readFileSync(join(dir, f), "utf8"),
    }));
}
