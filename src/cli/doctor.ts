import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { systemTimezone } from "../config.ts";
import { grants, isScope, type Scope } from "../domain/credentials.ts";
import { defaultReserveBytes } from "../domain/disk-room.ts";
import { isTimeZone } from "../domain/time/zoned.ts";
import { storePath } from "../platform/store/db.ts";
import { inspectStore } from "../platform/store/inspect.ts";
import { serveLockHeld } from "../platform/store/lock.ts";
import { startingStep, startingText } from "../platform/store/preparation.ts";
import { uncheckedCopies } from "../platform/store/upgrade.ts";
import { VERSION } from "../version.ts";
import { intOpt, type OptionValues, stringOpt } from "./args.ts";
import type { Command } from "./command.ts";
import {
  certificateRules,
  clockRule,
  portRule,
  systemdRule,
  timezoneRule,
  tlsRule,
} from "./doctor/box-rules.ts";
import {
  applyRepair,
  boxAddresses,
  certificateFacts,
  dataFolderFacts,
  diskFacts,
  hostname,
  ntpSynchronized,
  portState,
  readOnlyMount,
  tlsFacts,
  unitFacts,
} from "./doctor/host.ts";
import {
  conditionFinding,
  DISK_FULL_BYTES,
  diskRule,
  type Finding,
  integrityRule,
  mountRule,
  ownershipRule,
  type Repair,
  schemaRule,
  type TerminalFacts,
  terminalsRule,
  upgradeCopyRule,
  walRule,
} from "./doctor/rules.ts";
import { lookAtOffice } from "./doctor-office.ts";
import { readEnvFile, SERVICE_ENV_FILE } from "./env-file.ts";
import { serveOptions } from "./serve.ts";

function userNames(): (uid: number) => string {
  const names = new Map<number, string>();
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [name, , uid] = line.split(":");
      if (name && uid) names.set(Number(uid), name);
    }
  } catch {}
  return (uid) => names.get(uid) ?? `uid ${uid}`;
}

const writesTickets = (scopes: string) => {
  const list = scopes.split(" ").filter(isScope) as Scope[];
  return (
    grants({ kind: "token", id: "", name: "", scopes: list }, "tickets:write") && !list.includes("admin")
  );
};

