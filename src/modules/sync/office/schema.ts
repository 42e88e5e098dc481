import type { SQL } from "bun";
import { centralMigrations } from "./migrations.macro.ts" with { type: "macro" };
import type { CentralMigration } from "./migrations.macro.ts";

const migrations: CentralMigration[] = centralMigrations();

/** The central schema version this build writes and reads. */
export const CENTRAL_SCHEMA_VERSION =
  migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;

/** Serializes concurrent `central init`s (two operators, or a fleet rollout) on one server. */
const LOCK_KEY = "parkd central schema";

export interface MigrationResult {
  from: number;
  to: number;
  applied: string[];
}

/**
 * Creates the central schema or brings it up to date: every file not yet applied, in order, each
 * in its own transaction with its version recorded, under an advisory lock. Safe to run again.
 */
export async function migrateCentral(sql: SQL): Promise<MigrationResult> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`;
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS parkd;
      CREATE TABLE IF NOT EXISTS parkd.schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const from = await appliedVersion(tx);
    const applied: string[] = [];
    for (const m of migrations) {
      if (m.version <= from) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO parkd.schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      applied.push(`${String(m.version).padStart(4, "0")}_${m.name}`);
    }
    return { from, to: Math.max(from, CENTRAL_SCHEMA_VERSION), applied };
  });
}

/** The highest version applied on the server; 0 when the schema is not there at all. */
export async function appliedVersion(sql: SQL): Promise<number> {
  const [row] = await sql`SELECT to_regclass('parkd.schema_migrations') IS NOT NULL AS present`;
  if (!row?.present) return 0;
  const [v] = await sql`SELECT coalesce(max(version), 0)::int AS version FROM parkd.schema_migrations`;
  return Number(v?.version ?? 0);
}

export class CentralSchemaError extends Error {}

/** Refuses to sync with a server whose schema is older than this build needs. */
export async function checkCentralSchema(sql: SQL): Promise<number> {
  const version = await appliedVersion(sql);
  if (version < CENTRAL_SCHEMA_VERSION)
    throw new CentralSchemaError(
      version === 0
        ? "the central database has no parkd schema: run `parkd central init` against it"
        : `the central schema is at version ${version}, this build needs ${CENTRAL_SCHEMA_VERSION}: run \`parkd central init\``,
    );
  return version;
}
