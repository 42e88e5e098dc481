import { existsSync } from "node:fs";
import { setPriority } from "node:os";
import type { PurgeReport } from "../modules/operations/index.ts";
import { PurgeIncomplete, purgeExpired, restingBesideServe } from "../modules/operations/index.ts";
import { BackupError, backupStore, restoreStore } from "../platform/store/backup.ts";
import { openStore, storePath } from "../platform/store/db.ts";
import { acquireServeLock, DataFolderError, LockHeldError } from "../platform/store/lock.ts";
import { intOpt, stringOpt } from "./args.ts";
import { type Command, dataDirOption, fail } from "./command.ts";

/** This process at the scheduler's lowest priority (nice 19), where the system allows it. */
function lowestPriority(): void {
  try {
    setPriority(19);
  } catch {
    // Not allowed here (a container's seccomp): the backup runs at the usual priority.
  }
}

const forceOption = { name: "force", type: "boolean" as const, help: "overwrite FILE if it exists" };

export const backupCommand: Command = {
  name: "backup",
  summary: "Copy the store to FILE (consistent while serve runs; verified before it reports success)",
  args: "FILE",
  options: [dataDirOption, forceOption],
  run(v, positionals) {
    const [file, ...extra] = positionals;
    if (!file || extra.length) return fail("usage: parkd backup FILE [--force]", 2);
    const dataDir = stringOpt(v, "data-dir") ?? "./data";
    // The box's one core is serve's first: the copy takes what serve leaves. It holds only a read
    // transaction (serve's writes go on beside it), so a slower copy holds nothing up.
    lowestPriority();
    try {
      const started = performance.now();
      // The copy goes at half the disk's pace: each ticket event serve takes waits on a sync of
      // the disk the copy is writing to.
      const check = backupStore(dataDir, file, {
        force: v.force === true,
        rest: (took) => Bun.sleepSync(Math.max(20, took)),
      });
      const ms = Math.round(performance.now() - started);
      process.stderr.write(
        `backup of ${storePath(dataDir)} written to ${file}: ${check.bytes} bytes, schema version ${check.schemaVersion}, store integrity ok, ${check.photos ?? 0} photos (each checked against its hash when restored), ${ms} ms\n`,
      );
      if (check.photosMissing > 0)
        process.stderr.write(
          `warning: ${check.photosMissing} photos the notices name were not in ${dataDir}/photos and are not in the backup\n`,
        );
      return 0;
    } catch (e) {
      if (e instanceof BackupError) return fail(e.message);
      throw e;
    }
  },
};

export const restoreCommand: Command = {
  name: "restore",
  summary: "Replace the store with a backup FILE (serve must be stopped; the old store is kept aside)",
  args: "FILE",
  options: [dataDirOption],
  run(v, positionals) {
    const [file, ...extra] = positionals;
    if (!file || extra.length) return fail("usage: parkd restore FILE", 2);
    const dataDir = stringOpt(v, "data-dir") ?? "./data";
    if (!existsSync(file)) return fail(`${file} does not exist`);
    // Holding the serve lock for the whole swap also keeps a serve from starting half-way.
    let lock: ReturnType<typeof acquireServeLock>;
    try {
      lock = acquireServeLock(dataDir);
    } catch (e) {
      if (e instanceof LockHeldError)
        return fail(`a parkd serve is running on ${dataDir}; stop it before restoring (nothing was changed)`);
      if (e instanceof DataFolderError) return fail(`${e.message} (nothing was changed)`);
      throw e;
    }
    try {
      const { check, asideAs, photos, copies } = restoreStore(dataDir, file);
      for (const c of copies)
        process.stderr.write(
          "kept" in c
            ? `the copy of the store taken before an upgrade, not checked yet, is checked and kept at ${c.kept}\n`
            : `the copy of the store taken before an upgrade at ${c.deleted} failed its check and was deleted (${c.why})\n`,
        );
      // Bring an older backup's schema up to this binary's, as serve would.
      const store = openStore(dataDir);
      const version = store.schemaVersion();
      store.close();
      process.stderr.write(
        `restored ${file} (schema version ${check.schemaVersion}${check.tickets === null ? "" : `, ${check.tickets} tickets`}, ${photos} photos) to ${storePath(dataDir)}, now at schema version ${version}\n`,
      );
      if (asideAs) process.stderr.write(`the previous store is kept as ${asideAs}\n`);
      return 0;
    } catch (e) {
      if (e instanceof BackupError) return fail(`${e.message} (nothing was changed)`);
      throw e;
    } finally {
      lock.release();
    }
  },
};

export const purgeCommand: Command = {
  name: "purge",
  summary:
    "Delete tickets, their events, lookup records, marks and control notices (with their photos) that ended more than --retention-days ago",
  options: [
    dataDirOption,
    {
      name: "retention-days",
      type: "string",
      valueName: "D",
      default: "90",
      help: "keep what ended within this many days",
    },
    { name: "dry-run", type: "boolean", help: "only count what would be deleted" },
  ],
  async run(v) {
    const dataDir = stringOpt(v, "data-dir") ?? "./data";
    const retentionDays = intOpt(v, "retention-days", 1, 36500) ?? 90;
    const store = openStore(dataDir, { create: false });
    try {
      const dryRun = v["dry-run"] === true;
      const counts = (r: PurgeReport) =>
        `${r.tickets} tickets, ${r.ticketEvents} ticket events, ${r.permitLookups} permit lookups, ${r.operatorChanges} operator changes, ${r.observations} observations, ${r.notices} notices with ${r.noticePhotos} photo files`;
      const now = Date.now();
      try {
        // Serve may be running on this store: steps that rest between them (retention.ts says why).
        const r = await purgeExpired(store, { now, retentionDays, dryRun, pause: restingBesideServe() });
        process.stdout.write(
          `${dryRun ? "would delete" : "deleted"}: ${counts(r)} (ended or made more than ${retentionDays} days ago)\n`,
        );
        return 0;
      } catch (e) {
        if (!(e instanceof PurgeIncomplete)) throw e;
        // Never half-done silently: what was deleted, why it stopped, and what is left.
        const left = await purgeExpired(store, { now, retentionDays, dryRun: true });
        process.stdout.write(
          `deleted: ${counts(e.done)} (ended or made more than ${retentionDays} days ago)\n`,
        );
        return fail(`purge stopped before its end: ${e.message}; left for the next run: ${counts(left)}`);
      }
    } finally {
      store.close();
    }
  },
};
