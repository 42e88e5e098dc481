import type { FrontEnd } from "../platform/http/server.ts";
import { boxNames, isDnsName, loadTls, type TlsMaterial } from "../platform/http/tls.ts";
import { log } from "../platform/log.ts";
import { type OptionValues, stringOpt, UsageError } from "./args.ts";

/** --tls-cert and --tls-key, which go together, and never with --http. */
export function ownCertificate(
  v: OptionValues,
  plain: boolean,
): { certFile: string; keyFile: string } | undefined {
  const certFile = stringOpt(v, "tls-cert");
  const keyFile = stringOpt(v, "tls-key");
  if (!certFile && !keyFile) return undefined;
  // Serving plain HTTP while the operator thinks a certificate protects it is worse than not starting.
  if (plain)
    throw new UsageError("--tls-cert/--tls-key and --http exclude each other: --http serves without TLS");
  if (!certFile || !keyFile) throw new UsageError("--tls-cert and --tls-key go together");
  return { certFile, keyFile };
}

export const tlsDomainsOption = {
  name: "tls-domains",
  type: "string" as const,
  valueName: "DOMAIN,...",
  help: "the site's own DNS domains a new local CA may also issue for, beside .lan, .local, .internal, .home.arpa and the private addresses (a renamed box within them needs no new CA)",
};

/** --tls-domains (or PARKD_TLS_DOMAINS): comma-separated DNS names, each standing for itself and all below it. */
export function tlsDomainsOpt(v: OptionValues): string[] {
  const text = stringOpt(v, "tls-domains");
  if (text === undefined) return [];
  const domains = text
    .split(",")
    .map((d) =>
      d
        .trim()
        .toLowerCase()
        .replace(/^\.|\.$/g, ""),
    )
    .filter(Boolean);
  for (const d of domains)
    if (!isDnsName(d))
      throw new UsageError(
        `--tls-domains: "${d}" is not a DNS domain (e.g. parking.example.org; no wildcard, no address: the private addresses are permitted already)`,
      );
  return domains;
}

/** Where the served certificate comes from, and the names it is for. */
export interface CertificateSettings {
  dataDir: string;
  own: { certFile: string; keyFile: string } | undefined;
  publicUrl: string | undefined;
  /** --tls-domains, for a local CA made now. */
  domains: string[];
}

/** The served certificate, with what a handheld needs to trust it; a bad file is the operator's to fix. */
export async function servedCertificate(where: CertificateSettings): Promise<TlsMaterial> {
  const tls = await loadTls(where.dataDir, where.own, boxNames(where.publicUrl, where.domains));
  if (tls.warning) log("warning", tls.warning);
  if (tls.source === "self-signed")
    log(
      "notice",
      "serving the self-signed certificate an earlier version made; to let handhelds trust the box once, move tls/cert.pem and tls/key.pem aside and restart (docs/network.md)",
    );
  return tls;
}

/** The start-up line's words for the certificate (the fingerprints to pin are in the text itself). */
export function certificateText(tls: TlsMaterial | undefined): string {
  if (!tls) return "plain HTTP (no TLS)";
  const made = tls.made === "ca" ? " (new local CA)" : tls.made === "certificate" ? " (newly issued)" : "";
  const ca = tls.ca ? `; local CA SHA-256 fingerprint ${tls.ca.fingerprint}${made}` : "";
  return `TLS certificate SHA-256 fingerprint ${tls.fingerprint}${ca}`;
}

/** The served certificate and its CA, as the front end and the handheld set-up page see them. */
export interface CertificateHolder {
  current: TlsMaterial | undefined;
}

/**
 * A renewed certificate is read again without a restart (SIGHUP: systemctl reload parkd), and one
 * from the local CA is renewed by the box itself (checked once a day).
 */
export function keepCertificate(
  front: FrontEnd,
  where: CertificateSettings,
  holder: CertificateHolder,
): void {
  const reload = (why: "SIGHUP" | "daily check") => void reloadCertificate(front, where, holder, why);
  process.on("SIGHUP", () => {
    if (!holder.current) log("info", "SIGHUP: plain HTTP, no certificate to reload");
    else reload("SIGHUP");
  });
  // Armed for any data-folder certificate: one moved aside and replaced by the CA's on a SIGHUP
  // is kept current too.
  if (holder.current && !where.own) setInterval(() => reload("daily check"), 86_400_000).unref();
}

/**
 * SIGHUP, and once a day: the certificate is read again (renewed from the local CA when due, or
 * when the box has a new address) and served to new connections; a bad pair keeps the old one.
 */
export async function reloadCertificate(
  front: FrontEnd,
  where: CertificateSettings,
  holder: CertificateHolder,
  why: "SIGHUP" | "daily check",
): Promise<void> {
  try {
    const tls = await loadTls(where.dataDir, where.own, boxNames(where.publicUrl, where.domains));
    if (tls.warning) log("warning", `${why}: ${tls.warning}`);
    if (why === "daily check" && tls.fingerprint === holder.current?.fingerprint) return;
    front.reloadTls(tls);
    holder.current = tls;
    log("notice", `${why}: serving the certificate with SHA-256 fingerprint ${tls.fingerprint}`, {
      fingerprint: tls.fingerprint,
      ...(tls.ca ? { caFingerprint: tls.ca.fingerprint } : {}),
    });
  } catch (e) {
    log(
      "error",
      `${why}: the certificate was not reloaded, the previous one is still served: ${(e as Error).message}`,
    );
  }
}
