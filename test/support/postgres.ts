import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, spawnSync } from "bun";
import { freePort } from "./binary.ts";

/**
 * A real PostgreSQL server for the sync tests: initdb in a temporary folder, listening on a free
 * loopback port only (its unix socket in the same folder), password authentication over TCP like
 * an office server would ask for, stopped by its pid and the folder removed afterwards.
 * Running as root (CI), the server runs as the `postgres` system user, which `./build.sh test`
 * creates with the Debian package; postgres refuses to run as root.
 */

export const PG_USER = "parkd_office";
export const PG_PASSWORD = "office-secret-for-tests";

/** The folder holding initdb/postgres: pg_config's, else the newest Debian version, else PATH. */
export function postgresBinDir(): string | null {
  const fromConfig = spawnSync(["pg_config", "--bindir"], { stdout: "pipe", stderr: "ignore" });
  if (fromConfig.exitCode === 0) {
    const dir = fromConfig.stdout.toString().trim();
    if (existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres"))) return dir;
  }
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], "bin");
  }
  for (const dir of ["/usr/local/bin", "/usr/bin"])
    if (existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres"))) return dir;
  return null;
}

/** Whether the sync tests can run here; under CI=true a missing server is a failure, not a skip. */
export function postgresAvailable(): boolean {
  const found = postgresBinDir() !== null;
  if (!found && process.env.CI === "true")
    throw new Error("PostgreSQL is not installed (./build.sh test installs Debian's postgresql package)");
  return found;
}

function runAsUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync(["id", "-u", "postgres"], { stdout: "pipe", stderr: "ignore" });
  const g = spawnSync(["id", "-g", "postgres"], { stdout: "pipe", stderr: "ignore" });
  if (r.exitCode !== 0 || g.exitCode !== 0)
    throw new Error("running as root needs a `postgres` system user to run the test server as");
  return { uid: Number(r.stdout.toString().trim()), gid: Number(g.stdout.toString().trim()) };
}

export interface PgServer {
  /** postgres://user@127.0.0.1:port/db, without the password (the box reads that separately). */
  url: string;
  /** The same with the password, for the test's own connections. */
  urlWithPassword: string;
  password: string;
  port: number;
  dir: string;
  /** Starts the server again on the same folder and port (after stop). */
  start(): Promise<void>;
  /** Immediate shutdown (SIGQUIT: like a crash, recovery on the next start) or a clean one. */
  stop(mode?: "immediate" | "fast"): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
  running(): boolean;
}

export interface PgOptions {
  /** Keep fsync on (benchmarks: the office's real cost of a commit); tests turn it off. */
  durable?: boolean;
  maxConnections?: number;
  /** More server settings, NAME=VALUE (benchmarks: pg_stat_statements). */
  settings?: string[];
  /**
   * TLS on, with a certificate made here (default: on, as an office server should be; boxes
   * require TLS unless their URL says sslmode=disable). false: a server without TLS.
   */
  ssl?: boolean;
}

/** A self-signed server certificate and key for the test server, in its folder. */
function serverCertificate(dir: string, owner: { uid: number; gid: number } | undefined): string[] {
  const cert = join(dir, "server.crt");
  const key = join(dir, "server.key");
  const made = spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  if (made.exitCode !== 0)
    throw new Error(`openssl could not make the test server's certificate: ${made.stderr}`);
  if (owner) for (const f of [cert, key]) chownSync(f, owner.uid, owner.gid);
  chmodSync(key, 0o600);
  return ["-c", "ssl=on", "-c", `ssl_cert_file=${cert}`, "-c", `ssl_key_file=${key}`];
}

export async function startPostgres(opts: PgOptions = {}): Promise<PgServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries not found");
  const owner = runAsUser();
  const dir = mkdtempSync(join(tmpdir(), "parkd-pg-"));
  const dataDir = join(dir, "data");
  const pwFile = join(dir, "pw");
  writeFileSync(pwFile, PG_PASSWORD);
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    chownSync(pwFile, owner.uid, owner.gid);
  }
  chmodSync(dir, 0o700);
  const as = owner ?? {};
  const init = spawnSync(
    [
      join(bin, "initdb"),
      "-D",
      dataDir,
      "-U",
      PG_USER,
      `--pwfile=${pwFile}`,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      // Nothing to keep across a crash of the test machine: skip initdb's fsync of every file.
      "--no-sync",
    ],
    { ...as, cwd: dir, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", LANG: "C" } },
  );
  if (init.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr.toString()}`);
  }
  const tls = opts.ssl === false ? [] : serverCertificate(dir, owner);
  const port = await freePort();
  let proc: ReturnType<typeof spawn> | null = null;
  let log = "";

  const ready = async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const check = spawnSync([join(bin, "pg_isready"), "-h", "127.0.0.1", "-p", String(port), "-t", "1"], {
        stdout: "ignore",
        stderr: "ignore",
      });
      if (check.exitCode === 0) return;
      if (proc?.exitCode !== null) throw new Error(`postgres exited: ${log}`);
      if (Date.now() > deadline) throw new Error(`postgres did not start in 20 s: ${log}`);
      await Bun.sleep(50);
    }
  };

  const server: PgServer = {
    url: `postgres://${PG_USER}@127.0.0.1:${port}/postgres`,
    urlWithPassword: `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`,
    password: PG_PASSWORD,
    port,
    dir,
    async start() {
      if (server.running()) return;
      log = "";
      proc = spawn(
        [
          join(bin, "postgres"),
          "-D",
          dataDir,
          "-p",
          String(port),
          "-k",
          dir,
          "-c",
          "listen_addresses=127.0.0.1",
          // Tests throw the folder away: durability on disk buys nothing there.
          "-c",
          `fsync=${opts.durable ? "on" : "off"}`,
          "-c",
          `max_connections=${opts.maxConnections ?? 200}`,
          ...tls,
          ...(opts.settings ?? []).flatMap((kv) => ["-c", kv]),
        ],
        { ...as, cwd: dir, stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin", LANG: "C" } },
      );
      const p = proc;
      void (async () => {
        const dec = new TextDecoder();
        for await (const chunk of p.stderr as ReadableStream<Uint8Array>) log += dec.decode(chunk);
      })();
      await ready();
    },
    async stop(mode = "fast") {
      const p = proc;
      if (!p || p.exitCode !== null || p.signalCode !== null) return;
      p.kill(mode === "immediate" ? "SIGQUIT" : "SIGINT");
      await p.exited;
      proc = null;
    },
    async destroy() {
      await server.stop("immediate");
      rmSync(dir, { recursive: true, force: true });
    },
    running: () => proc !== null && proc.exitCode === null && proc.signalCode === null,
  };
  try {
    await server.start();
  } catch (e) {
    await server.destroy();
    throw e;
  }
  return server;
}