/** Every check, in the order a technician reads them. Reads only. */
async function examine(v: OptionValues, now: number): Promise<Finding[]> {
  const dataDir = resolve(stringOpt(v, "data-dir") ?? "./data");
  const out: Finding[] = [];
  const { folder, inside } = dataFolderFacts(dataDir);
  out.push(...ownershipRule(folder, inside, dataDir, userNames()));
  const readOnly = folder ? readOnlyMount(dataDir) : null;
  if (folder) out.push(mountRule(readOnly, dataDir));

  const terminals: TerminalFacts[] = [];
  const lastSync: { push?: number; pull?: number } = {};
  let boxId: string | undefined;
  /** The credentials were read: only then can doctor say which terminals there are. */
  let storeRead = false;
  const hasStore = folder !== null && existsSync(storePath(dataDir));
  // A serve preparing the store (an upgrade) holds it for minutes: said as such, not as a lock.
  const starting = folder ? startingStep(dataDir) : null;
  if (starting)
    out.push({
      check: "store",
      level: "warn",
      summary: `serve (pid ${starting.pid}) is preparing the store before it serves: ${startingText(starting, now)}`,
      fix: "wait, and let it finish: it answers 503 with its progress until then, and logs each step (journalctl -u parkd)",
    });
  else if (hasStore) {
    try {
      const seen = inspectStore(dataDir);
      try {
        const healthy = seen.quickCheck.length === 1 && seen.quickCheck[0] === "ok";
        out.push(
          healthy
            ? integrityRule(seen.quickCheck, seen.storeBytes)
            : conditionFinding(
                "store-damaged",
                `quick_check reports damage: ${seen.quickCheck.slice(0, 3).join("; ")}`,
                { dataDir },
              ),
        );
        out.push(
          seen.schema.unknown > 0
            ? conditionFinding(
                "store-newer-schema",
                `schema ${seen.schema.applied}, this binary knows ${seen.known}`,
              )
            : schemaRule(seen.schema.applied, seen.schema.pending.length, seen.schema.unknown, seen.known),
        );
        out.push(walRule(seen.walBytes));
        const copy = upgradeCopyRule(uncheckedCopies(dataDir), serveLockHeld(dataDir));
        if (copy) out.push(copy);
        const live = (t: { revokedAt: number | null; expiresAt: number | null }) =>
          t.revokedAt === null && (t.expiresAt === null || t.expiresAt > now);
        // Labels as the intake writes them (credentialLabel): kind, a colon, the name.
        for (const t of seen.store.credentials.tokens())
          if (live(t) && writesTickets(t.scopes))
            terminals.push({ label: `token:${t.name}`, lastEventAt: 0 });
        for (const u of seen.store.credentials.users())
          if (writesTickets(u.scopes)) terminals.push({ label: `user:${u.name}`, lastEventAt: 0 });
        for (const t of terminals) t.lastEventAt = seen.store.ticketSearch.lastEventBy(t.label);
        lastSync.push = seen.store.syncCursors.updatedAt("events");
        lastSync.pull = seen.store.syncCursors.updatedAt("permits");
        boxId = seen.store.syncCursors.get("box");
        storeRead = true;
      } finally {
        seen.store.close();
      }
    } catch (e) {
      const message = (e as Error).message;
      out.push(
        /malformed|not a database|corrupt/i.test(message)
          ? conditionFinding("store-damaged", `cannot read ${storePath(dataDir)}: ${message}`, { dataDir })
          : {
              check: "store",
              level: "fail",
              summary: `cannot read ${storePath(dataDir)}: ${message}`,
              // A folder or mount it cannot write is said above; only then is the user the cause.
              fix:
                readOnly !== null || (folder !== null && (folder.mode & 0o200) === 0)
                  ? "make the data folder writable (above), then run doctor again"
                  : "run doctor as the service user or root",
            },
      );
    }
  } else if (folder)
    out.push({
      check: "store",
      level: "warn",
      summary: `no store in ${dataDir} yet`,
      fix: `start the service, or 'parkd migrate --data-dir ${dataDir}' as its user`,
    });
  if (folder) {
    const disk = diskFacts(dataDir);
    const reserveMb = intOpt(v, "disk-reserve-mb", 0, 1_048_576);
    const reserve = reserveMb !== undefined ? reserveMb * 1_048_576 : defaultReserveBytes(disk.total);
    const found = diskRule(disk.free, disk.total, dataDir, reserve);
    // A full disk under a store: serve starts and serves reads, writes wait for space.
    out.push(
      found.level === "fail" && hasStore && disk.free < DISK_FULL_BYTES
        ? conditionFinding("store-not-writable", found.summary)
        : found,
    );
  }

  const plain = v.http === true;
  if (!plain) {
    const certFile = stringOpt(v, "tls-cert");
    const keyFile = stringOpt(v, "tls-key");
    const facts = tlsFacts(dataDir, certFile && keyFile ? { certFile, keyFile } : undefined);
    const seen = tlsRule(facts, dataDir);
    if ("finding" in seen) out.push(seen.finding);
    else
      out.push(
        ...certificateRules(certificateFacts(facts.certFile, seen.source), boxAddresses(), hostname(), now),
      );
  }

  const zone = stringOpt(v, "timezone") ?? systemTimezone();
  out.push(timezoneRule(zone, isTimeZone(zone), systemTimezone()));
  const central = stringOpt(v, "central");
  const office = central
    ? await lookAtOffice(
        central,
        stringOpt(v, "central-password-file"),
        lastSync,
        now,
        stringOpt(v, "site"),
        boxId,
      )
    : null;
  out.push(clockRule(office?.skewMs, ntpSynchronized()));

  const port = intOpt(v, "port", 0, 65535) ?? (plain ? 8080 : 8443);
  const host = stringOpt(v, "host") ?? "0.0.0.0";
  out.push(portRule(await portState(host, port, !plain, serveLockHeld(dataDir)), host, port));
  out.push(systemdRule(unitFacts()));
  const silentMinutes = intOpt(v, "silent-minutes", 1, 100_000) ?? 30;
  out.push(
    storeRead
      ? terminalsRule(terminals, now, silentMinutes * 60_000)
      : {
          check: "terminals",
          level: "info",
          summary: hasStore ? "not checked: the store could not be read" : "not checked: no store yet",
        },
  );
  out.push(
    ...(office?.findings ?? [
      { check: "office link", level: "info", summary: "not configured (no --central)" },
    ]),
  );
  return out;
}

const MARK = { ok: "ok  ", info: "info", warn: "WARN", fail: "FAIL" } as const;

