import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { composeBox } from "../app.ts";
import { type AppConfig, createContext, systemTimezone } from "../context.ts";
import { isTimeZone } from "../domain/time/zoned.ts";
import { listenUrls, storeCounts } from "../modules/operations/index.ts";
import { type FrontEnd, startFrontEnd } from "../platform/http/server.ts";
import { startingAnswer } from "../platform/http/starting.ts";
import type { TlsMaterial } from "../platform/http/tls.ts";
import { log, logError, setRequestLogging } from "../platform/log.ts";
import { checkCopiesAside } from "../platform/store/copy-check.ts";
import { openStore, StoreTooNewError } from "../platform/store/db.ts";
import { acquireServeLock, DataFolderError, LockHeldError } from "../platform/store/lock.ts";
import {
  PreparationStopped,
  prepareStore,
  type StartingStep,
  startingText,
} from "../platform/store/preparation.ts";
import { uncheckedCopies } from "../platform/store/upgrade.ts";
import { VERSION } from "../version.ts";
import { intOpt, type OptionValues, stringOpt, UsageError } from "./args.ts";
import { type Command, dataDirOption, fail, upgradeText } from "./command.ts";
import { readHolidayFile } from "./holiday-file.ts";
import { publicUrlOpt, publicUrlOption } from "./serve-addresses.ts";
import { allowedHostsOpt, connectionLimits, limitOptions, trustProxyOpt } from "./serve-limits.ts";
import {
  type CertificateHolder,
  certificateText,
  keepCertificate,
  ownCertificate,
  servedCertificate,
  tlsDomainsOpt,
  tlsDomainsOption,
} from "./serve-tls.ts";
import { centralServeOptions, syncSettingsOf } from "./sync.ts";

function appConfig(v: OptionValues): AppConfig {
  const timezone = stringOpt(v, "timezone") ?? systemTimezone();
  if (!isTimeZone(timezone))
    throw new UsageError(`unknown time zone "${timezone}" (use an IANA name such as Europe/Stockholm)`);
  const currency = (stringOpt(v, "currency") ?? "SEK").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UsageError("--currency must be a three-letter code such as SEK");
  return {
    timezone,
    currency,
    recentHours: intOpt(v, "recent-hours", 0, 24 * 365) ?? 24,
    graceMinutes: intOpt(v, "grace-minutes", 0, 24 * 60) ?? 0,
    retentionDays: intOpt(v, "retention-days", 1, 36500) ?? 90,
    retentionMinDays: intOpt(v, "retention-min-days", 1, 36500) ?? 7,
    diskReserveMb: intOpt(v, "disk-reserve-mb", 0, 1_048_576),
    bodyLimit: (intOpt(v, "body-limit-kb", 1, 100 * 1024) ?? 64) * 1024,
    metricsToken: metricsToken(v),
    holidays: holidaysOpt(v),
    rateLimitPerSecond: intOpt(v, "rate-limit-per-second", 0, 1_000_000) ?? 0,
    rateLimitBurst: intOpt(v, "rate-limit-burst", 1, 1_000_000) ?? 200,
    publicRateLimitPerSecond: intOpt(v, "public-rate-limit-per-second", 0, 1_000_000) ?? 50,
    trustProxy: trustProxyOpt(v),
    publicUrl: publicUrlOpt(v),
    central: syncSettingsOf(v),
  };
}

/**
 * --metrics-token (or PARKD_METRICS_TOKEN), or --metrics-token-file: a flag's value shows in `ps`
 * to every user of the box, a file readable by parkd alone does not.
 */
function metricsToken(v: OptionValues): string | undefined {
  const file = stringOpt(v, "metrics-token-file");
  let token = stringOpt(v, "metrics-token");
  if (file !== undefined && token !== undefined)
    throw new UsageError("give --metrics-token or --metrics-token-file, not both");
  if (file !== undefined) {
    try {
      token = readFileSync(file, "utf8").replace(/\r?\n$/, "");
    } catch (e) {
      throw new UsageError(`--metrics-token-file ${file}: ${(e as Error).message}`);
    }
  }
  if (token === undefined) return undefined;
  if (token.length < 16) throw new UsageError("the metrics token must be at least 16 characters");
  return token;
}

function holidaysOpt(v: OptionValues): string[] {
  const file = stringOpt(v, "holidays");
  if (!file) return ["SE"];
  try {
    return readHolidayFile(file);
  } catch (e) {
    throw new UsageError(`--holidays ${file}: ${(e as Error).message}`);
  }
}

