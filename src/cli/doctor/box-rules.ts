/**
 * Doctor's rules for the box around the data: certificate, time, port, service manager. Pure,
 * as rules.ts.
 */
import { fixFor } from "../../modules/operations/index.ts";
import { conditionFinding, type Finding } from "./rules.ts";

export interface CertificateFacts {
  file: string;
  /** Who makes a new one: the operator (own), serve from its local CA, nobody (an old self-signed one). */
  source: "own" | "local-ca" | "self-signed";
  validTo: number;
  /** DNS names and IP addresses the certificate names. */
  dns: string[];
  ips: string[];
  /** A name-constrained local CA: whether it may name this host name or address; null: any. */
  permitted?: ((name: string) => boolean) | null;
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
  const at = { file: c.file };
  // What renews it is what serve will do: the local CA's is issued anew by serve itself.
  const renew = c.source === "local-ca" ? fixFor("tls-local-ca-renews", at) : fixFor("tls-expired", at);
  const expiry: Finding =
    days < 0
      ? conditionFinding(
          c.source === "local-ca" ? "tls-local-ca-renews" : "tls-expired",
          `${c.file} expired ${-days} days ago`,
          at,
        )
      : days < 30
        ? { check: "certificate", level: "warn", summary: `${c.file} expires in ${days} days`, fix: renew }
        : { check: "certificate", level: "ok", summary: `${c.file} valid for ${days} more days` };
  const named = new Set(c.ips.map(canonicalIp));
  const missing = addresses.filter((a) => !named.has(canonicalIp(a)));
  const nameMissing = hostName && !c.dns.includes(hostName) ? [hostName] : [];
  // A name the local CA may not speak for (a public address) is left out by design: said, not warned.
  const allowed = c.permitted ?? (() => true);
  const outside = [...nameMissing, ...missing].filter((n) => !allowed(n));
  const uncovered = [...nameMissing, ...missing].filter((n) => allowed(n));
  const leftOut = outside.length
    ? `; leaves out ${outside.join(", ")}, which the local CA may not name (the site's private names only: --tls-domains, or --tls-cert for a public name)`
    : "";
  const names: Finding = uncovered.length
    ? {
        check: "certificate names",
        level: "warn",
        summary: `the certificate does not name ${uncovered.join(", ")} (it names ${[...c.dns, ...c.ips].join(", ")}): clients that verify it fail on those`,
        fix: c.source === "own" ? `get a certificate that also names ${uncovered.join(", ")}` : renew,
      }
    : {
        check: "certificate names",
        level: "ok",
        summary: `covers the host name and every address the local CA may name (${addresses.filter(allowed).join(", ")})${leftOut}`,
      };
  return [expiry, names];
}

/** The certificate files as serve reads them (host.ts tlsFacts). */
export interface TlsFacts {
  own: boolean;
  certFile: string;
  keyFile: string;
  caFile: string;
  caKeyFile: string;
  certPresent: boolean;
  keyPresent: boolean;
  caPresent: boolean;
  caKeyPresent: boolean;
  /** The certificate parses as PEM. */
  certReadable: boolean;
  /** ca.pem parses and ca-key.pem is its key. */
  caUsable: boolean;
  /** The key file holds the certificate's key. */
  pairs: boolean;
  issuedByCa: boolean;
  selfSigned: boolean;
}

/**
 * What serve's loadTls will do with these files, as a finding: refuse (a fail), issue a new
 * certificate itself (a warning naming that), or serve them (null: the certificate's own rules
 * then look at its dates and names, with the source returned).
 */
export function tlsRule(
  f: TlsFacts,
  dataDir: string,
): { finding: Finding } | { source: CertificateFacts["source"] } {
  const where = { dataDir };
  const pair = (source: "own" | "self-signed"): { finding: Finding } | { source: typeof source } => {
    if (!f.certPresent || !f.keyPresent)
      return {
        finding: conditionFinding(
          "tls-unreadable",
          `${f.certPresent ? f.keyFile : f.certFile} does not exist`,
          {
            file: f.certPresent ? f.keyFile : f.certFile,
          },
        ),
      };
    if (!f.certReadable)
      return {
        finding: conditionFinding("tls-unreadable", `${f.certFile} is not a PEM certificate`, {
          file: f.certFile,
        }),
      };
    if (!f.pairs)
      return {
        finding: conditionFinding(
          "tls-pair-mismatch",
          `the key in ${f.keyFile} does not belong to the certificate in ${f.certFile}`,
          { ...where, file: f.certFile },
        ),
      };
    return { source };
  };
  if (f.own) return pair("own");
  const served = f.certPresent && f.keyPresent;
  if (served && !f.caPresent && !f.caKeyPresent) return pair(f.selfSigned ? "self-signed" : "own");
  if (!f.caPresent && !f.caKeyPresent)
    return {
      finding: {
        check: "certificate",
        level: "info",
        summary:
          "no certificate yet: serve makes the box's local CA and issues a certificate from it at its first start",
      },
    };
  if (f.caPresent !== f.caKeyPresent) {
    const missing = f.caPresent ? f.caKeyFile : f.caFile;
    return {
      finding: conditionFinding(
        "tls-ca-half-missing",
        `${missing} is missing beside the local CA's other file`,
        {
          ...where,
          file: missing,
        },
      ),
    };
  }
  if (!f.caUsable)
    return {
      finding: conditionFinding(
        "tls-ca-unusable",
        `${f.caFile} and ${f.caKeyFile} are not a PEM certificate and its key`,
        where,
      ),
    };
  if (!f.certPresent || !f.keyPresent)
    return {
      finding: {
        check: "certificate",
        level: "info",
        summary: "no server certificate yet: serve issues one from the local CA at its start",
      },
    };
  if (!f.certReadable)
    return {
      finding: conditionFinding("tls-unreadable", `${f.certFile} is not a PEM certificate`, {
        file: f.certFile,
      }),
    };
  // A certificate the CA did not issue is the operator's: served as it is, if it pairs.
  if (!f.issuedByCa) return pair("own");
  if (!f.pairs)
    return {
      finding: conditionFinding(
        "tls-local-ca-renews",
        `the key in ${f.keyFile} does not belong to the certificate in ${f.certFile}`,
        where,
      ),
    };
  return { source: "local-ca" };
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
    if (s > 2) return conditionFinding("office-clock-skew", summary);
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
