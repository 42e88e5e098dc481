/**
 * What `parkd doctor` concludes from what it found on the box: each rule turns facts into a
 * finding a technician can act on, with a fix for every failure. No I/O here, so every
 * threshold has a table of cases in test/cli/doctor-rules.test.ts. This file:
 * the data (store, folder, disk, terminals); box-rules.ts: the box around it.
 */

import {
  CONDITIONS,
  type Condition,
  type ConditionId,
  type FixPlace,
  type Level,
} from "../../modules/operations/index.ts";

/** A change `doctor --fix` may make by itself: only modes and a missing folder, never data. */
export type Repair =
  | { kind: "chmod"; path: string; mode: number }
  | { kind: "mkdir"; path: string; mode: number };

export interface Finding {
  check: string;
  level: Level;
  summary: string;
  fix?: string;
  repair?: Repair;
  /** The condition of the operations module's list it is (what serve refuses, repairs or /readyz reports). */
  condition?: ConditionId;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`;

export function integrityRule(lines: string[], storeBytes: number): Finding {
  if (lines.length === 1 && lines[0] === "ok")
    return {
      check: "store integrity",
      level: "ok",
      summary: `quick_check found no damage (${mb(storeBytes)})`,
    };
  return {
    check: "store integrity",
    level: "fail",
    summary: `quick_check reports damage: ${lines.slice(0, 3).join("; ")}`,
    fix: "stop the service, then 'parkd restore FILE' the latest backup (the damaged store is kept aside); check the disk (dmesg, smartctl)",
  };
}

export function schemaRule(applied: number, pending: number, unknown: number, known: number): Finding {
  const check = "schema version";
  if (unknown > 0)
    return {
      check,
      level: "fail",
      summary: `the store was upgraded by a newer parkd (schema ${applied}, this binary knows ${known}): this binary refuses to open it`,
      fix: "install the newer parkd again, or restore a pre-upgrade copy from the data folder's backups/ with 'parkd restore FILE'",
    };
  if (applied === 0)
    return {
      check,
      level: "warn",
      summary: "the store has no schema yet",
      fix: "parkd migrate (or start the service)",
    };
  if (pending > 0)
    return {
      check,
      level: "info",
      summary: `schema ${applied}; this binary upgrades it to ${applied + pending} at its next start (after copying it to backups/)`,
    };
  return { check, level: "ok", summary: `schema ${applied}, as this binary expects` };
}

/**
 * Copies taken before an upgrade that serve has not checked yet (it checks them after it answers,
 * at low priority): checked by the serve that runs, or told why not in its log (doctor cannot see
 * which); left by a serve that stopped otherwise.
 */
export function upgradeCopyRule(unchecked: readonly string[], serveRunning: boolean): Finding | null {
  if (unchecked.length === 0) return null;
  const check = "pre-upgrade copy";
  const files = unchecked.join(", ");
  return serveRunning
    ? {
        check,
        level: "info",
        summary: `a copy of the store taken before an upgrade is not checked yet (${files}): serve checks it after it starts answering, then names it without the leading dot and .unchecked, or logs why it could not`,
        fix: "nothing while serve runs; if its log says the copy could not be checked, restart the service to check it again",
      }
    : {
        check,
        level: "warn",
        summary: `a copy of the store taken before an upgrade was not checked yet (${files}): serve stopped before its check`,
        fix: "start the service: it checks the copy after it answers, and names it, or deletes it and logs why (then take a backup with 'parkd backup')",
      };
}

export const WAL_WARN_BYTES = 64 * MB;

export function walRule(walBytes: number): Finding {
  if (walBytes <= WAL_WARN_BYTES)
    return { check: "write-ahead log", level: "ok", summary: `${mb(walBytes)} (checkpoints keep up)` };
  return {
    check: "write-ahead log",
    level: "warn",
    summary: `${mb(walBytes)}: checkpoints are not keeping up, or a long read (a backup, an open sqlite3 shell) holds them back`,
    fix: "close any sqlite3 shell on the store; if it keeps growing, restart the service (systemctl restart parkd)",
  };
}

/** Less than this free: SQLite cannot take a request's write (a body up to the limit and its WAL pages). */
export const DISK_FULL_BYTES = 4 * MB;

/**
 * The disk's free space: failing under 64 MB or 2 %; at or near the reserve serve keeps for ticket
 * events (what serve then does, in its words; doctor counts the disk's free space only, serve also
 * the pages the store reuses); a warning under 10 %.
 */
export function diskRule(freeBytes: number, totalBytes: number, dir: string, reserveBytes = 0): Finding {
  const share = totalBytes > 0 ? freeBytes / totalBytes : 0;
  const summary = `${mb(freeBytes)} free of ${mb(totalBytes)} (${(share * 100).toFixed(0)} %) on the disk holding ${dir}`;
  const fix =
    "free space on that disk (old logs: journalctl --vacuum-size=100M; old backups), or lower --retention-days";
  // Below 64 MB a checkpoint or a backup can fail; the alert rule fires under 10 %.
  if (freeBytes < 64 * MB || share < 0.02) return { check: "disk space", level: "fail", summary, fix };
  if (reserveBytes > 0 && freeBytes <= 2 * reserveBytes)
    return conditionFinding(
      freeBytes <= reserveBytes ? "disk-at-reserve" : "disk-near-reserve",
      `${summary}, ${mb(reserveBytes)} kept for ticket events (--disk-reserve-mb)`,
    );
  if (share < 0.1) return { check: "disk space", level: "warn", summary, fix };
  return { check: "disk space", level: "ok", summary };
}

export interface PathFacts {
  path: string;
  kind: "folder" | "private" | "public";
  mode: number;
  uid: number;
}

/**
 * The data folder and everything parkd keeps in it belong to one user (the folder's owner: the
 * one serve runs as), and nobody else may read them: token hashes, plates and the TLS key are in
 * there. The folder 0700; once it is open, also its folders 0700 and files 0600 (the
 * certificate may be readable by all).
 */
export function ownershipRule(
  folder: PathFacts | null,
  inside: PathFacts[],
  dataDir: string,
  owners: (uid: number) => string,
): Finding[] {
  const check = "data folder";
  if (!folder)
    return [
      {
        check,
        level: "fail",
        summary: `${dataDir} does not exist`,
        fix: `create it (parkd doctor --fix, or start the service: StateDirectory makes it), then 'parkd migrate --data-dir ${dataDir}' as the service user`,
        repair: { kind: "mkdir", path: dataDir, mode: 0o700 },
      },
    ];
  const out: Finding[] = [];
  const owner = owners(folder.uid);
  const wrongOwner = inside.filter((p) => p.uid !== folder.uid);
  if (wrongOwner.length)
    out.push({
      check,
      level: "fail",
      summary: `owned by ${wrongOwner.map((p) => `${owners(p.uid)}: ${p.path}`).join(", ")}, not by ${owner} who owns ${dataDir} (a command run as another user made them); the service cannot write them`,
      fix: `chown -R ${owner}: ${dataDir} (and run parkd commands as that user: sudo -u ${owner} parkd ...)`,
    });
  // Behind a 0700 folder nobody else reaches a file, whatever its mode (serve run by hand makes
  // files with the umask's 0644); once the folder is open, every file's own mode counts.
  const exposed = (folder.mode & 0o077) !== 0;
  for (const p of exposed ? [folder, ...inside] : []) {
    const want = p.kind === "folder" ? 0o700 : p.kind === "private" ? 0o600 : null;
    if (want === null || (p.mode & 0o077) === 0) continue;
    out.push({
      check,
      level: "fail",
      summary: `${p.path} is open to ${(p.mode & 0o007) !== 0 ? "every user" : "its group"} (${octal(p.mode)}): it holds token hashes, plates or the TLS key`,
      fix: `chmod ${octal(want)} ${p.path} (parkd doctor --fix does it)`,
      repair: { kind: "chmod", path: p.path, mode: want },
    });
  }
  // Serve runs as the owner: without the owner's write bit it answers every write with 503 (and
  // SQLite cannot make its -wal beside the store in a folder it cannot write), while root, who
  // runs doctor, writes anyway.
  for (const p of [folder, ...inside]) {
    if (p.kind === "public" || (p.mode & 0o200) !== 0) continue;
    const want = p.kind === "folder" ? 0o700 : 0o600;
    out.push({
      check,
      level: "fail",
      summary: `${p.path} is read-only for ${owner} (${octal(p.mode)}), who runs serve: ${p.kind === "folder" ? "the store cannot be opened for writing in it" : "serve answers every write with 503"}`,
      fix: `chmod ${octal(want)} ${p.path} (parkd doctor --fix does it)`,
      repair: { kind: "chmod", path: p.path, mode: want },
    });
  }
  if (!out.length)
    out.push({
      check,
      level: "ok",
      summary: `${dataDir} and its ${inside.length} files belong to ${owner}, private, writable`,
    });
  return out;
}

/** The data folder on a file system mounted read-only: nothing can be written, by anyone. */
export function mountRule(readOnlyMount: string | null, dataDir: string): Finding {
  if (readOnlyMount === null)
    return { check: "mount", level: "ok", summary: `${dataDir} is on a writable file system` };
  return {
    check: "mount",
    level: "fail",
    summary: `${dataDir} is on ${readOnlyMount}, mounted read-only: serve cannot write the store (every write 503) and cannot start on a new one`,
    fix: `remount it read-write (mount -o remount,rw ${readOnlyMount}) and find why it went read-only (dmesg: a failing card remounts itself read-only)`,
  };
}

export interface TerminalFacts {
  /** credentialLabel: "token:terminal-1", "user:terminal-2". */
  label: string;
  lastEventAt: number | null;
}

/** Silent: sent events before, none for silentMs (the alert rule's 30 minutes). */
export function terminalsRule(terminals: TerminalFacts[], now: number, silentMs = 30 * 60_000): Finding {
  const check = "terminals";
  if (!terminals.length)
    return {
      check,
      level: "info",
      summary: "no credential with tickets:write: no terminal can send events",
    };
  const ago = (at: number) => {
    const m = Math.round((now - at) / 60_000);
    return m < 120
      ? `${m} min ago`
      : m < 2880
        ? `${Math.round(m / 60)} h ago`
        : `${Math.round(m / 1440)} days ago`;
  };
  const parts = terminals.map((t) => `${t.label}: ${t.lastEventAt === null ? "never" : ago(t.lastEventAt)}`);
  const silent = terminals.filter((t) => t.lastEventAt !== null && now - t.lastEventAt > silentMs);
  if (silent.length)
    return {
      check,
      level: "warn",
      summary: `silent for over ${silentMs / 60_000} min: ${silent.map((t) => t.label).join(", ")} (last events: ${parts.join("; ")})`,
      fix: "check that terminal's power and network, and that it still has its token (parkd token list)",
    };
  return { check, level: "ok", summary: `last events: ${parts.join("; ")}` };
}

/** doctor's finding of a condition: its check, level and fix, with what was seen and what serve does. */
export function conditionFinding(condition: ConditionId, seen: string, at: Partial<FixPlace> = {}): Finding {
  const c: Condition = CONDITIONS[condition];
  return {
    check: c.check,
    level: c.level,
    summary: `${seen}; serve ${c.serve}`,
    fix: c.fix(at),
    condition,
  };
}
