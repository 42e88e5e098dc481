/**
 * What `parkd doctor` looks at on the box: files, the disk, the certificate, the port, systemd,
 * NTP. Everything here reads; applyRepair is the only writer, and only `--fix` calls it.
 */

import { createPrivateKey, X509Certificate } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statfsSync,
  statSync,
} from "node:fs";
import { createServer } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { dirname, join } from "node:path";
import { isPermitted, permittedNamesOf } from "../../platform/http/x509.ts";
import type { CertificateFacts, PortState, TlsFacts, UnitFacts } from "./box-rules.ts";
import type { PathFacts, Repair } from "./rules.ts";

function facts(path: string, kind: PathFacts["kind"]): PathFacts | null {
  try {
    const s = statSync(path);
    return { path, kind: s.isDirectory() ? "folder" : kind, mode: s.mode & 0o777, uid: s.uid };
  } catch {
    return null;
  }
}

/** The data folder, and what parkd keeps in it (one level down in tls/ and backups/). */
export function dataFolderFacts(dataDir: string): { folder: PathFacts | null; inside: PathFacts[] } {
  const folder = facts(dataDir, "folder");
  if (!folder) return { folder, inside: [] };
  const inside: PathFacts[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(dir, name);
      const f = facts(path, name === "cert.pem" || name === "ca.pem" ? "public" : "private");
      if (!f) continue;
      inside.push(f);
      if (f.kind === "folder" && depth < 1) walk(path, depth + 1);
    }
  };
  walk(dataDir, 0);
  return { folder, inside };
}

/**
 * The mount point under which `path` lies, when it is mounted read-only (its own options, or the
 * file system's); null when writable or not known (no /proc).
 */
export function readOnlyMount(path: string): string | null {
  let info: string;
  let real: string;
  try {
    info = readFileSync("/proc/self/mountinfo", "utf8");
    real = realpathSync(path);
  } catch {
    return null;
  }
  let best: { point: string; ro: boolean } | null = null;
  for (const line of info.split("\n")) {
    // id parent major:minor root mount-point mount-options ... - type source super-options
    const f = line.split(" ");
    const point = f[4]?.replace(/\\040/g, " ");
    if (!point) continue;
    const inside = point === "/" || real === point || real.startsWith(`${point}/`);
    if (!inside || (best && best.point.length > point.length)) continue;
    const dash = f.indexOf("-");
    const opts = [...(f[5] ?? "").split(","), ...(dash > 0 ? (f[dash + 3] ?? "").split(",") : [])];
    best = { point, ro: opts.includes("ro") };
  }
  return best?.ro ? best.point : null;
}

export function diskFacts(dir: string): { free: number; total: number } {
  const s = statfsSync(dir);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
}

/** The addresses clients reach the box on: not loopback, not link-local. */
export function boxAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (!a.internal && !a.address.startsWith("fe80")) out.push(a.address);
  return [...new Set(out)];
}

export { hostname };

export function certificateFacts(file: string, source: CertificateFacts["source"]): CertificateFacts {
  const c = new X509Certificate(readFileSync(file));
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of (c.subjectAltName ?? "").split(/,\s*/)) {
    if (part.startsWith("DNS:")) dns.push(part.slice(4));
    else if (part.startsWith("IP Address:")) ips.push(part.slice(11).toLowerCase());
  }
  // What the local CA may speak for: names outside it are left out of the certificate by design.
  const caFile = join(dirname(file), "ca.pem");
  let permitted: CertificateFacts["permitted"] = null;
  if (source === "local-ca" && existsSync(caFile)) {
    const names = permittedNamesOf(readFileSync(caFile, "utf8"));
    if (names) permitted = (name) => isPermitted(names, name);
  }
  return { file, source, validTo: Date.parse(c.validTo), dns, ips, permitted };
}

function parsed(file: string): X509Certificate | null {
  try {
    return new X509Certificate(readFileSync(file));
  } catch {
    return null;
  }
}