function print(findings: Finding[], fixed: { repair: Repair; error?: string }[], dataDir: string): void {
  const width = Math.max(...findings.map((f) => f.check.length));
  const lines = [`parkd doctor ${VERSION}: ${dataDir}`];
  for (const r of fixed)
    lines.push(
      `  fixed ${r.repair.kind === "mkdir" ? `made ${r.repair.path}` : `chmod 0${r.repair.mode.toString(8)} ${r.repair.path}`}${r.error ? ` FAILED: ${r.error}` : ""}`,
    );
  for (const f of findings) {
    lines.push(`  ${MARK[f.level]}  ${f.check.padEnd(width)}  ${f.summary}`);
    if (f.fix && f.level !== "ok") lines.push(`  ${" ".repeat(6 + width)}  fix: ${f.fix}`);
  }
  const fails = findings.filter((f) => f.level === "fail").length;
  const warns = findings.filter((f) => f.level === "warn").length;
  lines.push(fails || warns ? `${fails} problem(s), ${warns} warning(s)` : "nothing wrong found");
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** Which settings file doctor read, so a technician knows what it checked against. */
function settingsFinding(path: string): Finding {
  const vars = readEnvFile(path);
  if (vars === null)
    return existsSync(path)
      ? {
          check: "settings",
          level: "warn",
          summary: `cannot read ${path} (the service's settings): checked with this shell's settings only`,
          fix: "run doctor as root (sudo), as systemd reads the file",
        }
      : {
          check: "settings",
          level: "info",
          summary: `no ${path}: checked with this shell's settings and flags`,
        };
  const names = Object.keys(vars).filter((k) => k.startsWith("PARKD_"));
  return {
    check: "settings",
    level: "ok",
    summary: `read ${path} as the service does: ${names.length ? names.join(", ") : "no PARKD_ settings"} (the shell's and flags win)`,
  };
}

export const doctorCommand: Command = {
  name: "doctor",
  runsWhileStarting: true,
  summary:
    "Check this box (store, data folder, certificate, clock, port, service, terminals, office link); exit 1 on a problem",
  options: [
    ...serveOptions,
    { name: "json", type: "boolean", help: "print the findings as JSON" },
    {
      name: "fix",
      type: "boolean",
      help: "make the safe fixes (modes in the data folder, a missing data folder), then check again",
    },
    {
      name: "env-file",
      type: "string",
      valueName: "FILE",
      default: SERVICE_ENV_FILE,
      help: "the service's settings (PARKD_* lines), read as its unit reads them; the shell's PARKD_* and flags win",
    },
    {
      name: "silent-minutes",
      type: "string",
      valueName: "N",
      default: "30",
      help: "a terminal that sent nothing this long is silent",
    },
  ],
  // The service runs with its settings file: doctor checks with it too (the port, --central ...).
  environment(argv) {
    const i = argv.findIndex((a) => a === "--env-file" || a.startsWith("--env-file="));
    const path =
      i < 0
        ? (process.env.PARKD_ENV_FILE ?? SERVICE_ENV_FILE)
        : argv[i]!.includes("=")
          ? argv[i]!.split("=")[1]!
          : argv[i + 1]!;
    return { ...readEnvFile(path ?? SERVICE_ENV_FILE), ...process.env };
  },
  async run(v) {
    const dataDir = resolve(stringOpt(v, "data-dir") ?? "./data");
    let findings = [
      settingsFinding(stringOpt(v, "env-file") ?? SERVICE_ENV_FILE),
      ...(await examine(v, Date.now())),
    ];
    const fixed: { repair: Repair; error?: string }[] = [];
    if (v.fix === true) {
      for (const f of findings)
        if (f.repair && f.level === "fail") {
          try {
            applyRepair(f.repair);
            fixed.push({ repair: f.repair });
          } catch (e) {
            fixed.push({ repair: f.repair, error: (e as Error).message });
          }
        }
      if (fixed.length)
        findings = [
          settingsFinding(stringOpt(v, "env-file") ?? SERVICE_ENV_FILE),
          ...(await examine(v, Date.now())),
        ];
    }
    const ok = !findings.some((f) => f.level === "fail");
    if (v.json === true)
      process.stdout.write(
        `${JSON.stringify({ version: VERSION, dataDir, ok, fixed, findings }, null, 2)}\n`,
      );
    else print(findings, fixed, dataDir);
    return ok ? 0 : 1;
  },
};
