import type { SyncSettings } from "./modules/sync/settings.ts";

/** Settings the request handlers read; `serve` fills them from flags and environment. */
export interface AppConfig {
  /** IANA zone of the site: fees, opening hours, day types, dates sent without an offset. */
  timezone: string;
  currency: string;
  /** check-tickets also returns permits that ended this many hours ago. */
  recentHours: number;
  /** The verdict counts a permit that ended less than this many minutes ago as in grace (0: off). */
  graceMinutes: number;
  retentionDays: number;
  /**
   * Retention never deletes records younger than this to make room on a disk at its reserve
   * (it keeps retentionDays when the disk has room).
   */
  retentionMinDays: number;
  /** What the disk keeps free for ticket events, in MB; unset: a twentieth of the disk, 256 MB to 2 GB. */
  diskReserveMb?: number;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** A bearer token that may read /metrics only (besides admin credentials); unset: admin only. */
  metricsToken?: string;
  /**
   * Public holidays, priced like Sundays: dates "YYYY-MM-DD", and "SE" for the Swedish public
   * holidays of every year (src/domain/tariff/holidays.ts). Default ["SE"].
   */
  holidays: readonly string[];
  /** Requests a second each credential may send on average (0: no limit), and how many at once. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /**
   * Requests a second each client address may send to the public routes (lot reads, quotes, the
   * kiosk board, handheld setup, sign-in) on average (0: no limit); four times as many at once.
   */
  publicRateLimitPerSecond: number;
  /** Reverse proxies (addresses or CIDR blocks) whose X-Forwarded-For names the client. */
  trustProxy: readonly string[];
  /**
   * The address handhelds reach the box at (`--public-url`, e.g. https://parking-box.lan:8443):
   * what sign-in QR codes point to. Unset: the LAN addresses serve listens on.
   */
  publicUrl?: string;
  /** The office's PostgreSQL and this site's id there (`serve --central`); unset: no sync. */
  central?: SyncSettings;
}

export function systemTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export const defaultConfig = (): AppConfig => ({
  timezone: systemTimezone(),
  currency: "SEK",
  recentHours: 24,
  graceMinutes: 0,
  retentionDays: 90,
  retentionMinDays: 7,
  bodyLimit: 64 * 1024,
  holidays: ["SE"],
  rateLimitPerSecond: 0,
  rateLimitBurst: 200,
  publicRateLimitPerSecond: 50,
  trustProxy: [],
});