function pairs(cert: X509Certificate | null, keyFile: string): boolean {
  if (!cert) return false;
  try {
    return cert.checkPrivateKey(createPrivateKey(readFileSync(keyFile)));
  } catch {
    return false;
  }
}

/**
 * The certificate files as serve's loadTls reads them (src/platform/http/tls.ts): the operator's
 * own pair, or the data folder's tls/ with or without the box's local CA. Reads only.
 */
export function tlsFacts(dataDir: string, own?: { certFile: string; keyFile: string }): TlsFacts {
  const dir = join(dataDir, "tls");
  const certFile = own?.certFile ?? join(dir, "cert.pem");
  const keyFile = own?.keyFile ?? join(dir, "key.pem");
  const caFile = join(dir, "ca.pem");
  const caKeyFile = join(dir, "ca-key.pem");
  const cert = existsSync(certFile) ? parsed(certFile) : null;
  const ca = !own && existsSync(caFile) ? parsed(caFile) : null;
  return {
    own: own !== undefined,
    certFile,
    keyFile,
    caFile,
    caKeyFile,
    certPresent: existsSync(certFile),
    keyPresent: existsSync(keyFile),
    caPresent: !own && existsSync(caFile),
    caKeyPresent: !own && existsSync(caKeyFile),
    certReadable: cert !== null,
    caUsable: ca !== null && pairs(ca, caKeyFile),
    pairs: pairs(cert, keyFile),
    issuedByCa: cert !== null && ca !== null && cert.checkIssued(ca) && cert.verify(ca.publicKey),
    selfSigned: cert !== null && cert.issuer === cert.subject && cert.verify(cert.publicKey),
  };
}

/** Tries to listen on host:port; when taken, asks whoever holds it for /healthz. */
export async function portState(
  host: string,
  port: number,
  tls: boolean,
  lockHeld: boolean,
): Promise<PortState> {
  const error = await new Promise<string | null>((done) => {
    const s = createServer();
    s.once("error", (e: NodeJS.ErrnoException) => done(e.code ?? "ERROR"));
    s.listen({ host, port, exclusive: true }, () => s.close(() => done(null)));
  });
  if (error === null) return "free";
  if (error === "EACCES") return "denied";
  const probe = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const at = probe.includes(":") ? `[${probe}]` : probe;
  try {
    const r = await fetch(`${tls ? "https" : "http"}://${at}:${port}/healthz`, {
      tls: { rejectUnauthorized: false },
      signal: AbortSignal.timeout(3000),
    });
    const body = (await r.json()) as { status?: unknown };
    if (body.status === "ok") return lockHeld ? "this-parkd" : "other-parkd";
  } catch {}
  return "other";
}

function run(cmd: string[]): string | null {
  if (!Bun.which(cmd[0]!)) return null;
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString() : null;
}

/** The unit's state; null without systemctl; "not-running" where systemd is not PID 1 (a container). */
export function unitFacts(): UnitFacts | "not-running" | null {
  if (!Bun.which("systemctl")) return null;
  const out = run([
    "systemctl",
    "show",
    "parkd.service",
    "--property=LoadState,ActiveState,SubState,UnitFileState,NRestarts",
  ]);
  if (out === null) return "not-running";
  const p = Object.fromEntries(
    out
      .trim()
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  return {
    load: p.LoadState ?? "unknown",
    active: p.ActiveState ?? "unknown",
    sub: p.SubState ?? "unknown",
    enabled: p.UnitFileState || "unknown",
    restarts: Number(p.NRestarts ?? 0) || 0,
  };
}

/** NTP's own word (timedatectl), or undefined where there is none to ask. */
export function ntpSynchronized(): boolean | undefined {
  const out = run(["timedatectl", "show", "--property=NTPSynchronized", "--value"]);
  if (out === null) return undefined;
  return out.trim() === "yes";
}

/** The only writes doctor makes, and only with --fix. */
export function applyRepair(r: Repair): void {
  if (r.kind === "mkdir") mkdirSync(r.path, { recursive: true, mode: r.mode });
  else chmodSync(r.path, r.mode);
}
