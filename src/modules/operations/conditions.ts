/**
 * The conditions a box cannot work under, or works under only in part: what `serve` refuses to
 * start on, what it repairs by itself, and what `/readyz` reports while it runs. One list, read
 * by doctor's rules (its findings carry the condition's id and fix) and by `/readyz` (its
 * `problems`), so a technician reads the same words from both, and a condition added here without
 * a case in doctor's fault table fails test/modules/operations/doctor-conditions.test.ts.
 */
/** ok: fine. warn: look at it, it may be fine (a terminal silent at night). fail: something is wrong. */
export type Level = "ok" | "info" | "warn" | "fail";

/** What the fix texts may name. */
export interface FixPlace {
  dataDir: string;
  file: string;
  site: string;
}

export interface Condition {
  /** doctor's check it shows under. */
  check: string;
  level: Level;
  /** What serve does about it, in words a technician acts on. */
  serve: string;
  fix: (at: Partial<FixPlace>) => string;
}

const TLS_DIR = (at: Partial<FixPlace>) => `${at.dataDir ?? "<data folder>"}/tls`;

export const CONDITIONS = {
  "store-newer-schema": {
    check: "schema version",
    level: "fail",
    serve: "refuses to start: a newer release wrote this store",
    fix: () =>
      "install that newer parkd again; or, to go back, stop the service and 'parkd restore' the pre-upgrade copy in the data folder's backups/ (what was written since is lost)",
  },
  "store-damaged": {
    check: "store integrity",
    level: "fail",
    serve:
      "starts and serves what it can read; requests touching the damaged pages answer 500 (a quick_check of the whole store is doctor's, not /readyz's)",
    fix: (at) =>
      `stop the service, then 'parkd restore --data-dir ${at.dataDir ?? "<data folder>"} FILE' a backup (or a copy in backups/): restore replaces the store with the backup's contents, so what was written since that backup is lost; check the disk (dmesg, smartctl)`,
  },
  "store-not-writable": {
    check: "disk space",
    level: "fail",
    serve:
      "starts on an existing store and serves reads; every write answers 503 and /readyz answers 503 until a write commits again",
    fix: () =>
      "free space on that disk (old logs: journalctl --vacuum-size=100M; old backups), or lower --retention-days; serve takes writes again by itself",
  },
  "disk-near-reserve": {
    check: "disk space",
    level: "warn",
    serve:
      "serves as usual; says so in the log once and on /readyz: at the reserve kept for ticket events, photos are refused and retention deletes the oldest records",
    fix: () =>
      "free space on that disk (old logs: journalctl --vacuum-size=100M; old backups), move the data folder to a larger disk, or lower --retention-days; a photo-heavy site can lower --disk-reserve-mb only if ticket events never fill the rest",
  },
  "disk-at-reserve": {
    check: "disk space",
    level: "warn",
    serve:
      "takes ticket events into the reserve; refuses photos (503 photo-storage-full); retention deletes the oldest records, a day at a time, until the disk has room, never those younger than --retention-min-days",
    fix: () =>
      "free space on that disk or move the data folder to a larger one; serve goes back to --retention-days by itself once the disk has room (1.5 times the reserve)",
  },
  "tls-ca-half-missing": {
    check: "certificate",
    level: "fail",
    serve: "refuses to start (a new CA would void every handheld's trust)",
    fix: (at) =>
      `restore ${at.file ?? "the missing file"} from a backup; or move ${TLS_DIR(at)}/ca.pem, ca-key.pem, cert.pem and key.pem aside and restart: serve makes a new local CA and handhelds must install it again`,
  },
  "tls-ca-unusable": {
    check: "certificate",
    level: "fail",
    serve: "refuses to start",
    fix: (at) =>
      `restore ${TLS_DIR(at)}/ca.pem and ca-key.pem from a backup; or move ${TLS_DIR(at)}/ aside and restart: serve makes a new local CA and handhelds must install it again`,
  },
  "tls-pair-mismatch": {
    check: "certificate",
    level: "fail",
    serve: "refuses to start: the key does not belong to the certificate",
    fix: (at) =>
      `put the certificate's own key beside it (or the key's certificate) at ${at.file ?? "the certificate's path"}; for the data folder's pair, moving cert.pem and key.pem aside and restarting makes serve issue one from a local CA`,
  },
  "tls-unreadable": {
    check: "certificate",
    level: "fail",
    serve: "refuses to start",
    fix: (at) => `replace ${at.file ?? "the file"} with a PEM certificate and its key`,
  },
  "tls-local-ca-renews": {
    check: "certificate",
    level: "warn",
    serve:
      "issues a new certificate from the box's local CA (same key) at its next start, SIGHUP or daily check; handhelds that trust the CA need nothing",
    fix: () =>
      "restart the service or reload it (systemctl reload parkd); serve issues the new certificate itself",
  },
  "tls-expired": {
    check: "certificate",
    level: "fail",
    serve: "serves it expired: clients that verify it refuse the box",
    fix: (at) =>
      `put a renewed certificate at ${at.file ?? "its path"} and reload the service (systemctl reload parkd); for the data folder's self-signed one, move cert.pem and key.pem aside and restart: serve makes a local CA and issues from it (handhelds install the CA once, from the console's Handhelds page)`,
  },
  "office-clock-skew": {
    check: "clock",
    level: "warn",
    serve:
      "judges tickets and permits by its own clock, so they look active or ended at the wrong time by the difference; says so in the log once and on /readyz while it lasts",
    fix: () =>
      "enable time sync (timedatectl set-ntp true) and check the box reaches its NTP server; serve says when the clocks agree again",
  },
  "office-plaintext": {
    check: "office link",
    level: "warn",
    serve: "syncs in plaintext, says so in the log at every start, and /readyz lists it",
    fix: () =>
      "turn TLS on at the office server (ssl = on) and drop sslmode=disable from PARKD_CENTRAL (without sslmode the box requires TLS)",
  },
  "office-role-not-site": {
    check: "office link",
    level: "fail",
    serve: "starts but syncs nothing; /readyz names the role",
    fix: (at) =>
      `give this box the role and password 'parkd central add-site ${at.site ?? "SITE"}' made for its site (PARKD_CENTRAL's user, PARKD_CENTRAL_PASSWORD_FILE)`,
  },
  "office-site-claimed": {
    check: "office link",
    level: "fail",
    serve: "starts but pushes nothing; /readyz says the site id is held by another box",
    fix: () =>
      "give this box its own --site (a new add-site); if it replaces that box with that box's store, set parkd.sites.box_id to NULL for the site at the office",
  },
  "office-schema": {
    check: "office link",
    level: "fail",
    serve: "starts but syncs nothing; /readyz says the office's schema is missing or older than it needs",
    fix: () => "run 'parkd central init' against the office with the owner's credentials",
  },
  "office-unreachable": {
    check: "office link",
    level: "fail",
    serve: "works on alone, keeps what the office has not got, and tries the office every 5 s",
    fix: () =>
      "check the network to the office, the password (--central-password-file or PARKD_CENTRAL_PASSWORD), the office's pg_hba.conf, and that 'parkd central init' was run there",
  },
} satisfies Record<string, Condition>;

export type ConditionId = keyof typeof CONDITIONS;

/** A problem as /readyz lists it. */
export interface ReportedProblem {
  condition: ConditionId;
  summary: string;
  fix: string;
}

/** A condition's fix text, for the place at hand. */
export function fixFor(condition: ConditionId, at: Partial<FixPlace> = {}): string {
  const c: Condition = CONDITIONS[condition];
  return c.fix(at);
}

export function reported(
  condition: ConditionId,
  summary: string,
  at: Partial<FixPlace> = {},
): ReportedProblem {
  return { condition, summary, fix: fixFor(condition, at) };
}
