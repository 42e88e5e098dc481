/**
 * Doctor's rules for the box around the data: certificate, time, port, service manager. Pure,
 * as rules.ts.
 */
import type { Finding } from "./rules.ts";

export interface CertificateFacts {
  file: string;
  own: boolean;
  validTo: number;
  /** DNS names and IP addresses the certificate names. */
  dns: string[];
  ips: string[];
}

/** One spelling per address: certificates write IPv6 in full (0:0:0:0:0:0:0:1), the system short (::1). */
export function canonicalIp(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.toLowerCase().split("::");
  const part = (s: string) => (s ? s.split(":") : []);
  const groups =
    tail === undefined
      ? part(head)
      : [...part(head), ...Array(8 - part(head).length - part(tail).length).fill("0"), ...part(tail)];
  return groups.map((g) => Number.parseInt(g, 16).toString(16)).join(":");
}

export function certificateRules(
  c: CertificateFacts,
  addresses: string[],
  hostName: string,
  now: number,
): Finding[] {
  const days = Math.floor((c.validTo - now) / 86_400_000);
  const renew = c.own
    ? `put a renewed certificate at ${c.file} and restart the service`
    : `move ${c.file} and its key aside and restart the service: a new self-signed certificate is made (handhelds that pin the fingerprint need the new one from the start-up log)`;
  const expiry: Finding =
    days < 0
      ? { check: "certificate", level: "fail", summary: `${c.file} expired ${-days} days ago`, fix: renew }
      : days < 30
        ? { check: "certificate", level: "warn", summary: `${c.file} expires in ${days} days`, fix: renew }
        : { check: "certificate", level: "ok", summary: `${c.file} valid for ${days} more days` };
  const named = new Set(c.ips.map(canonicalIp));
  const missing = addresses.filter((a) => !named.has(canonicalIp(a)));
  const nameMissing = hostName && !c.dns.includes(hostName) ? [hostName] : [];
  const uncovered = [...nameMissing, ...missing];
  const names: Finding = uncovered.length
    ? {
        check: "certificate names",
        level: "warn",
        summary: `the certificate does not name ${uncovered.join(", ")} (it names ${[...c.dns, ...c.ips].join(", ")}): clients that verify it fail on those`,
        fix: c.own ? `get a certificate that also names ${uncovered.join(", ")}` : renew,
      }
    : {
        check: "certificate names",
        level: "ok",
        summary: `covers the host name and every address (${addresses.join(", ")})`,
      };
  return [expiry, names];
}

export function timezoneRule(zone: string, valid: boolean, system: string): Finding {
  if (!valid)
    return {
      check: "time zone",
      level: "fail",
      summary: `${zone} is not an IANA time zone: serve refuses to start`,
      fix: "set PARKD_TIMEZONE to a name such as Europe/Stockholm in /etc/parkd/parkd.env",
    };
  if (zone !== system)
    return { check: "time zone", level: "info", summary: `site time ${zone} (the system's is ${system})` };
  return { check: "time zone", level: "ok", summary: `site time ${zone} (the system's)` };
}

/** skewMs: this box minus the office (undefined without --central); synced: NTP's word, if any. */
export function clockRule(skewMs: number | undefined, synced: boolean | undefined): Finding {
  const check = "clock";
  const fix = "enable time sync (timedatectl set-ntp true) and check the box reaches its NTP server";
  if (skewMs !== undefined) {
    const s = Math.abs(skewMs) / 1000;
    const summary = `${s.toFixed(1)} s ${skewMs >= 0 ? "ahead of" : "behind"} the office`;
    if (s > 30)
      return {
        check,
        level: "fail",
        summary: `${summary}: tickets look active or ended at the wrong time`,
        fix,
      };
    if (s > 2) return { check, level: "warn", summary, fix };
    if (synced === false)
      return { check, level: "warn", summary: `${summary}, but NTP is not synchronized`, fix };
    return { check, level: "ok", summary };
  }
  if (synced === false) return { check, level: "warn", summary: "NTP is not synchronized", fix };
  if (synced === true) return { check, level: "ok", summary: "synchronized by NTP" };
  return { check, level: "info", summary: "no NTP status (no timedatectl) and no office to compare with" };
}

export type PortState = "free" | "this-parkd" | "other-parkd" | "other" | "denied";

export function portRule(state: PortState, host: string, port: number): Finding {
  const at = `${host}:${port}`;
  switch (state) {
    case "free":
      return { check: "port", level: "ok", summary: `${at} is free: serve can listen on it` };
    case "this-parkd":
      return {
        check: "port",
        level: "ok",
        summary: `${at} is served by the parkd running on this data folder`,
      };
    case "other-parkd":
      return {
        check: "port",
        level: "fail",
        summary: `${at} is held by a parkd that is not running on this data folder`,
        fix: "stop that parkd, or give one of them another --port",
      };
    case "denied":
      return {
        check: "port",
        level: "fail",
        summary: `this user may not listen on ${at}`,
        fix: "use a port above 1023 (the default 8443) or give the unit CAP_NET_BIND_SERVICE",
      };
    default:
      return {
        check: "port",
        level: "fail",
        summary: `${at} is in use by another program`,
        fix: `find it with: ss -ltnp 'sport = :${port}'; stop it or use another --port`,
      };
  }
}

export interface UnitFacts {
  load: string;
  active: string;
  sub: string;
  enabled: string;
  restarts: number;
}

export function systemdRule(u: UnitFacts | "not-running" | null): Finding {
  const check = "systemd unit";
  if (!u) return { check, level: "info", summary: "no systemctl on this box" };
  if (u === "not-running")
    return { check, level: "info", summary: "systemd is not running here (a container?)" };
  if (u.load === "not-found")
    return { check, level: "info", summary: "parkd.service is not installed (parkd is run some other way)" };
  const summary = `parkd.service ${u.active} (${u.sub}), ${u.enabled}, ${u.restarts} restarts`;
  if (u.active === "failed" || (u.active !== "active" && u.enabled === "enabled"))
    return {
      check,
      level: "fail",
      summary,
      fix: "journalctl -u parkd -n 50 says why; then systemctl restart parkd",
    };
  if (u.restarts > 3)
    return { check, level: "warn", summary, fix: "journalctl -u parkd says why it keeps restarting" };
  return { check, level: u.active === "active" ? "ok" : "info", summary };
}