export const serveOptions = [
  {
    name: "host",
    type: "string" as const,
    valueName: "ADDR",
    default: "0.0.0.0",
    help: "address to listen on",
  },
  {
    name: "port",
    type: "string" as const,
    valueName: "PORT",
    help: "port to listen on (default 8443, or 8080 with --http)",
  },
  dataDirOption,
  {
    name: "tls-cert",
    type: "string" as const,
    valueName: "FILE",
    help: "PEM certificate (default: one the box's local CA issues, in the data folder)",
  },
  { name: "tls-key", type: "string" as const, valueName: "FILE", help: "PEM private key for --tls-cert" },
  { name: "http", type: "boolean" as const, help: "serve plain HTTP (behind a TLS proxy, or for tests)" },
  tlsDomainsOption,
  publicUrlOption,
  {
    name: "timezone",
    type: "string" as const,
    valueName: "ZONE",
    help: "site time zone, IANA name (default: the system's)",
  },
  {
    name: "currency",
    type: "string" as const,
    valueName: "CODE",
    default: "SEK",
    help: "currency of fees and quotes",
  },
  {
    name: "holidays",
    type: "string" as const,
    valueName: "FILE",
    help: 'public holidays (priced as Sundays): a JSON array of "YYYY-MM-DD" dates, and "SE" for the Swedish public holidays of every year (default: ["SE"])',
  },
  {
    name: "recent-hours",
    type: "string" as const,
    valueName: "H",
    default: "24",
    help: "check-tickets also lists permits that ended this many hours ago",
  },
  {
    name: "grace-minutes",
    type: "string" as const,
    valueName: "M",
    default: "0",
    help: "the attendant's verdict counts a permit for the zone that ended less than this long ago as in grace (0: off)",
  },
  {
    name: "retention-days",
    type: "string" as const,
    valueName: "D",
    default: "90",
    help: "delete tickets, events and lookup records this long after they ended",
  },
  {
    name: "retention-min-days",
    type: "string" as const,
    valueName: "D",
    default: "7",
    help: "on a disk at its reserve, retention deletes the oldest records beyond what the disk holds, never those younger than this",
  },
  {
    name: "disk-reserve-mb",
    type: "string" as const,
    valueName: "MB",
    help: "space kept free on the data folder's disk for ticket events: photos are refused before they would take it, retention makes room when records reach it (default: a twentieth of the disk, 256 MB to 2 GB; 0: none)",
  },
  {
    name: "metrics-token",
    type: "string" as const,
    valueName: "TOKEN",
    help: "a bearer token that may read /metrics only (admin tokens always may); visible in ps: prefer --metrics-token-file",
  },
  {
    name: "metrics-token-file",
    type: "string" as const,
    valueName: "FILE",
    help: "file holding the --metrics-token (one line), kept out of the process list",
  },
  {
    name: "log-requests",
    type: "boolean" as const,
    help: "write a log line for every request (off: only 5xx answers get one; the counts are in /metrics either way)",
  },
  ...limitOptions,
  {
    name: "body-limit-kb",
    type: "string" as const,
    valueName: "KB",
    default: "64",
    help: "largest request body accepted",
  },
  {
    name: "clock-shift",
    type: "string" as const,
    valueName: "SECONDS",
    help: "run the service's clock this far ahead of the system's (end-to-end tests of time limits only; warned of at start)",
  },
  ...centralServeOptions,
];

/** The service's clock: the system's, or moved ahead by --clock-shift (a test's way to let hours pass). */
function serviceClock(v: OptionValues): (() => number) | undefined {
  const seconds = intOpt(v, "clock-shift", 0, 31 * 24 * 3600) ?? 0;
  if (seconds === 0) return undefined;
  log(
    "warning",
    `the service's clock runs ${seconds} s ahead of the system's (--clock-shift): for tests only`,
    {
      clockShiftSeconds: seconds,
    },
  );
  const shift = seconds * 1000;
  return () => Date.now() + shift;
}

