import type { FrontEnd } from "../platform/http/server.ts";
import { loadTls } from "../platform/http/tls.ts";
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

/** SIGHUP: the certificate files read again and served to new connections; a bad pair keeps the old one. */
export async function reloadCertificate(
  front: FrontEnd,
  dataDir: string,
  own: { certFile: string; keyFile: string } | undefined,
): Promise<void> {
  try {
    const tls = await loadTls(dataDir, own);
    front.reloadTls(tls);
    log("notice", `SIGHUP: serving the certificate with SHA-256 fingerprint ${tls.fingerprint}`, {
      fingerprint: tls.fingerprint,
    });
  } catch (e) {
    log(
      "error",
      `SIGHUP: the certificate was not reloaded, the previous one is still served: ${(e as Error).message}`,
    );
  }
}