export const serveCommand: Command = {
  name: "serve",
  summary: "Run the service",
  options: serveOptions,
  async run(v) {
    const dataDir = stringOpt(v, "data-dir") ?? "./data";
    const plain = v.http === true;
    const port = intOpt(v, "port", 0, 65535) ?? (plain ? 8080 : 8443);
    const host = stringOpt(v, "host") ?? "0.0.0.0";
    const config = appConfig(v);
    const limits = connectionLimits(v, config.trustProxy);
    const own = ownCertificate(v, plain);
    const tlsDomains = tlsDomainsOpt(v);
    const allowedHosts = allowedHostsOpt(v);
    setRequestLogging(v["log-requests"] === true);
    const clock = serviceClock(v);

    let lock: ReturnType<typeof acquireServeLock>;
    try {
      lock = acquireServeLock(dataDir);
    } catch (e) {
      if (e instanceof LockHeldError || e instanceof DataFolderError) return fail(e.message);
      throw e;
    }
    const folder = resolve(dataDir);
    let tls: TlsMaterial | undefined;
    try {
      tls = plain
        ? undefined
        : await servedCertificate({ dataDir: folder, own, publicUrl: config.publicUrl, domains: tlsDomains });
    } catch (e) {
      lock.release();
      return fail(`the TLS certificate cannot be used: ${(e as Error).message}`);
    }
    const certificate: CertificateHolder = { current: tls };

    // The listener is up before the store is prepared: a long upgrade answers 503 with its step
    // (starting.ts), never a refused connection. The app takes over once the store is open.
    let step: StartingStep | null = null;
    let ready: {
      ctx: ReturnType<typeof createContext>;
      box: ReturnType<typeof composeBox>;
    } | null = null;
    let front: FrontEnd;
    try {
      front = await startFrontEnd({
        host,
        port,
        tls,
        bodyLimit: config.bodyLimit,
        bodyLimitOf: (method, path) => ready?.box.bodyLimitOf(method, path) ?? config.bodyLimit,
        limits,
        allowedHosts,
        metrics: {
          connectionRefused: (reason) => ready?.ctx.metrics.connectionRefused(reason),
          connectionTimedOut: (phase) => ready?.ctx.metrics.connectionTimedOut(phase),
        },
        direct: (head, meta, body) => ready?.box.direct(head, meta, body),
        handle: (request) =>
          ready ? ready.box.app.handle(request) : startingAnswer(request, step, Date.now()),
        account: (entry) => ready?.ctx.accounting.finish(entry),
      });
    } catch (e) {
      lock.release();
      const code = (e as { code?: string }).code;
      if (code === "EADDRINUSE")
        return fail(`port ${port} on ${host} is already in use (is another parkd running?)`);
      if (code === "EACCES") return fail(`not allowed to listen on port ${port} on ${host}`);
      return fail(`cannot listen on ${host}:${port}: ${(e as Error).message}`);
    }
    const urls = listenUrls(tls ? "https" : "http", host, front.port);

    // Told to stop while the store is prepared: the thread is ended and its partial copy removed;
    // before the migrations commit the store is as it was (they are one transaction), and the
    // next start begins again.
    const early = new AbortController();
    const stopEarly = (signal: string) => () => {
      if (early.signal.aborted) return;
      log("notice", `${signal}: stopping while the store is prepared`, { signal });
      early.abort();
    };
    const onTerm = stopEarly("SIGTERM");
    const onInt = stopEarly("SIGINT");
    process.on("SIGTERM", onTerm);
    process.on("SIGINT", onInt);
    let store: ReturnType<typeof openStore>;
    try {
      let told = 0;
      const upgrade = await prepareStore(
        folder,
        {
          timezone: config.timezone,
          currency: config.currency,
          aloneWhenFull: true,
          signal: early.signal,
        },
        (s) => {
          const changed = s.step !== step?.step;
          step = s;
          // Each step as it begins, and how far it is every 5 s.
          if (!changed && Date.now() - told < 5_000) return;
          told = Date.now();
          if (changed && s.step === 1)
            log(
              "notice",
              `starting: the store needs ${s.of} step(s) before serving; ${urls.join(" ")} answers 503 until then`,
              {
                steps: s.of,
              },
            );
          log("notice", `starting: ${startingText(s, Date.now())}`, {
            step: s.step,
            of: s.of,
            progress: s.progress,
          });
        },
      );
      store = openStore(dataDir, { aloneWhenFull: true });
      store.upgrade ??= upgrade;
    } catch (e) {
      await front.close(0).catch(() => {});
      lock.release();
      if (e instanceof PreparationStopped) {
        // Stopped once the migrations had committed (the revenue book was being built): the
        // store is upgraded, and the copy taken before it is kept for the next serve to check.
        const kept = uncheckedCopies(dataDir);
        log(
          "notice",
          kept.length > 0
            ? `stopped: the store's schema upgrade was made before the stop; the copy taken before it is kept at ${kept.join(", ")} for the next start to check`
            : "stopped: nothing was changed",
        );
        return 0;
      }
      // The lock file can be usable where the store is not (a store file on its own disk trouble).
      if (e instanceof DataFolderError || e instanceof StoreTooNewError)
        return fail(
          step
            ? `the store could not be prepared (${startingText(step, Date.now())}): ${e.message}`
            : e.message,
        );
      throw e;
    }
    process.off("SIGTERM", onTerm);
    process.off("SIGINT", onInt);
    if (store.upgrade)
      log("notice", upgradeText(store.upgrade), {
        schemaFrom: store.upgrade.from,
        schemaTo: store.upgrade.to,
        backup: store.upgrade.backup,
      });
    const ctx = createContext(store, config, clock);
    ctx.certificate = () => certificate.current;
    const box = composeBox(ctx);
    await box.start();
    ready = { ctx, box };
    // After the listener answers from the store: the check of the copy an upgrade took first.
    const copyCheck = checkCopiesAside(dataDir, (r) =>
      "kept" in r
        ? log("notice", `the copy of the store taken before the upgrade is checked and kept at ${r.kept}`, {
            backup: r.kept,
          })
        : r.deleted
          ? log(
              "error",
              `the copy of the store taken before the upgrade failed its check and was deleted (${r.failed}): the store itself is upgraded and whole; take a backup now with 'parkd backup' to have one to go back to`,
              { backup: r.copy },
            )
          : log(
              "warning",
              `the copy of the store taken before the upgrade could not be checked (${r.failed}): it is kept unchecked${r.copy ? ` at ${r.copy}` : ""}, and the next start of serve checks it`,
              { backup: r.copy },
            ),
    );
    const shutdown = async () => {
      copyCheck.stop();
      await ctx.stop();
      store.close();
      lock.release();
    };
    const schemaVersion = store.schemaVersion();

    // The start-up summary, as two log lines a person can read: where to connect (the URLs and
    // the TLS fingerprint to pin are in msg itself) and what the store holds.
    ctx.listening = urls;
    log("notice", `parkd ${VERSION} listening on ${urls.join(" ")}; ${certificateText(tls)}`, {
      version: VERSION,
      listen: `${host}:${front.port}`,
      urls,
      tls: tls?.source ?? "none",
      ...(tls ? { fingerprint: tls.fingerprint } : {}),
      ...(tls?.ca ? { caFingerprint: tls.ca.fingerprint } : {}),
      docs: `${urls[0]}/docs`,
    });
    // The store's summary follows once the tickets are counted on the store's thread, while the
    // first requests are answered: a million tickets take 20-50 ms to count. A stop before then
    // leaves it out.
    const logStoreSummary = (counts: Record<string, number>) => {
      // What the engine sizes its garbage collector for: the box's RAM, or its control group's
      // limit (systemd's MemoryMax=, a container's) when lower; BUN_JSC_forceRAMSize overrides both
      // (docs/operations.md "Memory"). Logged so that an operator can see which one it found.
      const memoryLimitBytes = process.constrainedMemory();
      const engineRamSize = process.env.BUN_JSC_forceRAMSize;
      log(
        "info",
        `data folder ${store.dataDir}, schema version ${schemaVersion}, time zone ${config.timezone}; store: ${Object.entries(
          counts,
        )
          .map(([k, n]) => `${n} ${k}`)
          .join(
            ", ",
          )}; retention ${config.retentionDays} days; memory ${Math.round(memoryLimitBytes / 2 ** 20)} MB${engineRamSize === undefined ? "" : ` (the engine told BUN_JSC_forceRAMSize=${engineRamSize})`}`,
        {
          dataDir: store.dataDir,
          schemaVersion,
          timezone: config.timezone,
          counts,
          retentionDays: config.retentionDays,
          memoryLimitBytes,
          ...(engineRamSize === undefined ? {} : { engineRamSize }),
        },
      );
    };
    storeCounts(store, (sql, here) => ctx.countOffLoop(sql, here)).then(logStoreSummary, () => {});
    if (v["lenient-request-target"] === true)
      log(
        "warning",
        "--lenient-request-target has no effect any more: raw UTF-8 in the request target is always read",
      );
    if (store.heldAlone)
      log(
        "warning",
        `the disk holding ${store.dataDir} is full: lookups are served, writes answer 503 until there is space; other parkd commands on this folder (token, backup, doctor) wait until serve is restarted once space is freed`,
        { dataDir: store.dataDir },
      );
    if (store.readOnly)
      log("warning", `${store.path} is write-protected: writes answer 503 until it is writable again`, {
        store: store.path,
      });

    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        log("notice", `${signal}: finishing in-flight requests`, { signal });
        ctx.openStreams.close(); // open zone feeds end now, or the listener would wait for them
        front
          .close()
          .catch((e) => logError("error while closing the listener", e))
          .finally(() => shutdown().finally(resolve));
      };
      process.on("SIGTERM", () => stop("SIGTERM"));
      process.on("SIGINT", () => stop("SIGINT"));
      keepCertificate(
        front,
        { dataDir: store.dataDir, own, publicUrl: config.publicUrl, domains: tlsDomains },
        certificate,
      );
    });
    log("notice", "stopped");
    return 0;
  },
};
